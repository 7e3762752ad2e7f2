package viewer

import (
	"net/http/httptest"
	"testing"
	"time"
)

// TestStreamSignalledBeforeStart starts an event stream whose channel was
// signalled, or closed (the game dropped), between the stream's
// registration and its start. The stream must send at once and end when
// told, neither blocking on the full channel nor sending on the closed one.
func TestStreamSignalledBeforeStart(t *testing.T) {
	v, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, closed := range []bool{false, true} {
		changed := make(chan struct{}, 1)
		changed <- struct{}{}
		if closed {
			close(changed)
		}
		sends := 0
		done := make(chan struct{})
		go func() {
			defer close(done)
			r := httptest.NewRequest("GET", "/events", nil)
			v.stream(httptest.NewRecorder(), r, changed, func() bool {
				sends++
				return sends < 2
			})
		}()
		select {
		case <-done:
		case <-time.After(time.Minute):
			t.Fatalf("closed %v: the stream did not end", closed)
		}
		if sends != 2 {
			t.Errorf("closed %v: %d sends, want 2 (the first at once, one for the signal)", closed, sends)
		}
	}
}

package proc_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/botarena/botarena/internal/proc"
	"pgregory.net/rapid"
)

// boundedWant is what a Bounded or a BoundedWriter of limit keeps of data,
// computed the naive way.
func boundedWant(data []byte, limit int) []byte {
	half := limit / 2
	if len(data) <= 2*half {
		return data
	}
	dropped := len(data) - 2*half
	var out []byte
	out = append(out, data[:half]...)
	out = append(out, "\n"+proc.TruncatedLine(int64(dropped))+"\n"...)
	return append(out, data[len(data)-half:]...)
}

func TestBoundedKeepsHeadAndTail(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		limit := rapid.IntRange(0, 64).Draw(t, "limit")
		chunks := rapid.SliceOf(rapid.SliceOfN(rapid.Byte(), 0, 80)).Draw(t, "chunks")
		b := proc.NewBounded(limit)
		var buf bytes.Buffer
		w := proc.NewBoundedWriter(&buf, limit)
		var all []byte
		for _, c := range chunks {
			if n, err := b.Write(c); n != len(c) || err != nil {
				t.Fatalf("Bounded.Write = %d, %v", n, err)
			}
			if n, err := w.Write(c); n != len(c) || err != nil {
				t.Fatalf("BoundedWriter.Write = %d, %v", n, err)
			}
			all = append(all, c...)
		}
		want := boundedWant(all, limit)
		if got := b.Bytes(); !bytes.Equal(got, want) {
			t.Fatalf("Bounded kept %q, want %q", got, want)
		}
		if b.Len() != int64(len(all)) {
			t.Fatalf("Len %d, want %d", b.Len(), len(all))
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(buf.Bytes(), want) {
			t.Fatalf("BoundedWriter wrote %q, want %q", buf.Bytes(), want)
		}
		w.Write([]byte("after close"))
		w.Close()
		if !bytes.Equal(buf.Bytes(), want) {
			t.Fatalf("BoundedWriter wrote after Close: %q", buf.Bytes())
		}
	})
}

func TestBoundedFlood(t *testing.T) {
	b := proc.NewBounded(proc.LogLimit)
	line := []byte(strings.Repeat("x", 99) + "\n")
	for range 100_000 { // 10 MB
		b.Write(line)
	}
	b.Write([]byte("the fault\n"))
	got := b.Bytes()
	if len(got) > proc.LogLimit+64 {
		t.Errorf("kept %d bytes of 10 MB, over the limit %d", len(got), proc.LogLimit)
	}
	if !bytes.HasSuffix(got, []byte("the fault\n")) || !bytes.Contains(got, []byte("[truncated ")) {
		t.Errorf("the end or the truncation line is missing: ...%q", got[len(got)-200:])
	}
}

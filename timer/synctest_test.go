package timer

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
	"time"
)

// A host under testing/synctest: the clock reads the bubble's fake
// time.Now, the host puts each ply's deadline on a context, and a bot
// either answers after thinking or stays silent until the context ends.
// Nothing sleeps: the bubble's clock jumps when every goroutine waits.
func TestSynctestHost(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		t0 := time.Now()
		k := NewClock(mustParse(t, "3s+2s/move whole-seconds"), nil)
		ply := func(side Side, think time.Duration) (time.Duration, error) {
			if err := k.Start(side); err != nil {
				return 0, err
			}
			dl, ok := k.Deadline()
			if !ok {
				t.Fatal("no deadline")
			}
			ctx, cancel := context.WithDeadline(t.Context(), dl)
			defer cancel()
			move := make(chan struct{}, 1)
			go func() { // the bot
				thinking := time.NewTimer(think)
				defer thinking.Stop()
				select {
				case <-thinking.C:
					move <- struct{}{}
				case <-ctx.Done():
				}
			}()
			select {
			case <-move:
			case <-ctx.Done():
			}
			return k.Stop()
		}

		if d, err := ply(First, 2500*time.Millisecond); d != 2500*time.Millisecond || err != nil {
			t.Fatalf("first ply: %v, %v", d, err)
		}
		// 2 s charged: 1 s main left, plus the 2 s period, plus the extra second.
		if d, err := ply(First, time.Hour); d != 4*time.Second || !errors.Is(err, ErrTimeUp) {
			t.Fatalf("silent ply: %v, %v; want 4s and ErrTimeUp", d, err)
		}
		if _, err := ply(First, 0); !errors.Is(err, ErrTimeUp) {
			t.Fatalf("a flagged player started again: %v", err)
		}
		if d, err := ply(Second, 5999*time.Millisecond); d != 5999*time.Millisecond || err != nil {
			t.Fatalf("second player: %v, %v", d, err)
		}
		s := k.Snapshot()
		// The first player's second ply started at 2.5 s and ran out 4 s later.
		if side, at, ok := s.OutOfTime(); !ok || side != First || at.Sub(t0) != 6500*time.Millisecond {
			t.Errorf("OutOfTime = %v, %v after the start, %v", side, at.Sub(t0), ok)
		}
		synctest.Wait()
	})
}

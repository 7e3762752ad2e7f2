package timer

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// A host's snapshot tells everything: the control, both clocks, the plies
// played and the deadline, whether the side is thinking or not.
func TestSnapshotStatus(t *testing.T) {
	var f fakeClock
	c := mustParse(t, "10s+3s/2")
	k := NewClock(c, f.now)
	must(t, k.Start(First))
	f.advance(12 * time.Second) // 10 s of main, 2 s of the period
	_, err := k.Stop()
	must(t, err)
	must(t, k.Start(Second))
	f.advance(time.Second)

	s := k.Snapshot()
	got := s.Status(First)
	want := Status{
		Control: c, ControlTold: true, Side: First,
		Own:      Remaining{Told: true, Byoyomi: true, Period: time.Second, PliesLeft: 1},
		Opponent: Remaining{Told: true, Main: 9 * time.Second, Period: 3 * time.Second, PliesLeft: 2},
		Played:   1,
		Start:    s.At,
		Deadline: s.At.Add(time.Second + time.Millisecond),
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("Status(First) while Second thinks (-want +got):\n%s", d)
	}
	got = s.Status(Second)
	dl, _ := k.Deadline()
	want = Status{
		Control: c, ControlTold: true, Side: Second,
		Own:      Remaining{Told: true, Main: 9 * time.Second, Period: 3 * time.Second, PliesLeft: 2},
		Opponent: Remaining{Told: true, Byoyomi: true, Period: time.Second, PliesLeft: 1},
		Start:    s.At,
		Deadline: dl,
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("Status(Second) while it thinks (-want +got):\n%s", d)
	}
	if got := s.Status(Side(2)); got != (Status{}) {
		t.Errorf("Status(2) = %+v, want the zero Status", got)
	}

	// a side out of time has no time left: its deadline is now
	f.advance(time.Hour)
	_, err = k.Stop()
	if err == nil {
		t.Fatal("an hour in a 12 s allowance is in time")
	}
	s = k.Snapshot()
	if got := s.Status(Second); !got.Deadline.Equal(s.At) {
		t.Errorf("deadline of a side out of time %v, want %v", got.Deadline, s.At)
	}
	if b := new(Manager).Allot(s.Status(Second)); b.Hard != 0 {
		t.Errorf("budget of a side out of time %+v", b)
	}
}

func TestStatusHelpers(t *testing.T) {
	t0 := epoch()
	for _, tt := range []struct {
		name string
		got  Status
		want Status
	}{
		{"untold", Untold(Control{}, t0), Status{Start: t0}},
		{"untold with byo-yomi", Untold(mustParse(t, "600s+10s/move"), t0), Status{Control: mustParse(t, "600s+10s/move"), Start: t0}},
		{"untold cap", Untold(PerMove(10*time.Second), t0), Status{Control: PerMove(10 * time.Second), Start: t0, Deadline: t0.Add(10 * time.Second)}},
		{"per move", PerMoveStatus(5*time.Second, true, t0), Status{
			Control: PerMove(5 * time.Second), ControlTold: true, Own: Remaining{Told: true}, Opponent: Remaining{Told: true},
			Start: t0, Deadline: t0.Add(5 * time.Second),
		}},
		{"per move default", PerMoveStatus(5*time.Second, false, t0), Status{Control: PerMove(5 * time.Second), Start: t0, Deadline: t0.Add(5 * time.Second)}},
		{"per move negative", PerMoveStatus(-time.Second, false, t0), Status{Start: t0}},
		{"time left", TimeLeftStatus(mustParse(t, "900s"), 5*time.Second, -time.Second, t0), Status{
			Control: mustParse(t, "900s"), ControlTold: true,
			Own: Remaining{Told: true, Main: 5 * time.Second}, Opponent: Remaining{Told: true},
			Start: t0, Deadline: t0.Add(5*time.Second + time.Millisecond),
		}},
		{"time left, byo-yomi", TimeLeftStatus(mustParse(t, "60s+30s/5 whole-seconds"), 0, time.Second, t0), Status{
			Control: mustParse(t, "60s+30s/5 whole-seconds"), ControlTold: true,
			Own:      Remaining{Told: true, Byoyomi: true, Period: 30 * time.Second, PliesLeft: 5},
			Opponent: Remaining{Told: true, Main: time.Second, Period: 30 * time.Second, PliesLeft: 5},
			Start:    t0, Deadline: t0.Add(31 * time.Second),
		}},
	} {
		if d := cmp.Diff(tt.want, tt.got); d != "" {
			t.Errorf("%s (-want +got):\n%s", tt.name, d)
		}
	}
}

// The context carries the Status; its deadline is the earlier of the
// Status's and the context's.
func TestStatusContext(t *testing.T) {
	t0 := time.Now()
	s := TimeLeftStatus(mustParse(t, "900s"), time.Minute, time.Minute, t0)
	ctx := WithStatus(context.Background(), s)
	got, ok := StatusFrom(ctx)
	if !ok || got != s {
		t.Fatalf("StatusFrom = %+v, %v; want %+v", got, ok, s)
	}
	early := t0.Add(time.Second)
	dctx, cancel := context.WithDeadline(ctx, early)
	defer cancel()
	if got, ok := StatusFrom(dctx); !ok || !got.Deadline.Equal(early) {
		t.Fatalf("deadline under an earlier context deadline %v, %v; want %v", got.Deadline, ok, early)
	}
	lctx, cancel2 := context.WithDeadline(ctx, t0.Add(time.Hour))
	defer cancel2()
	if got, _ := StatusFrom(lctx); !got.Deadline.Equal(s.Deadline) {
		t.Fatalf("deadline under a later context deadline %v; want %v", got.Deadline, s.Deadline)
	}

	// nothing on the context: the context's deadline, and now
	before := time.Now()
	bctx, cancel3 := context.WithDeadline(context.Background(), early)
	defer cancel3()
	got, ok = StatusFrom(bctx)
	if ok || !got.Deadline.Equal(early) || got.Start.Before(before) || got.ControlTold || got.Own.Told {
		t.Fatalf("StatusFrom a bare context = %+v, %v", got, ok)
	}
	// a nil context, on purpose
	if got, ok := StatusFrom(nil); ok || !got.Deadline.IsZero() || got.Start.IsZero() {
		t.Fatalf("StatusFrom(nil) = %+v, %v", got, ok)
	}
	// a nil context, on purpose
	if got, ok := StatusFrom(WithStatus(nil, s)); !ok || got != s {
		t.Fatalf("StatusFrom(WithStatus(nil)) = %+v, %v", got, ok)
	}
}

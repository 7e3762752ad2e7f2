package main

import (
	"context"
	"testing"
	"time"

	"github.com/botarena/botarena/timer"
)

// TestKeeperStatus: a keeper tells the search the match's control in place
// of what the protocol tells or assumes, keeps a game clock the protocol
// told, and has no clock to tell under a per-move limit; with told set
// (the PDD runner's budget) it takes the protocol's Status as it is.
func TestKeeperStatus(t *testing.T) {
	start := time.Now()
	perMove := timer.PerMove(100 * time.Millisecond)
	// MGTP under a per-move limit: time_setting and time_left say 100 ms.
	mgtp := timer.TimeLeftStatus(timer.Control{Main: 100 * time.Millisecond}, 100*time.Millisecond, 100*time.Millisecond, start)
	ctx := timer.WithStatus(context.Background(), mgtp)
	k := keeper{ctl: perMove}
	s := k.status(ctx)
	if s.Control != perMove || !s.ControlTold || s.Own != (timer.Remaining{Told: true}) || !s.Deadline.Equal(mgtp.Deadline) || !s.Start.Equal(start) {
		t.Errorf("per-move over MGTP: %+v; want the match's control, no clock, MGTP's deadline and start", s)
	}
	var tm timer.Manager
	if b := tm.Allot(s); b.Hard > 50*time.Millisecond || b.Hard < 40*time.Millisecond {
		t.Errorf("per-move over MGTP: hard limit %v; want 100 ms less the default margin and a sixteenth", b.Hard)
	}

	// A game clock told by the protocol is kept.
	sd := timer.Control{Main: 900 * time.Second}
	told := timer.TimeLeftStatus(sd, 300*time.Second, 500*time.Second, start)
	k = keeper{ctl: sd}
	if s := k.status(timer.WithStatus(context.Background(), told)); s.Own.Main != 300*time.Second || !s.Own.Told || s.Control != sd {
		t.Errorf("sudden death told: %+v; want the told clock", s)
	}

	// Nothing told (TUS): the match's control; the Manager keeps the clock.
	k = keeper{ctl: sd}
	if s := k.status(timer.WithStatus(context.Background(), timer.Untold(timer.Control{}, start))); s.Own.Told || s.Control != sd || !s.ControlTold {
		t.Errorf("sudden death untold: %+v; want the match's control, the clock untold", s)
	}

	// The PDD runner's budget is taken as it is.
	run := timer.PerMoveStatus(75*time.Millisecond, true, start)
	k = keeper{ctl: perMove, told: true}
	if s := k.status(timer.WithStatus(context.Background(), run)); s != run {
		t.Errorf("PDD runner: %+v; want %+v", s, run)
	}
}

// TestKeep: under a limit the search runs on the Manager's budget (a
// deadline at its hard limit, within the protocol's deadline); under no
// limit on the context as it is, with no deadline.
func TestKeep(t *testing.T) {
	start := time.Now()
	ctx := timer.WithStatus(context.Background(), timer.Untold(timer.Control{}, start))
	k := keeper{ctl: timer.PerMove(time.Second)}
	var deadline time.Time
	if _, err := keep(&k, ctx, func(ctx context.Context) (int, error) {
		deadline, _ = ctx.Deadline()
		return 0, nil
	}); err != nil {
		t.Fatal(err)
	}
	if d := deadline.Sub(start); d <= 800*time.Millisecond || d >= time.Second {
		t.Errorf("1 s a move: the search's deadline is %v after the ply's start; want 1 s less the margins", d)
	}
	k = keeper{}
	var has bool
	keep(&k, ctx, func(ctx context.Context) (int, error) {
		_, has = ctx.Deadline()
		return 0, nil
	})
	if has {
		t.Error("no limit: the search has a deadline")
	}
}

// TestPDDBudget: the strategy runner's budget of a PDD built-in under each
// kind of control.
func TestPDDBudget(t *testing.T) {
	ms := time.Millisecond
	for _, c := range []struct {
		ctl      string
		min, max time.Duration
		ok       bool
	}{
		{ctl: "none"},
		{ctl: "5s/move", min: 4990 * ms, max: 4990 * ms, ok: true},
		{ctl: "100ms/move", min: 90 * ms, max: 90 * ms, ok: true},
		{ctl: "20ms/move", min: 10 * ms, max: 10 * ms, ok: true},
		// 900 s shared among a side's 34 moves at most, latency kept back
		// for each.
		{ctl: "900s", min: 26 * time.Second, max: 900 * time.Second / pddMaxMovesPerSide, ok: true},
		{ctl: "900s 10s/move", min: 9990 * ms, max: 9990 * ms, ok: true},
	} {
		ctl, err := timer.Parse(c.ctl)
		if err != nil {
			t.Fatal(err)
		}
		got, ok := pddBudget(ctl)
		if ok != c.ok || got < c.min || got > c.max {
			t.Errorf("%s: budget %v, %v; want %v to %v, %v", c.ctl, got, ok, c.min, c.max, c.ok)
		}
	}
}

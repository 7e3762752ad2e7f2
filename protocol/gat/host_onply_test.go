package gat

import (
	"testing"

	"github.com/botarena/botarena/geister"
	"github.com/botarena/botarena/timer"
)

// TestHostOnPly: OnPly reports the start of play and every accepted
// move of both sides, in order, with the position after it, the capture,
// the clock and, on the last, the result.
func TestHostOnPly(t *testing.T) {
	h := &Host{}
	events := make(chan PlyEvent, 64)
	h.OnPly = func(e PlyEvent) { events <- e }
	recs := jgRecords(h)
	addrs := jgServe(t, h)
	ctx := jgContext(t)
	p0, p1, p := jgPair(t, ctx, addrs) // first: B-E red; second: E-H red
	// The game of TestHostCaptureAcks: the first player's A
	// captures a blue d, then a red h, then escapes, written NORTH (the
	// event has it WEST, normalised).
	first := []string{"A,W", "A,N", "A,N", "A,N", "A,E", "A,N", "A,W", "A,N"}
	second := []string{"H,E", "A,N", "A,S", "A,N", "A,S", "A,N", "A,S"}
	want := []PlyEvent{{N: 0, Move: geister.NoMove, Mover: geister.First, Position: p}}
	play := func(c *jgClient, mover geister.Color, mv string) {
		t.Helper()
		jgMust(t, c.send("MOV:"+mv))
		m, err := geister.ParseMove(mv)
		if err != nil {
			t.Fatal(err)
		}
		m = p.Normalize(m)
		_, col, ok := p.Captures(m)
		if !ok {
			col = geister.Unknown
		}
		q := jgPlay(t, p, mv)
		want = append(want, PlyEvent{N: q.Ply(), Move: m, Mover: mover, Capture: col, Position: q, Result: q.Result()})
		p = q
		if _, err := c.next(ctx); err != nil { // the ack
			t.Fatal(err)
		}
	}
	for i, mv := range first {
		play(p0, geister.First, mv)
		if i == len(second) {
			break
		}
		jgMust(t, p1.expect(ctx, jgMOV(p)))
		play(p1, geister.Second, second[i])
		jgMust(t, p0.expect(ctx, jgMOV(p)))
	}
	rec := jgNextRecord(t, ctx, recs)
	if rec.Result.Reason != geister.ChessEscape {
		t.Fatalf("result %v, want an escape", rec.Result)
	}
	var got []PlyEvent
	for len(events) > 0 {
		got = append(got, <-events)
	}
	if len(got) != len(want) {
		t.Fatalf("%d events, want %d: %+v", len(got), len(want), got)
	}
	java, _ := timer.JavaGeister(timer.JavaGeisterBudget, timer.JavaGeisterTimeout)
	for i, e := range got {
		if e.Clock.Control != java || e.Clock.At.IsZero() {
			t.Errorf("event %d: clock %+v, want a snapshot of %v", i, e.Clock, java)
		}
		if e.Game != rec.ID || e.Players != rec.Remote {
			t.Errorf("event %d: game %d of %q, want %d of %q", i, e.Game, e.Players, rec.ID, rec.Remote)
		}
		e.Clock, e.Game, e.Players = want[i].Clock, want[i].Game, want[i].Players
		if e != want[i] {
			t.Errorf("event %d:\n got %+v\nwant %+v", i, e, want[i])
		}
	}
	if got[len(got)-1].Result != rec.Result {
		t.Errorf("last event's result %v, the game's %v", got[len(got)-1].Result, rec.Result)
	}
}

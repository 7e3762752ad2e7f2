package main

import (
	"testing"
	"time"

	"github.com/botarena/botarena/timer"
)

// TestThinkerBudget: the time a built-in search thinks over a move under
// each kind of control.
func TestThinkerBudget(t *testing.T) {
	ms := time.Millisecond
	for _, c := range []struct {
		ctl  string
		t    thinker // ctl is set from the text
		left time.Duration
		want time.Duration
		ok   bool
	}{
		{ctl: "none"},
		{ctl: "100ms/move", want: 75 * ms, ok: true},                                          // 25 ms kept back
		{ctl: "50ms/move", want: 25 * ms, ok: true},                                           // 25 ms kept back
		{ctl: "20ms/move", want: 2 * ms, ok: true},                                            // at least a tenth
		{ctl: "10s/move", want: 7500 * ms, ok: true},                                          // a quarter kept back
		{ctl: "5s/move", t: thinker{reserve: thinkReserveProgram}, want: 3750 * ms, ok: true}, // PDD
		{ctl: "150ms/move", t: thinker{reserve: thinkReserveProgram}, want: 105 * ms, ok: true},
		{ctl: "900s", want: 30 * time.Second, ok: true},                                                 // 900 s over 30 moves
		{ctl: "900s", left: 300 * time.Second, want: 10 * time.Second, ok: true},                        // as MGTP tells
		{ctl: "900s", t: thinker{used: 600 * time.Second, moves: 20}, want: 10 * time.Second, ok: true}, // as measured
		{ctl: "900s", t: thinker{movesToGo: pddMaxMovesPerSide}, want: 900 * time.Second / 34, ok: true},
		{ctl: "60s+2s", want: 3500 * ms, ok: true},                                             // 2 s + 1.5 s of the increment
		{ctl: "600s+10s/move", want: 20 * time.Second, ok: true},                               // byo-yomi: the main time first
		{ctl: "600s+10s/move", t: thinker{used: 600 * time.Second}, want: 7500 * ms, ok: true}, // then the period
		{ctl: "900s 30s/move", want: 22500 * ms, ok: true},                                     // the cap wins
		{ctl: "900s", t: thinker{used: time.Hour}, want: ms, ok: true},                         // out of time: the floor
	} {
		ctl, err := timer.Parse(c.ctl)
		if err != nil {
			t.Fatal(err)
		}
		th := c.t
		th.ctl = ctl
		if got, ok := th.budget(c.left); got != c.want || ok != c.ok {
			t.Errorf("%s (%+v), left %v: budget %v, %v; want %v, %v", c.ctl, c.t, c.left, got, ok, c.want, c.ok)
		}
	}
}

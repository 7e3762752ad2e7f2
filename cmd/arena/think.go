package main

import (
	"cmp"
	"context"
	"time"

	"github.com/botarena/botarena/timer"
)

// How a built-in search bot (mcts) spends the match's time control.
const (
	// thinkMovesToGo is the number of moves a bot plans its clock for: each
	// move under a game clock gets the time left divided by it, plus most of
	// the increment, so that the clock never runs out however long the game.
	thinkMovesToGo = 30
	// thinkReserve is the least time of a per-move cap (10s/move) a bot
	// keeps back for the protocol and for the scheduler, which may hold a
	// process for a few milliseconds; it keeps back a quarter of a longer
	// cap, and thinks at least a tenth of a shorter one. At 100 ms a move it
	// thinks 75 ms. (A machine loaded past its cores delays a process by
	// tens of milliseconds: give such matches a longer cap.)
	thinkReserve = 25 * time.Millisecond
	// thinkReserveProgram is thinkReserve for a bot run as a program per
	// move (a PDD strategy), which also starts (about 10 ms for arena's
	// binary) and reads and writes its files within the cap.
	thinkReserveProgram = 45 * time.Millisecond
	// thinkFloor is the least a bot thinks over a move under a control with
	// a limit.
	thinkFloor = time.Millisecond
)

// mctsTimeHelp is what "arena help match" says of the search bots' time.
const mctsTimeHelp = `The built-in search bots (mcts; alphabeta of PDD, expecti of dark chess) search each
move for a share of -time: a per-move limit less a quarter of it, or at least 25 ms (40 ms
for Othello's mcts, which runs inside arena; 45 ms for PDD, whose strategy is a program
started afresh for each move), but at least a tenth of it; under a game clock, the time left over 30 moves plus three quarters of the
increment; under -time none, a fixed number of playouts or a fixed depth a move, so that
the same -seed replays their games.`

// A thinker gives a built-in search bot its time for each move under the
// match's time control, as far as the bot can know its clock: the time left
// when the protocol tells it (MGTP's time_left), else the control less the
// time the bot has measured itself thinking. Under a control with no limit it
// gives none, and the search plays its playout budget, so that the games
// replay from the seed. The zero thinker gives no limit.
type thinker struct {
	ctl       timer.Control
	reserve   time.Duration // the least time of a per-move cap kept back; 0 means thinkReserve
	movesToGo int           // the moves a game clock is planned for; 0 means thinkMovesToGo
	used      time.Duration // the time of the bot's moves so far, as it measured it
	moves     int           // the bot's moves so far
}

// budget returns how long to think over the next move, and false under a
// control with no limit. left is the time left on the bot's clock when the
// protocol tells it, 0 when not.
func (t *thinker) budget(left time.Duration) (time.Duration, bool) {
	c := t.ctl
	if c.Unlimited() {
		return 0, false
	}
	var d time.Duration
	if c.Main > 0 || c.Period > 0 {
		if left <= 0 {
			left = max(c.Main+time.Duration(t.moves)*c.Increment-t.used, 0)
		}
		d = left/time.Duration(cmp.Or(t.movesToGo, thinkMovesToGo)) + c.Increment*3/4
		if c.Period > 0 {
			// Byo-yomi: each ply has its share of the period once the
			// main time is spent.
			d = max(d, c.Period/time.Duration(max(c.PliesPerPeriod, 1))*3/4)
		}
	}
	if c.MoveCap > 0 {
		reserve := max(c.MoveCap/4, cmp.Or(t.reserve, thinkReserve))
		if cp := max(c.MoveCap-reserve, c.MoveCap/10); d == 0 || cp < d {
			d = cp
		}
	}
	return max(d, thinkFloor), true
}

// think runs search with ctx's deadline brought forward to the move's
// budget, and charges the time it took to the bot's clock.
func think[M any](t *thinker, ctx context.Context, left time.Duration, search func(context.Context) (M, error)) (M, error) {
	start := time.Now()
	if d, ok := t.budget(left); ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, start.Add(d))
		defer cancel()
	}
	m, err := search(ctx)
	t.used += time.Since(start)
	t.moves++
	return m, err
}

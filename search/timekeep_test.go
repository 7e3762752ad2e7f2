package search_test

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/botarena/botarena/darkchess"
	"github.com/botarena/botarena/othello"
	"github.com/botarena/botarena/search"
	"github.com/botarena/botarena/timer"
)

// timeSlack is what a ply may take past its hard limit in these tests: the
// searches look at the time every few nodes or playouts, but a loaded
// machine may not run them for a while.
const timeSlack = time.Second

// darkChessMidgameView returns a view of a dealt dark chess game some random
// plies in, with pieces face up on both sides to search.
func darkChessMidgameView(t *testing.T) darkchess.View {
	t.Helper()
	rng := rand.New(rand.NewPCG(19, 3))
	p := darkchess.Opening.Deal(rng)
	for range 24 {
		moves := p.AppendLegalMoves(nil)
		if p.IsOver() || len(moves) == 0 {
			t.Fatal("the random game ended early")
		}
		p = p.PlayUnchecked(moves[rng.IntN(len(moves))])
	}
	if p.IsOver() || p.NumLegalMoves() < 2 {
		t.Fatal("no choice in the midgame position")
	}
	return p.View(p.Turn())
}

// suddenDeath returns the Status of a first ply under sudden death main,
// both clocks told and full, its deadline the whole main time.
func suddenDeath(main time.Duration, start time.Time) timer.Status {
	full := timer.Remaining{Told: true, Main: main}
	return timer.Status{
		Control: timer.Control{Main: main}, ControlTold: true,
		Own: full, Opponent: full, Start: start, Deadline: start.Add(main),
	}
}

// TestDarkChessExpectimaxPlayerKeepsTime: under a 20 s sudden-death clock
// told on the context, whose deadline is the whole 20 s (the MGTP case),
// the player (and DarkChessBestPlayer) answers within the hard limit a
// default time manager gives the ply (which shares the time among more
// plies than the player's own, so gives it a larger share), far from the
// deadline. With a deadline alone and no Status, the deadline is the
// caller's budget for the ply: the player answers by it.
func TestDarkChessExpectimaxPlayerKeepsTime(t *testing.T) {
	t.Parallel()
	v := darkChessMidgameView(t)
	for _, c := range []struct {
		name   string
		player func(search.DepthOptions) darkchess.Player
	}{{"expectimax", search.DarkChessExpectimaxPlayer}, {"best", search.DarkChessBestPlayer}} {
		start := time.Now()
		s := suddenDeath(20*time.Second, start)
		var tm timer.Manager
		b := tm.Allot(s)
		if b.Hard > 20*time.Second/5 {
			t.Fatalf("the manager's hard limit %v is not far from the deadline", b.Hard)
		}
		ctx, cancel := context.WithDeadline(timer.WithStatus(context.Background(), s), s.Deadline)
		m, err := c.player(search.DepthOptions{}).Play(ctx, v)
		took := time.Since(start)
		cancel()
		if err != nil || !v.IsLegal(m) {
			t.Fatalf("%s: %s, %v; want a legal ply", c.name, m, err)
		}
		if took > b.Hard+timeSlack {
			t.Errorf("%s: the ply took %v, want at most the hard limit %v (and %v of slack)", c.name, took, b.Hard, timeSlack)
		}

		const budget = 300 * time.Millisecond
		start = time.Now()
		ctx, cancel = context.WithDeadline(context.Background(), start.Add(budget))
		m, err = c.player(search.DepthOptions{}).Play(ctx, v)
		took = time.Since(start)
		cancel()
		if err != nil || !v.IsLegal(m) {
			t.Fatalf("%s, no Status: %s, %v; want a legal ply", c.name, m, err)
		}
		if took > budget+timeSlack {
			t.Errorf("%s, no Status: the ply took %v, want at most its deadline %v (and %v of slack)", c.name, took, budget, timeSlack)
		}
	}
}

// TestMCTSPlayerKeepsTime: the MCTS players, under a 20 s sudden-death
// clock told on the context with the whole 20 s as its deadline, stop at
// their soft target, far from it.
func TestMCTSPlayerKeepsTime(t *testing.T) {
	t.Parallel()
	start := time.Now()
	s := suddenDeath(20*time.Second, start)
	var tm timer.Manager
	b := tm.Allot(s)
	ctx, cancel := context.WithDeadline(timer.WithStatus(context.Background(), s), s.Deadline)
	defer cancel()
	p := othello.Standard.Start
	m, err := search.OthelloPlayer(search.Options{Seed: 1}).Play(ctx, p)
	took := time.Since(start)
	if err != nil || !p.IsLegal(m) {
		t.Fatalf("%s, %v; want a legal move", m, err)
	}
	if took > b.Hard+timeSlack {
		t.Errorf("the move took %v, want at most the hard limit %v (and %v of slack)", took, b.Hard, timeSlack)
	}
}

// TestPlayerUnlimitedStatusKeepsBudget: a Status that limits nothing, on a
// context with no deadline, leaves the player its fixed playout budget:
// the same move as with no Status at all.
func TestPlayerUnlimitedStatusKeepsBudget(t *testing.T) {
	t.Parallel()
	p := othello.Standard.Start
	o := search.Options{Seed: 5, Playouts: 300}
	want, err := search.OthelloPlayer(o).Play(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	ctx := timer.WithStatus(context.Background(), timer.Untold(timer.Control{}, time.Now()))
	got, err := search.OthelloPlayer(o).Play(ctx, p)
	if err != nil || got != want {
		t.Errorf("with an unlimited Status: %s, %v; want %s, as with none", got, err, want)
	}
}

// TestOthelloPlayerWholeGameInTime: a whole game of Othello under a 2 s
// sudden-death clock, the player's side told its Status from the clock at
// every move and its deadline on the context, the other side a random
// player moving at once: the player never runs out of time, and its time
// spent stays within the control. The clock that judges it has timeSlack
// more than the player is told, for the stalls of a loaded machine (at a
// load of 14 on 2 cores, one move took 40 ms past the 50 ms latency
// margin), which no plan can foresee.
func TestOthelloPlayerWholeGameInTime(t *testing.T) {
	t.Parallel()
	const main = 2 * time.Second
	for _, bot := range []struct {
		name   string
		player othello.Player
	}{
		{"mcts", search.OthelloPlayer(search.Options{Seed: 3})},
		{"alphabeta", search.OthelloAlphaBetaPlayer(search.DepthOptions{TableSize: 1 << 14})},
	} {
		clock := timer.NewClock(timer.Control{Main: main + timeSlack}, time.Now)
		rng := rand.New(rand.NewPCG(11, 2))
		p := othello.Standard.Start
		me := p.Turn()
		var spent time.Duration
		moves := 0
		for !p.IsOver() {
			side := timer.First
			if p.Turn() != me {
				side = timer.Second
			}
			if err := clock.Start(side); err != nil {
				t.Fatalf("%s: %v", bot.name, err)
			}
			var m othello.Move
			if p.Turn() == me {
				s := clock.Snapshot().Status(side)
				s.Control.Main = main
				s.Own.Main = max(s.Own.Main-timeSlack, 0)
				s.Opponent.Main = max(s.Opponent.Main-timeSlack, 0)
				s.Deadline = s.Deadline.Add(-timeSlack)
				ctx, cancel := context.WithDeadline(timer.WithStatus(context.Background(), s), s.Deadline)
				var err error
				m, err = bot.player.Play(ctx, p)
				cancel()
				if err != nil {
					t.Fatalf("%s: move %d: %v", bot.name, moves, err)
				}
				moves++
			} else {
				legal := p.AppendLegalMoves(nil)
				m = legal[rng.IntN(len(legal))]
			}
			took, err := clock.Stop()
			if err != nil {
				t.Fatalf("%s: move %d: %v (took %v, %v spent before)", bot.name, moves, err, took, spent)
			}
			if side == timer.First {
				spent += took
			}
			next, err := p.Play(m)
			if err != nil {
				t.Fatalf("%s: move %d: %s: %v", bot.name, moves, m, err)
			}
			p = next
		}
		if spent > main+timeSlack {
			t.Errorf("%s: the player spent %v over %d moves, more than the %v control", bot.name, spent, moves, main)
		}
		if moves < 20 {
			t.Errorf("%s: the game lasted only %d of the player's moves", bot.name, moves)
		}
	}
}

// TestWithBudget: a search run under search.WithBudget stops at the soft
// target, long before its hard limit; an unlimited Budget leaves the fixed
// playout budget alone (the same move as with no budget at all).
func TestWithBudget(t *testing.T) {
	t.Parallel()
	p := othello.Standard.Start
	start := time.Now()
	b := timer.Budget{Start: start, Soft: 50 * time.Millisecond, Hard: time.Minute, Limited: true}
	ctx, cancel := search.WithBudget(context.Background(), b)
	if d, ok := ctx.Deadline(); !ok || !d.Equal(b.HardAt()) {
		t.Errorf("deadline %v, %v; want the hard limit %v", d, ok, b.HardAt())
	}
	x := search.NewMCTS(search.Othello{}, search.Options{Seed: 3, Workers: 1})
	res, err := x.Search(ctx, p)
	took := time.Since(start)
	cancel()
	if err != nil || !p.IsLegal(res.Move) {
		t.Fatalf("%v, %v; want a legal move", res.Move, err)
	}
	if took > b.Soft+timeSlack {
		t.Errorf("the search took %v; want it to stop at its soft target %v (and %v of slack)", took, b.Soft, timeSlack)
	}

	o := search.Options{Seed: 5, Playouts: 200, Workers: 1}
	want, err := search.NewMCTS(search.Othello{}, o).Search(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel = search.WithBudget(context.Background(), timer.Budget{Soft: time.Nanosecond, Hard: time.Nanosecond})
	defer cancel()
	if _, ok := ctx.Deadline(); ok {
		t.Error("an unlimited budget put a deadline on the context")
	}
	got, err := search.NewMCTS(search.Othello{}, o).Search(ctx, p)
	if err != nil || got.Move != want.Move || got.Playouts != want.Playouts {
		t.Errorf("unlimited budget: %v after %d playouts, %v; want %v after %d", got.Move, got.Playouts, err, want.Move, want.Playouts)
	}
}

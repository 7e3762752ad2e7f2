package main

import (
	"context"
	"time"

	"github.com/botarena/botarena/search"
	"github.com/botarena/botarena/timer"
)

// pddProgramReserve is the time of a per-move cap that a PDD built-in run
// as a program per move ("arena bot pdd") keeps back for the referee's side of the
// move: from its clock's start to the program's start, and from the
// program's exit to its clock's stop. The runner's budget, which counts
// from the program's start (permove.Options.Start, from /proc on Linux),
// is the cap less this; the time manager keeps its own latency margin, for
// writing the files and exiting, within the budget. Where the program's
// start is not known, the budget counts from the runner's start, and the
// margin covers the program's start as well.
const pddProgramReserve = 10 * time.Millisecond

// programStartKey is the context key of the instant the arena program
// started, which main puts on the context when the system tells it
// (permove.ProgramStart), for a PDD built-in's budget.
type programStartKey struct{}

// mctsTimeHelp is what "arena help match" says of the search bots' time.
const mctsTimeHelp = `The built-in search bots (alphabeta, best, mcts, expecti) share out -time with the time manager of
package timer, as the search players of package search do on any platform: under a per-move
limit each move searches the limit less a latency margin (50 ms at first, more after slow
answers) and a sixteenth for overshoot; under a game clock each move gets a share of the time
left (the time left as the protocol tells it, or as the bot measured it) and most of the
increment, keeping a margin back for every move still to come; a PDD bot's runner keeps back
a fifth of the time, at most 50 ms, to write its move. Under -time none they search a fixed
number of playouts or a fixed depth a move, so that the same -seed replays their games.`

// A keeper gives a built-in search bot its time for each ply: from the
// match's time control (-time, which the bot is told when it starts) and
// the clocks its protocol tells it ([timer.StatusFrom]), a
// [timer.Manager] budgets the ply, as package search's players do. Under a
// control with no limit it gives none, and the search plays its fixed
// budget, so that the games replay from the seed. One keeper serves one
// game.
type keeper struct {
	ctl timer.Control
	// movesToGo is the Manager's MovesToGo; 0 its default.
	movesToGo int
	// told takes the control the protocol tells as it is (the PDD strategy
	// runner's budget), rather than ctl.
	told bool
	tm   timer.Manager
	used bool // tm has budgeted a ply
}

// unlimited reports that the match gave the bot no time limit.
func (k *keeper) unlimited() bool { return k.ctl.Unlimited() }

// status returns the Status of the ply ctx asks for: the protocol's, with
// the match's control told in place of what the protocol tells or assumes
// (MGTP tells a per-move limit as a main time, TUS nothing). Under a
// control without a game clock there is no clock to tell; under a game
// clock the protocol's own clock is kept when it told it, and otherwise
// the Manager keeps the clock from what it measured.
func (k *keeper) status(ctx context.Context) timer.Status {
	s, _ := timer.StatusFrom(ctx)
	if k.told || s.ControlTold && s.Control == k.ctl {
		return s
	}
	s.Control, s.ControlTold = k.ctl, true
	if k.ctl.Main == 0 && k.ctl.Period == 0 {
		s.Own, s.Opponent = timer.Remaining{Told: true}, timer.Remaining{Told: true}
	}
	return s
}

// withStatus returns ctx carrying the ply's Status (see
// [keeper.status]), for a player of package search, which budgets the ply
// itself; under no limit, ctx as it is.
func (k *keeper) withStatus(ctx context.Context) context.Context {
	if k.unlimited() {
		return ctx
	}
	return timer.WithStatus(ctx, k.status(ctx))
}

// keep runs search for one ply under the budget the keeper's Manager
// gives it (search.WithBudget: the hard limit as the deadline, the soft
// target the searches stop at), and tells the Manager what the ply took.
// Under no limit it runs search on ctx as it is.
func keep[M any](k *keeper, ctx context.Context, run func(context.Context) (M, error)) (M, error) {
	if k.unlimited() {
		return run(ctx)
	}
	if !k.used {
		k.tm, k.used = timer.Manager{MovesToGo: k.movesToGo}, true
	}
	b := k.tm.Allot(k.status(ctx))
	bctx, cancel := search.WithBudget(ctx, b)
	defer cancel()
	m, err := run(bctx)
	k.tm.Observe(time.Since(b.Start), 0)
	return m, err
}

// pddBudget returns the strategy runner's budget for a PDD built-in under
// the match's control ctl (permove.Options.Budget), and false under no
// limit. A program per move knows nothing of its clock but the control:
// under a game clock each move may take an even share of the time, kept
// for all the moves a side may play (the Manager's share of a full clock
// with [pddMaxMovesPerSide] moves to go); under a per-move cap, the cap
// less [pddProgramReserve]. The runner's Manager keeps its latency margin
// within the budget.
func pddBudget(ctl timer.Control) (time.Duration, bool) {
	if ctl.Unlimited() {
		return 0, false
	}
	budget := time.Duration(1<<63 - 1)
	if ctl.Main > 0 || ctl.Period > 0 {
		tm := timer.Manager{MovesToGo: pddMaxMovesPerSide, MaxMoves: pddMaxMovesPerSide}
		full := timer.Remaining{Told: true, Main: ctl.Main, Period: ctl.Period}
		b := tm.Allot(timer.Status{Control: timer.Control{Main: ctl.Main, Increment: ctl.Increment, Period: ctl.Period, PliesPerPeriod: ctl.PliesPerPeriod}, ControlTold: true, Own: full, Opponent: full})
		budget = b.Soft
	}
	if ctl.MoveCap > 0 {
		budget = min(budget, ctl.MoveCap-min(pddProgramReserve, ctl.MoveCap/2))
	}
	return max(budget, time.Millisecond), true
}

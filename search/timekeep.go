package search

import (
	"context"
	"time"

	"github.com/botarena/botarena/timer"
)

// MaxMargin bounds the time a player keeps back from its context's deadline
// to send its move when the context carries no [timer.Status]: a tenth of
// the time left, at most MaxMargin. With a Status, the [timer.Manager]'s
// learned margin applies.
const MaxMargin = 50 * time.Millisecond

// withMargin returns ctx with its deadline, if any, brought forward by the
// margin that leaves a player time to answer.
func withMargin(ctx context.Context) (context.Context, func()) {
	d, ok := ctx.Deadline()
	if !ok {
		return ctx, func() {}
	}
	margin := min(time.Until(d)/10, MaxMargin)
	ctx, cancel := context.WithDeadline(ctx, d.Add(-margin))
	return ctx, func() { cancel() }
}

// softKey is the context key of a search's soft target.
type softKey struct{}

// withSoft returns ctx carrying the soft target at: a search started on
// it begins no new iteration (an iterative-deepening depth, or a batch of
// playouts) once at has passed.
func withSoft(ctx context.Context, at time.Time) context.Context {
	return context.WithValue(ctx, softKey{}, at)
}

// WithBudget returns a copy of ctx for a search of one ply under the
// budget b: its deadline is b's hard limit (or ctx's own deadline when
// earlier), and it carries b's soft target, past which the searches of this
// package ([AlphaBeta], [Expectimax], [MCTS]) begin no new iteration and
// return their best move so far. An unlimited b (Limited false) returns a
// ctx that limits nothing more, so that a search keeps its fixed budget. It
// is what a bot that runs the searches itself, or shares out its time by
// another policy, does for each ply:
//
//	b := manager.Allot(status) // or a Budget of its own
//	ctx, cancel := search.WithBudget(ctx, b)
//	res, err := x.Search(ctx, state)
//	cancel()
//	manager.Observe(time.Since(b.Start), 0)
//
// A nil ctx is read as context.Background().
func WithBudget(ctx context.Context, b timer.Budget) (context.Context, context.CancelFunc) {
	if ctx == nil {
		ctx = context.Background()
	}
	if !b.Limited {
		return context.WithCancel(ctx)
	}
	hctx, cancel := b.WithHard(ctx)
	return withSoft(hctx, b.SoftAt()), cancel
}

// softOf returns the soft target ctx carries, the zero Time for none.
func softOf(ctx context.Context) time.Time {
	at, _ := ctx.Value(softKey{}).(time.Time)
	return at
}

// pastSoft reports whether the soft target soft (the zero Time for none)
// has passed.
func pastSoft(soft time.Time) bool {
	return !soft.IsZero() && !time.Now().Before(soft)
}

// plyClock is a player's time keeping for one game at a time: a
// [timer.Manager] made afresh when a new game begins, which budgets each
// ply from the [timer.Status] on the context of the player's Play.
type plyClock struct {
	tm        timer.Manager
	movesToGo int // the Manager's MovesToGo in a new game; 0 its default
	progress  int // the progress of the last ply budgeted
	played    int // the plies budgeted in this game
	lastTold  int // the Status's Played at the last ply budgeted
}

// reset starts a new game.
func (c *plyClock) reset() {
	c.tm = timer.Manager{MovesToGo: c.movesToGo}
	c.played, c.lastTold = 0, 0
}

// plyPlan is what a player tells its plyClock of a ply's game.
type plyPlan struct {
	// newGame reports that the ply is the first of a game the clock has
	// not seen: its position an opening one, or not past the last ply's
	// progress.
	newGame bool
	// progress is how far the game has come, kept for the next ply's
	// newGame.
	progress int
	// movesToGo, when positive, is the number of own moves the time is to
	// be shared among ([timer.Manager].MovesToGo).
	movesToGo int
	// maxLeft, when positive, is the most own moves the game can still
	// last, this one included.
	maxLeft int
}

// start budgets the ply p plans. A Status whose Played goes back also
// starts a new game.
//
// The Status is the one on ctx ([timer.StatusFrom]), which the protocols
// attach. Without one, the context's deadline is the caller's budget for
// the ply (a wrapper that shares out its own clock, say): the search runs
// to it, less the margin of [withMargin] to send the move. When nothing
// limits the ply (no time control and no deadline), start returns ctx
// itself, so that the searches keep their fixed budgets; otherwise it
// returns ctx with the hard limit as its deadline and carrying the soft
// target. done, called once the move is chosen, releases the context and
// tells the Manager what the ply took.
func (c *plyClock) start(ctx context.Context, p plyPlan) (_ context.Context, done func()) {
	s, ok := timer.StatusFrom(ctx)
	if !ok {
		return withMargin(ctx)
	}
	if p.newGame || s.Played < c.lastTold {
		c.reset()
	}
	c.progress = p.progress
	c.lastTold = s.Played
	if p.movesToGo > 0 {
		c.tm.MovesToGo = p.movesToGo
	}
	if p.maxLeft > 0 {
		c.tm.MaxMoves = max(s.Played, c.played) + p.maxLeft
	}
	b := c.tm.Allot(s)
	if !b.Limited {
		return ctx, func() {}
	}
	hctx, cancel := WithBudget(ctx, b)
	return hctx, func() {
		cancel()
		c.tm.Observe(time.Since(b.Start), 0)
		c.played++
	}
}

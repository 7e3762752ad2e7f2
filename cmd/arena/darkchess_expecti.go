package main

import (
	"context"
	"math"

	"github.com/botarena/botarena/darkchess"
	"github.com/botarena/botarena/search"
	"github.com/botarena/botarena/timer"
)

// darkchessExpectiDepth is the depth of the expecti bot's search under a
// control with no limit (-time none), so that games replay from the seed;
// under a limit it deepens until the time is up.
const darkchessExpectiDepth = 4

// darkchessContempt is what a repetition costs the expecti bot (in the
// search's units, a win being 1): about a minister (tanh(4*10/160)), so
// that it plays on, a piece down if need be, rather than walk a chased
// piece back and forth into the draw by repetition. (Before its
// quiescence search: at 0.1, about a knight, a third of its games against
// greedy ended so; at 0.25, a fifth. With it, at 0.25, 23 of 200.)
const darkchessContempt = 0.25

// darkchessExpectiEval returns the expecti bot's evaluation under a
// no-progress limit of limit plies (0: the rules' default):
// search.DarkChessEval's material balance, stretched by darkchessEvalGain
// into (-1, 1) as the mcts bot's playouts are scored, and shrunk toward the
// draw as the no-progress counter runs toward the limit, so that a side
// ahead prefers the lines that capture or flip to those that wait.
func darkchessExpectiEval(limit int) search.Eval[search.DarkChessState] {
	if limit <= 0 {
		limit = darkchess.DefaultRules.NoProgressPlies
	}
	return func(s search.DarkChessState, player int) float64 {
		left := max(0, 1-float64(s.Position().Quiet())/float64(limit))
		return left * math.Tanh(darkchessEvalGain*search.DarkChessEval(s, player))
	}
}

// darkchessExpecti is the dark chess expecti bot: package search's
// Expectimax (Star1) over the view's position, each flip a chance node,
// with darkchessExpectiEval at the leaves and the game's positions so far
// scored as draws less darkchessContempt (search.DarkChessRepeats). It
// deepens until the time its keeper gives it is up (stopping at the soft
// target when a depth is done), or to darkchessExpectiDepth under -time
// none.
type darkchessExpecti struct {
	k    keeper
	o    search.DepthOptions
	g    search.DarkChess // the rules x was made with
	seen search.DarkChessHistory
	x    *search.Expectimax[search.DarkChessState, darkchess.Ply, search.DarkChessRepeats]
}

// newDarkchessExpecti returns the dark chess expecti bot, for one game at a
// time.
func newDarkchessExpecti(ctl timer.Control) *darkchessExpecti {
	o := search.DepthOptions{}
	if ctl.Unlimited() {
		o.Depth = darkchessExpectiDepth
	}
	return &darkchessExpecti{k: keeper{ctl: ctl, movesToGo: darkchessMovesToGo}, o: o}
}

// Play searches v's position.
func (b *darkchessExpecti) Play(ctx context.Context, v darkchess.View) (darkchess.Move, error) {
	if g := (search.DarkChess{NoProgressPlies: v.Rules.NoProgressPlies, Ordered: true}); b.x == nil || g != b.g {
		b.g = g
		b.x = search.NewExpectimax(search.DarkChessRepeats{DarkChess: g, History: &b.seen, Contempt: darkchessContempt}, darkchessExpectiEval(g.NoProgressPlies), b.o)
	}
	s := b.g.Determinize(v, nil)
	b.seen.Searching(s)
	m, err := keep(&b.k, ctx, func(ctx context.Context) (darkchess.Move, error) {
		res, err := b.x.Search(ctx, s)
		return res.Move.Move, err
	})
	if err == nil {
		b.seen.Played(m)
	}
	return m, err
}

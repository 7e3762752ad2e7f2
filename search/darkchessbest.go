package search

import (
	"context"
	"math"
	"sync"

	"github.com/botarena/botarena/darkchess"
)

// Parameters of [DarkChessBestPlayer].
const (
	// darkChessBestGain stretches [DarkChessEval] (material over 160)
	// toward the payoffs of a won and a lost game: a rook ahead then
	// counts for about a seventh of a win.
	darkChessBestGain = 4
	// darkChessBestContempt is what a repetition costs the player (a win
	// being 1): about a minister by darkChessBestEval (tanh(4*10/160)), so
	// that it plays on, a piece down if need be, rather than walk a chased
	// piece back and forth into the draw by repetition. (Before the
	// quiescence search: at 0.1, about a knight, a third of its games
	// against a greedy player ended so; at 0.25, a fifth. With it, at
	// 0.25, 23 of 200.)
	darkChessBestContempt = 0.25
)

// darkChessBestEval returns the evaluation of [DarkChessBestPlayer] under
// a no-progress limit of limit plies (0: the rules' default): the material
// balance of [DarkChessEval], stretched by darkChessBestGain into (-1, 1),
// and shrunk toward the draw as the no-progress counter runs toward the
// limit, so that a side ahead prefers the lines that capture or flip to
// those that wait.
func darkChessBestEval(limit int) Eval[DarkChessState] {
	if limit <= 0 {
		limit = darkchess.DefaultRules.NoProgressPlies
	}
	return func(s DarkChessState, player int) float64 {
		left := max(0, 1-float64(s.Position().Quiet())/float64(limit))
		return left * math.Tanh(darkChessBestGain*DarkChessEval(s, player))
	}
}

// DarkChessBestPlayer returns the strongest [darkchess.Player] of this
// package, the one arena plays as its built-in "best" (and "expecti"):
// [Expectimax] over the view's position, each flip a chance node, its
// moves ordered ([DarkChess].Ordered) and its captures followed past the
// horizon by the quiescence search, with the options o. Its evaluation is
// [DarkChessEval]'s material balance stretched by tanh into (-1, 1) (a
// rook ahead is about a seventh of a win), shrunk toward the draw as the
// no-capture-no-flip counter runs toward the limit, so that a side ahead
// prefers the lines that capture or flip to those that wait. It remembers
// the positions of its game ([DarkChessRepeats]), a repetition costing it
// about a minister, so that it plays on, a piece down if need be, rather
// than into the repetition draw: use one player for one game at a time (a
// new game, starting with a flip, empties its memory). It takes the
// no-capture-no-flip limit from the view's rules when they give one. A
// forced ply is played at once.
//
// It keeps time as [DarkChessExpectimaxPlayer] does, with a
// [timer.Manager] for each game: each ply's budget comes from the
// [timer.Status] on Play's context, which the protocols attach (under
// MGTP's time_left, a share of the time left, among 50 plies), its
// iterative deepening beginning no new depth past the soft target and
// answering by the hard limit with the best ply so far; a bare deadline is
// the caller's budget for the ply. With no time limit at all it searches
// to o.Depth ([DefaultMaxDepth] when 0) within o's node budget
// ([DefaultNodes] when o sets none): with a Depth, its plies depend only
// on the game, so that a game between such players replays.
func DarkChessBestPlayer(o DepthOptions) darkchess.Player {
	return darkChessExpectimaxPlayer(o, darkChessBestContempt, darkChessBestEval)
}

// darkChessExpectimaxPlayer is [DarkChessExpectimaxPlayer] and
// [DarkChessBestPlayer]: an [Expectimax] over [DarkChessRepeats] with the
// contempt contempt and the evaluation eval gives under a no-progress
// limit, its time kept by a plyClock.
func darkChessExpectimaxPlayer(o DepthOptions, contempt float64, eval func(limit int) Eval[DarkChessState]) darkchess.Player {
	var mu sync.Mutex
	var clock plyClock
	var seen DarkChessHistory
	var x *Expectimax[DarkChessState, darkchess.Ply, DarkChessRepeats]
	return darkchess.PlayerFunc(func(ctx context.Context, v darkchess.View) (darkchess.Move, error) {
		mu.Lock()
		defer mu.Unlock()
		g := DarkChess{NoProgressPlies: v.Rules.NoProgressPlies, Ordered: true}
		s := g.Determinize(v, nil)
		seen.Searching(s)
		if v.NumLegalMoves() == 1 {
			var buf [1]darkchess.Move
			m := v.AppendLegalMoves(buf[:0])[0]
			seen.Played(m)
			return m, nil
		}
		if x == nil || x.g.DarkChess != g {
			x = NewExpectimax(DarkChessRepeats{DarkChess: g, History: &seen, Contempt: contempt}, eval(g.NoProgressPlies), o)
		}
		ctx, done := clock.start(ctx, darkChessPlan(v.Position(), clock.progress))
		defer done()
		res, err := x.Search(ctx, s)
		if err == nil {
			seen.Played(res.Move.Move)
		}
		return res.Move.Move, err
	})
}

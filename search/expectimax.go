package search

import (
	"context"
	"math"
)

// Expectimax is expectiminimax search over a [ChanceGame]: negamax with
// alpha-beta pruning at the decision nodes, the probability-weighted mean of
// the outcomes at the chance nodes, pruned by Star1 (Ballard, 1983): as the
// outcomes of a chance node are searched in turn, the values of those not
// yet searched are bounded by -1 and 1, the bounds of every value (proven
// results are 1, 0 or -1 and evaluations are clamped inside them, see
// [Eval]), which narrows each outcome's window and cuts the node off once
// its mean cannot reach the parent's window. It deepens iteratively from one
// ply until the node budget is spent or the context is done, each iteration
// searching first the best move of the one before. A choice of a move and
// the chance outcome it leads to (a dark chess flip and the piece it
// reveals) are one ply, and chance nodes at the horizon are expanded, their
// outcomes evaluated.
//
// An Expectimax is not safe for concurrent use; after the first searches
// have grown its buffers, a search allocates nothing.
type Expectimax[S any, M comparable, G ChanceGame[S, M]] struct {
	g         G
	q         quiescence[S, M, G] // the leaves' evaluation
	opts      DepthOptions
	lim       limiter
	moves     [][]M          // the move buffer of each ply below the root
	outcomes  [][]Outcome[M] // the outcome buffer of each ply below the root
	root      []M
	heuristic bool // the current iteration's value rests on an evaluation
}

// NewExpectimax returns an expectiminimax search over game g, evaluating its
// leaves with eval (nil: 0 at every leaf) after a quiescence search when g
// is a [Quiescer], with the options o (Nodes, Depth and Quiesce; it keeps
// no transposition table and solves nothing).
func NewExpectimax[S any, M comparable, G ChanceGame[S, M]](g G, eval Eval[S], o DepthOptions) *Expectimax[S, M, G] {
	return &Expectimax[S, M, G]{g: g, q: newQuiescence[S, M, G](g, eval, o), opts: o}
}

// Search searches s, by iterative deepening, until the node budget is spent,
// the context is done, the deepest iteration ([DepthOptions].Depth) is
// complete or the value is proven, and returns the best move for the player
// to move, with its expected value. It fails with [ErrNoMoves] if s is
// terminal and [ErrChanceRoot] at a chance node; a search stopped before
// its first iteration is complete still returns a legal move.
func (x *Expectimax[S, M, G]) Search(ctx context.Context, s S) (DepthResult[M], error) {
	if err := checkRoot(x.g, s); err != nil {
		return DepthResult[M]{}, err
	}
	x.lim = newLimiter(ctx, x.opts.Nodes)
	me := x.g.ToMove(s)
	x.root = x.g.AppendMoves(s, x.root[:0])
	if len(x.root) == 0 {
		return DepthResult[M]{}, ErrNoMoves
	}
	res := DepthResult[M]{Move: x.root[0]}
	soft := softOf(ctx)
	for d := 1; d <= x.opts.maxDepth() && ctx.Err() == nil && (d == 1 || !pastSoft(soft)); d++ {
		x.heuristic = false
		best, value, done := x.searchRoot(s, me, d)
		if done < len(x.root) {
			if done > 0 {
				res.Move, res.Value = x.root[best], value+0
			}
			break
		}
		res.Move, res.Value, res.Depth = x.root[best], value+0, d // +0: no -0
		toFront(x.root, x.root[best])
		if !x.heuristic || math.Abs(value) >= 1 {
			res.Exact = true
			break
		}
	}
	res.Nodes = x.lim.nodes
	return res, nil
}

// searchRoot searches the root's moves to depth (see [searchMoves]).
func (x *Expectimax[S, M, G]) searchRoot(s S, me, depth int) (best int, value float64, done int) {
	return searchMoves(&x.lim, x.root, func(m M, alpha, beta float64) float64 {
		return x.child(x.g.Play(s, m), me, depth-1, 0, alpha, beta)
	})
}

// child returns the value for me of the state c, reached by a move of me or
// by chance after one, searched to depth with the window (alpha, beta) for
// me; ply is c's distance from the root.
func (x *Expectimax[S, M, G]) child(c S, me, depth, ply int, alpha, beta float64) float64 {
	if x.g.IsTerminal(c) {
		x.lim.visit()
		return x.g.Result(c, me)
	}
	switch p := x.g.ToMove(c); p {
	case me:
		return x.search(c, p, depth, ply, alpha, beta)
	case Chance:
		return x.chance(c, me, depth, ply, alpha, beta)
	default:
		return -x.search(c, p, depth, ply, -beta, -alpha)
	}
}

// search returns the value of the decision state s for me, the player to
// move, searched to depth with the window (alpha, beta), fail-soft.
func (x *Expectimax[S, M, G]) search(s S, me, depth, ply int, alpha, beta float64) float64 {
	if x.lim.visit() {
		return 0
	}
	if depth <= 0 {
		x.heuristic = true
		return x.q.leaf(&x.lim, s, me, alpha, beta)
	}
	for len(x.moves) <= ply {
		x.moves = append(x.moves, make([]M, 0, 32))
	}
	moves := x.g.AppendMoves(s, x.moves[ply][:0])
	x.moves[ply] = moves
	value := math.Inf(-1)
	for _, m := range moves {
		v := x.child(x.g.Play(s, m), me, depth-1, ply+1, alpha, beta)
		if x.lim.stop {
			return 0
		}
		if v > value {
			value = v
			if v > alpha {
				alpha = v
				if v >= beta {
					break
				}
			}
		}
	}
	return value
}

// chance returns the expected value for me of the chance node s, reached by
// a move of me, searched to depth with the window (alpha, beta) for me,
// pruned by Star1: a value at most alpha is an upper bound, at least beta a
// lower bound. A cut's bound is clamped to the window: computed in floating
// point, the bound of a node that fails low can round to just above alpha,
// and the caller would take it for an exact value better than alpha.
func (x *Expectimax[S, M, G]) chance(s S, me, depth, ply int, alpha, beta float64) float64 {
	// lo and hi bound every value.
	const lo, hi = -1.0, 1.0
	if x.lim.visit() {
		return 0
	}
	for len(x.outcomes) <= ply {
		x.outcomes = append(x.outcomes, make([]Outcome[M], 0, 16))
	}
	outs := x.g.AppendOutcomes(s, x.outcomes[ply][:0])
	x.outcomes[ply] = outs
	sum, left := 0.0, 1.0 // the weighted values searched, the probability not yet searched
	for _, o := range outs {
		if !(o.Prob > 0) {
			continue
		}
		left -= o.Prob
		rest := max(left, 0) // the weight of the outcomes after o
		// The node fails low if o's value is at most a, high if at least b.
		a := (alpha - sum - hi*rest) / o.Prob
		b := (beta - sum - lo*rest) / o.Prob
		switch {
		case a >= hi:
			return min(sum+o.Prob*hi+hi*rest, alpha)
		case b <= lo:
			return max(sum+o.Prob*lo+lo*rest, beta)
		}
		v := x.child(x.g.Play(s, o.Move), me, depth, ply+1, max(a, lo), min(b, hi))
		if x.lim.stop {
			return 0
		}
		switch {
		case v <= a:
			return min(sum+o.Prob*v+hi*rest, alpha)
		case v >= b:
			return max(sum+o.Prob*v+lo*rest, beta)
		}
		sum += o.Prob * v
	}
	return sum
}

package search

// Quiescer is an optional interface of a [Game]: the noisy moves of a state,
// those that change its evaluation at a stroke (a capture). At the horizon
// of [AlphaBeta] and [Expectimax], a leaf whose game is a Quiescer is not
// evaluated in the middle of an exchange: a quiescence search follows its
// noisy moves until none is left, the player to move always free to stand
// pat (its evaluation is a lower bound of its value), with alpha-beta
// pruning, at most [DepthOptions].Quiesce noisy moves deep. [DarkChess]
// implements it with its captures.
type Quiescer[S any, M comparable] interface {
	// AppendNoisyMoves appends the noisy moves of the player to move in the
	// decision state s to dst, best first, and returns the result. They
	// are legal moves of s (listed by [Game.AppendMoves]). A chance node
	// reached by a noisy move is evaluated, not searched. It must not
	// allocate when dst has room.
	AppendNoisyMoves(s S, dst []M) []M
}

// quiescence is the leaf evaluation of the depth-first searches: the
// evaluation, or for a [Quiescer] the quiescence search.
type quiescence[S any, M comparable, G Game[S, M]] struct {
	g     G
	eval  Eval[S]
	noisy func(S, []M) []M // nil: evaluate the leaves
	plies int              // the deepest line of noisy moves
	moves [][]M            // the move buffer of each ply past the horizon
}

func newQuiescence[S any, M comparable, G Game[S, M]](g G, eval Eval[S], o DepthOptions) quiescence[S, M, G] {
	q := quiescence[S, M, G]{g: g, eval: orZero(eval), plies: o.quiesce()}
	if n, ok := any(g).(Quiescer[S, M]); ok && q.plies > 0 {
		q.noisy = n.AppendNoisyMoves
	}
	return q
}

// leaf returns the value for me, the player to move, of the decision state
// s at the horizon, within the window (alpha, beta), fail-soft: its
// evaluation, clamped (see [Eval]), or the quiescence search's value. The
// caller has counted s as a node.
func (q *quiescence[S, M, G]) leaf(lim *limiter, s S, me int, alpha, beta float64) float64 {
	return q.search(lim, s, me, 0, alpha, beta)
}

// child returns the value for me of c, reached by a noisy move ply moves
// past the horizon, within the window (alpha, beta) for me.
func (q *quiescence[S, M, G]) child(lim *limiter, c S, me, ply int, alpha, beta float64) float64 {
	if q.g.IsTerminal(c) {
		return q.g.Result(c, me)
	}
	switch p := q.g.ToMove(c); p {
	case me:
		return q.search(lim, c, me, ply, alpha, beta)
	case Chance:
		return clampEval(q.eval(c, me))
	default:
		return -q.search(lim, c, p, ply, -beta, -alpha)
	}
}

// search is leaf ply noisy moves past the horizon.
func (q *quiescence[S, M, G]) search(lim *limiter, s S, me, ply int, alpha, beta float64) float64 {
	value := clampEval(q.eval(s, me))
	if q.noisy == nil || ply >= q.plies || value >= beta {
		return value
	}
	for len(q.moves) <= ply {
		q.moves = append(q.moves, make([]M, 0, 16))
	}
	moves := q.noisy(s, q.moves[ply][:0])
	q.moves[ply] = moves
	alpha = max(alpha, value)
	for _, m := range moves {
		if lim.visit() {
			return 0
		}
		v := q.child(lim, q.g.Play(s, m), me, ply+1, alpha, beta)
		if lim.stop {
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

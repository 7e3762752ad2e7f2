package search

import (
	"context"
	"math"
)

// Bounds of a transposition table entry's value.
const (
	boundNone  = iota // an empty slot
	boundLower        // the value is at least the entry's
	boundUpper        // the value is at most the entry's
	boundExact
)

// ttEntry is a slot of the transposition table.
type ttEntry[M comparable] struct {
	key     uint64
	value   float64
	move    M // the best move found, if hasMove
	depth   int16
	bound   uint8
	hasMove bool
}

// AlphaBeta is negamax search with alpha-beta pruning over a [Game] without
// chance nodes: iterative deepening from one ply until the node budget is
// spent or the context is done, each iteration searching first the best
// move of the one before; a transposition table of fixed size when the game
// is a [Hasher], whose best moves are searched first at every node; an
// [Eval] at the leaves, after a quiescence search when the game is a
// [Quiescer]. When the game is a [Remainer] with few moves left
// ([DepthOptions].Solve), it solves the state exactly: after a few shallow
// iterations, one search to the end of every line, which no evaluation
// touches (for Othello, a win, draw or loss by the disc count).
//
// Chance nodes are not searched but evaluated: use [Expectimax] for a
// [ChanceGame]. The game must end on every line, as the solve searches
// every line to its end.
//
// Its table lives from one search to the next (see [AlphaBeta.Reset]). An
// AlphaBeta is not safe for concurrent use; after the first searches have
// grown its buffers, a search allocates nothing.
type AlphaBeta[S any, M comparable, G Game[S, M]] struct {
	g     G
	eval  Eval[S]
	q     quiescence[S, M, G]
	opts  DepthOptions
	hash  func(S) uint64 // nil: no table
	left  func(S) int    // nil: never solve
	table []ttEntry[M]
	mask  uint64
	lim   limiter
	moves [][]M // the move buffer of each ply below the root
	root  []M   // the root's moves, the best of the last iteration first
	// heuristic records that the current iteration's value rests on an
	// evaluation: it is not proven.
	heuristic bool
}

// NewAlphaBeta returns an alpha-beta search over game g, evaluating its
// leaves with eval (nil: 0 at every leaf), with the options o. Its
// transposition table, when g is a [Hasher] and o.TableSize is not
// negative, is allocated here.
func NewAlphaBeta[S any, M comparable, G Game[S, M]](g G, eval Eval[S], o DepthOptions) *AlphaBeta[S, M, G] {
	a := &AlphaBeta[S, M, G]{g: g, eval: orZero(eval), q: newQuiescence(g, eval, o), opts: o}
	if h, ok := any(g).(Hasher[S]); ok {
		if n := o.tableSize(); n > 0 {
			a.hash = h.Hash
			a.table = make([]ttEntry[M], n)
			a.mask = uint64(n - 1)
		}
	}
	if r, ok := any(g).(Remainer[S]); ok && o.solve() >= 0 {
		a.left = r.MovesLeft
	}
	return a
}

// Reset empties the transposition table, so that the next search does not
// depend on the ones before.
func (a *AlphaBeta[S, M, G]) Reset() { clear(a.table) }

// Search searches s, by iterative deepening, until the node budget is spent,
// the context is done, the deepest iteration ([DepthOptions].Depth) is
// complete or the value is proven, and returns the best move for the player
// to move. It fails with [ErrNoMoves] if s is terminal and [ErrChanceRoot]
// at a chance node; a search stopped before its first iteration is complete
// still returns a legal move.
func (a *AlphaBeta[S, M, G]) Search(ctx context.Context, s S) (DepthResult[M], error) {
	if err := checkRoot(a.g, s); err != nil {
		return DepthResult[M]{}, err
	}
	a.lim = newLimiter(ctx, a.opts.Nodes)
	me := a.g.ToMove(s)
	a.root = a.g.AppendMoves(s, a.root[:0])
	if len(a.root) == 0 {
		return DepthResult[M]{}, ErrNoMoves
	}
	if m, ok := a.tableMove(s); ok {
		toFront(a.root, m)
	}
	res := DepthResult[M]{Move: a.root[0]}
	solve := a.left != nil && a.left(s) <= a.opts.solve()
	maxDepth := a.opts.maxDepth()
	soft := softOf(ctx)
	for d := 1; ; d++ {
		depth := d
		switch {
		case solve && d > searchPrelude:
			depth = solveDepth
		case !solve && d > maxDepth:
			res.Nodes = a.lim.nodes
			return res, nil
		}
		if ctx.Err() != nil || d > 1 && pastSoft(soft) {
			break
		}
		a.heuristic = false
		best, value, done := a.searchRoot(s, me, depth)
		if done < len(a.root) {
			// Stopped: the iteration's best so far beats the last
			// iteration's best, searched first, once that is done.
			if done > 0 {
				res.Move, res.Value = a.root[best], value+0
			}
			break
		}
		res.Move, res.Value, res.Depth = a.root[best], value+0, d // +0: no -0
		if depth == solveDepth {
			res.Depth = a.left(s)
		}
		toFront(a.root, a.root[best])
		if !a.heuristic || math.Abs(value) >= 1 {
			res.Exact = true
			break
		}
		if depth == solveDepth {
			break
		}
	}
	res.Nodes = a.lim.nodes
	return res, nil
}

// searchRoot searches the root's moves to depth (see [searchMoves]) and
// stores the result in the table.
func (a *AlphaBeta[S, M, G]) searchRoot(s S, me, depth int) (best int, value float64, done int) {
	best, value, done = searchMoves(&a.lim, a.root, func(m M, alpha, beta float64) float64 {
		return a.child(a.g.Play(s, m), me, depth-1, 0, alpha, beta)
	})
	if done == len(a.root) {
		a.store(s, depth, value, -1, 1, a.root[best])
	}
	return best, value, done
}

// searchMoves searches the root moves in order, each through child (its
// value for the player to move within the window (alpha, beta)), and
// returns the index of the best, its value and the number of moves searched
// to the end before lim stopped the search (all of them if it did not).
// The values lie in [-1, 1]: a value at either bound is exact, so a move
// worth 1 ends the search.
func searchMoves[M any](lim *limiter, root []M, child func(m M, alpha, beta float64) float64) (best int, value float64, done int) {
	alpha, beta := -1.0, 1.0
	value = math.Inf(-1)
	if lim.visit() {
		return 0, 0, 0
	}
	for i, m := range root {
		v := child(m, alpha, beta)
		if lim.stop {
			return best, value, i
		}
		if v > value {
			best, value = i, v
			if v > alpha {
				alpha = v
			}
			if v >= beta {
				break // a proven win
			}
		}
	}
	return best, value, len(root)
}

// child returns the value for me of the state c, reached by a move of me,
// searched to depth with the window (alpha, beta) for me; ply is c's
// distance from the root.
func (a *AlphaBeta[S, M, G]) child(c S, me, depth, ply int, alpha, beta float64) float64 {
	if a.g.IsTerminal(c) {
		a.lim.visit()
		return a.g.Result(c, me)
	}
	switch p := a.g.ToMove(c); p {
	case me:
		return a.search(c, p, depth, ply, alpha, beta)
	case Chance:
		a.lim.visit()
		a.heuristic = true
		return clampEval(a.eval(c, me))
	default:
		return -a.search(c, p, depth, ply, -beta, -alpha)
	}
}

// search returns the value of the decision state s for me, the player to
// move, searched to depth with the window (alpha, beta): fail-soft, a value
// at most alpha is an upper bound, at least beta a lower bound.
func (a *AlphaBeta[S, M, G]) search(s S, me, depth, ply int, alpha, beta float64) float64 {
	if a.lim.visit() {
		return 0
	}
	if depth <= 0 {
		a.heuristic = true
		return a.q.leaf(&a.lim, s, me, alpha, beta)
	}
	var key uint64
	var ttMove M
	hasMove := false
	if a.table != nil {
		key = a.hash(s)
		if e := &a.table[key&a.mask]; e.bound != boundNone && e.key == key {
			ttMove, hasMove = e.move, e.hasMove
			if int(e.depth) >= depth {
				v := e.value
				if e.bound == boundExact || e.bound == boundLower && v >= beta || e.bound == boundUpper && v <= alpha {
					if e.depth < exactDepth {
						a.heuristic = true
					}
					return v
				}
			}
		}
	}
	for len(a.moves) <= ply {
		a.moves = append(a.moves, make([]M, 0, 32))
	}
	moves := a.g.AppendMoves(s, a.moves[ply][:0])
	a.moves[ply] = moves
	if hasMove {
		toFront(moves, ttMove)
	}
	alpha0 := alpha
	value := math.Inf(-1)
	var best M
	for _, m := range moves {
		v := a.child(a.g.Play(s, m), me, depth-1, ply+1, alpha, beta)
		if a.lim.stop {
			return 0
		}
		if v > value {
			value, best = v, m
			if v > alpha {
				alpha = v
				if v >= beta {
					break
				}
			}
		}
	}
	if a.table != nil {
		a.storeKey(key, depth, value, alpha0, beta, best)
	}
	return value
}

// tableMove returns the table's best move for s, if any.
func (a *AlphaBeta[S, M, G]) tableMove(s S) (M, bool) {
	var zero M
	if a.table == nil {
		return zero, false
	}
	key := a.hash(s)
	e := &a.table[key&a.mask]
	if e.bound == boundNone || e.key != key || !e.hasMove {
		return zero, false
	}
	return e.move, true
}

func (a *AlphaBeta[S, M, G]) store(s S, depth int, value, alpha, beta float64, best M) {
	if a.table != nil {
		a.storeKey(a.hash(s), depth, value, alpha, beta, best)
	}
}

// storeKey records the value of a search to depth with the window (alpha,
// beta), unless the slot holds a deeper search of the same state. Searches
// to the end are stored as deep as can be: their values hold at any depth.
func (a *AlphaBeta[S, M, G]) storeKey(key uint64, depth int, value, alpha, beta float64, best M) {
	e := &a.table[key&a.mask]
	if depth >= exactDepth {
		depth = solveDepth
	}
	if e.bound != boundNone && e.key == key && int(e.depth) > depth {
		return
	}
	bound := uint8(boundExact)
	switch {
	case value <= alpha:
		bound = boundUpper
	case value >= beta:
		bound = boundLower
	}
	*e = ttEntry[M]{key: key, value: value, move: best, depth: int16(depth), bound: bound, hasMove: true}
}

// toFront moves m, if it is in moves, to the front, keeping the order of
// the others.
func toFront[M comparable](moves []M, m M) {
	for i, x := range moves {
		if x == m {
			copy(moves[1:i+1], moves[:i])
			moves[0] = m
			return
		}
	}
}

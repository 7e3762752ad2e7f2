package search

import (
	"context"
	"math"
	"time"

	"github.com/botarena/botarena/othello"
	"github.com/botarena/botarena/othello/endgame"
)

// othelloNullWindow is the width of the null windows of
// [othelloSearch]'s principal-variation search.
const othelloNullWindow = 1e-7

// othelloSortEmpties is the fewest empty squares at which a solve orders
// its moves by the opponent's mobility (fastest first); below, the moves
// are searched as generated.
const othelloSortEmpties = 8

// othelloEvalOrderDepth is the least depth at which [othelloSearch]
// orders its moves by their evaluation rather than the opponent's
// mobility.
const othelloEvalOrderDepth = 3

// othelloTableEmpties is the fewest empty squares at which a solve reads
// and writes the transposition table.
const othelloTableEmpties = 5

// bestEntry is a slot of [othelloSearch]'s transposition table.
type bestEntry struct {
	key   uint64
	value float32
	depth int16
	bound uint8
	move  othello.Move
}

// othelloSearch is a principal-variation (null-window) alpha-beta search
// of Othello, by iterative deepening, with a transposition table, the
// table's move searched first and the others ordered by the evaluation
// of their positions, and an exact solve (win, draw or loss) of the last
// empty squares, ordered fastest first.
type othelloSearch struct {
	eval  Eval[othello.Position]
	opts  DepthOptions
	table []bestEntry
	mask  uint64
	lim   limiter
	moves [128][]othello.Move
	keys  [128][]float64
	root  []othello.Move
	rootV []float64
	// heuristic records that a value of the current iteration rests on an
	// evaluation.
	heuristic bool
}

func newOthelloSearch(eval Eval[othello.Position], o DepthOptions) *othelloSearch {
	s := &othelloSearch{eval: orZero(eval), opts: o}
	if n := o.tableSize(); n > 0 {
		s.table = make([]bestEntry, n)
		s.mask = uint64(n - 1)
	}
	for i := range s.moves {
		s.moves[i] = make([]othello.Move, 0, 64)
		s.keys[i] = make([]float64, 0, 64)
	}
	return s
}

// Search searches p by iterative deepening until the node budget is spent,
// the context is done, the deepest iteration is complete or the value is
// proven, and returns the best move. It begins no iteration past half the
// time to the soft target (or the deadline, when earlier or alone), as an
// iteration takes a few times the one before.
func (s *othelloSearch) Search(ctx context.Context, p othello.Position) (DepthResult[othello.Move], error) {
	if p.IsOver() {
		return DepthResult[othello.Move]{}, ErrNoMoves
	}
	s.lim = newLimiter(ctx, s.opts.Nodes)
	s.root = p.AppendLegalMoves(s.root[:0])
	s.rootV = s.rootV[:0]
	for range s.root {
		s.rootV = append(s.rootV, 0)
	}
	if m, ok := s.tableMove(p); ok {
		toFront(s.root, m)
	}
	res := DepthResult[othello.Move]{Move: s.root[0]}
	empties := p.Empty().Count()
	solve := empties <= s.opts.solve()
	maxDepth := s.opts.maxDepth()
	start, soft := time.Now(), softOf(ctx)
	if dl, ok := ctx.Deadline(); ok && (soft.IsZero() || dl.Before(soft)) {
		soft = dl
	}
	for d := 1; ; d++ {
		depth := d
		switch {
		case solve && d > searchPrelude || d > empties+1:
			depth = solveDepth
		case !solve && d > maxDepth:
			res.Nodes = s.lim.nodes
			return res, nil
		}
		// An iteration takes a few times the one before: one begun past
		// half the time would rarely end.
		if ctx.Err() != nil || d > 1 && !soft.IsZero() && time.Since(start) > soft.Sub(start)/2 {
			break
		}
		s.heuristic = false
		best, value, done := s.searchRoot(p, depth)
		if done == 0 {
			break
		}
		if done < len(s.root) {
			// Stopped: a move searched to the end that beat the last
			// iteration's best, searched first, is better.
			res.Move, res.Value = s.root[best], value+0
			break
		}
		res.Move, res.Value, res.Depth = s.root[best], value+0, d
		if depth == solveDepth {
			res.Depth = empties
		}
		s.sortRoot()
		if !s.heuristic || math.Abs(value) >= 1 || depth == solveDepth {
			res.Exact = !s.heuristic || math.Abs(value) >= 1
			break
		}
	}
	res.Nodes = s.lim.nodes
	return res, nil
}

// searchRoot searches the root's moves to depth, the first with the full
// window and the others with a null window first, and returns the index
// of the best, its value and the number of moves searched to the end.
func (s *othelloSearch) searchRoot(p othello.Position, depth int) (best int, value float64, done int) {
	alpha, beta := -1.0, 1.0
	value = math.Inf(-1)
	for i, m := range s.root {
		c := p.PlayUnchecked(m)
		var v float64
		if i == 0 {
			v = -s.pvs(c, depth-1, 1, -beta, -alpha)
		} else {
			v = -s.pvs(c, depth-1, 1, -alpha-othelloNullWindow, -alpha)
			if v > alpha && v < beta && !s.lim.stop {
				v = -s.pvs(c, depth-1, 1, -beta, -alpha)
			}
		}
		if s.lim.stop {
			return best, value, i
		}
		s.rootV[i] = v
		if v > value {
			best, value = i, v
			alpha = max(alpha, v)
			if v >= beta {
				return best, value, len(s.root)
			}
		}
	}
	s.store(p, depth, value, -1, 1, s.root[best])
	return best, value, len(s.root)
}

// sortRoot orders the root's moves by the values of the last iteration,
// best first (moves not beating the best hold bounds only, but the order
// among them still helps).
func (s *othelloSearch) sortRoot() {
	for i := 1; i < len(s.root); i++ {
		for j := i; j > 0 && s.rootV[j] > s.rootV[j-1]; j-- {
			s.root[j], s.root[j-1] = s.root[j-1], s.root[j]
			s.rootV[j], s.rootV[j-1] = s.rootV[j-1], s.rootV[j]
		}
	}
}

// result is the proven value of the finished position p for its player
// to move.
func result(p othello.Position) float64 {
	return Othello{}.Result(p, int(p.Turn()))
}

// pvs returns the value of p for its player to move, searched to depth
// (plies; passes do not count) with the window (alpha, beta), fail-soft.
func (s *othelloSearch) pvs(p othello.Position, depth, ply int, alpha, beta float64) float64 {
	if s.lim.visit() {
		return 0
	}
	if ply >= len(s.moves)-1 {
		s.heuristic = true
		return clampEval(s.eval(p, int(p.Turn())))
	}
	moves := p.AppendLegalMoves(s.moves[ply][:0])
	s.moves[ply] = moves
	switch {
	case len(moves) == 0:
		return result(p)
	case moves[0] == othello.Pass:
		return -s.pvs(p.PlayUnchecked(othello.Pass), depth, ply+1, -beta, -alpha)
	}
	if depth <= 0 {
		s.heuristic = true
		return clampEval(s.eval(p, int(p.Turn())))
	}
	empties := p.Empty().Count()
	solving := depth >= empties
	useTable := s.table != nil && (!solving || empties >= othelloTableEmpties)
	var key uint64
	if useTable {
		key = Othello{}.Hash(p)
		if e := &s.table[key&s.mask]; e.bound != boundNone && e.key == key {
			toFront(moves, e.move)
			if int(e.depth) >= depth {
				v := float64(e.value)
				if e.bound == boundExact || e.bound == boundLower && v >= beta || e.bound == boundUpper && v <= alpha {
					if e.depth < exactDepth {
						s.heuristic = true
					}
					return v
				}
			}
			s.order(p, moves[1:], ply, depth, solving, empties)
		} else {
			s.order(p, moves, ply, depth, solving, empties)
		}
	} else {
		s.order(p, moves, ply, depth, solving, empties)
	}
	alpha0 := alpha
	value := math.Inf(-1)
	best := moves[0]
	for i, m := range moves {
		c := p.PlayUnchecked(m)
		var v float64
		if i == 0 {
			v = -s.pvs(c, depth-1, ply+1, -beta, -alpha)
		} else {
			v = -s.pvs(c, depth-1, ply+1, -alpha-othelloNullWindow, -alpha)
			if v > alpha && v < beta && !s.lim.stop {
				v = -s.pvs(c, depth-1, ply+1, -beta, -alpha)
			}
		}
		if s.lim.stop {
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
	if useTable {
		s.storeKey(key, depth, value, alpha0, beta, best)
	}
	return value
}

// order sorts moves (of p, at ply, searched to depth) best first: in a
// solve (from othelloSortEmpties empty squares) and near the horizon,
// fastest first (fewest replies, corners first); from
// othelloEvalOrderDepth plies from the horizon, by the evaluation of the
// position after each for p's player.
func (s *othelloSearch) order(p othello.Position, moves []othello.Move, ply, depth int, solving bool, empties int) {
	if len(moves) < 2 || solving && empties < othelloSortEmpties {
		return
	}
	keys := s.keys[ply][:0]
	me := int(p.Turn())
	for _, m := range moves {
		c := p.PlayUnchecked(m)
		var k float64
		switch {
		case solving || depth < othelloEvalOrderDepth:
			k = -float64(c.LegalSquares().Count())
			if m.Square().Bit()&othelloCornerMask != 0 {
				k += 0.5
			}
		default:
			k = s.eval(c, me)
		}
		keys = append(keys, k)
	}
	for i := 1; i < len(moves); i++ {
		for j := i; j > 0 && keys[j] > keys[j-1]; j-- {
			moves[j], moves[j-1] = moves[j-1], moves[j]
			keys[j], keys[j-1] = keys[j-1], keys[j]
		}
	}
	s.keys[ply] = keys
}

// othelloCornerMask is the four corners of the 8x8 board.
const othelloCornerMask = othello.Bitboard(1<<othello.A1 | 1<<othello.H1 | 1<<othello.A8 | 1<<othello.H8)

// tableMove returns the table's best move for p, if any.
func (s *othelloSearch) tableMove(p othello.Position) (othello.Move, bool) {
	if s.table == nil {
		return othello.NoMove, false
	}
	key := Othello{}.Hash(p)
	e := &s.table[key&s.mask]
	if e.bound == boundNone || e.key != key {
		return othello.NoMove, false
	}
	return e.move, true
}

func (s *othelloSearch) store(p othello.Position, depth int, value, alpha, beta float64, best othello.Move) {
	if s.table != nil {
		s.storeKey(Othello{}.Hash(p), depth, value, alpha, beta, best)
	}
}

// storeKey records a search's value, unless the slot holds a deeper
// search of the same position; searches to the end are stored as deep as
// can be.
func (s *othelloSearch) storeKey(key uint64, depth int, value, alpha, beta float64, best othello.Move) {
	e := &s.table[key&s.mask]
	if depth >= exactDepth || !s.heuristic {
		depth = max(depth, solveDepth)
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
	*e = bestEntry{key: key, value: float32(value), depth: int16(depth), bound: bound, move: best}
}

// othelloSolverTable is the size of [OthelloBestPlayer]'s endgame
// solver's table (64 bytes a bucket of three): larger tables solve 20 to 24 empty
// squares little faster.
const othelloSolverTable = 3 << 16

// othelloSolveTimeMost is the most [othelloSolveTime] says: far more than
// any move's time.
const othelloSolveTimeMost = 24 * time.Hour

// othelloSolveTime estimates the time of a win/draw/loss solve
// ([endgame.Solver.WLD]) with empties empty squares on the hard side:
// measured on two-core machines, the hardest FFO endgame problems take
// 0.4 s with 20 empty squares and about 2.2 times as long with each more
// (under 10 ms up to 18).
func othelloSolveTime(empties int) time.Duration {
	t := 500 * time.Millisecond
	for e := 20; e < empties; e++ {
		if t > othelloSolveTimeMost/3 {
			return othelloSolveTimeMost // and no overflow
		}
		t = t * 22 / 10
	}
	for e := 20; e > empties && t > time.Microsecond; e-- {
		t = t * 10 / 22
	}
	return t
}

// othelloSolve decides p with the endgame solver when its empty squares
// fit the time: always from o's Solve empty squares ([DefaultSolve]) and
// fewer, and with more when [othelloSolveTime] is within half the time to
// the move's soft target (or the context's deadline). It returns a move
// that wins or draws, and false when it did not solve p, ran out of time
// or found p lost (the search then looks for the move that a fallible
// opponent is likeliest to get wrong).
func othelloSolve(ctx context.Context, solver *endgame.Solver, p othello.Position, o DepthOptions) (othello.Move, bool) {
	if o.Solve < 0 || p.Size() != 8 {
		return othello.NoMove, false
	}
	empties := p.Empty().Count()
	if empties > o.solve() {
		end := softOf(ctx)
		if dl, ok := ctx.Deadline(); ok && (end.IsZero() || dl.Before(end)) {
			end = dl
		}
		if end.IsZero() || othelloSolveTime(empties) > time.Until(end)/2 {
			return othello.NoMove, false
		}
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, end)
		defer cancel()
	}
	r, err := solver.WLD(ctx, p)
	if err != nil || r.Score < 0 || r.Best == othello.NoMove {
		return othello.NoMove, false
	}
	return r.Best, true
}

// OthelloBestPlayer returns the strongest [othello.Player] of this
// package: a principal-variation alpha-beta search, by iterative
// deepening, with [OthelloPatternEval] (the learned n-tuple network) at
// its leaves, a transposition table whose move is searched first, the
// other moves ordered by the evaluation of their positions, and an exact
// solve (win, draw or loss, passes included) by the endgame solver
// ([endgame.Solver.WLD], its moves ordered by the network from 16 empty
// squares, [OthelloPatternScore]) once at most o.Solve squares are empty
// ([DefaultSolve]), whatever the node budget, or more when the solve
// fits the move's time (about half a second of two-core time with 20
// empty squares, 2.2 times as long with each more); it plays the winning
// or drawing move it finds, and searches as before a position it finds
// lost. The options o are read as [AlphaBeta] reads them (Nodes, Depth,
// TableSize, Solve; Quiesce is unused). It keeps its table from one move to the
// next; it reads the embedded weights, and allocates its tables (the
// solver's 4 MiB), when it is made. A forced move is played at once.
//
// It keeps time as [OthelloAlphaBetaPlayer] does, with a [timer.Manager]
// for each game, but begins no iteration past half the time to the move's
// soft target (it would rarely end, and a move sent early is safer on a
// loaded machine), and answers at three quarters of the hard limit at the
// latest with the best move so far. Use one player for one game at a time.
func OthelloBestPlayer(o DepthOptions) othello.Player {
	othelloNet() // read the weights now, not on the clock of the first move
	s := newOthelloSearch(OthelloPatternEval, o)
	solver := endgame.New(endgame.Options{TableSize: othelloSolverTable, Eval: OthelloPatternScore})
	return othelloDepthPlayer(func(ctx context.Context, p othello.Position) (othello.Move, error) {
		if dl, ok := ctx.Deadline(); ok {
			// Stop at three quarters of the hard limit: on a loaded
			// machine the search may not run again for a while after the
			// time has passed, and the move must still be sent in time.
			var cancel context.CancelFunc
			ctx, cancel = context.WithDeadline(ctx, dl.Add(-time.Until(dl)/4))
			defer cancel()
		}
		if m, ok := othelloSolve(ctx, solver, p, o); ok {
			return m, nil
		}
		res, err := s.Search(ctx, p)
		return res.Move, err
	})
}

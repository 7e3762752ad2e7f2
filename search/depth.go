package search

import (
	"context"
	"math"
)

// Eval is an evaluation function for the depth-first searches ([AlphaBeta],
// [Expectimax]): the heuristic value of the state s, which is neither
// terminal nor a chance node, for player (0 or 1). Its values share the
// scale of [Game.Result]: a won end is 1, a lost one -1, so an evaluation
// must lie strictly between -1 and 1, where a proven result always ranks
// above or below it; the searches clamp it to [-MaxEval, MaxEval]. It is
// called at every leaf of the search, so it must be fast and must not
// allocate. [OthelloEval] and [DarkChessEval] are evaluations to start from.
type Eval[S any] func(s S, player int) float64

// MaxEval bounds the value of an [Eval]: the depth-first searches clamp
// evaluations to [-MaxEval, MaxEval], keeping them apart from the proven
// results 1 and -1.
const MaxEval = 0.999

// Hasher is an optional interface of a [Game]: a 64-bit hash of a state, for
// the transposition table of [AlphaBeta]. Equal states must hash alike; two
// different states should collide with probability about 2^-64, as the table
// tells its entries apart by the hash alone. [Othello] implements it.
type Hasher[S any] interface {
	Hash(s S) uint64
}

// Remainer is an optional interface of a [Game]: an upper bound on the
// moves left to play from s, not counting passes (Othello: its empty
// squares). [AlphaBeta] solves a state exactly, searching every line to the
// end, when it is at most [DepthOptions].Solve. [Othello] implements it.
type Remainer[S any] interface {
	MovesLeft(s S) int
}

// Defaults of [DepthOptions].
const (
	// DefaultNodes is the node budget of a depth-first search whose context
	// has no deadline and whose options set no Nodes.
	DefaultNodes = 1 << 20
	// DefaultMaxDepth is the deepest iteration when DepthOptions.Depth is 0.
	DefaultMaxDepth = 64
	// DefaultTableSize is the number of entries of the transposition table
	// when DepthOptions.TableSize is 0: 2^18, a few megabytes.
	DefaultTableSize = 1 << 18
	// MaxTableSize bounds DepthOptions.TableSize: 2^26 entries.
	MaxTableSize = 1 << 26
	// DefaultSolve is the number of moves left ([Remainer]) at which
	// [AlphaBeta] solves a state exactly when DepthOptions.Solve is 0.
	DefaultSolve = 14
	// solveDepth is the depth of a search to the end: deeper than any game.
	solveDepth = math.MaxInt16
	// exactDepth is the least depth of a transposition table entry made by a
	// search to the end: entries at least this deep hold proven values.
	exactDepth = solveDepth / 2
	// checkNodes is how many nodes a depth-first search visits between two
	// looks at its context (a power of two): a look costs about as much as
	// a node of Othello, and nodes that generate hundreds of moves (PDD's)
	// overrun the deadline by 64 of them at most.
	checkNodes = 64
	// DefaultQuiesce is the deepest line of the quiescence search
	// ([Quiescer]) when DepthOptions.Quiesce is 0.
	DefaultQuiesce = 4
	// MaxQuiesce bounds DepthOptions.Quiesce.
	MaxQuiesce = 64
	// searchPrelude is how many shallow iterations [AlphaBeta] runs before
	// an exact solve, to fill the table and order the root's moves.
	searchPrelude = 4
)

// DepthOptions configure the depth-first searches [AlphaBeta] and
// [Expectimax]. The zero value is usable.
//
// The searches draw nothing at random: with a node budget and no deadline,
// the same options give the same search on every machine.
type DepthOptions struct {
	// Nodes is the node budget of one search: it stops after visiting that
	// many nodes (decision and chance nodes, leaves included), or at the
	// context's deadline, whichever comes first. 0 means no budget: the
	// deadline alone, or [DefaultNodes] if the context has none.
	Nodes int
	// Depth is the deepest iteration of the iterative deepening, in plies
	// (a flip and the piece it reveals are one ply); 0 means
	// [DefaultMaxDepth]. It does not limit an exact solve (Solve), which
	// follows every line to its end.
	Depth int
	// TableSize is the number of entries of [AlphaBeta]'s transposition
	// table, rounded down to a power of two and at most [MaxTableSize]; it
	// is allocated once and never grows. 0 means [DefaultTableSize]; a
	// negative size, or a game that is not a [Hasher], means no table.
	TableSize int
	// Solve makes [AlphaBeta] search to the end, for the exact result,
	// when the game is a [Remainer] and at most Solve moves are left. 0
	// means [DefaultSolve]; a negative value never solves.
	Solve int
	// Quiesce is the deepest line of noisy moves that the quiescence
	// search of a [Quiescer] follows past the horizon, at most
	// [MaxQuiesce]. 0 means [DefaultQuiesce]; a negative value turns the
	// quiescence search off, the leaves then evaluated as they are.
	Quiesce int
}

func (o DepthOptions) quiesce() int {
	switch {
	case o.Quiesce < 0:
		return 0
	case o.Quiesce == 0:
		return DefaultQuiesce
	}
	return min(o.Quiesce, MaxQuiesce)
}

func (o DepthOptions) maxDepth() int {
	if o.Depth > 0 {
		return min(o.Depth, exactDepth-1)
	}
	return DefaultMaxDepth
}

func (o DepthOptions) tableSize() int {
	n := o.TableSize
	switch {
	case n < 0:
		return 0
	case n == 0:
		n = DefaultTableSize
	}
	n = min(n, MaxTableSize)
	size := 1
	for size*2 <= n {
		size *= 2
	}
	return size
}

func (o DepthOptions) solve() int {
	if o.Solve == 0 {
		return DefaultSolve
	}
	return o.Solve
}

// DepthResult is the outcome of a depth-first search.
type DepthResult[M comparable] struct {
	// Move is the best move of the deepest iteration completed, or of the
	// iteration the search stopped in when it had already found a better
	// one; the first legal move if no iteration got that far.
	Move M
	// Value is Move's value for the player to move, in [-1, 1]: an
	// evaluation, or a proven result if Exact.
	Value float64
	// Depth is the depth of the deepest iteration completed, in plies; 0 if
	// none was. A completed solve of [AlphaBeta] reports the moves that
	// were left ([Remainer]), passes not counted.
	Depth int
	// Exact reports that Value is proven: every line was searched to the
	// end of the game (or the value is a proven win or loss).
	Exact bool
	// Nodes is the number of nodes the search visited.
	Nodes int
}

// orZero returns eval, or for nil an evaluation of 0 everywhere.
func orZero[S any](eval Eval[S]) Eval[S] {
	if eval == nil {
		return func(S, int) float64 { return 0 }
	}
	return eval
}

// clampEval clamps an evaluation to [-MaxEval, MaxEval] (NaN to 0).
func clampEval(v float64) float64 {
	switch {
	case v > MaxEval:
		return MaxEval
	case v < -MaxEval:
		return -MaxEval
	case v != v:
		return 0
	}
	return v
}

// limiter counts the nodes of a search and tells when to stop: at the
// budget, or when its context is done.
type limiter struct {
	ctx    context.Context
	nodes  int
	budget int // 0: no budget
	stop   bool
}

func newLimiter(ctx context.Context, budget int) limiter {
	if _, ok := ctx.Deadline(); !ok && budget <= 0 {
		budget = DefaultNodes
	}
	return limiter{ctx: ctx, budget: max(0, budget)}
}

// visit counts a node and reports whether the search must stop.
func (l *limiter) visit() bool {
	if l.stop {
		return true
	}
	l.nodes++
	if l.budget > 0 && l.nodes >= l.budget {
		l.stop = true
	} else if l.nodes&(checkNodes-1) == 0 && l.ctx.Err() != nil {
		l.stop = true
	}
	return l.stop
}

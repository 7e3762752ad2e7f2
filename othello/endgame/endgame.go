package endgame

import (
	"context"
	"errors"
	"fmt"
	"math/bits"

	"github.com/botarena/botarena/othello"
)

// DefaultTableSize is the number of transposition-table entries of a
// [Solver] whose [Options] leave TableSize at 0: 786,432 entries, a table
// of 16 MiB.
const DefaultTableSize = 3 << 18

// BigTableSize is the number of transposition-table entries (6,291,456,
// 128 MiB) to which a [Solver] whose [Options] leave TableSize at 0 grows
// its table before its first solve of at least BigEmpties empty squares:
// the larger table saves about a tenth of the positions searched there.
const BigTableSize = 3 << 21

// BigEmpties is the number of empty squares from which a [Solver] with
// the default table size solves with a table of BigTableSize entries.
const BigEmpties = 24

// ErrBoard reports a position the solver does not solve: one not on the
// 8x8 board.
var ErrBoard = errors.New("endgame: only 8x8 positions are solved")

// Options are the settings of a [Solver].
type Options struct {
	// TableSize is the most entries of the big transposition table (the
	// small one has as many, up to 12,288): it keeps them in buckets of
	// three, 64 bytes a bucket, and its number of buckets is the greatest
	// power of two that fits (at least one); 0 means DefaultTableSize,
	// grown to BigTableSize for big solves.
	TableSize int
	// Eval, when not nil, estimates the final disc difference (from -64
	// to 64) for the side to move of the position whose discs are player
	// (to move) and opponent, as bitboards: bit x+8y is the square in
	// column x and row y, as [othello.Square]. The solver orders the moves
	// of positions with many empty squares by shallow searches with it
	// (the better the estimate, the fewer positions it searches); without
	// it, by the opponent's replies alone. It is called from the solver's
	// goroutine only, and should allocate nothing.
	Eval func(player, opponent uint64) int
}

// Result is the outcome of a solve, from the side to move's point of view.
type Result struct {
	// Score is the final disc difference for the side to move with perfect
	// play by both sides, the empty squares counted for the winner, when
	// Exact; else (a [Solver.WLD]) its sign: 1 for a win, 0 for a draw, -1
	// for a loss.
	Score int
	// Best is a move that achieves Score: [othello.Pass] when the side to
	// move must pass, [othello.NoMove] when the game is over.
	Best othello.Move
	// Nodes is the number of positions searched.
	Nodes uint64
	// Exact reports whether Score is the exact disc difference (for a
	// WLD, only when it is a draw).
	Exact bool
}

// A Solver solves Othello endgames exactly. It keeps its transposition
// table from one solve to the next (its entries stay true: they bound the
// exact score of whole positions), and allocates nothing after [New]. A
// Solver is for one goroutine at a time.
type Solver struct {
	tt    table
	near  table // the null-window nodes' entries at nearEmpties or fewer
	grow  bool  // the table is the default and not yet grown to BigTableSize
	eval  func(P, O uint64) int
	ctx   context.Context
	nodes uint64
	next  uint64
	stop  bool
}

// New returns a solver with the table size of o.
func New(o Options) *Solver {
	n := o.TableSize
	if n <= 0 {
		n = DefaultTableSize
	}
	return &Solver{tt: newTable(n), near: newTable(min(n, nearTableSize)), grow: o.TableSize <= 0, eval: o.Eval}
}

// Clear empties the transposition tables.
func (s *Solver) Clear() {
	s.tt.clear()
	s.near.clear()
}

// Solve returns the exact score of p and a best move, searching until the
// end of the game. When ctx ends first it returns ctx's error (and the
// nodes searched so far), never a guess.
func (s *Solver) Solve(ctx context.Context, p othello.Position) (Result, error) {
	return s.run(ctx, p, -64-1, 64+1)
}

// WLD returns whether p is won, drawn or lost for the side to move (a
// Result whose Score is 1, 0 or -1), and a move
// that achieves it: a search with the null windows around 0, faster than
// [Solver.Solve]. When ctx ends first it returns ctx's error.
func (s *Solver) WLD(ctx context.Context, p othello.Position) (Result, error) {
	r, err := s.run(ctx, p, -1, 1)
	if err != nil || r.Exact {
		return r, err
	}
	r.Score = min(max(r.Score, -1), 1)
	return r, nil
}

// Solve returns the exact score of p and a best move with a new [Solver]
// made with o: see [Solver.Solve].
func Solve(ctx context.Context, p othello.Position, o Options) (Result, error) {
	return New(o).Solve(ctx, p)
}

// WLD returns whether p is won, drawn or lost with a new [Solver] made
// with o: see [Solver.WLD].
func WLD(ctx context.Context, p othello.Position, o Options) (Result, error) {
	return New(o).WLD(ctx, p)
}

// run searches p with the window (alpha, beta). The result is exact when
// the score falls inside the window.
func (s *Solver) run(ctx context.Context, p othello.Position, alpha, beta int) (Result, error) {
	if p.Size() != 8 {
		return Result{}, fmt.Errorf("%w: the position is on the %dx%d board", ErrBoard, p.Size(), p.Size())
	}
	if err := ctx.Err(); err != nil {
		return Result{}, err
	}
	P, O := uint64(p.Discs(p.Turn())), uint64(p.Discs(p.Turn().Opponent()))
	n := 64 - bits.OnesCount64(P|O)
	if s.grow && n >= BigEmpties {
		// Before the search, which allocates nothing: the old entries go.
		s.tt, s.grow = newTable(BigTableSize), false
	}
	s.ctx, s.nodes, s.next, s.stop = ctx, 0, checkEvery, false
	defer func() { s.ctx = nil }()
	var v, sq int
	if alpha >= -1 || beta <= 1 {
		v, sq = s.pvs(P, O, alpha, beta, n, true)
	} else {
		// The win/draw/loss search first, then null-window searches from
		// the side of 0 it found, each moving the bound to the value it
		// returns, until one falls inside its window (MTD(f)): each costs
		// a fraction of a search with a wide window, and each fills the
		// table for the next.
		v, sq = s.pvs(P, O, -1, 1, n, true)
		for v != 0 && !s.stop {
			// Scores are even: the window (v-1, v+1) holds one, v.
			w, wsq := s.pvs(P, O, v-1, v+1, n, true)
			if w == v || s.stop {
				v, sq = w, wsq
				break
			}
			v = w
		}
	}
	r := Result{Score: v, Nodes: s.nodes, Exact: alpha < v && v < beta}
	if s.stop {
		return Result{Nodes: s.nodes}, ctx.Err()
	}
	switch {
	case sq >= 0:
		r.Best = othello.Place(othello.Square(sq))
	case sq == -2:
		r.Best = othello.Pass
	}
	return r, nil
}

package search_test

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/botarena/botarena/darkchess"
	"github.com/botarena/botarena/othello"
	"github.com/botarena/botarena/search"
)

// reference is plain expectiminimax, without pruning, table or iterative
// deepening: what the depth-first searches must agree with. outcomes is nil
// for a game without chance nodes. With noisy, it follows a leaf's noisy
// moves up to quiesce plies past the horizon, taking the best of the
// evaluation and their values (a quiescence search without pruning). It
// counts its nodes and gives up (ok false) past limit.
type reference[S any, M comparable, G search.Game[S, M]] struct {
	g        G
	eval     search.Eval[S]
	outcomes func(S) []search.Outcome[M]
	noisy    func(S, []M) []M
	quiesce  int
	nodes    int
	limit    int
	bufs     [][]M // the move buffer of each ply
}

// movesAt returns the moves of s in the buffer of ply.
func (r *reference[S, M, G]) movesAt(s S, ply int) []M {
	for len(r.bufs) <= ply {
		r.bufs = append(r.bufs, nil)
	}
	r.bufs[ply] = r.g.AppendMoves(s, r.bufs[ply][:0])
	return r.bufs[ply]
}

// root returns the value of the decision state s for the player to move,
// searched to depth plies, and the value of each move.
func (r *reference[S, M, G]) root(s S, depth int) (float64, map[M]float64, bool) {
	me := r.g.ToMove(s)
	best, values := math.Inf(-1), map[M]float64{}
	for _, m := range r.g.AppendMoves(s, nil) {
		v := r.child(r.g.Play(s, m), me, depth-1, 1)
		values[m] = v
		best = max(best, v)
	}
	return best, values, r.nodes <= r.limit
}

func (r *reference[S, M, G]) child(c S, me, depth, ply int) float64 {
	r.nodes++
	if r.nodes > r.limit {
		return 0
	}
	if r.g.IsTerminal(c) {
		return r.g.Result(c, me)
	}
	switch p := r.g.ToMove(c); p {
	case search.Chance:
		sum := 0.0
		for _, o := range r.outcomes(c) {
			sum += o.Prob * r.child(r.g.Play(c, o.Move), me, depth, ply+1)
		}
		return sum
	case me:
		return r.search(c, me, depth, ply)
	default:
		return -r.search(c, p, depth, ply)
	}
}

func (r *reference[S, M, G]) search(s S, me, depth, ply int) float64 {
	if depth <= 0 {
		return r.leaf(s, me, 0)
	}
	best := math.Inf(-1)
	for _, m := range r.movesAt(s, ply) {
		best = max(best, r.child(r.g.Play(s, m), me, depth-1, ply+1))
	}
	return best
}

// leaf returns the value for me, to move, of s, q noisy moves past the
// horizon.
func (r *reference[S, M, G]) leaf(s S, me, q int) float64 {
	best := r.clamped(s, me)
	if r.noisy == nil || q >= r.quiesce {
		return best
	}
	for _, m := range r.noisy(s, nil) {
		r.nodes++
		c := r.g.Play(s, m)
		var v float64
		switch p := r.g.ToMove(c); {
		case r.g.IsTerminal(c):
			v = r.g.Result(c, me)
		case p == search.Chance:
			v = r.clamped(c, me)
		case p == me:
			v = r.leaf(c, me, q+1)
		default:
			v = -r.leaf(c, p, q+1)
		}
		best = max(best, v)
	}
	return best
}

func (r *reference[S, M, G]) clamped(s S, me int) float64 {
	return min(max(r.eval(s, me), -search.MaxEval), search.MaxEval)
}

// endgame draws an Othello position with at most maxEmpty empty squares
// reached by uniform random play from the start, still going.
func endgame(t *rapid.T, maxEmpty int) othello.Position {
	p := othello.Standard.Start
	for {
		moves := p.AppendLegalMoves(nil)
		if len(moves) == 0 {
			p = othello.Standard.Start // ended early: start again
			continue
		}
		if p.Empty().Count() <= maxEmpty {
			return p
		}
		p = p.PlayUnchecked(moves[rapid.IntRange(0, len(moves)-1).Draw(t, "move")])
	}
}

// TestAlphaBetaSolveMatchesNegamax: on random Othello endgames of at most 10
// empty squares, the exact solve (with its table) finds the value of a full
// negamax to the end, and a move of that value.
func TestAlphaBetaSolveMatchesNegamax(t *testing.T) {
	t.Parallel()
	rapid.Check(t, func(t *rapid.T) {
		p := endgame(t, rapid.IntRange(1, 10).Draw(t, "empties"))
		ref := &reference[othello.Position, othello.Move, search.Othello]{g: search.Othello{}, eval: search.OthelloEval, limit: math.MaxInt}
		want, values, _ := ref.root(p, math.MaxInt32)
		for _, size := range []int{0, 1 << 4, -1} { // default table, a tiny one (collisions of slots), none
			a := search.NewAlphaBeta(search.Othello{}, search.OthelloEval, search.DepthOptions{TableSize: size})
			res, err := a.Search(context.Background(), p)
			if err != nil {
				t.Fatal(err)
			}
			if !res.Exact || res.Value != want || values[res.Move] != want {
				t.Fatalf("%s\ntable %d: solve gives %s value %v (exact %v), want value %v; negamax values %v", p.Diagram(), size, res.Move, res.Value, res.Exact, want, values)
			}
		}
	})
}

// TestAlphaBetaMatchesMinimax: at a fixed depth, without table, alpha-beta
// gives plain minimax's value at the root, and a move of that value, on
// random Othello positions of at most 10 empty squares.
func TestAlphaBetaMatchesMinimax(t *testing.T) {
	t.Parallel()
	rapid.Check(t, func(t *rapid.T) {
		p := endgame(t, 10)
		depth := rapid.IntRange(1, 4).Draw(t, "depth")
		ref := &reference[othello.Position, othello.Move, search.Othello]{g: search.Othello{}, eval: search.OthelloEval, limit: math.MaxInt}
		want, values, _ := ref.root(p, depth)
		a := search.NewAlphaBeta(search.Othello{}, search.OthelloEval, search.DepthOptions{Depth: depth, TableSize: -1, Solve: -1})
		res, err := a.Search(context.Background(), p)
		if err != nil {
			t.Fatal(err)
		}
		if res.Value != want || values[res.Move] != want {
			t.Fatalf("%s\ndepth %d: alpha-beta gives %s value %v, want %v; minimax values %v", p.Diagram(), depth, res.Move, res.Value, want, values)
		}
		if !res.Exact && res.Depth != depth {
			t.Fatalf("completed depth %d, want %d", res.Depth, depth)
		}
	})
}

// darkChessMidgame draws a dark chess state reached by uniform random play
// from the opening: the flips' pieces drawn by rapid.
func darkChessMidgame(t *rapid.T) search.DarkChessState {
	g := search.DarkChess{}
	s := search.NewDarkChessState(darkchess.Opening)
	plies := rapid.IntRange(30, 150).Draw(t, "plies")
	var buf []darkchess.Ply
	for range plies {
		if g.IsTerminal(s) {
			break
		}
		buf = g.AppendMoves(s, buf[:0])
		s = g.Play(s, buf[rapid.IntRange(0, len(buf)-1).Draw(t, "ply")])
	}
	for g.ToMove(s) == search.Chance || g.IsTerminal(s) {
		if g.IsTerminal(s) {
			t.Skip("the game is over")
		}
		buf = g.AppendMoves(s, buf[:0])
		s = g.Play(s, buf[rapid.IntRange(0, len(buf)-1).Draw(t, "outcome")])
	}
	return s
}

// darkChessReference returns plain expectiminimax over g with
// search.DarkChessEval, its quiescence search as DepthOptions{Quiesce:
// quiesce} gives, giving up past limit nodes.
func darkChessReference(g search.DarkChess, quiesce, limit int) *reference[search.DarkChessState, darkchess.Ply, search.DarkChess] {
	ref := &reference[search.DarkChessState, darkchess.Ply, search.DarkChess]{
		g: g, eval: search.DarkChessEval, limit: limit,
		outcomes: func(s search.DarkChessState) []search.Outcome[darkchess.Ply] { return g.AppendOutcomes(s, nil) },
	}
	switch {
	case quiesce == 0:
		ref.noisy, ref.quiesce = g.AppendNoisyMoves, search.DefaultQuiesce
	case quiesce > 0:
		ref.noisy, ref.quiesce = g.AppendNoisyMoves, quiesce
	}
	return ref
}

// TestExpectimaxMatchesExpectiminimax: on random dark chess positions, at
// depth 2 or 3, with or without a quiescence search of the captures, Star1
// gives plain expectiminimax's value at the root, and a move of that value.
func TestExpectimaxMatchesExpectiminimax(t *testing.T) {
	t.Parallel() // on budgets, not the clock: load changes nothing
	g := search.DarkChess{}
	rapid.Check(t, func(t *rapid.T) {
		s := darkChessMidgame(t)
		quiesce := rapid.SampledFrom([]int{-1, 1, 2, 0}).Draw(t, "quiesce")
		// Depth 3 where plain expectiminimax is not too slow, else 2.
		var want float64
		var values map[darkchess.Ply]float64
		depth, ok := 0, false
		for depth = 3; depth >= 2 && !ok; depth-- {
			ref := darkChessReference(g, quiesce, 40_000)
			want, values, ok = ref.root(s, depth)
		}
		depth++
		if !ok {
			t.Skip("too big for plain expectiminimax")
		}
		x := search.NewExpectimax(g, search.DarkChessEval, search.DepthOptions{Depth: depth, Nodes: math.MaxInt, Quiesce: quiesce})
		res, err := x.Search(context.Background(), s)
		if err != nil {
			t.Fatal(err)
		}
		const tol = 1e-9 // the sums of Star1 and of the reference may round apart
		if math.Abs(res.Value-want) > tol || math.Abs(values[res.Move]-want) > tol {
			t.Fatalf("%s\ndepth %d, quiesce %d: Star1 gives %s value %v, want %v; expectiminimax values %v", s.Position().Diagram(), depth, quiesce, res.Move, res.Value, want, values)
		}
	})
}

// TestExpectimaxPrunes: Star1 visits fewer nodes than plain expectiminimax.
func TestExpectimaxPrunes(t *testing.T) {
	t.Parallel()
	g := search.DarkChess{}
	s := search.NewDarkChessState(darkchess.Opening)
	r := rand.New(rand.NewPCG(3, 0))
	for range 30 { // a midgame, played at random
		var buf []darkchess.Ply
		buf = g.AppendMoves(s, buf)
		s = g.Play(s, buf[r.IntN(len(buf))])
		if g.ToMove(s) == search.Chance {
			s = g.Play(s, g.SampleOutcome(s, r))
		}
	}
	// Without quiescence: plain expectiminimax's quiescence search grows
	// too big to compare with.
	ref := darkChessReference(g, -1, math.MaxInt)
	want, _, _ := ref.root(s, 3)
	x := search.NewExpectimax(g, search.DarkChessEval, search.DepthOptions{Depth: 3, Nodes: math.MaxInt, Quiesce: -1})
	res, err := x.Search(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("depth 3: Star1 %d nodes (iterations 1-3), plain expectiminimax %d", res.Nodes, ref.nodes)
	if math.Abs(res.Value-want) > 1e-9 {
		t.Fatalf("value %v, want %v", res.Value, want)
	}
	if res.Nodes >= ref.nodes {
		t.Errorf("Star1 visited %d nodes, plain expectiminimax %d: no pruning", res.Nodes, ref.nodes)
	}
}

// TestDepthSearchDeterministic: with a node budget, two searches of the same
// options give the same result, as does one after Reset.
func TestDepthSearchDeterministic(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	o := search.DepthOptions{Nodes: 20000}
	p := othello.Standard.Start.PlayUnchecked(othello.Place(othello.D3))
	a1 := search.NewAlphaBeta(search.Othello{}, search.OthelloEval, o)
	r1, err := a1.Search(ctx, p)
	if err != nil {
		t.Fatal(err)
	}
	a2 := search.NewAlphaBeta(search.Othello{}, search.OthelloEval, o)
	r2, _ := a2.Search(ctx, p)
	a1.Reset()
	r3, _ := a1.Search(ctx, p)
	if diff := cmp.Diff(r1, r2); diff != "" {
		t.Errorf("alpha-beta: two searches differ (-first +second):\n%s", diff)
	}
	if diff := cmp.Diff(r1, r3); diff != "" {
		t.Errorf("alpha-beta: a search after Reset differs (-first +after):\n%s", diff)
	}

	s := search.NewDarkChessState(darkchess.Opening)
	var g search.DarkChess
	s = g.Play(g.Play(s, darkchess.Ply{Move: darkchess.Flip(darkchess.B2)}), darkchess.Ply{Move: darkchess.Flip(darkchess.B2), Piece: darkchess.RedCannon})
	x1, _ := search.NewExpectimax(g, search.DarkChessEval, o).Search(ctx, s)
	x2, _ := search.NewExpectimax(g, search.DarkChessEval, o).Search(ctx, s)
	if diff := cmp.Diff(x1, x2); diff != "" {
		t.Errorf("expectimax: two searches differ (-first +second):\n%s", diff)
	}
}

// TestDepthSearchNodeBudget: a search stops at its node budget exactly, with
// a legal move, whatever the budget.
func TestDepthSearchNodeBudget(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	p := othello.Standard.Start
	s := search.NewDarkChessState(darkchess.Opening)
	for _, budget := range []int{1, 2, 10, 1000, 50000} {
		o := search.DepthOptions{Nodes: budget}
		r, err := search.NewAlphaBeta(search.Othello{}, search.OthelloEval, o).Search(ctx, p)
		if err != nil {
			t.Fatal(err)
		}
		if r.Nodes != budget || !p.IsLegal(r.Move) {
			t.Errorf("alpha-beta, budget %d: %d nodes, move %s", budget, r.Nodes, r.Move)
		}
		x, err := search.NewExpectimax(search.DarkChess{}, search.DarkChessEval, o).Search(ctx, s)
		if err != nil {
			t.Fatal(err)
		}
		if x.Nodes != budget || !x.Move.Move.IsFlip() {
			t.Errorf("expectimax, budget %d: %d nodes, move %s", budget, x.Nodes, x.Move)
		}
		if budget >= 1000 && (r.Depth < 2 || x.Depth < 1) {
			t.Errorf("budget %d: depths %d (alpha-beta) and %d (expectimax), want deeper", budget, r.Depth, x.Depth)
		}
	}
}

// TestDepthSearchNilEval: a nil evaluation scores every leaf 0.
func TestDepthSearchNilEval(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	p := othello.Standard.Start
	r, err := search.NewAlphaBeta[othello.Position, othello.Move](search.Othello{}, nil, search.DepthOptions{Nodes: 1000}).Search(ctx, p)
	if err != nil || !p.IsLegal(r.Move) || r.Value != 0 {
		t.Errorf("alpha-beta: %+v, %v; want a legal move of value 0", r, err)
	}
	s := search.NewDarkChessState(darkchess.Opening)
	x, err := search.NewExpectimax[search.DarkChessState, darkchess.Ply](search.DarkChess{}, nil, search.DepthOptions{Nodes: 1000}).Search(ctx, s)
	if err != nil || !x.Move.Move.IsFlip() || x.Value != 0 {
		t.Errorf("expectimax: %+v, %v; want a flip of value 0", x, err)
	}
}

// TestDepthSearchStopsWithContext: a search whose context is done returns at
// once with a legal move; one with a deadline and no budget returns by it.
func TestDepthSearchStopsWithContext(t *testing.T) {
	t.Parallel()
	p := othello.Standard.Start
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r, err := search.NewAlphaBeta(search.Othello{}, search.OthelloEval, search.DepthOptions{}).Search(ctx, p)
	if err != nil || !p.IsLegal(r.Move) || r.Depth != 0 {
		t.Errorf("cancelled: %+v, %v; want a legal move and depth 0", r, err)
	}
	// No budget, no depth limit below 64 plies: only the deadline stops it.
	ctx, cancel = context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	r, err = search.NewAlphaBeta(search.Othello{}, search.OthelloEval, search.DepthOptions{}).Search(ctx, p)
	if err != nil || !p.IsLegal(r.Move) {
		t.Errorf("deadline: %+v, %v; want a legal move", r, err)
	}
	s := search.NewDarkChessState(darkchess.Opening)
	x, err := search.NewExpectimax(search.DarkChess{}, search.DarkChessEval, search.DepthOptions{}).Search(ctx, s)
	if err != nil || !x.Move.Move.IsFlip() {
		t.Errorf("deadline: %+v, %v; want a flip", x, err)
	}
}

// TestDepthSearchRoots: a terminal root has no move; a chance root has no
// chooser.
func TestDepthSearchRoots(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	over, err := othello.NewPosition(othello.Setup{Black: othello.A1.Bit() | othello.B1.Bit()})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := search.NewAlphaBeta(search.Othello{}, search.OthelloEval, search.DepthOptions{}).Search(ctx, over); !errors.Is(err, search.ErrNoMoves) {
		t.Errorf("alpha-beta at a terminal root: %v, want ErrNoMoves", err)
	}
	var g search.DarkChess
	s := g.Play(search.NewDarkChessState(darkchess.Opening), darkchess.Ply{Move: darkchess.Flip(darkchess.A1)})
	if _, err := search.NewExpectimax(g, search.DarkChessEval, search.DepthOptions{}).Search(ctx, s); !errors.Is(err, search.ErrChanceRoot) {
		t.Errorf("expectimax at a chance root: %v, want ErrChanceRoot", err)
	}
}

package search_test

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/botarena/botarena/darkchess"
	"github.com/botarena/botarena/othello"
	"github.com/botarena/botarena/search"
)

// randomOthello plays uniform random moves from the start, with a fixed
// seed, until at most empties squares are empty, starting over if the game
// ends first.
func randomOthello(seed uint64, empties int) othello.Position {
	r := rand.New(rand.NewPCG(seed, 0))
	p := othello.Standard.Start
	for p.Empty().Count() > empties {
		moves := p.AppendLegalMoves(nil)
		if len(moves) == 0 {
			p = othello.Standard.Start
			continue
		}
		p = p.PlayUnchecked(moves[r.IntN(len(moves))])
	}
	return p
}

// randomDarkChess plays plies uniform random plies (and outcomes) from the
// opening, with a fixed seed.
func randomDarkChess(seed uint64, plies int) search.DarkChessState {
	var g search.DarkChess
	r := rand.New(rand.NewPCG(seed, 0))
	s := search.NewDarkChessState(darkchess.Opening)
	for i := 0; i < plies && !g.IsTerminal(s); i++ {
		moves := g.AppendMoves(s, nil)
		s = g.Play(s, moves[r.IntN(len(moves))])
		if g.ToMove(s) == search.Chance {
			s = g.Play(s, g.SampleOutcome(s, r))
		}
	}
	return s
}

// benchDepth runs searches of s; one op is one search, which must visit
// nodes nodes (or, with nodes 0, be exact). A first search, not counted,
// grows the buffers.
func benchDepth[M comparable, S any](b *testing.B, s S, nodes int, search func(S) (search.DepthResult[M], error), reset func()) {
	reset()
	if _, err := search(s); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	total := 0
	for b.Loop() {
		reset()
		res, err := search(s)
		if err != nil {
			b.Fatal(err)
		}
		if nodes > 0 && res.Nodes != nodes || nodes == 0 && !res.Exact {
			b.Fatalf("%d nodes, exact %v; want %d nodes or exact", res.Nodes, res.Exact, nodes)
		}
		total += res.Nodes
	}
	b.ReportMetric(float64(total)/b.Elapsed().Seconds(), "nodes/s")
	b.ReportMetric(float64(total)/float64(b.N), "nodes/op")
}

// BenchmarkAlphaBeta measures alpha-beta over Othello with OthelloEval and
// the default table: searches of 100,000 nodes from a midgame position (24
// discs), and exact solves of a position with 14 empty squares (win, draw or
// loss; and the disc difference, [othelloMargin]) with a table of 2^16
// entries emptied before each.
func BenchmarkAlphaBeta(b *testing.B) {
	ctx := context.Background()
	b.Run("othello-midgame", func(b *testing.B) {
		const nodes = 100_000
		a := search.NewAlphaBeta(search.Othello{}, search.OthelloEval, search.DepthOptions{Nodes: nodes})
		benchDepth(b, randomOthello(1, 40), nodes, func(p othello.Position) (search.DepthResult[othello.Move], error) { return a.Search(ctx, p) }, a.Reset)
	})
	for _, c := range []struct {
		name   string
		margin bool
	}{{"othello-solve14-wdl", false}, {"othello-solve14-margin", true}} {
		b.Run(c.name, func(b *testing.B) {
			o := search.DepthOptions{Nodes: math.MaxInt, TableSize: 1 << 16}
			p := randomOthello(1, 14)
			if c.margin {
				a := search.NewAlphaBeta(othelloMargin{}, search.OthelloEval, o)
				benchDepth(b, p, 0, func(p othello.Position) (search.DepthResult[othello.Move], error) { return a.Search(ctx, p) }, a.Reset)
				return
			}
			a := search.NewAlphaBeta(search.Othello{}, search.OthelloEval, o)
			benchDepth(b, p, 0, func(p othello.Position) (search.DepthResult[othello.Move], error) { return a.Search(ctx, p) }, a.Reset)
		})
	}
}

// BenchmarkExpectimax measures Star1 expectimax over dark chess with
// DarkChessEval: searches of 100,000 nodes from the opening and from a
// midgame (60 random plies), with the quiescence search of the captures
// (the nodes past the horizon counted) and without, and with the moves
// ordered (captures, steps, flips).
func BenchmarkExpectimax(b *testing.B) {
	ctx := context.Background()
	const nodes = 100_000
	for _, c := range []struct {
		name    string
		s       search.DarkChessState
		quiesce int
		ordered bool
	}{
		{"darkchess-opening", search.NewDarkChessState(darkchess.Opening), 0, false},
		{"darkchess-midgame", randomDarkChess(1, 60), 0, false},
		{"darkchess-midgame-ordered", randomDarkChess(1, 60), 0, true},
		{"darkchess-midgame-noquiesce", randomDarkChess(1, 60), -1, false},
	} {
		b.Run(c.name, func(b *testing.B) {
			x := search.NewExpectimax(search.DarkChess{Ordered: c.ordered}, search.DarkChessEval, search.DepthOptions{Nodes: nodes, Quiesce: c.quiesce})
			benchDepth(b, c.s, nodes, func(s search.DarkChessState) (search.DepthResult[darkchess.Ply], error) { return x.Search(ctx, s) }, func() {})
		})
	}
}

package search_test

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/botarena/botarena/darkchess"
	"github.com/botarena/botarena/geister"
	"github.com/botarena/botarena/othello"
	"github.com/botarena/botarena/pdd"
	"github.com/botarena/botarena/search"
)

// The benchmarks compare the playouts of a search with raw playouts: the
// same uniform random games from the same root, played by a loop over the
// rules package's hot paths (as each game's own playout benchmark plays
// them), with the same random source. Both report playouts/s; the search's
// includes its tree (selection, expansion, update).

var geisterStart = func() geister.Position {
	p, _ := geister.Start(geister.RedsOf(geister.A, geister.D, geister.F, geister.G), geister.RedsOf(geister.B, geister.C, geister.E, geister.H))
	return p
}()

// rawOthello plays one uniform random game from p.
func rawOthello(p othello.Position, r *rand.Rand, buf []othello.Move) float64 {
	for {
		moves := p.AppendLegalMoves(buf[:0])
		if len(moves) == 0 {
			return float64(p.Count(othello.Black) - p.Count(othello.White))
		}
		p = p.PlayUnchecked(moves[r.IntN(len(moves))])
	}
}

func rawGeister(p geister.Position, r *rand.Rand, buf []geister.Move) float64 {
	for !p.IsOver() && p.Ply() < geister.GAT.PlyLimit {
		moves := p.AppendLegalMoves(buf[:0])
		p = p.PlayUnchecked(moves[r.IntN(len(moves))])
	}
	return float64(p.Ply())
}

// rawDarkChess plays the game as darkchess's playout benchmark does, but
// drawing each flip's piece from the pool when it is played (not from a deal
// made beforehand), as a search must.
func rawDarkChess(p darkchess.Position, r *rand.Rand, buf []darkchess.Move) float64 {
	for {
		moves := p.AppendLegalMoves(buf[:0])
		if len(moves) == 0 || p.Quiet() >= 60 {
			return float64(p.Quiet())
		}
		m := moves[r.IntN(len(moves))]
		if m.IsFlip() {
			k := r.IntN(p.FaceDown().Count())
			for pc := darkchess.RedKing; pc <= darkchess.BlackPawn; pc++ {
				if k -= p.Pool(pc); k < 0 {
					p = p.PlayPlyUnchecked(darkchess.Ply{Move: m, Piece: pc})
					break
				}
			}
			continue
		}
		p = p.PlayUnchecked(m)
	}
}

func rawPDD(p pdd.Position, r *rand.Rand, buf []pdd.Move) float64 {
	for {
		moves := p.AppendLegalMoves(buf[:0])
		if len(moves) == 0 {
			return float64(p.NumBridges())
		}
		p = p.PlayUnchecked(moves[r.IntN(len(moves))])
	}
}

func benchRaw[S any, M any](b *testing.B, s S, buf []M, play func(S, *rand.Rand, []M) float64) {
	r := rand.New(rand.NewPCG(1, 2))
	b.ReportAllocs()
	n, sink := 0, 0.0
	for b.Loop() {
		sink += play(s, r, buf)
		n++
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "playouts/s")
	_ = sink
}

// BenchmarkRawPlayout measures uniform random playouts from each game's
// start with the rules package alone; one op is one playout.
func BenchmarkRawPlayout(b *testing.B) {
	b.Run("othello", func(b *testing.B) {
		benchRaw(b, othello.Standard.Start, make([]othello.Move, 0, 64), rawOthello)
	})
	b.Run("geister", func(b *testing.B) {
		benchRaw(b, geisterStart, make([]geister.Move, 0, 32), rawGeister)
	})
	b.Run("darkchess", func(b *testing.B) {
		benchRaw(b, darkchess.Opening, make([]darkchess.Move, 0, darkchess.MaxMoves), rawDarkChess)
	})
	b.Run("pdd", func(b *testing.B) {
		benchRaw(b, pdd.Course.Start(), make([]pdd.Move, 0, pdd.MaxMoves), rawPDD)
	})
}

// benchMCTS runs searches of budget playouts from s; one op is one playout.
func benchMCTS[S comparable, M comparable, G search.Game[S, M]](b *testing.B, g G, s S, budget int) {
	m := search.NewMCTS(g, search.Options{Playouts: budget, NoReuse: true})
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		if n%budget == 0 {
			if _, err := m.Search(context.Background(), s); err != nil {
				b.Fatal(err)
			}
		}
		n++
	}
	// Finish the last search's playouts so that the count is exact.
	for n%budget != 0 {
		n++
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "playouts/s")
}

// BenchmarkMCTS measures the playouts of MCTS searches (a tree of up to 1,000
// playouts, one worker) from each game's start; one op is one playout.
func BenchmarkMCTS(b *testing.B) {
	b.Run("othello", func(b *testing.B) { benchMCTS(b, search.Othello{}, othello.Standard.Start, 1000) })
	b.Run("geister", func(b *testing.B) { benchMCTS(b, search.Geister{}, geisterStart, 1000) })
	b.Run("darkchess", func(b *testing.B) {
		benchMCTS(b, search.DarkChess{}, search.NewDarkChessState(darkchess.Opening), 1000)
	})
	b.Run("pdd", func(b *testing.B) { benchMCTS(b, search.PDD{}, pdd.Course.Start(), 100) })
}

package othello_test

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/botarena/botarena/othello"
)

// benchPerftCounts are the expected counts from the standard 8x8 start
// (the published perft table), indexed by depth.
var benchPerftCounts = map[othello.Convention][]uint64{
	othello.Strict: {1, 4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288, 24571056, 212258216, 1939879668},
	othello.Bik:    {1, 4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288, 24571284, 212258800, 1939886636},
}

// bench6x6Counts are the expected 6x6 counts, indexed by depth.
var bench6x6Counts = map[othello.Convention][]uint64{
	othello.Strict: {1, 4, 12, 56, 244, 1364, 7604, 47740, 308716, 2114912, 14976684, 108820072},
	othello.Bik:    {1, 4, 12, 56, 244, 1364, 7604, 47740, 308716, 2114912, 14976792, 108820292},
}

func perftFunc(c othello.Convention) func(othello.Position, int) uint64 {
	if c == othello.Bik {
		return othello.PerftBik
	}
	return othello.Perft
}

// BenchmarkPerft measures single-threaded perft from the standard start by
// depth, in each convention and by each kernel this processor runs (pure Go,
// and the AVX2 and AVX-512 assembly where the processor has them; Perft uses
// the last), and reports leaves per second. It checks every count. Depth 12
// takes seconds, so it runs only when the -bench pattern names it, as in
//
//	go test ./othello -run '^$' -bench 'Perft/strict/avx512/d=12'
func BenchmarkPerft(b *testing.B) {
	deepest := 11
	if f := flag.Lookup("test.bench"); f != nil && strings.Contains(f.Value.String(), "d=12") {
		deepest = 12
	}
	for _, c := range []othello.Convention{othello.Strict, othello.Bik} {
		for _, k := range othello.PerftKernels() {
			for d := 6; d <= deepest; d++ {
				b.Run(fmt.Sprintf("%s/%s/d=%d", c, k, d), func(b *testing.B) {
					benchPerft(b, othello.Standard.Start, d, benchPerftCounts[c][d], func(p othello.Position, d int) uint64 {
						n, _ := othello.PerftWith(k, p, d, c)
						return n
					})
				})
			}
		}
	}
}

// BenchmarkPerft6x6 measures perft on the 6x6 board.
func BenchmarkPerft6x6(b *testing.B) {
	for _, c := range []othello.Convention{othello.Strict, othello.Bik} {
		for _, d := range []int{10, 11} {
			b.Run(fmt.Sprintf("%s/d=%d", c, d), func(b *testing.B) {
				benchPerft(b, othello.Board6x6.Start, d, bench6x6Counts[c][d], perftFunc(c))
			})
		}
	}
}

func benchPerft(b *testing.B, p othello.Position, d int, want uint64, perft func(othello.Position, int) uint64) {
	b.ReportAllocs()
	var n uint64
	for b.Loop() {
		if got := perft(p, d); got != want {
			b.Fatalf("perft(%d) = %d, want %d", d, got, want)
		}
		n += want
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "leaves/s")
}

// BenchmarkParallelPerft measures [othello.ParallelPerft] on every core.
func BenchmarkParallelPerft(b *testing.B) {
	for _, c := range []othello.Convention{othello.Strict, othello.Bik} {
		for _, d := range []int{10, 11} {
			b.Run(fmt.Sprintf("%s/d=%d", c, d), func(b *testing.B) {
				want := benchPerftCounts[c][d]
				b.ReportAllocs()
				var n uint64
				for b.Loop() {
					if got := othello.ParallelPerft(othello.Standard.Start, d, c, 0); got != want {
						b.Fatalf("ParallelPerft(%d) = %d, want %d", d, got, want)
					}
					n += want
				}
				b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "leaves/s")
			})
		}
	}
}

// randomPositions returns n positions from seeded random playouts (every
// stage of the game, never a finished one) and the total number of their
// legal moves.
func randomPositions(n int) ([]othello.Position, int) {
	r := rand.New(rand.NewPCG(1, 2))
	var out []othello.Position
	var buf [64]othello.Move
	total := 0
	for len(out) < n {
		p := othello.Standard.Start
		for {
			moves := p.AppendLegalMoves(buf[:0])
			if len(moves) == 0 {
				break
			}
			if len(out) < n {
				out = append(out, p)
				total += len(moves)
			}
			p = p.PlayUnchecked(moves[r.IntN(len(moves))])
		}
	}
	return out, total
}

// BenchmarkLegalMoves measures [othello.Position.LegalSquares] on positions
// from random games; one op is one position.
func BenchmarkLegalMoves(b *testing.B) {
	ps, total := randomPositions(1 << 12)
	b.ReportAllocs()
	var ops int
	for b.Loop() {
		got := 0
		for _, p := range ps {
			got += p.LegalSquares().Count()
		}
		if got < total-len(ps) { // a forced pass counts 1 in total, 0 here
			b.Fatalf("%d legal moves, want about %d", got, total)
		}
		ops += len(ps)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(ops), "ns/pos")
}

// BenchmarkPlay measures [othello.Position.PlayUnchecked] over every legal
// move of positions from random games; one op is one move.
func BenchmarkPlay(b *testing.B) {
	ps, total := randomPositions(1 << 12)
	b.ReportAllocs()
	var buf [64]othello.Move
	var ops int
	for b.Loop() {
		var sink othello.Bitboard
		for _, p := range ps {
			for _, m := range p.AppendLegalMoves(buf[:0]) {
				sink ^= p.PlayUnchecked(m).Black()
			}
		}
		if sink == 1 {
			b.Log("unlikely")
		}
		ops += total
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(ops), "ns/move")
}

// TestPerftAllocs asserts that the hot paths do not allocate.
func TestPerftAllocs(t *testing.T) {
	start := othello.Standard.Start
	var buf [64]othello.Move
	for name, f := range map[string]func(){
		"Perft":            func() { othello.Perft(start, 5) },
		"PerftBik":         func() { othello.PerftBik(start, 5) },
		"Perft6x6":         func() { othello.Perft(othello.Board6x6.Start, 5) },
		"AppendLegalMoves": func() { start.AppendLegalMoves(buf[:0]) },
		"PlayUnchecked":    func() { start.PlayUnchecked(othello.Place(othello.D3)) },
	} {
		if n := testing.AllocsPerRun(100, f); n != 0 {
			t.Errorf("%s: %v allocs per run, want 0", name, n)
		}
	}
	for _, k := range othello.PerftKernels() {
		for _, c := range []othello.Convention{othello.Strict, othello.Bik} {
			f := func() { othello.PerftWith(k, start, 6, c) }
			if n := testing.AllocsPerRun(20, f); n != 0 {
				t.Errorf("%s perft by the %s kernel: %v allocs per run, want 0", c, k, n)
			}
		}
	}
}

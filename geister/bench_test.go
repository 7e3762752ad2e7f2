package geister_test

import (
	"math/rand/v2"
	"testing"

	"github.com/botarena/botarena/geister"
)

// xorshift is a cheap inline random source for the playout benchmark, so the
// measure is the engine's, not an interface call's.
type xorshift uint64

func (x *xorshift) next() uint64 {
	*x ^= *x << 13
	*x ^= *x >> 7
	*x ^= *x << 17
	return uint64(*x)
}

// intn returns a number in [0, n) (Lemire's multiply-shift; the bias is
// negligible for n <= 32).
func (x *xorshift) intn(n int) int { return int((x.next() & 0xFFFFFFFF) * uint64(n) >> 32) }

// allStarts returns the 4900 start positions, one per pair of setups.
func allStarts(tb testing.TB) []geister.Position {
	var out []geister.Position
	for _, r1 := range geister.AllReds() {
		for _, r2 := range geister.AllReds() {
			p, err := geister.Start(r1, r2)
			if err != nil {
				tb.Fatal(err)
			}
			out = append(out, p)
		}
	}
	return out
}

// playout plays uniformly random legal moves from p until the board decides
// the game or the ply limit is reached, and returns the final position.
func playout(p geister.Position, limit int, rng *xorshift) geister.Position {
	var buf [32]geister.Move
	for !p.IsOver() && p.Ply() < limit {
		moves := p.AppendLegalMoves(buf[:0])
		p = p.PlayUnchecked(moves[rng.intn(len(moves))])
	}
	return p
}

// BenchmarkPlayout measures random playouts under GAT's 300-ply limit from
// random setups on one core; one op is one game. It reports plies/s and
// checks that every game ends.
func BenchmarkPlayout(b *testing.B) {
	starts := allStarts(b)
	rng := xorshift(0x9E3779B97F4A7C15)
	b.ReportAllocs()
	var plies, games, decided int
	for b.Loop() {
		start := starts[rng.intn(len(starts))]
		p := playout(start, geister.GAT.PlyLimit, &rng)
		if !geister.GAT.IsOver(p) {
			b.Fatalf("playout stopped at %s", p)
		}
		if p.IsOver() {
			decided++
		}
		plies += p.Ply()
		games++
	}
	b.ReportMetric(float64(plies)/b.Elapsed().Seconds(), "plies/s")
	b.ReportMetric(float64(plies)/float64(games), "plies/game")
	if games > 100 && decided < games/2 {
		b.Fatalf("only %d of %d random games decided by the board", decided, games)
	}
}

// randomPositions returns n unfinished positions from seeded random
// playouts (every stage of the game) and their total number of legal moves.
func randomPositions(tb testing.TB, n int) ([]geister.Position, int) {
	r := rand.New(rand.NewPCG(1, 2))
	starts := allStarts(tb)
	var out []geister.Position
	var buf [32]geister.Move
	total := 0
	for len(out) < n {
		p := starts[r.IntN(len(starts))]
		for !p.IsOver() && len(out) < n {
			moves := p.AppendLegalMoves(buf[:0])
			out = append(out, p)
			total += len(moves)
			p = p.PlayUnchecked(moves[r.IntN(len(moves))])
		}
	}
	return out, total
}

// BenchmarkAppendLegalMoves measures move generation on positions from
// random games; one op is one position.
func BenchmarkAppendLegalMoves(b *testing.B) {
	ps, total := randomPositions(b, 1<<12)
	var buf [32]geister.Move
	b.ReportAllocs()
	var ops int
	for b.Loop() {
		got := 0
		for _, p := range ps {
			got += len(p.AppendLegalMoves(buf[:0]))
		}
		if got != total {
			b.Fatalf("%d legal moves, want %d", got, total)
		}
		ops += len(ps)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(ops), "ns/pos")
}

// BenchmarkPlayUnchecked measures every legal move of positions from random
// games; one op is one move.
func BenchmarkPlayUnchecked(b *testing.B) {
	ps, total := randomPositions(b, 1<<12)
	var buf [32]geister.Move
	b.ReportAllocs()
	var ops int
	for b.Loop() {
		var sink geister.Bitboard
		for _, p := range ps {
			for _, m := range p.AppendLegalMoves(buf[:0]) {
				sink ^= p.PlayUnchecked(m).Occupied()
			}
		}
		if sink == 1 {
			b.Log("unlikely")
		}
		ops += total
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(ops), "ns/move")
}

// BenchmarkPerft measures perft from the start; it checks the count.
func BenchmarkPerft(b *testing.B) {
	start, _ := geister.Start(geister.RedsAt(0), geister.RedsAt(69))
	for _, d := range []int{6, 7} {
		b.Run("d="+string(rune('0'+d)), func(b *testing.B) {
			b.ReportAllocs()
			var n uint64
			for b.Loop() {
				if got := geister.Perft(start, d); got != startPerft[d] {
					b.Fatalf("perft(%d) = %d, want %d", d, got, startPerft[d])
				}
				n += startPerft[d]
			}
			b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "leaves/s")
		})
	}
}

// BenchmarkDeterminize measures sampling a position from a start view.
func BenchmarkDeterminize(b *testing.B) {
	start, _ := geister.Start(geister.RedsAt(0), geister.RedsAt(69))
	v := start.View(geister.Second)
	rng := rand.New(rand.NewPCG(1, 2))
	b.ReportAllocs()
	for b.Loop() {
		if p := geister.Determinize(v, rng); p.Ply() != 0 {
			b.Fatal(p)
		}
	}
}

// TestAllocs asserts that the hot paths do not allocate.
func TestAllocs(t *testing.T) {
	start, _ := geister.Start(geister.RedsAt(0), geister.RedsAt(69))
	v := start.View(geister.First)
	rng := rand.New(rand.NewPCG(1, 2))
	x := xorshift(7)
	var buf [32]geister.Move
	m := geister.NewMove(geister.A, geister.North)
	for name, f := range map[string]func(){
		"Perft":                 func() { geister.Perft(start, 4) },
		"AppendLegalMoves":      func() { start.AppendLegalMoves(buf[:0]) },
		"NumLegalMoves":         func() { start.NumLegalMoves() },
		"PlayUnchecked":         func() { start.PlayUnchecked(m) },
		"Play":                  func() { _, _ = start.Play(m) },
		"IsLegal":               func() { start.IsLegal(m) },
		"View":                  func() { start.View(geister.Second) },
		"View.AppendLegalMoves": func() { v.AppendLegalMoves(buf[:0]) },
		"Determinize":           func() { geister.Determinize(v, rng) },
		"Start":                 func() { _, _ = geister.Start(geister.RedsAt(3), geister.RedsAt(4)) },
		"AppendBoard":           func() { start.AppendBoard(buf2[:0], geister.Second) },
		"playout":               func() { playout(start, 300, &x) },
	} {
		if n := testing.AllocsPerRun(100, f); n != 0 {
			t.Errorf("%s: %v allocs per run, want 0", name, n)
		}
	}
}

var buf2 [64]byte

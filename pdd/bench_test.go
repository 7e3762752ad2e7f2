package pdd_test

import (
	"math/rand/v2"
	"testing"

	"github.com/botarena/botarena/pdd"
)

// playoutPositions returns every position of n seeded uniform playouts
// (PCG(1,2)) under rules, with the ply (from 1) each is before,
// finished positions left out.
func playoutPositions(rules pdd.Rules, n int) ([]pdd.Position, []int) {
	r := rand.New(rand.NewPCG(1, 2))
	var out []pdd.Position
	var plies []int
	var buf [pdd.MaxMoves]pdd.Move
	for range n {
		p := rules.Start()
		for ply := 1; ; ply++ {
			moves := p.AppendLegalMoves(buf[:0])
			if len(moves) == 0 {
				break
			}
			out, plies = append(out, p), append(plies, ply)
			p = p.PlayUnchecked(moves[r.IntN(len(moves))])
		}
	}
	return out, plies
}

// BenchmarkLegalMoves measures full enumerations with AppendLegalMoves: over
// every position of 64 seeded playouts ("corpus"), over their middle game
// (plies 11-40, "midgame"), and from the start (4,950 pairs). It checks the
// total against NumLegalMoves and reports enumerations and moves per
// second.
func BenchmarkLegalMoves(b *testing.B) {
	corpus, plies := playoutPositions(pdd.Course, 64)
	var mid []pdd.Position
	for i, p := range corpus {
		if plies[i] > 10 && plies[i] <= 40 {
			mid = append(mid, p)
		}
	}
	for _, set := range []struct {
		name string
		ps   []pdd.Position
	}{{"corpus", corpus}, {"midgame", mid}, {"start", []pdd.Position{pdd.Course.Start()}}} {
		b.Run(set.name, func(b *testing.B) {
			want := 0
			for _, p := range set.ps {
				want += p.NumLegalMoves()
			}
			buf := make([]pdd.Move, 0, pdd.MaxMoves)
			b.ReportAllocs()
			var gens, moves int
			for b.Loop() {
				got := 0
				for _, p := range set.ps {
					got += len(p.AppendLegalMoves(buf[:0]))
				}
				if got != want {
					b.Fatalf("%d legal moves, want %d", got, want)
				}
				gens += len(set.ps)
				moves += got
			}
			b.ReportMetric(float64(gens)/b.Elapsed().Seconds(), "movegen/s")
			b.ReportMetric(float64(moves)/b.Elapsed().Seconds(), "moves/s")
			b.ReportMetric(float64(want)/float64(len(set.ps)), "moves/pos")
		})
	}
}

// BenchmarkNumLegalMoves measures NumLegalMoves over the corpus.
func BenchmarkNumLegalMoves(b *testing.B) {
	corpus, _ := playoutPositions(pdd.Course, 64)
	want := 0
	for _, p := range corpus {
		want += len(p.AppendLegalMoves(nil))
	}
	b.ReportAllocs()
	var moves int
	for b.Loop() {
		got := 0
		for _, p := range corpus {
			got += p.NumLegalMoves()
		}
		if got != want {
			b.Fatalf("%d moves, want %d", got, want)
		}
		moves += got
	}
	b.ReportMetric(float64(moves)/b.Elapsed().Seconds(), "moves/s")
}

// BenchmarkPlayout plays uniform random games to the end: a
// PCG seeded (1,2), a uniform choice from AppendLegalMoves, forced Pass
// included. It reports plies and games per second.
func BenchmarkPlayout(b *testing.B) {
	for _, rules := range []pdd.Rules{pdd.Course, pdd.Official} {
		b.Run(rules.String(), func(b *testing.B) {
			r := rand.New(rand.NewPCG(1, 2))
			var buf [pdd.MaxMoves]pdd.Move
			b.ReportAllocs()
			games, plies := 0, 0
			for b.Loop() {
				p := rules.Start()
				for {
					moves := p.AppendLegalMoves(buf[:0])
					if len(moves) == 0 {
						break
					}
					p = p.PlayUnchecked(moves[r.IntN(len(moves))])
					plies++
				}
				if !p.IsOver() {
					b.Fatal("playout ended before the game")
				}
				games++
			}
			b.ReportMetric(float64(plies)/b.Elapsed().Seconds(), "plies/s")
			b.ReportMetric(float64(games)/b.Elapsed().Seconds(), "games/s")
			b.ReportMetric(float64(plies)/float64(games), "plies/game")
		})
	}
}

// BenchmarkNaivePlayout plays the same playouts with the naive reference,
// for the speed-up figure.
func BenchmarkNaivePlayout(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	plies := 0
	for b.Loop() {
		n := toNaive(pdd.Course.Start())
		for {
			moves := n.moves()
			if len(moves) == 0 {
				break
			}
			n = n.play(moves[r.IntN(len(moves))])
			plies++
		}
	}
	b.ReportMetric(float64(plies)/b.Elapsed().Seconds(), "plies/s")
}

// BenchmarkPerftM1 measures perft(3) of M1 under both profiles
// and reports nodes (leaves) per second.
func BenchmarkPerftM1(b *testing.B) {
	for _, tt := range []struct {
		rules pdd.Rules
		want  uint64
	}{{pdd.Course, 861_289}, {pdd.Official, 885_697}} {
		b.Run(tt.rules.String(), func(b *testing.B) {
			p := fromFiles(b, tt.rules, pdd.White, m1Chess, m1Bridge)
			b.ReportAllocs()
			var n uint64
			for b.Loop() {
				if got := pdd.Perft(p, 3); got != tt.want {
					b.Fatalf("perft(3) = %d, want %d", got, tt.want)
				}
				n += tt.want
			}
			b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "nodes/s")
		})
	}
}

// BenchmarkPerftStart measures perft(2) from the start, 23,532,300 leaves.
func BenchmarkPerftStart(b *testing.B) {
	b.ReportAllocs()
	var n uint64
	for b.Loop() {
		if got := pdd.Perft(pdd.Course.Start(), 2); got != 23_532_300 {
			b.Fatalf("perft(2) = %d", got)
		}
		n += 23_532_300
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "nodes/s")
}

// BenchmarkPlay measures the checked Play over every legal move of the
// midgame positions; one op is one move.
func BenchmarkPlay(b *testing.B) {
	corpus, plies := playoutPositions(pdd.Course, 16)
	type pm struct {
		p pdd.Position
		m pdd.Move
	}
	var work []pm
	for i, p := range corpus {
		if plies[i] > 20 {
			for _, m := range p.AppendLegalMoves(nil) {
				work = append(work, pm{p, m})
			}
		}
	}
	b.ReportAllocs()
	ops := 0
	for b.Loop() {
		for _, w := range work {
			if _, err := w.p.Play(w.m); err != nil {
				b.Fatal(err)
			}
		}
		ops += len(work)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(ops), "ns/move")
}

// TestAllocs asserts that the hot paths do not allocate.
func TestAllocs(t *testing.T) {
	m1 := fromFiles(t, pdd.Official, pdd.White, m1Chess, m1Bridge)
	s1 := fromFiles(t, pdd.Course, pdd.White, s1Chess, s1Bridge)
	corpus, _ := playoutPositions(pdd.Course, 2)
	mid := corpus[30]
	start := pdd.Course.Start()
	buf := make([]pdd.Move, 0, pdd.MaxMoves)
	legal := m1.AppendLegalMoves(nil)
	for name, f := range map[string]func(){
		"AppendLegalMoves/start": func() { start.AppendLegalMoves(buf[:0]) },
		"AppendLegalMoves/mid":   func() { mid.AppendLegalMoves(buf[:0]) },
		"AppendLegalMoves/M1":    func() { m1.AppendLegalMoves(buf[:0]) },
		"NumLegalMoves":          func() { mid.NumLegalMoves() },
		"PlayUnchecked":          func() { m1.PlayUnchecked(legal[len(legal)-2]) },
		"Play":                   func() { _, _ = m1.Play(legal[3]) },
		"IsLegal":                func() { m1.IsLegal(legal[5]) },
		"IsOver":                 func() { mid.IsOver() },
		"MustPass":               func() { mid.MustPass() },
		"Score":                  func() { s1.Score(pdd.White) },
		"Outcome":                func() { s1.Outcome() },
		"Perft":                  func() { pdd.Perft(m1, 2) },
	} {
		if n := testing.AllocsPerRun(20, f); n != 0 {
			t.Errorf("%s: %v allocs per run, want 0", name, n)
		}
	}
}

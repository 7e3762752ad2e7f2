package darkchess_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/botarena/botarena/darkchess"
)

// playoutStats is the outcome of a series of random playouts.
type playoutStats struct {
	games, plies, red, black, draws int
}

// playout plays one uniform random game from the opening: every
// legal ply equally likely, each face-down square one choice; the flips reveal
// a deal shuffled for this playout, which is the same as drawing each flip's
// piece from the pool; the loss rules; a draw after n plies without
// capture or flip; no repetition rule. It returns the number of plies and the
// winner (NoColor for a draw).
func playout(rng *rand.Rand, n int, buf []darkchess.Move) (int, darkchess.Color) {
	p := darkchess.Opening.Deal(rng)
	for plies := 0; ; plies++ {
		moves := p.AppendLegalMoves(buf[:0])
		if len(moves) == 0 {
			return plies, p.Turn().Opponent()
		}
		if p.Quiet() >= n {
			return plies, darkchess.NoColor
		}
		p = p.PlayUnchecked(moves[rng.IntN(len(moves))])
	}
}

func (s *playoutStats) add(plies int, winner darkchess.Color) {
	s.games++
	s.plies += plies
	switch winner {
	case darkchess.Red:
		s.red++
	case darkchess.Black:
		s.black++
	default:
		s.draws++
	}
}

func (s playoutStats) meanPlies() float64 { return float64(s.plies) / float64(s.games) }

// playoutReference is the published reference for each draw limit: the mean game
// length, its standard deviation, and the draw share.
var playoutReference = map[int]struct{ mean, sd, draws float64 }{
	180: {363, 120, 0.242},
	60:  {260, 57, 0.703},
}

// BenchmarkRandomPlayout measures uniform random playouts from the opening
// and reports playouts/s, plies/s and the mean length. Once it has
// run 2,000 playouts it checks the mean length against the reference within
// 5 standard errors.
func BenchmarkRandomPlayout(b *testing.B) {
	for _, n := range []int{180, 60} {
		b.Run(fmt.Sprintf("N=%d", n), func(b *testing.B) {
			rng := rand.New(rand.NewPCG(1, uint64(n)))
			var buf [darkchess.MaxMoves]darkchess.Move
			var s playoutStats
			b.ReportAllocs()
			for b.Loop() {
				s.add(playout(rng, n, buf[:]))
			}
			secs := b.Elapsed().Seconds()
			b.ReportMetric(float64(s.games)/secs, "playouts/s")
			b.ReportMetric(float64(s.plies)/secs, "plies/s")
			b.ReportMetric(s.meanPlies(), "plies/playout")
			ref := playoutReference[n]
			if s.games >= 2000 {
				if d := math.Abs(s.meanPlies() - ref.mean); d > 5*ref.sd/math.Sqrt(float64(s.games)) {
					b.Fatalf("mean length %.1f over %d playouts, reference %.0f", s.meanPlies(), s.games, ref.mean)
				}
			}
		})
	}
}

// TestPlayoutStatistics is the whole-rules check: 20,000 uniform
// random playouts from the opening for each draw limit land within the
// reference's tolerances on the mean game length and the share of draws.
func TestPlayoutStatistics(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("20,000 playouts per draw limit")
	}
	for _, tt := range []struct {
		n                 int
		meanTol, drawsTol float64
	}{{180, 4, 0.015}, {60, 2, 0.015}} {
		rng := rand.New(rand.NewPCG(20260, uint64(tt.n)))
		var buf [darkchess.MaxMoves]darkchess.Move
		var s playoutStats
		for range 20000 {
			s.add(playout(rng, tt.n, buf[:]))
		}
		ref := playoutReference[tt.n]
		draws := float64(s.draws) / float64(s.games)
		t.Logf("N=%d: mean %.1f plies, red %d black %d draws %d (%.1f%%)", tt.n, s.meanPlies(), s.red, s.black, s.draws, 100*draws)
		if math.Abs(s.meanPlies()-ref.mean) > tt.meanTol || math.Abs(draws-ref.draws) > tt.drawsTol {
			t.Errorf("N=%d: mean %.1f (reference %.0f ± %.0f), draws %.3f (reference %.3f ± %.3f)",
				tt.n, s.meanPlies(), ref.mean, tt.meanTol, draws, ref.draws, tt.drawsTol)
		}
	}
}

// BenchmarkPerft reports leaves/s on the opening and on mid12, and
// checks each count.
func BenchmarkPerft(b *testing.B) {
	for _, bb := range []struct {
		name, pos string
		depth     int
		want      uint64
	}{
		{"opening/d=5", openingText + " PmRc/MRpP/MrnK/Pknp/rCpC/GgPP/GpNN/gmpc", 5, 24462204},
		{"mid12/d=5", "rXXX/XXMp/CXCP/XnXX/KGXc/R-Pn/M-X-/GPXc b 00011021221002 0 .mPp/kr../.R../p.mg/..N./..../..P./..g.", 5, 2437810},
	} {
		b.Run(bb.name, func(b *testing.B) {
			p := mustParse(b, bb.pos)
			b.ReportAllocs()
			var n uint64
			for b.Loop() {
				if got := darkchess.Perft(p, bb.depth); got != bb.want {
					b.Fatalf("perft(%d) = %d, want %d", bb.depth, got, bb.want)
				}
				n += bb.want
			}
			b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "leaves/s")
		})
	}
}

// BenchmarkPerftChance reports leaves/s of the chance count on mid12.
func BenchmarkPerftChance(b *testing.B) {
	v := mustParse(b, "rXXX/XXMp/CXCP/XnXX/KGXc/R-Pn/M-X-/GPXc b 00011021221002 0").View(darkchess.Black)
	const want = 55839265
	b.ReportAllocs()
	var n uint64
	for b.Loop() {
		if got := darkchess.PerftChance(v, 4); got != want {
			b.Fatalf("PerftChance(4) = %d, want %d", got, want)
		}
		n += want
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "leaves/s")
}

// TestZeroAllocs asserts that the hot paths allocate nothing.
func TestZeroAllocs(t *testing.T) {
	p := mustParse(t, "rXXX/XXMp/CXCP/XnXX/KGXc/R-Pn/M-X-/GPXc b 00011021221002 0 .mPp/kr../.R../p.mg/..N./..../..P./..g.")
	v := p.View(darkchess.Black)
	rng := rand.New(rand.NewPCG(1, 2))
	fast := make([]darkchess.Move, 0, darkchess.MaxMoves)
	exact := make([]darkchess.Move, 0, 88)
	flip := darkchess.Ply{Move: darkchess.Flip(darkchess.B8), Piece: darkchess.BlackMinister}
	step := darkchess.NewMove(darkchess.D3, darkchess.C3)
	if !p.IsLegal(step) || !p.IsLegal(flip.Move) {
		t.Fatal("test moves not legal")
	}
	var sink int
	for name, f := range map[string]func(){
		"AppendLegalMoves":          func() { sink += len(p.AppendLegalMoves(fast[:0])) },
		"AppendLegalMoves (cap 88)": func() { sink += len(p.AppendLegalMoves(exact[:0])) },
		"View.AppendLegalMoves":     func() { sink += len(v.AppendLegalMoves(fast[:0])) },
		"PlayUnchecked":             func() { sink += p.PlayUnchecked(step).Quiet() },
		"PlayPlyUnchecked":          func() { sink += p.PlayPlyUnchecked(flip).Quiet() },
		"Play":                      func() { q, _ := p.Play(step); sink += q.Quiet() },
		"PlayPly":                   func() { q, _ := p.PlayPly(flip); sink += q.Quiet() },
		"IsLegal/IsOver/IsCapture":  func() { _, _, _ = p.IsLegal(step), p.IsOver(), p.IsCapture(step) },
		"Deal":                      func() { sink += darkchess.Opening.Deal(rng).Quiet() },
		"Count/Pool/At":             func() { sink += p.Count(darkchess.Red) + p.Pool(darkchess.RedPawn) + int(p.At(darkchess.A1)) },
		"Perft":                     func() { sink += int(darkchess.Perft(p, 3)) },
		"PerftChance":               func() { sink += int(darkchess.PerftChance(v, 2)) },
		"PerftExpected":             func() { sink += int(darkchess.PerftExpected(v, 2)) },
		"playout":                   func() { n, _ := playout(rng, 180, fast); sink += n },
	} {
		if a := testing.AllocsPerRun(20, f); a != 0 {
			t.Errorf("%s: %v allocations", name, a)
		}
	}
	_ = sink
}

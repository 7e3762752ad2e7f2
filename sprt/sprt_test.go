package sprt

import (
	"errors"
	"math"
	"strings"
	"testing"
)

// near reports whether got is within tol of want.
func near(got, want, tol float64) bool { return math.Abs(got-want) <= tol }

// fastchess is github.com/Disservin/fastchess, file app/tests/sprt_test.cpp
// at commit e633d954471cf04fc47f11dd0b7e924579ff4635: published LLRs,
// checked there to 1% (doctest::Approx(x).epsilon(0.01)). fastchess writes
// Stats(wins, losses, draws) for games and Stats(LL, LD, WL, DD, WD, WW)
// for pairs (app/src/matchmaking/stats.hpp); WL and DD are both the
// 1-point pair. Its two all-win cases ("normalized trinomial 3": 4250 wins,
// [0, 10], 2.97; "normalized pentanomial 3": 5550 WW, [0, 5], 2.94) are
// left out: the generalized LLR of fishtest's formula is about 120 and 112
// there (TestLLRAllWins derives them by hand), so those two numbers come
// from some other computation.
func TestLLRPublished(t *testing.T) {
	tests := []struct {
		name  string
		test  Test
		penta *Pentanomial
		tri   *Trinomial
		want  float64
	}{
		{"normalized trinomial 1", Test{0, 2, 0.05, 0.05, Normalized}, nil, &Trinomial{36027, 68692, 36433}, 0.92},
		{"normalized trinomial 2", Test{-1.75, 0.25, 0.05, 0.05, Normalized}, nil, &Trinomial{10650, 20431, 10871}, 2.30},
		{"logistic trinomial 1", Test{0.5, 2.5, 0.05, 0.05, Logistic}, nil, &Trinomial{21184, 40708, 21404}, -1.57},
		{"logistic trinomial 2", Test{0, 2, 0.05, 0.05, Logistic}, nil, &Trinomial{57030, 106593, 57433}, -2.59},
		{"normalized pentanomial 1", Test{0, 2, 0.05, 0.05, Normalized}, &Pentanomial{365, 16618, 36029 + 200, 16974, 390}, nil, 2.25},
		{"normalized pentanomial 2", Test{-1.75, 0.25, 0.05, 0.05, Normalized}, &Pentanomial{127, 4883, 10311 + 401, 5150, 104}, nil, 3.01},
		{"logistic pentanomial 1", Test{0.5, 2.5, 0.05, 0.05, Logistic}, &Pentanomial{223, 9863, 20279 + 1000, 10037, 246}, nil, -3.07},
		{"logistic pentanomial 2", Test{0, 2, 0.05, 0.05, Logistic}, &Pentanomial{871, 26175, 55003 + 980, 26678, 821}, nil, -4.98},
		// fastchess's own output for a finished test, "Ptnml(0-2): [0, 0,
		// 2, 0, 37] ... LLR: 2.96 (100.6%) (-2.94, 2.94) [0.00, 20.00]",
		// as quoted in github.com/heofthetea/dhbw,
		// semester-5/thunfisch/SPRT.md (normalized Elo is fastchess's
		// default).
		{"fastchess output [0,20]", Test{0, 20, 0.05, 0.05, Normalized}, &Pentanomial{0, 0, 2, 0, 37}, nil, 2.96},
	}
	for _, tc := range tests {
		var got float64
		if tc.penta != nil {
			got = tc.test.LLR(*tc.penta)
		} else {
			got = tc.test.LLRTrinomial(*tc.tri)
		}
		if !near(got, tc.want, 0.01*math.Abs(tc.want)+0.005) {
			t.Errorf("%s: LLR %.4f, published %.2f", tc.name, got, tc.want)
		}
	}
}

// TestLLRAllWins checks the LLR where it has a closed form: when every
// sample scores 1, the most likely distribution with t-value t puts mass
// ½+d on score 1 and ½-d on 0, d = t/(2√(1+t²)) (from d = t·√(¼-d²)), and
// the LLR of n samples is n·ln((½+d₁)/(½+d₀)), up to the regularization of
// the outcomes never seen.
func TestLLRAllWins(t *testing.T) {
	closed := func(n int, t0, t1 float64) float64 {
		d := func(t float64) float64 { return t / (2 * math.Sqrt(1+t*t)) }
		return float64(n) * math.Log((0.5+d(t1))/(0.5+d(t0)))
	}
	if got, want := (Test{0, 5, 0.05, 0.05, Normalized}).LLR(Pentanomial{4: 5550}), closed(5550, 0, math.Sqrt2*5/eloPerT); !near(got, want, 0.01*want) {
		t.Errorf("5550 won pairs, [0, 5]: LLR %.3f, closed form %.3f", got, want)
	}
	if got, want := (Test{0, 10, 0.05, 0.05, Normalized}).LLRTrinomial(Trinomial{2: 4250}), closed(4250, 0, 10/eloPerT); !near(got, want, 0.01*want) {
		t.Errorf("4250 won games, [0, 10]: LLR %.3f, closed form %.3f", got, want)
	}
	// Logistic: the mean-constrained MLE puts mass s on 1 and 1-s on 0.
	s0, s1 := LogisticScore(0), LogisticScore(5)
	if got, want := (Test{0, 5, 0.05, 0.05, Logistic}).LLR(Pentanomial{4: 1000}), 1000*math.Log(s1/s0); !near(got, want, 0.01*want) {
		t.Errorf("1000 won pairs, logistic [0, 5]: LLR %.3f, closed form %.3f", got, want)
	}
}

// fastchess's app/tests/elo_test.cpp at commit
// 6faa96ff68306ed71357c2da2cb7b0259fa6eb4b: published Elo estimates,
// checked there to 1%. (Its "EloWDL 2" also checks diff() against 49.70,
// the normalized figure again; the logistic Elo of 136-96-111 is 40.7.)
func TestEstimatePublished(t *testing.T) {
	tests := []struct {
		name          string
		got           Estimate
		elo, margin   float64 // NaN: not published
		nelo, nmargin float64
	}{
		{"EloWDL 1", Trinomial{89, 123, 76}.Estimate(), math.NaN(), math.NaN(), -20.76, 40.13},
		{"EloWDL 2", Trinomial{96, 111, 136}.Estimate(), math.NaN(), math.NaN(), 49.77, 36.77},
		{"EloWDL 3", Trinomial{356, 0, 34}.Estimate(), math.NaN(), math.NaN(), -508.44, 34.48},
		{"EloPentanomial 1", Pentanomial{34, 54, 31 + 32, 64, 75}.Estimate(), 55.58, 27.65, 57.94, 28.28},
		{"EloPentanomial 2", Pentanomial{332, 433, 457 + 41, 333, 334}.Estimate(), -8.64, 10.33, -9.17, 10.96},
		{"EloPentanomial 3", Pentanomial{7895, 8757, 5485 + 200, 568, 9999}.Estimate(), -21.04, 2.95, -19.01, 2.65},
	}
	for _, tc := range tests {
		check := func(what string, got, want float64) {
			if !math.IsNaN(want) && !near(got, want, 0.01*math.Abs(want)) {
				t.Errorf("%s: %s %.3f, published %.2f", tc.name, what, got, want)
			}
		}
		check("Elo", tc.got.Elo, tc.elo)
		check("margin", tc.got.Margin, tc.margin)
		check("normalized Elo", tc.got.NormalizedElo, tc.nelo)
		check("normalized margin", tc.got.NormalizedMargin, tc.nmargin)
	}
}

func TestBounds(t *testing.T) {
	lo, hi := Test{0, 5, 0.05, 0.05, Normalized}.Bounds()
	// fishtest's and cutechess-cli's "(-2.94, 2.94)".
	if !near(lo, -2.944, 0.001) || !near(hi, 2.944, 0.001) {
		t.Errorf("bounds at α = β = 0.05: (%.4f, %.4f), want (-2.944, 2.944)", lo, hi)
	}
	lo, hi = Test{0, 10, 0.01, 0.01, Normalized}.Bounds()
	// cutechess-cli's projects/lib/tests/sprt/tst_sprt.cpp: (-4.6, 4.6).
	if !near(lo, -4.595, 0.001) || !near(hi, 4.595, 0.001) {
		t.Errorf("bounds at α = β = 0.01: (%.4f, %.4f), want (-4.595, 4.595)", lo, hi)
	}
	test := Test{0, 5, 0.05, 0.05, Normalized}
	for _, c := range []struct {
		llr  float64
		want Verdict
	}{{0, Continue}, {2.9, Continue}, {2.95, AcceptH1}, {-2.95, AcceptH0}, {math.NaN(), Continue}, {math.Inf(1), AcceptH1}} {
		if got := test.Verdict(c.llr); got != c.want {
			t.Errorf("Verdict(%v) = %v, want %v", c.llr, got, c.want)
		}
	}
}

// TestLLRMeanOptimal checks the mean-constrained MLE the logistic LLR rests
// on without trusting its algorithm: the distribution must meet the
// constraint, and no small move that keeps the constraint (sum 1, the same
// mean) may raise the likelihood, which, the likelihood being concave and
// the constraints linear, makes it the maximum.
func TestLLRMeanOptimal(t *testing.T) {
	for _, counts := range [][]int{{10, 20, 30, 25, 15}, {0, 3, 40, 3, 0}, {1, 0, 0, 0, 9}, {5, 7, 9}, {0, 100, 1}} {
		for _, s := range []float64{0.3, 0.5, 0.5072, 0.7} {
			d, _ := newDist(counts)
			q, ok := d.mleMean(s)
			if !ok {
				t.Fatalf("%v, mean %v: no MLE", counts, s)
			}
			sum, mean := 0.0, 0.0
			for i := range d.n {
				sum += q[i]
				mean += q[i] * d.score[i]
			}
			if !near(sum, 1, 1e-9) || !near(mean, s, 1e-9) {
				t.Errorf("%v, mean %v: MLE %v sums to %v with mean %v", counts, s, q[:d.n], sum, mean)
			}
			ll := func(q [maxOutcomes]float64) float64 {
				v := 0.0
				for i := range d.n {
					v += d.p[i] * math.Log(q[i])
				}
				return v
			}
			best := ll(q)
			// Moves along (e_i - e_j) and (e_k) combinations keeping sum
			// and mean: for outcomes i<j<k, the direction with weights
			// (s_k-s_j, s_i-s_k, s_j-s_i) keeps both.
			for i := 0; i < d.n; i++ {
				for j := i + 1; j < d.n; j++ {
					for k := j + 1; k < d.n; k++ {
						var v [maxOutcomes]float64
						v[i], v[j], v[k] = d.score[k]-d.score[j], d.score[i]-d.score[k], d.score[j]-d.score[i]
						for _, eps := range []float64{1e-4, -1e-4} {
							var moved [maxOutcomes]float64
							okMove := true
							for x := range d.n {
								moved[x] = q[x] + eps*v[x]
								okMove = okMove && moved[x] > 0
							}
							if okMove && ll(moved) > best+1e-12 {
								t.Errorf("%v, mean %v: a move (%d,%d,%d)·%v raises the likelihood from %v to %v", counts, s, i, j, k, eps, best, ll(moved))
							}
						}
					}
				}
			}
		}
	}
}

func TestParse(t *testing.T) {
	good := map[string]Test{
		"elo0=0,elo1=5,alpha=0.05,beta=0.05":               {0, 5, 0.05, 0.05, Normalized},
		"elo0=0 elo1=5 alpha=0.05 beta=0.05":               {0, 5, 0.05, 0.05, Normalized},
		"elo1=50,elo0=-5":                                  {-5, 50, 0.05, 0.05, Normalized},
		"elo0=0,elo1=2,alpha=0.01,beta=0.1,model=logistic": {0, 2, 0.01, 0.1, Logistic},
		"ELO0=0,Elo1=3,model=Normalised":                   {0, 3, 0.05, 0.05, Normalized},
	}
	for s, want := range good {
		got, err := Parse(s)
		if err != nil || got != want {
			t.Errorf("Parse(%q) = %+v, %v; want %+v", s, got, err, want)
		}
		if again, err := Parse(got.String()); err != nil || again != got {
			t.Errorf("Parse(%q.String() = %q) = %+v, %v", s, got.String(), again, err)
		}
	}
	bad := map[string]string{
		"":                                 "no elo0",
		"elo0=0":                           "no elo1",
		"elo0=0,elo1=x":                    `"elo1=x": "x" is not a number`,
		"elo0=0,elo1=5,gamma=1":            `"gamma=1": unknown key`,
		"elo0=0,elo1":                      `"elo1": not KEY=VALUE`,
		"elo0=0,elo1=5,elo1=6":             `"elo1=6": elo1 given twice`,
		"elo0=5,elo1=0":                    "elo0 must be below elo1",
		"elo0=0,elo1=5,alpha=0":            "alpha=0",
		"elo0=0,elo1=5,beta=1.5":           "beta=1.5",
		"elo0=0,elo1=5,alpha=0.6,beta=0.5": "their sum",
		"elo0=0,elo1=5000":                 "elo1=5000: outside",
		"elo0=0,elo1=NaN":                  `"elo1=NaN": "NaN" is not a number`,
		"elo0=0,elo1=5,model=bayes":        `"model=bayes": model is normalized or logistic`,
	}
	for s, want := range bad {
		_, err := Parse(s)
		if err == nil || !strings.Contains(err.Error(), want) || !errors.Is(err, ErrSyntax) {
			t.Errorf("Parse(%q): error %v, want one containing %q", s, err, want)
		}
	}
}

func TestEstimateEdges(t *testing.T) {
	e := Pentanomial{}.Estimate()
	if !math.IsNaN(e.Elo) || !math.IsNaN(e.NormalizedElo) {
		t.Errorf("no pairs: %+v, want NaN", e)
	}
	e = Pentanomial{2: 10}.Estimate()
	if e.Elo != 0 || e.Margin != 0 || e.NormalizedElo != 0 || e.NormalizedMargin != 0 {
		t.Errorf("all draws: %+v, want 0 ± 0", e)
	}
	e = Pentanomial{4: 10}.Estimate()
	if !math.IsInf(e.Elo, 1) || !math.IsInf(e.NormalizedElo, 1) || e.Margin != 0 {
		t.Errorf("all won: %+v, want +Inf ± 0", e)
	}
	e = Trinomial{0: 3}.Estimate()
	if !math.IsInf(e.Elo, -1) || !math.IsInf(e.NormalizedElo, -1) {
		t.Errorf("all lost: %+v, want -Inf", e)
	}
}

func TestLLREdges(t *testing.T) {
	test := Test{0, 5, 0.05, 0.05, Normalized}
	if got := test.LLR(Pentanomial{}); got != 0 {
		t.Errorf("no pairs: LLR %v, want 0", got)
	}
	if got := test.LLR(Pentanomial{-3, 0, 0, 0, 0}); got != 0 {
		t.Errorf("negative counts only: LLR %v, want 0", got)
	}
	if got := (Test{}).LLR(Pentanomial{1, 2, 3, 4, 5}); !math.IsNaN(got) {
		t.Errorf("invalid test: LLR %v, want NaN", got)
	}
	// All draws: the data say Elo 0, so H0 is the likelier.
	if got := test.LLR(Pentanomial{2: 1000}); !(got < 0) || math.IsInf(got, 0) {
		t.Errorf("1000 drawn pairs: LLR %v, want finite and below 0", got)
	}
}

// The LLR of a pair allocates nothing: a match computes one after every
// pair.
func TestLLRAllocs(t *testing.T) {
	test := Test{0, 5, 0.05, 0.05, Normalized}
	p := Pentanomial{10, 20, 30, 25, 15}
	if n := testing.AllocsPerRun(100, func() { _ = test.LLR(p) }); n != 0 {
		t.Errorf("LLR: %v allocations", n)
	}
	test.Model = Logistic
	if n := testing.AllocsPerRun(100, func() { _ = test.LLR(p) }); n != 0 {
		t.Errorf("logistic LLR: %v allocations", n)
	}
}

// BenchmarkLLR times the LLR of fastchess's published pentanomial cases
// (TestLLRPublished), checking the value.
func BenchmarkLLR(b *testing.B) {
	for _, c := range []struct {
		test Test
		p    Pentanomial
		want float64
	}{
		{Test{0, 2, 0.05, 0.05, Normalized}, Pentanomial{365, 16618, 36229, 16974, 390}, 2.25},
		{Test{0, 2, 0.05, 0.05, Logistic}, Pentanomial{871, 26175, 55983, 26678, 821}, -4.98},
	} {
		b.Run(c.test.Model.String(), func(b *testing.B) {
			b.ReportAllocs()
			var llr float64
			for b.Loop() {
				llr = c.test.LLR(c.p)
			}
			if !near(llr, c.want, 0.01) {
				b.Fatalf("LLR %v, want %v", llr, c.want)
			}
		})
	}
}

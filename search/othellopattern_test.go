package search

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"pgregory.net/rapid"

	"github.com/botarena/botarena/ntuple"
	"github.com/botarena/botarena/othello"
)

// randomOthello returns the position after plies random moves from the
// standard start (fewer if the game ends).
func randomOthello(rng *rand.Rand, plies int) othello.Position {
	p := othello.Standard.Start
	var buf []othello.Move
	for range plies {
		buf = p.AppendLegalMoves(buf[:0])
		if len(buf) == 0 {
			break
		}
		p = p.PlayUnchecked(buf[rng.IntN(len(buf))])
	}
	return p
}

func TestOthelloWeightsEmbedded(t *testing.T) {
	t.Parallel()
	n, err := othelloNet()
	if err != nil {
		t.Fatalf("the embedded weights do not read: %v", err)
	}
	c, want := n.Config(), OthelloPatternConfig()
	if c.Cells != want.Cells || c.States != want.States || c.Stages != want.Stages || len(c.Tuples) != len(want.Tuples) || len(c.Symmetries) != 8 {
		t.Fatalf("the embedded network's shape is not OthelloPatternConfig's")
	}
	nonzero := 0
	for _, w := range n.Weights() {
		if w != 0 {
			nonzero++
		}
	}
	if nonzero < n.NumWeights()/10 {
		t.Errorf("only %d of %d embedded weights are not 0: untrained?", nonzero, n.NumWeights())
	}
}

func TestOthelloPatternEval(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	for i := range 300 {
		p := randomOthello(rng, rng.IntN(58))
		if p.IsOver() {
			continue
		}
		v := OthelloPatternEval(p, int(p.Turn()))
		if !(v > -1 && v < 1) {
			t.Fatalf("position %d: value %v, out of (-1, 1)", i, v)
		}
		if w := OthelloPatternEval(p, int(p.Turn().Opponent())); w != -v {
			t.Fatalf("position %d: %v for the side to move, %v for the other", i, v, w)
		}
		// The 8 symmetries of the board give one value.
		for s := range othello.Symmetries() {
			q := s.Position(p)
			if w := OthelloPatternEval(q, int(q.Turn())); w-v > 1e-5 || v-w > 1e-5 {
				t.Fatalf("position %d: %v, under %v %v", i, v, s, w)
			}
		}
	}
	if a := testing.AllocsPerRun(100, func() { OthelloPatternEval(othello.Standard.Start, 0) }); a != 0 {
		t.Errorf("OthelloPatternEval allocates %v times", a)
	}
	small := othello.Board6x6.Start
	if OthelloPatternEval(small, 0) != OthelloEval(small, 0) {
		t.Error("on the 6x6 board, OthelloPatternEval is not OthelloEval")
	}
}

func TestOthelloPatternScore(t *testing.T) {
	n, err := othelloNet()
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(2, 2))
	for i := range 300 {
		p := randomOthello(rng, rng.IntN(58))
		P, O := uint64(p.Discs(p.Turn())), uint64(p.Discs(p.Turn().Opponent()))
		v := OthelloPatternScore(P, O)
		if want := int(math.Round(64 * othelloValue(n, p))); v != want {
			t.Fatalf("position %d (%v): OthelloPatternScore = %d, want 64 times the network's value, %d", i, p, v, want)
		}
		if v < -64 || v > 64 {
			t.Fatalf("position %d: OthelloPatternScore = %d, out of -64..64", i, v)
		}
	}
	P, O := uint64(othello.Standard.Start.Discs(othello.Black)), uint64(othello.Standard.Start.Discs(othello.White))
	if a := testing.AllocsPerRun(100, func() { OthelloPatternScore(P, O) }); a != 0 {
		t.Errorf("OthelloPatternScore allocates %v times", a)
	}
}

// TestOthelloPatternEvalBeatsOthelloEval: at one ply, the shipped network
// beats the hand-written evaluation by far (it scored over 90 of 100 when
// its weights were made).
func TestOthelloPatternEvalBeatsOthelloEval(t *testing.T) {
	t.Parallel()
	if pts := score1Ply(OthelloPatternEval, OthelloEval, 40, 1, 4); pts < 30 {
		t.Errorf("OthelloPatternEval scored %v of 40 against OthelloEval at one ply", pts)
	}
}

func TestOthelloStage(t *testing.T) {
	t.Parallel()
	if got := OthelloStage(othello.Standard.Start); got != 0 {
		t.Errorf("stage of the start: %d", got)
	}
	full, _ := othello.NewPosition(othello.Setup{Black: 1<<64 - 1})
	if got := OthelloStage(full); got != OthelloStages-1 {
		t.Errorf("stage of a full board: %d", got)
	}
}

// TestOthelloFastSum: the bitboard sum gives ntuple's sum to the bit, on
// any two bitboards (a square in both reads as empty) and any stage, for
// the embedded network and for networks of the same shape with random
// weights, their symmetries in another order or fewer; a network of
// another shape gets none.
func TestOthelloFastSum(t *testing.T) {
	embedded, err := othelloNet()
	if err != nil {
		t.Fatal(err)
	}
	nets := []*ntuple.Network{embedded}
	rng := rand.New(rand.NewPCG(3, 3))
	for _, change := range []func(*ntuple.Config){
		func(*ntuple.Config) {},
		func(c *ntuple.Config) { slices.Reverse(c.Symmetries) },
		func(c *ntuple.Config) { c.Symmetries = c.Symmetries[3:5] },
		func(c *ntuple.Config) { c.Stages = 1 },
	} {
		c := OthelloPatternConfig()
		change(&c)
		n, err := ntuple.New(c)
		if err != nil {
			t.Fatal(err)
		}
		for i, w := range n.Weights() {
			n.Weights()[i] = w + float32(rng.NormFloat64())
		}
		nets = append(nets, n)
	}
	for i, n := range nets {
		f := newOthelloFast(n)
		if f == nil {
			t.Fatalf("network %d: no bitboard sum", i)
		}
		rapid.Check(t, func(t *rapid.T) {
			a, b := rapid.Uint64().Draw(t, "a"), rapid.Uint64().Draw(t, "b")
			if rapid.Bool().Draw(t, "sparse") {
				a &= rapid.Uint64().Draw(t, "a mask")
				b &= rapid.Uint64().Draw(t, "b mask")
			}
			P, O := a&^b, b&^a
			if rapid.IntRange(0, 9).Draw(t, "overlap") == 0 {
				P, O = a, b // squares in both read as empty
			}
			stage := rapid.IntRange(-1, OthelloStages).Draw(t, "stage")
			var cells [64]uint8
			for i := range cells {
				cells[i] = uint8(P>>i&1 | O>>i&1<<1)
			}
			if got, want := f.sum(stage, P, O), n.Sum(stage, cells[:]); got != want {
				t.Fatalf("network %d, stage %d, %#x %#x: the bitboard sum is %v, ntuple's %v", i, stage, P, O, got, want)
			}
		})
	}
	if a := testing.AllocsPerRun(100, func() { embeddedFast(t).sum(2, 0x0000001818000000, 0x0000240000240000) }); a != 0 {
		t.Errorf("the bitboard sum allocates %v times", a)
	}
	for name, change := range map[string]func(*ntuple.Config){
		"a square moved":      func(c *ntuple.Config) { c.Tuples[3][0] = int(othello.A8) },
		"two squares swapped": func(c *ntuple.Config) { c.Tuples[6][0], c.Tuples[6][1] = c.Tuples[6][1], c.Tuples[6][0] },
		"a tuple fewer":       func(c *ntuple.Config) { c.Tuples = c.Tuples[1:] },
		"not a board symmetry": func(c *ntuple.Config) {
			c.Symmetries[1][0], c.Symmetries[1][1] = c.Symmetries[1][1], c.Symmetries[1][0]
		},
		"four states": func(c *ntuple.Config) { c.States = 4 },
	} {
		c := OthelloPatternConfig()
		change(&c)
		n, err := ntuple.New(c)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if newOthelloFast(n) != nil {
			t.Errorf("%s: a bitboard sum for a network of another shape", name)
		}
	}
}

// embeddedFast returns the embedded network's bitboard sum.
func embeddedFast(t testing.TB) *othelloFast {
	f := othelloFastNet()
	if f == nil {
		t.Fatal("no bitboard sum for the embedded network")
	}
	return f
}

// BenchmarkOthelloPatternScore measures the learned evaluation on
// positions of random games (evals/s): the endgame solver's ordering and
// the midgame search spend most of their time in it.
func BenchmarkOthelloPatternScore(b *testing.B) {
	rng := rand.New(rand.NewPCG(4, 4))
	var ps [1024][2]uint64
	for i := range ps {
		p := randomOthello(rng, 10+rng.IntN(50))
		ps[i] = [2]uint64{uint64(p.Discs(p.Turn())), uint64(p.Discs(p.Turn().Opponent()))}
	}
	b.ReportAllocs()
	i, s := 0, 0
	for b.Loop() {
		p := &ps[i&1023]
		s += OthelloPatternScore(p[0], p[1])
		i++
	}
	b.ReportMetric(float64(i)/b.Elapsed().Seconds(), "evals/s")
	_ = s
}

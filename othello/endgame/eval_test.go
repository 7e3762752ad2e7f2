package endgame

import (
	"context"
	"math/bits"
	"slices"
	"testing"

	"github.com/botarena/botarena/othello"
)

// evalProblems are FFO endgame problems #23 and #26 (18 and 20 empty
// squares): enough empty squares for the evaluation to order moves (by
// shallow searches of depth 2 from 20), few enough for the quick tier.
var evalProblems = []struct {
	name  string
	line  string
	score int
	best  []othello.Square
}{
	{"FFO #23", "--O-------OOX---OOOXXXO-OOOOXOXXXXXOOXOXXXXXXOOXX-XXXXOX--XXXX-- X", 4, []othello.Square{othello.A2}},
	{"FFO #26", "-OOOOO----OXXO---OOOOXXO-OOOXOXX-OOXOOXX-XOXXOXX--O-XXXX--O----O X", 0, []othello.Square{othello.D8}},
}

// TestSolveWithEval checks that an evaluation orders moves only: with a
// fair one, one that says nothing and one far out of range and random,
// Solve (and WLD, on the smaller problem) find the exact scores and the
// best moves, and the evaluation is called.
func TestSolveWithEval(t *testing.T) {
	evals := []struct {
		name string
		eval func(P, O uint64) int
	}{
		{"disc difference", func(P, O uint64) int { return bits.OnesCount64(P) - bits.OnesCount64(O) }},
		{"zero", func(P, O uint64) int { return 0 }},
		{"random out of range", func(P, O uint64) int { return int(hash(P, O)%20001) - 10000 }},
	}
	for i, c := range evalProblems {
		p, err := parseOBF(c.line)
		if err != nil {
			t.Fatal(err)
		}
		for j, e := range evals {
			if i > 0 && j > 0 {
				break // the larger problem with the fair evaluation only
			}
			calls := 0
			s := New(Options{TableSize: 1 << 16, Eval: func(P, O uint64) int {
				calls++
				return e.eval(P, O)
			}})
			r, err := s.Solve(context.Background(), p.Pos)
			if err != nil || !r.Exact || r.Score != c.score || !slices.Contains(c.best, r.Best.Square()) {
				t.Errorf("%s with the evaluation %q: Solve = %+v, %v; want the exact score %d by one of %v", c.name, e.name, r, err, c.score, c.best)
			}
			if calls == 0 {
				t.Errorf("%s: Solve never called the evaluation %q", c.name, e.name)
			}
			if i > 0 {
				continue
			}
			s.Clear()
			w, err := s.WLD(context.Background(), p.Pos)
			if err != nil || w.Score != sign(c.score) {
				t.Errorf("%s with the evaluation %q: WLD = %+v, %v; want %d", c.name, e.name, w, err, sign(c.score))
			}
		}
	}
}

func TestSolveWithEvalAllocatesNothing(t *testing.T) {
	p, err := parseOBF(evalProblems[0].line)
	if err != nil {
		t.Fatal(err)
	}
	s := New(Options{TableSize: 1 << 16, Eval: func(P, O uint64) int { return bits.OnesCount64(P) - bits.OnesCount64(O) }})
	ctx := context.Background()
	if n := testing.AllocsPerRun(2, func() {
		s.Clear()
		if r, err := s.Solve(ctx, p.Pos); err != nil || r.Score != evalProblems[0].score {
			t.Fatalf("Solve = %+v, %v", r, err)
		}
	}); n != 0 {
		t.Errorf("Solve with an evaluation allocates %v times a run, want 0", n)
	}
}

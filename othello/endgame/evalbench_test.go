package endgame_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/botarena/botarena/internal/longtest"
	"github.com/botarena/botarena/internal/sharedtest"
	"github.com/botarena/botarena/othello"
	"github.com/botarena/botarena/othello/endgame"
	"github.com/botarena/botarena/search"
)

// readFFO reads the shared FFO file name, or skips.
func readFFO(tb testing.TB, name string) []endgame.Problem {
	tb.Helper()
	f, err := os.Open(filepath.Join(sharedtest.Dir(tb, "othello", "ffo"), name))
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	ps, err := endgame.ReadOBF(f)
	if err != nil {
		tb.Fatalf("%s: %v", name, err)
	}
	return ps
}

// benchFFO solves the FFO problems of the file name from the first'th (0
// the file's first) to the last, each from an empty table, with the
// options o, one sub-benchmark each, and checks each score. With an
// evaluation it also reports the evaluation's calls (evals/op).
func benchFFO(b *testing.B, name string, number, first, last int, o endgame.Options) {
	ps := readFFO(b, name)
	var evals uint64
	if eval := o.Eval; eval != nil {
		o.Eval = func(p, q uint64) int {
			evals++
			return eval(p, q)
		}
	}
	s := endgame.New(o)
	ctx := context.Background()
	for i := first; i <= last && i < len(ps); i++ {
		p := ps[i]
		b.Run(fmt.Sprintf("%d", number+i), func(b *testing.B) {
			var nodes uint64
			var spent time.Duration
			evals = 0
			for b.Loop() {
				s.Clear()
				start := time.Now()
				r, err := s.Solve(ctx, p.Pos)
				spent += time.Since(start)
				if err != nil || r.Score != p.Moves[0].Value {
					b.Fatalf("FFO #%d: Solve = %+v, %v; want %d", number+i, r, err, p.Moves[0].Value)
				}
				nodes += r.Nodes
			}
			b.ReportAllocs()
			b.ReportMetric(float64(nodes)/float64(b.N), "nodes/op")
			if o.Eval != nil {
				b.ReportMetric(float64(evals)/float64(b.N), "evals/op")
			}
			b.ReportMetric(float64(nodes)/spent.Seconds(), "nodes/s")
			b.ReportMetric(spent.Seconds()/float64(b.N), "sec/position")
		})
	}
}

// BenchmarkFFOEval is BenchmarkFFO (FFO #40-#44) with the learned
// evaluation of package search ordering the moves at many empty squares.
func BenchmarkFFOEval(b *testing.B) {
	benchFFO(b, "fforum-40-59.obf", 40, 0, 4, endgame.Options{Eval: search.OthelloPatternScore})
}

// BenchmarkFFO49To59Eval is BenchmarkFFO49To59 with the learned
// evaluation of package search ordering the moves at many empty squares.
func BenchmarkFFO49To59Eval(b *testing.B) {
	benchFFO(b, "fforum-40-59.obf", 40, 9, 19, endgame.Options{Eval: search.OthelloPatternScore})
}

// TestFFO40To52Eval solves FFO #40-#52 (20 to 28 empty squares) with
// the learned evaluation of package search ordering the moves: the exact
// score of each, and a best move among the listed best. FFO #53-#59 (up to
// 34 empty squares) take minutes each: BenchmarkFFO49To59Eval solves them
// and checks their scores.
func TestFFO40To52Eval(t *testing.T) {
	longtest.Skip(t, "solves FFO #40-#52, 20 to 28 empty squares, in a few minutes")
	ps := readFFO(t, "fforum-40-59.obf")[:13]
	s := endgame.New(endgame.Options{Eval: search.OthelloPatternScore})
	for i, p := range ps {
		r, err := s.Solve(context.Background(), p.Pos)
		if err != nil {
			t.Fatal(err)
		}
		best := p.Moves[0].Value
		if r.Score != best || !r.Exact {
			t.Errorf("FFO #%d: Solve = %+v, want the exact score %d", 40+i, r, best)
		}
		var bests []othello.Move
		for _, m := range p.Moves {
			if m.Value == best {
				bests = append(bests, m.Move)
			}
		}
		if !slices.Contains(bests, r.Best) {
			t.Errorf("FFO #%d: best move %s, not one of the listed best %v", 40+i, r.Best, bests)
		}
	}
}

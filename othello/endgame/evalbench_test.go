package endgame_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/botarena/botarena/internal/sharedtest"
	"github.com/botarena/botarena/othello/endgame"
	"github.com/botarena/botarena/search"
)

// benchFFO solves the FFO problems of the file name from the first'th (0
// the file's first) to the last, each from an empty table, with the
// options o, one sub-benchmark each, and checks each score.
func benchFFO(b *testing.B, name string, number, first, last int, o endgame.Options) {
	f, err := os.Open(filepath.Join(sharedtest.Dir(b, "othello", "ffo"), name))
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	ps, err := endgame.ReadOBF(f)
	if err != nil {
		b.Fatalf("%s: %v", name, err)
	}
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

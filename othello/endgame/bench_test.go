package endgame

import (
	"context"
	"fmt"
	"testing"
	"time"
)

// BenchmarkFFO solves the FFO endgame problems #40-#44 (20 to 22 empty
// squares) one by one, each from an empty table, and checks each score.
// It reports the nodes and nodes/s of a solve and its seconds
// (sec/position). BenchmarkFFO/WLD41 decides FFO #41 (a draw) with the
// win/draw/loss search.
func BenchmarkFFO(b *testing.B) {
	ps := ffoProblemsB(b, "fforum-40-59.obf")[:5]
	benchFFO(b, ps, 40, Options{})
	s := New(Options{})
	ctx := context.Background()
	b.Run("WLD41", func(b *testing.B) {
		var nodes uint64
		var spent time.Duration
		for b.Loop() {
			s.Clear()
			start := time.Now()
			r, err := s.WLD(ctx, ps[1].Pos)
			spent += time.Since(start)
			if err != nil || r.Score != sign(ps[1].Moves[0].Value) {
				b.Fatalf("FFO #41: WLD = %+v, %v; want %d", r, err, sign(ps[1].Moves[0].Value))
			}
			nodes += r.Nodes
		}
		reportSolve(b, nodes, spent, 1)
	})
}

// benchFFO solves the problems ps, numbered from number, one by one, each
// from an empty table, with a solver made with o, one sub-benchmark each,
// and checks each score. With an evaluation it also reports the
// evaluation's calls (evals/op).
func benchFFO(b *testing.B, ps []problem, number int, o Options) {
	var evals uint64
	if eval := o.Eval; eval != nil {
		o.Eval = func(p, q uint64) int {
			evals++
			return eval(p, q)
		}
	}
	s := New(o)
	ctx := context.Background()
	for i, p := range ps {
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
			reportSolve(b, nodes, spent, 1)
			if o.Eval != nil {
				b.ReportMetric(float64(evals)/float64(b.N), "evals/op")
			}
		})
	}
}

// BenchmarkFFO1To19 solves the FFO problems #1-#19 (14 to 16 empty
// squares), each from an empty table: a run solves all nineteen.
func BenchmarkFFO1To19(b *testing.B) {
	ps := ffoProblemsB(b, "fforum-1-19.obf")
	s := New(Options{})
	ctx := context.Background()
	var nodes uint64
	var spent time.Duration
	for b.Loop() {
		for i, p := range ps {
			s.Clear()
			start := time.Now()
			r, err := s.Solve(ctx, p.Pos)
			spent += time.Since(start)
			if err != nil || r.Score != p.Moves[0].Value {
				b.Fatalf("FFO #%d: Solve = %+v, %v; want %d", 1+i, r, err, p.Moves[0].Value)
			}
			nodes += r.Nodes
		}
	}
	reportSolve(b, nodes, spent, len(ps))
}

// reportSolve reports the nodes of a run, the nodes/s and the seconds of
// a position, from the nodes and the time spent solving (the table's
// clearing left out) in runs of positions problems each.
func reportSolve(b *testing.B, nodes uint64, spent time.Duration, positions int) {
	b.ReportAllocs()
	b.ReportMetric(float64(nodes)/float64(b.N), "nodes/op")
	b.ReportMetric(float64(nodes)/spent.Seconds(), "nodes/s")
	b.ReportMetric(spent.Seconds()/float64(b.N*positions), "sec/position")
}

// BenchmarkFFO49To59 solves the FFO problems #49-#59 (26 to 34 empty
// squares) one by one, each from an empty table, without an evaluation,
// and checks each score: minutes each (BenchmarkFFO49To59Eval is the same
// with the learned evaluation). Select one with
// -bench FFO49To59/52.
func BenchmarkFFO49To59(b *testing.B) {
	benchFFO(b, ffoProblemsB(b, "fforum-40-59.obf")[9:], 49, Options{})
}

package endgame_test

import (
	"fmt"
	"testing"

	"github.com/botarena/botarena/internal/longtest"
	"github.com/botarena/botarena/othello/endgame"
	"github.com/botarena/botarena/search"
)

// BenchmarkFFOEval is BenchmarkFFO (FFO #40-#44) with the learned
// evaluation of package search ordering the moves at many empty squares.
func BenchmarkFFOEval(b *testing.B) {
	endgame.BenchFFO(b, endgame.FFOProblems(b, "fforum-40-59.obf")[:5], 40, endgame.Options{Eval: search.OthelloPatternScore})
}

// BenchmarkFFO49To59Eval is BenchmarkFFO49To59 with the learned
// evaluation of package search ordering the moves at many empty squares.
func BenchmarkFFO49To59Eval(b *testing.B) {
	endgame.BenchFFO(b, endgame.FFOProblems(b, "fforum-40-59.obf")[9:], 49, endgame.Options{Eval: search.OthelloPatternScore})
}

// TestFFO40To52Eval solves FFO #40-#52 (20 to 28 empty squares) with
// the learned evaluation of package search ordering the moves: the exact
// score of each and a best move among the listed best, and the score of
// every listed move of #40-#48. FFO #53-#59 (up to 34 empty squares) take
// minutes each: BenchmarkFFO49To59Eval solves them and
// BenchmarkFFO40To59EvalListed checks their listed moves.
func TestFFO40To52Eval(t *testing.T) {
	longtest.Skip(t, "solves FFO #40-#52, 20 to 28 empty squares, and the listed moves of #40-#48, in a few minutes")
	ps := endgame.FFOProblems(t, "fforum-40-59.obf")[:13]
	o := endgame.Options{Eval: search.OthelloPatternScore}
	endgame.CheckFFO(t, ps[:9], 40, true, o)
	endgame.CheckFFO(t, ps[9:], 49, false, o)
}

// BenchmarkFFO40To59EvalListed checks the score of every listed move of
// FFO #40-#59 (20 to 34 empty squares) with the learned evaluation, one
// sub-benchmark a move, each from an empty table: under a second to many
// minutes each, hours in all (#40-#48 take minutes together). Select a
// problem with -bench 'EvalListed/55/', a move with
// -bench 'EvalListed/55/b7'.
func BenchmarkFFO40To59EvalListed(b *testing.B) {
	ps := endgame.FFOProblems(b, "fforum-40-59.obf")
	s := endgame.New(endgame.Options{Eval: search.OthelloPatternScore})
	for i, p := range ps {
		for _, m := range p.Moves {
			b.Run(fmt.Sprintf("%d/%s", 40+i, m.Move), func(b *testing.B) {
				for b.Loop() {
					s.Clear()
					if err := endgame.CheckListed(s, p, 40+i, m); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

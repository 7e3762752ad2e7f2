package endgame_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

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
//
// A check of FFO #59 takes hours. With BOTARENA_FFO_CHECKPOINTS naming a
// directory, each check saves its table there every checkpointEvery (a
// file of 126 MB, ffo-59-b5.table for 59/b5) and starts from the one
// there, so that a check stopped, even by a kill, goes on where it was
// when run again; the file goes when the check ends.
func BenchmarkFFO40To59EvalListed(b *testing.B) {
	ps := endgame.FFOProblems(b, "fforum-40-59.obf")
	o := endgame.Options{Eval: search.OthelloPatternScore}
	dir := os.Getenv("BOTARENA_FFO_CHECKPOINTS")
	if dir != "" {
		// The size the default table grows to, from the start: a saved
		// table fills a table of its own size only.
		o.TableSize = endgame.BigTableSize
	}
	s := endgame.New(o)
	for i, p := range ps {
		for _, m := range p.Moves {
			b.Run(fmt.Sprintf("%d/%s", 40+i, m.Move), func(b *testing.B) {
				for b.Loop() {
					var err error
					if dir != "" {
						name := filepath.Join(dir, fmt.Sprintf("ffo-%d-%s.table", 40+i, m.Move))
						err = endgame.CheckListedResumable(s, p, 40+i, m, name, checkpointEvery, b.Logf)
					} else {
						s.Clear()
						err = endgame.CheckListed(s, p, 40+i, m)
					}
					if err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// checkpointEvery is how often BenchmarkFFO40To59EvalListed saves a
// check's table when BOTARENA_FFO_CHECKPOINTS is set.
const checkpointEvery = 10 * time.Minute

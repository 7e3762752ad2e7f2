package othello

import (
	"testing"

	"pgregory.net/rapid"
)

// fataler is what kernelAgrees needs of a *testing.T or *rapid.T.
type fataler interface {
	Helper()
	Fatalf(format string, args ...any)
}

// asmKernel is an assembly kernel under test, by its functions themselves
// (not through leavesBy and perft3By). A nil leaves means it has none.
type asmKernel struct {
	name   string
	runs   bool // whether this processor runs it
	leaves func(P, O, moves, area uint64, bik bool) uint64
	perft3 func(P, O, moves, area uint64, bik bool) uint64
}

// kernelAgrees fails t unless kernel k gives the pure-Go counts of leaves
// and perft3 for (P, O, moves) on area, in both conventions.
func kernelAgrees(t fataler, k asmKernel, P, O, moves, area uint64) {
	t.Helper()
	for _, bik := range []bool{false, true} {
		if k.leaves != nil {
			got := k.leaves(P, O, moves, area, bik)
			if want := leaves(P, O, moves, area, innerCols, bik); got != want {
				t.Fatalf("%s leaves(%#x, %#x, moves %#x, area %#x, bik %v) = %d, want %d",
					k.name, P, O, moves, area, bik, got, want)
			}
		}
		got := k.perft3(P, O, moves, area, bik)
		if want := perft3(P, O, moves, area, bik); got != want {
			t.Fatalf("%s perft3(%#x, %#x, moves %#x, area %#x, bik %v) = %d, want %d",
				k.name, P, O, moves, area, bik, got, want)
		}
	}
}

// TestKernels compares each assembly kernel the processor runs with the
// pure-Go leaves and perft3 (the last two and three plies of perft): on
// every position of random games from the three starts (so with passes, and children that pass or end the game), with all
// the legal moves and with a random part of them (every number of vector
// lanes in use), and on scattered boards of every density.
func TestKernels(t *testing.T) {
	for _, k := range asmKernels() {
		t.Run(k.name, func(t *testing.T) {
			if !k.runs {
				t.Skip("this processor does not run it")
			}
			rapid.Check(t, func(rt *rapid.T) {
				rules := rapid.SampledFrom([]Rules{Standard, TUS, Board6x6}).Draw(rt, "rules")
				p := rules.Start
				var buf [64]Move
				for {
					P, O := p.players()
					area := p.area()
					moves := legalMoves(P, O) & area
					kernelAgrees(rt, k, P, O, moves, area)
					kernelAgrees(rt, k, P, O, moves&rapid.Uint64().Draw(rt, "part"), area)
					ms := p.AppendLegalMoves(buf[:0])
					if len(ms) == 0 {
						break
					}
					p = p.PlayUnchecked(ms[rapid.IntRange(0, len(ms)-1).Draw(rt, "move")])
				}
			})
			for _, area := range []uint64{mask8x8, mask6x6} {
				for _, b := range randomBoards(5000, area) {
					kernelAgrees(t, k, b[0], b[1], legalMoves(b[0], b[1])&area, area)
				}
			}
		})
	}
}

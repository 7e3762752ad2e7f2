package search

import (
	"context"
	"math"
	"testing"

	"pgregory.net/rapid"

	"github.com/botarena/botarena/darkchess"
	"github.com/botarena/botarena/pdd"
	"github.com/botarena/botarena/pdd/pddtest"
)

// TestDarkChessBestEval: DarkChessBestPlayer's evaluation is the material
// balance's, stretched by tanh and shrunk in proportion to the
// no-progress plies left, and 0 at the limit.
func TestDarkChessBestEval(t *testing.T) {
	const limit = 60
	eval := darkChessBestEval(limit)
	for _, quiet := range []int{0, 15, 30, 59, 60} {
		// Red a guard up.
		var st darkchess.Setup
		st.Board[darkchess.B2], st.Board[darkchess.C3], st.Board[darkchess.D8] = darkchess.RedGuard, darkchess.RedPawn, darkchess.BlackPawn
		st.Turn, st.Quiet = darkchess.Red, quiet
		q, err := darkchess.NewPosition(st)
		if err != nil {
			t.Fatal(err)
		}
		state := NewDarkChessState(q)
		for player := range 2 {
			material := math.Tanh(4 * DarkChessEval(state, player))
			want := material * float64(limit-quiet) / limit
			if got := eval(state, player); math.Abs(got-want) > 1e-12 || material == 0 {
				t.Errorf("quiet %d, player %d: %v, want %v (material %v)", quiet, player, got, want, material)
			}
		}
	}
}

// TestPDDSelectiveScores: the selective PDD's score of each move, the
// opponent's side worked out from the room its groups lose, is PDDValue's
// difference one ply ahead; the moves it keeps are the best by it, best
// first.
func TestPDDSelectiveScores(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := pddtest.Position().Draw(t, "p")
		if p.IsOver() {
			t.Skip("the game is over")
		}
		g := newPDDSelective(context.Background(), rapid.IntRange(1, 12).Draw(t, "beam"))
		kept := g.AppendMoves(p, nil)
		me := p.Turn()
		want := map[pdd.Move]float64{}
		for _, m := range p.AppendLegalMoves(nil) {
			q := p.PlayUnchecked(m)
			want[m] = PDDValue(q, me) - PDDValue(q, me.Opponent())
		}
		for _, s := range g.scratch.scored {
			if s.v != want[s.m] {
				t.Fatalf("%v: move %v scores %v, want %v", p, s.m, s.v, want[s.m])
			}
		}
		if len(g.scratch.scored) != len(want) || len(kept) != min(g.beam, len(want)) {
			t.Fatalf("%d scored, %d kept of %d moves, beam %d", len(g.scratch.scored), len(kept), len(want), g.beam)
		}
		for i, m := range kept {
			if i > 0 && want[m] > want[kept[i-1]] {
				t.Fatalf("kept %v (%v) after %v (%v)", m, want[m], kept[i-1], want[kept[i-1]])
			}
		}
		if last := kept[len(kept)-1]; countAbove(want, want[last]) >= len(kept) {
			t.Fatalf("kept %v (%v) though %d moves score more", last, want[last], countAbove(want, want[last]))
		}
	})
}

func countAbove(values map[pdd.Move]float64, v float64) int {
	n := 0
	for _, w := range values {
		if w > v {
			n++
		}
	}
	return n
}

package search

import (
	"context"
	"math"
	"strings"
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
	t.Parallel()
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

// TestPDDSelectiveScores: the selective PDD's score of each move is the
// difference of the two sides' pddBestValue one ply ahead; the moves it
// keeps are the best by it, best first.
func TestPDDSelectiveScores(t *testing.T) {
	t.Parallel() // on budgets, not the clock: load changes nothing
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
			want[m] = pddBestValue(q, me) - pddBestValue(q, me.Opponent())
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

// TestPDDReach: pddReach joins a side's groups by its bridges and by the
// bridges it could still build, and counts each network's islands, the
// groups that can grow as shares of one.
func TestPDDReach(t *testing.T) {
	t.Parallel()
	// Two white islands, a bridge's length apart on row 0 (and on row 1).
	const islands = "WW.WW...../WW.WW...../........../........../........../........../........../........../........../.........."
	for _, tc := range []struct {
		name, pos string
		white     float64
	}{
		{"a bridge to build", islands + " W course", 3},
		{"a bridge built", islands + " W course bridges=1,0-3,0", 3},
		{
			// Black tiles under every bridge between them: two networks.
			"blocked",
			"WWBWW...../WWBWW...../........../........../........../........../........../........../........../.......... W course",
			2,
		},
		{
			// A lone tile with room, out of any bridge's reach: its
			// own network of a share of an island.
			"a lone tile",
			islands[:len(islands)-1] + "W W course",
			3 + pddReach1*(pddReach1+1)/2,
		},
		{
			// A group of 2 a knight's bridge from the right island:
			// one network of 2 islands and a share.
			"a growing pair",
			"WW.WW...../WW.WW...../......W.../......W.../........../........../........../........../........../.......... W course",
			(2 + pddReach2) * (3 + pddReach2) / 2,
		},
		{
			// 50 lone tiles, as many groups as a side can have: those
			// on even rows and columns reach each other by straight and
			// diagonal bridges, and so do those on odd ones, but no
			// bridge joins the two: 2 networks of 25 shares.
			"a checkerboard",
			strings.TrimSuffix(strings.Repeat("W.W.W.W.W./.W.W.W.W.W/", 5), "/") + " W course",
			2 * 25 * pddReach1 * (25*pddReach1 + 1) / 2,
		},
	} {
		p, err := pdd.ParsePosition(tc.pos)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if got := pddReach(p, pdd.White); math.Abs(got-tc.white) > 1e-9 {
			t.Errorf("%s: white reaches %v, want %v in %s", tc.name, got, tc.white, p)
		}
		if got := pddReach(p, pdd.Black); got != 0 && !strings.Contains(tc.name, "blocked") {
			t.Errorf("%s: black reaches %v, want 0", tc.name, got)
		}
	}
}

// TestPDDBestAllocs: PDDBestPlayer's evaluation and its selective move
// generation allocate nothing once its buffers have grown.
func TestPDDBestAllocs(t *testing.T) {
	p := pdd.Course.Start()
	g := newPDDSelective(context.Background(), pddBeam)
	dst := make([]pdd.Move, 0, pdd.MaxMoves)
	for range 12 {
		p = p.PlayUnchecked(g.AppendMoves(p, dst[:0])[0])
	}
	g.AppendMoves(p, dst[:0])
	if n := testing.AllocsPerRun(5, func() { g.AppendMoves(p, dst[:0]) }); n != 0 {
		t.Errorf("AppendMoves: %v allocs, want 0", n)
	}
	if n := testing.AllocsPerRun(50, func() { pddBestEval(p, 0) }); n != 0 {
		t.Errorf("pddBestEval: %v allocs, want 0", n)
	}
}

// TestPDDSideBoard: the board part of pddSide, worked out with the reach
// from one pass over the groups, is PDDValue.
func TestPDDSideBoard(t *testing.T) {
	t.Parallel()
	rapid.Check(t, func(t *rapid.T) {
		p := pddtest.Position().Draw(t, "p")
		for _, c := range []pdd.Color{pdd.White, pdd.Black} {
			if board, _ := pddSide(p, c); math.Abs(board-PDDValue(p, c)) > 1e-9 {
				t.Fatalf("%v: %v's board %v, want PDDValue %v", p, c, board, PDDValue(p, c))
			}
		}
	})
}

package search

import (
	"context"
	"testing"

	"github.com/botarena/botarena/darkchess"
	"github.com/botarena/botarena/othello"
)

// TestDepthSearchAllocs: once a first search has grown the buffers, a
// search allocates nothing: alpha-beta in the midgame and in an exact solve,
// expectimax over dark chess.
func TestDepthSearchAllocs(t *testing.T) {
	ctx := context.Background()
	mid := othello.Standard.Start
	for _, m := range []othello.Square{othello.D3, othello.C5, othello.E6, othello.F5, othello.F6} {
		mid = mid.PlayUnchecked(othello.Place(m))
	}
	end, err := othello.ParsePosition("XXXXXXXXXOOOOXX-XOXXOX--XOOXXXXXXOXOXXX-XXOOXOX-XXXOOO--XXXXXO-- O")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		p    othello.Position
		o    DepthOptions
	}{
		{"midgame", mid, DepthOptions{Nodes: 20000, TableSize: 1 << 12}},
		{"solve", end, DepthOptions{Nodes: 1 << 30, TableSize: 1 << 12}},
	} {
		a := NewAlphaBeta(Othello{}, OthelloEval, c.o)
		res, err := a.Search(ctx, c.p)
		if err != nil {
			t.Fatal(err)
		}
		if c.name == "solve" && !res.Exact {
			t.Fatalf("solve: not exact: %+v", res)
		}
		if n := testing.AllocsPerRun(5, func() { a.Reset(); a.Search(ctx, c.p) }); n != 0 {
			t.Errorf("alpha-beta %s: %v allocs a search, want 0", c.name, n)
		}
	}
	var g DarkChess
	s := g.Play(g.Play(NewDarkChessState(darkchess.Opening), darkchess.Ply{Move: darkchess.Flip(darkchess.B2)}), darkchess.Ply{Move: darkchess.Flip(darkchess.B2), Piece: darkchess.BlackPawn})
	x := NewExpectimax(g, DarkChessEval, DepthOptions{Nodes: 20000})
	if _, err := x.Search(ctx, s); err != nil {
		t.Fatal(err)
	}
	if n := testing.AllocsPerRun(5, func() { x.Search(ctx, s) }); n != 0 {
		t.Errorf("expectimax: %v allocs a search, want 0", n)
	}
}

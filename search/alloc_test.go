package search

import (
	"testing"

	"github.com/botarena/botarena/darkchess"
	"github.com/botarena/botarena/geister"
	"github.com/botarena/botarena/othello"
	"github.com/botarena/botarena/pdd"
)

// checkAllocs asserts that, after a warm-up, a playout and a whole
// iteration of a full tree (selection, playout, update) allocate nothing.
func checkAllocs[S any, M comparable, G Game[S, M]](t *testing.T, name string, g G, s S, is bool) {
	t.Helper()
	tr := newTree[S, M](g, Options{MaxNodes: 500}, 1, 0)
	tr.is = is
	for range 600 { // fills the tree and grows the buffers
		tr.iterate(s)
	}
	if len(tr.nodes) != 500 {
		t.Fatalf("%s: %d nodes after warm-up, want the tree full (500)", name, len(tr.nodes))
	}
	if n := testing.AllocsPerRun(50, func() { tr.playout(s) }); n != 0 {
		t.Errorf("%s: playout: %v allocs, want 0", name, n)
	}
	if n := testing.AllocsPerRun(50, func() { tr.iterate(s) }); n != 0 {
		t.Errorf("%s: iteration: %v allocs, want 0", name, n)
	}
}

func TestPlayoutAllocs(t *testing.T) {
	gs, _ := geister.Start(geister.RedsAt(0), geister.RedsAt(69))
	checkAllocs(t, "othello", Othello{}, othello.Standard.Start, false)
	checkAllocs(t, "geister", Geister{}, gs, false)
	checkAllocs(t, "geister IS", Geister{}, gs, true)
	checkAllocs(t, "darkchess", DarkChess{}, NewDarkChessState(darkchess.Opening), false)
	checkAllocs(t, "pdd", PDD{}, pdd.Course.Start(), false)
}

package search

import (
	"math/rand/v2"
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
	checkPolicyAllocs(t, name, g, s, is, nil)
}

// checkPolicyAllocs is checkAllocs with the playout policy policy.
func checkPolicyAllocs[S any, M comparable, G Game[S, M]](t *testing.T, name string, g G, s S, is bool, policy Policy[S, M]) {
	t.Helper()
	tr := newTree[S, M](g, Options{MaxNodes: 500}, 1, 0)
	tr.is, tr.policy = is, policy
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
	checkPolicyAllocs(t, "geister IS, policy", Geister{}, gs, true, geisterPlayout)
	checkAllocs(t, "darkchess", DarkChess{}, NewDarkChessState(darkchess.Opening), false)
	checkAllocs(t, "pdd", PDD{}, pdd.Course.Start(), false)
}

// TestGeisterBeliefAllocs: drawing a determinization from a belief
// allocates nothing.
func TestGeisterBeliefAllocs(t *testing.T) {
	gs, _ := geister.Start(geister.RedsAt(0), geister.RedsAt(69))
	v := gs.View(geister.First)
	var b geisterBelief
	b.reset()
	b.observe(v)
	r := rand.New(rand.NewPCG(1, 1))
	if n := testing.AllocsPerRun(100, func() { b.sample(v, r) }); n != 0 {
		t.Errorf("sample: %v allocs, want 0", n)
	}
}

package pddtest_test

import (
	"testing"

	"github.com/botarena/botarena/pdd"
	"github.com/botarena/botarena/pdd/pddtest"
	"pgregory.net/rapid"
)

// TestGenerators: generated games are legal throughout, positions valid, and
// candidate moves valid moves.
func TestGenerators(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		rules := rapid.SampledFrom([]pdd.Rules{pdd.Course, pdd.Official}).Draw(t, "rules")
		for _, g := range []*pdd.Game{pddtest.Game(rules).Draw(t, "g"), pddtest.CompactGame(rules).Draw(t, "c")} {
			for ply := range g.Ply() {
				p, _ := g.PositionAt(ply)
				if !p.IsLegal(g.Moves()[ply]) {
					t.Fatalf("ply %d: %s illegal in %s", ply, g.Moves()[ply], p)
				}
			}
		}
		p := pddtest.Position().Draw(t, "p")
		if q, err := pdd.NewPosition(p.Setup()); err != nil || q != p {
			t.Fatalf("%s: %v", p, err)
		}
		for _, m := range []pdd.Move{pddtest.Move().Draw(t, "m"), pddtest.Candidate(p).Draw(t, "c")} {
			if !m.Valid() {
				t.Fatalf("invalid move %#x", uint16(m))
			}
		}
		if s := pddtest.Square().Draw(t, "s"); !s.Valid() {
			t.Fatalf("square %d", s)
		}
	})
}

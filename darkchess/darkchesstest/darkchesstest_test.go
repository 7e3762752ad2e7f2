package darkchesstest_test

import (
	"testing"

	"github.com/botarena/botarena/darkchess"
	"github.com/botarena/botarena/darkchess/darkchesstest"
	"pgregory.net/rapid"
)

// TestGenerators: every generator gives what it promises.
func TestGenerators(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		o := darkchesstest.Opening().Draw(t, "opening")
		if !o.Dealt() || o.View(darkchess.Red).Position() != darkchess.Opening {
			t.Fatalf("opening %s", o)
		}
		p := darkchesstest.Position().Draw(t, "p")
		if !p.Dealt() || p.Count(darkchess.Red) > 16 || p.Count(darkchess.Black) > 16 {
			t.Fatalf("position %s", p)
		}
		a := darkchesstest.ArbitraryPosition().Draw(t, "a")
		if q, err := darkchess.ParsePosition(a.String()); err != nil || q != a {
			t.Fatalf("arbitrary position %s: %v", a, err)
		}
		v := darkchesstest.View().Draw(t, "v")
		if v.Position().FaceDown() != 0 && v.Position().Dealt() || !v.Viewer().Valid() || v.Rules != darkchess.NTU2021 {
			t.Fatalf("view %s", v)
		}
		g := darkchesstest.Game(darkchess.Classic).Draw(t, "g")
		if g.Rules() != darkchess.Classic || len(v.History) > 300 || g.Ply() > 300 {
			t.Fatalf("game of %d plies", g.Ply())
		}
	})
}

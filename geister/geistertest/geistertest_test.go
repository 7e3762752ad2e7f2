package geistertest_test

import (
	"testing"

	"github.com/botarena/botarena/geister"
	"github.com/botarena/botarena/geister/geistertest"
	"pgregory.net/rapid"
)

// TestGenerators: every generated value is valid and round-trips through its
// constructor.
func TestGenerators(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		if r := geistertest.Reds().Draw(t, "reds"); !r.Valid() {
			t.Fatalf("invalid red set %s", r)
		}
		for _, p := range []geister.Position{
			geistertest.Start().Draw(t, "start"),
			geistertest.Position().Draw(t, "position"),
			geistertest.ArbitraryPosition().Draw(t, "arbitrary"),
		} {
			if q, err := geister.NewPosition(p.Setup()); err != nil || q != p {
				t.Fatalf("%s: NewPosition(Setup) = %s, %v", p, q, err)
			}
		}
		g := geistertest.Game(geister.NTPU).Draw(t, "game")
		if r, over := g.Result(); over && r.Reason != geister.GamePlyLimitDraw && r != g.Position().Result() {
			t.Fatalf("game result %v, position %v", r, g.Position().Result())
		}
		v := geistertest.View().Draw(t, "view")
		if w, err := geister.ParseView(v.String(), v.Viewer(), v.Ply()); err != nil || w != v {
			t.Fatalf("view %s does not read back: %v", v, err)
		}
	})
}

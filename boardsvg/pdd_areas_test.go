package boardsvg

import (
	"regexp"
	"strconv"
	"testing"

	"github.com/botarena/botarena/pdd"
)

// TestPDDAreas checks that each square's area covers what the picture
// draws for the square (its tile, its last-move ring: every element with
// its data-square), that the areas lie on the board within the viewBox,
// and that no two overlap.
func TestPDDAreas(t *testing.T) {
	areas := PDDAreas()
	if len(areas) != pdd.NumSquares {
		t.Fatalf("%d areas, want %d", len(areas), pdd.NumSquares)
	}
	bySquare := map[string]Area{}
	for i, a := range areas {
		if a.Name != pdd.Square(i).String() {
			t.Fatalf("area %d is of square %v", i, a.Name)
		}
		if a.X < pddMargin || a.Y < pddMargin || a.X+a.W > pddMargin+10*pddCell || a.Y+a.H > pddMargin+10*pddCell || a.W <= 0 || a.H <= 0 {
			t.Errorf("area %+v is off the board", a)
		}
		for _, b := range areas[:i] {
			if a.X < b.X+b.W && b.X < a.X+a.W && a.Y < b.Y+b.H && b.Y < a.Y+a.H {
				t.Errorf("areas %v and %v overlap", a.Name, b.Name)
			}
		}
		bySquare[a.Name] = a
	}

	// Tiles of both colours on many squares (a played-out game), and a
	// last-move ring on every square.
	g := pdd.NewGame(pdd.Course)
	for !g.IsOver() && g.Ply() < 40 {
		moves := g.Position().AppendLegalMoves(nil)
		if err := g.Play(moves[(g.Ply()*7919)%len(moves)]); err != nil {
			t.Fatal(err)
		}
	}
	pictures := []string{PDD(g.Position(), PDDOptions{})}
	for s := range pdd.Square(pdd.NumSquares) {
		pictures = append(pictures, PDD(pdd.Course.Start(), PDDOptions{Last: pdd.Chess(s, (s+37)%pdd.NumSquares)}))
	}
	rect := regexp.MustCompile(`<rect [^>]*data-square="([0-9],[0-9])" x="(\d+)" y="(\d+)" width="(\d+)" height="(\d+)"`)
	seen := map[string]bool{}
	for _, svg := range pictures {
		for _, m := range rect.FindAllStringSubmatch(svg, -1) {
			a, ok := bySquare[m[1]]
			if !ok {
				t.Fatalf("no area for square %s", m[1])
			}
			var v [4]float64
			for i := range v {
				v[i], _ = strconv.ParseFloat(m[2+i], 64)
			}
			if v[0] < a.X || v[1] < a.Y || v[0]+v[2] > a.X+a.W || v[1]+v[3] > a.Y+a.H {
				t.Errorf("square %s is drawn at %v, outside its area %+v", m[1], v, a)
			}
			seen[m[1]] = true
		}
	}
	if len(seen) != pdd.NumSquares {
		t.Errorf("the pictures drew %d squares, want all %d", len(seen), pdd.NumSquares)
	}
	// A bridge's ends are the centres of its squares' areas.
	for k := 1; k <= g.Position().NumBridges(); k++ {
		for _, s := range g.Position().BridgeAt(k) {
			ix, iy := pddCentre(s)
			x, y := float64(ix), float64(iy)
			if a := areas[s]; x <= a.X || x >= a.X+a.W || y <= a.Y || y >= a.Y+a.H {
				t.Errorf("bridge %d's end %v is outside its area", k, s)
			}
		}
	}
}

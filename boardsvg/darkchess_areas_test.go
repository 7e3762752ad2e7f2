package boardsvg

import (
	"regexp"
	"strconv"
	"testing"

	"github.com/botarena/botarena/darkchess"
)

// dcDiscRe finds a square's disc in a dark chess picture: a face-down
// piece's outer circle, or a revealed piece's first circle.
var dcDiscRe = regexp.MustCompile(`(?:<circle class="facedown"|<g class="piece [a-z]+" data-piece="[A-Za-z]"><circle) cx="(\d+)" cy="(\d+)" r="(\d+)"`)

// dcDiscs returns the discs drawn on the board (not in the captured
// pieces' panel) in svg: centre and radius.
func dcDiscs(t *testing.T, svg string) [][3]float64 {
	t.Helper()
	var out [][3]float64
	for _, m := range dcDiscRe.FindAllStringSubmatch(svg, -1) {
		var d [3]float64
		for i := range 3 {
			v, err := strconv.ParseFloat(m[i+1], 64)
			if err != nil {
				t.Fatal(err)
			}
			d[i] = v
		}
		if d[0] < dcPanelX {
			out = append(out, d)
		}
	}
	return out
}

// checkDCDisc checks that the disc d lies inside square s's box and
// reaches into no other square's.
func checkDCDisc(t *testing.T, s darkchess.Square, d [3]float64) {
	t.Helper()
	cx, cy, r := d[0], d[1], d[2]
	for u := darkchess.Square(0); u < 32; u++ {
		x, y, w, h := dcSquareBox(u)
		inside := cx-r >= x && cx+r <= x+w && cy-r >= y && cy+r <= y+h
		touches := cx+r > x && cx-r < x+w && cy+r > y && cy-r < y+h
		if u == s && !inside {
			t.Errorf("%s: the disc at (%v,%v) r %v is not inside its box (%v,%v %vx%v)", s, cx, cy, r, x, y, w, h)
		}
		if u != s && touches {
			t.Errorf("%s: the disc at (%v,%v) r %v reaches into %s's box", s, cx, cy, r, u)
		}
	}
}

// TestDarkChessAreas checks that each square's box covers what
// DarkChess draws on that square (a face-down or a revealed piece, the last
// ply's mark) and no other square's drawing, and that the 32 boxes tile
// the board exactly, so that a click anywhere on the board names one
// square.
func TestDarkChessAreas(t *testing.T) {
	// A revealed piece on each square in turn, with the last ply's mark.
	for s := darkchess.Square(0); s < 32; s++ {
		var setup darkchess.Setup
		setup.Board[s] = darkchess.RedRook
		setup.Board[(s+1)%32] = darkchess.BlackPawn
		setup.Turn = darkchess.Red
		pos, err := darkchess.NewPosition(setup)
		if err != nil {
			t.Fatal(err)
		}
		svg := DarkChess(pos, DarkChessOptions{Last: darkchess.Flip(s)})
		found := false
		for _, d := range dcDiscs(t, svg) {
			x, y, w, h := dcSquareBox(s)
			if d[0] > x && d[0] < x+w && d[1] > y && d[1] < y+h {
				found = true
				checkDCDisc(t, s, d)
			}
		}
		if !found {
			t.Errorf("%s: no disc drawn in its box", s)
		}
		last := regexp.MustCompile(`<rect class="last" x="(\d+)" y="(\d+)" width="(\d+)" height="(\d+)"`).FindStringSubmatch(svg)
		if last == nil {
			t.Fatalf("%s: no last-ply mark", s)
		}
		var lx [4]float64
		for i := range 4 {
			lx[i], _ = strconv.ParseFloat(last[i+1], 64)
		}
		x, y, w, h := dcSquareBox(s)
		if lx[0] < x || lx[1] < y || lx[0]+lx[2] > x+w || lx[1]+lx[3] > y+h {
			t.Errorf("%s: the last-ply mark (%v) is not inside its box (%v,%v %vx%v)", s, lx, x, y, w, h)
		}
	}
	// The opening: 32 face-down discs, one in each box.
	discs := dcDiscs(t, DarkChess(darkchess.Opening, DarkChessOptions{}))
	if len(discs) != 32 {
		t.Fatalf("the opening drew %d discs, want 32", len(discs))
	}
	hit := map[darkchess.Square]bool{}
	for _, d := range discs {
		for s := darkchess.Square(0); s < 32; s++ {
			x, y, w, h := dcSquareBox(s)
			if d[0] > x && d[0] < x+w && d[1] > y && d[1] < y+h {
				hit[s] = true
				checkDCDisc(t, s, d)
			}
		}
	}
	if len(hit) != 32 {
		t.Errorf("the opening's discs fall in %d boxes, want 32", len(hit))
	}
	// The boxes tile the board.
	area := 0.0
	for s := darkchess.Square(0); s < 32; s++ {
		x, y, w, h := dcSquareBox(s)
		area += w * h
		if x < dcLeft || y < dcTop || x+w > dcLeft+dcBoardW || y+h > dcTop+dcBoardH {
			t.Errorf("%s: box (%v,%v %vx%v) is off the board", s, x, y, w, h)
		}
		for u := s + 1; u < 32; u++ {
			ux, uy, uw, uh := dcSquareBox(u)
			if x < ux+uw && ux < x+w && y < uy+uh && uy < y+h {
				t.Errorf("the boxes of %s and %s overlap", s, u)
			}
		}
	}
	if want := float64(dcBoardW * dcBoardH); area != want {
		t.Errorf("the boxes cover %v, the board %v", area, want)
	}
	// a1 is the bottom-left corner, d8 the top-right, as the labels say.
	if x, y, _, _ := dcSquareBox(darkchess.A1); x != dcLeft || y != dcTop+7*dcCell {
		t.Errorf("a1's box at (%v,%v)", x, y)
	}
	if x, y, _, _ := dcSquareBox(darkchess.D8); x != dcLeft+3*dcCell || y != dcTop {
		t.Errorf("d8's box at (%v,%v)", x, y)
	}
	if x, y, w, h := dcSquareBox(darkchess.NoSquare); x != 0 || y != 0 || w != 0 || h != 0 {
		t.Errorf("NoSquare's box (%v,%v %vx%v)", x, y, w, h)
	}
}

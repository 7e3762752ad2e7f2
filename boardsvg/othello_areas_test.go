package boardsvg

import (
	"regexp"
	"strconv"
	"testing"

	"github.com/botarena/botarena/othello"
)

// TestOthelloAreas checks that each square's box covers what Othello
// draws on that square (its disc, its legal-move dot, its last-move mark)
// and no other square's drawing, and that the 64 boxes tile the green
// board exactly, so that a click anywhere on the board names one square.
func TestOthelloAreas(t *testing.T) {
	// Every square holds a disc (a full board) in one picture; in another,
	// a game's position with its legal moves and last move.
	var black othello.Bitboard
	for s := othello.Square(0); s < 64; s++ {
		if (s%8+s/8)%3 == 0 {
			black |= s.Bit()
		}
	}
	full, err := othello.NewPosition(othello.Setup{Black: black, White: ^black, Turn: othello.Black})
	if err != nil {
		t.Fatal(err)
	}
	mid := othello.TUS.Start
	var last othello.Move
	for range 3 { // three plies, each the first legal move
		var sq othello.Square
		for sq = range mid.LegalSquares().Squares() {
			break
		}
		last = othello.Place(sq)
		if mid, err = mid.Play(last); err != nil {
			t.Fatal(err)
		}
	}
	circle := regexp.MustCompile(`<circle[^>]* data-square="([a-h][1-8])" cx="(\d+)" cy="(\d+)" r="(\d+)"`)
	seen := map[string]int{}
	for _, svg := range []string{Othello(full, OthelloOptions{}), Othello(mid, OthelloOptions{Last: last})} {
		for _, m := range circle.FindAllStringSubmatch(svg, -1) {
			sq, err := othello.ParseSquare(m[1])
			if err != nil {
				t.Fatal(err)
			}
			cx, _ := strconv.ParseFloat(m[2], 64)
			cy, _ := strconv.ParseFloat(m[3], 64)
			r, _ := strconv.ParseFloat(m[4], 64)
			seen[m[1]]++
			for s := othello.Square(0); s < 64; s++ {
				x, y, w, h := othelloSquareBox(s)
				inside := cx-r >= x && cx+r <= x+w && cy-r >= y && cy+r <= y+h
				touches := cx+r > x && cx-r < x+w && cy+r > y && cy-r < y+h
				if s == sq && !inside {
					t.Errorf("%s: the drawing at (%v,%v) r %v is not inside its box (%v,%v %vx%v)", m[1], cx, cy, r, x, y, w, h)
				}
				if s != sq && touches {
					t.Errorf("%s: the drawing at (%v,%v) r %v reaches into %s's box", m[1], cx, cy, r, s)
				}
			}
		}
	}
	if len(seen) != 64 {
		t.Errorf("the pictures drew %d squares, want all 64", len(seen))
	}
	// The boxes tile the board: equal squares, edge to edge, covering the
	// green rectangle exactly.
	area := 0.0
	for s := othello.Square(0); s < 64; s++ {
		x, y, w, h := othelloSquareBox(s)
		area += w * h
		if x < othelloMargin || y < othelloMargin || x+w > othelloMargin+8*othelloCell || y+h > othelloMargin+8*othelloCell {
			t.Errorf("%s: box (%v,%v %vx%v) is off the board", s, x, y, w, h)
		}
		for u := s + 1; u < 64; u++ {
			ux, uy, uw, uh := othelloSquareBox(u)
			if x < ux+uw && ux < x+w && y < uy+uh && uy < y+h {
				t.Errorf("the boxes of %s and %s overlap", s, u)
			}
		}
	}
	if want := float64(8 * othelloCell * 8 * othelloCell); area != want {
		t.Errorf("the boxes cover %v, the board %v", area, want)
	}
	// a1 is the top-left corner, h8 the bottom-right, as the labels say.
	if x, y, _, _ := othelloSquareBox(othello.A1); x != othelloMargin || y != othelloMargin {
		t.Errorf("a1's box starts at (%v,%v), want the board's top-left corner", x, y)
	}
	if x, y, w, h := othelloSquareBox(othello.NoSquare); x != 0 || y != 0 || w != 0 || h != 0 {
		t.Errorf("NoSquare has a box (%v,%v %vx%v), want none", x, y, w, h)
	}
}

package boardsvg

import (
	"fmt"
	"strings"

	"github.com/botarena/botarena/othello"
)

// The geometry and colours of the Othello board picture. The board is drawn
// as the TUS server and the othello package see it: column a (x 0) on the
// left, row 1 (y 0) at the top, so a1 is the top-left corner.
const (
	othelloCell   = 50                               // a square's side
	othelloMargin = 30                               // the frame around the board, holding the labels
	othelloSide   = 8*othelloCell + 2*othelloMargin  // the picture's width and height
	othelloGreen  = "#2e7d32"                        // the board
	othelloFrameC = "#3e2723"                        // the frame
	othelloLabelC = "#f3e5c8"                        // the coordinates
	othelloLineC  = "#123d16"                        // the grid
	othelloOffC   = "#6b6b6b"                        // squares off a 6x6 board
	othelloLastC  = "#e53935"                        // the last move's mark
	othelloFont   = "DejaVu Sans, Arial, sans-serif" // system fonts only
)

// OthelloOptions are the options of an Othello picture.
type OthelloOptions struct {
	// Last is the move that led to the position, marked with a red dot
	// (othello.NoMove for none; a pass marks nothing).
	Last othello.Move
	// Size is the picture's width and height in pixels; 0 for none (the
	// picture has a viewBox and fills what the page gives it).
	Size int
}

// Othello draws p as a complete <svg> element: the green board with its
// grid and the four dots of a real board, the a-h and 1-8 labels with a1
// top-left as the TUS server numbers squares, the squares off a 6x6 board
// greyed, black and white discs (each with data-square="e4"), the side to
// move's legal placements as small dots (none once the game is over), and
// o.Last marked red.
func Othello(p othello.Position, o OthelloOptions) string {
	last := o.Last
	var b strings.Builder
	b.Grow(8 << 10)
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %d %d"`, othelloSide, othelloSide)
	writeSize(&b, o.Size, othelloSide, othelloSide)
	b.WriteString(` class="board othello">`)
	fmt.Fprintf(&b, `<rect width="%d" height="%d" rx="8" fill="%s"/>`, othelloSide, othelloSide, othelloFrameC)
	fmt.Fprintf(&b, `<rect x="%d" y="%d" width="%d" height="%d" fill="%s"/>`, othelloMargin, othelloMargin, 8*othelloCell, 8*othelloCell, othelloGreen)
	// Squares that are not on the board (the 6x6 board's rim).
	board := p.Board()
	for s := othello.Square(0); s < 64; s++ {
		if !board.Has(s) {
			x, y := othelloXY(s)
			fmt.Fprintf(&b, `<rect x="%d" y="%d" width="%d" height="%d" fill="%s"/>`, x, y, othelloCell, othelloCell, othelloOffC)
		}
	}
	// The grid.
	fmt.Fprintf(&b, `<g stroke="%s" stroke-width="2">`, othelloLineC)
	for i := 0; i <= 8; i++ {
		c := othelloMargin + i*othelloCell
		fmt.Fprintf(&b, `<line x1="%d" y1="%d" x2="%d" y2="%d"/>`, c, othelloMargin, c, othelloMargin+8*othelloCell)
		fmt.Fprintf(&b, `<line x1="%d" y1="%d" x2="%d" y2="%d"/>`, othelloMargin, c, othelloMargin+8*othelloCell, c)
	}
	b.WriteString(`</g>`)
	// The four dots of a real board, at the corners of the centre 4x4.
	fmt.Fprintf(&b, `<g fill="%s">`, othelloLineC)
	for _, c := range [][2]int{{2, 2}, {6, 2}, {2, 6}, {6, 6}} {
		fmt.Fprintf(&b, `<circle cx="%d" cy="%d" r="4"/>`, othelloMargin+c[0]*othelloCell, othelloMargin+c[1]*othelloCell)
	}
	b.WriteString(`</g>`)
	// The labels: columns a-h above and below, rows 1-8 left and right.
	fmt.Fprintf(&b, `<g fill="%s" font-family="%s" font-size="18" font-weight="bold" text-anchor="middle" dominant-baseline="central">`, othelloLabelC, othelloFont)
	for i := range 8 {
		c := othelloMargin + i*othelloCell + othelloCell/2
		fmt.Fprintf(&b, `<text x="%d" y="%d">%c</text>`, c, othelloMargin/2, 'a'+i)
		fmt.Fprintf(&b, `<text x="%d" y="%d">%c</text>`, c, othelloSide-othelloMargin/2, 'a'+i)
		fmt.Fprintf(&b, `<text x="%d" y="%d">%d</text>`, othelloMargin/2, c, i+1)
		fmt.Fprintf(&b, `<text x="%d" y="%d">%d</text>`, othelloSide-othelloMargin/2, c, i+1)
	}
	b.WriteString(`</g>`)
	// The discs, with a shadow so that white shows on any screen.
	r := othelloCell/2 - 5
	for s := range (p.Black() | p.White()).Squares() {
		cx, cy := othelloCentre(s)
		fill, stroke, class := "#111111", "#000000", "disc black"
		if p.White().Has(s) {
			fill, stroke, class = "#f7f7f7", "#333333", "disc white"
		}
		fmt.Fprintf(&b, `<circle cx="%d" cy="%d" r="%d" fill="#0a2a0c" opacity="0.45"/>`, cx+2, cy+3, r)
		fmt.Fprintf(&b, `<circle class="%s" data-square="%s" cx="%d" cy="%d" r="%d" fill="%s" stroke="%s" stroke-width="1.5"/>`, class, s, cx, cy, r, fill, stroke)
	}
	// The side to move's legal placements.
	if !p.IsOver() {
		dot := "#111111"
		if p.Turn() == othello.White {
			dot = "#f7f7f7"
		}
		fmt.Fprintf(&b, `<g class="legal" fill="%s" opacity="0.5">`, dot)
		for s := range p.LegalSquares().Squares() {
			cx, cy := othelloCentre(s)
			fmt.Fprintf(&b, `<circle data-square="%s" cx="%d" cy="%d" r="6"/>`, s, cx, cy)
		}
		b.WriteString(`</g>`)
	}
	// The last move.
	if s := last.Square(); s != othello.NoSquare {
		cx, cy := othelloCentre(s)
		fmt.Fprintf(&b, `<circle class="last" data-square="%s" cx="%d" cy="%d" r="6" fill="%s"/>`, s, cx, cy, othelloLastC)
	}
	b.WriteString(`</svg>`)
	return b.String()
}

// othelloXY returns the top-left corner of square s in the picture.
func othelloXY(s othello.Square) (x, y int) {
	return othelloMargin + int(s%8)*othelloCell, othelloMargin + int(s/8)*othelloCell
}

// othelloCentre returns the centre of square s in the picture.
func othelloCentre(s othello.Square) (x, y int) {
	x, y = othelloXY(s)
	return x + othelloCell/2, y + othelloCell/2
}

// OthelloAreas returns the clickable areas of the picture Othello draws,
// whatever the position: its 64 squares, a1 to h8, named as moves are
// written ("e3"). They tile the board (on a smaller board, the squares off
// it are areas too, which no move names).
func OthelloAreas() []Area {
	areas := make([]Area, 0, 64)
	for s := othello.Square(0); s < 64; s++ {
		x, y, w, h := othelloSquareBox(s)
		areas = append(areas, Area{Name: s.String(), X: x, Y: y, W: w, H: h})
	}
	return areas
}

// othelloSquareBox returns the rectangle of square s in the picture, in
// the units of its viewBox: its top-left corner and its width and height;
// s outside the board (othello.NoSquare) has an empty box at the origin.
func othelloSquareBox(s othello.Square) (x, y, w, h float64) {
	if s < 0 || s >= 64 {
		return 0, 0, 0, 0
	}
	ix, iy := othelloXY(s)
	return float64(ix), float64(iy), othelloCell, othelloCell
}

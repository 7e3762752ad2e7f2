package boardsvg

import (
	"fmt"
	"strings"

	"github.com/botarena/botarena/darkchess"
	"github.com/botarena/botarena/internal/xmltext"
)

// The longest texts a picture draws, in characters: a longer one is cut
// and ends with an ellipsis, so that a name of a megabyte makes no picture
// of megabytes. Invalid UTF-8 and the characters XML forbids (NUL and the
// other control characters but tab, newline and carriage return) are drawn
// as U+FFFD, so that the picture is always well-formed XML.
const (
	MaxNameRunes   = 40  // a player's name
	MaxClockRunes  = 16  // a clock
	MaxStatusRunes = 120 // the status line
)

// darkchessGlyphs are the Chinese characters of the pieces as the platform
// names them, indexed by darkchess.Piece: 帥仕相俥傌炮兵 for red,
// 將士象車馬包卒 for black.
var darkchessGlyphs = [16]string{
	darkchess.RedKing: "帥", darkchess.RedGuard: "仕", darkchess.RedMinister: "相", darkchess.RedRook: "俥",
	darkchess.RedKnight: "傌", darkchess.RedCannon: "炮", darkchess.RedPawn: "兵",
	darkchess.BlackKing: "將", darkchess.BlackGuard: "士", darkchess.BlackMinister: "象", darkchess.BlackRook: "車",
	darkchess.BlackKnight: "馬", darkchess.BlackCannon: "包", darkchess.BlackPawn: "卒",
}

// Board geometry, in SVG user units.
const (
	dcCell   = 60                     // a square's side
	dcLeft   = 34                     // the margin left of the board (rank labels)
	dcTop    = 14                     // the margin above the board
	dcBoardW = 4 * dcCell             // the board's width
	dcBoardH = 8 * dcCell             // the board's height
	dcPanelX = dcLeft + dcBoardW + 24 // the captured-pieces panel
	dcWidth  = dcPanelX + 150
	dcHeight = dcTop + dcBoardH + 92
)

// DarkChessOptions are the options of a dark chess picture. Besides the
// board, the platform's board window shows the players, their colours, the
// clocks and whose move it is: so does the picture.
type DarkChessOptions struct {
	// Last is the ply that led to the position (darkchess.NoMove for
	// none): its squares are outlined (a flip's one square).
	Last darkchess.Move
	// Players are the seats' names, the first player's first.
	Players [2]string
	// Colors are each seat's colour, darkchess.NoColor until the first
	// flip gives them.
	Colors [2]darkchess.Color
	// Status is the line under the players: who is to move, or the result.
	Status string
	// Clocks are each seat's time left ("14:59.0"), "" for no clock.
	Clocks [2]string
	// Size is the picture's width in pixels, its height in proportion; 0
	// for none (the picture has a viewBox and fills what the page gives
	// it).
	Size int
}

// DarkChess draws p as a complete <svg> element: the 4x8 board in the
// platform's orientation (files a-d left to right, rank 8 at the top) with
// its labels, face-down pieces as plain brown discs, revealed pieces as red
// or black discs with their Chinese character (帥仕相俥傌炮兵, 將士象車馬包卒)
// and, so that the kind shows even without a CJK font, its letter (KGMRNCP)
// small; o.Last's squares outlined; the captured pieces listed at the side;
// the players, the status and the clocks below. The deal (what face-down
// pieces are) is never drawn: the picture shows what anyone may see, as
// Position.At does. Texts are cut (MaxNameRunes, MaxClockRunes,
// MaxStatusRunes), made valid and escaped.
func DarkChess(pos darkchess.Position, o DarkChessOptions) string {
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %d %d"`, dcWidth, dcHeight)
	writeSize(&b, o.Size, dcWidth, dcHeight)
	b.WriteString(` font-family="'Noto Sans CJK TC','Noto Sans CJK SC','Noto Serif CJK TC','WenQuanYi Zen Hei','WenQuanYi Micro Hei','Microsoft JhengHei',sans-serif">`)
	fmt.Fprintf(&b, `<rect x="0" y="0" width="%d" height="%d" fill="#f4ecd8"/>`, dcWidth, dcHeight)
	// The board and its grid.
	fmt.Fprintf(&b, `<rect class="board" x="%d" y="%d" width="%d" height="%d" fill="#e3c48f" stroke="#5b3a1a" stroke-width="3"/>`, dcLeft, dcTop, dcBoardW, dcBoardH)
	for i := 1; i < 4; i++ {
		x := dcLeft + i*dcCell
		fmt.Fprintf(&b, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#7a5530" stroke-width="1.5"/>`, x, dcTop, x, dcTop+dcBoardH)
	}
	for i := 1; i < 8; i++ {
		y := dcTop + i*dcCell
		fmt.Fprintf(&b, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#7a5530" stroke-width="1.5"/>`, dcLeft, y, dcLeft+dcBoardW, y)
	}
	// Labels: files under the board, ranks to its left.
	for f := range 4 {
		fmt.Fprintf(&b, `<text x="%d" y="%d" font-size="16" text-anchor="middle" fill="#3b2a14">%c</text>`, dcLeft+f*dcCell+dcCell/2, dcTop+dcBoardH+20, 'a'+f)
	}
	for r := 1; r <= 8; r++ {
		fmt.Fprintf(&b, `<text x="%d" y="%d" font-size="16" text-anchor="middle" fill="#3b2a14">%d</text>`, dcLeft/2, dcTop+(8-r)*dcCell+dcCell/2+6, r)
	}
	// The last ply.
	if o.Last.Valid() {
		for _, s := range []darkchess.Square{o.Last.From(), o.Last.To()} {
			x, y := dcSquareXY(s)
			fmt.Fprintf(&b, `<rect class="last" x="%d" y="%d" width="%d" height="%d" fill="#fff27a" fill-opacity="0.55" stroke="#e0a800" stroke-width="3"/>`, x+2, y+2, dcCell-4, dcCell-4)
		}
	}
	// The pieces.
	for s := darkchess.Square(0); s < 32; s++ {
		x, y := dcSquareXY(s)
		dcDisc(&b, pos.At(s), x+dcCell/2, y+dcCell/2, 26)
	}
	// The captured pieces, by colour.
	fmt.Fprintf(&b, `<text x="%d" y="%d" font-size="15" fill="#3b2a14">Captured</text>`, dcPanelX, dcTop+16)
	for ci, c := range []darkchess.Color{darkchess.Red, darkchess.Black} {
		y0 := dcTop + 30 + ci*220
		fmt.Fprintf(&b, `<text x="%d" y="%d" font-size="12" fill="#3b2a14">%s</text>`, dcPanelX, y0+10, c)
		n := 0
		for k := darkchess.King; k <= darkchess.Pawn; k++ {
			pc := darkchess.MakePiece(c, k)
			for range dcCaptured(pos, pc) {
				dcDisc(&b, pc, dcPanelX+18+(n%4)*34, y0+34+(n/4)*36, 15)
				n++
			}
		}
		if n == 0 {
			fmt.Fprintf(&b, `<text x="%d" y="%d" font-size="12" fill="#8a7a60">none</text>`, dcPanelX, y0+30)
		}
	}
	// Players, clocks and status.
	y := dcTop + dcBoardH + 44
	for i := range 2 {
		seat := [2]string{"first", "second"}[i]
		fill := "#3b2a14"
		switch o.Colors[i] {
		case darkchess.Red:
			fill = "#b3261e"
		case darkchess.Black:
			fill = "#111111"
		}
		text := seat + ": " + xmltext.Escape(o.Players[i], MaxNameRunes)
		if o.Colors[i].Valid() {
			text += " (" + o.Colors[i].String() + ")"
		}
		if o.Clocks[i] != "" {
			text += "  " + xmltext.Escape(o.Clocks[i], MaxClockRunes)
		}
		fmt.Fprintf(&b, `<text class="player" x="%d" y="%d" font-size="15" fill="%s">%s</text>`, 8+i*(dcWidth/2), y, fill, text)
	}
	fmt.Fprintf(&b, `<text class="status" x="8" y="%d" font-size="15" fill="#3b2a14">%s</text>`, y+26, xmltext.Escape(o.Status, MaxStatusRunes))
	b.WriteString(`</svg>`)
	return b.String()
}

// dcSquareXY returns the top-left corner of square s on the drawing.
func dcSquareXY(s darkchess.Square) (x, y int) {
	f, r := int(s)%4, int(s)/4
	return dcLeft + f*dcCell, dcTop + (7-r)*dcCell
}

// dcDisc draws what a square shows, centred on cx, cy with radius rad:
// nothing for an empty square, a plain brown disc for a face-down piece, and
// a red or black disc with its character and letter for a revealed one.
func dcDisc(b *strings.Builder, pc darkchess.Piece, cx, cy, rad int) {
	switch {
	case pc == darkchess.Hidden:
		fmt.Fprintf(b, `<circle class="facedown" cx="%d" cy="%d" r="%d" fill="#8b5a2b" stroke="#4a2c10" stroke-width="2"/>`, cx, cy, rad)
		fmt.Fprintf(b, `<circle cx="%d" cy="%d" r="%d" fill="none" stroke="#c79a5e" stroke-width="1.5"/>`, cx, cy, rad*2/3)
	case pc.Valid():
		fill, rim := "#c62828", "#7f0000"
		if pc.Color() == darkchess.Black {
			fill, rim = "#1f1f1f", "#000000"
		}
		letter := strings.ToUpper(pc.String())
		fmt.Fprintf(b, `<g class="piece %s" data-piece="%s">`, pc.Color(), pc)
		fmt.Fprintf(b, `<circle cx="%d" cy="%d" r="%d" fill="%s" stroke="%s" stroke-width="2"/>`, cx, cy, rad, fill, rim)
		fmt.Fprintf(b, `<circle cx="%d" cy="%d" r="%d" fill="none" stroke="#f5e6c8" stroke-width="1.2"/>`, cx, cy, rad*5/6)
		fmt.Fprintf(b, `<text x="%d" y="%d" font-size="%d" text-anchor="middle" fill="#fdf6e3">%s</text>`, cx-rad/10, cy+rad*3/10, rad*9/10, darkchessGlyphs[pc])
		// The kind's letter on a badge, for a browser without a CJK font.
		bx, by, br := cx+rad*5/8, cy+rad*5/8, max(rad*2/5, 6)
		fmt.Fprintf(b, `<circle cx="%d" cy="%d" r="%d" fill="#ffe082" stroke="%s" stroke-width="1.5"/>`, bx, by, br, rim)
		fmt.Fprintf(b, `<text x="%d" y="%d" font-size="%d" font-family="sans-serif" font-weight="bold" text-anchor="middle" fill="%s">%s</text>`, bx, by+br*2/5+1, br*6/5, fill, letter)
		b.WriteString(`</g>`)
	}
}

// dcCaptured returns how many pieces pc are no longer in p: the initial
// number less those revealed on the board and those face-down.
func dcCaptured(p darkchess.Position, pc darkchess.Piece) int {
	return max(pc.Kind().InitialCount()-p.Pieces(pc).Count()-p.Pool(pc), 0)
}

// DarkChessAreas returns the clickable areas of the picture DarkChess
// draws, whatever the position: its 32 squares, named as the platform
// writes them ("b7"). They tile the board.
func DarkChessAreas() []Area {
	areas := make([]Area, 0, 32)
	for s := darkchess.Square(0); s < 32; s++ {
		x, y, w, h := dcSquareBox(s)
		areas = append(areas, Area{Name: s.String(), X: x, Y: y, W: w, H: h})
	}
	return areas
}

// dcSquareBox returns the rectangle of square s in the picture, in the
// units of its viewBox: its top-left corner and its width and height; s
// off the board (darkchess.NoSquare) has an empty box at the origin.
func dcSquareBox(s darkchess.Square) (x, y, w, h float64) {
	if !s.Valid() {
		return 0, 0, 0, 0
	}
	ix, iy := dcSquareXY(s)
	return float64(ix), float64(iy), dcCell, dcCell
}

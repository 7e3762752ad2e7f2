package boardsvg

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/botarena/botarena/geister"
)

// The board picture's geometry, in SVG user units.
const (
	gsCell   = 60                    // a square
	gsLeft   = 36                    // room for the row numbers
	gsTop    = 36                    // room for the column numbers
	gsBoard  = 6 * gsCell            // the board's side
	gsPanelX = gsLeft + gsBoard + 24 // the captured ghosts' panel
	gsWidth  = gsPanelX + 190        // the whole picture
	gsHeight = gsTop + gsBoard + gsTop
)

// The colours of the picture.
const (
	gsBlue    = "#2f6fdf"
	gsRed     = "#d83a3a"
	gsUnknown = "#9a9a9a"
)

// geisterLastMove is the last move for the picture: the square it left and
// the square it reached, both in the first player's frame; to is
// geister.Escaped for an escape.
type geisterLastMove struct {
	from, to geister.Square
	ok       bool
}

// geisterLastMoveOf is move m, played from prev, for the picture.
func geisterLastMoveOf(prev, next geister.Position, m geister.Move) geisterLastMove {
	if m == geister.NoMove {
		return geisterLastMove{}
	}
	mover := prev.Turn()
	return geisterLastMove{from: prev.Square(mover, m.Ghost()), to: next.Square(mover, m.Ghost()), ok: true}
}

// geisterBoard is the part of the picture that never changes (the board,
// the grid, the exits, the coordinates), drawn once: [0] in the first
// player's frame, [1] in the second player's (GeisterOptions.Flip).
var geisterBoard = [2]string{drawGeisterBoard(false), drawGeisterBoard(true)}

// gsAt returns the column and row where square s is drawn: its x and y,
// or with flip, the board rotated half a turn.
func gsAt(s geister.Square, flip bool) (x, y int) {
	if flip {
		return 5 - s.X(), 5 - s.Y()
	}
	return s.X(), s.Y()
}

// drawGeisterBoard draws the unchanging part of the picture, with flip in
// the second player's frame.
func drawGeisterBoard(flip bool) string {
	var b strings.Builder
	fmt.Fprintf(&b, `<rect width="%d" height="%d" fill="#f5efe2"/>`, gsWidth, gsHeight)
	fmt.Fprintf(&b, `<rect class="board" x="%d" y="%d" width="%d" height="%d" fill="#d8bf8f" stroke="#5b4630" stroke-width="3"/>`, gsLeft, gsTop, gsBoard, gsBoard)
	// The exits: the first player's at the top corners, the second
	// player's at the bottom ones (the other way round with flip).
	for _, e := range [...]struct {
		s   geister.Square
		who string
	}{{geister.SquareAt(0, 0), "1st"}, {geister.SquareAt(5, 0), "1st"}, {geister.SquareAt(0, 5), "2nd"}, {geister.SquareAt(5, 5), "2nd"}} {
		ex, ey := gsAt(e.s, flip)
		x, y := gsLeft+ex*gsCell, gsTop+ey*gsCell
		fmt.Fprintf(&b, `<rect class="exit" x="%d" y="%d" width="%d" height="%d" fill="#b9dcb4"/>`, x, y, gsCell, gsCell)
		ty := y + 10
		if ey == 5 {
			ty = y + gsCell - 3
		}
		fmt.Fprintf(&b, `<text class="exit" x="%d" y="%d" font-size="9" text-anchor="middle" fill="#2e6b2a">%s exit</text>`, x+gsCell/2, ty, e.who)
	}
	for i := 1; i < 6; i++ {
		fmt.Fprintf(&b, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#5b4630" stroke-width="1.2"/>`, gsLeft+i*gsCell, gsTop, gsLeft+i*gsCell, gsTop+gsBoard)
		fmt.Fprintf(&b, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#5b4630" stroke-width="1.2"/>`, gsLeft, gsTop+i*gsCell, gsLeft+gsBoard, gsTop+i*gsCell)
	}
	// Coordinates: x above and below, y on the left, as in "xy" (from 5
	// down to 0 with flip).
	for i := range 6 {
		c := i
		if flip {
			c = 5 - i
		}
		fmt.Fprintf(&b, `<text class="coord" x="%d" y="%d" font-size="15" text-anchor="middle" fill="#3b2f22">%d</text>`, gsLeft+i*gsCell+gsCell/2, gsTop-12, c)
		fmt.Fprintf(&b, `<text class="coord" x="%d" y="%d" font-size="15" text-anchor="middle" fill="#3b2f22">%d</text>`, gsLeft+i*gsCell+gsCell/2, gsTop+gsBoard+24, c)
		fmt.Fprintf(&b, `<text class="coord" x="%d" y="%d" font-size="15" text-anchor="middle" fill="#3b2f22">%d</text>`, gsLeft-16, gsTop+i*gsCell+gsCell/2+5, c)
	}
	return b.String()
}

// GeisterOptions are the options of a Geister picture.
type GeisterOptions struct {
	// Last is the move that led to the position (geister.NoMove for none):
	// the square it left is shaded pale, the square it reached darker, and
	// an escape gets an arrow off the board.
	Last geister.Move
	// Before is the position Last was played from. A Geister move is a
	// ghost and a direction in the mover's frame, so the squares it joins
	// are found from the positions before and after it.
	Before geister.Position
	// Hide hides the colours of side c's ghosts on the board when Hide[c]
	// is set: they are drawn grey with a "?". A spectator of a game in
	// progress sees {true, true}; the first player {false, true}; the
	// second {true, false}; a record that lacks a side's red ghosts hides
	// that side. Ghosts off the board (captured or escaped) always show
	// their colours, which both players know.
	Hide [2]bool
	// Flip draws the picture in the second player's frame: the board
	// rotated half a turn, the second player's ghosts at the bottom and
	// upright, the first player's upside down (the seat page of the second
	// player). GeisterFlippedAreas are its clickable areas.
	Flip bool
	// Size is the picture's width in pixels, its height in proportion; 0
	// for none (the picture has a viewBox and fills what the page gives
	// it).
	Size int
}

// Geister draws p as a complete <svg> element in the first player's frame
// (the first player's ghosts start at the bottom and move up, its exits are
// the top corners), with the x and y coordinates as in "xy": each ghost in
// its colour, upright for the first player and upside down for the second,
// with its letter (lower case for the second player), those of hidden sides
// grey with a "?"; beside the board, the ghosts each side captured and the
// one that escaped; o.Last highlighted.
func Geister(p geister.Position, o GeisterOptions) string {
	last := geisterLastMoveOf(o.Before, p, o.Last)
	var b strings.Builder
	b.Grow(len(geisterBoard[0]) + 6<<10)
	b.WriteString(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 `)
	gsInts(&b, " ", gsWidth, gsHeight)
	b.WriteString(`"`)
	writeSize(&b, o.Size, gsWidth, gsHeight)
	b.WriteString(` font-family="DejaVu Sans, Arial, Helvetica, sans-serif">`)
	if o.Flip {
		b.WriteString(geisterBoard[1])
	} else {
		b.WriteString(geisterBoard[0])
	}
	// The last move: the square it left, pale, and the one it reached.
	if last.ok {
		for _, h := range [...]struct {
			s    geister.Square
			fill string
		}{{last.from, "#f7e48a"}, {last.to, "#f2cf3a"}} {
			if h.s.Valid() {
				x, y := gsAt(h.s, o.Flip)
				b.WriteString(`<rect class="last" x="`)
				gsInts(&b, `" y="`, gsLeft+x*gsCell+2, gsTop+y*gsCell+2)
				b.WriteString(`" width="56" height="56" fill="` + h.fill + `"/>`)
			}
		}
	}
	// The ghosts on the board.
	for c := range geister.Color(2) {
		for g := geister.A; g <= geister.H; g++ {
			s := p.Square(c, g)
			if !s.Valid() {
				continue
			}
			col := p.GhostColor(c, g)
			if o.Hide[c] {
				col = geister.Unknown
			}
			x, y := gsAt(s, o.Flip)
			geisterGhostSVG(&b, gsLeft+x*gsCell+gsCell/2, gsTop+y*gsCell+gsCell/2, false, o.Flip, c, g, col)
		}
	}
	// An escape: an arrow off the board from the exit it left.
	if last.ok && last.to == geister.Escaped && last.from.Valid() {
		fx, fy := gsAt(last.from, o.Flip)
		x := gsLeft + fx*gsCell + gsCell/2
		y0, y1 := gsTop+2, gsTop-30
		if fy == 5 {
			y0, y1 = gsTop+gsBoard-2, gsTop+gsBoard+30
		}
		fmt.Fprintf(&b, `<line class="escape" x1="%d" y1="%d" x2="%d" y2="%d" stroke="#e0a800" stroke-width="5" stroke-linecap="round"/>`, x, y0, x, y1)
	}
	geisterPanelSVG(&b, p, o.Flip)
	b.WriteString(`</svg>`)
	return b.String()
}

// gsInts writes the numbers separated by sep.
func gsInts(b *strings.Builder, sep string, n ...int) {
	var buf [20]byte
	for i, v := range n {
		if i > 0 {
			b.WriteString(sep)
		}
		b.Write(strconv.AppendInt(buf[:0], int64(v), 10))
	}
}

// geisterPanelSVG lists beside the board the ghosts each side captured and
// the ghost that escaped, with their colours, which everyone knows; with
// flip, the second player's ghosts upright.
func geisterPanelSVG(b *strings.Builder, p geister.Position, flip bool) {
	y := gsTop + 4
	for c := range geister.Color(2) {
		victim := c.Opponent()
		red, blue := p.Captured(victim)
		fmt.Fprintf(b, `<text class="captured" x="%d" y="%d" font-size="14" fill="#222">%s took %d red, %d blue</text>`, gsPanelX, y+10, c, red, blue)
		i := 0
		for g := geister.A; g <= geister.H; g++ {
			if p.Square(victim, g) != geister.Captured {
				continue
			}
			geisterGhostSVG(b, gsPanelX+14+(i%4)*40, y+40+(i/4)*40, true, flip, victim, g, p.GhostColor(victim, g))
			i++
		}
		y += 40 + 2*40
	}
	if c, g, ok := p.Escaped(); ok {
		fmt.Fprintf(b, `<text class="escaped" x="%d" y="%d" font-size="14" fill="#222">%s escaped:</text>`, gsPanelX, y+10, c)
		geisterGhostSVG(b, gsPanelX+14, y+40, true, flip, c, g, p.GhostColor(c, g))
	}
}

// geisterGhostSVG draws side c's ghost g centred on (cx, cy), small for the
// panel: a ghost's shape in its colour (grey with "?" when unknown), the
// first player's with a dark outline, upright (upside down with flip), the
// second player's with a light one, upside down (upright with flip), the
// letter on it (lower case for the second player).
func geisterGhostSVG(b *strings.Builder, cx, cy int, small, flip bool, c geister.Color, g geister.Ghost, col geister.GhostColor) {
	fill, name := gsUnknown, "unknown"
	switch col {
	case geister.Blue:
		fill, name = gsBlue, "blue"
	case geister.Red:
		fill, name = gsRed, "red"
	}
	side, stroke := "first", "#1a1a1a"
	letter := g.String()
	if c == geister.Second {
		side, stroke = "second", "#fdfdfd"
		letter = strings.ToLower(letter)
	}
	down := (c == geister.Second) != flip
	rot := ""
	if down {
		rot = ` transform="rotate(180)"`
	}
	b.WriteString(`<g class="ghost ` + side + " " + name + `" transform="translate(`)
	gsInts(b, " ", cx, cy)
	if small {
		b.WriteString(`) scale(0.6)">`)
	} else {
		b.WriteString(`)">`)
	}
	b.WriteString(`<g` + rot + `><path d="M-19 20 L-19 -3 A19 19 0 0 1 19 -3 L19 20 L13 14 L6.5 20 L0 14 L-6.5 20 L-13 14 Z" fill="` + fill + `" stroke="` + stroke + `" stroke-width="2.5"/>`)
	b.WriteString(`<circle cx="-7" cy="-6" r="3.5" fill="#fff"/><circle cx="7" cy="-6" r="3.5" fill="#fff"/></g>`)
	// The letter goes below the eyes of an upright ghost, above those of
	// an upside-down one; an unknown ghost shows "?" there and its letter
	// small beside it.
	y, sy := "12", "-14"
	if down {
		y, sy = "0", "22"
	}
	if col == geister.Unknown {
		b.WriteString(`<text y="` + y + `" font-size="16" font-weight="bold" text-anchor="middle" fill="#fff">?</text><text x="25" y="` + sy + `" font-size="11" text-anchor="middle" fill="#222">` + letter + `</text>`)
	} else {
		b.WriteString(`<text y="` + y + `" font-size="15" font-weight="bold" text-anchor="middle" fill="#fff">` + letter + `</text>`)
	}
	b.WriteString(`</g>`)
}

// GeisterAreas returns the clickable areas of the picture Geister draws,
// whatever the position: the 36 squares, named "xy" in the first player's
// frame (the picture's, as geister.Square writes it), then the four places
// off the board beyond the exit corners, where a blue ghost escapes to,
// named "out" and the corner's "xy": "out00" and "out50" above the first
// player's exits, "out05" and "out55" below the second player's (the
// strips between the board's edge and the picture's).
func GeisterAreas() []Area { return geisterAreas(false) }

// GeisterFlippedAreas returns the clickable areas of the picture Geister
// draws with Flip: those of GeisterAreas, with the same names, where the
// board rotated half a turn puts them ("out05" and "out55" above the
// second player's exits, now at the top).
func GeisterFlippedAreas() []Area { return geisterAreas(true) }

func geisterAreas(flip bool) []Area {
	out := make([]Area, 0, geister.NumSquares+4)
	for s := range geister.Square(geister.NumSquares) {
		x, y := gsAt(s, flip)
		out = append(out, Area{Name: s.String(), X: gsLeft + float64(x*gsCell), Y: gsTop + float64(y*gsCell), W: gsCell, H: gsCell})
	}
	for _, s := range [...]geister.Square{geister.SquareAt(0, 0), geister.SquareAt(5, 0), geister.SquareAt(0, 5), geister.SquareAt(5, 5)} {
		x, y := gsAt(s, flip)
		top := 0.0
		if y == 5 {
			top = gsTop + gsBoard
		}
		out = append(out, Area{Name: "out" + s.String(), X: gsLeft + float64(x*gsCell), Y: top, W: gsCell, H: gsTop})
	}
	return out
}

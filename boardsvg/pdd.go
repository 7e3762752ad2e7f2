package boardsvg

import (
	"fmt"
	"strings"

	"github.com/botarena/botarena/pdd"
)

// The PDD board's geometry in SVG units: 10x10 cells of pddCell, the
// coordinate labels in a margin of pddMargin at the top and the left.
const (
	pddCell   = 40
	pddMargin = 28
	pddSize   = pddMargin + 10*pddCell + 8
)

// PDDOptions are the options of a Ponte del Diavolo picture.
type PDDOptions struct {
	// Last is the action that led to the position (pdd.NoMove for none):
	// the squares of a Chess move or a Bridge, or the two opening tiles
	// of a Change, are ringed in red, and a Bridge also gets a red dashed
	// centre line. A Pass marks nothing.
	Last pdd.Move
	// Size is the picture's width and height in pixels; 0 for none (the
	// picture has a viewBox and fills what the page gives it).
	Size int
}

// PDD draws p as a complete <svg> element, as the platform numbers the
// board: column x = 0..9 from the left (labels on top), row y = 0..9 from
// the top (labels on the left), as in "x,y" points. The board is the lagoon
// (blue); white tiles are ivory and black tiles dark (each with
// data-square="x,y"); a finished island of 4 tiles has a gold rim; squares
// under a bridge are shaded; bridges are thick lines between their
// endpoints' centres in the owner's colour, outlined in the other's;
// o.Last is marked.
func PDD(p pdd.Position, o PDDOptions) string {
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %d %d"`, pddSize, pddSize)
	writeSize(&b, o.Size, pddSize, pddSize)
	b.WriteString(` class="pdd-board">`)
	fmt.Fprintf(&b, `<rect class="frame" x="0" y="0" width="%d" height="%d" fill="#d9c9a0"/>`, pddSize, pddSize)
	fmt.Fprintf(&b, `<rect class="lagoon" x="%d" y="%d" width="%d" height="%d" fill="#3f82b0"/>`, pddMargin, pddMargin, 10*pddCell, 10*pddCell)
	// Coordinates: x on top, y on the left.
	for i := range 10 {
		c := pddMargin + i*pddCell + pddCell/2
		fmt.Fprintf(&b, `<text class="coord" x="%d" y="%d" font-family="sans-serif" font-size="14" text-anchor="middle" fill="#3b2f1e">%d</text>`, c, pddMargin-9, i)
		fmt.Fprintf(&b, `<text class="coord" x="%d" y="%d" font-family="sans-serif" font-size="14" text-anchor="middle" fill="#3b2f1e">%d</text>`, pddMargin/2, c+5, i)
	}
	// Squares under bridges, then the grid.
	for s := range p.Under().Squares() {
		x, y := pddCorner(s)
		fmt.Fprintf(&b, `<rect class="under" x="%d" y="%d" width="%d" height="%d" fill="#2c5f84"/>`, x, y, pddCell, pddCell)
	}
	for i := 0; i <= 10; i++ {
		o := pddMargin + i*pddCell
		fmt.Fprintf(&b, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#23506f" stroke-width="1"/>`, o, pddMargin, o, pddMargin+10*pddCell)
		fmt.Fprintf(&b, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#23506f" stroke-width="1"/>`, pddMargin, o, pddMargin+10*pddCell, o)
	}
	// Tiles, with a gold rim on the tiles of islands.
	for _, c := range []pdd.Color{pdd.White, pdd.Black} {
		fill, edge := pddColors(c)
		islands := pddIslandTiles(p.Tiles(c))
		for s := range p.Tiles(c).Squares() {
			x, y := pddCorner(s)
			class, stroke, width := "tile "+c.String(), edge, 1.5
			if islands.Has(s) {
				class, stroke, width = class+" island", "#e8b100", 3
			}
			fmt.Fprintf(&b, `<rect class="%s" data-square="%s" x="%d" y="%d" width="%d" height="%d" rx="5" fill="%s" stroke="%s" stroke-width="%g"/>`,
				class, s, x+4, y+4, pddCell-8, pddCell-8, fill, stroke, width)
		}
	}
	// Bridges, in build order: an outline in the other colour, then the
	// owner's colour.
	for k := 1; k <= p.NumBridges(); k++ {
		ends := p.BridgeAt(k)
		owner := p.At(ends[0])
		fill, edge := pddColors(owner)
		x1, y1 := pddCentre(ends[0])
		x2, y2 := pddCentre(ends[1])
		fmt.Fprintf(&b, `<g class="bridge %s" data-bridge="%d">`, owner, k)
		fmt.Fprintf(&b, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" stroke-width="13" stroke-linecap="round"/>`, x1, y1, x2, y2, edge)
		fmt.Fprintf(&b, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" stroke-width="9" stroke-linecap="round"/>`, x1, y1, x2, y2, fill)
		b.WriteString(`</g>`)
	}
	// The last action.
	if o.Last != pdd.NoMove && o.Last != pdd.Pass {
		a, c := pddPoints(p, o.Last)
		for _, s := range []pdd.Square{a, c} {
			if s.Valid() {
				x, y := pddCorner(s)
				fmt.Fprintf(&b, `<rect class="last" data-square="%s" x="%d" y="%d" width="%d" height="%d" rx="4" fill="none" stroke="#e53935" stroke-width="3"/>`, s, x+1, y+1, pddCell-2, pddCell-2)
			}
		}
		if o.Last.Action() == pdd.BridgeAction && a.Valid() && c.Valid() {
			x1, y1 := pddCentre(a)
			x2, y2 := pddCentre(c)
			fmt.Fprintf(&b, `<line class="last" x1="%d" y1="%d" x2="%d" y2="%d" stroke="#e53935" stroke-width="2" stroke-dasharray="4 3"/>`, x1, y1, x2, y2)
		}
	}
	b.WriteString(`</svg>`)
	return b.String()
}

// pddColors returns the fill and the outline of colour c's tiles and bridges.
func pddColors(c pdd.Color) (fill, edge string) {
	if c == pdd.Black {
		return "#262626", "#e9e2cf"
	}
	return "#f7f1e1", "#4a4030"
}

// pddCorner returns the top-left corner of square s on the board.
func pddCorner(s pdd.Square) (x, y int) {
	return pddMargin + s.X()*pddCell, pddMargin + s.Y()*pddCell
}

// pddCentre returns the centre of square s on the board.
func pddCentre(s pdd.Square) (x, y int) {
	x, y = pddCorner(s)
	return x + pddCell/2, y + pddCell/2
}

// pddIslandTiles returns the tiles of tiles that belong to an island, an
// orthogonally connected group of exactly 4.
func pddIslandTiles(tiles pdd.Bitboard) pdd.Bitboard {
	var seen, islands pdd.Bitboard
	for s := range tiles.Squares() {
		if seen.Has(s) {
			continue
		}
		group := pddGroup(tiles, s)
		seen = seen.Union(group)
		if group.Count() == 4 {
			islands = islands.Union(group)
		}
	}
	return islands
}

// pddPoints returns the squares move m marks on p, the position it led to:
// a Chess move's or a Bridge's two squares, or for Change the two opening
// tiles, the lower first (Change is played with White's 2 opening tiles
// alone on the board, and leaves them in place).
func pddPoints(p pdd.Position, m pdd.Move) (a, b pdd.Square) {
	if m != pdd.Change {
		return m.Squares()
	}
	a, b = pdd.NoSquare, pdd.NoSquare
	for s := range p.Tiles(pdd.White).Union(p.Tiles(pdd.Black)).Squares() {
		switch {
		case a == pdd.NoSquare:
			a = s
		case b == pdd.NoSquare:
			b = s
		}
	}
	return a, b
}

// pddGroup returns the tiles of tiles orthogonally connected to sq.
func pddGroup(tiles pdd.Bitboard, sq pdd.Square) pdd.Bitboard {
	group := pdd.Bitboard{}.With(sq)
	stack := []pdd.Square{sq}
	for len(stack) > 0 {
		s := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		x, y := s.X(), s.Y()
		for _, d := range [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
			nx, ny := x+d[0], y+d[1]
			if nx < 0 || nx > 9 || ny < 0 || ny > 9 {
				continue
			}
			if n := pdd.SquareAt(nx, ny); tiles.Has(n) && !group.Has(n) {
				group = group.With(n)
				stack = append(stack, n)
			}
		}
	}
	return group
}

// PDDAreas returns the clickable areas of the pictures [PDD] draws, the
// same for every position and options: the cells of the 100 squares, row
// by row from 0,0, named as the platform writes points ("3,4"). A
// square's tile, its last-move ring and the ends of its bridges lie in its
// cell.
func PDDAreas() []Area {
	areas := make([]Area, 0, pdd.NumSquares)
	for s := range pdd.Square(pdd.NumSquares) {
		x, y := pddCorner(s)
		areas = append(areas, Area{Name: s.String(), X: float64(x), Y: float64(y), W: pddCell, H: pddCell})
	}
	return areas
}

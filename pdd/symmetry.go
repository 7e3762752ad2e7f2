package pdd

import "iter"

// Symmetry is one of the 8 symmetries of the square board. The rules are
// invariant under each: bridge shapes, squares under, crossings,
// group rules and scores all map onto themselves.
type Symmetry uint8

// The 8 symmetries. (x, y) is a square's column and row from the top-left.
const (
	Identity      Symmetry = iota // (x, y)
	FlipX                         // (9-x, y): left-right
	FlipY                         // (x, 9-y): top-bottom
	Rotate180                     // (9-x, 9-y)
	Transpose                     // (y, x): about the 0,0-9,9 diagonal
	Rotate90                      // (9-y, x): a quarter turn clockwise
	Rotate270                     // (y, 9-x): a quarter turn anticlockwise
	AntiTranspose                 // (9-y, 9-x): about the 9,0-0,9 diagonal
)

// Symmetries yields the 8 symmetries, Identity first.
func Symmetries() iter.Seq[Symmetry] {
	return func(yield func(Symmetry) bool) {
		for s := range Symmetry(8) {
			if !yield(s) {
				return
			}
		}
	}
}

// String returns the symmetry's name as in its constant.
func (s Symmetry) String() string {
	names := [8]string{"Identity", "FlipX", "FlipY", "Rotate180", "Transpose", "Rotate90", "Rotate270", "AntiTranspose"}
	if s < 8 {
		return names[s]
	}
	return "invalid symmetry"
}

// Inverse returns the symmetry that undoes s.
func (s Symmetry) Inverse() Symmetry {
	switch s {
	case Rotate90:
		return Rotate270
	case Rotate270:
		return Rotate90
	}
	return s
}

// Square returns the image of sq under s (transpose first, then flip columns,
// then rows), or sq itself if it is not a square.
func (s Symmetry) Square(sq Square) Square {
	if !sq.Valid() || s > 7 {
		return sq
	}
	x, y := sq.X(), sq.Y()
	if s&4 != 0 {
		x, y = y, x
	}
	if s&1 != 0 {
		x = 9 - x
	}
	if s&2 != 0 {
		y = 9 - y
	}
	return SquareAt(x, y)
}

// Bitboard returns the image of b under s.
func (s Symmetry) Bitboard(b Bitboard) Bitboard {
	var out Bitboard
	for sq := range b.Squares() {
		out = out.With(s.Square(sq))
	}
	return out
}

// Move returns the image of m under s: Chess and Bridge move with their
// squares; Change, Pass and values that are not moves stay as they are.
func (s Symmetry) Move(m Move) Move {
	a, b := m.Squares()
	switch m.Action() {
	case ChessAction:
		return Chess(s.Square(a), s.Square(b))
	case BridgeAction:
		return Bridge(s.Square(a), s.Square(b))
	}
	return m
}

// Position returns the image of p under s: the same side to move, the
// bridges mapped in the same build order.
func (s Symmetry) Position(p Position) Position {
	p.tiles[0] = s.Bitboard(p.tiles[0])
	p.tiles[1] = s.Bitboard(p.tiles[1])
	p.under = s.Bitboard(p.under)
	p.ends = s.Bitboard(p.ends)
	for k, id := range p.bridges[:p.nb] {
		pl := &bridges.p[id%NumPlacements]
		p.bridges[k] = uint16(placementOf(s.Square(pl.a), s.Square(pl.b)))
	}
	return p
}

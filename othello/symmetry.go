package othello

import (
	"iter"
	"math/bits"
)

// Symmetry is one of the 8 symmetries of the square board. Each maps legal
// games onto legal games and the 6x6 board onto itself.
type Symmetry uint8

// The 8 symmetries. (x, y) is a square's column and row from the top-left.
const (
	Identity      Symmetry = iota // (x, y)
	FlipX                         // (7-x, y): left-right, TUS <-> Standard
	FlipY                         // (x, 7-y): top-bottom
	Rotate180                     // (7-x, 7-y)
	Transpose                     // (y, x): about the a1-h8 diagonal
	Rotate90                      // (7-y, x): a quarter turn clockwise
	Rotate270                     // (y, 7-x): a quarter turn anticlockwise
	AntiTranspose                 // (7-y, 7-x): about the h1-a8 diagonal
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

// The symmetries are built from three bit operations: transposing first, then
// flipping columns (FlipX) and rows (FlipY). Bit 0 of s is FlipX, bit 1
// FlipY, bit 2 the transpose.

func flipX(b uint64) uint64 {
	b = (b>>1)&0x5555555555555555 | (b&0x5555555555555555)<<1
	b = (b>>2)&0x3333333333333333 | (b&0x3333333333333333)<<2
	return (b>>4)&0x0F0F0F0F0F0F0F0F | (b&0x0F0F0F0F0F0F0F0F)<<4
}

func transpose(b uint64) uint64 {
	t := (b ^ (b >> 7)) & 0x00AA00AA00AA00AA
	b ^= t ^ (t << 7)
	t = (b ^ (b >> 14)) & 0x0000CCCC0000CCCC
	b ^= t ^ (t << 14)
	t = (b ^ (b >> 28)) & 0x00000000F0F0F0F0
	return b ^ t ^ (t << 28)
}

// Bitboard returns the image of b under s.
func (s Symmetry) Bitboard(b Bitboard) Bitboard {
	u := uint64(b)
	if s&4 != 0 {
		u = transpose(u)
	}
	if s&1 != 0 {
		u = flipX(u)
	}
	if s&2 != 0 {
		u = bits.ReverseBytes64(u)
	}
	return Bitboard(u)
}

// Square returns the image of sq under s, or sq itself if it is not a square.
func (s Symmetry) Square(sq Square) Square {
	if !sq.Valid() {
		return sq
	}
	x, y := sq.X(), sq.Y()
	if s&4 != 0 {
		x, y = y, x
	}
	if s&1 != 0 {
		x = 7 - x
	}
	if s&2 != 0 {
		y = 7 - y
	}
	return SquareAt(x, y)
}

// Move returns the image of m under s: a placement moves with its square, a
// pass stays a pass.
func (s Symmetry) Move(m Move) Move {
	if m == Pass || !m.Valid() {
		return m
	}
	return Place(s.Square(m.Square()))
}

// Position returns the image of p under s, the same side to move.
func (s Symmetry) Position(p Position) Position {
	p.black = s.Bitboard(p.black)
	p.white = s.Bitboard(p.white)
	return p
}

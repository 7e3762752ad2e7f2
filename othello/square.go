package othello

import (
	"iter"

	"github.com/botarena/botarena/internal/bitboard"
)

// Square is a square of the board, x+8*y for column x and row y (both 0..7,
// from the top-left corner). The zero value is [A1]. [NoSquare] stands for no
// square.
type Square int8

// The 64 squares, named algebraically: the letter is the column (x), the digit
// the row (y) counted from the top. A1 is the top-left corner.
const (
	A1 Square = iota
	B1
	C1
	D1
	E1
	F1
	G1
	H1
	A2
	B2
	C2
	D2
	E2
	F2
	G2
	H2
	A3
	B3
	C3
	D3
	E3
	F3
	G3
	H3
	A4
	B4
	C4
	D4
	E4
	F4
	G4
	H4
	A5
	B5
	C5
	D5
	E5
	F5
	G5
	H5
	A6
	B6
	C6
	D6
	E6
	F6
	G6
	H6
	A7
	B7
	C7
	D7
	E7
	F7
	G7
	H7
	A8
	B8
	C8
	D8
	E8
	F8
	G8
	H8
)

// NoSquare is the value of no square: what [SquareAt] returns off the board and
// [Move.Square] returns for a pass.
const NoSquare Square = -1

// SquareAt returns the square in column x and row y, both counted from 0 at the
// top-left corner as in the TUS server's PUT x y. It returns [NoSquare] if
// either is outside 0..7.
func SquareAt(x, y int) Square {
	if x < 0 || x > 7 || y < 0 || y > 7 {
		return NoSquare
	}
	return Square(x + 8*y)
}

// Valid reports whether s is one of the 64 squares.
func (s Square) Valid() bool { return s >= 0 && s < 64 }

// X returns the column of s, 0 (a) to 7 (h).
func (s Square) X() int { return int(s) & 7 }

// Y returns the row of s, 0 (row 1, the top) to 7 (row 8).
func (s Square) Y() int { return int(s) >> 3 }

// Bit returns the bitboard holding only s, or the empty bitboard for an invalid
// square.
func (s Square) Bit() Bitboard {
	if !s.Valid() {
		return 0
	}
	return 1 << uint(s)
}

// String returns the algebraic name of s in lower case ("e3"), or "-" for a
// value that is not a square.
func (s Square) String() string {
	if !s.Valid() {
		return "-"
	}
	return string([]byte{'a' + byte(s.X()), '1' + byte(s.Y())})
}

// ParseSquare reads an algebraic square name: a column letter a..h and a row
// digit 1..8. The letter may be upper or lower case.
func ParseSquare(text string) (Square, error) {
	if len(text) != 2 {
		return NoSquare, &SyntaxError{Input: text, Offset: min(len(text), 2), Msg: "a square is a letter a-h and a digit 1-8"}
	}
	c := text[0] | 0x20
	if c < 'a' || c > 'h' {
		return NoSquare, &SyntaxError{Input: text, Offset: 0, Msg: "column must be a letter a-h"}
	}
	if text[1] < '1' || text[1] > '8' {
		return NoSquare, &SyntaxError{Input: text, Offset: 1, Msg: "row must be a digit 1-8"}
	}
	return Square(c-'a') + 8*Square(text[1]-'1'), nil
}

// Bitboard is a set of squares, bit x+8*y for the square at column x, row y.
type Bitboard uint64

// Has reports whether s is in b.
func (b Bitboard) Has(s Square) bool { return s.Valid() && b&(1<<uint(s)) != 0 }

// Count returns the number of squares in b.
func (b Bitboard) Count() int { return bitboard.Count(b) }

// Squares yields the squares of b from a1 to h8.
func (b Bitboard) Squares() iter.Seq[Square] {
	return func(yield func(Square) bool) {
		for i := range bitboard.All(b) {
			if !yield(Square(i)) {
				return
			}
		}
	}
}

// String draws b as 8 rows of 8 characters, row 1 first: 'x' for a square in
// the set and '.' for the others.
func (b Bitboard) String() string { return bitboard.Grid(b, 8, 8, 'x', '.') }

package darkchess

import (
	"iter"

	"github.com/botarena/botarena/internal/bitboard"
)

// Square is a square of the 4x8 board, 4*(rank-1) + file with file a = 0: a1 =
// 0, d1 = 3, a2 = 4, ..., d8 = 31. This is also the legacy socket protocol's
// index; the top-first index of the manual and the MGTP templates (a8 = 0) is
// sq^28. The zero value is [A1]. [NoSquare] stands for no square.
type Square int8

// The 32 squares: the letter is the file a..d from the left, the digit the
// rank 1..8 from the bottom.
const (
	A1 Square = iota
	B1
	C1
	D1
	A2
	B2
	C2
	D2
	A3
	B3
	C3
	D3
	A4
	B4
	C4
	D4
	A5
	B5
	C5
	D5
	A6
	B6
	C6
	D6
	A7
	B7
	C7
	D7
	A8
	B8
	C8
	D8
)

// NoSquare is the value of no square: what [SquareAt] returns off the board.
const NoSquare Square = -1

// SquareAt returns the square on file x (0..3, a..d) and rank y+1 (y 0..7),
// the socket protocol's "x y". It returns [NoSquare] if either is out of range.
func SquareAt(x, y int) Square {
	if x < 0 || x > 3 || y < 0 || y > 7 {
		return NoSquare
	}
	return Square(x + 4*y)
}

// Valid reports whether s is one of the 32 squares.
func (s Square) Valid() bool { return s >= 0 && s < 32 }

// X returns the file of s, 0 (a) to 3 (d).
func (s Square) X() int { return int(s) & 3 }

// Y returns the rank of s minus one, 0 (rank 1) to 7 (rank 8).
func (s Square) Y() int { return int(s) >> 2 }

// Bit returns the bitboard holding only s, or the empty bitboard for an invalid
// square.
func (s Square) Bit() Bitboard {
	if !s.Valid() {
		return 0
	}
	return 1 << uint(s)
}

// String returns the square's name in lower case ("b7"), or "-" for a value
// that is not a square.
func (s Square) String() string {
	if !s.Valid() {
		return "-"
	}
	return string([]byte{'a' + byte(s.X()), '1' + byte(s.Y())})
}

// ParseSquare reads a square name: a file letter a..d and a rank digit 1..8.
// The letter may be upper or lower case.
func ParseSquare(text string) (Square, error) {
	if len(text) != 2 {
		return NoSquare, &SyntaxError{Input: text, Offset: min(len(text), 2), Msg: "a square is a letter a-d and a digit 1-8"}
	}
	s, off, msg := parseSquareAt(text, 0)
	if msg != "" {
		return NoSquare, &SyntaxError{Input: text, Offset: off, Msg: msg}
	}
	return s, nil
}

// parseSquareAt reads the two bytes of a square name at text[i:]; on failure it
// returns the offset of the fault and a message.
func parseSquareAt(text string, i int) (Square, int, string) {
	if i >= len(text) {
		return NoSquare, i, "a square is a letter a-d and a digit 1-8"
	}
	c := text[i] | 0x20
	if c < 'a' || c > 'd' {
		return NoSquare, i, "file must be a letter a-d"
	}
	if i+1 >= len(text) || text[i+1] < '1' || text[i+1] > '8' {
		return NoSquare, i + 1, "rank must be a digit 1-8"
	}
	return Square(c-'a') + 4*Square(text[i+1]-'1'), -1, ""
}

// Bitboard is a set of squares, bit s for square s.
type Bitboard uint32

// Has reports whether s is in b.
func (b Bitboard) Has(s Square) bool { return s.Valid() && b&(1<<uint(s)) != 0 }

// Count returns the number of squares in b.
func (b Bitboard) Count() int { return bitboard.Count(b) }

// Squares yields the squares of b from a1 to d8.
func (b Bitboard) Squares() iter.Seq[Square] {
	return func(yield func(Square) bool) {
		for i := range bitboard.All(b) {
			if !yield(Square(i)) {
				return
			}
		}
	}
}

// String draws b as 8 rows of 4 characters, rank 8 first as on a diagram: 'x'
// for a square in the set and '.' for the others.
func (b Bitboard) String() string {
	// bitboard.Grid draws row 0 first; mirror the ranks so rank 8 comes first.
	var m uint32
	for y := range 8 {
		m |= (uint32(b) >> (4 * y) & 15) << (4 * (7 - y))
	}
	return bitboard.Grid(m, 4, 8, 'x', '.')
}

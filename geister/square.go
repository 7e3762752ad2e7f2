package geister

import (
	"iter"
	"math/bits"

	"github.com/botarena/botarena/internal/bitboard"
)

// Square is a square of the 6x6 board, 6*y + x for column x and row y (both
// 0..5, from the top-left corner of the frame in use). [Position] squares are
// in the first player's frame; [View] squares are in the viewer's own frame
// as it is sent to that player. Two values that are not board squares stand for where a ghost is
// once it has left the board, with the board string's codes: [Captured] (99)
// and [Escaped] (88). [NoSquare] stands for no square at all.
type Square int8

// Square values that are not on the board.
const (
	// NoSquare is the value of no square: what [SquareAt] returns off the
	// board.
	NoSquare Square = -1
	// Escaped is where a ghost that left the board by an escape is; written
	// "88".
	Escaped Square = 88
	// Captured is where a captured ghost is; written "99".
	Captured Square = 99
)

// NumSquares is the number of squares on the board.
const NumSquares = 36

// SquareAt returns the square in column x and row y, both counted from 0 at the
// top-left corner. It returns [NoSquare] if either is outside 0..5.
func SquareAt(x, y int) Square {
	if x < 0 || x > 5 || y < 0 || y > 5 {
		return NoSquare
	}
	return Square(x + 6*y)
}

// Valid reports whether s is one of the 36 board squares.
func (s Square) Valid() bool { return s >= 0 && s < NumSquares }

// X returns the column of s, 0..5 (meaningless off the board).
func (s Square) X() int { return int(s) % 6 }

// Y returns the row of s, 0..5 (meaningless off the board).
func (s Square) Y() int { return int(s) / 6 }

// Rotate returns s as the other player sees it: the board turned by 180
// degrees, (x, y) becoming (5-x, 5-y). [Captured], [Escaped] and [NoSquare]
// are unchanged, as in the board string.
func (s Square) Rotate() Square {
	if !s.Valid() {
		return s
	}
	return NumSquares - 1 - s
}

// Bit returns the bitboard holding only s, or the empty bitboard for a value
// that is not a board square.
func (s Square) Bit() Bitboard {
	if !s.Valid() {
		return 0
	}
	return 1 << uint(s)
}

// String returns the two digits "xy" of the board string ("14" for x=1,
// y=4), "99" for [Captured], "88" for [Escaped], and "-" for any other value
// that is not a square.
func (s Square) String() string {
	switch {
	case s.Valid():
		return string([]byte{'0' + byte(s.X()), '0' + byte(s.Y())})
	case s == Captured:
		return "99"
	case s == Escaped:
		return "88"
	}
	return "-"
}

// ParseSquare reads a board square as [Square.String] writes it: two digits
// 0-5, column then row ("14"). It also accepts the NTPU manual's label x-y
// ("1-4"). It accepts only the 36 board squares, not "99" or "88".
func ParseSquare(text string) (Square, error) {
	y := 1
	switch {
	case len(text) == 3 && text[1] == '-':
		y = 2
	case len(text) != 2:
		return NoSquare, &SyntaxError{Input: text, Offset: min(len(text), 2), Msg: "a square is two digits 0-5, column then row"}
	}
	if text[0] < '0' || text[0] > '5' {
		return NoSquare, &SyntaxError{Input: text, Offset: 0, Msg: "column must be a digit 0-5"}
	}
	if text[y] < '0' || text[y] > '5' {
		return NoSquare, &SyntaxError{Input: text, Offset: y, Msg: "row must be a digit 0-5"}
	}
	return SquareAt(int(text[0]-'0'), int(text[y]-'0')), nil
}

// Bitboard is a set of board squares, bit 6*y+x for the square at column x,
// row y. The upper 28 bits are always zero in the boards this package returns.
type Bitboard uint64

// boardMask holds the 36 board squares.
const boardMask Bitboard = 1<<NumSquares - 1

// Has reports whether s is in b.
func (b Bitboard) Has(s Square) bool { return s.Valid() && b&(1<<uint(s)) != 0 }

// Count returns the number of squares in b.
func (b Bitboard) Count() int { return bitboard.Count(b) }

// Rotate returns b as the other player sees it (see [Square.Rotate]). Bits
// above the board are dropped.
func (b Bitboard) Rotate() Bitboard {
	return Bitboard(bits.Reverse64(uint64(b&boardMask)) >> (64 - NumSquares))
}

// Squares yields the squares of b in increasing order, row 0 first.
func (b Bitboard) Squares() iter.Seq[Square] {
	return func(yield func(Square) bool) {
		for i := range bitboard.All(b & boardMask) {
			if !yield(Square(i)) {
				return
			}
		}
	}
}

// String draws b as 6 rows of 6 characters, row 0 first: 'x' for a square in
// the set and '.' for the others.
func (b Bitboard) String() string { return bitboard.Grid(b&boardMask, 6, 6, 'x', '.') }

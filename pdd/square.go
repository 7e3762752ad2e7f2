package pdd

import (
	"iter"
	"math/bits"
	"strings"
)

// Square is a point of the 10x10 board, 10*y+x for column x and row y (both
// 0..9, from the top-left corner), the numbering of the platform's files.
// [NoSquare] stands for no square.
type Square uint8

// NoSquare is the value of no square: what [SquareAt] returns off the board.
// It is 255, not -1 as in the other games, only because pdd's Square is
// unsigned; test it with == NoSquare or [Square.Valid], never with < 0.
const NoSquare Square = 255

// NumSquares is the number of squares of the board.
const NumSquares = 100

// SquareAt returns the square in column x and row y, both 0..9 from the
// top-left corner. It returns [NoSquare] if either is outside 0..9.
func SquareAt(x, y int) Square {
	if x < 0 || x > 9 || y < 0 || y > 9 {
		return NoSquare
	}
	return Square(x + 10*y)
}

// Valid reports whether s is one of the 100 squares.
func (s Square) Valid() bool { return s < NumSquares }

// X returns the column of s, 0..9 from the left.
func (s Square) X() int { return int(s) % 10 }

// Y returns the row of s, 0..9 from the top.
func (s Square) Y() int { return int(s) / 10 }

// Bit returns the bitboard holding only s, or the empty bitboard for an
// invalid square.
func (s Square) Bit() Bitboard {
	if !s.Valid() {
		return Bitboard{}
	}
	return bit(int(s))
}

// String returns the point "x,y" as stepLog.txt writes it ("2,0"), or "-"
// for a value that is not a square.
func (s Square) String() string {
	if !s.Valid() {
		return "-"
	}
	return string(s.appendText(make([]byte, 0, 3)))
}

func (s Square) appendText(b []byte) []byte {
	return append(b, '0'+byte(s.X()), ',', '0'+byte(s.Y()))
}

// ParseSquare reads a point written "x,y" with one digit each, as stepLog.txt
// writes it: "2,0" is column 2 of the top row.
func ParseSquare(text string) (Square, error) {
	s, off, msg := parseSquare(text, 0)
	if msg != "" {
		return NoSquare, &SyntaxError{Input: text, Offset: off, Msg: msg}
	}
	if len(text) != 3 {
		return NoSquare, &SyntaxError{Input: text, Offset: 3, Msg: "a square is x,y: two digits 0-9 and a comma"}
	}
	return s, nil
}

// parseSquare reads "x,y" at text[i:], reporting the offset and message of a
// fault.
func parseSquare(text string, i int) (Square, int, string) {
	const want = "a square is x,y: two digits 0-9 and a comma"
	if i >= len(text) {
		return NoSquare, i, want
	}
	if c := text[i]; c < '0' || c > '9' {
		return NoSquare, i, "x must be a digit 0-9"
	}
	if i+1 >= len(text) || text[i+1] != ',' {
		return NoSquare, min(i+1, len(text)), want
	}
	if i+2 >= len(text) {
		return NoSquare, i + 2, "y must be a digit 0-9"
	}
	if c := text[i+2]; c < '0' || c > '9' {
		return NoSquare, i + 2, "y must be a digit 0-9"
	}
	return SquareAt(int(text[i]-'0'), int(text[i+2]-'0')), 0, ""
}

// Bitboard is a set of squares: square i is bit i%64 of word i/64. Word 1
// holds squares 64..99 in its bits 0..35; its other bits are always zero.
// The zero value is the empty set.
type Bitboard [2]uint64

// The board masks.
const (
	boardHi   = 0x0000000FFFFFFFFF // word 1 of the whole board
	notCol0Lo = 0xEFFBFEFFBFEFFBFE
	notCol0Hi = 0x0000000FFBFEFFBF
	notCol9Lo = 0xF7FDFF7FDFF7FDFF
	notCol9Hi = 0x00000007FDFF7FDF
)

// board is the set of all 100 squares.
var board = Bitboard{^uint64(0), boardHi}

func bit(i int) Bitboard {
	var b Bitboard
	b[i>>6&1] = 1 << uint(i&63)
	return b
}

// Has reports whether s is in b.
func (b Bitboard) Has(s Square) bool { return s.Valid() && b[s>>6]>>(s&63)&1 != 0 }

// Count returns the number of squares in b.
func (b Bitboard) Count() int { return bits.OnesCount64(b[0]) + bits.OnesCount64(b[1]) }

// IsEmpty reports whether b holds no square.
func (b Bitboard) IsEmpty() bool { return b[0]|b[1] == 0 }

// Union returns the squares in b or c.
func (b Bitboard) Union(c Bitboard) Bitboard { return Bitboard{b[0] | c[0], b[1] | c[1]} }

// Intersect returns the squares in both b and c.
func (b Bitboard) Intersect(c Bitboard) Bitboard { return Bitboard{b[0] & c[0], b[1] & c[1]} }

// Without returns the squares of b that are not in c.
func (b Bitboard) Without(c Bitboard) Bitboard { return Bitboard{b[0] &^ c[0], b[1] &^ c[1]} }

// With returns b plus the square s (b itself if s is not a square).
func (b Bitboard) With(s Square) Bitboard { return b.Union(s.Bit()) }

// Squares yields the squares of b in increasing order, from 0,0 to 9,9 row by
// row.
func (b Bitboard) Squares() iter.Seq[Square] {
	return func(yield func(Square) bool) {
		for w := range 2 {
			for m := b[w]; m != 0; m &= m - 1 {
				s := Square(w<<6 | bits.TrailingZeros64(m))
				if !s.Valid() || !yield(s) {
					return
				}
			}
		}
	}
}

// String draws b as 10 rows of 10 characters, row 0 first: 'x' for a square
// in the set and '.' for the others, each row ending in a newline.
func (b Bitboard) String() string {
	var sb strings.Builder
	sb.Grow(110)
	for s := range Square(NumSquares) {
		if b.Has(s) {
			sb.WriteByte('x')
		} else {
			sb.WriteByte('.')
		}
		if s%10 == 9 {
			sb.WriteByte('\n')
		}
	}
	return sb.String()
}

// squareList names the squares of b, "1,1 2,1 1,2".
func squareList(b Bitboard) string {
	var out []byte
	for s := range b.Squares() {
		if len(out) > 0 {
			out = append(out, ' ')
		}
		out = s.appendText(out)
	}
	return string(out)
}

// Neighbors returns the squares orthogonally next to a square of b. A
// square of b is among them when another square of b is next to it.
func (b Bitboard) Neighbors() Bitboard { return n4(b) }

// Group returns the squares of b orthogonally connected to s through squares
// of b, s included; the empty set if s is not in b.
func (b Bitboard) Group(s Square) Bitboard {
	if !b.Has(s) {
		return Bitboard{}
	}
	return fullGroup(b, s)
}

// Two-word shifts, kept inside the board.

// shl shifts toward higher squares by n (0 < n < 64).
func shl(b Bitboard, n uint) Bitboard {
	return Bitboard{b[0] << n, (b[1]<<n | b[0]>>(64-n)) & boardHi}
}

// shr shifts toward lower squares by n (0 < n < 64).
func shr(b Bitboard, n uint) Bitboard {
	return Bitboard{b[0]>>n | b[1]<<(64-n), b[1] >> n}
}

// n4 returns the squares orthogonally next to a square of b (b itself
// excluded only where no neighbour lies in b).
func n4(b Bitboard) Bitboard {
	e := Bitboard{b[0] & notCol9Lo, b[1] & notCol9Hi}
	w := Bitboard{b[0] & notCol0Lo, b[1] & notCol0Hi}
	return shl(e, 1).Union(shr(w, 1)).Union(shl(b, 10)).Union(shr(b, 10))
}

// n8 returns the squares a king's step from a square of b.
func n8(b Bitboard) Bitboard {
	e := Bitboard{b[0] & notCol9Lo, b[1] & notCol9Hi}
	w := Bitboard{b[0] & notCol0Lo, b[1] & notCol0Hi}
	h := b.Union(shl(e, 1)).Union(shr(w, 1)) // b and its row neighbours
	return shl(h, 10).Union(shr(h, 10)).Union(shl(e, 1)).Union(shr(w, 1))
}

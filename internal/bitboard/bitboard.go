package bitboard

import (
	"iter"
	"math/bits"
	"strings"

	"golang.org/x/exp/constraints"
)

// Count returns the number of set bits in b.
func Count[B constraints.Unsigned](b B) int {
	return bits.OnesCount64(uint64(b))
}

// First returns the index of the lowest set bit of b, or -1 if b is empty.
func First[B constraints.Unsigned](b B) int {
	if b == 0 {
		return -1
	}
	return bits.TrailingZeros64(uint64(b))
}

// Last returns the index of the highest set bit of b, or -1 if b is empty.
func Last[B constraints.Unsigned](b B) int {
	return 63 - bits.LeadingZeros64(uint64(b))
}

// PopFirst returns the index of the lowest set bit of b and b without that bit.
// It returns -1 and 0 if b is empty.
func PopFirst[B constraints.Unsigned](b B) (int, B) {
	if b == 0 {
		return -1, 0
	}
	return bits.TrailingZeros64(uint64(b)), b & (b - 1)
}

// Has reports whether bit i of b is set. An index outside the word reports false.
func Has[B constraints.Unsigned](b B, i int) bool {
	if i < 0 || i >= 64 {
		return false
	}
	return uint64(b)>>uint(i)&1 != 0
}

// Bit returns the bitboard with only bit i set, or 0 if i is outside the word.
func Bit[B constraints.Unsigned](i int) B {
	if i < 0 || i >= 64 {
		return 0
	}
	return B(1) << uint(i)
}

// All yields the indices of the set bits of b in increasing order.
func All[B constraints.Unsigned](b B) iter.Seq[int] {
	return func(yield func(int) bool) {
		for b != 0 {
			if !yield(bits.TrailingZeros64(uint64(b))) {
				return
			}
			b &= b - 1
		}
	}
}

// Grid draws b as a width x height grid, row 0 first, with bit x+width*y at
// column x of row y. Set bits are drawn as set and clear ones as clear; each
// row ends with a newline.
func Grid[B constraints.Unsigned](b B, width, height int, set, clear byte) string {
	if width <= 0 || height <= 0 {
		return ""
	}
	var sb strings.Builder
	sb.Grow((width + 1) * height)
	for y := range height {
		for x := range width {
			if Has(b, x+width*y) {
				sb.WriteByte(set)
			} else {
				sb.WriteByte(clear)
			}
		}
		sb.WriteByte('\n')
	}
	return sb.String()
}

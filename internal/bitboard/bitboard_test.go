package bitboard_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/botarena/botarena/internal/bitboard"
	"pgregory.net/rapid"
)

// naiveBits lists the set bits of b by testing each bit in turn.
func naiveBits(b uint64) []int {
	var out []int
	for i := range 64 {
		if b>>i&1 == 1 {
			out = append(out, i)
		}
	}
	return out
}

func TestAgainstNaive64(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		b := rapid.Uint64().Draw(t, "b")
		want := naiveBits(b)
		if got := slices.Collect(bitboard.All(b)); !slices.Equal(got, want) {
			t.Fatalf("All(%#x) = %v, want %v", b, got, want)
		}
		if got := bitboard.Count(b); got != len(want) {
			t.Fatalf("Count(%#x) = %d, want %d", b, got, len(want))
		}
		first, last := -1, -1
		if len(want) > 0 {
			first, last = want[0], want[len(want)-1]
		}
		if got := bitboard.First(b); got != first {
			t.Fatalf("First(%#x) = %d, want %d", b, got, first)
		}
		if got := bitboard.Last(b); got != last {
			t.Fatalf("Last(%#x) = %d, want %d", b, got, last)
		}
		i, rest := bitboard.PopFirst(b)
		if i != first || (b != 0 && rest != b&^(1<<uint(first))) || (b == 0 && rest != 0) {
			t.Fatalf("PopFirst(%#x) = %d, %#x", b, i, rest)
		}
		for j := -1; j <= 64; j++ {
			if got, want := bitboard.Has(b, j), slices.Contains(want, j); got != want {
				t.Fatalf("Has(%#x, %d) = %v, want %v", b, j, got, want)
			}
		}
	})
}

func TestAgainstNaive32(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		b := rapid.Uint32().Draw(t, "b")
		want := naiveBits(uint64(b))
		if got := slices.Collect(bitboard.All(b)); !slices.Equal(got, want) {
			t.Fatalf("All(%#x) = %v, want %v", b, got, want)
		}
		if got := bitboard.Count(b); got != len(want) {
			t.Fatalf("Count(%#x) = %d, want %d", b, got, len(want))
		}
		if bitboard.Bit[uint32](31) != 1<<31 || bitboard.Bit[uint32](32) != 0 || bitboard.Bit[uint32](-1) != 0 {
			t.Fatal("Bit[uint32] out of range")
		}
	})
}

func TestAllStopsEarly(t *testing.T) {
	n := 0
	for range bitboard.All(uint64(0xFF)) {
		n++
		if n == 3 {
			break
		}
	}
	if n != 3 {
		t.Fatalf("iterated %d times, want 3", n)
	}
}

func ExampleGrid() {
	fmt.Print(bitboard.Grid(uint32(0b1001_0110), 4, 2, 'x', '.'))
	// Output:
	// .xx.
	// x..x
}

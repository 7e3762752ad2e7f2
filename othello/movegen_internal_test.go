package othello

import (
	"math/bits"
	"math/rand/v2"
	"testing"
)

// naiveFlips walks the eight directions square by square.
func naiveFlips(sq int, P, O uint64) uint64 {
	var f uint64
	for _, d := range [8][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {1, -1}, {-1, 1}, {-1, -1}} {
		x, y := sq&7+d[0], sq>>3+d[1]
		var run uint64
		for x >= 0 && x < 8 && y >= 0 && y < 8 && O>>uint(x+8*y)&1 != 0 {
			run |= 1 << uint(x+8*y)
			x, y = x+d[0], y+d[1]
		}
		if x >= 0 && x < 8 && y >= 0 && y < 8 && P>>uint(x+8*y)&1 != 0 {
			f |= run
		}
	}
	return f
}

func naiveMoves(P, O uint64) uint64 {
	var m uint64
	for sq := range 64 {
		if (P|O)>>uint(sq)&1 == 0 && naiveFlips(sq, P, O) != 0 {
			m |= 1 << uint(sq)
		}
	}
	return m
}

// naivePerft1 is perft(p, 1) for (P to move, O) on area.
func naivePerft1(P, O, area uint64, bik bool) uint64 {
	if m := naiveMoves(P, O) & area; m != 0 {
		return uint64(bits.OnesCount64(m))
	}
	if bik || naiveMoves(O, P)&area != 0 {
		return 1
	}
	return 0
}

// randomBoards returns n disjoint (P, O) pairs of mixed densities on area,
// and a few with runs of O right up to the edges and corners.
func randomBoards(n int, area uint64) [][2]uint64 {
	r := rand.New(rand.NewPCG(5, 6))
	out := [][2]uint64{
		{0, 0},
		{1, ^uint64(1) &^ (1 << 63)},
		{1 << 63, ^uint64(1<<63) &^ 1},
		{1 | 1<<63, 0x7EFFFFFFFFFFFF7E},
		{0x8100000000000081, 0x007E7E7E7E7E7E00},
	}
	for i := range out {
		out[i][0] &= area
		out[i][1] &= area
	}
	for len(out) < n {
		occ := r.Uint64() & r.Uint64()
		if r.IntN(2) == 0 {
			occ |= r.Uint64()
		}
		P := occ & r.Uint64()
		O := occ &^ P
		if r.IntN(3) == 0 { // mostly O: long runs
			np := P & r.Uint64() & r.Uint64()
			P, O = np, O|P&^np
		}
		if P&O != 0 {
			panic("overlap")
		}
		out = append(out, [2]uint64{P & area, O & area})
	}
	return out
}

func TestFlipsAndMovesAgainstNaive(t *testing.T) {
	for _, b := range randomBoards(20000, mask8x8) {
		P, O := b[0], b[1]
		if got, want := legalMoves(P, O), naiveMoves(P, O); got != want {
			t.Fatalf("legalMoves(%#x, %#x) = %#x, want %#x", P, O, got, want)
		}
		for sq := range 64 {
			if (P|O)>>uint(sq)&1 != 0 {
				continue
			}
			if got, want := flips(sq, P, O), naiveFlips(sq, P, O); got != want {
				t.Fatalf("flips(%d, %#x, %#x) = %#x, want %#x", sq, P, O, got, want)
			}
		}
	}
}

// TestLeaves checks the perft inner loop, with its inlined copies of flips and
// movegen.Gen, against the naive count on both boards and in both conventions.
func TestLeaves(t *testing.T) {
	for _, area := range []uint64{mask8x8, mask6x6} {
		for _, b := range randomBoards(3000, area) {
			P, O := b[0], b[1]
			moves := legalMoves(P, O) & area
			for _, bik := range []bool{false, true} {
				var want uint64
				for m := moves; m != 0; m &= m - 1 {
					sq := bits.TrailingZeros64(m)
					f := naiveFlips(sq, P, O)
					want += naivePerft1(O^f, P|f|1<<uint(sq), area, bik)
				}
				if got := leaves(P, O, moves, area, innerCols, bik); got != want {
					t.Fatalf("leaves(%#x, %#x, area %#x, bik %v) = %d, want %d", P, O, area, bik, got, want)
				}
			}
		}
	}
}

package othello

import "math/bits"

// The board masks. Squares off the 6x6 board (b2..g7) are never playable there;
// runs of discs stop at them because they are always empty.
const (
	mask8x8   = 0xFFFFFFFFFFFFFFFF
	mask6x6   = 0x007E7E7E7E7E7E00
	innerCols = 0x7E7E7E7E7E7E7E7E // columns b..g: stops wrap-around on horizontal shifts
)

// dirMoves returns the empty-or-not squares that end a run of mask squares
// starting next to a P disc, in direction +dir and -dir (Edax's 1-stage
// parallel prefix).
func dirMoves(P, mask uint64, dir uint) uint64 {
	fl := mask & (P << dir)
	fr := mask & (P >> dir)
	fl |= mask & (fl << dir)
	fr |= mask & (fr >> dir)
	ml := mask & (mask << dir)
	mr := mask & (mask >> dir)
	d2 := dir + dir
	fl |= ml & (fl << d2)
	fr |= mr & (fr >> d2)
	fl |= ml & (fl << d2)
	fr |= mr & (fr >> d2)
	return (fl << dir) | (fr >> dir)
}

// legalMoves returns the squares where P may place a disc against O on the
// 8x8 board.
func legalMoves(P, O uint64) uint64 {
	mO := O & innerCols
	m := dirMoves(P, mO, 1) | dirMoves(P, O, 8) | dirMoves(P, mO, 7) | dirMoves(P, mO, 9)
	return m &^ (P | O)
}

// rays[sq][d] holds the squares strictly beyond sq in direction d, to the
// board's edge. Directions 0..3 go toward higher bit indices (+1, +7, +8,
// +9), 4..7 toward lower ones (-1, -7, -8, -9).
var rays = func() (r [64][8]uint64) {
	dx := [8]int{1, -1, 0, 1, -1, 1, 0, -1}
	dy := [8]int{0, 1, 1, 1, 0, -1, -1, -1}
	for sq := range 64 {
		for d := range 8 {
			x, y := sq&7+dx[d], sq>>3+dy[d]
			for x >= 0 && x < 8 && y >= 0 && y < 8 {
				r[sq][d] |= 1 << uint(x+8*y)
				x, y = x+dx[d], y+dy[d]
			}
		}
	}
	return r
}()

// flips returns the discs of O that turn when P places a disc on sq. It is
// zero exactly when the placement flips nothing (and so is illegal, if sq
// is empty).
func flips(sq int, P, O uint64) uint64 {
	r := &rays[sq&63]
	var f uint64
	for d := range 4 {
		// Toward higher indices: every square off the ray is set, so adding
		// the ray's first bit carries through the run of O discs and stops
		// at the first square that is not O.
		ray := r[d]
		out := ((O | ^ray) + (ray & -ray)) & ray & P
		t := out - 1
		f |= t & ray &^ uint64(int64(t)>>63)
	}
	for d := 4; d < 8; d++ {
		// Toward lower indices: the highest non-O square of the ray.
		ray := r[d]
		top := (uint64(1) << 63) >> uint(bits.LeadingZeros64(ray&^O))
		out := top & P
		f |= ray & -(out << 1)
	}
	return f
}

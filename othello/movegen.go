package othello

import "math/bits"

// The board masks. Squares off the 6x6 board (b2..g7) are never playable there;
// runs of discs stop at them because they are always empty.
const (
	mask8x8   = 0xFFFFFFFFFFFFFFFF
	mask6x6   = 0x007E7E7E7E7E7E00
	innerCols = 0x7E7E7E7E7E7E7E7E // columns b..g: stops wrap-around on horizontal shifts
)

// legalMoves returns the squares where P may place a disc against O on the
// 8x8 board.
func legalMoves(P, O uint64) uint64 { return moveGen(P, O, innerCols) }

// moveGen is legalMoves; inner must be innerCols. Taking the mask as a
// parameter, in a function too big to inline, keeps it out of the compiler's
// sight: with a constant mask, the compiler rewrites each (O&mask)&x as
// O&(mask&x)... and spends two ANDs on every use of O&mask. perft's leaves
// repeats this body, as the compiler does not inline it.
func moveGen(P, O, inner uint64) uint64 {
	mO := O & inner
	p8, p7, p9 := O&(O<<8), mO&(mO<<7), mO&(mO<<9)
	return (eastMoves(P, mO) | westMoves(P, mO) |
		upMoves(P, O, p8, 8) | downMoves(P, O, p8, 8) |
		upMoves(P, mO, p7, 7) | downMoves(P, mO, p7, 7) |
		upMoves(P, mO, p9, 9) | downMoves(P, mO, p9, 9)) &^ (P | O)
}

// The direction helpers below are small enough to inline, so their shift
// counts become constants. Each returns the squares that end a run of
// opponent discs which starts next to a P disc, in one direction; the
// result may also hold squares of P and O, which the caller masks off.

// eastMoves covers east (+1). Adding the run's first disc carries through
// the run and lands on the square after it. mO must hold no disc on the a
// and h files, so that no run wraps to another row.
func eastMoves(P, mO uint64) uint64 { return mO + (mO & (P << 1)) }

// westMoves covers west (-1) by Edax's 1-stage parallel prefix: two single
// steps fill runs up to 2 long, then two double steps through pairs of mO
// discs fill them up to 6, the longest a run can be.
func westMoves(P, mO uint64) uint64 {
	f := mO & (P >> 1)
	f |= mO & (f >> 1)
	pairs := mO & (mO >> 1)
	f |= pairs & (f >> 2)
	f |= pairs & (f >> 2)
	return f >> 1
}

// upMoves covers +dir (7, 8 or 9) like westMoves. mask is the opponent's
// discs, without the a and h files unless dir is 8, and pairs is
// mask&(mask<<dir): the mask discs whose neighbour at -dir is one too.
func upMoves(P, mask, pairs uint64, dir uint) uint64 {
	f := mask & (P << dir)
	f |= mask & (f << dir)
	f |= pairs & (f << (2 * dir))
	f |= pairs & (f << (2 * dir))
	return f << dir
}

// downMoves covers -dir like upMoves, with the same pairs (shifted back, it
// is mask&(mask>>dir)).
func downMoves(P, mask, pairs uint64, dir uint) uint64 {
	f := mask & (P >> dir)
	f |= mask & (f >> dir)
	pairs >>= dir
	f |= pairs & (f >> (2 * dir))
	f |= pairs & (f >> (2 * dir))
	return f >> dir
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
// is empty). perft's leaves repeats this body.
func flips(sq int, P, O uint64) uint64 {
	r := &rays[sq&63]
	b := uint64(1) << uint(sq&63)
	return flipUp(r[0], b<<1, P, O) | flipUp(r[1], b<<7, P, O) |
		flipUp(r[2], b<<8, P, O) | flipUp(r[3], b<<9, P, O) |
		flipDown(r[4], P, O) | flipDown(r[5], P, O) |
		flipDown(r[6], P, O) | flipDown(r[7], P, O)
}

// flipUp returns the discs that turn along ray, a ray toward higher bit
// indices whose first square is first (or any square, if ray is empty).
// Every square off the ray is set in O|^ray, so adding first carries
// through the run of O discs and stops on the first square of the ray that
// is not O: the outflank, if it holds a P disc.
func flipUp(ray, first, P, O uint64) uint64 {
	out := ((O | ^ray) + first) & ray & P
	t := out - 1 // all ones when there is no outflank
	return t & ray &^ uint64(int64(t)>>63)
}

// flipDown returns the discs that turn along ray, a ray toward lower bit
// indices. The outflank candidate is the highest square of the ray that is
// not O. When there is none, the shift count wraps to 63: bit 63 is on no
// downward ray, and out<<1 shifts it away.
func flipDown(ray, P, O uint64) uint64 {
	top := uint64(1) << (uint(bits.Len64(ray&^O)-1) & 63)
	out := top & P
	return ray & -(out << 1)
}

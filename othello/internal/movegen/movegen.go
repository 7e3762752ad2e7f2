package movegen

import "math/bits"

// The masks of the board's columns.
const (
	// InnerCols is columns b..g: it stops runs wrapping around a row on
	// horizontal and diagonal shifts.
	InnerCols = 0x7E7E7E7E7E7E7E7E
	// NotAFile is every square but column a's.
	NotAFile = 0xFEFEFEFEFEFEFEFE
	// NotHFile is every square but column h's.
	NotHFile = 0x7F7F7F7F7F7F7F7F
)

// Legal returns the squares where P may place a disc against O on the 8x8
// board.
func Legal(P, O uint64) uint64 { return Gen(P, O, InnerCols) }

// Gen is Legal; inner must be InnerCols. Taking the mask as a
// parameter, in a function too big to inline, keeps it out of the compiler's
// sight: with a constant mask, the compiler rewrites each (O&mask)&x as
// O&(mask&x)... and spends two ANDs on every use of O&mask. perft's leaves
// (package othello) repeats this body, as the compiler does not inline it.
func Gen(P, O, inner uint64) uint64 {
	mO := O & inner
	p8, p7, p9 := O&(O<<8), mO&(mO<<7), mO&(mO<<9)
	return (East(P, mO) | West(P, mO) |
		Up(P, O, p8, 8) | Down(P, O, p8, 8) |
		Up(P, mO, p7, 7) | Down(P, mO, p7, 7) |
		Up(P, mO, p9, 9) | Down(P, mO, p9, 9)) &^ (P | O)
}

// The direction helpers below are small enough to inline, so their shift
// counts become constants. Each returns the squares that end a run of
// opponent discs which starts next to a P disc, in one direction; the
// result may also hold squares of P and O, which the caller masks off.

// East covers east (+1). Adding the run's first disc carries through
// the run and lands on the square after it. mO must hold no disc on the a
// and h files, so that no run wraps to another row.
func East(P, mO uint64) uint64 { return mO + (mO & (P << 1)) }

// West covers west (-1) by Edax's 1-stage parallel prefix: two single
// steps fill runs up to 2 long, then two double steps through pairs of mO
// discs fill them up to 6, the longest a run can be.
func West(P, mO uint64) uint64 {
	f := mO & (P >> 1)
	f |= mO & (f >> 1)
	pairs := mO & (mO >> 1)
	f |= pairs & (f >> 2)
	f |= pairs & (f >> 2)
	return f >> 1
}

// Up covers +dir (7, 8 or 9) like West. mask is the opponent's
// discs, without the a and h files unless dir is 8, and pairs is
// mask&(mask<<dir): the mask discs whose neighbour at -dir is one too.
func Up(P, mask, pairs uint64, dir uint) uint64 {
	f := mask & (P << dir)
	f |= mask & (f << dir)
	f |= pairs & (f << (2 * dir))
	f |= pairs & (f << (2 * dir))
	return f << dir
}

// Down covers -dir like Up, with the same pairs (shifted back, it
// is mask&(mask>>dir)).
func Down(P, mask, pairs uint64, dir uint) uint64 {
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

// Rays returns the rays of sq (0..63): Rays(sq)[d] holds the squares
// strictly beyond sq in direction d, as rays. The caller must not change
// them.
func Rays(sq int) *[8]uint64 { return &rays[sq&63] }

// Flips returns the discs of O that turn when P places a disc on sq. It is
// zero exactly when the placement flips nothing (and so is illegal, if sq
// is empty). perft's leaves (package othello) repeats this body.
func Flips(sq int, P, O uint64) uint64 {
	r := &rays[sq&63]
	b := uint64(1) << uint(sq&63)
	return FlipUp(r[0], b<<1, P, O) | FlipUp(r[1], b<<7, P, O) |
		FlipUp(r[2], b<<8, P, O) | FlipUp(r[3], b<<9, P, O) |
		FlipDown(r[4], P, O) | FlipDown(r[5], P, O) |
		FlipDown(r[6], P, O) | FlipDown(r[7], P, O)
}

// FlipUp returns the discs that turn along ray, a ray toward higher bit
// indices whose first square is first (or any square, if ray is empty).
// Every square off the ray is set in O|^ray, so adding first carries
// through the run of O discs and stops on the first square of the ray that
// is not O: the outflank, if it holds a P disc.
func FlipUp(ray, first, P, O uint64) uint64 {
	out := ((O | ^ray) + first) & ray & P
	t := out - 1 // all ones when there is no outflank
	return t & ray &^ uint64(int64(t)>>63)
}

// FlipDown returns the discs that turn along ray, a ray toward lower bit
// indices. The outflank candidate is the highest square of the ray that is
// not O. When there is none, the shift count wraps to 63: bit 63 is on no
// downward ray, and out<<1 shifts it away.
func FlipDown(ray, P, O uint64) uint64 {
	top := uint64(1) << (uint(bits.Len64(ray&^O)-1) & 63)
	out := top & P
	return ray & -(out << 1)
}

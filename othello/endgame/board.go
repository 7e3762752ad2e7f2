package endgame

import "math/bits"

// The bitboard primitives below are the othello package's, copied so that
// the solver's hot code is its own: bit x+8y stands for the square in
// column x and row y, P holds the discs of the side to move and O the
// opponent's.

const (
	innerCols = 0x7E7E7E7E7E7E7E7E // columns b..g: stops wrap-around on horizontal shifts
	notAFile  = 0xFEFEFEFEFEFEFEFE
	notHFile  = 0x7F7F7F7F7F7F7F7F
	corners   = 0x8100000000000081
)

// moveGen returns the squares where P may place a disc against O; inner
// must be innerCols (a parameter, so that the compiler does not fold the
// mask into every use of O).
func moveGen(P, O, inner uint64) uint64 {
	mO := O & inner
	p8, p7, p9 := O&(O<<8), mO&(mO<<7), mO&(mO<<9)
	return (eastMoves(P, mO) | westMoves(P, mO) |
		upMoves(P, O, p8, 8) | downMoves(P, O, p8, 8) |
		upMoves(P, mO, p7, 7) | downMoves(P, mO, p7, 7) |
		upMoves(P, mO, p9, 9) | downMoves(P, mO, p9, 9)) &^ (P | O)
}

// legalMoves returns the squares where P may place a disc against O.
func legalMoves(P, O uint64) uint64 { return moveGen(P, O, innerCols) }

func eastMoves(P, mO uint64) uint64 { return mO + (mO & (P << 1)) }

func westMoves(P, mO uint64) uint64 {
	f := mO & (P >> 1)
	f |= mO & (f >> 1)
	pairs := mO & (mO >> 1)
	f |= pairs & (f >> 2)
	f |= pairs & (f >> 2)
	return f >> 1
}

func upMoves(P, mask, pairs uint64, dir uint) uint64 {
	f := mask & (P << dir)
	f |= mask & (f << dir)
	f |= pairs & (f << (2 * dir))
	f |= pairs & (f << (2 * dir))
	return f << dir
}

func downMoves(P, mask, pairs uint64, dir uint) uint64 {
	f := mask & (P >> dir)
	f |= mask & (f >> dir)
	pairs >>= dir
	f |= pairs & (f >> (2 * dir))
	f |= pairs & (f >> (2 * dir))
	return f >> dir
}

// rays[sq][d] holds the squares strictly beyond sq in direction d, to the
// board's edge: directions 0..3 toward higher bit indices (+1, +7, +8,
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

// flips returns the discs of O that turn when P places a disc on sq: zero
// exactly when the placement flips nothing.
func flips(sq int, P, O uint64) uint64 {
	r := &rays[sq&63]
	b := uint64(1) << uint(sq&63)
	return flipUp(r[0], b<<1, P, O) | flipUp(r[1], b<<7, P, O) |
		flipUp(r[2], b<<8, P, O) | flipUp(r[3], b<<9, P, O) |
		flipDown(r[4], P, O) | flipDown(r[5], P, O) |
		flipDown(r[6], P, O) | flipDown(r[7], P, O)
}

func flipUp(ray, first, P, O uint64) uint64 {
	out := ((O | ^ray) + first) & ray & P
	t := out - 1
	return t & ray &^ uint64(int64(t)>>63)
}

func flipDown(ray, P, O uint64) uint64 {
	top := uint64(1) << (uint(bits.Len64(ray&^O)-1) & 63)
	out := top & P
	return ray & -(out << 1)
}

// finalScore is the score of a finished game for P: the disc difference,
// the empty squares going to the winner.
func finalScore(P, O uint64) int {
	p, o := bits.OnesCount64(P), bits.OnesCount64(O)
	d := p - o
	switch {
	case d > 0:
		d += 64 - p - o
	case d < 0:
		d -= 64 - p - o
	}
	return d
}

// quadrant[sq] is the bit of sq's quadrant (a1-d4 1, e1-h4 2, a5-d8 4,
// e5-h8 8), for the parity of the empty squares in each.
var quadrant = func() (q [64]uint8) {
	for sq := range 64 {
		q[sq] = 1 << (sq&7/4 + 2*(sq/32))
	}
	return q
}()

// quadrantMask[b] is the squares of the quadrants set in the 4-bit set b.
var quadrantMask = func() (m [16]uint64) {
	for b := range 16 {
		for sq := range 64 {
			if int(quadrant[sq])&b != 0 {
				m[b] |= 1 << uint(sq)
			}
		}
	}
	return m
}()

// parityOf returns the set of quadrants holding an odd number of the
// squares of e.
func parityOf(e uint64) uint {
	var p uint
	for i := range 4 {
		p |= uint(bits.OnesCount64(e&quadrantMask[1<<i])&1) << i
	}
	return p
}

// rank[sq] orders squares for shallow searches, most promising first:
// corners, then the squares next to the centre's diagonals, the A and B
// squares of the edges, the inner squares, the C squares and last the X
// squares (the order Edax presorts its empty squares in).
var rank = func() (r [64]uint8) {
	order := []string{
		"a1", "a8", "h1", "h8",
		"c4", "c5", "d3", "d6", "e3", "e6", "f4", "f5",
		"c3", "c6", "f3", "f6",
		"a3", "a6", "c1", "c8", "f1", "f8", "h3", "h6",
		"a4", "a5", "d1", "d8", "e1", "e8", "h4", "h5",
		"b4", "b5", "d2", "d7", "e2", "e7", "g4", "g5",
		"b3", "b6", "c2", "c7", "f2", "f7", "g3", "g6",
		"a2", "a7", "b1", "b8", "g1", "g8", "h2", "h7",
		"b2", "b7", "g2", "g7",
		"d4", "e4", "d5", "e5",
	}
	for i, s := range order {
		r[int(s[0]-'a')+8*int(s[1]-'1')] = uint8(i)
	}
	return r
}()

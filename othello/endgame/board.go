package endgame

import (
	"math/bits"

	"github.com/botarena/botarena/othello/internal/movegen"
)

// The board's masks and move generator are package movegen's, which
// package othello shares: bit x+8y stands for the square in column x and
// row y, P holds the discs of the side to move and O the opponent's.
const (
	innerCols = movegen.InnerCols
	notAFile  = movegen.NotAFile
	notHFile  = movegen.NotHFile
	corners   = 0x8100000000000081
)

// legalMoves returns the squares where P may place a disc against O.
func legalMoves(P, O uint64) uint64 { return movegen.Legal(P, O) }

// flips returns the discs of O that turn when P places a disc on sq: zero
// exactly when the placement flips nothing.
func flips(sq int, P, O uint64) uint64 { return movegen.Flips(sq, P, O) }

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

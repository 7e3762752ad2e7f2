package endgame

import "math/bits"

// edgeStable[p][o] is the set of p's discs on an edge (8 squares, p and o
// disjoint) that no sequence of placements on that edge can turn. A disc
// on an edge turns only along the edge, so these discs are stable.
//
// A disc of p is stable when it stays p's, and stable, after either side
// places a disc on any empty square (even one that turns nothing): the
// table is filled from the full edges up, each entry from the entries of
// one empty square fewer.
var edgeStable = func() *[256][256]uint8 {
	t := new([256][256]uint8)
	for empties := range 9 {
		for p := range 256 {
			for o := range 256 {
				e := ^(p | o) & 0xFF
				if p&o != 0 || bits.OnesCount8(uint8(e)) != empties {
					continue
				}
				stable := p
				for x := 0; x < 8 && stable != 0; x++ {
					if e&(1<<x) == 0 {
						continue
					}
					np, no := edgePlay(p, o, x)
					stable &= int(t[np][no])
					no, np = edgePlay(o, p, x)
					stable &= int(t[np][no])
				}
				t[p][o] = uint8(stable)
			}
		}
	}
	return t
}()

// edgePlay places a disc of p on x of an edge and turns what it encloses.
func edgePlay(p, o, x int) (int, int) {
	p |= 1 << x
	for _, d := range [2]int{-1, 1} {
		y := x + d
		for y >= 0 && y < 8 && o&(1<<y) != 0 {
			y += d
		}
		if y >= 0 && y < 8 && p&(1<<y) != 0 {
			for z := x + d; z != y; z += d {
				p |= 1 << z
				o &^= 1 << z
			}
		}
	}
	return p, o
}

// packA gathers the a file (bits 0, 8, ..., 56) into a byte, a1 lowest.
func packA(b uint64) int {
	return int(((b & 0x0101010101010101) * 0x0102040810204080) >> 56)
}

// packH gathers the h file into a byte, h1 lowest.
func packH(b uint64) int {
	return int(((b & 0x8080808080808080) >> 7 * 0x0102040810204080) >> 56)
}

// unpackA[x] spreads the byte x over the a file, the inverse of packA.
var unpackA = func() (t [256]uint64) {
	for x := range 256 {
		for i := range 8 {
			if x&(1<<i) != 0 {
				t[x] |= 1 << (8 * i)
			}
		}
	}
	return t
}()

// stableEdges returns P's discs on the four edges that are stable.
func stableEdges(P, O uint64) uint64 {
	s := uint64(edgeStable[P&0xFF][O&0xFF])
	s |= uint64(edgeStable[P>>56][O>>56]) << 56
	s |= unpackA[edgeStable[packA(P)][packA(O)]]
	s |= unpackA[edgeStable[packH(P)][packH(O)]] << 7
	return s
}

// fullLines returns, for each of the four line directions (horizontal,
// vertical, and the two diagonals), the squares whose line in that
// direction is full.
func fullLines(filled uint64) (h, v, d7, d9 uint64) {
	x := filled
	x &= x >> 4
	x &= x >> 2
	x &= x >> 1
	h = (x & 0x0101010101010101) * 0xFF

	y := filled
	y &= y >> 32
	y &= y >> 16
	y &= y >> 8
	v = (y & 0xFF) * 0x0101010101010101

	e7, e9 := ^filled, ^filled
	for range 7 {
		e7 |= (e7<<7)&notHFile | (e7>>7)&notAFile
		e9 |= (e9<<9)&notAFile | (e9>>9)&notHFile
	}
	return h, v, ^e7, ^e9
}

// stableCount returns a lower bound of the number of P's discs that O can
// never turn: those on stable edges, those whose four lines are full, and
// those held by stable neighbours of their own colour along every line.
func stableCount(P, O uint64) int {
	filled := P | O
	h, v, d7, d9 := fullLines(filled)
	stable := stableEdges(P, O) | h&v&d7&d9&P
	if stable == 0 {
		return 0
	}
	central := P & 0x007E7E7E7E7E7E00
	for {
		old := stable
		sh := stable>>1 | stable<<1 | h
		sv := stable>>8 | stable<<8 | v
		s7 := stable>>7 | stable<<7 | d7
		s9 := stable>>9 | stable<<9 | d9
		stable |= sh & sv & s7 & s9 & central
		if stable == old {
			return bits.OnesCount64(stable)
		}
	}
}

// stabilityThreshold[n] is the least alpha at which a null-window search
// with n empty squares tries the stability cut-off: below it the bound
// seldom cuts and costs more than it saves (Edax's values).
var stabilityThreshold = [...]int{
	99, 99, 99, 99, 6, 8, 10, 12, 14, 16, 20, 22, 24, 26, 28, 30,
	32, 34, 36, 38, 40, 42, 44, 46, 48, 48, 50, 50, 52, 52, 54, 54,
	56, 56, 58, 58, 60, 60, 62, 62, 64, 64, 64, 64, 64, 64, 64, 64,
	64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64,
}

package darkchess

import "math/bits"

// MaxMoves is the buffer capacity with which [Position.AppendLegalMoves] never
// allocates and takes its fastest path. No position has more legal moves: a
// side has at most 16 revealed pieces, each with at most 4 steps or captures
// and a cannon with at most 4 jumps more, and every other square may be
// face-down (a flip each), so at most 16*4 + 2*4 + 16 = 88.
const MaxMoves = 128

// Board geometry. Steps are shifts by 1 (east/west) and 4 (north/south);
// east and west steps must not wrap from one rank into the next.
const (
	notFileA = 0xEEEEEEEE
	notFileD = 0x77777777
)

// neighbours returns the squares one step N, E, S or W of the squares of b.
func neighbours(b uint32) uint32 {
	return b<<4 | b>>4 | (b<<1)&notFileA | (b>>1)&notFileD
}

// adjacent[s] holds the squares one step from s.
var adjacent = func() (a [32]uint32) {
	for s := range 32 {
		a[s] = neighbours(1 << s)
	}
	return a
}()

// jumpTargets scans a line of n cells from position pos in both directions
// over the occupancy occ (bit i for cell i) and returns the cells a cannon at
// pos could capture on: for each direction, the first occupied cell beyond
// the first occupied one (the screen).
func jumpTargets(pos, n int, occ uint32) uint32 {
	var t uint32
	for _, d := range [2]int{1, -1} {
		screen := false
		for i := pos + d; i >= 0 && i < n; i += d {
			if occ>>i&1 == 0 {
				continue
			}
			if screen {
				t |= 1 << i
				break
			}
			screen = true
		}
	}
	return t
}

// rankJumps[x][o] is the cannon targets, as bits 0..3 (files a..d), of a cannon
// on file x of a rank whose occupancy is o (bit f for file f).
var rankJumps = func() (t [4][16]uint8) {
	for x := range 4 {
		for o := range 16 {
			t[x][o] = uint8(jumpTargets(x, 4, uint32(o)))
		}
	}
	return t
}()

// fileJumps[y][o] is the cannon targets, as squares of file a (bits 0, 4, ...,
// 28), of a cannon on rank y+1 of a file whose occupancy is o (bit r for rank
// r+1).
var fileJumps = func() (t [8][256]uint32) {
	for y := range 8 {
		for o := range 256 {
			j := jumpTargets(y, 8, uint32(o))
			for r := range 8 {
				if j>>r&1 != 0 {
					t[y][o] |= 1 << (4 * r)
				}
			}
		}
	}
	return t
}()

// fileOccupancy gathers bits 0, 4, ..., 28 of b into bits 0..7.
func fileOccupancy(b uint32) uint32 {
	b &= 0x11111111
	b = (b | b>>3) & 0x03030303
	b = (b | b>>6) & 0x000F000F
	return (b | b>>12) & 0xFF
}

// cannonJumps returns the squares a cannon on s could capture on, given the
// occupancy occ (every piece, revealed or face-down): the first occupied
// square beyond exactly one occupied square, along the rank and the file.
func cannonJumps(s int, occ uint32) uint32 {
	s &= 31
	x, y := s&3, s>>2
	t := uint32(rankJumps[x][occ>>(4*y)&15]) << (4 * y)
	return t | fileJumps[y][fileOccupancy(occ>>x)]<<x
}

// genState is what move generation needs of a position, computed once.
type genState struct {
	own, down, occ uint32
	jumpable       uint32    // revealed enemy pieces: cannon targets
	victims        [8]uint32 // victims[k]: the squares a piece of kind k may step onto (empty or capture)
	k0, k1, k2     uint32    // the kind planes
}

// kindAt returns the kind of the known piece on s.
func (g *genState) kindAt(s int) Kind {
	return Kind(g.k0>>s&1 | (g.k1>>s&1)<<1 | (g.k2>>s&1)<<2)
}

// prepare fills g for the side to move of p. It reports false if the side to
// move has no legal ply because it has no pieces, or its colour is unassigned
// and nothing is face-down.
func (p *Position) prepare(g *genState) bool {
	g.down = p.down()
	turn := uint(p.misc >> turnShift & 3)
	if turn > 1 {
		g.own = 0
		return g.down != 0
	}
	g.own = uint32(p.sides>>(32*turn)) &^ g.down
	if g.own == 0 && p.misc>>(21*turn)&redPool == 0 {
		return false
	}
	opp := uint32(p.sides>>(32*(turn^1))) &^ g.down
	g.occ = g.own | opp | g.down
	e := ^g.occ
	g.k0, g.k1, g.k2 = uint32(p.downK0>>32), uint32(p.kinds), uint32(p.kinds>>32)
	// Kinds are ranks 1 (K) to 7 (P) in 3 bits: rank >= 2 is k1|k2, >= 3 is
	// k2|k0&k1, >= 4 is k2, >= 5 is k2&(k0|k1); the pawn is all three bits,
	// the king bit 0 alone.
	k0, k1, k2 := g.k0, g.k1, g.k2
	oppK := opp & k0 &^ (k1 | k2)
	oppP := opp & k0 & k1 & k2
	g.victims[King] = e | opp&^oppP
	g.victims[Guard] = e | opp&(k1|k2)
	g.victims[Minister] = e | opp&(k2|k0&k1)
	g.victims[Rook] = e | opp&k2
	g.victims[Knight] = e | opp&k2&(k0|k1)
	g.victims[Cannon] = e
	g.victims[Pawn] = e | oppP | oppK
	g.jumpable = opp
	return true
}

// destinations returns the squares the revealed own piece on s may move or
// capture to.
func (g *genState) destinations(s int) uint32 {
	k := g.kindAt(s & 31)
	d := adjacent[s&31] & g.victims[k]
	if k == Cannon {
		d |= cannonJumps(s, g.occ) & g.jumpable
	}
	return d
}

// appendMoves appends the legal moves of p in ascending From, then To.
func (p *Position) appendMoves(dst []Move) []Move {
	var g genState
	if !p.prepare(&g) {
		return dst
	}
	n := len(dst)
	if cap(dst)-n < MaxMoves {
		return g.appendMovesSlow(dst)
	}
	out := (*[MaxMoves]Move)(dst[n : n+MaxMoves])
	k := 0
	// Between two pieces of ours, the flips of the face-down squares in
	// between; then the piece's moves. Those are written branch-free: 4
	// writes, of which as many are kept as there are destinations. Writes
	// past the kept moves are overwritten or left beyond the result's length.
	below := uint32(0) // the squares up to the last piece
	for own := g.own; own != 0; own &= own - 1 {
		s := bits.TrailingZeros32(own)
		bit := uint32(1) << s
		for f := g.down & (bit - 1) &^ below; f != 0; f &= f - 1 {
			t := Square(bits.TrailingZeros32(f))
			out[k&(MaxMoves-1)] = moveValid | Move(t)<<moveFrom | Move(t)
			k++
		}
		below = bit | (bit - 1)
		mv := moveValid | Move(s)<<moveFrom
		kind := g.kindAt(s)
		d := adjacent[s] & g.victims[kind]
		if kind == Cannon {
			d |= cannonJumps(s, g.occ) & g.jumpable
			for ; d != 0; d &= d - 1 {
				out[k&(MaxMoves-1)] = mv | Move(bits.TrailingZeros32(d))
				k++
			}
			continue
		}
		d1 := d & (d - 1)
		d2 := d1 & (d1 - 1)
		d3 := d2 & (d2 - 1)
		out[k&(MaxMoves-1)] = mv | Move(bits.TrailingZeros32(d)&31)
		out[(k+1)&(MaxMoves-1)] = mv | Move(bits.TrailingZeros32(d1)&31)
		out[(k+2)&(MaxMoves-1)] = mv | Move(bits.TrailingZeros32(d2)&31)
		out[(k+3)&(MaxMoves-1)] = mv | Move(bits.TrailingZeros32(d3)&31)
		k += bits.OnesCount32(d)
	}
	for f := g.down &^ below; f != 0; f &= f - 1 {
		t := Square(bits.TrailingZeros32(f))
		out[k&(MaxMoves-1)] = moveValid | Move(t)<<moveFrom | Move(t)
		k++
	}
	return dst[:n+k]
}

// appendMovesSlow is appendMoves for a dst without MaxMoves spare capacity.
func (g *genState) appendMovesSlow(dst []Move) []Move {
	for from := g.own | g.down; from != 0; from &= from - 1 {
		s := bits.TrailingZeros32(from)
		if g.down>>s&1 != 0 {
			dst = append(dst, Flip(Square(s)))
			continue
		}
		for d := g.destinations(s); d != 0; d &= d - 1 {
			dst = append(dst, NewMove(Square(s), Square(bits.TrailingZeros32(d))))
		}
	}
	return dst
}

// appendCaptures appends the legal captures of p in ascending From, then To.
func (p *Position) appendCaptures(dst []Move) []Move {
	var g genState
	if !p.prepare(&g) {
		return dst
	}
	for own := g.own; own != 0; own &= own - 1 {
		s := bits.TrailingZeros32(own)
		for d := g.destinations(s) & g.jumpable; d != 0; d &= d - 1 {
			dst = append(dst, NewMove(Square(s), Square(bits.TrailingZeros32(d))))
		}
	}
	return dst
}

// countMoves returns the number of legal moves of p and, separately, how many
// of them are flips.
func (p *Position) countMoves() (moves, flips int) {
	var g genState
	if !p.prepare(&g) {
		return 0, 0
	}
	flips = bits.OnesCount32(g.down)
	moves = flips
	for own := g.own; own != 0; own &= own - 1 {
		moves += bits.OnesCount32(g.destinations(bits.TrailingZeros32(own)))
	}
	return moves, flips
}

// hasMoves reports whether p has a legal move.
func (p *Position) hasMoves() bool {
	var g genState
	if !p.prepare(&g) {
		return false
	}
	if g.down != 0 {
		return true
	}
	for own := g.own; own != 0; own &= own - 1 {
		if g.destinations(bits.TrailingZeros32(own)) != 0 {
			return true
		}
	}
	return false
}

// isLegal reports whether m is legal in p (a flip needs no deal here).
func (p *Position) isLegal(m Move) bool {
	if !m.Valid() {
		return false
	}
	var g genState
	if !p.prepare(&g) {
		return false
	}
	s := int(m.from())
	if m.isFlip() {
		return g.down>>s&1 != 0
	}
	return g.own>>s&1 != 0 && g.destinations(s)>>m.to()&1 != 0
}

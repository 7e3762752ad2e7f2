package darkchess

import "math/bits"

// MaxMoves bounds the number of legal moves of any position: a side has at most
// 16 revealed pieces, each with at most 4 steps or captures and a cannon with
// at most 4 jumps more, and every other square may be face-down (a flip
// each): 16*4 + 2*4 + 16 = 88. A buffer of this capacity lets
// [Position.AppendLegalMoves] run without allocating.
const MaxMoves = 88

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
	own, down, empty uint32
	victims          [8]uint32 // victims[k]: squares a piece of kind k may step onto (empty or capture)
	jumpable         uint32    // revealed enemy pieces (cannon targets)
	occ              uint32
}

// prepare fills g for the side to move of p. It reports false if the side to
// move has no legal ply because it has no pieces, or its colour is unassigned
// and nothing is face-down.
func (p *Position) prepare(g *genState) bool {
	g.down = p.down
	if p.turn > Black {
		g.own = 0
		return p.down != 0
	}
	c := uint(p.turn) << 3
	o := c ^ 8
	g.own = p.bb[c]
	if g.own == 0 && p.pool[c] == 0 {
		return false
	}
	opp := p.bb[o]
	g.occ = g.own | opp | p.down
	g.empty = ^g.occ
	e := g.empty
	notK := opp &^ p.bb[o+uint(King)]
	g.victims[King] = e | opp&^p.bb[o+uint(Pawn)]
	g.victims[Guard] = e | notK
	v := notK &^ p.bb[o+uint(Guard)]
	g.victims[Minister] = e | v
	v &^= p.bb[o+uint(Minister)]
	g.victims[Rook] = e | v
	v &^= p.bb[o+uint(Rook)]
	g.victims[Knight] = e | v
	g.victims[Cannon] = e
	g.victims[Pawn] = e | p.bb[o+uint(Pawn)] | p.bb[o+uint(King)]
	g.jumpable = opp
	return true
}

// destinations returns the squares the revealed own piece of kind k on s may
// move or capture to.
func (g *genState) destinations(s int, k uint8) uint32 {
	d := adjacent[s&31] & g.victims[k&7]
	if k&7 == uint8(Cannon) {
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
	for from := g.own | g.down; from != 0; from &= from - 1 {
		s := bits.TrailingZeros32(from)
		if g.down>>s&1 != 0 {
			dst = append(dst, Move{Square(s), Square(s)})
			continue
		}
		for d := g.destinations(s, p.board[s&31]); d != 0; d &= d - 1 {
			dst = append(dst, Move{Square(s), Square(bits.TrailingZeros32(d))})
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
	for from := g.own; from != 0; from &= from - 1 {
		s := bits.TrailingZeros32(from)
		moves += bits.OnesCount32(g.destinations(s, p.board[s&31]))
	}
	return moves, flips
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
	s := int(m.From)
	if m.IsFlip() {
		return g.down>>s&1 != 0
	}
	if g.own>>s&1 == 0 {
		return false
	}
	return g.destinations(s, p.board[s])>>uint(m.To)&1 != 0
}

package geister

import "math/bits"

// The engine works in the first player's frame: square 6*y+x, bit
// sq of a uint64. Ghost squares are packed one byte per ghost (byte g for
// ghost g) with the board string's codes 99 (captured) and 88 (escaped).
//
// Step targets are looked up in a table per side, square and direction (in
// the mover's frame). Besides the 36 squares the table uses two pseudo
// targets, chosen so that one test, "bit t of blocked is clear", decides
// every step: bit 63 (off the board, always blocked) and bit 62 (the escape,
// blocked when the ghost is red).
const (
	offBoard   = 63
	escapeStep = 62
	offBit     = 1 << offBoard

	captured = uint8(Captured)
	escaped  = uint8(Escaped)

	lsb8 = 0x0101010101010101
	msb8 = 0x8080808080808080
)

// steps[c][sq][d] is the target of side c's ghost on sq moving d (mover's
// frame): a square 0..35, escapeStep for the canonical sideways escape from
// an exit square, or offBoard. Rows 36..255 are all offBoard, so a packed
// byte indexes the table without a bounds check, and a ghost off the board
// (99, 88) has no step.
var steps = func() (t [2][256][4]uint8) {
	// Mover-frame steps (dx, dy) for North, East, West, South.
	dx := [4]int{0, 1, -1, 0}
	dy := [4]int{-1, 0, 0, 1}
	for c := range 2 {
		for sq := range 256 {
			for d := range 4 {
				t[c][sq][d] = offBoard
				if sq >= NumSquares {
					continue
				}
				// The square in the mover's frame.
				m := sq
				if c == 1 {
					m = NumSquares - 1 - sq
				}
				x, y := m%6+dx[d], m/6+dy[d]
				switch {
				case x >= 0 && x < 6 && y >= 0 && y < 6:
					to := x + 6*y
					if c == 1 {
						to = NumSquares - 1 - to
					}
					t[c][sq][d] = uint8(to)
				case m == 0 && Direction(d) == West, m == 5 && Direction(d) == East:
					t[c][sq][d] = escapeStep
				}
			}
		}
	}
	return t
}()

// exitDir[c][sq] is the canonical escape direction of side c from sq, plus
// one; 0 where sq is not one of c's exits.
var exitDir = func() (t [2][256]uint8) {
	for c := range 2 {
		for sq := range 256 {
			for d := range 4 {
				if steps[c][sq][d] == escapeStep {
					t[c][sq] = uint8(d) + 1
				}
			}
		}
	}
	return t
}()

// blockedFor returns the targets ghost g may not step to: own squares, off
// the board, and the escape if g is red.
func blockedFor(own uint64, reds uint8, g uint) uint64 {
	return own | offBit | uint64(reds>>g&1)<<escapeStep
}

// Masks of the board's edges, in the first player's frame.
const (
	row0 = 0x3F
	row5 = row0 << 30
	col0 = 1 | 1<<6 | 1<<12 | 1<<18 | 1<<24 | 1<<30
	col5 = col0 << 5
)

// dirBoards returns the squares from which the side with ghosts packed in
// at, on own, with red set reds, may step North, East, West and South in
// side c's frame (the escape counting as the sideways step from an exit).
// Every bit is an own square, holding exactly one ghost.
func dirBoards(at, own uint64, reds uint8, c Color) (n, e, w, s uint64) {
	up := own &^ (own << 6) &^ row0    // to sq-6
	down := own &^ (own >> 6) &^ row5  // to sq+6
	right := own &^ (own >> 1) &^ col5 // to sq+1
	left := own &^ (own << 1) &^ col0  // to sq-1
	var exW, exE uint8                 // the exits, left by West and East
	if c&1 == First {
		n, e, w, s = up, right, left, down
		exW, exE = 0, 5
	} else {
		n, e, w, s = down, left, right, up
		exW, exE = 35, 30
	}
	if g := findByte(at, exW); g < 8 && own&(1<<exW) != 0 && reds>>g&1 == 0 {
		w |= 1 << exW
	}
	if g := findByte(at, exE); g < 8 && own&(1<<exE) != 0 && reds>>g&1 == 0 {
		e |= 1 << exE
	}
	return n, e, w, s
}

// appendMoves appends the moves of the side whose ghosts are packed in at,
// occupy own, with red set reds and ghosts alive on the board, moving in
// side c's frame: ghosts A..H, then North, East, West, South. It writes every
// candidate and advances only over the legal ones, without a branch; when
// dst has room for 32 more moves it writes there directly.
func appendMoves(dst []Move, at, own uint64, reds, alive uint8, c Color) []Move {
	n0 := len(dst)
	var out *[32]Move
	var buf [32]Move
	if cap(dst)-n0 >= 32 {
		out = (*[32]Move)(dst[n0 : n0+32])
	} else {
		out = &buf
	}
	bn, be, bw, bs := dirBoards(at, own, reds, c)
	n := 0
	for a := alive; a != 0; a &= a - 1 {
		g := uint(bits.TrailingZeros8(a))
		sq := uint(uint8(at>>(8*g))) & 63
		base := Move(1 + g<<2)
		out[n&31] = base
		n += int(bn >> sq & 1)
		out[n&31] = base + 1
		n += int(be >> sq & 1)
		out[n&31] = base + 2
		n += int(bw >> sq & 1)
		out[n&31] = base + 3
		n += int(bs >> sq & 1)
	}
	if out == &buf {
		return append(dst, buf[:n&63]...)
	}
	return dst[:n0+n&63]
}

// countMoves returns the number of moves appendMoves would append: each bit
// of the direction boards is one move.
func countMoves(at, own uint64, reds uint8, c Color) int {
	n, e, w, s := dirBoards(at, own, reds, c)
	return bits.OnesCount64(n) + bits.OnesCount64(e) + bits.OnesCount64(w) + bits.OnesCount64(s)
}

// findByte returns the index (0..7) of the lowest byte of x equal to v, or 8
// if there is none.
func findByte(x uint64, v uint8) uint {
	x ^= uint64(v) * lsb8
	return uint(bits.TrailingZeros64((x-lsb8)&^x&msb8)) >> 3
}

// setByte returns x with byte i&7 set to v.
func setByte(x uint64, i uint, v uint8) uint64 {
	s := 8 * (i & 7)
	return x&^(0xFF<<s) | uint64(v)<<s
}

// The board result is kept in Position.end: 0 while the game goes on, else
// reason<<1 | winner.
func endCode(r Reason, winner Color) uint8 { return uint8(r)<<1 | uint8(winner&1) }

// judge returns the board result code given, per side, whether one of its
// ghosts escaped and how many of its red and blue ghosts were captured, in
// the Java server's order: the first player's escape, blues,
// reds, then the second player's.
func judge(esc [2]bool, lostRed, lostBlue [2]int) uint8 {
	for c := range Color(2) {
		switch {
		case esc[c]:
			return endCode(ChessEscape, c)
		case lostBlue[c] >= 4:
			return endCode(NoBlueGhost, c.Opponent())
		case lostRed[c] >= 4:
			return endCode(NoRedGhost, c)
		}
	}
	return 0
}

// rotatePacked turns packed ghost squares by 180 degrees, leaving the codes
// 99 and 88 alone.
func rotatePacked(at uint64) uint64 {
	var r uint64
	for g := uint(0); g < 8; g++ {
		sq := uint8(at >> (8 * g))
		if sq < NumSquares {
			sq = NumSquares - 1 - sq
		}
		r |= uint64(sq) << (8 * g)
	}
	return r
}

// goneMask returns the ghosts (bit g) whose packed byte is the code v.
func goneMask(at uint64, v uint8) uint8 {
	var m uint8
	for g := uint(0); g < 8; g++ {
		if uint8(at>>(8*g)) == v {
			m |= 1 << g
		}
	}
	return m
}

// aliveMask returns the ghosts (bit g) whose packed byte is a board square.
func aliveMask(at uint64) uint8 {
	var m uint8
	for g := uint(0); g < 8; g++ {
		if uint8(at>>(8*g)) < NumSquares {
			m |= 1 << g
		}
	}
	return m
}

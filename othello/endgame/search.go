package endgame

import (
	"math/bits"

	"github.com/botarena/botarena/othello/internal/movegen"
)

const (
	// shallowEmpties is the most empty squares at which the null-window
	// search goes without the table and orders moves by parity and square
	// only (the table and the sort cost more than they save there).
	shallowEmpties = 7
	// etcEmpties is the fewest empty squares at which the search looks up
	// the positions after each move in the table before searching any
	// (enhanced transposition cut-off).
	etcEmpties = 12
	// nearEmpties is the most empty squares at which a null-window node
	// keeps its entry in the solver's small table (nearTableSize entries
	// at most, 256 KiB, which stays in the processor's cache) instead of
	// the big one. These nodes are the most numerous and their entries
	// the least worth: in the big table they miss the cache at every probe
	// and push out the entries of deeper nodes.
	nearEmpties = 10
	// nearTableSize is the number of entries of the small table.
	nearTableSize = 3 << 12
	// checkEvery is the number of nodes between two looks at the context.
	checkEvery = 1 << 12
	// noScore is below every score.
	noScore = -65
)

// candidate is a move of a deep node: its square, the discs it turns, and
// its ordering key (the higher, the sooner searched).
type candidate struct {
	flips uint64
	key   int32
	sq    int8
}

// flipsNear is flips, quicker when sq has no neighbour in O.
func flipsNear(sq int, P, O uint64) uint64 {
	if neighbours[sq]&O == 0 {
		return 0
	}
	return flips(sq, P, O)
}

// neighbours[sq] is the squares next to sq.
var neighbours = func() (n [64]uint64) {
	for sq := range 64 {
		b := uint64(1) << uint(sq)
		h := b | b<<1&notAFile | b>>1&notHFile
		n[sq] = (h | h<<8 | h>>8) &^ b
	}
	return n
}()

// lastFlips returns the number of discs that P turns by playing on x, the
// one empty square of a full board: along each line, the discs before the
// nearest disc of P, all the opponent's.
func lastFlips(x int, P uint64) int {
	r := movegen.Rays(x)
	return bits.OnesCount64(lastUp(r[0], P) | lastUp(r[1], P) | lastUp(r[2], P) | lastUp(r[3], P) |
		lastDown(r[4], P) | lastDown(r[5], P) | lastDown(r[6], P) | lastDown(r[7], P))
}

// lastUp returns the squares of ray (toward higher bits) before its first
// disc of P, or none if it has none.
func lastUp(ray, P uint64) uint64 {
	p := P & ray
	m := p&-p - 1
	return ray & m &^ uint64(int64(m)>>63)
}

// lastDown returns the squares of ray (toward lower bits) before its first
// disc of P, or none if it has none (bit 63 is on no such ray).
func lastDown(ray, P uint64) uint64 {
	top := uint64(1) << (uint(bits.Len64(P&ray)-1) & 63)
	return ray &^ (top<<1 - 1)
}

// solve1 returns the final score for P of the position with the single
// empty square x.
func (s *Solver) solve1(P, O uint64, x int) int {
	s.nodes++
	n := bits.OnesCount64(P)
	if f := lastFlips(x, P); f != 0 {
		return 2*(n+1+f) - 64
	}
	if f := lastFlips(x, O); f != 0 {
		return 2*(n-f) - 64
	}
	if d := 2*n - 63; d > 0 {
		return d + 1
	} else {
		return d - 1
	}
}

// solve2 returns the score for P with the empty squares x1 and x2, fail
// soft within the null window (alpha, alpha+1).
func (s *Solver) solve2(P, O uint64, alpha, x1, x2 int, passed bool) int {
	s.nodes++
	best := noScore
	if f := flipsNear(x1, P, O); f != 0 {
		best = -s.solve1(O^f, P|f|1<<x1, x2)
		if best > alpha {
			return best
		}
	}
	if f := flipsNear(x2, P, O); f != 0 {
		if v := -s.solve1(O^f, P|f|1<<x2, x1); v > best {
			return v
		}
		return best
	}
	if best == noScore {
		if passed {
			return finalScore(P, O)
		}
		return -s.solve2(O, P, -alpha-1, x1, x2, true)
	}
	return best
}

// solve3 is solve2 with the three empty squares x1, x2, x3, tried in that
// order.
func (s *Solver) solve3(P, O uint64, alpha, x1, x2, x3 int, passed bool) int {
	s.nodes++
	best := noScore
	if f := flipsNear(x1, P, O); f != 0 {
		best = -s.solve2(O^f, P|f|1<<x1, -alpha-1, x2, x3, false)
		if best > alpha {
			return best
		}
	}
	if f := flipsNear(x2, P, O); f != 0 {
		if v := -s.solve2(O^f, P|f|1<<x2, -alpha-1, x1, x3, false); v > best {
			if v > alpha {
				return v
			}
			best = v
		}
	}
	if f := flipsNear(x3, P, O); f != 0 {
		if v := -s.solve2(O^f, P|f|1<<x3, -alpha-1, x1, x2, false); v > best {
			best = v
		}
	}
	if best == noScore {
		if passed {
			return finalScore(P, O)
		}
		return -s.solve3(O, P, -alpha-1, x1, x2, x3, true)
	}
	return best
}

// solve4 is solve2 with the four empty squares x1..x4, tried in that
// order.
func (s *Solver) solve4(P, O uint64, alpha, x1, x2, x3, x4 int, passed bool) int {
	s.nodes++
	if alpha >= stabilityThreshold[4] {
		if u := 64 - 2*stableCount(O, P); u <= alpha {
			return u
		}
	}
	best := noScore
	if f := flipsNear(x1, P, O); f != 0 {
		best = -s.solve3(O^f, P|f|1<<x1, -alpha-1, x2, x3, x4, false)
		if best > alpha {
			return best
		}
	}
	if f := flipsNear(x2, P, O); f != 0 {
		if v := -s.solve3(O^f, P|f|1<<x2, -alpha-1, x1, x3, x4, false); v > best {
			if v > alpha {
				return v
			}
			best = v
		}
	}
	if f := flipsNear(x3, P, O); f != 0 {
		if v := -s.solve3(O^f, P|f|1<<x3, -alpha-1, x1, x2, x4, false); v > best {
			if v > alpha {
				return v
			}
			best = v
		}
	}
	if f := flipsNear(x4, P, O); f != 0 {
		if v := -s.solve3(O^f, P|f|1<<x4, -alpha-1, x1, x2, x3, false); v > best {
			best = v
		}
	}
	if best == noScore {
		if passed {
			return finalScore(P, O)
		}
		return -s.solve4(O, P, -alpha-1, x1, x2, x3, x4, true)
	}
	return best
}

// goodSquares are the squares a shallow search tries first, in each
// parity class: all but the C and X squares.
var goodSquares = func() (m uint64) {
	for sq := range 64 {
		if rank[sq] < 48 || rank[sq] >= 60 {
			m |= 1 << uint(sq)
		}
	}
	return m
}()

// nws returns the score for P with n empty squares, fail soft within the
// null window (alpha, alpha+1): a value above alpha is a lower bound of
// the score, any other an upper bound.
func (s *Solver) nws(P, O uint64, alpha, n int) int {
	if n > shallowEmpties {
		return s.nwsDeep(P, O, alpha, n)
	}
	e := ^(P | O)
	switch n {
	case 0:
		s.nodes++
		return finalScore(P, O)
	case 1:
		return s.solve1(P, O, bits.TrailingZeros64(e))
	}
	return s.nwsShallow(P, O, alpha, n, e, parityOf(e))
}

// nwsShallow is nws for 5 <= n <= shallowEmpties (or fewer, handed on to
// the solveN), without the table: the moves are tried in the quadrants
// with an odd number of empty squares first, the C and X squares last in
// each. e is the set of the empty squares, parity their quadrants'
// parity.
func (s *Solver) nwsShallow(P, O uint64, alpha, n int, e uint64, parity uint) int {
	if n <= 4 {
		var x [4]int
		k := 0
		odd := e & quadrantMask[parity]
		for _, m := range [2]uint64{odd, e &^ odd} {
			for ; m != 0; m &= m - 1 {
				x[k&3] = bits.TrailingZeros64(m)
				k++
			}
		}
		switch n {
		case 4:
			return s.solve4(P, O, alpha, x[0], x[1], x[2], x[3], false)
		case 3:
			return s.solve3(P, O, alpha, x[0], x[1], x[2], false)
		case 2:
			return s.solve2(P, O, alpha, x[0], x[1], false)
		}
		return s.solve1(P, O, x[0])
	}
	s.nodes++
	if alpha >= stabilityThreshold[n] {
		if u := 64 - 2*stableCount(O, P); u <= alpha {
			return u
		}
	}
	best := noScore
	odd := e & quadrantMask[parity]
	for _, m := range [4]uint64{odd & goodSquares, odd &^ goodSquares, e &^ odd & goodSquares, e &^ odd &^ goodSquares} {
		for ; m != 0; m &= m - 1 {
			sq := bits.TrailingZeros64(m)
			f := flipsNear(sq, P, O)
			if f == 0 {
				continue
			}
			b := uint64(1) << uint(sq)
			v := -s.nwsShallow(O^f, P|f|b, -alpha-1, n-1, e^b, parity^uint(quadrant[sq]))
			if v > best {
				if v > alpha {
					return v
				}
				best = v
			}
		}
	}
	if best == noScore {
		if legalMoves(O, P) == 0 {
			return finalScore(P, O)
		}
		return -s.nwsShallow(O, P, -alpha-1, n, e, parity)
	}
	return best
}

// check counts a node of the deep search and looks at the context now and
// then; it reports whether the search must stop.
func (s *Solver) check() bool {
	s.nodes++
	if s.nodes >= s.next {
		s.next = s.nodes + checkEvery
		if s.ctx.Err() != nil {
			s.stop = true
		}
	}
	return s.stop
}

// order fills c with P's moves and their keys, the hash move (hm, or -1)
// first and the others fastest first: the fewer (weighted) replies the
// opponent has, the sooner, with a bonus for a move in a quadrant with an
// odd number of empty squares. It returns the number of moves.
func order(c *[64]candidate, P, O, moves uint64, hm int) int {
	k := listMoves(c, P, O, moves)
	sortKeys(c[:k], P, O, hm)
	return k
}

// listMoves fills c with P's moves and the discs each turns, and returns
// their number.
func listMoves(c *[64]candidate, P, O, moves uint64) int {
	k := 0
	for ; moves != 0; moves &= moves - 1 {
		x := bits.TrailingZeros64(moves)
		c[k] = candidate{flips: flips(x, P, O), sq: int8(x)}
		k++
	}
	return k
}

// sortKeys sets the keys of the moves of c, for [order].
func sortKeys(c []candidate, P, O uint64, hm int) {
	parity := parityOf(^(P | O))
	for i := range c {
		x, f := int(c[i].sq), c[i].flips
		if x == hm {
			c[i].key = 1 << 30
			continue
		}
		c[i].key = replyKey(O^f, P|f|1<<uint(x))
		if uint(quadrant[x])&parity != 0 {
			c[i].key += 1 << 3
		}
	}
}

// replyKey is the part of a move's key that the position after it (P to
// move, the mover's discs O) gives: the fewer replies, corners weighing
// double, the better; then the mover's stable discs at the corners, and
// the fewer squares next to the mover's discs.
func replyKey(P, O uint64) int32 {
	m := legalMoves(P, O)
	mob := bits.OnesCount64(m) + bits.OnesCount64(m&corners)
	pot := bits.OnesCount64(potentialMobility(P, O))
	return int32(-mob<<16 + cornerStability(O)<<12 - pot<<4)
}

// potentialMobility returns the empty squares next to a disc of O: where P
// may one day play.
func potentialMobility(P, O uint64) uint64 {
	e := ^(P | O)
	h := O & innerCols
	n := h<<1 | h>>1 | O<<8 | O>>8 | h<<7 | h>>7 | h<<9 | h>>9
	return n & e
}

// cornerStability returns the number of P's discs on the corners and on
// the edge squares next to a corner of P's: stable discs, cheaply found.
func cornerStability(P uint64) int {
	s := (0x0100000000000001&P)<<1 | (0x8000000000000080&P)>>1 | (0x0000000000000081&P)<<8 | (0x8100000000000000&P)>>8 | corners
	return bits.OnesCount64(s & P)
}

// pick moves the best candidate of c[i:k] to c[i].
func pick(c *[64]candidate, i, k int) {
	b := i
	for j := i + 1; j < k; j++ {
		if c[j].key > c[b].key {
			b = j
		}
	}
	c[i], c[b] = c[b], c[i]
}

// nwsDeep is nws for n > shallowEmpties: with a table (the small one at
// nearEmpties or fewer, the big one above), enhanced
// transposition cut-offs, the stability cut-off, and fastest-first order.
func (s *Solver) nwsDeep(P, O uint64, alpha, n int) int {
	if s.check() {
		return 0
	}
	if alpha >= stabilityThreshold[n] {
		if u := 64 - 2*stableCount(O, P); u <= alpha {
			return u
		}
	}
	hm := -1
	t := &s.tt
	if n <= nearEmpties {
		t = &s.near
	}
	if e := t.probe(P, O); e != nil {
		if int(e.lower) > alpha {
			return int(e.lower)
		}
		if int(e.upper) <= alpha {
			return int(e.upper)
		}
		hm = int(e.move) - 1
	}
	moves := legalMoves(P, O)
	if moves == 0 {
		if legalMoves(O, P) == 0 {
			return finalScore(P, O)
		}
		return -s.nwsDeep(O, P, -alpha-1, n)
	}
	var c [64]candidate
	k := listMoves(&c, P, O, moves)
	if n >= etcEmpties {
		for i := range k {
			b := uint64(1) << uint(c[i].sq)
			if e := s.tt.probe(O^c[i].flips, P|c[i].flips|b); e != nil && -int(e.upper) > alpha {
				v := -int(e.upper)
				t.store(P, O, n, alpha, alpha+1, v, int(c[i].sq))
				return v
			}
		}
	}
	// The table's move first, before the others are ordered: it often
	// cuts off alone.
	best, bm, first := noScore, -1, 0
	if hm >= 0 {
		for i := range k {
			if int(c[i].sq) != hm {
				continue
			}
			c[0], c[i] = c[i], c[0]
			f := c[0].flips
			best = -s.nws(O^f, P|f|1<<uint(hm), -alpha-1, n-1)
			if s.stop {
				return 0
			}
			bm, first = hm, 1
			break
		}
	}
	if best <= alpha {
		sortKeys(c[first:k], P, O, -1)
		if d := s.sortDepth(n); d >= 0 {
			s.evalKeys(c[first:k], P, O, -1, alpha, d)
		}
		for i := first; i < k; i++ {
			pick(&c, i, k)
			x := int(c[i].sq)
			f := c[i].flips
			v := -s.nws(O^f, P|f|1<<uint(x), -alpha-1, n-1)
			if s.stop {
				return 0
			}
			if v > best {
				best, bm = v, x
				if v > alpha {
					break
				}
			}
		}
	}
	t.store(P, O, n, alpha, alpha+1, best, bm)
	return best
}

// pvs returns the score for P with n empty squares, fail soft within the
// window (alpha, beta), and the best move's square (-1 after a cut-off by
// the table, or with no move, or -2 for a pass). At the root it takes no
// cut-off from the table, so that it always names its best move.
func (s *Solver) pvs(P, O uint64, alpha, beta, n int, root bool) (int, int) {
	if s.check() {
		return 0, -1
	}
	hm := -1
	if e := s.tt.probe(P, O); e != nil {
		if !root {
			switch {
			case int(e.lower) >= beta:
				return int(e.lower), -1
			case int(e.upper) <= alpha:
				return int(e.upper), -1
			case e.lower == e.upper:
				return int(e.lower), -1
			}
		}
		hm = int(e.move) - 1
	}
	moves := legalMoves(P, O)
	if moves == 0 {
		if legalMoves(O, P) == 0 {
			return finalScore(P, O), -1
		}
		v, _ := s.pvs(O, P, -beta, -alpha, n, false)
		return -v, -2
	}
	var c [64]candidate
	k := order(&c, P, O, moves, hm)
	if d := s.sortDepth(n); d >= 0 {
		s.evalKeys(c[:k], P, O, hm, alpha, d)
	}
	best, bm := noScore, -1
	a := alpha
	for i := range k {
		pick(&c, i, k)
		x := int(c[i].sq)
		f := c[i].flips
		nP, nO := O^f, P|f|1<<uint(x)
		var v int
		if i == 0 {
			v = -s.child(nP, nO, -beta, -a, n-1)
		} else {
			v = -s.nws(nP, nO, -a-1, n-1)
			if v > a && v < beta && !s.stop {
				v = -s.child(nP, nO, -beta, -a, n-1)
			}
		}
		if s.stop {
			return 0, -1
		}
		if v > best {
			best, bm = v, x
			if v > a {
				a = v
				if v >= beta {
					break
				}
			}
		}
	}
	s.tt.store(P, O, n, alpha, beta, best, bm)
	return best, bm
}

// child returns the score of a principal-variation node's child.
func (s *Solver) child(P, O uint64, alpha, beta, n int) int {
	if n == 0 {
		s.nodes++
		return finalScore(P, O)
	}
	v, _ := s.pvs(P, O, alpha, beta, n, false)
	return v
}

// evalEmpties is the fewest empty squares at which, with an evaluation,
// shallow searches order a node's moves.
const evalEmpties = 16

// sortDepth returns the depth of the shallow searches that order the moves
// of a node with n empty squares (0: the evaluation of the position after
// each move), or -1 for none.
func (s *Solver) sortDepth(n int) int {
	if s.eval == nil || n < evalEmpties {
		return -1
	}
	return min((n-evalEmpties)/2, 6)
}

// evalKeys adds to the keys of the moves of c, but the hash move hm, the
// score of the position after each by a shallow search of depth d: the
// lower the opponent's score, the sooner (a disc of score weighs a quarter
// of a reply in [replyKey]). Each search's window ends at 8-alpha: the
// moves whose scores are more than 8 below alpha are told apart by bounds
// only, which is cheaper.
func (s *Solver) evalKeys(c []candidate, P, O uint64, hm, alpha, d int) {
	beta := min(8-alpha, 65)
	for i := range c {
		x, f := int(c[i].sq), c[i].flips
		if x == hm {
			continue
		}
		v := s.evalSearch(O^f, P|f|1<<uint(x), -65, beta, d)
		c[i].key += int32(64-v) << 14
	}
}

// evalSearch returns the score for P of a fail-soft alpha-beta search of
// depth d with the window (alpha, beta): at its leaves the evaluation plus
// two discs for each move P has more than O (the network does not see
// mobility, and this saves a fifth of the positions at 26 to 28 empty
// squares), and the final score where the game ends.
func (s *Solver) evalSearch(P, O uint64, alpha, beta, d int) int {
	s.nodes++
	if d == 0 {
		// The evaluation and two discs a move of mobility.
		m := bits.OnesCount64(legalMoves(P, O)) - bits.OnesCount64(legalMoves(O, P))
		return min(max(s.eval(P, O)+2*m, -64), 64)
	}
	moves := legalMoves(P, O)
	if moves == 0 {
		if legalMoves(O, P) == 0 {
			return finalScore(P, O)
		}
		return -s.evalSearch(O, P, -beta, -alpha, d)
	}
	var c [64]candidate
	k := listMoves(&c, P, O, moves)
	if d > 1 {
		sortKeys(c[:k], P, O, -1)
	}
	best := noScore
	for i := range k {
		if d > 1 {
			pick(&c, i, k)
		}
		x, f := int(c[i].sq), c[i].flips
		v := -s.evalSearch(O^f, P|f|1<<uint(x), -beta, -max(alpha, best), d-1)
		if v > best {
			best = v
			if v >= beta {
				break
			}
		}
	}
	return best
}

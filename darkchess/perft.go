package darkchess

import "math/bits"

// Perft counts the leaf plies of the game tree of p to the given depth:
// perft(p, 0) = 1; a flip is one move, and reveals the deal's piece;
// from a position whose colours are unassigned, the first flip's colour
// becomes the mover's; a side to move with no pieces left (face-down ones
// included) has no moves; the draw rules are not applied. A negative depth
// counts 0. Perft needs the deal to play flips: on a position without one, a
// flip counts as a leaf at the last ply and 0 above. It does not allocate.
func Perft(p Position, depth int) uint64 {
	if depth < 0 {
		return 0
	}
	return perft(p, depth)
}

func perft(p Position, depth int) uint64 {
	if depth == 0 {
		return 1
	}
	if depth == 1 {
		n, _ := p.countMoves()
		return uint64(n)
	}
	var buf [MaxMoves]Move
	var n uint64
	for _, m := range p.appendMoves(buf[:0]) {
		if m.isFlip() && p.known()>>m.from()&1 == 0 {
			continue // a flip whose piece is unknown
		}
		n += perft(p.PlayUnchecked(m), depth-1)
	}
	return n
}

// MoveCount is one line of [Divide]: a first move and the leaves below it.
type MoveCount struct {
	Move   Move
	Leaves uint64
}

// Divide splits [Perft] of p at depth by first move, in the order of
// [Position.AppendLegalMoves]. The counts add up to the perft count. Depth
// below 1 gives no lines.
func Divide(p Position, depth int) []MoveCount {
	if depth < 1 {
		return nil
	}
	var buf [MaxMoves]Move
	var out []MoveCount
	for _, m := range p.AppendLegalMoves(buf[:0]) {
		n := uint64(1)
		if depth > 1 {
			n = 0
			if !m.IsFlip() || p.known()>>m.from()&1 != 0 {
				n = perft(p.PlayUnchecked(m), depth-1)
			}
		}
		out = append(out, MoveCount{m, n})
	}
	return out
}

// PerftChance counts the leaves of the game tree of the view v to the given
// depth with every flip branching by chance: a flip has one child
// per distinct piece whose pool count is above 0, unweighted, so at depth 1
// each (flip square, piece) pair counts 1. Otherwise it counts as [Perft]. It
// never needs the deal, and does not allocate.
func PerftChance(v View, depth int) uint64 {
	if depth < 0 {
		return 0
	}
	return perftChance(v.pos, depth)
}

// distinctPool returns how many distinct pieces are face-down.
func (p *Position) distinctPool() int {
	n := 0
	for _, pc := range pieceOrder {
		if p.poolCount(pc) != 0 {
			n++
		}
	}
	return n
}

func perftChance(p Position, depth int) uint64 {
	if depth == 0 {
		return 1
	}
	if depth == 1 {
		moves, flips := p.countMoves()
		return uint64(moves - flips + flips*p.distinctPool())
	}
	var buf [MaxMoves]Move
	var n uint64
	for _, m := range p.appendMoves(buf[:0]) {
		if !m.isFlip() {
			n += perftChance(p.PlayUnchecked(m), depth-1)
			continue
		}
		for _, pc := range pieceOrder {
			if p.poolCount(pc) != 0 {
				n += perftChance(p.PlayPlyUnchecked(Ply{m, pc}), depth-1)
			}
		}
	}
	return n
}

// PlyCount is one line of [DivideChance]: a first ply (for a flip, with the
// piece it reveals) and the leaves below it.
type PlyCount struct {
	Ply    Ply
	Leaves uint64
}

// DivideChance splits [PerftChance] of v at depth by first move and, for a
// flip, by the piece it reveals (in the order K G M R N C P k g m r n c p).
// The counts add up to the PerftChance count. Depth below 1 gives no lines.
func DivideChance(v View, depth int) []PlyCount {
	if depth < 1 {
		return nil
	}
	p := v.pos
	var buf [MaxMoves]Move
	var out []PlyCount
	for _, m := range p.AppendLegalMoves(buf[:0]) {
		if !m.IsFlip() {
			out = append(out, PlyCount{Ply{Move: m}, perftChance(p.PlayUnchecked(m), depth-1)})
			continue
		}
		for _, pc := range pieceOrder {
			if p.poolCount(pc) != 0 {
				out = append(out, PlyCount{Ply{m, pc}, perftChance(p.PlayPlyUnchecked(Ply{m, pc}), depth-1)})
			}
		}
	}
	return out
}

// PerftExpected is the chance-weighted count: the expected value of [Perft]
// over the deals the view v allows, each equally likely. A flip's children
// are weighted by the probability of the piece it reveals, its pool count
// over the number of face-down pieces. At depth 1 it equals the number of
// legal moves. It does not allocate.
func PerftExpected(v View, depth int) float64 {
	if depth < 0 {
		return 0
	}
	return perftExpected(v.pos, depth)
}

func perftExpected(p Position, depth int) float64 {
	if depth == 0 {
		return 1
	}
	if depth == 1 {
		n, _ := p.countMoves()
		return float64(n)
	}
	var buf [MaxMoves]Move
	var n float64
	hidden := float64(bits.OnesCount32(p.down()))
	for _, m := range p.appendMoves(buf[:0]) {
		if !m.isFlip() {
			n += perftExpected(p.PlayUnchecked(m), depth-1)
			continue
		}
		for _, pc := range pieceOrder {
			if c := p.poolCount(pc); c != 0 {
				n += float64(c) / hidden * perftExpected(p.PlayPlyUnchecked(Ply{m, pc}), depth-1)
			}
		}
	}
	return n
}

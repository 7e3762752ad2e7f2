package geister

// Perft counts the leaves of the legal-move tree of p to the given depth
// as the published tables count them: perft(p, 0) = 1; a move that ends the game (an escape, the
// capture of a fourth red or blue ghost) is a leaf, counted once and not
// expanded, whatever the depth left; a position the board has already
// decided is itself a leaf and counts 1 at any depth. The ply limit is
// ignored. A negative depth counts 0. It does not allocate.
//
// From the start, whatever the red sets, no game can end before ply 9 and no
// escape exists before ply 11, so depths 1 to 9 do not depend on the setups:
// 8, 64, 768, 9200, 118488, 1523518, 21700678, ...
func Perft(p Position, depth int) uint64 {
	switch {
	case depth < 0:
		return 0
	case depth == 0 || p.end != 0:
		return 1
	}
	return perft(p, depth)
}

// perft counts below an unfinished p, depth >= 1.
func perft(p Position, depth int) uint64 {
	c := p.Turn()
	if depth == 1 {
		return uint64(countMoves(p.at[0], p.occ[0], p.reds[0], c))
	}
	var buf [32]Move
	var n uint64
	for _, m := range appendMoves(buf[:0], p.at[0], p.occ[0], p.reds[0], ^p.gone[0], c) {
		q := p.PlayUnchecked(m)
		if q.end != 0 {
			n++
			continue
		}
		n += perft(q, depth-1)
	}
	return n
}

// MoveCount is one line of [Divide]: a first move and the leaves below it.
type MoveCount struct {
	Move   Move
	Leaves uint64
}

// Divide splits the perft count of p at depth by first move, in the order of
// [Position.AppendLegalMoves]. The counts add up to the perft count, except
// at a finished position, which has no moves and so no lines. Depth below 1
// gives no lines.
func Divide(p Position, depth int) []MoveCount {
	if depth < 1 {
		return nil
	}
	var buf [32]Move
	var out []MoveCount
	for _, m := range p.AppendLegalMoves(buf[:0]) {
		out = append(out, MoveCount{m, Perft(p.PlayUnchecked(m), depth-1)})
	}
	return out
}

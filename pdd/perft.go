package pdd

// Perft counts the leaves of the game tree of p to the given depth: perft(p,
// 0) = 1; every move of [Position.AppendLegalMoves] is one ply, so a Course
// forced Pass counts as one move (as a pass does in Othello perft) and so do
// Change and an Official Pass; a game that ends before depth counts 0. A
// negative depth counts 0. The last ply is counted with
// [Position.NumLegalMoves], without playing it. It does not allocate.
func Perft(p Position, depth int) uint64 {
	switch {
	case depth < 0:
		return 0
	case depth == 0:
		return 1
	case depth == 1:
		return uint64(p.NumLegalMoves())
	}
	var buf [MaxMoves]Move
	var n uint64
	for _, m := range p.AppendLegalMoves(buf[:0]) {
		n += Perft(p.PlayUnchecked(m), depth-1)
	}
	return n
}

// MoveCount is one line of [Divide]: a first move and the leaves below it.
type MoveCount struct {
	Move   Move
	Leaves uint64
}

// Divide splits the perft count of p at depth by first move, in the order of
// [Position.AppendLegalMoves]. The counts add up to [Perft]'s. Depth below 1,
// or a finished game, gives no lines.
func Divide(p Position, depth int) []MoveCount {
	if depth < 1 {
		return nil
	}
	var out []MoveCount
	for _, m := range p.AppendLegalMoves(nil) {
		out = append(out, MoveCount{m, Perft(p.PlayUnchecked(m), depth-1)})
	}
	return out
}

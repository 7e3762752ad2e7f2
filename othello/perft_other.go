//go:build !amd64 || purego

package othello

// leavesFast is leaves: there is no assembly kernel on this architecture
// (or the purego tag asks for none).
func leavesFast(P, O, moves, area uint64, bik bool) uint64 {
	return leaves(P, O, moves, area, innerCols, bik)
}

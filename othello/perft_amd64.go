//go:build amd64 && !purego

package othello

// leavesAVX512 is leaves (inner is innerCols) with AVX-512: eight moves at
// once, one in each vector lane. It needs x86.avx512.
//
//go:noescape
func leavesAVX512(P, O, moves, area uint64, bik bool) uint64

// leavesFast is leaves, by the fastest kernel this processor runs.
func leavesFast(P, O, moves, area uint64, bik bool) uint64 {
	if x86.avx512 {
		return leavesAVX512(P, O, moves, area, bik)
	}
	return leaves(P, O, moves, area, innerCols, bik)
}

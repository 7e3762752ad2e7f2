//go:build amd64 && !purego

package othello

// leavesAVX512 is leaves (inner is innerCols) with AVX-512: eight moves at
// once, one in each vector lane. It needs x86.avx512.
//
//go:noescape
func leavesAVX512(P, O, moves, area uint64, bik bool) uint64

// perft3AVX512 returns the sum of perftArea(child, 2) over the children of
// (P, O) by moves, with AVX-512: the children eight at a time, and their
// moves queued so that every batch of leaves fills the eight lanes. It needs
// x86.avx512.
//
//go:noescape
func perft3AVX512(P, O, moves, area uint64, bik bool) uint64

// perft3AVX2 is perft3AVX512 in AVX2, four lanes at once. It needs
// x86.avx2.
//
//go:noescape
func perft3AVX2(P, O, moves, area uint64, bik bool) uint64

// bestKernel is the fastest perft kernel this processor runs.
var bestKernel = func() kernel {
	switch {
	case x86.avx512:
		return kernelAVX512
	case x86.avx2:
		return kernelAVX2
	}
	return kernelGo
}()

// leavesBy is leaves by kernel k. Only the AVX-512 kernel has a leaves of
// its own: perft calls leaves only for a depth-2 perft, or after a pass
// three plies from the leaves, as perft3 does the last three plies.
func leavesBy(k kernel, P, O, moves, area uint64, bik bool) uint64 {
	switch k {
	case kernelAVX512:
		return leavesAVX512(P, O, moves, area, bik)
	}
	return leaves(P, O, moves, area, innerCols, bik)
}

// perft3By returns the sum of perftArea(child, 2) over the children of
// (P, O) by moves, by kernel k.
func perft3By(k kernel, P, O, moves, area uint64, bik bool) uint64 {
	switch k {
	case kernelAVX512:
		return perft3AVX512(P, O, moves, area, bik)
	case kernelAVX2:
		return perft3AVX2(P, O, moves, area, bik)
	}
	return perft3(P, O, moves, area, bik)
}

// kernelRuns reports whether this processor runs kernel k.
func kernelRuns(k kernel) bool {
	switch k {
	case kernelGo:
		return true
	case kernelAVX512:
		return x86.avx512
	case kernelAVX2:
		return x86.avx2
	}
	return false
}

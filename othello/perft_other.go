//go:build !amd64 || purego

package othello

// bestKernel is the fastest perft kernel this processor runs: the pure-Go
// one, as there is no assembly on this architecture (or the purego build tag
// asks for none).
const bestKernel = kernelGo

// leavesBy is leaves by kernel k, always the pure-Go one here.
func leavesBy(_ kernel, P, O, moves, area uint64, bik bool) uint64 {
	return leaves(P, O, moves, area, innerCols, bik)
}

// kernelRuns reports whether this processor runs kernel k.
func kernelRuns(k kernel) bool { return k == kernelGo }

// perft3By is perft3, by the pure-Go kernel here.
func perft3By(_ kernel, P, O, moves, area uint64, bik bool) uint64 {
	return perft3(P, O, moves, area, bik)
}

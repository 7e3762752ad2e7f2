package othello

// kernelNames names the perft kernels for tests and benchmarks.
var kernelNames = map[kernel]string{kernelGo: "go", kernelAVX2: "avx2", kernelAVX512: "avx512"}

// PerftKernels returns the names of the perft kernels this processor runs,
// the pure-Go one first and the one Perft uses last.
func PerftKernels() []string {
	var names []string
	for _, k := range []kernel{kernelGo, kernelAVX2, kernelAVX512} {
		if kernelRuns(k) {
			names = append(names, kernelNames[k])
		}
	}
	return names
}

// PerftWith counts like Perft (or PerftBik, per c) by the named kernel. It
// reports false, and counts nothing, for a name not in PerftKernels.
func PerftWith(name string, p Position, depth int, c Convention) (uint64, bool) {
	for k, n := range kernelNames {
		if n == name && kernelRuns(k) {
			return perftBy(p, depth, c, k), true
		}
	}
	return 0, false
}

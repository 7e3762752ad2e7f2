//go:build amd64 && !purego

package othello

// asmKernels lists the assembly kernels of amd64.
func asmKernels() []asmKernel {
	return []asmKernel{
		{"avx2", x86.avx2, nil, perft3AVX2},
		{"avx512", x86.avx512, leavesAVX512, perft3AVX512},
	}
}

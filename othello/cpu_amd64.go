//go:build amd64 && !purego

package othello

// cpuid returns the registers CPUID leaves for the given EAX and ECX.
func cpuid(eaxArg, ecxArg uint32) (eax, ebx, ecx, edx uint32)

// xgetbv returns XCR0, the register-state components the operating system
// saves and restores. Call it only when CPUID reports OSXSAVE.
func xgetbv() (eax, edx uint32)

// cpuFeatures is what the perft kernels need of the processor and the
// operating system.
type cpuFeatures struct {
	avx2   bool // AVX2, BMI1, BMI2, POPCNT, and the OS saves the YMM state
	avx512 bool // avx2, AVX-512 F/DQ/BW/VL, VBMI2 and VPOPCNTDQ, and the OS saves the ZMM and mask state
}

// x86 holds the features of this processor, detected once. It is never
// changed after initialization.
var x86 = detectCPU()

func detectCPU() cpuFeatures {
	maxLeaf, _, _, _ := cpuid(0, 0)
	if maxLeaf < 7 {
		return cpuFeatures{}
	}
	_, _, ecx1, _ := cpuid(1, 0)
	const (
		popcnt  = 1 << 23
		osxsave = 1 << 27
		avx     = 1 << 28
	)
	if ecx1&(popcnt|osxsave|avx) != popcnt|osxsave|avx {
		return cpuFeatures{}
	}
	xcr0, _ := xgetbv()
	const (
		xmmYmm  = 1<<1 | 1<<2        // SSE and AVX state
		zmmMask = 1<<5 | 1<<6 | 1<<7 // opmask, ZMM0-15 upper halves, ZMM16-31
	)
	if xcr0&xmmYmm != xmmYmm {
		return cpuFeatures{}
	}
	_, ebx7, ecx7, _ := cpuid(7, 0)
	const (
		bmi1     = 1 << 3
		avx2     = 1 << 5
		bmi2     = 1 << 8
		avx512f  = 1 << 16
		avx512dq = 1 << 17
		avx512bw = 1 << 30
		avx512vl = 1 << 31
		vbmi2    = 1 << 6  // in ECX
		vpopcnt  = 1 << 14 // in ECX
	)
	var f cpuFeatures
	f.avx2 = ebx7&(bmi1|avx2|bmi2) == bmi1|avx2|bmi2
	const avx512 = avx512f | avx512dq | avx512bw | avx512vl
	f.avx512 = f.avx2 && xcr0&zmmMask == zmmMask && ebx7&avx512 == avx512 && ecx7&(vbmi2|vpopcnt) == vbmi2|vpopcnt
	return f
}

//go:build !amd64 || purego

package othello

// asmKernels lists no kernel: there is no assembly on this architecture, or
// the purego build tag asks for none.
func asmKernels() []asmKernel { return nil }

//go:build linux

package protocol_test

import (
	"errors"
	"syscall"
	"testing"
)

// pddSubreaper makes the test binary a child subreaper: the children a
// strategy program leaves behind become ours when it dies, so a test can
// wait for them (and see how they died) instead of polling.
func pddSubreaper(t *testing.T) {
	const prSetChildSubreaper = 36
	if _, _, errno := syscall.RawSyscall(syscall.SYS_PRCTL, prSetChildSubreaper, 1, 0); errno != 0 {
		t.Fatalf("prctl(PR_SET_CHILD_SUBREAPER): %v", errno)
	}
}

// checkPDDChildKilled checks that the orphaned child pid is gone: internal/proc
// killed it at the end of its program and, as it was ours, reaped it (an
// unreaped zombie would still be there).
func checkPDDChildKilled(t *testing.T, pid int) {
	t.Helper()
	if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
		t.Errorf("child %d: %v, want ESRCH (killed and reaped)", pid, err)
	}
}

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

// checkPDDChildKilled waits for the orphaned child pid and checks that
// SIGKILL ended it.
func checkPDDChildKilled(t *testing.T, pid int) {
	t.Helper()
	var ws syscall.WaitStatus
	for {
		_, err := syscall.Wait4(pid, &ws, 0, nil)
		if errors.Is(err, syscall.EINTR) {
			continue
		}
		if err != nil {
			t.Fatalf("wait4(%d): %v", pid, err)
		}
		break
	}
	if !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
		t.Errorf("child %d ended with %v, want SIGKILL", pid, ws)
	}
}

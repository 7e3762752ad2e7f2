//go:build linux

package proctest

import (
	"errors"
	"syscall"
	"testing"

	"github.com/botarena/botarena/internal/proc"
)

// Subreaper makes the test binary a child subreaper (proc.Subreaper): the
// children a program leaves behind become ours when it dies, so a test can
// wait for them (and see how they died) instead of polling.
func Subreaper(t testing.TB) {
	t.Helper()
	if err := proc.Subreaper(); err != nil {
		t.Fatalf("proc.Subreaper: %v", err)
	}
}

// CheckChildKilled checks that the orphaned child pid is gone: internal/proc
// killed it at the end of its program and, as it was ours, reaped it (an
// unreaped zombie would still be there).
func CheckChildKilled(t testing.TB, pid int) {
	t.Helper()
	if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
		t.Errorf("child %d: %v, want ESRCH (killed and reaped)", pid, err)
	}
}

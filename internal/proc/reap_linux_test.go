//go:build linux

package proc_test

import (
	"errors"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/botarena/botarena/internal/proc"
)

// TestMain makes the test binary a child subreaper, so that the children a
// program leaves behind become ours when it dies, and a test can wait for
// them (proving that they were killed) instead of polling.
func TestMain(m *testing.M) {
	const prSetChildSubreaper = 36
	if _, _, errno := syscall.RawSyscall(syscall.SYS_PRCTL, prSetChildSubreaper, 1, 0); errno != 0 {
		os.Stderr.WriteString("prctl(PR_SET_CHILD_SUBREAPER): " + errno.Error() + "\n")
		os.Exit(1)
	}
	os.Exit(m.Run())
}

// reapOrphan waits for the orphaned process pid, now our child, and returns
// how it ended.
func reapOrphan(t *testing.T, pid int) syscall.WaitStatus {
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
		return ws
	}
}

// checkKilled checks that the child whose pid the program printed was
// killed by SIGKILL, and that nothing is left in the program's process
// group.
func checkKilled(t *testing.T, res proc.Result) {
	t.Helper()
	pid, err := strconv.Atoi(strings.TrimSpace(string(res.Stdout)))
	if err != nil {
		t.Fatalf("stdout %q: %v", res.Stdout, err)
	}
	if ws := reapOrphan(t, pid); !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
		t.Errorf("child %d ended with %v", pid, ws)
	}
	if err := syscall.Kill(-res.Pid, 0); !errors.Is(err, syscall.ESRCH) {
		t.Errorf("process group %d: %v, want ESRCH", res.Pid, err)
	}
}

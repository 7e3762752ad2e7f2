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

// TestMain makes the test binary a child subreaper, as a host is, so that
// the processes a program leaves behind become ours when it dies: proc must
// reap them, and a test can wait for the others instead of polling. Started
// under another name, the test binary is a helper program instead (see
// sleeper and host in contain_linux_test.go).
func TestMain(m *testing.M) {
	if helper(os.Args) {
		return
	}
	if err := proc.Subreaper(); err != nil {
		os.Stderr.WriteString(err.Error() + "\n")
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

// checkKilled checks that the child whose pid the program printed is gone,
// killed and reaped by proc (it was our child: an unreaped zombie would
// still be there), and that nothing is left in the program's process group.
func checkKilled(t *testing.T, res proc.Result) {
	t.Helper()
	pid, err := strconv.Atoi(strings.TrimSpace(string(res.Stdout)))
	if err != nil {
		t.Fatalf("stdout %q: %v", res.Stdout, err)
	}
	if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
		t.Errorf("child %d: %v, want ESRCH (killed and reaped)", pid, err)
	}
	if err := syscall.Kill(-res.Pid, 0); !errors.Is(err, syscall.ESRCH) {
		t.Errorf("process group %d: %v, want ESRCH", res.Pid, err)
	}
}

// leaveSleeper is a shell command that starts "sleep 100" in the
// background and prints its pid as the host sees it, once it runs. In the
// program's PID namespace "$!" is the pid there, so the sleeper reads its
// own from the host's /proc (which is what the program sees) before it
// becomes sleep; the command substitution ends when it has.
const leaveSleeper = `echo "$(sh -c 'read p _ </proc/self/stat; echo $p; exec sleep 100 >/dev/null' &)"`

// withoutNamespace returns c set to run the program outside a PID
// namespace of its own.
func withoutNamespace(c proc.Config) proc.Config { return proc.WithoutNamespace(c) }

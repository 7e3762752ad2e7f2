//go:build unix && !linux

package proc_test

import (
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/botarena/botarena/internal/proc"
)

// Without a subreaper the orphans belong to init, so these checks are
// left to Linux.
func reapOrphan(*testing.T, int) {}

func checkKilled(*testing.T, proc.Result) {}

// leaveSleeper is a shell command that starts "sleep 100" in the
// background and prints its pid.
const leaveSleeper = `sleep 100 & echo $!`

// withoutNamespace returns c: there are no PID namespaces here.
func withoutNamespace(c proc.Config) proc.Config { return c }

// A child that leaves the group on purpose cannot hold Wait for longer than
// the drain time.
func TestWaitBoundedByDrain(t *testing.T) {
	if _, err := os.Stat("/usr/bin/setsid"); err != nil {
		t.Skip("no setsid")
	}
	c := sh(`setsid sleep 100 & echo $!`)
	c.Drain = 50 * time.Millisecond
	res, err := proc.Run(t.Context(), c)
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(res.Stdout)))
	if err != nil {
		t.Fatalf("stdout %q", res.Stdout)
	}
	// The escaped sleep is ours to end.
	syscall.Kill(pid, syscall.SIGKILL)
	reapOrphan(t, pid)
}

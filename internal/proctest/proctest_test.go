//go:build unix

package proctest_test

import (
	"fmt"
	"log/slog"
	"os/exec"
	"testing"

	"github.com/botarena/botarena/internal/proctest"
)

// recorder is a testing.TB that keeps what Errorf reports.
type recorder struct {
	testing.TB
	errs []string
}

func (r *recorder) Helper() {}

func (r *recorder) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

func TestPIDLog(t *testing.T) {
	var log proctest.PIDLog
	cmd := exec.Command("true")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	slog.New(&log).Info("started", "pid", cmd.Process.Pid)
	slog.New(&log).Info("no pid here")
	if got := log.PIDs(); len(got) != 1 || got[0] != cmd.Process.Pid {
		t.Fatalf("PIDs = %v", got)
	}

	// Not yet waited for, the child is a process (at least a zombie).
	r := &recorder{TB: t}
	log.CheckReaped(r)
	if len(r.errs) != 1 {
		t.Errorf("CheckReaped before Wait reported %q, want one error", r.errs)
	}

	if err := cmd.Wait(); err != nil {
		t.Fatal(err)
	}
	r = &recorder{TB: t}
	log.CheckReaped(r)
	if len(r.errs) != 0 {
		t.Errorf("CheckReaped after Wait reported %q", r.errs)
	}
}

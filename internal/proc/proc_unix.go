//go:build unix && !linux

package proc

import (
	"errors"
	"os/exec"
	"syscall"
	"time"
)

// Subreaper reports errors.ErrUnsupported: child subreapers are Linux's.
func Subreaper() error { return errors.ErrUnsupported }

// container holds the program's process group: the program leads a new
// one, and its end is SIGKILL to the group. A descendant that leaves the
// group (setsid) escapes it.
type container struct {
	pid int
}

func newContainer(Config) *container { return &container{} }

// prepare makes the program the leader of a new process group.
func (*container) prepare(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

func (*container) retry() bool { return false }

func (*container) launch(cmd *exec.Cmd) (bool, error) { return false, cmd.Start() }

// startedAt returns when the program started: when launch was called.
func (*container) startedAt(tried time.Time) time.Time { return tried }

func (ct *container) programPid() int { return ct.pid }

func (*container) reaped() {}

func (*container) status() (int, string, bool) { return 0, "", false }

func (*container) exited() {}

func (*container) release() {}

func (ct *container) started(cmd *exec.Cmd) { ct.pid = cmd.Process.Pid }

// kill sends SIGKILL to the program's process group. A group that is gone
// already (ESRCH) is no error.
func (ct *container) kill() { syscall.Kill(-ct.pid, syscall.SIGKILL) }

// finish kills what is left of the group.
func (ct *container) finish() { ct.kill() }

// containment reports the process group.
func (*container) containment() Containment { return ContainGroup }

// Probe reports the containment a program started now would get: here its
// process group.
func Probe() Containment { return ContainGroup }

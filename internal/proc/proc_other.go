//go:build !unix

package proc

import (
	"errors"
	"os/exec"
	"time"
)

// Subreaper reports errors.ErrUnsupported: child subreapers are Linux's.
func Subreaper() error { return errors.ErrUnsupported }

// container holds only the program itself: without Unix process groups its
// descendants are out of reach.
type container struct {
	cmd *exec.Cmd
}

func newContainer(Config) *container { return &container{} }

func (*container) prepare(*exec.Cmd) {}

func (*container) retry() bool { return false }

func (*container) launch(cmd *exec.Cmd) (bool, error) { return false, cmd.Start() }

// startedAt returns when the program started: when launch was called.
func (*container) startedAt(tried time.Time) time.Time { return tried }

func (ct *container) programPid() int { return ct.cmd.Process.Pid }

func (*container) reaped() {}

func (*container) status() (int, string, bool) { return 0, "", false }

func (*container) exited() {}

func (*container) release() {}

func (ct *container) started(cmd *exec.Cmd) { ct.cmd = cmd }

// kill kills the program, if it is still running.
func (ct *container) kill() { ct.cmd.Process.Kill() }

// finish has nothing left to kill once the program has exited.
func (*container) finish() {}

// containment reports the program alone.
func (*container) containment() Containment { return ContainProgram }

// Probe reports the containment a program started now would get: here the
// program alone.
func Probe() Containment { return ContainProgram }

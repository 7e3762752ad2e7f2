//go:build unix

package proc

import (
	"os/exec"
	"syscall"
)

// setProcAttr makes the program the leader of a new process group.
func setProcAttr(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// killGroup sends SIGKILL to the program's process group. A group that is
// gone already (ESRCH) is no error.
func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil && cmd.Process.Pid > 0 {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}

//go:build !unix

package proc

import "os/exec"

// setProcAttr does nothing: without Unix process groups only the program
// itself can be killed.
func setProcAttr(*exec.Cmd) {}

// killGroup kills the program itself, if it is still running.
func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		cmd.Process.Kill()
	}
}

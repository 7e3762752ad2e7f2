//go:build linux

package proc

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"syscall"

	"github.com/botarena/botarena/internal/proc/nsinit"
)

// The init of a program's PID namespace is package nsinit's: the host's
// own binary started again (/proc/self/exe), whose messages initReport
// reads.
const (
	initArg0  = nsinit.Arg0
	initVar   = nsinit.Var
	msgPid    = nsinit.MsgPid
	msgErr    = nsinit.MsgErr
	msgStatus = nsinit.MsgStatus
)

// initReport reads the init's messages from the host's end of its pipe.
type initReport struct {
	r *bufio.Reader
	f *os.File
}

// next reads the next message: its kind and number, or ok false at the end
// of the pipe (the init is gone) or on a line that is not a message.
func (ir initReport) next() (kind string, n uint64, ok bool) {
	line, err := ir.r.ReadString('\n')
	if err != nil {
		return "", 0, false
	}
	kind, num, found := strings.Cut(strings.TrimSuffix(line, "\n"), " ")
	n, err = strconv.ParseUint(num, 10, 32)
	return kind, n, found && err == nil
}

// statusString describes ws as os.ProcessState.String does: "exit status
// 3", "signal: killed", "signal: aborted (core dumped)".
func statusString(ws syscall.WaitStatus) string {
	var s string
	switch {
	case ws.Exited():
		s = "exit status " + strconv.Itoa(ws.ExitStatus())
	case ws.Signaled():
		s = "signal: " + ws.Signal().String()
	case ws.Stopped():
		s = "stop signal: " + ws.StopSignal().String()
	case ws.Continued():
		s = "continued"
	}
	if ws.CoreDump() {
		s += " (core dumped)"
	}
	return s
}

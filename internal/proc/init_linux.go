//go:build linux

package proc

import (
	"bufio"
	"fmt"
	"os"
	ossignal "os/signal"
	"strconv"
	"strings"
	"syscall"
)

// The init: in its own PID namespace a program is not the namespace's first
// process (pid 1) but its child. The first process is the host's own binary
// started again (/proc/self/exe) with a marker, which this package's init
// function sees before anything else runs, as Docker's reexec package does;
// it then starts the program, reaps every orphan of the namespace, and
// reports to the host, over a pipe (its file descriptor 3), the program's
// pid as the host sees it and then the program's exact wait status, and
// exits, which kills whatever is left in the namespace. The program so
// keeps the signal semantics of any process (a pid 1 ignores the signals
// from its namespace that it has no handler for: kill -ABRT $$ would do
// nothing), and its own pid is not 1.
const (
	// initArg0 is the init's argv[0]; its arguments are the program's
	// path and then the program's argv.
	initArg0 = "botarena-proc-init"
	// initVar marks the init's environment (with initArg0 as argv[0]); the
	// init removes it before it starts the program.
	initVar = "BOTARENA_PROC_INIT"
	// initFd is the init's end of the pipe to the host.
	initFd = 3
)

// The init's messages to the host, one line each: "pid N" once the program
// runs (N its pid in the host's PID namespace, 0 if the init could not find
// it), or "err N" if it could not be started (N the errno of its execve);
// then "status N" when it has ended (N its wait status).
const (
	msgPid    = "pid"
	msgErr    = "err"
	msgStatus = "status"
)

func init() {
	if len(os.Args) < 3 || os.Args[0] != initArg0 || os.Getenv(initVar) == "" {
		return
	}
	os.Exit(runInit(os.Args[1], os.Args[2:]))
}

// runInit is the namespace's first process: it starts path with argv, the
// standard input, output and error, the working directory and the
// environment it was given (less initVar), in a process group of the
// program's own, and waits for it, reaping every other process that ends
// in the meantime (orphans of the namespace are its children).
func runInit(path string, argv []string) int {
	os.Unsetenv(initVar)
	syscall.CloseOnExec(initFd) // never the program's
	host := os.NewFile(initFd, "host")
	// A signal sent from within the namespace reaches the init only if it
	// has a handler; the Go runtime's handler would end it for most. So
	// the init takes the catchable signals itself and drops them, but not
	// those it was started with ignored, which the program inherits so
	// (exec keeps an ignored signal ignored, and sets a caught one back to
	// its default).
	var caught []os.Signal
	for s := syscall.Signal(1); s < 65; s++ {
		if s != syscall.SIGKILL && s != syscall.SIGSTOP && !ossignal.Ignored(s) {
			caught = append(caught, s)
		}
	}
	ossignal.Notify(make(chan os.Signal, 1), caught...)

	pid, err := syscall.ForkExec(path, argv, &syscall.ProcAttr{
		Env:   os.Environ(),
		Files: []uintptr{0, 1, 2},
		Sys:   &syscall.SysProcAttr{Setpgid: true},
	})
	if err != nil {
		errno, ok := err.(syscall.Errno)
		if !ok {
			errno = syscall.EINVAL
		}
		fmt.Fprintf(host, "%s %d\n", msgErr, int(errno))
		return 127
	}
	fmt.Fprintf(host, "%s %d\n", msgPid, hostPid(pid))
	var ws syscall.WaitStatus
	for {
		got, err := syscall.Wait4(-1, &ws, 0, nil)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return 126 // no child left, and the program was not seen ending: cannot be
		}
		if got == pid {
			break
		}
	}
	fmt.Fprintf(host, "%s %d\n", msgStatus, uint32(ws))
	return 0
}

// hostPid returns the pid, in the host's PID namespace, of the init's child
// whose pid is nspid in the init's namespace, or 0 if it finds none. /proc
// is still the host's: /proc/self is the init as the host sees it, its
// threads' children files list host pids, and /proc/<pid>/status's NSpid
// line gives a process's pid in each namespace, the innermost last. Where
// the kernel has no children files, every process's parent is read.
func hostPid(nspid int) int {
	mine := func(pid int) bool {
		data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
		if err != nil {
			return false
		}
		for line := range strings.Lines(string(data)) {
			if rest, ok := strings.CutPrefix(line, "NSpid:"); ok {
				f := strings.Fields(rest)
				return len(f) > 0 && f[len(f)-1] == strconv.Itoa(nspid)
			}
		}
		return false
	}
	tasks, err := os.ReadDir("/proc/self/task")
	if err == nil {
		for _, t := range tasks {
			data, err := os.ReadFile("/proc/self/task/" + t.Name() + "/children")
			if err != nil {
				break // no children files
			}
			for _, f := range strings.Fields(string(data)) {
				if pid, err := strconv.Atoi(f); err == nil && mine(pid) {
					return pid
				}
			}
		}
	}
	self, err := os.Readlink("/proc/self")
	if err != nil {
		return 0
	}
	me, _ := strconv.Atoi(self)
	for pid, in := range scanProcs() {
		if in.ppid == me && mine(pid) {
			return pid
		}
	}
	return 0
}

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

//go:build linux

package nsinit

import (
	"os"
	"strconv"
	"strings"
	"syscall"
)

const (
	// Arg0 is the init's argv[0]; its arguments are the program's path
	// and then the program's argv.
	Arg0 = "botarena-proc-init"
	// Var marks the init's environment (with Arg0 as argv[0]); the init
	// removes it before it starts the program.
	Var = "BOTARENA_PROC_INIT"
	// Fd is the init's end of the pipe to the host.
	Fd = 3
)

// The init's messages to the host, one line each: "pid N" once the program
// runs (N its pid in the host's PID namespace, 0 if the init could not find
// it), or "err N" if it could not be started (N the errno of its execve);
// then "status N" when it has ended (N its wait status).
const (
	// MsgPid reports the program's pid.
	MsgPid = "pid"
	// MsgErr reports that the program could not be started.
	MsgErr = "err"
	// MsgStatus reports the program's wait status.
	MsgStatus = "status"
)

func init() {
	if len(os.Args) < 3 || os.Args[0] != Arg0 || os.Getenv(Var) == "" {
		return
	}
	// syscall.Exit, not os.Exit: the race detector's exit hook, which
	// os.Exit runs, sleeps a second (GORACE atexit_sleep_ms) before the
	// init of a -race binary could report the program's end.
	syscall.Exit(run(os.Args[1], os.Args[2:]))
}

// run is the namespace's first process: it starts path with argv and
// waits for it, reaping every other process that ends in the meantime.
func run(path string, argv []string) int {
	os.Unsetenv(Var)
	syscall.CloseOnExec(Fd) // never the program's
	host := os.NewFile(Fd, "host")
	say := func(kind string, n uint64) {
		host.WriteString(kind + " " + strconv.FormatUint(n, 10) + "\n")
	}
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
		say(MsgErr, uint64(errno))
		return 127
	}
	releaseStdio()
	say(MsgPid, uint64(hostPid(pid)))
	var ws syscall.WaitStatus
	for {
		got, err := syscall.Wait4(-1, &ws, 0, nil)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return 126 // no child left, and the program not seen ending: cannot be
		}
		if got == pid {
			break
		}
	}
	say(MsgStatus, uint64(uint32(ws)))
	return 0
}

// releaseStdio puts the null device in place of the init's standard
// input, output and error, which are the program's: the program alone
// holds them then, so that the host sees the end of its output as soon as
// the program closes it (a program that disconnects while it runs on).
func releaseStdio() {
	null, err := syscall.Open(os.DevNull, syscall.O_RDWR|syscall.O_CLOEXEC, 0)
	for fd := range 3 {
		if err == nil {
			syscall.Dup3(null, fd, 0)
		} else {
			syscall.Close(fd)
		}
	}
	if err == nil && null > 2 {
		syscall.Close(null)
	}
}

// hostPid returns the pid, in the host's PID namespace, of the init's child
// whose pid is nspid in the init's namespace, or 0 if it finds none. /proc
// is still the host's: /proc/self is the init as the host sees it, its
// threads' children files list host pids, and /proc/<pid>/status's NSpid
// line gives a process's pid in each namespace, the innermost last. Where
// the kernel has no children files, every process's parent is read.
func hostPid(nspid int) int {
	want := strconv.Itoa(nspid)
	mine := func(pid string) bool {
		data, err := os.ReadFile("/proc/" + pid + "/status")
		if err != nil {
			return false
		}
		for line := range strings.Lines(string(data)) {
			if rest, ok := strings.CutPrefix(line, "NSpid:"); ok {
				f := strings.Fields(rest)
				return len(f) > 0 && f[len(f)-1] == want
			}
		}
		return false
	}
	found := func(pid string) int {
		n, _ := strconv.Atoi(pid)
		return n
	}
	if tasks, err := os.ReadDir("/proc/self/task"); err == nil {
		for _, t := range tasks {
			data, err := os.ReadFile("/proc/self/task/" + t.Name() + "/children")
			if err != nil {
				break // no children files
			}
			for _, pid := range strings.Fields(string(data)) {
				if mine(pid) {
					return found(pid)
				}
			}
		}
	}
	self, err := os.Readlink("/proc/self")
	if err != nil {
		return 0
	}
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		stat, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		i := strings.LastIndexByte(string(stat), ')')
		if err != nil || i < 0 {
			continue
		}
		// "pid (comm) state ppid ..."
		if f := strings.Fields(string(stat[i+1:])); len(f) > 1 && f[1] == self && mine(e.Name()) {
			return found(e.Name())
		}
	}
	return 0
}

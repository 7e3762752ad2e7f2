//go:build linux

package nsinit

import "syscall"

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

// maxProcFile bounds what the init reads of a /proc file (a status, a stat
// or a children list), and maxCmdline of its own command line: Linux's exec
// takes arguments and environment of at most a quarter of the stack limit,
// and never more than 6 MiB.
const (
	maxProcFile = 1 << 20
	maxCmdline  = 8 << 20
)

func init() {
	if v, _ := syscall.Getenv(Var); v == "" {
		return
	}
	// The package imports syscall alone, so that it is initialized as
	// soon as syscall is, before the host's other packages (os among
	// them, which would give os.Args): the init's own arguments come from
	// /proc.
	cmdline, ok := readFile("/proc/self/cmdline", maxCmdline)
	if !ok {
		// Only the host sets Var, for its init: an init that cannot
		// read its arguments must not go on as the host's program.
		syscall.Write(2, []byte("botarena: the process init cannot read /proc/self/cmdline\n"))
		syscall.Exit(127)
	}
	args := splitNUL(cmdline)
	if len(args) < 3 || args[0] != Arg0 {
		return
	}
	// syscall.Exit, not os.Exit: the race detector's exit hook, which
	// os.Exit runs, sleeps a second (GORACE atexit_sleep_ms) before the
	// init of a -race binary could report the program's end.
	syscall.Exit(run(args[1], args[2:]))
}

// run is the namespace's first process: it starts path with argv and
// waits for it, reaping every other process that ends in the meantime.
func run(path string, argv []string) int {
	syscall.Unsetenv(Var)
	syscall.CloseOnExec(Fd) // never the program's
	say := func(kind string, n uint64) {
		syscall.Write(Fd, []byte(kind+" "+utoa(n)+"\n"))
	}
	pid, err := syscall.ForkExec(path, argv, &syscall.ProcAttr{
		Env:   syscall.Environ(),
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
	null, err := syscall.Open("/dev/null", syscall.O_RDWR|syscall.O_CLOEXEC, 0)
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
	want := utoa(uint64(nspid))
	mine := func(pid string) bool {
		data, ok := readFile("/proc/"+pid+"/status", maxProcFile)
		if !ok {
			return false
		}
		for _, line := range splitByte(data, '\n') {
			if rest, ok := cutPrefix(line, "NSpid:"); ok {
				f := fields(rest)
				return len(f) > 0 && f[len(f)-1] == want
			}
		}
		return false
	}
	if tasks, ok := readDir("/proc/self/task"); ok {
		for _, t := range tasks {
			data, ok := readFile("/proc/self/task/"+t+"/children", maxProcFile)
			if !ok {
				break // no children files
			}
			for _, pid := range fields(data) {
				if mine(pid) {
					return atoi(pid)
				}
			}
		}
	}
	buf := make([]byte, 32)
	n, err := syscall.Readlink("/proc/self", buf)
	if err != nil || n <= 0 {
		return 0
	}
	self := string(buf[:n])
	entries, _ := readDir("/proc")
	for _, e := range entries {
		stat, ok := readFile("/proc/"+e+"/stat", maxProcFile)
		i := lastIndexByte(stat, ')')
		if !ok || i < 0 {
			continue
		}
		// "pid (comm) state ppid ..."
		if f := fields(stat[i+1:]); len(f) > 1 && f[1] == self && mine(e) {
			return atoi(e)
		}
	}
	return 0
}

// readFile reads the whole file at path, if it holds at most limit bytes: a
// longer one is not read (ok false), never in part.
func readFile(path string, limit int) (string, bool) {
	fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return "", false
	}
	defer syscall.Close(fd)
	var data []byte
	buf := make([]byte, 4096)
	for {
		n, err := syscall.Read(fd, buf)
		if err == syscall.EINTR {
			continue
		}
		if err != nil || len(data)+n > limit {
			return "", false // a file longer than limit is not read at all, never in part
		}
		if n <= 0 {
			return string(data), true
		}
		data = append(data, buf[:n]...)
	}
}

// readDir lists the names in the directory at path.
func readDir(path string) ([]string, bool) {
	fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil, false
	}
	defer syscall.Close(fd)
	var names []string
	buf := make([]byte, 8192)
	for {
		n, err := syscall.ReadDirent(fd, buf)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return names, false
		}
		if n <= 0 {
			return names, true
		}
		_, _, names = syscall.ParseDirent(buf[:n], -1, names)
	}
}

// utoa formats n in decimal.
func utoa(n uint64) string {
	var b [20]byte
	i := len(b)
	for {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
		if n == 0 {
			return string(b[i:])
		}
	}
}

// atoi parses a decimal pid, 0 if s is not one.
func atoi(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' || n > 1<<30 {
			return 0
		}
		n = n*10 + int(s[i]-'0')
	}
	return n
}

// splitNUL splits a /proc cmdline into its arguments, each ended by a NUL.
func splitNUL(s string) []string {
	if len(s) > 0 && s[len(s)-1] == 0 {
		s = s[:len(s)-1]
	}
	return splitByte(s, 0)
}

// splitByte splits s around each sep.
func splitByte(s string, sep byte) []string {
	var out []string
	start := 0
	for i := 0; i < len(s); i++ {
		if s[i] == sep {
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}

// fields splits s around runs of spaces, tabs and newlines.
func fields(s string) []string {
	var out []string
	start := -1
	for i := 0; i <= len(s); i++ {
		blank := i == len(s) || s[i] == ' ' || s[i] == '\t' || s[i] == '\n'
		switch {
		case blank && start >= 0:
			out = append(out, s[start:i])
			start = -1
		case !blank && start < 0:
			start = i
		}
	}
	return out
}

// cutPrefix returns s without prefix, and whether s began with it.
func cutPrefix(s, prefix string) (string, bool) {
	if len(s) < len(prefix) || s[:len(prefix)] != prefix {
		return s, false
	}
	return s[len(prefix):], true
}

// lastIndexByte returns the index of the last c in s, or -1.
func lastIndexByte(s string, c byte) int {
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] == c {
			return i
		}
	}
	return -1
}

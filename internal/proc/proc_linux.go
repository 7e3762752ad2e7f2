//go:build linux

package proc

import (
	"bufio"
	"bytes"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
	"unsafe"
)

// prctl options, from <linux/prctl.h> (the same on every architecture;
// package syscall names them only on some).
const (
	prSetChildSubreaper = 36 // PR_SET_CHILD_SUBREAPER
	prGetChildSubreaper = 37 // PR_GET_CHILD_SUBREAPER
)

// The bounds of the containment's work at the end of a program.
const (
	// killWait bounds how long the end of a program waits for its killed
	// descendants to be gone: a process in uninterruptible sleep dies only
	// when it wakes.
	killWait = 5 * time.Second
	// stopRounds bounds the /proc scans that stop a program's descendants
	// before they are killed; each round stops all those found, so only
	// those forked during the round before can be new.
	stopRounds = 16
	// environMax bounds how much of a process's environment is read to look
	// for the cookie.
	environMax = 1 << 20
	// cgroupPrefix starts the name of every program's cgroup, which goes
	// on with the host's pid and the program's cookie.
	cgroupPrefix = "botarena-"
)

// Subreaper makes the calling process a child subreaper (prctl
// PR_SET_CHILD_SUBREAPER): a process whose parent dies becomes the caller's
// child instead of init's, so a descendant of a program that outlives its
// parent stays within reach of the host, and proc reaps it at the end of
// that program. Call it once, at the start of the main function of a host
// that runs programs. A host that also starts children outside proc must
// reap the orphans of those itself. Elsewhere than on Linux it returns an
// error that wraps errors.ErrUnsupported.
func Subreaper() error {
	if _, _, errno := syscall.RawSyscall(syscall.SYS_PRCTL, prSetChildSubreaper, 1, 0); errno != 0 {
		return fmt.Errorf("proc: prctl(PR_SET_CHILD_SUBREAPER): %w", errno)
	}
	return nil
}

// isSubreaper reports whether the host is a child subreaper.
func isSubreaper() bool {
	var v int32
	_, _, errno := syscall.Syscall(syscall.SYS_PRCTL, prGetChildSubreaper, uintptr(unsafe.Pointer(&v)), 0)
	return errno == 0 && v != 0
}

// container holds a program and every process it starts (see the package
// documentation): as the first process of a PID namespace of its own where
// the kernel allows it, in a cgroup of its own when one is writable,
// otherwise by the cookie in their environment, their process groups and
// sessions and their parents, as /proc shows them.
type container struct {
	cookie string  // random, in the program's environment
	self   int     // the host's pid
	cg     *cgroup // the program's cgroup, or nil
	ways   []way   // the ways left to try, strongest first; ways[0] is the one tried or used
	ns     bool    // the program runs in its own PID namespace, under the init (set by started)

	// With the namespace: the host's end of the init's pipe, the program's
	// pid in the host's namespace (0 if the init could not find it), and
	// its wait status as the init reported it (see init_linux.go).
	report  initReport
	progPid int
	ranAt   time.Time // when the init said the program runs
	ws      syscall.WaitStatus
	wsKnown bool

	mu       sync.Mutex
	proc     *os.Process    // the program (a pidfd: never another process of the same pid)
	pid      int            // the program
	start    uint64         // its start time in /proc (clock ticks since boot); 0 without /proc
	found    map[int]uint64 // the processes found to be the program's: pid → start time
	finished bool
}

// cgroup is a program's cgroup (v2).
type cgroup struct {
	dir string   // its directory
	rel string   // its path in the hierarchy, as /proc/<pid>/cgroup shows it
	fd  *os.File // the open directory, for clone3 (CLONE_INTO_CGROUP); nil once started
}

// way is one way to start a program: in its own PID (and user) namespace
// or not, in its own cgroup or not.
type way struct{ ns, cg bool }

// newContainer makes the cookie and, unless c says not to, the cgroup, and
// lists the ways to try, strongest first: each start that fails falls back
// to the next (see retry). Probing this way, at every start, costs nothing
// where the strongest works, and only a failed clone where it does not.
func newContainer(c Config) *container {
	ct := &container{cookie: rand.Text(), self: os.Getpid(), found: map[int]uint64{}}
	if !c.noCgroup {
		ct.cg = newCgroup(fmt.Sprintf("%s%d-%s", cgroupPrefix, ct.self, ct.cookie))
	}
	for _, ns := range []bool{true, false} {
		for _, cg := range []bool{true, false} {
			if (!ns || !c.noNamespace) && (!cg || ct.cg != nil) {
				ct.ways = append(ct.ways, way{ns, cg})
			}
		}
	}
	return ct
}

// prepare sets what the program is started with, in the way it is tried:
// a process group of its own, SIGKILL when the host's starting thread dies
// (see Process.run), its namespaces, its cgroup, and the cookie in its
// environment. With the namespaces, cmd starts the init instead (the
// host's own binary, marked), in the program's directory and with its
// standard files and environment, which starts the program.
func (ct *container) prepare(cmd *exec.Cmd) {
	sys := &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	w := ct.ways[0]
	if w.ns {
		setNamespaces(sys)
	}
	if w.cg {
		sys.UseCgroupFD, sys.CgroupFD = true, int(ct.cg.fd.Fd())
	}
	cmd.SysProcAttr = sys
	cmd.Env = withCookie(cmd.Environ(), ct.cookie) // Environ: with PWD as exec sets it
	if w.ns && cmd.Err == nil {
		cmd.Args = append([]string{initArg0, cmd.Path}, cmd.Args...)
		cmd.Path = "/proc/self/exe"
		cmd.Env = append(cmd.Env, initVar+"=1")
	}
}

// launch starts cmd as prepare set it. With the namespaces it waits for the
// init's first word: the program runs, and its pid; or it could not be
// started, an error as os/exec gives it ("fork/exec PATH: ..."), and the
// init is reaped. Only a failure to start the init itself is worth another
// way (see retry): the program's own would be the same in every way.
func (ct *container) launch(cmd *exec.Cmd) (retry bool, err error) {
	if !ct.ways[0].ns || cmd.Err != nil {
		return true, cmd.Start()
	}
	r, w, err := os.Pipe()
	if err != nil {
		return true, err
	}
	cmd.ExtraFiles = []*os.File{w}
	err = cmd.Start()
	w.Close()
	if err != nil {
		r.Close()
		return true, err
	}
	ct.report = initReport{bufio.NewReader(r), r}
	kind, n, ok := ct.report.next()
	switch {
	case ok && kind == msgPid:
		ct.progPid, ct.ranAt = int(n), time.Now()
		return false, nil
	case ok && kind == msgErr:
		err = &os.PathError{Op: "fork/exec", Path: cmd.Args[1], Err: syscall.Errno(n)}
	default:
		err = errors.New("the init of its PID namespace ended before the program ran")
	}
	cmd.Wait()
	r.Close()
	return !ok, err
}

// startedAt returns when the program started: when launch was called
// (tried), or, under the init of its PID namespace, when the init said that
// the program runs, so that the init's own start is not the program's time.
func (ct *container) startedAt(tried time.Time) time.Time {
	if !ct.ranAt.IsZero() {
		return ct.ranAt
	}
	return tried
}

// programPid returns the program's pid as the host sees it.
func (ct *container) programPid() int {
	if ct.ns && ct.progPid > 0 {
		return ct.progPid
	}
	return ct.pid
}

// reaped takes, once the init has been reaped, its last word: the program's
// wait status, which the init did not say if it was killed (and the
// program with it, so that the init's status is the program's).
func (ct *container) reaped() {
	if !ct.ns {
		return
	}
	if kind, n, ok := ct.report.next(); ok && kind == msgStatus {
		ct.ws, ct.wsKnown = syscall.WaitStatus(n), true
	}
	ct.report.f.Close()
}

// status returns the program's exit code (-1 if a signal ended it) and its
// end described as os.ProcessState does, when they are not what the host's
// wait said (that is the init's): ok when the init reported them.
func (ct *container) status() (code int, desc string, ok bool) {
	if !ct.wsKnown {
		return 0, "", false
	}
	return ct.ws.ExitStatus(), statusString(ct.ws), true
}

// setNamespaces makes sys start a program as the first process of a new PID
// namespace, owned by a new user namespace in which the host's effective
// user and group ids are themselves (and no other id is mapped), so that no
// privilege is needed. setgroups is denied in it, as the kernel requires
// of an unprivileged mapping of the group id.
//
// The parent-death signal works on that first process: the kernel sends it
// from the dying host thread, outside the namespace, so it is not ignored
// as a signal from within would be. (Go's check that the parent is still
// there right after the fork sees a parent pid of 0 from inside the
// namespace and signals the child itself, which, being the namespace's
// init, ignores it.)
func setNamespaces(sys *syscall.SysProcAttr) {
	uid, gid := os.Geteuid(), os.Getegid()
	sys.Cloneflags |= syscall.CLONE_NEWUSER | syscall.CLONE_NEWPID
	sys.UidMappings = []syscall.SysProcIDMap{{ContainerID: uid, HostID: uid, Size: 1}}
	sys.GidMappings = []syscall.SysProcIDMap{{ContainerID: gid, HostID: gid, Size: 1}}
	sys.GidMappingsEnableSetgroups = false
}

// withCookie returns env with the cookie added to CookieVar.
func withCookie(env []string, cookie string) []string {
	value := cookie
	for _, kv := range env {
		if old, ok := strings.CutPrefix(kv, CookieVar+"="); ok && old != "" {
			value = old + "," + cookie // the last one is the one exec keeps
		}
	}
	return append(env, CookieVar+"="+value)
}

// retry gives up the way just tried after a failed start, which may be its
// fault (a kernel that allows no unprivileged user namespace, or no clone3
// or CLONE_INTO_CGROUP, a cgroup that takes no processes), and reports
// whether there is another way to try. A program that cannot start at all
// is tried once in each way.
func (ct *container) retry() bool {
	if len(ct.ways) <= 1 {
		return false
	}
	ct.ways = ct.ways[1:]
	if !ct.ways[0].cg && ct.cg != nil && !slices.ContainsFunc(ct.ways, func(w way) bool { return w.cg }) {
		ct.release()
	}
	return true
}

// release removes the cgroup of a program that did not start, or that
// started without it.
func (ct *container) release() {
	if ct.cg != nil {
		ct.cg.fd.Close()
		os.Remove(ct.cg.dir)
		ct.cg = nil
	}
}

// started learns the way the program was started, its pid and its start
// time; the program is not reaped yet.
func (ct *container) started(cmd *exec.Cmd) {
	w := ct.ways[0]
	ct.ns, ct.proc, ct.pid = w.ns, cmd.Process, cmd.Process.Pid
	if !w.cg {
		ct.release()
	}
	if ct.cg != nil {
		ct.cg.fd.Close()
		ct.cg.fd = nil
	}
	if in, ok := readStat(ct.pid); ok {
		ct.start = in.start
	}
}

// containment reports the way the program was started.
func (ct *container) containment() Containment {
	switch {
	case ct.ns:
		return ContainNamespace
	case ct.cg != nil:
		return ContainCgroup
	case ct.start != 0:
		return ContainScan
	}
	return ContainGroup
}

// Probe reports the containment a program started now would get: it forks
// a child that cannot run (its working directory is not a directory) in
// each way, strongest first, and returns the first the kernel allowed. A
// host calls it to say what holds its programs; starting a program does
// not need it.
func Probe() Containment {
	sys := &syscall.SysProcAttr{}
	setNamespaces(sys)
	if forkAllowed(sys) {
		return ContainNamespace
	}
	if cg := newCgroup(fmt.Sprintf("%s%d-%s", cgroupPrefix, os.Getpid(), rand.Text())); cg != nil {
		ok := forkAllowed(&syscall.SysProcAttr{UseCgroupFD: true, CgroupFD: int(cg.fd.Fd())})
		cg.fd.Close()
		os.Remove(cg.dir)
		if ok {
			return ContainCgroup
		}
	}
	if _, ok := readStat(os.Getpid()); ok {
		return ContainScan
	}
	return ContainGroup
}

// forkAllowed reports whether a child can be forked with sys: it is, but it
// fails in its chdir to /dev/null, a step after the fork (and after its
// namespaces' id maps are written) that only the child takes, so that
// ENOTDIR, which no fork gives, tells that the fork itself succeeded. The
// failed child is reaped before ForkExec returns.
func forkAllowed(sys *syscall.SysProcAttr) bool {
	_, err := syscall.ForkExec("/", []string{"/"}, &syscall.ProcAttr{Dir: os.DevNull, Sys: sys})
	return errors.Is(err, syscall.ENOTDIR)
}

// exited waits for the program to exit, without reaping it, and then,
// without a cgroup, notes the processes of its group: while the program is
// an unreaped zombie its group's id is still its own, which it may not be
// once the pid is free again.
func (ct *container) exited() {
	if ct.ns || ct.cg != nil || ct.start == 0 {
		return
	}
	const pPID = 1     // P_PID, <linux/wait.h>
	var info [128]byte // a siginfo_t
	for {
		_, _, errno := syscall.Syscall6(syscall.SYS_WAITID, pPID, uintptr(ct.pid), uintptr(unsafe.Pointer(&info[0])), syscall.WEXITED|syscall.WNOWAIT, 0, 0)
		if errno == syscall.EINTR {
			continue
		}
		if errno != 0 {
			return
		}
		break
	}
	ct.mu.Lock()
	defer ct.mu.Unlock()
	ct.members(scanProcs())
}

// kill kills the program and its descendants now, without waiting for
// them to die.
func (ct *container) kill() {
	ct.mu.Lock()
	defer ct.mu.Unlock()
	switch {
	case ct.finished:
	case ct.ns:
		ct.proc.Signal(os.Kill) // the namespace dies with its first process
	case ct.cg != nil:
		ct.cg.kill()
	case ct.start == 0:
		syscall.Kill(-ct.pid, syscall.SIGKILL) // no /proc: the group is all there is
	default:
		ct.sweep(false)
	}
}

// finish kills what the program left, waits for it to be gone, reaps what
// the host adopted and removes the cgroup. The program has been reaped: in
// its own PID namespace, that means every process of the namespace is gone
// (the kernel lets the namespace's first process be reaped only once they
// all are), and none was the host's to adopt.
func (ct *container) finish() {
	ct.mu.Lock()
	defer ct.mu.Unlock()
	if ct.finished {
		return
	}
	ct.finished = true
	switch {
	case ct.cg != nil:
		deadline := time.Now().Add(killWait)
		ct.cg.kill()
		ct.cg.waitEmpty(deadline)
		removeTree(ct.cg.dir, deadline) // fails (EBUSY) only if a process would not die
		if !ct.ns && isSubreaper() {
			ct.cg.reapAdopted(ct.self, deadline)
		}
	case ct.ns:
	case ct.start == 0:
		syscall.Kill(-ct.pid, syscall.SIGKILL)
	default:
		ct.sweep(true)
	}
}

// sweep stops the program's processes found in /proc, so that none can fork
// away, then kills them; with wait it goes on until a scan finds none alive
// (for at most killWait) and reaps those that are the host's children.
func (ct *container) sweep(wait bool) {
	m := ct.members(scanProcs())
	stopped := map[int]bool{}
	for range stopRounds {
		fresh := 0
		for pid, in := range m {
			if in.alive() && !stopped[pid] {
				signal(pid, in.start, syscall.SIGSTOP)
				stopped[pid] = true
				fresh++
			}
		}
		if fresh == 0 {
			break
		}
		m = ct.members(scanProcs()) // with what they forked before they stopped
	}
	deadline := time.Now().Add(killWait)
	for pause := 100 * time.Microsecond; ; pause = min(2*pause, 50*time.Millisecond) {
		alive := 0
		for pid, in := range m {
			if in.alive() {
				signal(pid, in.start, syscall.SIGKILL)
				alive++
			}
		}
		if !wait {
			return
		}
		if alive == 0 || time.Now().After(deadline) {
			break
		}
		time.Sleep(pause) // a killed process takes a moment to be gone
		m = ct.members(scanProcs())
	}
	for pid, start := range ct.found {
		if in, ok := readStat(pid); ok && in.start == start && in.state == 'Z' && in.ppid == ct.self && pid != ct.pid {
			reap(pid, deadline)
		}
	}
}

// members returns the processes of procs that are the program's, and adds
// them to ct.found: the program and the processes found before, while they
// are the same processes; those born since the program that carry its
// cookie; and, over and over, the children of those, and the members of the
// groups and sessions they lead or led. A group's id cannot be reused while
// it has a member, so the group of a process found before that has gone is
// still the program's (those members were found within the same end of
// the program, moments ago); the program's own group counts only while the
// program is there, a zombie at least (see exited).
func (ct *container) members(procs map[int]procInfo) map[int]procInfo {
	m := map[int]procInfo{}
	leaders := map[int]bool{}
	same := func(pid int, start uint64) bool {
		in, ok := procs[pid]
		if ok && in.start == start {
			m[pid] = in
		}
		return !ok || in.start == start // gone, or the same: its group is the program's
	}
	for pid, start := range ct.found {
		leaders[pid] = same(pid, start)
	}
	if in, ok := procs[ct.pid]; ok && in.start == ct.start {
		m[ct.pid], leaders[ct.pid] = in, true
	}
	young := func(pid int, in procInfo) bool {
		return in.start >= ct.start && pid != ct.self && pid != 1
	}
	for pid, in := range procs {
		if _, ok := m[pid]; !ok && young(pid, in) && in.alive() && hasCookie(pid, ct.cookie) {
			m[pid] = in
		}
	}
	for grown := true; grown; {
		grown = false
		for pid, in := range m {
			if in.pgrp == pid || in.sid == pid {
				leaders[pid] = true
			}
		}
		for pid, in := range procs {
			if _, ok := m[pid]; ok || !young(pid, in) {
				continue
			}
			_, child := m[in.ppid]
			if child || leaders[in.pgrp] || leaders[in.sid] {
				m[pid] = in
				grown = true
			}
		}
	}
	for pid, in := range m {
		ct.found[pid] = in.start
	}
	return m
}

// procInfo is what /proc/<pid>/stat says of a process.
type procInfo struct {
	state           byte // R, S, D, T, Z, ...
	ppid, pgrp, sid int
	start           uint64 // clock ticks since boot
}

// alive reports whether the process still runs (it is not a zombie).
func (in procInfo) alive() bool { return in.state != 'Z' && in.state != 'X' && in.state != 'x' }

// readStat reads /proc/<pid>/stat. It is the hot part of a scan: one
// read into a buffer on the stack, parsed in place.
func readStat(pid int) (procInfo, bool) {
	fd, err := syscall.Open("/proc/"+strconv.Itoa(pid)+"/stat", syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return procInfo{}, false
	}
	var buf [1024]byte // the line is about 300 bytes
	n, err := syscall.Read(fd, buf[:])
	syscall.Close(fd)
	if err != nil || n <= 0 {
		return procInfo{}, false
	}
	return parseStat(buf[:n])
}

// parseStat parses "pid (comm) state ppid pgrp session tty_nr ...
// starttime(22) ..."; comm may hold anything, ')' and blanks too.
func parseStat(data []byte) (procInfo, bool) {
	i := bytes.LastIndexByte(data, ')')
	if i < 0 || i+3 > len(data) {
		return procInfo{}, false
	}
	var in procInfo
	field, num, digits := 0, uint64(0), 0
	for _, c := range data[i+2:] {
		if c != ' ' && c != '\n' {
			if field == 0 {
				in.state = c
			} else if c >= '0' && c <= '9' {
				num = num*10 + uint64(c-'0')
				digits++
			}
			continue
		}
		switch field {
		case 1:
			in.ppid = int(num)
		case 2:
			in.pgrp = int(num)
		case 3:
			in.sid = int(num)
		case 19:
			in.start = num
			return in, digits > 0
		}
		field, num, digits = field+1, 0, 0
	}
	return procInfo{}, false
}

// scanProcs reads the stat of every process in /proc.
func scanProcs() map[int]procInfo {
	procs := map[int]procInfo{}
	d, err := os.Open("/proc")
	if err != nil {
		return procs
	}
	defer d.Close()
	names, _ := d.Readdirnames(-1)
	for _, name := range names {
		pid, err := strconv.Atoi(name)
		if err != nil || pid <= 0 {
			continue
		}
		if in, ok := readStat(pid); ok {
			procs[pid] = in
		}
	}
	return procs
}

// hasCookie reports whether the environment of pid holds cookie.
func hasCookie(pid int, cookie string) bool {
	f, err := os.Open("/proc/" + strconv.Itoa(pid) + "/environ")
	if err != nil {
		return false
	}
	defer f.Close()
	data, _ := io.ReadAll(io.LimitReader(f, environMax))
	return bytes.Contains(data, []byte(cookie))
}

// signal sends sig to pid if it is still the process that started at
// start. Through a pidfd (os.FindProcess opens one), the signal reaches that
// very process even if it dies and its pid is reused in between.
func signal(pid int, start uint64, sig syscall.Signal) {
	p, err := os.FindProcess(pid)
	if err != nil {
		return
	}
	defer p.Release()
	if in, ok := readStat(pid); ok && in.start == start {
		p.Signal(sig)
	}
}

// reap reaps pid, a child of the host that was seen dead (a zombie): wait4
// on its own pid, so that no other child's status is taken. The thread that
// leads a process shows as a zombie while the process's other threads are
// still ending, and the process can be reaped only once they have: reap
// waits for that, until deadline.
func reap(pid int, deadline time.Time) {
	var ws syscall.WaitStatus
	for pause := 100 * time.Microsecond; ; pause = min(2*pause, 50*time.Millisecond) {
		got, err := syscall.Wait4(pid, &ws, syscall.WNOHANG, nil)
		switch {
		case errors.Is(err, syscall.EINTR):
			continue
		case err != nil || got == pid || time.Now().After(deadline):
			return
		}
		time.Sleep(pause)
	}
}

// newCgroup makes the cgroup name under the host's own, or returns nil if
// there is no cgroup v2 the host may write.
func newCgroup(name string) *cgroup {
	parent, rel, ok := ownCgroup()
	if !ok {
		return nil
	}
	removeStale(parent, rel)
	dir := filepath.Join(parent, name)
	if err := os.Mkdir(dir, 0o755); err != nil {
		return nil
	}
	fd, err := os.Open(dir)
	if err != nil {
		os.Remove(dir)
		return nil
	}
	return &cgroup{dir: dir, rel: path.Join(rel, name), fd: fd}
}

// removeStale removes the cgroups that hosts which were killed (and could
// not remove them) left in parent: only those named as proc names them
// (cgroupPrefix, the host's pid, "-", the program's cookie) after a pid
// that is gone. Whatever still runs in one is killed first (cgroup.kill),
// and waited for, at most killWait each.
func removeStale(parent, rel string) {
	d, err := os.Open(parent)
	if err != nil {
		return
	}
	names, _ := d.Readdirnames(-1)
	d.Close()
	for _, name := range names {
		rest, ok := strings.CutPrefix(name, cgroupPrefix)
		host, cookie, ok2 := strings.Cut(rest, "-")
		pid, err := strconv.Atoi(host)
		if !ok || !ok2 || cookie == "" || err != nil || pid <= 0 || !errors.Is(syscall.Kill(pid, 0), syscall.ESRCH) {
			continue
		}
		dir := filepath.Join(parent, name)
		if os.Remove(dir) == nil || !isDir(dir) {
			continue
		}
		deadline := time.Now().Add(killWait)
		cg := &cgroup{dir: dir, rel: path.Join(rel, name)}
		cg.kill() // cgroup.kill: what the kernel gives for a whole tree
		cg.waitEmpty(deadline)
		removeTree(dir, deadline)
	}
}

// isDir reports whether name is a directory (not a symlink to one).
func isDir(name string) bool {
	fi, err := os.Lstat(name)
	return err == nil && fi.IsDir()
}

// removeTree removes the cgroup dir and the cgroups a program (as root)
// made under it, deepest first, at most 16 levels down; a cgroup whose
// processes are still dying is tried again until deadline.
func removeTree(dir string, deadline time.Time) {
	var remove func(dir string, depth int)
	remove = func(dir string, depth int) {
		if depth < 16 {
			entries, _ := os.ReadDir(dir)
			for _, e := range entries {
				if e.IsDir() && e.Type()&os.ModeSymlink == 0 {
					remove(filepath.Join(dir, e.Name()), depth+1)
				}
			}
		}
		for pause := 100 * time.Microsecond; ; pause = min(2*pause, 50*time.Millisecond) {
			err := os.Remove(dir)
			if err == nil || !errors.Is(err, syscall.EBUSY) || time.Now().After(deadline) {
				return
			}
			time.Sleep(pause) // a killed process takes a moment to leave its cgroup
		}
	}
	remove(dir, 0)
}

// ownCgroup finds the host's cgroup v2: its directory, from the cgroup2
// mount in /proc/self/mountinfo, and its path, from /proc/self/cgroup.
func ownCgroup() (dir, rel string, ok bool) {
	data, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		return "", "", false
	}
	for line := range strings.Lines(string(data)) {
		if r, found := strings.CutPrefix(strings.TrimRight(line, "\n"), "0::"); found {
			rel, ok = r, strings.HasPrefix(r, "/")
		}
	}
	if !ok {
		return "", "", false
	}
	f, err := os.Open("/proc/self/mountinfo")
	if err != nil {
		return "", "", false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		// "36 35 98:0 ROOT MOUNTPOINT options [optional...] - cgroup2 source options"
		left, right, found := strings.Cut(sc.Text(), " - ")
		lf, rf := strings.Fields(left), strings.Fields(right)
		if !found || len(lf) < 5 || len(rf) < 1 || rf[0] != "cgroup2" {
			continue
		}
		root, mount := unescapeMount(lf[3]), unescapeMount(lf[4])
		sub, under := strings.CutPrefix(rel, root)
		if !under || root != "/" && sub != "" && !strings.HasPrefix(sub, "/") {
			continue
		}
		dir = filepath.Join(mount, sub)
		if fi, err := os.Stat(dir); err == nil && fi.IsDir() {
			return dir, rel, true
		}
	}
	return "", "", false
}

// unescapeMount undoes the octal escapes of a path in mountinfo ("\040"
// for a blank).
func unescapeMount(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+4 <= len(s) {
			if n, err := strconv.ParseUint(s[i+1:i+4], 8, 8); err == nil {
				b.WriteByte(byte(n))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// kill kills every process in the cgroup: cgroup.kill (Linux 5.14), or,
// before it, the cgroup frozen (so that none forks) and each process in
// cgroup.procs killed.
func (cg *cgroup) kill() {
	if writeFile(filepath.Join(cg.dir, "cgroup.kill"), "1") == nil {
		return
	}
	writeFile(filepath.Join(cg.dir, "cgroup.freeze"), "1")
	data, err := os.ReadFile(filepath.Join(cg.dir, "cgroup.procs"))
	if err != nil {
		return
	}
	for _, field := range strings.Fields(string(data)) {
		pid, err := strconv.Atoi(field)
		if err != nil {
			continue
		}
		p, err := os.FindProcess(pid) // a pidfd: the pid is checked, then signaled, as one process
		if err != nil {
			continue
		}
		if inCgroup(pid, cg.rel) {
			p.Signal(syscall.SIGKILL)
		}
		p.Release()
	}
}

// waitEmpty waits, until deadline, for cgroup.events to say "populated 0",
// killing again what is still there.
func (cg *cgroup) waitEmpty(deadline time.Time) {
	for pause := 100 * time.Microsecond; ; pause = min(2*pause, 50*time.Millisecond) {
		data, err := os.ReadFile(filepath.Join(cg.dir, "cgroup.events"))
		if err != nil || !bytes.Contains(data, []byte("populated 1")) || time.Now().After(deadline) {
			return
		}
		time.Sleep(pause) // a killed process takes a moment to be gone
		cg.kill()
	}
}

// reapAdopted reaps the zombies that are the host's children (orphans it
// adopted as a subreaper) and were in the cgroup, or in the cgroup, since
// removed, of another program of the host's that has ended (one missed
// there: see children).
func (cg *cgroup) reapAdopted(self int, deadline time.Time) {
	ended := path.Join(path.Dir(cg.rel), cgroupPrefix+strconv.Itoa(self)+"-")
	for _, pid := range children(self) {
		in, ok := readStat(pid)
		if !ok || in.state != 'Z' || in.ppid != self {
			continue
		}
		if c, ok := cgroupOf(pid); ok && (c == cg.rel || c == cg.rel+" (deleted)" || strings.HasPrefix(c, ended) && strings.HasSuffix(c, " (deleted)")) {
			reap(pid, deadline)
		}
	}
}

// children returns the pids of the host's children, from
// /proc/self/task/*/children (a list the kernel may cut short while
// children come and go, which they do not once dead), or, where the kernel
// has no such files, from every process's parent.
func children(self int) []int {
	var pids []int
	if _, err := os.Stat("/proc/thread-self/children"); err != nil {
		for pid, in := range scanProcs() {
			if in.ppid == self {
				pids = append(pids, pid)
			}
		}
		return pids
	}
	tasks, _ := os.ReadDir("/proc/self/task")
	for _, t := range tasks {
		data, _ := os.ReadFile("/proc/self/task/" + t.Name() + "/children") // a thread may have ended
		for _, f := range strings.Fields(string(data)) {
			if pid, err := strconv.Atoi(f); err == nil {
				pids = append(pids, pid)
			}
		}
	}
	return pids
}

// inCgroup reports whether pid is in the cgroup rel.
func inCgroup(pid int, rel string) bool {
	c, ok := cgroupOf(pid)
	return ok && c == rel
}

// cgroupOf returns the cgroup v2 of pid, as /proc/<pid>/cgroup says it: a
// zombie's stays what it was, with " (deleted)" once it is removed.
func cgroupOf(pid int) (string, bool) {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cgroup")
	if err != nil {
		return "", false
	}
	for line := range strings.Lines(string(data)) {
		if c, ok := strings.CutPrefix(strings.TrimRight(line, "\n"), "0::"); ok {
			return c, true
		}
	}
	return "", false
}

// writeFile writes s to an existing file.
func writeFile(name, s string) error {
	f, err := os.OpenFile(name, os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	_, err = f.WriteString(s)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

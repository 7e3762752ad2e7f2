// Package proc runs a program as a child process on behalf of a host (a
// referee that runs a strategy per move, or a host speaking to a program over
// its standard input and output): in its own process group, in a given
// directory, under a context; it keeps a bounded part of what the program
// prints (its start and its end), kills the program and every process it
// started when the context ends and when [Process.Kill] is called, kills
// every process the program left as soon as it exits (so none holds its
// output open, and a host reading it sees the end at once), and always
// reaps it.
//
// # Containment
//
// A program must not outlive its game through a descendant, not even one
// that left its process group (setsid), whose parent died, or that cleared
// its environment. On Linux, strongest first (the first the kernel allows
// is used; [Probe] says which a program would get):
//
//   - Each program runs in a PID namespace of its own, inside a user
//     namespace of its own that maps the host's user and group ids to
//     themselves (no privilege is needed; the program keeps its files,
//     paths, /tmp, network and the host's /proc). The namespace's first
//     process (pid 1) is an init of proc's: the host's own binary started
//     again with a marker that the init function of package
//     internal/proc/nsinit sees before most of the host's packages are
//     initialized (as Docker's reexec does). It starts the program
//     as its child, with the standard files, working directory and
//     environment the program was given, reaps the namespace's orphans,
//     tells the host the program's pid (as the host sees it: [Process.Pid])
//     and, when the program ends, its exact status (exit code or signal,
//     which [Result] reports), and exits. When that first process dies,
//     the kernel kills every process of the namespace, whatever session,
//     group, environment or cgroup it has, and the program's end
//     ([Process.Kill], the context's end) is one SIGKILL to it (it also
//     ends when the program does). No process can leave a PID
//     namespace, and a program running as root holds no capability over
//     the host's namespaces. The program itself is not pid 1, so it dies
//     of the signals it sends itself as any process does; within its
//     namespace it sees that namespace's pids ("$$" is not 1, its parent
//     is 1), and the host's pids in /proc, which is the host's. Starting
//     the init costs a fork and exec of the host's binary per program
//     (about 20 ms of CPU for arena's binary on a quiet two-core virtual
//     machine, most of it the page faults of a large Go binary's start);
//     [Result.Elapsed] and [Config.Limit] count from the program's own
//     start, so that cost is never the program's time. That fork is a
//     whole one, not the vfork os/exec makes otherwise (Go makes none into
//     a new user namespace: the child waits there for the host to write its
//     id maps). It copies the host's page tables, and after it the host
//     takes a page fault at its first write to each of its pages. On that
//     machine a host with 200 MiB of heap pays 5 ms more a start, and one
//     that rewrites all of it between starts 0.8 s more (16 µs a page:
//     BenchmarkRunBusyHost); a small helper process that starts the inits
//     would spare a host with a large, busy heap that cost. A process of the
//     namespace that signals the init (kill 1) ends it, and the namespace
//     with it, and the init's end is reported as the program's.
//   - Each program is also started straight into a cgroup of its own
//     (cgroup v2, a child of the host's cgroup, when one is writable), and
//     its end is cgroup.kill as well. Without the namespaces the cgroup is
//     what holds the program: every process in it dies, whatever session,
//     group or parent it has; only a process allowed to move itself to
//     another cgroup (root) can leave it then.
//   - With neither, the last resort, its environment carries a cookie
//     ([CookieVar], as Jenkins' ProcessTreeKiller marks a build),
//     and its end scans /proc: the program's process group (as it was when
//     the program exited, too), the processes carrying the cookie, the
//     groups and sessions they lead, and all their descendants are stopped
//     (SIGSTOP, so none can fork away), then killed, until a scan finds
//     none alive. A descendant that both cleared its
//     environment and left its group and session, and whose parent had died
//     before the scan, cannot be told from the host's other children there
//     and escapes; so does, unreaped, the zombie of one that left its group
//     and died after its parent before any scan saw it.
//   - The program gets SIGKILL when the host dies (Pdeathsig), so kill -9 of
//     the host does not leave it running, and with the namespaces nothing
//     it started either. A cgroup that a killed host left behind is
//     removed, with every process still in it killed, when a program is
//     next started under the same parent cgroup.
//   - A host that called [Subreaper] adopts the orphans of its programs
//     that run outside a PID namespace; proc reaps those of each program
//     at its end (wait4 on their own pids, never on any child, which would
//     take os/exec's statuses).
//
// Elsewhere on Unix the program is the leader of a new process group and a
// kill is SIGKILL to the group; on other systems only the program itself is
// killed.
//
//	res, err := proc.Run(ctx, proc.Config{Path: "./bot", Args: []string{"W", "N"}})
//	if err != nil { ... } // the program could not be started: errors.Is(err, proc.ErrStart)
//	if res.TimedOut { ... } else if res.ExitCode != 0 { ... }
package proc

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"sync"
	"time"
)

// DefaultCapture is how many bytes of standard output and of standard error
// a [Process] keeps when [Config.Capture] is 0: [LogLimit] each, the first
// half and the last half.
const DefaultCapture = LogLimit

// DefaultDrain is how long [Process.Wait] keeps reading the output pipes
// after the program's descendants were killed when [Config.Drain] is 0. Once
// they are all dead the pipes end at once; a pipe stays open that long only
// while a process that escaped the containment (see the package
// documentation) holds it.
const DefaultDrain = time.Second

// CookieVar is the environment variable that marks every process of a
// program on Linux: its value holds a random cookie per program (several,
// separated by commas, when a program runs programs of its own), which the
// containment looks for in /proc/<pid>/environ when it has no cgroup.
const CookieVar = "BOTARENA_PROC"

// ErrStart is wrapped by the error of [Start] and [Run] when the program
// could not be started: not found, not executable, not a valid executable,
// a working directory that does not exist.
var ErrStart = errors.New("proc: program could not be started")

// Config says what to run and how.
type Config struct {
	// Path is the program. A name without a path separator is looked up in
	// PATH, as exec.Command does.
	Path string
	// Args are the arguments after the program's name.
	Args []string
	// Dir is the working directory; "" means the host's.
	Dir string
	// Env is the environment; nil means the host's.
	Env []string
	// Stdin is what the program reads; nil means nothing (the null device,
	// so a program that waits for input gets end of file at once). It is
	// ignored with PipeStdin.
	Stdin io.Reader
	// PipeStdin gives the program a pipe as standard input, whose writing
	// end is [Process.Stdin].
	PipeStdin bool
	// PipeStdout gives the program a pipe as standard output, whose reading
	// end is [Process.Stdout]. Without it the output is captured into
	// [Result.Stdout].
	PipeStdout bool
	// Capture is how many bytes of each of standard output and standard
	// error are kept, half from the start and half from the end; the bytes
	// between are read and dropped, so the program never blocks on a full
	// pipe. 0 means DefaultCapture; a negative value keeps nothing.
	Capture int
	// Drain bounds how long Wait reads the output pipes once the program's
	// descendants are dead; 0 means DefaultDrain.
	Drain time.Duration
	// Limit is the longest the program may run, counted as
	// [Result.Elapsed] counts it: from the program's own start, so that
	// setting up its containment (starting the init of its PID namespace)
	// is not charged to it. A program still running at its limit is
	// killed, as at ctx's deadline, and its Result says TimedOut. 0 means
	// no limit but ctx's.
	Limit time.Duration

	// noCgroup makes the containment do without a cgroup, as on a machine
	// that has none writable (for the tests of that way).
	noCgroup bool
	// noNamespace makes the containment do without the PID and user
	// namespaces, as on a kernel that does not allow them (for the tests
	// of the other ways).
	noNamespace bool
}

// Containment is what holds a program and the processes it starts, so that
// they all die at its end; the greater, the stronger (see the package
// documentation).
type Containment int

// The containments, weakest first.
const (
	// ContainProgram reaches the program alone: systems without Unix
	// process groups.
	ContainProgram Containment = iota
	// ContainGroup reaches the program's process group: a descendant that
	// leaves it (setsid) escapes.
	ContainGroup
	// ContainScan finds the program's descendants in /proc by its process
	// group, its cookie and their parents: one that leaves its group and
	// session, clears its environment and loses its parent escapes.
	ContainScan
	// ContainCgroup holds them in a cgroup of the program's own: only a
	// process that may move itself to another cgroup (root) escapes.
	ContainCgroup
	// ContainNamespace makes the program the first process of a PID
	// namespace of its own: none escapes.
	ContainNamespace
)

// String names the containment.
func (c Containment) String() string {
	switch c {
	case ContainProgram:
		return "the program alone"
	case ContainGroup:
		return "its process group"
	case ContainScan:
		return "a /proc scan"
	case ContainCgroup:
		return "a cgroup"
	case ContainNamespace:
		return "a PID namespace"
	}
	return fmt.Sprintf("Containment(%d)", int(c))
}

// Escapable reports whether a descendant of a program can escape this
// containment by leaving its process group and session, clearing its
// environment and losing its parent (see the package documentation).
func (c Containment) Escapable() bool { return c < ContainCgroup }

// Result is how a program ended.
type Result struct {
	// Pid is the program's process id, which on Unix is also its process
	// group id.
	Pid int
	// ExitCode is the exit status, or -1 if a signal ended the program.
	ExitCode int
	// Status describes the end as os.ProcessState does: "exit status 3",
	// "signal: killed", "signal: segmentation fault (core dumped)".
	Status string
	// State is the process state that Wait reported; nil for a program
	// that ran under proc's init in a PID namespace of its own (ExitCode
	// and Status are the program's then, as the init reported them).
	State *os.ProcessState
	// TimedOut reports that the context's deadline passed while the
	// program ran, so it was killed.
	TimedOut bool
	// Canceled reports that the context was canceled while the program
	// ran, so it was killed.
	Canceled bool
	// Killed reports that [Process.Kill] killed it.
	Killed bool
	// Elapsed is the wall-clock time from just before the program started
	// until it exited (not until its left-over children were killed).
	Elapsed time.Duration
	// Stdout and Stderr hold what the program printed, at most Capture
	// bytes of it: the first half and the last half, with a
	// [TruncatedLine] between when bytes were dropped (Stdout is empty
	// with PipeStdout).
	Stdout, Stderr []byte
	// StdoutDropped and StderrDropped count the bytes read and not kept.
	StdoutDropped, StderrDropped int64
	// Containment is what held the program and its descendants.
	Containment Containment
}

// Success reports whether the program exited by itself with status 0.
func (r Result) Success() bool {
	return r.ExitCode == 0 && !r.TimedOut && !r.Canceled && !r.Killed
}

// Process is a running program. Call [Process.Wait] exactly as a host would
// call exec.Cmd.Wait: always, once the program is no longer needed, so that
// it is reaped and its goroutines end.
type Process struct {
	cmd   *exec.Cmd  // set before Start returns
	ct    *container // what holds the program's descendants
	pid   int
	start time.Time
	drain time.Duration

	stdin  *os.File // the host's end of PipeStdin, or nil
	stdout *os.File // the host's end of PipeStdout, or nil

	out, errs *capture // what the reader goroutines fill; out is nil with PipeStdout
	readers   sync.WaitGroup

	exited    chan struct{} // closed once the program has exited and been reaped
	end       time.Time     // when it exited; set before exited is closed
	contained chan struct{} // closed once what it left has been killed and reaped
	watchDone chan struct{} // closed when the watcher goroutine returns

	mu       sync.Mutex
	timedOut bool
	canceled bool
	killed   bool

	waitOnce sync.Once
	result   Result
}

// capture is a bounded buffer that a reader goroutine fills from a pipe.
type capture struct {
	r *os.File
	*Bounded
}

// Run starts the program ([Start]) and waits for it ([Process.Wait]).
func Run(ctx context.Context, c Config) (Result, error) {
	p, err := Start(ctx, c)
	if err != nil {
		return Result{}, err
	}
	return p.Wait(), nil
}

// Start starts the program in its own process group and returns at once.
// When ctx ends before the program exits, the program and its descendants
// are killed and the result says why (TimedOut or Canceled). An error wraps
// [ErrStart] and the cause, or ctx's error if ctx had already ended (nothing
// is started then).
func Start(ctx context.Context, c Config) (*Process, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("proc: not started: %w", err)
	}
	p := &Process{drain: c.Drain, exited: make(chan struct{}), contained: make(chan struct{}), watchDone: make(chan struct{})}
	if p.drain <= 0 {
		p.drain = DefaultDrain
	}
	limit := c.Capture
	if limit == 0 {
		limit = DefaultCapture
	}
	limit = max(limit, 0)

	var opened, childEnds []*os.File
	fail := func(err error) (*Process, error) {
		for _, f := range opened {
			f.Close()
		}
		return nil, fmt.Errorf("%w: %s: %w", ErrStart, c.Path, err)
	}
	pipe := func() (r, w *os.File, err error) {
		r, w, err = os.Pipe()
		if err == nil {
			opened = append(opened, r, w)
		}
		return r, w, err
	}
	var stdin io.Reader = c.Stdin
	if c.PipeStdin {
		r, w, err := pipe()
		if err != nil {
			return fail(err)
		}
		childEnds = append(childEnds, r)
		stdin, p.stdin = r, w
	}
	r, w, err := pipe()
	if err != nil {
		return fail(err)
	}
	childEnds = append(childEnds, w)
	stdout := w
	if c.PipeStdout {
		p.stdout = r
	} else {
		p.out = &capture{r, NewBounded(limit)}
	}
	r, w, err = pipe()
	if err != nil {
		return fail(err)
	}
	childEnds = append(childEnds, w)
	stderr := w
	p.errs = &capture{r, NewBounded(limit)}

	// A Cmd cannot be started twice: the containment may ask for a second
	// try (without its cgroup), with a new one.
	newCmd := func() *exec.Cmd {
		cmd := exec.Command(c.Path, c.Args...)
		cmd.Dir = c.Dir
		cmd.Env = c.Env
		cmd.Stdin, cmd.Stdout, cmd.Stderr = stdin, stdout, stderr
		if !c.PipeStdin {
			cmd.WaitDelay = p.drain // bounds the copying of a Stdin that is not a file
		}
		return cmd
	}
	p.ct = newContainer(c)
	started := make(chan error, 1)
	go p.run(newCmd, started)
	if err := <-started; err != nil {
		return fail(err)
	}
	for _, f := range childEnds {
		f.Close()
	}
	for _, c := range []*capture{p.out, p.errs} {
		if c == nil {
			continue
		}
		p.readers.Add(1)
		go func() {
			defer p.readers.Done()
			io.Copy(c, c.r) // ends at end of file, or at the drain deadline
		}()
	}
	cancel := func() {}
	if c.Limit > 0 {
		ctx, cancel = context.WithDeadline(ctx, p.start.Add(c.Limit))
	}
	go func() {
		defer cancel()
		p.watch(ctx)
	}()
	return p, nil
}

// run starts the program, reports the start's error on started, then waits
// for the program and reaps it, and kills and reaps what it left.
//
// On Linux the program's parent-death signal (Pdeathsig) fires when the
// thread that started it ends, not the process (https://go.dev/issue/27505),
// and the Go runtime ends a thread when a goroutine locked to it exits. So
// run keeps its goroutine locked to the starting thread until the program
// has been reaped: no other goroutine can take that thread, and it ends only
// with the host. Waiting needs a thread anyway, blocked in wait, so the lock
// costs nothing.
func (p *Process) run(newCmd func() *exec.Cmd, started chan<- error) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var cmd *exec.Cmd
	for {
		cmd = newCmd()
		p.ct.prepare(cmd)
		tried := time.Now()
		retry, err := p.ct.launch(cmd)
		if err == nil {
			p.start = p.ct.startedAt(tried)
			break
		}
		if !retry || !p.ct.retry() {
			p.ct.release()
			started <- err
			return
		}
	}
	p.cmd = cmd
	p.ct.started(cmd)
	p.pid = p.ct.programPid()
	started <- nil
	p.ct.exited()
	cmd.Wait() // the status is in cmd.ProcessState, or the container's
	p.ct.reaped()
	p.end = time.Now()
	close(p.exited)
	p.ct.finish()
	close(p.contained)
}

// watch kills the program and its descendants when ctx ends before the
// program exits.
func (p *Process) watch(ctx context.Context) {
	defer close(p.watchDone)
	select {
	case <-p.exited:
	case <-ctx.Done():
		p.mu.Lock()
		select {
		case <-p.exited:
		default:
			if errors.Is(ctx.Err(), context.DeadlineExceeded) {
				p.timedOut = true
			} else {
				p.canceled = true
			}
			p.ct.kill()
		}
		p.mu.Unlock()
	}
}

// Pid returns the program's process id (on Unix, also its process group
// id), as the host sees it: in its own PID namespace the program knows
// itself by another (see the package documentation).
func (p *Process) Pid() int { return p.pid }

// Containment returns what holds the program and its descendants.
func (p *Process) Containment() Containment { return p.ct.containment() }

// Stdin returns the writing end of the program's standard input with
// [Config.PipeStdin], or nil. Close it to send end of file; Wait closes it.
func (p *Process) Stdin() *os.File { return p.stdin }

// Stdout returns the reading end of the program's standard output with
// [Config.PipeStdout], or nil. It supports read deadlines on Unix; Wait
// closes it.
func (p *Process) Stdout() *os.File { return p.stdout }

// Exited returns a channel closed once the program has exited (the
// processes it left are being killed then).
func (p *Process) Exited() <-chan struct{} { return p.exited }

// Kill kills the program and every descendant it has now, if the program is
// still running (once it has exited, what it left is killed anyway). It is
// safe to call at any time, from any goroutine, more than once.
func (p *Process) Kill() {
	p.mu.Lock()
	defer p.mu.Unlock()
	select {
	case <-p.exited:
	default:
		p.killed = true
		p.ct.kill()
	}
}

// Wait waits for the program to exit and for every descendant it left to
// be killed and gone (and reaped, those the host adopted: see
// [Subreaper]), reads what remains in the output pipes (at once, as nobody
// holds them any more; for at most [Config.Drain] if someone escaped),
// closes the pipes and returns the result. It always returns once the
// program has exited; later calls return the same result.
func (p *Process) Wait() Result {
	p.waitOnce.Do(func() {
		<-p.exited
		<-p.watchDone
		<-p.contained
		deadline := time.Now().Add(p.drain)
		for _, c := range []*capture{p.out, p.errs} {
			if c != nil {
				c.r.SetReadDeadline(deadline)
			}
		}
		p.readers.Wait()
		for _, c := range []*capture{p.out, p.errs} {
			if c != nil {
				c.r.Close()
			}
		}
		if p.stdin != nil {
			p.stdin.Close()
		}
		if p.stdout != nil {
			p.stdout.Close()
		}
		st := p.cmd.ProcessState
		p.mu.Lock()
		r := Result{
			Pid:      p.pid,
			ExitCode: -1,
			State:    st,
			TimedOut: p.timedOut,
			Canceled: p.canceled,
			Killed:   p.killed,
			Elapsed:  p.end.Sub(p.start),

			Containment: p.ct.containment(),
		}
		p.mu.Unlock()
		if code, desc, ok := p.ct.status(); ok {
			r.ExitCode, r.Status, r.State = code, desc, nil
		} else if st != nil {
			r.ExitCode = st.ExitCode()
			r.Status = st.String()
		}
		if p.out != nil {
			r.Stdout, r.StdoutDropped = p.out.Bytes(), p.out.Dropped()
		}
		r.Stderr, r.StderrDropped = p.errs.Bytes(), p.errs.Dropped()
		p.result = r
	})
	return p.result
}

// Package proc runs a program as a child process on behalf of a host (a
// referee that runs a strategy per move, or a host speaking to a program over
// its standard input and output): in its own process group, in a given
// directory, under a context; it keeps a bounded part of what the program
// prints (its start and its end), kills the whole process group (the program and every child it
// started) when the context ends and again once the program has exited, and
// always reaps it.
//
// On Unix the program is the leader of a new process group
// (syscall.SysProcAttr.Setpgid), so its pid is the group id, and a kill is
// SIGKILL to -pgid: a program cannot outlive its deadline through a child,
// unless the child leaves the group on purpose (setsid). Elsewhere only the
// program itself is killed.
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
	"sync"
	"time"
)

// DefaultCapture is how many bytes of standard output and of standard error
// a [Process] keeps when [Config.Capture] is 0: [LogLimit] each, the first
// half and the last half.
const DefaultCapture = LogLimit

// DefaultDrain is how long [Process.Wait] keeps reading the output pipes
// after the process group was killed when [Config.Drain] is 0. A pipe stays
// open that long only while a process that left the group holds it.
const DefaultDrain = time.Second

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
	// Drain bounds how long Wait reads the output pipes once the process
	// group is dead; 0 means DefaultDrain.
	Drain time.Duration
}

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
	// State is the process state that Wait reported.
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
}

// Success reports whether the program exited by itself with status 0.
func (r Result) Success() bool {
	return r.ExitCode == 0 && !r.TimedOut && !r.Canceled && !r.Killed
}

// Process is a running program. Call [Process.Wait] exactly as a host would
// call exec.Cmd.Wait: always, once the program is no longer needed, so that
// it is reaped and its goroutines end.
type Process struct {
	cmd   *exec.Cmd
	pid   int
	start time.Time
	drain time.Duration

	stdin  *os.File // the host's end of PipeStdin, or nil
	stdout *os.File // the host's end of PipeStdout, or nil

	out, errs *capture // what the reader goroutines fill; out is nil with PipeStdout
	readers   sync.WaitGroup

	exited    chan struct{} // closed once the program has exited and been reaped
	end       time.Time     // when it exited; set before exited is closed
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
// When ctx ends before the program exits, the whole group is killed and the
// result says why (TimedOut or Canceled). An error wraps [ErrStart] and the
// cause, or ctx's error if ctx had already ended (nothing is started then).
func Start(ctx context.Context, c Config) (*Process, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("proc: not started: %w", err)
	}
	cmd := exec.Command(c.Path, c.Args...)
	cmd.Dir = c.Dir
	cmd.Env = c.Env
	setProcAttr(cmd)
	p := &Process{cmd: cmd, drain: c.Drain, exited: make(chan struct{}), watchDone: make(chan struct{})}
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
	if c.PipeStdin {
		r, w, err := pipe()
		if err != nil {
			return fail(err)
		}
		childEnds = append(childEnds, r)
		cmd.Stdin, p.stdin = r, w
	} else {
		cmd.Stdin = c.Stdin
		cmd.WaitDelay = p.drain // bounds the copying of a Stdin that is not a file
	}
	r, w, err := pipe()
	if err != nil {
		return fail(err)
	}
	childEnds = append(childEnds, w)
	cmd.Stdout = w
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
	cmd.Stderr = w
	p.errs = &capture{r, NewBounded(limit)}

	p.start = time.Now()
	if err := cmd.Start(); err != nil {
		return fail(err)
	}
	for _, f := range childEnds {
		f.Close()
	}
	p.pid = cmd.Process.Pid
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
	go func() {
		cmd.Wait() // the status is in cmd.ProcessState
		p.end = time.Now()
		close(p.exited)
	}()
	go p.watch(ctx)
	return p, nil
}

// watch kills the group when ctx ends before the program exits.
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
			killGroup(p.cmd)
		}
		p.mu.Unlock()
	}
}

// Pid returns the program's process id (on Unix, also its process group
// id).
func (p *Process) Pid() int { return p.pid }

// Stdin returns the writing end of the program's standard input with
// [Config.PipeStdin], or nil. Close it to send end of file; Wait closes it.
func (p *Process) Stdin() *os.File { return p.stdin }

// Stdout returns the reading end of the program's standard output with
// [Config.PipeStdout], or nil. It supports read deadlines on Unix; Wait
// closes it.
func (p *Process) Stdout() *os.File { return p.stdout }

// Exited returns a channel closed once the program has exited (the children
// it left may still run until Wait kills them).
func (p *Process) Exited() <-chan struct{} { return p.exited }

// Kill kills the process group now, if the program is still running. It
// is safe to call at any time, from any goroutine, more than once.
func (p *Process) Kill() {
	p.mu.Lock()
	defer p.mu.Unlock()
	select {
	case <-p.exited:
	default:
		p.killed = true
		killGroup(p.cmd)
	}
}

// Wait waits for the program to exit, kills what is left of its process
// group, reads what remains in the output pipes (for at most
// [Config.Drain]), closes the pipes and returns the result. It always
// returns once the program has exited; later calls return the same result.
func (p *Process) Wait() Result {
	p.waitOnce.Do(func() {
		<-p.exited
		<-p.watchDone
		killGroup(p.cmd) // children the program left behind
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
		}
		p.mu.Unlock()
		if st != nil {
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

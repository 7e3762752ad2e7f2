//go:build unix

package proc_test

import (
	"bufio"
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/botarena/botarena/internal/proc"
)

func sh(script string) proc.Config {
	return proc.Config{Path: "/bin/sh", Args: []string{"-c", script}}
}

func TestRunExitStatusAndOutput(t *testing.T) {
	res, err := proc.Run(t.Context(), sh(`printf out; printf err >&2; exit 3`))
	if err != nil {
		t.Fatal(err)
	}
	if res.ExitCode != 3 || res.Status != "exit status 3" || string(res.Stdout) != "out" || string(res.Stderr) != "err" || res.Success() || res.TimedOut {
		t.Errorf("result %+v", res)
	}
	if res.Pid <= 0 || res.Elapsed <= 0 {
		t.Errorf("pid %d, elapsed %v", res.Pid, res.Elapsed)
	}
	res, err = proc.Run(t.Context(), sh(`exit 0`))
	if err != nil || !res.Success() || res.ExitCode != 0 {
		t.Errorf("exit 0: %+v, %v", res, err)
	}
}

// A program killed by a signal says so. (It sends the signal itself, so it
// runs outside a PID namespace of its own: there, as the namespace's first
// process, it would ignore a signal it has no handler for from within.)
func TestRunSignal(t *testing.T) {
	res, err := proc.Run(t.Context(), withoutNamespace(sh(`kill -SEGV $$`)))
	if err != nil {
		t.Fatal(err)
	}
	if res.ExitCode != -1 || !strings.Contains(res.Status, "segmentation fault") || res.Success() {
		t.Errorf("result %+v", res)
	}
}

func TestRunCaptureIsBounded(t *testing.T) {
	c := sh(`printf START; head -c 200000 /dev/zero; printf END; head -c 70000 /dev/zero >&2; printf 'the fault' >&2`)
	c.Capture = 1000
	res, err := proc.Run(t.Context(), c)
	if err != nil {
		t.Fatal(err)
	}
	kept := func(b []byte, dropped int64) int { return len(b) - len("\n"+proc.TruncatedLine(dropped)+"\n") }
	if kept(res.Stdout, res.StdoutDropped) != 1000 || res.StdoutDropped != 200008-1000 || kept(res.Stderr, res.StderrDropped) != 1000 || res.StderrDropped != 70009-1000 {
		t.Errorf("kept %d+%d, %d+%d", len(res.Stdout), res.StdoutDropped, len(res.Stderr), res.StderrDropped)
	}
	// The start and the end are kept, where a fault shows.
	if !strings.HasPrefix(string(res.Stdout), "START") || !strings.HasSuffix(string(res.Stdout), "END") ||
		!strings.Contains(string(res.Stdout), "\n[truncated 199008 bytes]\n") || !strings.HasSuffix(string(res.Stderr), "the fault") {
		t.Errorf("stdout %.20q...%q, stderr ...%q", res.Stdout, res.Stdout[len(res.Stdout)-40:], res.Stderr[len(res.Stderr)-20:])
	}
	c.Capture = 0 // the default
	res, _ = proc.Run(t.Context(), c)
	if len(res.Stdout) != 200008 || len(res.Stderr) != 70009 {
		t.Errorf("default capture kept %d, %d", len(res.Stdout), len(res.Stderr))
	}
	c.Capture = -1
	res, _ = proc.Run(t.Context(), c)
	if len(res.Stdout) != len("\n"+proc.TruncatedLine(200008)+"\n") || res.StdoutDropped != 200008 {
		t.Errorf("no capture kept %q", res.Stdout)
	}
}

func TestRunStdinIsEmptyAndDir(t *testing.T) {
	dir := t.TempDir()
	c := sh(`cat; pwd`)
	c.Dir = dir
	c.Env = []string{"PATH=/usr/bin:/bin"}
	res, err := proc.Run(t.Context(), c)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := filepath.EvalSymlinks(dir)
	if got := strings.TrimSpace(string(res.Stdout)); got != dir && got != want {
		t.Errorf("pwd %q, want %q", got, dir)
	}
	c = sh(`cat`)
	c.Stdin = strings.NewReader("given")
	res, _ = proc.Run(t.Context(), c)
	if string(res.Stdout) != "given" {
		t.Errorf("stdin: %q", res.Stdout)
	}
}

func TestStartErrors(t *testing.T) {
	dir := t.TempDir()
	garbage := filepath.Join(dir, "garbage")
	if err := os.WriteFile(garbage, []byte("\x00\x01not a program"), 0o755); err != nil {
		t.Fatal(err)
	}
	plain := filepath.Join(dir, "plain")
	if err := os.WriteFile(plain, []byte("#!/bin/sh\nexit 0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []proc.Config{
		{Path: filepath.Join(dir, "missing")},
		{Path: "botarena-no-such-program"},
		{Path: garbage},
		{Path: plain},
		{Path: "/bin/sh", Dir: filepath.Join(dir, "missing")},
	} {
		_, err := proc.Run(t.Context(), c)
		if !errors.Is(err, proc.ErrStart) {
			t.Errorf("%+v: %v", c, err)
		}
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := proc.Run(ctx, sh("exit 0")); !errors.Is(err, context.Canceled) || errors.Is(err, proc.ErrStart) {
		t.Errorf("canceled context: %v", err)
	}
}

// A program that runs past its deadline is killed, and Run reports it.
func TestRunTimeout(t *testing.T) {
	began := time.Now()
	ctx, cancel := context.WithTimeout(t.Context(), 100*time.Millisecond)
	defer cancel()
	res, err := proc.Run(ctx, sh(`exec sleep 100`))
	if err != nil {
		t.Fatal(err)
	}
	if !res.TimedOut || res.Canceled || res.Success() || res.ExitCode != -1 {
		t.Errorf("result %+v", res)
	}
	// Elapsed runs from the start, a moment after the context was made (so
	// it may be a hair under 100ms), to the end.
	if res.Elapsed <= 0 || res.Elapsed > time.Since(began) {
		t.Errorf("elapsed %v, %v since Run", res.Elapsed, time.Since(began))
	}
}

// A program that runs past its Limit is killed, and Run reports it as out
// of time; the limit counts as Elapsed does, from the program's own start,
// and a program within its limit is not touched.
func TestRunLimit(t *testing.T) {
	const limit = 100 * time.Millisecond
	began := time.Now()
	c := sh(`exec sleep 100`)
	c.Limit = limit
	res, err := proc.Run(t.Context(), c)
	if err != nil {
		t.Fatal(err)
	}
	if !res.TimedOut || res.Canceled || res.Success() || res.ExitCode != -1 {
		t.Errorf("result %+v", res)
	}
	if res.Elapsed < limit || res.Elapsed > time.Since(began) {
		t.Errorf("elapsed %v, limit %v, %v since Run", res.Elapsed, limit, time.Since(began))
	}
	c = sh(`exit 0`)
	c.Limit = time.Minute
	if res, err := proc.Run(t.Context(), c); err != nil || !res.Success() || res.TimedOut {
		t.Errorf("within its limit: %+v, %v", res, err)
	}
}

// deadlineCtx is a context whose deadline passes when the test says so.
type deadlineCtx struct {
	context.Context
	done chan struct{}
}

func (c *deadlineCtx) Done() <-chan struct{} { return c.done }

func (c *deadlineCtx) Err() error {
	select {
	case <-c.done:
		return context.DeadlineExceeded
	default:
		return nil
	}
}

// At the deadline the whole group is killed: the child the program started
// too, and Wait returns at once although the child held the output pipe.
func TestTimeoutKillsTheGroup(t *testing.T) {
	ctx := &deadlineCtx{Context: t.Context(), done: make(chan struct{})}
	c := sh(leaveSleeper + `; exec sleep 100`)
	c.PipeStdout = true
	p, err := proc.Start(ctx, c)
	if err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(p.Stdout()).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	close(ctx.done) // the deadline passes once the child runs
	began := time.Now()
	res := p.Wait()
	if d := time.Since(began); d > proc.DefaultDrain {
		t.Errorf("Wait took %v", d)
	}
	if !res.TimedOut || res.Canceled || res.Success() || res.ExitCode != -1 {
		t.Errorf("result %+v", res)
	}
	res.Stdout = []byte(line)
	checkKilled(t, res)
}

// After a normal exit, the children the program left behind are killed
// too.
func TestRunKillsLeftOverChildren(t *testing.T) {
	res, err := proc.Run(t.Context(), sh(leaveSleeper))
	if err != nil {
		t.Fatal(err)
	}
	if !res.Success() {
		t.Errorf("result %+v", res)
	}
	checkKilled(t, res)
}

func TestCancelAndKill(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	c := sh(`echo started; exec sleep 100`)
	c.PipeStdout = true
	p, err := proc.Start(ctx, c)
	if err != nil {
		t.Fatal(err)
	}
	// Cancel once the program has said it runs.
	if line, err := bufio.NewReader(p.Stdout()).ReadString('\n'); err != nil || line != "started\n" {
		t.Fatalf("read %q, %v", line, err)
	}
	cancel()
	res := p.Wait()
	if !res.Canceled || res.TimedOut || res.Success() {
		t.Errorf("result %+v", res)
	}
	if res2 := p.Wait(); res2.Pid != res.Pid || res2.Canceled != res.Canceled {
		t.Errorf("second Wait differs")
	}

	p, err = proc.Start(t.Context(), sh(`exec sleep 100`))
	if err != nil {
		t.Fatal(err)
	}
	p.Kill()
	p.Kill()
	<-p.Exited()
	res = p.Wait()
	p.Kill() // after the end: nothing
	if !res.Killed || res.Success() || !strings.Contains(res.Status, "killed") {
		t.Errorf("result %+v", res)
	}
}

// A program spoken to over its standard input and output.
func TestPipes(t *testing.T) {
	c := proc.Config{Path: "cat", PipeStdin: true, PipeStdout: true}
	p, err := proc.Start(t.Context(), c)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Stdin().WriteString("hello\n"); err != nil {
		t.Fatal(err)
	}
	r := bufio.NewReader(p.Stdout())
	line, err := r.ReadString('\n')
	if err != nil || line != "hello\n" {
		t.Fatalf("read %q, %v", line, err)
	}
	// A read deadline works on the pipe.
	p.Stdout().SetReadDeadline(time.Now().Add(10 * time.Millisecond))
	if _, err := r.ReadByte(); !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Errorf("read past deadline: %v", err)
	}
	p.Stdin().Close()
	if res := p.Wait(); !res.Success() || len(res.Stdout) != 0 {
		t.Errorf("result %+v", res)
	}
}

// No goroutine outlives Wait.
func TestNoGoroutineLeak(t *testing.T) {
	before := runtime.NumGoroutine()
	for range 5 {
		ctx, cancel := context.WithTimeout(t.Context(), 20*time.Millisecond)
		proc.Run(ctx, sh(`sleep 100 & wait`))
		cancel()
		c := sh(`cat`)
		c.Stdin = strings.NewReader("x")
		proc.Run(t.Context(), c)
	}
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<16)
			t.Fatalf("%d goroutines, %d before:\n%s", runtime.NumGoroutine(), before, buf[:runtime.Stack(buf, true)])
		}
		runtime.Gosched()
	}
}

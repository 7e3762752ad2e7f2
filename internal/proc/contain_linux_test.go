//go:build linux

package proc_test

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"github.com/botarena/botarena/internal/proc"
)

// The helper programs are the test binary under another name: a link whose
// name starts with sleeperPrefix is a sleeper, and with hostEnv set it is a
// host.
const (
	sleeperPrefix = "zz"
	hostEnv       = "BOTARENA_PROC_TEST_HOST"
)

// guard bounds how long a test waits for what must happen at once (Wait
// with Drain at an hour, a child's death): far beyond any machine's load,
// only so that a regression fails with a message instead of hanging.
const guard = 2 * time.Minute

// helper runs the test binary as a helper program when args say it is one,
// and reports whether it was.
//
// A sleeper ("zz<marker> [setsid] [up] [pid] [note=FIFO] [exit|echo]")
// does what its arguments say, in order: setsid(2); print "up"; print its
// pid (as the host sees it: in a PID namespace its own is another); write
// its pid in the named pipe FIFO; exit instead of sleeping, or copy its
// input to its output until end of file and exit. Otherwise it sleeps for
// an hour. Its name, its comm in /proc, tells the tests its processes
// (zombies too).
//
// A host (hostEnv set to "namespace", "cgroup" or "scan", the sleeper's
// path as the argument) starts the sleeper through proc in that way, waits
// for its "up", prints its pid and its cgroup's directory, and sleeps until
// it is killed. Given a shell script and a count after the sleeper's path,
// it runs the script (with the sleeper's path as $0) instead and waits for
// that many lines of output.
func helper(args []string) bool {
	if strings.HasPrefix(filepath.Base(args[0]), sleeperPrefix) {
		for _, a := range args[1:] {
			switch a {
			case "setsid":
				if _, err := syscall.Setsid(); err != nil {
					fmt.Fprintln(os.Stderr, "setsid:", err)
					os.Exit(1)
				}
			case "up":
				fmt.Println("up")
			case "pid":
				fmt.Println(hostPid())
			case "exit":
				os.Exit(0)
			default:
				if fifo, ok := strings.CutPrefix(a, "note="); ok {
					f, err := os.OpenFile(fifo, os.O_WRONLY, 0)
					if err == nil {
						fmt.Fprintln(f, hostPid())
						f.Close()
					}
				}
			case "echo":
				io.Copy(os.Stdout, os.Stdin)
				os.Exit(0)
			}
		}
		time.Sleep(time.Hour)
		os.Exit(0)
	}
	mode := os.Getenv(hostEnv)
	if mode == "" {
		return false
	}
	c := proc.Config{Path: args[1], Args: []string{"up"}, PipeStdout: true}
	lines := 1
	if len(args) == 4 {
		c.Path, c.Args = "/bin/sh", []string{"-c", args[2], args[1]}
		lines, _ = strconv.Atoi(args[3])
	}
	switch mode {
	case "cgroup":
		c = proc.WithoutNamespace(c)
	case "scan":
		c = scanOnly(c)
	}
	p, err := proc.Start(context.Background(), c)
	if err != nil {
		fmt.Println("error:", err)
		os.Exit(1)
	}
	r := bufio.NewReader(p.Stdout())
	for range lines {
		if line, err := r.ReadString('\n'); line != "up\n" {
			fmt.Printf("error: the program said %q, %v\n", line, err)
			os.Exit(1)
		}
	}
	fmt.Println(p.Pid(), p.CgroupDir())
	time.Sleep(time.Hour)
	os.Exit(0)
	return true
}

// hostPid returns the caller's pid as the host sees it: the host's /proc,
// which a program in a PID namespace of its own sees too, names it so.
func hostPid() int {
	self, _ := os.Readlink("/proc/self")
	pid, err := strconv.Atoi(self)
	if err != nil {
		return os.Getpid()
	}
	return pid
}

// scanOnly returns c set to contain the program by /proc scans alone, the
// last resort.
func scanOnly(c proc.Config) proc.Config { return proc.WithoutNamespace(proc.WithoutCgroup(c)) }

// newSleeper makes a sleeper with a name of its own and returns its path and
// name.
func newSleeper(t *testing.T) (path, name string) {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	name = sleeperPrefix + strings.ToLower(rand.Text()[:8]) // comm keeps 15 bytes
	path = filepath.Join(t.TempDir(), name)
	if err := os.Symlink(self, path); err != nil {
		t.Fatal(err)
	}
	return path, name
}

// checkNoneLeft fails t for every process named name, alive or an unreaped
// zombie, and kills and reaps it.
func checkNoneLeft(t *testing.T, name string) {
	t.Helper()
	entries, err := os.ReadDir("/proc")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		data, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		i, j := bytes.IndexByte(data, '('), bytes.LastIndexByte(data, ')')
		if err != nil || i < 0 || j < i || string(data[i+1:j]) != name {
			continue
		}
		t.Errorf("process %d (%s) left: %s", pid, name, data[j+2:j+3])
		syscall.Kill(pid, syscall.SIGKILL)
		var ws syscall.WaitStatus
		syscall.Wait4(pid, &ws, 0, nil) // if it is ours
	}
}

// forEachWay runs f for each way of containment: in a PID namespace (with
// a cgroup too where one is writable), in a cgroup alone, and by /proc
// scans alone; the first two are skipped where the kernel or the cgroups
// do not allow them. way sets a Config for the one f is run for; strong
// reports that it holds a descendant that leaves its session, clears its
// environment and loses its parent, all at once.
func forEachWay(t *testing.T, f func(t *testing.T, way func(proc.Config) proc.Config, strong bool)) {
	t.Run("namespace", func(t *testing.T) {
		if proc.Probe() != proc.ContainNamespace {
			t.Skip("the kernel allows no PID namespace in a user namespace here")
		}
		p, err := proc.Start(t.Context(), proc.Config{Path: "true"})
		if err != nil {
			t.Fatal(err)
		}
		p.Wait()
		if got := p.Containment(); got != proc.ContainNamespace {
			t.Fatalf("containment %v, want %v", got, proc.ContainNamespace)
		}
		f(t, func(c proc.Config) proc.Config { return c }, true)
	})
	t.Run("cgroup", func(t *testing.T) {
		p, err := proc.Start(t.Context(), proc.WithoutNamespace(proc.Config{Path: "true"}))
		if err != nil {
			t.Fatal(err)
		}
		dir := p.CgroupDir()
		p.Wait()
		if dir == "" {
			t.Skip("no writable cgroup v2 here")
		}
		if got := p.Containment(); got != proc.ContainCgroup {
			t.Errorf("containment %v, want %v", got, proc.ContainCgroup)
		}
		if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("cgroup %s not removed: %v", dir, err)
		}
		f(t, proc.WithoutNamespace, true)
	})
	t.Run("scan", func(t *testing.T) { f(t, scanOnly, false) })
}

// waitGuarded is p.Wait, failing t if it does not return within guard.
func waitGuarded(t *testing.T, p *proc.Process) proc.Result {
	t.Helper()
	done := make(chan proc.Result, 1)
	go func() { done <- p.Wait() }()
	select {
	case res := <-done:
		return res
	case <-time.After(guard):
		t.Fatalf("Wait did not return within %v: it waits for the drain", guard)
		return proc.Result{}
	}
}

// readLines reads n lines from r.
func readLines(t *testing.T, r *bufio.Reader, n int) []string {
	t.Helper()
	var lines []string
	for range n {
		line, err := r.ReadString('\n')
		if err != nil {
			t.Fatalf("after %q: %v", lines, err)
		}
		lines = append(lines, strings.TrimSpace(line))
	}
	return lines
}

// The descendants a program leaves when it exits die with it, whatever they
// did: left the session (setsid), lost their parent (a double fork), lost
// it and cleared their environment (found in the program's group), and,
// in a PID namespace or a cgroup, all three. Wait returns as soon as they are dead, although
// they held the output pipes and Drain is an hour.
func TestLeftDescendantsAreKilled(t *testing.T) {
	forEachWay(t, func(t *testing.T, way func(proc.Config) proc.Config, strong bool) {
		z, name := newSleeper(t)
		script := `"$0" setsid up & ( "$0" up & ) ; "$0" up & ( env -i "$0" up & ) ; `
		n := 4
		if strong {
			script += `env -i "$0" setsid up & `
			n++
		}
		script += `read x || :`
		c := way(proc.Config{Path: "/bin/sh", Args: []string{"-c", script, z}, PipeStdin: true, PipeStdout: true, Drain: time.Hour})
		p, err := proc.Start(t.Context(), c)
		if err != nil {
			t.Fatal(err)
		}
		readLines(t, bufio.NewReader(p.Stdout()), n) // every sleeper is up
		p.Stdin().Close()                            // the program exits
		res := waitGuarded(t, p)
		if !res.Success() {
			t.Errorf("result %+v", res)
		}
		checkNoneLeft(t, name)
	})
}

// A host reading a program's output sees its end as soon as the program
// exits, before Wait: what the program left, holding the output open, is
// killed then.
func TestOutputEndsWithTheProgram(t *testing.T) {
	forEachWay(t, func(t *testing.T, way func(proc.Config) proc.Config, strong bool) {
		z, name := newSleeper(t)
		c := way(proc.Config{Path: "/bin/sh", Args: []string{"-c", `"$0" setsid up & ( "$0" up & ) ; read x`, z}, PipeStdin: true, PipeStdout: true})
		p, err := proc.Start(t.Context(), c)
		if err != nil {
			t.Fatal(err)
		}
		r := bufio.NewReader(p.Stdout())
		readLines(t, r, 2)
		p.Stdin().Close() // the program exits
		ended := make(chan error, 1)
		go func() {
			_, err := r.ReadString('\n')
			ended <- err
		}()
		select {
		case err := <-ended:
			if err != io.EOF {
				t.Errorf("read %v, want EOF", err)
			}
		case <-time.After(guard):
			t.Errorf("no end of the output %v after the program exited", guard)
		}
		waitGuarded(t, p)
		checkNoneLeft(t, name)
	})
}

// Kill, and the end of the context, kill every descendant of a program
// still running: those that left the session or lost their parent, and one
// that also cleared its environment (found through its parent, still
// there); in a PID namespace or a cgroup even one that did all three.
func TestKillReachesEveryDescendant(t *testing.T) {
	forEachWay(t, func(t *testing.T, way func(proc.Config) proc.Config, strong bool) {
		for _, how := range []string{"Kill", "deadline"} {
			t.Run(how, func(t *testing.T) {
				z, name := newSleeper(t)
				script := `"$0" setsid up & ( "$0" up & ) ; env -i "$0" setsid up & `
				n := 3
				if strong {
					script += `( env -i "$0" setsid up & ) ; `
					n++
				}
				script += `wait`
				ctx := &deadlineCtx{Context: t.Context(), done: make(chan struct{})}
				c := way(proc.Config{Path: "/bin/sh", Args: []string{"-c", script, z}, PipeStdout: true, Drain: time.Hour})
				p, err := proc.Start(ctx, c)
				if err != nil {
					t.Fatal(err)
				}
				readLines(t, bufio.NewReader(p.Stdout()), n)
				if how == "Kill" {
					p.Kill()
				} else {
					close(ctx.done)
				}
				res := waitGuarded(t, p)
				if res.Killed != (how == "Kill") || res.TimedOut != (how == "deadline") || res.Success() {
					t.Errorf("result %+v", res)
				}
				checkNoneLeft(t, name)
			})
		}
	})
}

// A descendant that exits by itself after its parent died is a zombie child
// of the host (a subreaper): proc reaps it at the end of the program. With a
// cgroup even one that left the session; without, one of the program's
// group. (In a PID namespace proc's init adopts it instead, and reaps it at
// once: it is gone before the program ends.)
func TestAdoptedZombiesAreReaped(t *testing.T) {
	forEachWay(t, func(t *testing.T, way func(proc.Config) proc.Config, strong bool) {
		z, name := newSleeper(t)
		how := "setsid pid exit"
		if !strong {
			how = "pid exit"
		}
		script := `( "$0" ` + how + ` & ) ; read x || :`
		c := way(proc.Config{Path: "/bin/sh", Args: []string{"-c", script, z}, PipeStdin: true, PipeStdout: true})
		p, err := proc.Start(t.Context(), c)
		if err != nil {
			t.Fatal(err)
		}
		pid, err := strconv.Atoi(readLines(t, bufio.NewReader(p.Stdout()), 1)[0])
		if err != nil {
			t.Fatal(err)
		}
		waitExit(t, pid) // it is a zombie now, not reaped, outside a namespace
		// In a namespace the init may have reaped it already; the
		// check that none is left, after Wait, holds in every way.
		if !strings.HasSuffix(t.Name(), "/namespace") {
			if _, err := os.Stat(fmt.Sprintf("/proc/%d", pid)); err != nil {
				t.Fatalf("the zombie %d: %v", pid, err)
			}
		}
		p.Stdin().Close()
		waitGuarded(t, p)
		checkNoneLeft(t, name)
	})
}

// waitExit waits until pid has exited, without reaping it: a pidfd
// (pidfd_open, Linux 5.3) becomes readable then.
func waitExit(t *testing.T, pid int) {
	t.Helper()
	const sysPidfdOpen = 434 // the same on every architecture but MIPS
	fd, _, errno := syscall.Syscall(sysPidfdOpen, uintptr(pid), 0, 0)
	if errno == syscall.ESRCH {
		return // gone already, reaped
	}
	if errno != 0 {
		t.Skipf("pidfd_open: %v", errno)
	}
	defer syscall.Close(int(fd))
	var set syscall.FdSet
	bits := 8 * int(unsafe.Sizeof(set.Bits[0]))
	set.Bits[int(fd)/bits] |= 1 << (int(fd) % bits)
	tv := syscall.NsecToTimeval(guard.Nanoseconds())
	for {
		n, err := syscall.Select(int(fd)+1, &set, nil, nil, &tv)
		if errors.Is(err, syscall.EINTR) {
			continue
		}
		if err != nil || n != 1 {
			t.Fatalf("process %d did not exit: %d, %v", pid, n, err)
		}
		return
	}
}

// Without a cgroup, a descendant that cleared its environment and left the
// session after its parent died cannot be told from the host's other
// children: it escapes, and then Drain bounds how long it holds Wait.
func TestWaitBoundedByDrain(t *testing.T) {
	z, name := newSleeper(t)
	c := scanOnly(sh(`env -i "$0" setsid pid & read x || :`))
	c.Args = append(c.Args, z)
	c.PipeStdin, c.PipeStdout, c.Drain = true, true, 50*time.Millisecond
	p, err := proc.Start(t.Context(), c)
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(readLines(t, bufio.NewReader(p.Stdout()), 1)[0])
	if err != nil {
		t.Fatal(err)
	}
	p.Stdin().Close()
	began := time.Now()
	waitGuarded(t, p)
	t.Logf("Wait took %v with Drain at 50ms", time.Since(began))
	// The escaped sleeper is ours to end.
	syscall.Kill(pid, syscall.SIGKILL)
	reapOrphan(t, pid)
	checkNoneLeft(t, name)
}

// kill -9 of a host kills the programs it started (their parent-death
// signal), even though the host's goroutines move between threads.
func TestHostDeathKillsItsPrograms(t *testing.T) {
	for _, way := range []string{"namespace", "cgroup", "scan"} {
		t.Run(way, func(t *testing.T) {
			z, name := newSleeper(t)
			host := exec.Command(os.Args[0], z)
			host.Env = append(os.Environ(), hostEnv+"="+way)
			out, err := host.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := host.Start(); err != nil {
				t.Fatal(err)
			}
			line, err := bufio.NewReader(out).ReadString('\n')
			f := strings.Fields(line)
			if err != nil || len(f) < 1 {
				host.Process.Kill()
				host.Wait()
				t.Fatalf("host said %q, %v", line, err)
			}
			pid, err := strconv.Atoi(f[0])
			if err != nil {
				t.Fatalf("host said %q", line)
			}
			if len(f) > 1 {
				t.Cleanup(func() { os.Remove(f[1]) })
			}
			host.Process.Signal(syscall.SIGKILL)
			host.Wait()
			if way == "namespace" {
				// The sleeper is the child of proc's init, which
				// dies with the host and takes its namespace with
				// it: the kernel kills and reaps the sleeper.
				waitExit(t, pid)
				waitNoneLeft(t, name)
				return
			}
			// The sleeper is ours now (we are a subreaper): it must die.
			ended := make(chan syscall.WaitStatus, 1)
			go func() {
				var ws syscall.WaitStatus
				for {
					_, err := syscall.Wait4(pid, &ws, 0, nil)
					if !errors.Is(err, syscall.EINTR) {
						break
					}
				}
				ended <- ws
			}()
			select {
			case ws := <-ended:
				if !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
					t.Errorf("the host's program ended with %v", ws)
				}
			case <-time.After(guard):
				t.Errorf("the host's program %d still runs %v after the host died", pid, guard)
				syscall.Kill(pid, syscall.SIGKILL)
				<-ended
			}
			checkNoneLeft(t, name)
			if len(f) > 1 {
				// The dead host's cgroup is removed when the next
				// program starts.
				proc.Run(t.Context(), proc.Config{Path: "true"})
				if _, err := os.Stat(f[1]); !errors.Is(err, os.ErrNotExist) {
					t.Errorf("the dead host's cgroup %s: %v", f[1], err)
				}
			}
		})
	}
}

// The parent-death signal is tied to the thread that started the program:
// the program must outlive threads that end (the runtime ends the thread of
// a goroutine that exits locked to it), as long as the host lives.
func TestProgramOutlivesEndingThreads(t *testing.T) {
	z, name := newSleeper(t)
	p, err := proc.Start(t.Context(), proc.Config{Path: z, Args: []string{"echo"}, PipeStdin: true, PipeStdout: true})
	if err != nil {
		t.Fatal(err)
	}
	for range 4 * runtime.GOMAXPROCS(0) {
		ended := make(chan struct{})
		go func() {
			defer close(ended)
			runtime.LockOSThread() // and exit locked: the thread ends
		}()
		<-ended
	}
	if _, err := p.Stdin().WriteString("ping\n"); err != nil {
		t.Errorf("the program is gone: %v", err)
	}
	if line, err := bufio.NewReader(p.Stdout()).ReadString('\n'); line != "ping\n" {
		t.Errorf("the program is gone: read %q, %v", line, err)
	}
	p.Stdin().Close()
	if res := waitGuarded(t, p); !res.Success() {
		t.Errorf("result %+v", res)
	}
	checkNoneLeft(t, name)
}

// The program's environment carries its cookie, added to the one it got.
func TestCookie(t *testing.T) {
	c := sh(`printf '%s' "$` + proc.CookieVar + `"`)
	c.Env = []string{"PATH=/usr/bin:/bin", proc.CookieVar + "=outer"}
	res, err := proc.Run(t.Context(), c)
	if err != nil {
		t.Fatal(err)
	}
	outer, cookie, ok := strings.Cut(string(res.Stdout), ",")
	if !ok || outer != "outer" || len(cookie) < 16 {
		t.Errorf("%s=%q", proc.CookieVar, res.Stdout)
	}
	// Without Env, the host's environment and PWD as exec sets it.
	dir := t.TempDir()
	c = sh(`printf '%s|%s' "$PWD" "$` + proc.CookieVar + `"`)
	c.Dir = dir
	res, _ = proc.Run(t.Context(), c)
	pwd, cookie, _ := strings.Cut(string(res.Stdout), "|")
	if pwd != dir || len(cookie) < 16 || strings.Contains(cookie, ",") {
		t.Errorf("PWD=%q %s=%q", pwd, proc.CookieVar, cookie)
	}
}

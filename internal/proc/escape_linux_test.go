//go:build linux

package proc_test

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/botarena/botarena/internal/proc"
)

// escapes are the ways a hostile program starts a process meant to outlive
// it, each a shell command run with a sleeper as $0 and "note=FIFO" as $1
// (the sleeper writes its pid there once it runs), before the program
// becomes the real bot: a new session with a cleared environment and
// nothing of the program's open; the same after a double fork (its parent
// gone at once); and, first, the program moving itself to the root cgroup
// (root may, in a cgroup alone) and then the same.
var escapes = []struct {
	name, script string
	rootCgroup   bool // the script needs the root cgroup's directory, as $2
}{
	{"setsid", `env -i setsid "$0" "$1" </dev/null >/dev/null 2>&1 &`, false},
	{"doublefork", `( ( env -i setsid "$0" "$1" </dev/null >/dev/null 2>&1 & ) & )`, false},
	{"rootcgroup", `echo 0 2>/dev/null >"$2/cgroup.procs" ; env -i setsid "$0" "$1" </dev/null >/dev/null 2>&1 &`, true},
}

// rootCgroupDir returns the directory of the cgroup v2 hierarchy's root,
// from /proc/self/mountinfo, or "" if none is mounted.
func rootCgroupDir(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile("/proc/self/mountinfo")
	if err != nil {
		return ""
	}
	for line := range strings.Lines(string(data)) {
		left, right, ok := strings.Cut(line, " - ")
		lf, rf := strings.Fields(left), strings.Fields(right)
		if ok && len(lf) >= 5 && len(rf) >= 1 && rf[0] == "cgroup2" && lf[3] == "/" {
			return lf[4]
		}
	}
	return ""
}

// noteFifo makes a named pipe in a fresh directory and opens it for reading
// and writing (so that the open does not wait for a writer, and the pipe
// does not end when one closes it); a goroutine sends each pid written in
// it.
func noteFifo(t *testing.T) (path string, pids <-chan int) {
	t.Helper()
	path = filepath.Join(t.TempDir(), "note")
	if err := syscall.Mkfifo(path, 0o666); err != nil {
		t.Fatal(err)
	}
	os.Chmod(path, 0o666) // past the umask: the test may run as another user
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	ch := make(chan int, 16)
	go func() {
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if pid, err := strconv.Atoi(sc.Text()); err == nil {
				ch <- pid
			}
		}
	}()
	return path, ch
}

// awaitNote returns the next pid a sleeper writes in its note, failing t
// after guard.
func awaitNote(t *testing.T, pids <-chan int) int {
	t.Helper()
	select {
	case pid := <-pids:
		return pid
	case <-time.After(guard):
		t.Fatalf("no sleeper started within %v", guard)
		return 0
	}
}

// waitNoneLeft waits, at most guard, until no process named name is left,
// reaping those that are our children (orphans adopted by the test binary,
// a subreaper), then fails t for any still there (see checkNoneLeft).
func waitNoneLeft(t *testing.T, name string) {
	t.Helper()
	deadline := time.Now().Add(guard)
	for pause := time.Millisecond; ; pause = min(2*pause, 100*time.Millisecond) {
		left := 0
		entries, _ := os.ReadDir("/proc")
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
			left++
			var ws syscall.WaitStatus
			syscall.Wait4(pid, &ws, syscall.WNOHANG, nil) // if it is our zombie
		}
		if left == 0 || time.Now().After(deadline) {
			break
		}
		time.Sleep(pause) // polling, bounded by the deadline: a killed process takes a moment to go
	}
	checkNoneLeft(t, name)
}

// Every escape of a hostile program leaves nothing behind once the program
// exits or is killed: in a PID namespace all of them, in a cgroup alone all
// but root's move to the root cgroup, with /proc scans alone the one whose
// parent (the program) is still there when the program is killed.
func TestEscapesAreKilled(t *testing.T) {
	root := rootCgroupDir(t)
	forEachWay(t, func(t *testing.T, way func(proc.Config) proc.Config, strong bool) {
		probe, err := proc.Run(t.Context(), way(proc.Config{Path: "true"}))
		if err != nil {
			t.Fatal(err)
		}
		ns := probe.Containment == proc.ContainNamespace
		for _, e := range escapes {
			t.Run(e.name, func(t *testing.T) {
				switch {
				case e.rootCgroup && root == "":
					t.Skip("no cgroup v2 hierarchy is mounted here: there is no root cgroup to move to")
				case e.rootCgroup && !ns && os.Geteuid() == 0:
					t.Skip("root may move itself out of a cgroup; only a PID namespace holds it")
				case !strong && e.name != "setsid":
					t.Skip("with /proc scans alone, a process that cleared its environment, left its session and lost its parent escapes")
				}
				for _, end := range []string{"exit", "Kill"} {
					t.Run(end, func(t *testing.T) {
						if !strong && end == "exit" {
							t.Skip("with /proc scans alone, a process that cleared its environment and left its session escapes once its parent (the program) has exited")
						}
						z, name := newSleeper(t)
						fifo, notes := noteFifo(t)
						script := e.script + "\n" + `exec "$0" echo`
						c := way(proc.Config{Path: "/bin/sh", Args: []string{"-c", script, z, "note=" + fifo, root}, PipeStdin: true, PipeStdout: true, Drain: time.Hour})
						p, err := proc.Start(t.Context(), c)
						if err != nil {
							t.Fatal(err)
						}
						awaitNote(t, notes) // the escaper runs
						if end == "exit" {
							p.Stdin().Close()
						} else {
							p.Kill()
						}
						res := waitGuarded(t, p)
						if res.Success() != (end == "exit") {
							t.Errorf("result %+v", res)
						}
						checkNoneLeft(t, name)
					})
				}
			})
		}
	})
}

// A program that signals itself dies of it, in its own PID namespace too:
// it is not the namespace's first process (proc's init is), which would
// ignore a signal from within the namespace that it has no handler for.
// Its status is its own, as os/exec would say it.
func TestSignalsToItself(t *testing.T) {
	for _, c := range []struct {
		script, want string
	}{
		{`kill -TERM $$; echo alive`, "signal: terminated"},
		{`kill -9 $$; echo alive`, "signal: killed"},
		{`kill -ABRT $$; echo alive`, "signal: aborted"},
		{`exit 7`, "exit status 7"},
	} {
		for _, way := range []struct {
			name string
			f    func(proc.Config) proc.Config
		}{{"default", func(c proc.Config) proc.Config { return c }}, {"no namespace", proc.WithoutNamespace}} {
			res, err := proc.Run(t.Context(), way.f(sh(c.script)))
			if err != nil {
				t.Fatal(err)
			}
			if res.Success() || !strings.HasPrefix(res.Status, c.want) || len(res.Stdout) != 0 {
				t.Errorf("%s, %s: %+v, want %q", c.script, way.name, res, c.want)
			}
			if want := strings.HasPrefix(c.want, "signal"); want != (res.ExitCode == -1) {
				t.Errorf("%s, %s: exit code %d", c.script, way.name, res.ExitCode)
			}
		}
	}
}

// In its own PID namespace a program sees its pid and its parent's as
// pids of that namespace (its parent is proc's init, pid 1, and its own is
// not 1), and the host knows it by its pid in the host's namespace, which
// the program finds in /proc/self (the host's /proc).
func TestPidOfTheProgram(t *testing.T) {
	if proc.Probe() != proc.ContainNamespace {
		t.Skip("the kernel allows no PID namespace in a user namespace here")
	}
	res, err := proc.Run(t.Context(), sh(`read pid _ </proc/self/stat; echo $$ $PPID $pid`))
	if err != nil {
		t.Fatal(err)
	}
	f := strings.Fields(string(res.Stdout))
	if !res.Success() || len(f) != 3 {
		t.Fatalf("%+v", res)
	}
	if f[0] == "1" || f[1] != "1" {
		t.Errorf("$$ %s, $PPID %s: want the program not pid 1, its parent pid 1", f[0], f[1])
	}
	if f[2] != strconv.Itoa(res.Pid) {
		t.Errorf("the program's pid in the host's /proc is %s, Result.Pid %d", f[2], res.Pid)
	}
}

// kill -9 of a host whose program left escaped descendants (a new session
// with a cleared environment, after a double fork too): in a PID namespace
// they all die with the program (its parent-death signal); in a cgroup
// alone they stay in the cgroup the dead host left, and the next program
// started under the same parent cgroup kills them and removes it.
func TestHostDeathLeavesNothing(t *testing.T) {
	for _, mode := range []string{"namespace", "cgroup"} {
		t.Run(mode, func(t *testing.T) {
			if mode == "namespace" && proc.Probe() != proc.ContainNamespace {
				t.Skip("the kernel allows no PID namespace in a user namespace here")
			}
			if mode == "cgroup" {
				p, err := proc.Start(t.Context(), proc.WithoutNamespace(proc.Config{Path: "true"}))
				if err != nil {
					t.Fatal(err)
				}
				p.Wait()
				if p.CgroupDir() == "" {
					t.Skip("no writable cgroup v2 here")
				}
			}
			z, name := newSleeper(t)
			script := `env -i setsid "$0" up & ( ( env -i "$0" setsid up & ) & ) ; "$0" up & wait`
			host := exec.Command(os.Args[0], z, script, "3")
			host.Env = append(os.Environ(), hostEnv+"="+mode)
			out, err := host.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := host.Start(); err != nil {
				t.Fatal(err)
			}
			stuck := time.AfterFunc(guard, func() { host.Process.Kill() }) // a failure, not a hang
			line, err := bufio.NewReader(out).ReadString('\n')
			stuck.Stop()
			f := strings.Fields(line)
			if err != nil || len(f) < 1 || strings.HasPrefix(line, "error") {
				host.Process.Kill()
				host.Wait()
				t.Fatalf("host said %q, %v", line, err)
			}
			host.Process.Signal(syscall.SIGKILL)
			host.Wait()
			if mode == "cgroup" {
				// The setsid sleepers outlive the host in its cgroup;
				// the next program's start removes it.
				if _, err := os.Stat(f[1]); err != nil {
					t.Fatalf("the dead host's cgroup %s: %v", f[1], err)
				}
				if _, err := proc.Run(t.Context(), proc.WithoutNamespace(proc.Config{Path: "true"})); err != nil {
					t.Fatal(err)
				}
			}
			waitNoneLeft(t, name)
			if len(f) > 1 {
				if mode == "namespace" {
					proc.Run(t.Context(), proc.Config{Path: "true"})
				}
				if _, err := os.Stat(f[1]); !errors.Is(err, os.ErrNotExist) {
					t.Errorf("the dead host's cgroup %s: %v", f[1], err)
				}
			}
		})
	}
}

// As an ordinary user (nobody), with no cgroup to write, the escapes and a
// host's death leave nothing either: the test binary runs its own tests
// again under setpriv, copied to a directory nobody may read.
func TestContainAsNobody(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("not root: the tests run as this user already")
	}
	setpriv, err := exec.LookPath("setpriv")
	if err != nil {
		t.Skip("no setpriv here to run as nobody")
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir, err := os.MkdirTemp("", "proctest")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "proc.test")
	src, err := os.Open(self)
	if err != nil {
		t.Fatal(err)
	}
	dst, err := os.OpenFile(bin, os.O_CREATE|os.O_WRONLY, 0o755)
	if err == nil {
		_, err = io.Copy(dst, src)
		if cerr := dst.Close(); err == nil {
			err = cerr
		}
	}
	src.Close()
	if err != nil {
		t.Fatal(err)
	}
	tmp := filepath.Join(dir, "tmp")
	if err := os.Mkdir(tmp, 0o777); err != nil {
		t.Fatal(err)
	}
	os.Chmod(tmp, 0o777)
	cmd := exec.CommandContext(t.Context(), setpriv, "--reuid=65534", "--regid=65534", "--clear-groups", bin,
		"-test.run", "^(TestEscapesAreKilled|TestLeftDescendantsAreKilled|TestKillReachesEveryDescendant|TestHostDeathLeavesNothing|TestHostDeathKillsItsPrograms)$", "-test.count=1", "-test.v")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "TMPDIR="+tmp, "HOME="+tmp)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("as nobody: %v\n%s", err, out)
	}
	for _, want := range []string{"--- PASS: TestEscapesAreKilled/namespace/setsid", "--- PASS: TestEscapesAreKilled/namespace/doublefork", "--- PASS: TestHostDeathLeavesNothing/namespace"} {
		if !bytes.Contains(out, []byte(want)) {
			t.Errorf("as nobody, no %q:\n%s", want, out)
		}
	}
	if root := rootCgroupDir(t); root != "" && !bytes.Contains(out, []byte("--- PASS: TestEscapesAreKilled/namespace/rootcgroup")) {
		t.Errorf("as nobody, the root cgroup escape was not tried:\n%s", out)
	}
	t.Logf("as nobody:\n%s", out)
}

// Under proc's init the program gets the environment, the working
// directory and the arguments it was given, exactly: the init's marker is
// gone, the cookie is there, and its argv[0] is its path as given.
func TestProgramGetsItsOwnStart(t *testing.T) {
	dir := t.TempDir()
	c := proc.Config{Path: "/bin/sh", Args: []string{"-c", `env; pwd -P; tr '\0' '\n' </proc/self/cmdline`, "x"}, Dir: dir, Env: []string{"A=1", "B=two words"}}
	res, err := proc.Run(t.Context(), c)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Success() {
		t.Fatalf("%+v", res)
	}
	got := map[string]bool{}
	for line := range strings.Lines(string(res.Stdout)) {
		got[strings.TrimSuffix(line, "\n")] = true
	}
	wd, _ := filepath.EvalSymlinks(dir)
	for _, want := range []string{"A=1", "B=two words", wd, "/bin/sh", "-c"} {
		if !got[want] {
			t.Errorf("no %q in the program's output:\n%s", want, res.Stdout)
		}
	}
	for line := range got {
		if strings.HasPrefix(line, "BOTARENA_PROC_INIT") {
			t.Errorf("the init's marker reached the program: %q", line)
		}
	}
	if !strings.Contains(string(res.Stdout), proc.CookieVar+"=") {
		t.Errorf("no cookie in the program's environment:\n%s", res.Stdout)
	}
}

// Arguments longer than the init's bound on a /proc file reach the program
// whole: 14 of 100 KiB each, 1.4 MiB (the init reads its own command line
// from /proc).
func TestProgramGetsLongArguments(t *testing.T) {
	args := []string{"-c", `echo $#; printf %s "$@" | wc -c`, "sh"}
	for i := range 14 {
		args = append(args, strings.Repeat(string(rune('a'+i)), 100<<10))
	}
	res, err := proc.Run(t.Context(), proc.Config{Path: "/bin/sh", Args: args})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Fields(string(res.Stdout)); !res.Success() || len(got) != 2 || got[0] != "14" || got[1] != strconv.Itoa(14*100<<10) {
		t.Errorf("the program saw %q (%+v); want 14 arguments, %d bytes", res.Stdout, res, 14*100<<10)
	}
}

// A program that closes its standard output and runs on (a disconnect)
// ends the host's reading at once: the init, which started it with the
// same standard files, holds none of them.
func TestClosedOutputEndsAtOnce(t *testing.T) {
	for _, way := range []struct {
		name string
		f    func(proc.Config) proc.Config
	}{{"default", func(c proc.Config) proc.Config { return c }}, {"no namespace", proc.WithoutNamespace}} {
		t.Run(way.name, func(t *testing.T) {
			c := way.f(sh(`echo bye; exec >&-; read x`))
			c.PipeStdin, c.PipeStdout = true, true
			p, err := proc.Start(t.Context(), c)
			if err != nil {
				t.Fatal(err)
			}
			defer p.Wait()
			defer p.Kill()
			read := make(chan []byte, 1)
			go func() {
				b, _ := io.ReadAll(p.Stdout()) // to the end of the output
				read <- b
			}()
			select {
			case b := <-read:
				if string(b) != "bye\n" {
					t.Errorf("output %q", b)
				}
			case <-p.Exited():
				t.Fatal("the program exited before its output ended")
			case <-time.After(guard):
				t.Fatalf("the output did not end within %v of the program closing it", guard)
			}
			select {
			case <-p.Exited():
				t.Error("the program ended: it should have waited for its input")
			default:
			}
		})
	}
}

//go:build linux

package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/botarena/botarena/internal/longtest"
)

// containArenaEnv names a prebuilt arena binary for the tests below: set by
// TestContainAsNobody for its run as another user, who cannot build one.
const containArenaEnv = "BOTARENA_CONTAIN_ARENA"

// containArena returns the arena binary the containment tests run.
func containArena(t *testing.T) string {
	t.Helper()
	if p := os.Getenv(containArenaEnv); p != "" {
		return p
	}
	return arenaBinary(t)
}

// sleepMark returns a duration for sleep unique to the test ("1004." and
// random digits), by which its processes are found in /proc.
func sleepMark() string { return fmt.Sprintf("1004.%09d", rand.IntN(1e9)) }

// withArg returns the pids of the processes with arg among their
// arguments, zombies (which have none) aside.
func withArg(t *testing.T, arg string) []int {
	t.Helper()
	entries, err := os.ReadDir("/proc")
	if err != nil {
		t.Fatal(err)
	}
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		cmdline, err := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		if err == nil && bytes.Contains(cmdline, []byte("\x00"+arg+"\x00")) {
			pids = append(pids, pid)
		}
	}
	return pids
}

// awaitNoneWithArg waits, polling at most limit, until no process has arg
// among its arguments, and fails t (killing them) if some still do.
func awaitNoneWithArg(t *testing.T, arg string, limit time.Duration) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for pause := time.Millisecond; ; pause = min(2*pause, 100*time.Millisecond) {
		left := withArg(t, arg)
		if len(left) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Errorf("%d processes of \"sleep %s\" left: %v", len(left), arg, left)
			for _, pid := range left {
				syscall.Kill(pid, syscall.SIGKILL)
			}
			return
		}
		time.Sleep(pause) // polling, bounded: a killed process takes a moment to go
	}
}

// awaitWithArg waits, polling at most limit, until n processes have arg
// among their arguments, and fails t if they do not.
func awaitWithArg(t *testing.T, arg string, n int, limit time.Duration) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for pause := time.Millisecond; ; pause = min(2*pause, 100*time.Millisecond) {
		got := len(withArg(t, arg))
		if got == n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d processes of \"sleep %s\", want %d", got, arg, n)
		}
		time.Sleep(pause) // polling, bounded: a process started in the background takes a moment to run
	}
}

// rootCgroup returns the directory of the cgroup v2 hierarchy's root, or ""
// if none is mounted.
func rootCgroup() string {
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

// containEscapes are the shell lines by which a hostile program starts
// "sleep MARK" to outlive its game before it becomes the real bot: a new
// session with a cleared environment and nothing of the program's open,
// the same after a double fork, and the same after moving itself to the
// root cgroup (which root may do).
var containEscapes = []struct{ name, line string }{
	{"setsid", `env -i setsid sleep %[1]s </dev/null >/dev/null 2>&1 &`},
	{"doublefork", `( ( env -i setsid sleep %[1]s </dev/null >/dev/null 2>&1 & ) & )`},
	{"rootcgroup", `echo 0 2>/dev/null >'%[2]s/cgroup.procs'; env -i setsid sleep %[1]s </dev/null >/dev/null 2>&1 &`},
}

// TestContainEscapes plays matches against programs that each escape on
// every start, for PDD (a run per move), MGTP and NTPU's STDIO mode: when
// the match returns not one of their sleepers is left. The quick tier tries
// each escape through one of them.
func TestContainEscapes(t *testing.T) {
	t.Parallel() // it mostly waits: for the matches' sleepers to be killed
	arena := containArena(t)
	if _, err := exec.LookPath("setsid"); err != nil {
		t.Skip("no setsid program here")
	}
	root := rootCgroup()
	for i, tc := range []struct{ game, proto, bot string }{
		{"pdd", "strategy", "bot pdd random"},
		{"darkchess", "mgtp", "bot darkchess random"},
		{"geister", "stdio", "bot geister random"},
	} {
		for j, e := range containEscapes {
			if i != j && !longtest.Enabled() {
				// The quick tier tries each escape through one protocol
				// (TestProgramsCannotEscape tries setsid through every
				// one); the long tier every escape through each.
				continue
			}
			t.Run(tc.game+"/"+tc.proto+"/"+e.name, func(t *testing.T) {
				if e.name == "rootcgroup" && root == "" {
					t.Skip("no cgroup v2 hierarchy is mounted here: there is no root cgroup to move to")
				}
				t.Parallel()
				dir := t.TempDir()
				mark := sleepMark()
				runs := filepath.Join(dir, "runs.txt")
				script := fmt.Sprintf("#!/bin/sh\necho run >> '%s'\n%s\nexec '%s' %s \"$@\"\n", runs, fmt.Sprintf(e.line, mark, root), arena, tc.bot)
				prog := filepath.Join(dir, "escaper.sh")
				if err := os.WriteFile(prog, []byte(script), 0o755); err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() {
					for _, pid := range withArg(t, mark) {
						syscall.Kill(pid, syscall.SIGKILL)
					}
				})
				games := "2"
				if tc.proto == "strategy" {
					games = longtest.Pick("1", "2")
				}
				ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
				defer cancel()
				args := []string{"match", tc.game, "random", tc.proto + ":" + prog, "-games", games, "-seed", "5", "-out", "m"}
				cmd := exec.CommandContext(ctx, arena, append(args, quickEscapeGame(t, tc.game, tc.proto)...)...)
				cmd.Dir = dir
				out, err := cmd.CombinedOutput()
				if err != nil {
					t.Fatalf("arena match: %v\n%s", err, out)
				}
				if !bytes.Contains(out, []byte("game "+games+": ")) {
					t.Errorf("output:\n%s", out)
				}
				if left := withArg(t, mark); len(left) > 0 {
					t.Errorf("%d sleepers left after the match: %v", len(left), left)
				}
				data, _ := os.ReadFile(runs)
				if n := bytes.Count(data, []byte("run\n")); n < 2 {
					t.Fatalf("the program ran %d times", n)
				}
			})
		}
	}
}

// TestSignalEndsArenaAndItsPrograms sends arena each signal that ends it
// (kill -9, which it cannot catch; SIGHUP, as when its terminal closes;
// SIGTERM; SIGINT, Ctrl-C) while it waits for a program that left two
// grandchildren, one of them in a session of its own with a cleared
// environment: none is left afterwards.
func TestSignalEndsArenaAndItsPrograms(t *testing.T) {
	arena := containArena(t)
	if _, err := exec.LookPath("setsid"); err != nil {
		t.Skip("no setsid program here")
	}
	for _, sig := range []syscall.Signal{syscall.SIGKILL, syscall.SIGHUP, syscall.SIGTERM, syscall.SIGINT} {
		t.Run(strings.ToUpper(strings.ReplaceAll(sig.String(), " ", "")), func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			fifo := filepath.Join(dir, "ready")
			if err := syscall.Mkfifo(fifo, 0o600); err != nil {
				t.Fatal(err)
			}
			mark := sleepMark()
			script := fmt.Sprintf("#!/bin/sh\nsleep %[1]s &\nenv -i setsid sleep %[1]s </dev/null >/dev/null 2>&1 &\necho ready > '%[2]s'\nexec sleep %[1]s\n", mark, fifo)
			prog := filepath.Join(dir, "silent.sh")
			if err := os.WriteFile(prog, []byte(script), 0o755); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() {
				for _, pid := range withArg(t, mark) {
					syscall.Kill(pid, syscall.SIGKILL)
				}
			})
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
			defer cancel()
			// A long -startup: arena waits for the program's handshake
			// until the signal comes.
			cmd := exec.CommandContext(ctx, arena, "match", "darkchess", "random", "mgtp:"+prog, "-games", "1", "-startup", "10m", "-out", "m")
			cmd.Dir = dir
			var out bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &out
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			defer cmd.Wait()
			defer cmd.Process.Kill()
			if _, err := os.ReadFile(fifo); err != nil { // until the program has written and closed it
				t.Fatal(err)
			}
			awaitWithArg(t, mark, 3, 2*time.Minute) // the program and its two grandchildren
			cmd.Process.Signal(sig)
			err := cmd.Wait()
			if sig != syscall.SIGKILL && (err == nil || !bytes.Contains(out.Bytes(), []byte("interrupted"))) {
				t.Errorf("arena after %v: %v\n%s", sig, err, out.Bytes())
			}
			awaitNoneWithArg(t, mark, 2*time.Minute)
		})
	}
}

// TestContainAsNobody runs the tests above again as an ordinary user
// (nobody, through setpriv), for whom no cgroup is writable: the test
// binary and arena are copied to a directory nobody may read. It runs in
// the long tier; in the quick tier internal/proc's escape tests run as
// nobody.
func TestContainAsNobody(t *testing.T) {
	longtest.Skip(t, "every escape through arena again, as nobody")
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
	arena := arenaBinary(t)
	dir, err := os.MkdirTemp("", "arenatest")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	tmp := filepath.Join(dir, "tmp")
	for _, d := range []string{dir, tmp} {
		if err := os.MkdirAll(d, 0o777); err != nil {
			t.Fatal(err)
		}
	}
	os.Chmod(dir, 0o755)
	os.Chmod(tmp, 0o777)
	bins := map[string]string{}
	for _, src := range []string{self, arena} {
		dst := filepath.Join(dir, filepath.Base(src))
		if err := copyExecutable(src, dst); err != nil {
			t.Fatal(err)
		}
		bins[src] = dst
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, setpriv, "--reuid=65534", "--regid=65534", "--clear-groups", bins[self],
		"-test.run", "^(TestContainEscapes|TestSignalEndsArenaAndItsPrograms)$", "-test.count=1", "-test.v")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "TMPDIR="+tmp, "HOME="+tmp, containArenaEnv+"="+bins[arena], asArenaEnv+"=") // the tests, not arena
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("as nobody: %v\n%s", err, out)
	}
	for _, want := range []string{
		"--- PASS: TestContainEscapes/pdd/strategy/setsid", "--- PASS: TestContainEscapes/pdd/strategy/doublefork",
		"--- PASS: TestContainEscapes/darkchess/mgtp/setsid", "--- PASS: TestContainEscapes/geister/stdio/setsid",
		"--- PASS: TestSignalEndsArenaAndItsPrograms/KILLED", "--- PASS: TestSignalEndsArenaAndItsPrograms/HANGUP",
	} {
		if !bytes.Contains(out, []byte(want)) {
			t.Errorf("as nobody, no %q:\n%s", want, out)
		}
	}
	t.Logf("as nobody:\n%s", out)
}

// copyExecutable copies the file src to a new executable dst.
func copyExecutable(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o755)
	if err != nil {
		return err
	}
	_, err = io.Copy(out, in)
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	return err
}

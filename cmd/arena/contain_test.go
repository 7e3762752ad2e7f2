//go:build linux

package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"github.com/botarena/botarena/internal/longtest"
	"github.com/botarena/botarena/internal/proc"
)

// These tests run the arena binary on programs that try to outlive their
// games.

// markVar marks the processes a test's programs leave behind, so that the
// test finds them in /proc (sleep takes no marker argument: its arguments
// are durations).
const markVar = "BOTARENA_CONTAIN_MARK"

// marked returns the pids of the processes whose environment holds
// markVar=mark.
func marked(t *testing.T, mark string) []int {
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
		env, err := os.ReadFile("/proc/" + e.Name() + "/environ")
		if err == nil && bytes.Contains(env, []byte("\x00"+markVar+"="+mark+"\x00")) {
			pids = append(pids, pid)
		}
	}
	return pids
}

// escapingProgram writes, in dir, a program that notes its start in
// runs.txt, starts "setsid sleep 1000" (marked with mark), then runs the
// shell command then.
func escapingProgram(t *testing.T, dir, mark, then string) (path, runs string) {
	t.Helper()
	if _, err := exec.LookPath("setsid"); err != nil {
		t.Skip("no setsid program here")
	}
	path, runs = filepath.Join(dir, "escaper.sh"), filepath.Join(dir, "runs.txt")
	script := fmt.Sprintf("#!/bin/sh\necho run >> '%s'\nsetsid env %s=%s sleep 1000 &\n%s\n", runs, markVar, mark, then)
	if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return path, runs
}

// quickEscapeGame returns the options that shorten, in the quick tier, a
// game of the protocols that start a program per move: a PDD game from its
// 41st ply, a read-mode dark chess game drawn after 2 plies with no capture
// and no flip. The program still runs several times in each.
func quickEscapeGame(t *testing.T, game, proto string) []string {
	switch {
	case longtest.Enabled():
		return nil
	case game == "pdd":
		return []string{"-start", pddLateStart(t)}
	case proto == "readmode":
		return []string{"-plies", "2"}
	}
	return nil
}

// TestProgramsCannotEscape plays 2-game matches against a program that
// starts a sleeper in a session of its own (setsid) on every start, for
// every protocol through which arena runs programs: one that then plays
// (the arena binary's built-in bot), and one that exits at once. When a
// match returns no sleeper is left, and the match was not slowed by the
// sleepers holding the program's output pipes: each end of a program used
// to wait for them (proc.DefaultDrain, and a host reading the program's
// output for its own timeout), so a match took longer than that many times
// the program's runs. That bound is asserted where it is far above what
// the games take under load: for the program that exits at once, and for
// the protocols that run the program per move. The quick tier plays the
// read-mode game only against the program that exits.
func TestProgramsCannotEscape(t *testing.T) {
	arena := arenaBinary(t)
	for _, tc := range []struct {
		game, proto, bot string
	}{
		{"pdd", "strategy", "bot pdd random"}, // a run per move
		{"darkchess", "mgtp", "bot darkchess random"},
		{"darkchess", "legacy", "bot darkchess random"},
		{"darkchess", "readmode", "bot darkchess random -readmode"}, // a run per ply
		{"geister", "stdio", "bot geister random"},
		{"geister", "tcp", "bot geister random"},
		{"othello", "tcp", "bot othello random"},
	} {
		for _, then := range []string{"play", "exit"} {
			t.Run(tc.game+"/"+tc.proto+"/"+then, func(t *testing.T) {
				if then == "play" && tc.proto == "readmode" {
					// The costliest case (a program started on every ply):
					// readmode/exit leaves sleepers in the quick tier too.
					longtest.Skip(t, "plays a read-mode game against the escaping program")
				}
				t.Parallel()
				dir := t.TempDir()
				mark := rand.Text()
				cmd := "exit 1"
				if then == "play" {
					cmd = fmt.Sprintf("exec '%s' %s \"$@\"", arena, tc.bot)
				}
				prog, runsFile := escapingProgram(t, dir, mark, cmd)
				t.Cleanup(func() {
					for _, pid := range marked(t, mark) {
						syscall.Kill(pid, syscall.SIGKILL)
					}
				})
				ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
				defer cancel()
				// Two games, so that the program runs at least twice; the
				// quick tier plays one of the protocols that run it per
				// move (a program run on each of about 100 plies).
				games := "2"
				if then == "play" && (tc.proto == "readmode" || tc.proto == "strategy") {
					games = longtest.Pick("1", "2")
				}
				args := []string{"match", tc.game, "random", tc.proto + ":" + prog, "-games", games, "-seed", "5", "-out", "m"}
				args = append(args, quickEscapeGame(t, tc.game, tc.proto)...)
				began := time.Now()
				out, err := arenaCommand(t, ctx, dir, args...).CombinedOutput()
				took := time.Since(began)
				if err != nil && then == "play" {
					t.Fatalf("arena match: %v\n%s", err, out)
				}
				if !bytes.Contains(out, []byte("game "+games+": ")) {
					t.Errorf("output:\n%s", out)
				}
				if left := marked(t, mark); len(left) > 0 {
					t.Errorf("%d sleepers left after the match: %v", len(left), left)
				}
				data, _ := os.ReadFile(runsFile)
				runs := bytes.Count(data, []byte("run\n"))
				t.Logf("%d runs of the program in %v", runs, took)
				if runs < 2 {
					t.Fatalf("the program ran %d times", runs)
				}
				switch bound := time.Duration(runs) * proc.DefaultDrain; {
				case runs >= 10 && took >= bound:
					t.Errorf("the match took %v, as long as %d drains of %v: its ends waited for the sleepers", took, runs, proc.DefaultDrain)
				case then == "exit":
					// Two quick games take about a drain's time on a busy
					// machine, so they are compared with the same match
					// against a program that starts no sleeper: waiting
					// would add a drain per run.
					quiet := filepath.Join(dir, "quiet.sh")
					if err := os.WriteFile(quiet, []byte("#!/bin/sh\nexit 1\n"), 0o755); err != nil {
						t.Fatal(err)
					}
					began := time.Now()
					arenaCommand(t, ctx, dir, "match", tc.game, "random", tc.proto+":"+quiet, "-games", games, "-seed", "5", "-out", "q").CombinedOutput()
					alone := time.Since(began)
					if took-alone >= bound*3/4 {
						t.Errorf("the match took %v, %v more than against a program without sleepers, nearly %d drains of %v: its ends waited for the sleepers", took, took-alone, runs, proc.DefaultDrain)
					}
				}
			})
		}
	}
}

// TestKilledArenaKillsItsPrograms kills arena (SIGKILL, nothing it can
// catch) while it waits for a program: the program dies too (its
// parent-death signal).
func TestKilledArenaKillsItsPrograms(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pid")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	// The program says its pid (as arena sees it: in the program's own PID
	// namespace $$ is 1), then sleeps (it does not end when its input
	// does): arena waits for its handshake.
	prog := filepath.Join(dir, "silent.sh")
	if err := os.WriteFile(prog, []byte("#!/bin/sh\nread pid _ </proc/self/stat\necho $pid > '"+fifo+"'\nexec sleep 1000\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := arenaCommand(t, ctx, dir, "match", "darkchess", "random", "mgtp:"+prog, "-games", "1", "-out", "m")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Wait()
	defer cmd.Process.Kill()
	said, err := os.ReadFile(fifo) // until the program has written and closed it
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(said)))
	if err != nil {
		t.Fatalf("the program said %q", said)
	}
	pidfd := openPidfd(t, pid)
	defer syscall.Close(pidfd)
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	if !exited(t, pidfd, 2*time.Minute) {
		syscall.Kill(pid, syscall.SIGKILL)
		t.Fatalf("the program %d still runs after arena was killed", pid)
	}
	// The next program started removes the cgroups the killed arena left.
	proc.Run(ctx, proc.Config{Path: "true"})
}

// openPidfd opens a pidfd of pid (pidfd_open, Linux 5.3).
func openPidfd(t *testing.T, pid int) int {
	t.Helper()
	const sysPidfdOpen = 434 // the same on every architecture but MIPS
	fd, _, errno := syscall.Syscall(sysPidfdOpen, uintptr(pid), 0, 0)
	if errno != 0 {
		t.Skipf("pidfd_open: %v", errno)
	}
	return int(fd)
}

// exited waits, at most limit, for the process of pidfd to exit (its pidfd
// becomes readable), and reports whether it did.
func exited(t *testing.T, pidfd int, limit time.Duration) bool {
	t.Helper()
	var set syscall.FdSet
	bits := 8 * int(unsafe.Sizeof(set.Bits[0]))
	set.Bits[pidfd/bits] |= 1 << (pidfd % bits)
	tv := syscall.NsecToTimeval(limit.Nanoseconds())
	for {
		n, err := syscall.Select(pidfd+1, &set, nil, nil, &tv)
		if errors.Is(err, syscall.EINTR) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		return n == 1
	}
}

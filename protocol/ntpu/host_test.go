//go:build linux && (amd64 || arm64)

package ntpu_test

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/botarena/botarena/geister"
	"github.com/botarena/botarena/internal/proc"
	"github.com/botarena/botarena/protocol/ntpu"
	"github.com/botarena/botarena/record"
	"github.com/botarena/botarena/timer"
)

// ntpuPrograms are the test programs, built once per test run.
type ntpuPrograms struct {
	random string // examples/geister-stdio: a random bot in STDIO mode
	tcp    string // testdata/geister_ntpu_tcpbot: TCP-mode behaviours
	dir    string
}

// buildNTPUPrograms builds the example STDIO bot and the TCP test bot.
// childPid is a shell command that prints the pid of the shell's only
// child as the host sees it ("$!" is its pid in the program's own PID
// namespace, which differs): /proc is the host's, and a builtin's
// redirection is opened by the shell itself, so /proc/self/stat gives the
// shell's host pid, and its children file its child's.
const childPid = `read me _ </proc/self/stat; read child _ </proc/self/task/$me/children; echo $child`

func buildNTPUPrograms(t *testing.T) ntpuPrograms {
	t.Helper()
	gocmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to build the test programs")
	}
	dir := t.TempDir()
	cmd := exec.Command(gocmd, "build", "-o", dir+string(filepath.Separator), "../../examples/geister-stdio", "./testdata/geister_ntpu_tcpbot")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return ntpuPrograms{random: filepath.Join(dir, "geister-stdio"), tcp: filepath.Join(dir, "geister_ntpu_tcpbot"), dir: dir}
}

// sh is a STDIO-mode program written in sh.
func sh(name, script string) ntpu.Program {
	return ntpu.Program{Name: name, Path: "/bin/sh", Args: []string{"-c", script}}
}

// ntpuTestHost is a host with short limits: moveCap a move. The tests that
// need a program to time out use 300 ms, and make that program move first
// so that no good program has to answer in so short a time on a loaded
// machine; the others allow more.
func ntpuTestHost(moveCap time.Duration) *ntpu.Host {
	return &ntpu.Host{
		Time:      timer.Control{MoveCap: moveCap},
		ExitGrace: time.Second,
	}
}

// play runs a game and checks what holds for every game: the record writes,
// reads back and replays to the same result and final position.
func play(t *testing.T, h *ntpu.Host, first, second ntpu.Program) *ntpu.Game {
	t.Helper()
	g, err := h.Play(t.Context(), first, second)
	if err != nil {
		t.Fatalf("Play: %v", err)
	}
	var buf bytes.Buffer
	if err := record.WriteGeisterBoard(&buf, g.Record); err != nil {
		t.Fatalf("record: %v", err)
	}
	back, err := record.ReadGeisterBoard(&buf)
	if err != nil {
		t.Fatalf("record does not read back: %v\n%s", err, buf.String())
	}
	if back.Result != g.Result {
		t.Errorf("record result %v, game %v", back.Result, g.Result)
	}
	if g.Final != (geister.Position{}) {
		rules := h.Rules
		if rules == (geister.Rules{}) {
			rules = geister.NTPU
		}
		rg, err := back.Game(rules)
		if err != nil {
			t.Fatalf("record does not replay: %v", err)
		}
		if rg.Position() != g.Final {
			t.Errorf("record replays to\n%s\nthe game ended at\n%s", rg.Position().Diagram(), g.Final.Diagram())
		}
	}
	for c, p := range g.Players {
		if p.Status == "" {
			t.Errorf("%s player: no exit status (not reaped?)", geister.Color(c))
		}
	}
	return g
}

// dies reports whether process pid ends (a zombie has ended) within
// timeout. SIGKILL takes effect soon, not at once: it waits for the
// process's pidfd to become readable.
func dies(t *testing.T, pid int, timeout time.Duration) bool {
	t.Helper()
	fd, _, errno := syscall.Syscall(434 /* pidfd_open */, uintptr(pid), 0, 0)
	if errno == syscall.ESRCH {
		return true
	}
	if errno != 0 {
		t.Skipf("pidfd_open: %v", errno)
	}
	defer syscall.Close(int(fd))
	var set syscall.FdSet
	set.Bits[fd/64] |= 1 << (fd % 64)
	tv := syscall.NsecToTimeval(timeout.Nanoseconds())
	for {
		n, err := syscall.Select(int(fd)+1, &set, nil, nil, &tv)
		if err == syscall.EINTR {
			continue
		}
		return err == nil && n == 1
	}
}

func wantResult(t *testing.T, g *ntpu.Game, want geister.Result) {
	t.Helper()
	if g.Result != want {
		t.Errorf("result %v, want %v (players %+v)", g.Result, want, g.Players)
	}
}

func TestHost(t *testing.T) {
	t.Parallel() // it waits on programs more than it computes: overlap its build and games with the other hosts' tests
	const short, long = 300 * time.Millisecond, 2 * time.Second
	progs := buildNTPUPrograms(t)
	// setter sets its reds at once, then reads until its input ends.
	setter := sh("setter", `read l; echo SET:ABCD; cat >/dev/null`)
	random := ntpu.Program{Name: "random", Path: progs.random}
	tcp := func(mode string) ntpu.Program {
		return ntpu.Program{Name: "tcp-" + mode, Path: progs.tcp, Args: []string{mode}, Mode: ntpu.TCPMode}
	}

	t.Run("full games", func(t *testing.T) {
		t.Parallel()
		for i := range 3 {
			h := ntpuTestHost(long)
			first, second := random, random
			if i == 1 {
				first = tcp("good")
			}
			if i == 2 {
				second = tcp("good")
				h.CRLF = true
			}
			g := play(t, h, first, second)
			if g.Result.Reason == geister.Unfinished || g.Result.Reason > geister.GamePlyLimitDraw {
				t.Errorf("game %d: %v, a game of the rules expected (players %+v)", i, g.Result, g.Players)
			}
			for c, p := range g.Players {
				if p.Fault != "" || p.Killed || p.ExitCode != 0 || p.Dropped != 0 {
					t.Errorf("game %d, %s player: %+v", i, geister.Color(c), p)
				}
			}
			if len(g.Record.Moves) != g.Final.Ply() || len(g.Record.Times) != len(g.Record.Moves)+1 || len(g.Record.Captures) != len(g.Record.Moves) {
				t.Errorf("game %d: record with %d moves, %d times, %d captures; final ply %d", i, len(g.Record.Moves), len(g.Record.Times), len(g.Record.Captures), g.Final.Ply())
			}
		}
	})

	t.Run("hang, killed with its children", func(t *testing.T) {
		t.Parallel()
		pidFile := filepath.Join(t.TempDir(), "child.pid")
		hang := sh("hang", `read l; echo SET:ABCD; while read l; do case $l in MOV*) sleep 1000 & `+childPid+` > `+pidFile+`; wait;; esac; done`)
		g := play(t, ntpuTestHost(short), hang, random)
		wantResult(t, g, geister.Result{Reason: geister.TimeOut, Winner: geister.Second})
		p := g.Players[0]
		if !p.Killed || p.Fault != "no move within its time" || g.Players[1].Killed {
			t.Errorf("players %+v", g.Players)
		}
		data, err := os.ReadFile(pidFile)
		if err != nil {
			t.Fatal(err)
		}
		pid, _ := strconv.Atoi(strings.TrimSpace(string(data)))
		if pid <= 0 || !dies(t, pid, 5*time.Second) {
			t.Errorf("the hanging program's child %d survived", pid)
		}
		if d := g.Ended.Sub(g.Began); d > 5*time.Second {
			t.Errorf("the time out took %v", d)
		}
	})

	t.Run("crash", func(t *testing.T) {
		t.Parallel()
		crash := sh("crash", `read l; echo SET:ABCD; read l; read l; echo dying >&2; kill -SEGV $$`)
		g := play(t, ntpuTestHost(short), crash, random)
		wantResult(t, g, geister.Result{Reason: geister.Disconnect, Winner: geister.Second})
		p := g.Players[0]
		if p.Fault == "" || !strings.Contains(p.Status, "segmentation") || string(p.Stderr) != "dying\n" {
			t.Errorf("crashed player %+v", p)
		}
	})

	t.Run("garbage", func(t *testing.T) {
		t.Parallel()
		garbage := sh("garbage", `read l; echo SET:ABCD; read l; read l; echo 'MOV:Z,UP'; for i in 1 2 3; do IFS= read -r l; echo "$l" >&2; done`)
		g := play(t, ntpuTestHost(short), garbage, random)
		wantResult(t, g, geister.Result{Reason: geister.IllegalMove, Winner: geister.Second})
		p := g.Players[0]
		if !strings.Contains(p.Fault, `"MOV:Z,UP"`) || p.Killed {
			t.Errorf("player %+v", p)
		}
		lines := strings.Split(string(p.Stderr), "\n")
		if len(lines) != 4 || lines[0] != "NG " || !strings.HasPrefix(lines[1], "LST:") || lines[2] != "/exit" {
			t.Errorf("the offender read %q", p.Stderr)
		}
		if len(g.Record.Moves) != 0 || g.Final.Ply() != 0 {
			t.Errorf("moves %v", g.Record.Moves)
		}
	})

	t.Run("empty lines only", func(t *testing.T) {
		t.Parallel()
		// It sends blank lines and nothing else, and never exits by itself
		// (a closed pipe does not end it either), so the host must kill it
		// when its time is up.
		empty := sh("empty", `trap '' PIPE; read l; echo SET:ABCD; while :; do echo; sleep 0.05; done`)
		g := play(t, ntpuTestHost(short), empty, random)
		wantResult(t, g, geister.Result{Reason: geister.TimeOut, Winner: geister.Second})
		if p := g.Players[0]; !p.Killed || p.Dropped != 0 {
			t.Errorf("player %+v", p)
		}
	})

	t.Run("huge line", func(t *testing.T) {
		t.Parallel()
		huge := sh("huge", `read l; echo SET:ABCD; read l; read l; head -c 5000 /dev/zero | tr '\0' x; echo; cat >/dev/null`)
		g := play(t, ntpuTestHost(short), huge, random)
		wantResult(t, g, geister.Result{Reason: geister.IllegalMove, Winner: geister.Second})
		if p := g.Players[0]; !strings.Contains(p.Fault, "over 1024 bytes") {
			t.Errorf("player %+v", p)
		}
	})

	t.Run("nothing at all", func(t *testing.T) {
		t.Parallel()
		h := ntpuTestHost(short)
		h.SetupTimeout = 2 * time.Second
		h.ExitGrace = 100 * time.Millisecond
		g := play(t, h, setter, sh("mute", `sleep 1000`))
		wantResult(t, g, geister.Result{Reason: geister.TimeOut, Winner: geister.First})
		if p := g.Players[1]; !p.Killed || !strings.Contains(p.Fault, "red ghosts") {
			t.Errorf("player %+v", p)
		}
		if g.Final != (geister.Position{}) || len(g.Record.Moves) != 0 || g.Record.Reds[1] != 0 || !g.Record.Reds[0].Valid() {
			t.Errorf("final %v, record %+v", g.Final, g.Record)
		}
		// Neither sets: the game is abandoned, without a result.
		h = ntpuTestHost(short)
		h.SetupTimeout = 300 * time.Millisecond
		g = play(t, h, sh("mute1", `cat >/dev/null`), sh("mute2", `cat >/dev/null`))
		wantResult(t, g, geister.Result{})
		for c, p := range g.Players {
			if p.Killed || p.ExitCode != 0 {
				t.Errorf("%s player %+v: cat ends at the end of its input", geister.Color(c), p)
			}
		}
	})

	t.Run("exits early", func(t *testing.T) {
		t.Parallel()
		g := play(t, ntpuTestHost(short), sh("early", `read l; echo SET:ABCD; exit 0`), random)
		wantResult(t, g, geister.Result{Reason: geister.Disconnect, Winner: geister.Second})
		if p := g.Players[0]; p.Fault == "" || p.ExitCode != 0 || p.Killed {
			t.Errorf("player %+v", p)
		}
	})

	t.Run("retry policy", func(t *testing.T) {
		t.Parallel()
		h := ntpuTestHost(time.Second)
		h.Rules = geister.Rules{Name: "retry", PlyLimit: 200, IllegalMove: geister.Retry}
		// The first player's A goes north; south it meets its own E.
		retry := sh("retry", `read l; echo SET:ABCD; read l; read l; echo MOV:A,SOUTH; IFS= read -r l; echo "$l" >&2; echo; echo MOV:A,NORTH; IFS= read -r l; echo "$l" >&2; read l; cat >/dev/null`)
		g := play(t, h, retry, random)
		wantResult(t, g, geister.Result{Reason: geister.TimeOut, Winner: geister.Second})
		p := g.Players[0]
		if string(p.Stderr) != "NG \nOK \n" || p.Dropped != 0 || !p.Killed {
			t.Errorf("player %+v, stderr %q", p, p.Stderr)
		}
		if len(g.Record.Moves) != 2 || g.Record.Moves[0] != geister.NewMove(geister.A, geister.North) {
			t.Errorf("moves %v", g.Record.Moves)
		}
	})

	t.Run("stdio: out of turn is dropped", func(t *testing.T) {
		t.Parallel()
		h := ntpuTestHost(short)
		h.SetupTimeout = 2 * time.Second
		chatty := sh("chatty", `read l; echo SET:ABCD; echo chatter; IFS= read -r l; echo "$l" >&2; cat >/dev/null`)
		g := play(t, h, chatty, sh("mute", `cat >/dev/null`))
		wantResult(t, g, geister.Result{Reason: geister.TimeOut, Winner: geister.First})
		if p := g.Players[0]; p.Dropped != 1 || string(p.Stderr) != "OK \n" || p.Killed {
			t.Errorf("player %+v, stderr %q", p, p.Stderr)
		}
	})

	t.Run("tcp: no connection", func(t *testing.T) {
		t.Parallel()
		h := ntpuTestHost(short)
		g := play(t, h, tcp("noconnect"), setter)
		wantResult(t, g, geister.Result{Reason: geister.Disconnect, Winner: geister.Second})
		if p := g.Players[0]; !strings.Contains(p.Fault, "exited before it connected") || p.ExitCode != 3 {
			t.Errorf("player %+v", p)
		}
		h.ConnectTimeout = 300 * time.Millisecond
		h.ExitGrace = 100 * time.Millisecond
		g = play(t, h, setter, tcp("sleep"))
		wantResult(t, g, geister.Result{Reason: geister.Disconnect, Winner: geister.First})
		if p := g.Players[1]; !strings.Contains(p.Fault, "did not connect within") || !p.Killed {
			t.Errorf("player %+v", p)
		}
		g = play(t, h, tcp("noconnect"), tcp("sleep"))
		wantResult(t, g, geister.Result{})
	})

	t.Run("tcp: out of turn gets NG", func(t *testing.T) {
		t.Parallel()
		h := ntpuTestHost(short)
		h.SetupTimeout = 3 * time.Second // to start, connect and set
		g := play(t, h, tcp("outofturn"), sh("mute", `cat >/dev/null`))
		wantResult(t, g, geister.Result{Reason: geister.TimeOut, Winner: geister.First})
		got := string(g.Players[0].Stderr)
		if !strings.HasPrefix(got, "\"OK \"\n\"NG \"\n\"WON:") || g.Players[0].Killed {
			t.Errorf("the TCP program read %q (%+v)", got, g.Players[0])
		}
	})

	t.Run("start file and board.txt", func(t *testing.T) {
		t.Parallel()
		// Each program in a directory of its own, where the host writes
		// board.txt before its plies.
		var programs [2]ntpu.Program
		for c := range programs {
			// A link, not a copy: a file just written may not be run
			// while another test forks (ETXTBSY).
			path := filepath.Join(t.TempDir(), "bot")
			if err := os.Symlink(progs.random, path); err != nil {
				t.Fatal(err)
			}
			programs[c] = ntpu.Program{Path: path, Name: "bot" + strconv.Itoa(c)}
		}
		start := ntpuMidGame(t)
		h := ntpuTestHost(long)
		h.Start, h.BoardFile = start, true
		g := play(t, h, programs[0], programs[1])
		if len(g.Record.Moves) < len(start.Moves) || g.Record.Reds != start.Reds {
			t.Fatalf("record %+v", g.Record)
		}
		for i, m := range start.Moves {
			if g.Record.Moves[i] != m {
				t.Fatalf("move %d is %v, the start file's %v", i+1, g.Record.Moves[i], m)
			}
		}
		if g.Result.Reason == geister.Unfinished || g.Result.Reason > geister.GamePlyLimitDraw {
			t.Errorf("result %v, players %+v", g.Result, g.Players)
		}
		for c := range programs {
			f, err := os.Open(filepath.Join(filepath.Dir(programs[c].Path), "board.txt"))
			if err != nil {
				t.Fatal(err)
			}
			b, err := record.ReadGeisterBoard(f)
			f.Close()
			if err != nil {
				t.Fatalf("board.txt: %v", err)
			}
			if b.Reds[c] != start.Reds[c] || b.Reds[1-c] != 0 || b.Result.Reason != geister.Unfinished {
				t.Errorf("%s player's board.txt: reds %v, result %v", geister.Color(c), b.Reds, b.Result)
			}
			if _, err := b.View(geister.Color(c)); err != nil {
				t.Errorf("%s player's board.txt: %v", geister.Color(c), err)
			}
		}
	})

	t.Run("start file without red sets", func(t *testing.T) {
		t.Parallel()
		// The first player's A took the second player's d, a red ghost.
		start, err := record.ReadGeisterBoard(strings.NewReader("1. A,NORTH A,WEST\n2. A,NORTH A,NORTH\n3. A,NORTH\n1. 0 0\n2. 0 0\n3. 1\n"))
		if err != nil {
			t.Fatal(err)
		}
		h := ntpuTestHost(short)
		h.Start = start
		// EFGH makes d blue: NG; ABCD fits. Then the second player, to
		// move at ply 5, never moves.
		second := sh("second", `read l; echo SET:EFGH; IFS= read -r l; echo "$l" >&2; echo SET:ABCD; IFS= read -r l; echo "$l" >&2; cat >/dev/null`)
		g := play(t, h, setter, second)
		wantResult(t, g, geister.Result{Reason: geister.TimeOut, Winner: geister.First})
		if p := g.Players[1]; string(p.Stderr) != "NG \nOK \n" {
			t.Errorf("second player %+v, stderr %q", p, p.Stderr)
		}
		if g.Final.Ply() != 5 || len(g.Record.Moves) != 5 || g.Record.Reds[1] != geister.RedsAt(0) {
			t.Errorf("final ply %d, record %+v", g.Final.Ply(), g.Record)
		}
		if r, b := g.Final.Captured(geister.Second); r != 1 || b != 0 {
			t.Errorf("the second player lost %d red, %d blue", r, b)
		}
	})

	t.Run("context ends", func(t *testing.T) {
		t.Parallel()
		h := ntpuTestHost(0) // no clock: only ctx ends the game
		ctx, cancel := context.WithCancel(t.Context())
		defer cancel()
		h.Logger = slog.New(ntpuCancelOn{"geister ntpu: play begins", cancel})
		pidFile := filepath.Join(t.TempDir(), "child.pid")
		g, err := h.Play(ctx, random, sh("hang", `read l; sleep 1000 & `+childPid+` > `+pidFile+`; echo SET:ABCD; wait`))
		if !errors.Is(err, context.Canceled) || g == nil || g.Result.Reason != geister.Unfinished || !g.Players[1].Killed || !g.Players[0].Killed {
			t.Fatalf("Play: %v, %+v", err, g)
		}
		data, _ := os.ReadFile(pidFile)
		if pid, _ := strconv.Atoi(strings.TrimSpace(string(data))); pid <= 0 || !dies(t, pid, 5*time.Second) {
			t.Errorf("child %d survived", pid)
		}
	})

	t.Run("settings", func(t *testing.T) {
		t.Parallel()
		h := ntpuTestHost(short)
		missing := ntpu.Program{Path: filepath.Join(progs.dir, "no-such-program")}
		if _, err := h.Play(t.Context(), random, missing); !errors.Is(err, proc.ErrStart) {
			t.Errorf("missing program: %v", err)
		}
		// A TCP-mode program started, the other missing: it is stopped.
		if _, err := h.Play(t.Context(), tcp("sleep"), missing); !errors.Is(err, proc.ErrStart) {
			t.Errorf("missing program after a TCP one: %v", err)
		}
		if _, err := h.Play(t.Context(), missing, tcp("sleep")); !errors.Is(err, proc.ErrStart) {
			t.Errorf("missing program before a TCP one: %v", err)
		}
		bad := []struct {
			name string
			h    ntpu.Host
			p    ntpu.Program
		}{
			{"no path", ntpu.Host{}, ntpu.Program{}},
			{"mode", ntpu.Host{}, ntpu.Program{Path: progs.random, Mode: 7}},
			{"name", ntpu.Host{}, ntpu.Program{Path: progs.random, Name: "a b"}},
			{"setup timeout", ntpu.Host{SetupTimeout: -1}, random},
			{"time", ntpu.Host{Time: timer.Control{Main: -1}}, random},
			{"board file without a directory", ntpu.Host{BoardFile: true}, ntpu.Program{Path: "sh"}},
			{"decided start file", ntpu.Host{Start: ntpuDecided(t)}, random},
		}
		for _, tc := range bad {
			if _, err := tc.h.Play(t.Context(), random, tc.p); err == nil {
				t.Errorf("%s: no error", tc.name)
			}
		}
	})
}

// ntpuCancelOn is a slog.Handler that calls cancel on a record with the
// message msg.
type ntpuCancelOn struct {
	msg    string
	cancel context.CancelFunc
}

func (h ntpuCancelOn) Enabled(context.Context, slog.Level) bool { return true }
func (h ntpuCancelOn) Handle(_ context.Context, r slog.Record) error {
	if r.Message == h.msg {
		h.cancel()
	}
	return nil
}
func (h ntpuCancelOn) WithAttrs([]slog.Attr) slog.Handler { return h }
func (h ntpuCancelOn) WithGroup(string) slog.Handler      { return h }

// ntpuDecided returns a record of a game the board has decided: the
// first player's blue A escapes.
func ntpuDecided(t *testing.T) *record.GeisterBoard {
	t.Helper()
	b, err := record.ReadGeisterBoard(strings.NewReader("1. A,WEST A,NORTH\n2. A,NORTH A,SOUTH\n3. A,NORTH A,NORTH\n4. A,NORTH A,SOUTH\n5. A,NORTH A,NORTH\n6. A,WEST\n* red EFGH bcde\n"))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// ntpuMidGame returns a mid-game file: 6 plies of a game, both red sets.
func ntpuMidGame(t *testing.T) *record.GeisterBoard {
	t.Helper()
	start, err := geister.Start(geister.RedsAt(10), geister.RedsAt(20))
	if err != nil {
		t.Fatal(err)
	}
	g := geister.NewGame(geister.NTPU, start)
	for _, s := range []string{"A,NORTH", "A,NORTH", "B,NORTH", "D,NORTH", "A,NORTH", "H,EAST"} {
		m, _ := geister.ParseMove(s)
		if err := g.Play(m); err != nil {
			t.Fatal(err)
		}
	}
	b, err := record.NewGeisterBoard(g, "x", "y")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestConnectModeString(t *testing.T) {
	for m, want := range map[ntpu.ConnectMode]string{ntpu.STDIOMode: "stdio", ntpu.TCPMode: "tcp", 9: "ConnectMode(9)"} {
		if got := m.String(); got != want {
			t.Errorf("%d: %q, want %q", m, got, want)
		}
	}
}

func TestSplitArgs(t *testing.T) {
	for in, want := range map[string][]string{
		"":                              nil,
		"  ":                            nil,
		`-jar C:\tcp.jar`:               {"-jar", `C:\tcp.jar`},
		`-jar "C:\Program Files\t.jar"`: {"-jar", `C:\Program Files\t.jar`},
		`a""b "" c`:                     {"ab", "", "c"},
		`"unterminated x`:               {"unterminated x"},
	} {
		if got := ntpu.SplitArgs(in); strings.Join(got, "|") != strings.Join(want, "|") || len(got) != len(want) {
			t.Errorf("SplitArgs(%q) = %q, want %q", in, got, want)
		}
	}
}

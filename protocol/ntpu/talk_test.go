//go:build linux && (amd64 || arm64)

package ntpu_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"log/slog"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/botarena/botarena/geister"
	"github.com/botarena/botarena/internal/proc"
	"github.com/botarena/botarena/protocol/ntpu"
)

// buildNTPUTalker builds testdata/geister_ntpu_talker, a random STDIO-mode
// program that prints its board before each move, and the example STDIO
// bot.
func buildNTPUTalker(t *testing.T) (talker, random string) {
	t.Helper()
	gocmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to build the test programs")
	}
	dir := t.TempDir()
	cmd := exec.Command(gocmd, "build", "-o", dir+string(filepath.Separator), "./testdata/geister_ntpu_talker", "../../examples/geister-stdio")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return filepath.Join(dir, "geister_ntpu_talker"), filepath.Join(dir, "geister-stdio")
}

// ntpuLog collects a host's log as JSON records.
type ntpuLog struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *ntpuLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

// stdout returns the "line" of every "geister ntpu: stdout" record of the
// player called name.
func (l *ntpuLog) stdout(t *testing.T, name string) []string {
	t.Helper()
	l.mu.Lock()
	defer l.mu.Unlock()
	var lines []string
	sc := bufio.NewScanner(bytes.NewReader(l.buf.Bytes()))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var r struct{ Msg, Player, Line string }
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("log record %q: %v", sc.Text(), err)
		}
		if r.Msg == "geister ntpu: stdout" && r.Player == name {
			lines = append(lines, r.Line)
		}
	}
	return lines
}

// TestGeisterNTPUTalkingProgram plays real STDIO-mode programs that print
// their board and their thoughts on standard output before each SET: and
// MOV:, as real NTPU programs do: they play whole games, the lines that are
// not commands are skipped and logged, within proc.LogLimit bytes for one
// that floods, and a line that is a command, if a bad one, still loses.
func TestTalkingProgram(t *testing.T) {
	t.Parallel() // it waits on programs more than it computes: overlap its build and games with the other hosts' tests
	talkerPath, randomPath := buildNTPUTalker(t)
	random := ntpu.Program{Name: "random", Path: randomPath}
	host := func() (*ntpu.Host, *ntpuLog) {
		log := &ntpuLog{}
		h := ntpuTestHost(5 * time.Second)
		h.Logger = slog.New(slog.NewJSONHandler(log, &slog.HandlerOptions{Level: slog.LevelInfo}))
		return h, log
	}

	t.Run("whole games", func(t *testing.T) {
		t.Parallel()
		talker := ntpu.Program{Name: "talker", Path: talkerPath}
		for seat := range 2 {
			h, log := host()
			players := [2]ntpu.Program{talker, random}
			if seat == 1 {
				players = [2]ntpu.Program{random, talker}
			}
			g := play(t, h, players[0], players[1])
			if g.Result.Reason == geister.Unfinished || g.Result.Reason > geister.GamePlyLimitDraw {
				t.Fatalf("talker as the %s player: %v, a game of the rules expected (players %+v)", geister.Color(seat), g.Result, g.Players)
			}
			p := g.Players[seat]
			// Its moves: the plies of its colour.
			moves := (g.Final.Ply() + 1 - seat) / 2
			if p.Fault != "" || p.Killed || p.Dropped != 0 || p.Skipped != 2+8*moves {
				t.Errorf("talker, %d moves: %+v; want %d lines skipped", moves, p, 2+8*moves)
			}
			logged := log.stdout(t, "talker")
			want := []string{
				"skipped, not a command: ISMCTS 4-tuple, random edition",
				"skipped, not a command:   setting my red ghosts",
				"skipped, not a command:    0 1 2 3 4 5",
			}
			if len(logged) != p.Skipped || !slicesHasPrefix(logged, want) {
				t.Errorf("%d lines logged, %d skipped; the first: %q", len(logged), p.Skipped, logged[:min(len(logged), 4)])
			}
		}
	})

	t.Run("flood, logged within the bound", func(t *testing.T) {
		t.Parallel()
		h, log := host()
		flood := ntpu.Program{Name: "flood", Path: talkerPath, Args: []string{"flood"}}
		g := play(t, h, flood, random)
		if g.Result.Reason == geister.Unfinished || g.Result.Reason > geister.GamePlyLimitDraw {
			t.Fatalf("%v, a game of the rules expected (players %+v)", g.Result, g.Players)
		}
		p := g.Players[0]
		if p.Fault != "" || p.Skipped < 1000 {
			t.Errorf("flooding talker: %+v", p)
		}
		logged := log.stdout(t, "flood")
		size, truncated := 0, false
		for _, l := range logged {
			size += len(l) + 1
			truncated = truncated || strings.HasPrefix(l, "[truncated ") && strings.HasSuffix(l, " bytes]")
		}
		if size > proc.LogLimit+64 || !truncated {
			t.Errorf("%d bytes of stdout logged (the limit is %d), truncation line: %v", size, proc.LogLimit, truncated)
		}
		if !strings.HasPrefix(logged[0], "skipped, not a command: ") || !strings.HasPrefix(logged[len(logged)-1], "skipped, not a command: ") {
			t.Errorf("logged head %q, tail %q", logged[0], logged[len(logged)-1])
		}
	})

	t.Run("a bad command after talk still loses", func(t *testing.T) {
		t.Parallel()
		h, log := host()
		bad := sh("bad", `read l; echo thinking; echo SET:ABCD; read l; read l; echo 'my board:'; echo '  mov:z,up'; cat >/dev/null`)
		g := play(t, h, bad, random)
		wantResult(t, g, geister.Result{Reason: geister.IllegalMove, Winner: geister.Second})
		if p := g.Players[0]; !strings.Contains(p.Fault, `"  mov:z,up"`) || p.Skipped != 2 {
			t.Errorf("player %+v", p)
		}
		if got := log.stdout(t, "bad"); len(got) != 2 || got[1] != "skipped, not a command: my board:" {
			t.Errorf("logged %q", got)
		}
	})
}

// slicesHasPrefix reports whether s begins with prefix.
func slicesHasPrefix(s, prefix []string) bool {
	if len(s) < len(prefix) {
		return false
	}
	for i, p := range prefix {
		if s[i] != p {
			return false
		}
	}
	return true
}

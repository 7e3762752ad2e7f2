package record_test

import (
	"bufio"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/botarena/botarena/geister"
	"github.com/botarena/botarena/internal/sharedtest"
	"github.com/botarena/botarena/record"
)

// geisterTestdataDir returns the shared folder of Java geister server
// captures, or skips the test if it is absent.
func geisterTestdataDir(t testing.TB) string {
	t.Helper()
	return sharedtest.Dir(t, "geister")
}

// geisterServerLogs is what the testdata README says of each
// server log, and the transcript of the same game.
var geisterServerLogs = []struct {
	file       string
	transcript string // the game's transcript: its results give the final boards
	moves      int
	winner     int
	result     geister.Result
	refused    []int // the lines of the refused commands
}{
	{"server-log-random-game-1.txt", "random-game-1.txt", 185, 0, geister.Result{Reason: geister.NoBlueGhost, Winner: geister.First}, nil},
	{"server-log-draw-300-plies.txt", "scenario-draw-300-plies.txt", 300, 2, geister.Result{Reason: geister.GamePlyLimitDraw, Draw: true}, nil},
	{"server-log-escape-north-badset-wrongturn.txt", "scenario-escape-north-badset-wrongturn.txt", 11, 0, geister.Result{Reason: geister.ChessEscape, Winner: geister.First}, []int{1, 4}},
}

// geisterTranscriptResults returns the first WON:, LST: or DRW: board each
// side received in a transcript (one line per message, with its direction).
func geisterTranscriptResults(t *testing.T, path string) [2]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out [2]string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) < 4 || fields[2] != "S>C" {
			continue
		}
		side := 0
		if fields[1] == "P1" {
			side = 1
		}
		_, quoted, _ := strings.Cut(sc.Text(), "S>C")
		data, err := strconv.Unquote(strings.TrimSpace(quoted))
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		for msg := range strings.SplitSeq(data, "\r\n") {
			if len(msg) == 52 && out[side] == "" && (strings.HasPrefix(msg, "WON:") || strings.HasPrefix(msg, "LST:") || strings.HasPrefix(msg, "DRW:")) {
				out[side] = msg[4:]
			}
		}
	}
	return out
}

// TestGeisterServerLogTestdata replays every server log of the test data to
// its result and to the final boards its transcript shows.
func TestGeisterServerLogTestdata(t *testing.T) {
	dir := geisterTestdataDir(t)
	files, _ := filepath.Glob(filepath.Join(dir, "server-log-*.txt"))
	if len(files) != len(geisterServerLogs) {
		t.Errorf("%d server logs in %s, %d in the table", len(files), dir, len(geisterServerLogs))
	}
	for _, tc := range geisterServerLogs {
		t.Run(tc.file, func(t *testing.T) {
			f, err := os.Open(filepath.Join(dir, tc.file))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			l, err := record.ReadGeisterServerLog(f)
			if err != nil {
				t.Fatal(err)
			}
			if len(l.Moves) != tc.moves || l.Winner != tc.winner || l.Result != tc.result || l.Retry {
				t.Errorf("%d moves, winner=%d, %v, retry %v; want %d, %d, %v", len(l.Moves), l.Winner, l.Result, l.Retry, tc.moves, tc.winner, tc.result)
			}
			var refused []int
			for _, c := range l.Commands {
				if !c.Accepted {
					refused = append(refused, c.Line)
				}
			}
			if !slices.Equal(refused, tc.refused) {
				t.Errorf("refused lines %v, want %v", refused, tc.refused)
			}
			g, err := l.Game()
			if err != nil {
				t.Fatal(err)
			}
			if r, over := g.Result(); !over || r != tc.result {
				t.Errorf("game result %v, %v", r, over)
			}
			boards := geisterTranscriptResults(t, filepath.Join(dir, tc.transcript))
			for c := range geister.Color(2) {
				if got := g.Position().Board(c); got != boards[c] {
					t.Errorf("%s player's final board %s, the transcript's %s", c, got, boards[c])
				}
			}
		})
	}
}

func TestGeisterServerLogReplay(t *testing.T) {
	read := func(t *testing.T, text string) *record.GeisterServerLog {
		t.Helper()
		l, err := record.ReadGeisterServerLog(strings.NewReader(text))
		if err != nil {
			t.Fatal(err)
		}
		return l
	}
	t.Run("Java acceptance", func(t *testing.T) {
		l := read(t, "player=0,SET:efgh\r\nplayer=1,SET:HGFE\r\nplayer=0,MOV:Abc,n\r\nplayer=1,MOV:a1,W\r\nplayer=0,MOV:B,UP\r\n\r\n")
		want := []bool{true, true, true, true, false}
		for i, c := range l.Commands {
			if c.Accepted != want[i] {
				t.Errorf("command %d %q: accepted %v (%s)", i, c.Text, c.Accepted, c.Why)
			}
		}
		if l.Reds[0] != mustReds(t, "EFGH") || l.Reds[1] != mustReds(t, "EFGH") {
			t.Errorf("reds %v", l.Reds)
		}
		if l.Result != (geister.Result{Reason: geister.IllegalMove, Winner: geister.Second}) || l.Retry {
			t.Errorf("result %v, retry %v", l.Result, l.Retry)
		}
		g, err := l.Game()
		if err != nil {
			t.Fatal(err)
		}
		if r, _ := g.Result(); r != l.Result {
			t.Errorf("game result %v", r)
		}
	})
	t.Run("retry", func(t *testing.T) {
		l := read(t, "player=0,SET:ABCD\nplayer=1,SET:ABCD\nplayer=0,MOV:A,S\nplayer=0,MOV:A,N\nplayer=1,MOV:A,N\n")
		if !l.Retry || l.Result.Reason != geister.Unfinished || len(l.Moves) != 2 {
			t.Errorf("retry %v, result %v, moves %v", l.Retry, l.Result, l.Moves)
		}
		g, err := l.Game()
		if err != nil || g.Rules().IllegalMove != geister.Retry || g.IsOver() {
			t.Errorf("game %v, %v", g, err)
		}
		// Under the retry policy a last refusal ends nothing.
		l = read(t, "player=0,SET:ABCD\nplayer=1,SET:ABCD\nplayer=0,MOV:A,S\nplayer=0,MOV:A,N\nplayer=1,MOV:A,E\n")
		if !l.Retry || l.Result.Reason != geister.Unfinished {
			t.Errorf("retry %v, result %v", l.Retry, l.Result)
		}
	})
	t.Run("server thread failures", func(t *testing.T) {
		l := read(t, "player=0,SET:ZZZZ\nplayer=1,SET:ABCD\nplayer=0,SET:ABCD\nplayer=0,MOV:,N\n")
		if l.Commands[0].Accepted || !strings.Contains(l.Commands[0].Why, "D3") || l.Commands[3].Accepted || !strings.Contains(l.Commands[3].Why, "D8") {
			t.Errorf("commands %+v", l.Commands)
		}
	})
	t.Run("not started", func(t *testing.T) {
		l := read(t, "player=0,SET:ABCD\nplayer=1,MOV:A,N\n")
		if _, err := l.Game(); err == nil {
			t.Error("a game without the second SET")
		}
		if l.Result.Reason != geister.Unfinished || l.Winner != -1 {
			t.Errorf("result %v, winner %d", l.Result, l.Winner)
		}
	})
	t.Run("after the end", func(t *testing.T) {
		dir := geisterTestdataDir(t)
		data, err := os.ReadFile(filepath.Join(dir, "server-log-escape-north-badset-wrongturn.txt"))
		if err != nil {
			t.Fatal(err)
		}
		l := read(t, string(data)+"player=1,MOV:A,N\n")
		if last := l.Commands[len(l.Commands)-1]; last.Accepted || last.Why != "the game is over" {
			t.Errorf("command after the end: %+v", last)
		}
	})
}

func TestGeisterServerLogErrors(t *testing.T) {
	const start = "player=0,SET:ABCD\nplayer=1,SET:ABCD\n"
	tests := []struct {
		name      string
		text      string
		line, col int
		msg       string
	}{
		{"bad player", "player=2,SET:ABCD\n", 1, 8, "0 or 1"},
		{"no comma", "player=0SET:ABCD\n", 1, 9, `","`},
		{"other line", start + "hello\n", 3, 1, "player="},
		{"winner too early", start + "winner=0\n", 3, 0, "not over"},
		{"bad winner", start + "winner=3\n", 3, 8, "0, 1 or 2"},
		{"repeated letter", "player=0,SET:AAAA\n", 1, 10, "fewer than 4"},
		{"long line", "player=0," + strings.Repeat("x", record.MaxLineLength) + "\n", 1, 0, "longer"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := record.ReadGeisterServerLog(strings.NewReader(tc.text))
			var pe *record.ParseError
			if !errors.As(err, &pe) || pe.Line != tc.line || pe.Column != tc.col || !strings.Contains(pe.Msg, tc.msg) {
				t.Errorf("got %v; want line %d, column %d, %q", err, tc.line, tc.col, tc.msg)
			}
		})
	}
	dir := geisterTestdataDir(t)
	data, err := os.ReadFile(filepath.Join(dir, "server-log-draw-300-plies.txt"))
	if err != nil {
		t.Fatal(err)
	}
	wrong := strings.Replace(string(data), "winner=2", "winner=0", 1)
	_, err = record.ReadGeisterServerLog(strings.NewReader(wrong))
	var pe *record.ParseError
	if !errors.As(err, &pe) || pe.Line != 303 || !strings.Contains(pe.Msg, "replay says winner=2") {
		t.Errorf("wrong winner: %v", err)
	}
	twice := string(data) + "winner=2\n"
	if _, err := record.ReadGeisterServerLog(strings.NewReader(twice)); !errors.As(err, &pe) || pe.Line != 304 {
		t.Errorf("two winner lines: %v", err)
	}
	if _, err := record.ReadGeisterServerLog(nil); err == nil {
		t.Error("nil reader accepted")
	}
}

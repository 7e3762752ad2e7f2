package viewer

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// frameRecords are records of each game in testdata, each with the game
// whose Replay reads it.
var frameRecords = []struct{ game, path string }{
	{"othello", "othello-20261127-132141/001-alphabeta-vs-random/moves.txt"},
	{"geister", "geister-20261127-132141/001-greedy-vs-random/board.txt"},
	{"darkchess", "darkchess-20261127-132142/001-greedy-vs-random/board.txt"},
	{"pdd", "pdd-20261127-132129/001-greedy-vs-random/stepLog.txt"},
	{"pdd", "pdd-20261127-132129/001-greedy-vs-random/result.json"},
	{"pdd", "pdd-20261127-132129/001-greedy-vs-random/chess.txt"},
}

// readRecord reads a record of testdata/arena-records.
func readRecord(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "arena-records", filepath.FromSlash(path)))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestFrameBounds: every game's replay draws frames 0 to len(Moves); any
// other frame is refused by FrameAt with ErrNoFrame, and the Frame function
// itself does not panic on it.
func TestFrameBounds(t *testing.T) {
	games := map[string]Game{}
	for _, g := range Games() {
		games[g.Name] = g
	}
	for _, r := range frameRecords {
		rp, err := games[r.game].Replay(filepath.Base(r.path), readRecord(t, r.path))
		if err != nil {
			t.Fatalf("%s: %v", r.path, err)
		}
		n := len(rp.Moves)
		for _, i := range []int{0, n} {
			f, err := rp.FrameAt(i)
			if err != nil || f.Board == "" {
				t.Errorf("%s: FrameAt(%d) of %d plies: %v, board %d bytes", r.path, i, n, err, len(f.Board))
			}
		}
		for _, i := range []int{-1, n + 1, n + 2, math.MinInt, math.MaxInt} {
			if _, err := rp.FrameAt(i); !errors.Is(err, ErrNoFrame) {
				t.Errorf("%s: FrameAt(%d) of %d plies: %v, want ErrNoFrame", r.path, i, n, err)
			}
			func() {
				defer func() {
					if p := recover(); p != nil {
						t.Errorf("%s: Frame(%d) of %d plies panics: %v", r.path, i, n, p)
					}
				}()
				if f := rp.Frame(i); f.Board != "" {
					t.Errorf("%s: Frame(%d) of %d plies draws a board", r.path, i, n)
				}
			}()
		}
	}
	if _, err := (Replay{Moves: []string{"a"}}).FrameAt(0); !errors.Is(err, ErrNoFrame) {
		t.Errorf("FrameAt of a replay without Frame: %v, want ErrNoFrame", err)
	}
	boom := Replay{Frame: func(int) Frame { panic("boom") }}
	if _, err := boom.FrameAt(0); err == nil || !strings.Contains(err.Error(), "boom") {
		t.Errorf("FrameAt of a Frame that panics: %v", err)
	}
}

// TestReplayNamesValid: a record's player names with NUL bytes, invalid
// UTF-8 and thousands of letters come out of the replay valid and cut, in
// Players and in the picture.
func TestReplayNamesValid(t *testing.T) {
	data := string(readRecord(t, "darkchess-20261127-132142/001-greedy-vs-random/board.txt"))
	long := strings.Repeat("n", 3000) // record lines are bounded
	data = strings.Replace(data, "* greedy vs random", "* gr\x00ee\xffdy vs "+long, 1)
	data = strings.Replace(data, "* NoMove greedy Wins", "* NoMove gr\x00ee\xffdy Wins", 1)
	rp, err := ReplayDarkChess("board.txt", []byte(data))
	if err != nil {
		t.Fatal(err)
	}
	if rp.Players[0] != "gr\uFFFDee\uFFFDdy" || len(rp.Players[1]) > maxNameBytes {
		t.Errorf("players %q and %d bytes", rp.Players[0], len(rp.Players[1]))
	}
	f, err := rp.FrameAt(len(rp.Moves))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(f.Board, "\x00") || !utf8.ValidString(f.Board) || len(f.Board) > 64<<10 {
		t.Errorf("the picture has a NUL or invalid byte, or %d bytes", len(f.Board))
	}
}

// TestLiveTextsValid: a live game's title, players, frame texts and result
// with NUL bytes, invalid UTF-8 and a megabyte of letters are kept valid
// and cut.
func TestLiveTextsValid(t *testing.T) {
	v, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	long := strings.Repeat("n", 1<<20)
	v.Begin(GameInfo{ID: "g", Game: "othello", Title: "t\x00" + long, Players: [2]string{"a\xffb", long}}, Frame{Status: "s\x01" + long, Move: long})
	v.Update("g", Frame{Ply: 1, Status: "\x00", Move: "\xff"})
	v.Finish("g", Frame{Ply: 1, Status: long}, "r\x00"+long, "")
	v.mu.Lock()
	defer v.mu.Unlock()
	g := v.games["g"]
	texts := append([]string{g.info.Title, g.info.Players[0], g.info.Players[1], g.cur.Status, g.cur.Move, g.result}, g.moves...)
	for i, s := range texts {
		if !utf8.ValidString(s) || strings.ContainsRune(s, 0) || len(s) > maxResultBytes {
			t.Errorf("text %d: %d bytes, %.40q", i, len(s), s)
		}
	}
	if g.info.Players[0] != "a\uFFFDb" || !strings.HasPrefix(g.info.Title, "t\uFFFDnnn") {
		t.Errorf("players %q, title %.20q", g.info.Players[0], g.info.Title)
	}
}

package readmode_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/botarena/botarena/darkchess"
	"github.com/botarena/botarena/protocol/readmode"
	"github.com/botarena/botarena/record"
	"github.com/botarena/botarena/timer"
)

// dcReadModeBoard is a board.txt after two plies, red (the first player) to
// move, with timestamps in the host's convention: the start, then each ply.
const dcReadModeBoard = "* 3:6pm February 16, 2017\n* Player1(a5) vs Player2(a0)\n* 1 2 2 2 2 2 5 1 2 2 2 2 2 5\n" +
	"* X X X X\n* X X X X\n* X X X X\n* X X X X\n* X X X X\n* X X X X\n* X X X X\n* X X X X\n" +
	"* first 0\n* time 900\n* 1. b8(K) c8(c)\n* Comment 0 0\n"

// dcReadModeDir returns a directory holding board.txt with the given text.
func dcReadModeDir(t *testing.T, board string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, readmode.BoardFile), []byte(board), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// dcDirFiles returns the names in dir.
func dcDirFiles(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	return names
}

func TestRun(t *testing.T) {
	dir := dcReadModeDir(t, dcReadModeBoard)
	var seen darkchess.View
	bot := darkchess.PlayerFunc(func(_ context.Context, v darkchess.View) (darkchess.Move, error) {
		seen = v
		return darkchess.NewMove(darkchess.B8, darkchess.C8), nil // K takes c
	})
	if err := readmode.Run(context.Background(), dir, bot); err != nil {
		t.Fatal(err)
	}
	if seen.Turn() != darkchess.Red || len(seen.History) != 2 || seen.At(darkchess.C8) != darkchess.BlackCannon || seen.Rules != (darkchess.Rules{}) {
		t.Errorf("the player saw %v, history %v, rules %v", seen, seen.History, seen.Rules)
	}
	got, err := os.ReadFile(filepath.Join(dir, readmode.MoveFile))
	if err != nil || string(got) != "0\nb8\nc8\n0\n" {
		t.Errorf("move.txt %q, %v", got, err)
	}
	if names := dcDirFiles(t, dir); strings.Join(names, " ") != "board.txt move.txt" {
		t.Errorf("files left: %v", names)
	}
}

func TestRunFailures(t *testing.T) {
	legal := darkchess.PlayerFunc(func(_ context.Context, v darkchess.View) (darkchess.Move, error) {
		return v.AppendLegalMoves(nil)[0], nil
	})
	for _, tc := range []struct {
		name   string
		board  string // "" for none
		player darkchess.Player
		msg    string
		is     error
	}{
		{"no board.txt", "", legal, "board.txt", os.ErrNotExist},
		{"bad board.txt", strings.Replace(dcReadModeBoard, "b8(K)", "b8(Z)", 1), legal, "line 14, column 6", record.ErrSyntax},
		{"lost already", "* d\n* a vs b\n* 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n* - - - -\n* - - - -\n* - - - -\n* - - - -\n* - - - -\n* - - - -\n* - g - -\n* P - - -\n" +
			"* first 0\n* time 900\n* 1. a1-a2 b2-a2\n", legal, "red to move has lost already", darkchess.ErrGameOver},
		{"player error", dcReadModeBoard, darkchess.PlayerFunc(func(context.Context, darkchess.View) (darkchess.Move, error) {
			return darkchess.NoMove, errors.New("no idea")
		}), "the player: no idea", nil},
		{"player panics", dcReadModeBoard, darkchess.PlayerFunc(func(context.Context, darkchess.View) (darkchess.Move, error) {
			panic("oops")
		}), "the player: panic: oops", nil},
		{"illegal move", dcReadModeBoard, darkchess.PlayerFunc(func(context.Context, darkchess.View) (darkchess.Move, error) {
			return darkchess.NewMove(darkchess.A1, darkchess.A2), nil
		}), "a1-a2 is not legal", darkchess.ErrIllegalMove},
		{"no move", dcReadModeBoard, darkchess.PlayerFunc(func(context.Context, darkchess.View) (darkchess.Move, error) {
			return darkchess.NoMove, nil
		}), "none is not legal", darkchess.ErrIllegalMove},
		{"nil player", dcReadModeBoard, nil, "nil darkchess.Player", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if tc.board != "" {
				dir = dcReadModeDir(t, tc.board)
			}
			c := readmode.Client{Dir: dir}
			err := c.Run(context.Background(), tc.player)
			if err == nil || !strings.Contains(err.Error(), tc.msg) || tc.is != nil && !errors.Is(err, tc.is) {
				t.Errorf("error %v, want %q wrapping %v", err, tc.msg, tc.is)
			}
			if _, err := os.Stat(filepath.Join(dir, readmode.MoveFile)); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("move.txt written: %v", err)
			}
		})
	}
}

// TestDarkChessReadModeBudget checks the player's deadline: the time setting
// less its own plies' time by the timestamps, from the end of the last ply,
// less the margin.
func TestBudget(t *testing.T) {
	const t0 = 1_700_000_000_000 // ms
	at := func(ms int64) time.Time { return time.UnixMilli(t0 + ms) }
	board := func(time string, plies string, stamps ...int64) string {
		s := strings.Replace(dcReadModeBoard, "* time 900", "* time "+time, 1)
		s = strings.Replace(s, "* 1. b8(K) c8(c)\n", plies, 1)
		for i, ms := range stamps {
			s += strconv.Itoa(i) + ". " + strconv.FormatInt(t0+ms, 10) + "\n"
		}
		return s
	}
	threePlies := "* 1. b8(K) c8(c)\n* 2. b8-c8\n"
	for _, tc := range []struct {
		name     string
		board    string
		now      time.Time
		budget   time.Duration
		left     time.Duration // 0: no deadline
		deadline time.Time
	}{
		// Red played plies 1 (10 s) and 3 (100 s); black is to move, and
		// has used 5 s on ply 2.
		{"host's stamps", board("900", threePlies, 0, 10_000, 15_000, 115_000), at(115_500), 0,
			895 * time.Second, at(115_000 + 895_000 - 1000)},
		// The same game as the 2017 client stamps it: one per ply.
		{"2017 stamps", board("900", threePlies, 10_000, 15_000, 115_000), at(115_500), 0,
			895 * time.Second, at(115_000 + 895_000 - 1000)},
		{"ms setting", board("900000", threePlies, 0, 10_000, 15_000, 115_000), at(115_500), 0,
			895 * time.Second, at(115_000 + 895_000 - 1000)},
		{"no stamps", board("900", threePlies), at(0), 0, 900 * time.Second, at(900_000 - 1000)},
		{"stamps from another clock", board("900", threePlies, 0, 10_000, 15_000, 115_000), at(5_000_000), 0,
			895 * time.Second, at(5_000_000 + 895_000 - 1000)},
		{"all used: a per-ply setting", board("10", threePlies, 0, 10_000, 25_000, 115_000), at(115_000), 0,
			10 * time.Second, at(115_000 + 10_000 - 1000)},
		{"small", board("2", threePlies, 0, 1000, 1200, 1300), at(1300), 0,
			1800 * time.Millisecond, at(1300 + 1800 - 180)},
		{"budget", board("900", threePlies, 0, 10_000, 15_000, 115_000), at(200_000), 3 * time.Second,
			3 * time.Second, at(200_000 + 3000 - 300)},
		{"no time setting", board("0", threePlies, 0, 1, 2, 3), at(10), 0, 0, time.Time{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := dcReadModeDir(t, tc.board)
			var deadline time.Time
			var hasDeadline bool
			var left time.Duration
			var st timer.Status
			var ok bool
			bot := darkchess.PlayerFunc(func(ctx context.Context, v darkchess.View) (darkchess.Move, error) {
				st, ok = timer.StatusFrom(ctx)
				deadline, hasDeadline = ctx.Deadline()
				left = v.TimeLeft[darkchess.Black]
				return v.AppendLegalMoves(nil)[0], nil
			})
			c := readmode.Client{Dir: dir, Budget: tc.budget, Now: func() time.Time { return tc.now },
				Rules: darkchess.Classic}
			if err := c.Run(context.Background(), bot); err != nil {
				t.Fatal(err)
			}
			// The Status: black (the second player) to move after 3 plies,
			// its clock as computed, the control told by a time setting.
			told := !strings.Contains(tc.board, "* time 0\n")
			if !ok || st.Side != timer.Second || st.Played != 1 || st.ControlTold != told || (told && st.Control.Main <= 0) ||
				st.Own.Told != (tc.left > 0) || st.Own.Main != tc.left || st.Opponent.Told || !st.Deadline.Equal(deadline) ||
				st.Start.After(tc.now) {
				t.Errorf("Status %+v (on ctx %v); want second, 1 played, control told %v, own %v, ctx's deadline %v", st, ok, told, tc.left, deadline)
			}
			if tc.left == 0 {
				if hasDeadline || left != 0 {
					t.Errorf("deadline %v, left %v; want none", deadline, left)
				}
				return
			}
			if !hasDeadline || !deadline.Equal(tc.deadline) || left != tc.left {
				t.Errorf("deadline %v (%v), left %v; want %v, %v", deadline.Sub(tc.now), hasDeadline, left, tc.deadline.Sub(tc.now), tc.left)
			}
		})
	}
}

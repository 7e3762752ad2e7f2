//go:build unix

package readmode_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/botarena/botarena/darkchess"
	"github.com/botarena/botarena/internal/longtest"
	"github.com/botarena/botarena/internal/proctest"
	"github.com/botarena/botarena/internal/sharedtest"
	"github.com/botarena/botarena/protocol"
	"github.com/botarena/botarena/protocol/readmode"
	"github.com/botarena/botarena/record"
	"github.com/botarena/botarena/timer"
)

// buildDarkChessReadModePrograms builds the scripted read-mode engine and
// the example random engine into a temporary directory.
func buildDarkChessReadModePrograms(t *testing.T) (bots, example string) {
	t.Helper()
	gocmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to build the test programs")
	}
	dir := t.TempDir()
	cmd := exec.Command(gocmd, "build", "-o", dir+string(filepath.Separator), "./testdata/darkchess_readmode", "../../examples/darkchess-readmode")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return filepath.Join(dir, "darkchess_readmode"), filepath.Join(dir, "darkchess-readmode")
}

// readBoardIn reads the board.txt the host left in dir.
func readBoardIn(t *testing.T, dir string) *record.DarkChessBoard {
	t.Helper()
	f, err := os.Open(filepath.Join(dir, readmode.BoardFile))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	b, err := record.ReadDarkChessBoard(f)
	if err != nil {
		t.Fatalf("board.txt: %v", err)
	}
	return b
}

// checkDarkChessRecord replays the referee's record under rules, writes it
// as a 2021 record, and reads that back to the same end.
func checkDarkChessRecord(t *testing.T, rec protocol.DarkChessGameRecord, rules darkchess.Rules) {
	t.Helper()
	g := darkchess.NewGameFrom(rules, rec.Start, nil)
	for i, ply := range rec.Plies {
		if err := g.PlayPly(ply); err != nil {
			t.Fatalf("ply %d %s: %v", i+1, ply, err)
		}
	}
	if !rec.Result.Reason.IsDraw() && rec.Result.Reason != darkchess.NoPieces && rec.Result.Reason != darkchess.NoLegalPly {
		if err := g.Forfeit(g.Turn(), rec.Result.Reason); err != nil {
			t.Fatalf("forfeit: %v", err)
		}
	}
	if r, _ := g.Result(); r != rec.Result {
		t.Fatalf("replayed to %v, the referee says %v", r, rec.Result)
	}
	b := record.NewDarkChessBoard(g, "a", "b")
	var buf bytes.Buffer
	if err := record.WriteDarkChessBoard(&buf, b, record.DarkChessServer2021); err != nil {
		t.Fatal(err)
	}
	back, err := record.ReadDarkChessBoard(&buf)
	if err != nil {
		t.Fatal(err)
	}
	g2, err := back.Game(rules, nil)
	if err != nil {
		t.Fatal(err)
	}
	if r, _ := g2.Result(); r != rec.Result || g2.Ply() != len(rec.Plies) {
		t.Fatalf("the record reads back to %v after %d plies, want %v after %d", r, g2.Ply(), rec.Result, len(rec.Plies))
	}
}

func TestHost(t *testing.T) {
	bots, example := buildDarkChessReadModePrograms(t)
	proctest.Subreaper(t) // the children a killed program leaves are ours to wait for
	ctx := context.Background()

	t.Run("full game", func(t *testing.T) {
		t.Parallel()
		dirs := [2]string{t.TempDir(), t.TempDir()}
		var out bytes.Buffer
		a := readmode.Program{Path: example, Dir: dirs[0], Players: [2]string{"example", "bots"}}
		b := readmode.Program{Path: bots, Dir: dirs[1], Players: [2]string{"example", "bots"}, Output: &out}
		ref := protocol.DarkChessReferee{Control: timer.Control{Main: 300 * time.Second}}
		// Each ply starts a program, so a game of random plies to the
		// Classic rule's 60 quiet plies takes some 250 plies and seconds.
		// The quick tier plays the Classic rule with 6 quiet plies, a
		// whole game to its end in fewer plies; the long tier
		// (BOTARENA_LONG=1) plays the Classic rule as it is.
		rules := darkchess.Classic
		rules.NoProgressPlies = longtest.Pick(6, rules.NoProgressPlies)
		g := darkchess.NewGame(rules, rand.New(rand.NewPCG(7, 1)))
		rec, err := ref.Play(ctx, g, [2]protocol.DarkChessSeat{a.Seat(), b.Seat()})
		if err != nil {
			t.Fatal(err)
		}
		if !g.IsOver() || rec.Faults != [2]error{} {
			t.Fatalf("result %v, faults %v", rec.Result, rec.Faults)
		}
		switch rec.Result.Reason {
		case darkchess.NoPieces, darkchess.NoLegalPly, darkchess.NoEatFlipDraw, darkchess.PositionRepetitionDraw:
		default:
			t.Fatalf("result %v", rec.Result)
		}
		checkDarkChessRecord(t, rec, rules)
		t.Logf("%v after %d plies in %v", rec.Result, len(rec.Plies), rec.Ended.Sub(rec.Began))
		// Each directory holds the board.txt of its engine's last ply: the
		// game up to then, with a timestamp for the start and each ply.
		for i, dir := range dirs {
			bd := readBoardIn(t, dir)
			n := len(bd.Plies)
			if n%2 != i || n >= len(rec.Plies) || bd.Start != darkchess.Opening || bd.First != "example" || bd.Second != "bots" ||
				bd.FirstColor != rec.FirstColor || bd.Time != 300 || len(bd.Times) != n+1 || bd.Result != nil {
				t.Errorf("%s: board.txt %+v", dir, bd)
			}
			for j, ply := range bd.Plies {
				if ply != rec.Plies[j] {
					t.Fatalf("%s: ply %d is %s, the game's %s", dir, j+1, ply, rec.Plies[j])
				}
			}
			if _, err := os.Stat(filepath.Join(dir, readmode.MoveFile)); err != nil {
				t.Errorf("%s: %v", dir, err)
			}
		}
		if !strings.Contains(out.String(), "darkchess_readmode: 1 plies, random") {
			t.Errorf("output of the scripted engine: %.200q", out.String())
		}
	})

	// A fault of the first player at its first ply: it loses, with no colour.
	for _, tc := range []struct {
		name    string
		args    []string
		control timer.Control
		reason  darkchess.Reason
		msg     string
		is      error
	}{
		{"hang", []string{"0=hang"}, timer.PerMove(300 * time.Millisecond), darkchess.TimeOut, "out of time", timer.ErrTimeUp},
		{"crash", []string{"0=crash"}, timer.Control{}, darkchess.BadMove, "no move.txt (the program ended with exit status 3: \"darkchess_readmode: crashing\")", nil},
		{"panic", []string{"0=panic"}, timer.Control{}, darkchess.BadMove, "no move.txt (the program ended with exit status 2", nil},
		{"garbage", []string{"0=garbage"}, timer.Control{}, darkchess.BadMove, "move.txt: kind (0 move, 1 flip) \"2\"", record.ErrSyntax},
		{"illegal ply", []string{"0=illegal"}, timer.Control{}, darkchess.BadMove, "a1-a2", darkchess.ErrIllegalMove},
		{"no move.txt", []string{"0=nothing"}, timer.Control{}, darkchess.BadMove, "no move.txt", nil},
		{"move.txt a pipe", []string{"0=fifo"}, timer.Control{}, darkchess.BadMove, "not a regular file", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			// A move.txt left from before must not count.
			if err := os.WriteFile(filepath.Join(dir, readmode.MoveFile), []byte("1\na1\n0\n0\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			a := readmode.Program{Path: bots, Args: tc.args, Dir: dir}
			b := readmode.Program{Path: bots, Dir: t.TempDir()}
			ref := protocol.DarkChessReferee{Control: tc.control}
			g := darkchess.NewGame(darkchess.Classic, rand.New(rand.NewPCG(7, 2)))
			began := time.Now()
			rec, err := ref.Play(ctx, g, [2]protocol.DarkChessSeat{a.Seat(), b.Seat()})
			if err != nil {
				t.Fatal(err)
			}
			if elapsed := time.Since(began); elapsed > 10*time.Second {
				t.Errorf("the game took %v", elapsed)
			}
			want := darkchess.Result{Reason: tc.reason, Winner: darkchess.NoColor}
			if rec.Result != want || len(rec.Plies) != 0 || rec.Faults[1] != nil {
				t.Fatalf("result %v after %d plies, faults %v; want %v", rec.Result, len(rec.Plies), rec.Faults, want)
			}
			if err := rec.Faults[0]; err == nil || !strings.Contains(err.Error(), tc.msg) || tc.is != nil && !errors.Is(err, tc.is) {
				t.Errorf("fault %v, want %q wrapping %v", err, tc.msg, tc.is)
			}
			if tc.name == "hang" {
				data, err := os.ReadFile(filepath.Join(dir, "child.pid"))
				if err != nil {
					t.Log("killed before it started its child") // a loaded machine
					return
				}
				pid, err := strconv.Atoi(string(data))
				if err != nil {
					t.Fatalf("child.pid %q: %v", data, err)
				}
				proctest.CheckChildKilled(t, pid) // the child died with the program
			}
		})
	}

	// Faults later in the game, of either player, cost that player the game.
	t.Run("second player's garbage", func(t *testing.T) {
		t.Parallel()
		a := readmode.Program{Path: bots, Dir: t.TempDir()}
		b := readmode.Program{Path: bots, Args: []string{"3=garbage"}, Dir: t.TempDir()}
		g := darkchess.NewGame(darkchess.Classic, rand.New(rand.NewPCG(7, 3)))
		rec, err := (&protocol.DarkChessReferee{}).Play(ctx, g, [2]protocol.DarkChessSeat{a.Seat(), b.Seat()})
		if err != nil {
			t.Fatal(err)
		}
		want := darkchess.Result{Reason: darkchess.BadMove, Winner: rec.FirstColor}
		if rec.Result != want || len(rec.Plies) != 3 || rec.Faults[0] != nil || rec.Faults[1] == nil {
			t.Fatalf("result %v after %d plies, faults %v; want %v after 3", rec.Result, len(rec.Plies), rec.Faults, want)
		}
		checkDarkChessRecord(t, rec, darkchess.Classic)
	})
	t.Run("crash after writing move.txt", func(t *testing.T) {
		t.Parallel()
		a := readmode.Program{Path: bots, Args: []string{"0=crashafter", "2=nothing"}, Dir: t.TempDir()}
		b := readmode.Program{Path: bots, Dir: t.TempDir()}
		g := darkchess.NewGame(darkchess.Classic, rand.New(rand.NewPCG(7, 4)))
		rec, err := (&protocol.DarkChessReferee{}).Play(ctx, g, [2]protocol.DarkChessSeat{a.Seat(), b.Seat()})
		if err != nil {
			t.Fatal(err)
		}
		// The crash cost nothing: the platform reads move.txt whatever the
		// exit status. The empty answer two plies later did.
		want := darkchess.Result{Reason: darkchess.BadMove, Winner: rec.FirstColor.Opponent()}
		if rec.Result != want || len(rec.Plies) != 2 {
			t.Fatalf("result %v after %d plies; want %v after 2", rec.Result, len(rec.Plies), want)
		}
	})
	t.Run("program not found", func(t *testing.T) {
		t.Parallel()
		a := readmode.Program{Path: filepath.Join(t.TempDir(), "missing"), Dir: t.TempDir()}
		b := readmode.Program{Path: bots, Dir: t.TempDir()}
		rec, err := (&protocol.DarkChessReferee{}).Play(ctx, darkchess.NewGame(darkchess.Classic, rand.New(rand.NewPCG(7, 5))), [2]protocol.DarkChessSeat{a.Seat(), b.Seat()})
		if err != nil || rec.Result != (darkchess.Result{Reason: darkchess.BadMove, Winner: darkchess.NoColor}) {
			t.Fatalf("result %v, %v", rec.Result, err)
		}
	})

	// A game started mid-way from a board.txt: the referee takes the game
	// after its plies, and each engine's board.txt starts from the position
	// then, with its revealed pieces.
	t.Run("mid-game start", func(t *testing.T) {
		t.Parallel()
		data, err := os.ReadFile(filepath.Join(sharedtest.Dir(t, "darkchess", "legacy", "2019-windows-competition-client"), "EnterRoom_Search_board.txt"))
		if err != nil {
			t.Fatal(err)
		}
		bd, err := record.ReadDarkChessBoard(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		// The game is played to its end: in the quick tier drawn after 30
		// plies without a capture or a flip, 10 plies after the start (the
		// record itself has runs of more than 20); the long tier plays the
		// Classic rule's 60, about 100 more plies, a program started each.
		rules := darkchess.Classic
		rules.NoProgressPlies = longtest.Pick(30, rules.NoProgressPlies)
		g, err := bd.Game(rules, rand.New(rand.NewPCG(7, 6)))
		if err != nil {
			t.Fatal(err)
		}
		dirs := [2]string{t.TempDir(), t.TempDir()}
		a := readmode.Program{Path: bots, Dir: dirs[0], Players: [2]string{bd.First, bd.Second}}
		b := readmode.Program{Path: example, Dir: dirs[1], Players: [2]string{bd.First, bd.Second}}
		rec, err := (&protocol.DarkChessReferee{}).Play(ctx, g, [2]protocol.DarkChessSeat{a.Seat(), b.Seat()})
		if err != nil || !g.IsOver() || rec.Faults != [2]error{} || len(rec.Plies) <= len(bd.Plies) {
			t.Fatalf("result %v after %d plies, faults %v, %v", rec.Result, len(rec.Plies), rec.Faults, err)
		}
		before, _ := g.PositionAt(len(bd.Plies))
		for i, dir := range dirs {
			got := readBoardIn(t, dir)
			// After the 150 plies the first player, a, is to move again.
			first, second := bd.First, bd.Second
			if got.Start.Turn() != before.Turn() || got.Start.At(darkchess.B7) != darkchess.BlackKnight || got.First != first || got.Second != second {
				t.Errorf("engine %d: board.txt starts %s, %q vs %q", i, got.Start, got.First, got.Second)
			}
		}
	})
}

// TestHostSymlinkSwap: an engine that, after its ply, moves its directory
// aside and puts a symlink to another directory in its place loses by
// BadMove at that ply, and the host writes nothing through the symlink:
// the directory it leads to stays empty, the moved directory holds the
// host's board.txt.
func TestHostSymlinkSwap(t *testing.T) {
	bots, _ := buildDarkChessReadModePrograms(t)
	proctest.Subreaper(t)
	for _, swapAt := range []int{0, 3} {
		t.Run(fmt.Sprintf("at ply %d", swapAt), func(t *testing.T) {
			parent, outside := t.TempDir(), t.TempDir()
			dirs := [2]string{filepath.Join(parent, "first"), filepath.Join(parent, "second")}
			for _, d := range dirs {
				if err := os.Mkdir(d, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			swapper := swapAt % 2
			args := [2][]string{}
			args[swapper] = []string{fmt.Sprintf("%d=swap", swapAt), "to=" + outside}
			a := readmode.Program{Path: bots, Args: args[0], Dir: dirs[0]}
			b := readmode.Program{Path: bots, Args: args[1], Dir: dirs[1]}
			ref := protocol.DarkChessReferee{}
			g := darkchess.NewGame(darkchess.Classic, rand.New(rand.NewPCG(7, 3)))
			rec, err := ref.Play(context.Background(), g, [2]protocol.DarkChessSeat{a.Seat(), b.Seat()})
			if err != nil {
				t.Fatal(err)
			}
			if rec.Result.Reason != darkchess.BadMove || len(rec.Plies) != swapAt || rec.Faults[1-swapper] != nil {
				t.Fatalf("result %v after %d plies, faults %v; want the engine of seat %d to lose by BadMove at ply %d", rec.Result, len(rec.Plies), rec.Faults, swapper, swapAt+1)
			}
			if err := rec.Faults[swapper]; err == nil || !strings.Contains(err.Error(), "a symlink to "+outside) {
				t.Errorf("fault %v, want one naming the symlink to %s", err, outside)
			}
			if entries, err := os.ReadDir(outside); err != nil || len(entries) > 0 {
				t.Errorf("the directory the symlink leads to holds %v (%v), want nothing", entries, err)
			}
			if _, err := os.Stat(filepath.Join(dirs[swapper]+".moved", readmode.BoardFile)); err != nil {
				t.Errorf("the moved directory: %v", err)
			}
		})
	}
}

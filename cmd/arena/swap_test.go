package main

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// openResultsAt opens results.tsv in dir for a test, through a root of
// dir closed when the test ends.
func openResultsAt(t *testing.T, dir string) (*resultsLog, error) {
	t.Helper()
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	t.Cleanup(func() { root.Close() })
	return openResults(root, dir)
}

// TestPDDRunDirSymlinkSwap: a strategy that, at its first move, moves the
// whole run directory aside and puts a symlink to another directory in its
// place loses its game by a violation naming the swap, the run stops with
// an error saying so and plays no further game, and arena writes nothing
// through the symlink: its files (the game's record and result, results.tsv,
// results.txt) are in the run's directory where it was moved.
func TestPDDRunDirSymlinkSwap(t *testing.T) {
	t.Parallel()
	outside := t.TempDir()
	swapper, _ := pddScript(t, "swapper", `game=$(dirname "$3"); run=$(dirname "$game")
mv "$run" "$run.moved" && ln -s `+outside+` "$run"
exit 0`)
	runDir := filepath.Join(t.TempDir(), "run")
	var stdout, stderr bytes.Buffer
	err := run(t.Context(), []string{"match", "pdd", "-out", runDir, "-games", "3", "-time", "60s/move", "-seed", "5",
		"swapper=strategy:" + swapper, "random"}, &stdout, &stderr)
	if err == nil || !errors.Is(err, errRunDirSwapped) || !strings.Contains(err.Error(), "a symlink to "+outside) {
		t.Errorf("arena: %v, want the run's directory swapped for a symlink to %s\n%s\n%s", err, outside, stdout.String(), stderr.String())
	}
	if entries, err := os.ReadDir(outside); err != nil || len(entries) > 0 {
		t.Errorf("the directory the symlink leads to holds %v (%v), want nothing", entries, err)
	}
	moved := runDir + ".moved"
	games, err := readResults(moved)
	if err != nil {
		t.Fatal(err)
	}
	if len(games) != 1 {
		t.Fatalf("%d games in results.tsv, want 1: no game after the swap", len(games))
	}
	g := games[1]
	if g.Result.Winner != 1 {
		t.Errorf("game 1: %+v, want the swapper (white) to lose", g.Result)
	}
	txt := string(mustRead(t, filepath.Join(moved, summaryFileName)))
	if !strings.Contains(txt, "swapper: ") || !strings.Contains(txt, "was replaced by a symlink to "+outside) && !strings.Contains(txt, "moved away") {
		t.Errorf("%s does not say the swapper broke the rules by the swap:\n%s", summaryFileName, txt)
	}
}

// TestDarkChessReadModeSymlinkSwap: a read-mode engine that moves its
// working directory aside and puts a symlink to another directory in its
// place, and moves through it, loses the game at that ply, by a fault
// naming the symlink; arena
// writes nothing through it (the referee wrote board.txt and read move.txt
// through it for a whole game), and the run goes on with the next game.
func TestDarkChessReadModeSymlinkSwap(t *testing.T) {
	t.Parallel()
	outside := t.TempDir()
	// It swaps at its first run and leaves its move (a flip of a1) through
	// the symlink, where a referee that follows the path reads it and
	// writes the next board.txt.
	swapper, _ := pddScript(t, "swapper", `d=$(pwd); [ -L "$d" ] || { mv "$d" "$d.moved" && ln -s `+outside+` "$d"; }
printf '1\na1\n0\n0\n' > "$d/move.txt"`)
	runDir := filepath.Join(t.TempDir(), "run")
	var stdout, stderr bytes.Buffer
	if err := run(t.Context(), []string{"match", "darkchess", "-out", runDir, "-games", "2", "-time", "60s/move", "-seed", "5",
		"swapper=readmode:" + swapper, "random"}, &stdout, &stderr); err != nil {
		t.Fatalf("arena: %v\n%s\n%s", err, stdout.String(), stderr.String())
	}
	// The program's own move.txt may be there; nothing of arena's.
	if entries, err := os.ReadDir(outside); err != nil || len(entries) > 1 || len(entries) == 1 && entries[0].Name() != "move.txt" {
		t.Errorf("the directory the symlink leads to holds %v (%v), want nothing of arena's", entries, err)
	}
	games, err := readResults(runDir)
	if err != nil {
		t.Fatal(err)
	}
	if len(games) != 2 || games[1].Result.Winner != 1 || games[2].Result.Winner != 0 {
		t.Fatalf("results %+v, want 2 games, each lost by the swapper\n%s", games, stdout.String())
	}
	if n := strings.Count(stdout.String(), "was moved or replaced (a symlink to "+outside); n != 2 {
		t.Errorf("%d games say the swapper replaced its directory by a symlink, want 2:\n%s", n, stdout.String())
	}
}

// TestDarkChessGameDirSymlinkSwap: a read-mode engine that moves its
// game's directory (the parent of its own) aside and puts a symlink in its
// place loses the game, arena writes the game's record and result into the
// directory it made (now moved), nothing through the symlink, and the run
// stops with an error naming the symlink.
func TestDarkChessGameDirSymlinkSwap(t *testing.T) {
	t.Parallel()
	outside := t.TempDir()
	swapper, _ := pddScript(t, "swapper", `g=$(dirname "$(pwd)"); mv "$g" "$g.moved" && ln -s `+outside+` "$g"
exit 0`)
	runDir := filepath.Join(t.TempDir(), "run")
	var stdout, stderr bytes.Buffer
	err := run(t.Context(), []string{"match", "darkchess", "-out", runDir, "-games", "2", "-time", "60s/move", "-seed", "5",
		"swapper=readmode:" + swapper, "random"}, &stdout, &stderr)
	if err == nil || !strings.Contains(err.Error(), "the game's directory was moved or replaced") || !strings.Contains(err.Error(), "a symlink to "+outside) {
		t.Errorf("arena: %v, want the game's directory swapped for a symlink to %s\n%s\n%s", err, outside, stdout.String(), stderr.String())
	}
	if entries, err := os.ReadDir(outside); err != nil || len(entries) > 0 {
		t.Errorf("the directory the symlink leads to holds %v (%v), want nothing", entries, err)
	}
	games, err := readResults(runDir)
	if err != nil {
		t.Fatal(err)
	}
	if len(games) != 1 || games[1].Result.Winner != 1 {
		t.Fatalf("results %+v, want 1 game, lost by the swapper\n%s", games, stdout.String())
	}
	moved := filepath.Dir(games[1].Result.Record) + ".moved"
	for _, name := range []string{"board.txt", "board.txt.json", "result.txt"} {
		if _, err := os.Stat(filepath.Join(moved, name)); err != nil {
			t.Errorf("the game's directory: %v", err)
		}
	}
}

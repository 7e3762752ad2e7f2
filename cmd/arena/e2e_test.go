package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// These tests run the arena binary itself, as a user does.

// arenaCommand returns the command running the built arena with args in dir.
func arenaCommand(t *testing.T, ctx context.Context, dir string, args ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.CommandContext(ctx, arenaBinary(t), args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), asArenaEnv+"=") // the real binary: the variable means nothing to it anyway
	return cmd
}

// TestArenaMainJob runs the README's main job on a fresh directory, for
// every game: the game's name and nothing else.
func TestArenaMainJob(t *testing.T) {
	for _, def := range gameDefs() {
		t.Run(def.Name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
			defer cancel()
			out, err := arenaCommand(t, ctx, dir, "match", def.Name).CombinedOutput()
			if err != nil {
				t.Fatalf("arena match %s: %v\n%s", def.Name, err, out)
			}
			a, b := def.Defaults[0], def.Defaults[1]
			for _, want := range []string{
				fmt.Sprintf("game 1: %s (%s) vs %s (%s): ", a, def.Seats[0], b, def.Seats[1]),
				fmt.Sprintf("game 2: %s (%s) vs %s (%s): ", b, def.Seats[0], a, def.Seats[1]),
				fmt.Sprintf("Result of %s vs %s after 2 games:", a, b),
				fmt.Sprintf("Elo difference (%s - %s): ", a, b),
			} {
				if !bytes.Contains(out, []byte(want)) {
					t.Errorf("output lacks %q:\n%s", want, out)
				}
			}
			results, _ := filepath.Glob(filepath.Join(dir, "arena-records", def.Name+"-*", "results.txt"))
			games, _ := filepath.Glob(filepath.Join(dir, "arena-records", def.Name+"-*", "00[12]-*", "result.txt"))
			if len(results) != 1 || len(games) != 2 {
				t.Errorf("records: %q %q", results, games)
			}
		})
	}
}

// TestArenaTournament runs a 4-player round robin of built-in bots, two
// games at a time: 6 pairings of 2 games, a table, a directory per game.
func TestArenaTournament(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := arenaCommand(t, ctx, dir, "tournament", "othello", "random", "greedy", "alphabeta", "random", "-j", "2", "-seed", "11", "-out", "t")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("tournament: %v\n%s\n%s", err, stdout.String(), stderr.String())
	}
	text := stdout.String()
	if !strings.Contains(text, "Othello round robin: random, greedy, alphabeta, random-2; 2 games per pairing, 12 games, 2 at a time") {
		t.Errorf("header:\n%s", text)
	}
	rows := regexp.MustCompile(`(?m)^\s+(\d)\s+(\S+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+([\d.]+)\s`).FindAllStringSubmatch(text, -1)
	if len(rows) != 4 {
		t.Fatalf("table rows %q:\n%s", rows, text)
	}
	total := 0.0
	for _, r := range rows {
		if r[3] != "6" {
			t.Errorf("%s played %s games, want 6", r[2], r[3])
		}
		p, err := strconv.ParseFloat(r[7], 64)
		if err != nil {
			t.Fatal(err)
		}
		total += p
	}
	if total != 12 {
		t.Errorf("points sum to %v, want 12 (one per game)", total)
	}
	if got := strings.Count(stderr.String(), "] game "); got != 12 {
		t.Errorf("progress lines: %d, want 12:\n%s", got, stderr.String())
	}
	games, _ := filepath.Glob(filepath.Join(dir, "t", "0*", "result.txt"))
	if len(games) != 12 {
		t.Errorf("%d game directories, want 12", len(games))
	}
}

// TestArenaInterrupt stops a long match with SIGINT (Ctrl-C) after its first
// game: arena exits 130, prints the partial result and keeps the records of
// the finished games.
func TestArenaInterrupt(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := arenaCommand(t, ctx, dir, "match", "othello", "alphabeta", "alphabeta", "-games", "1000", "-out", "m")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(stdout)
	var lines []string
	for sc.Scan() {
		lines = append(lines, sc.Text())
		if strings.HasPrefix(sc.Text(), "game 1: ") {
			cmd.Process.Signal(syscall.SIGINT)
			break
		}
	}
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	err = cmd.Wait()
	text := strings.Join(lines, "\n")
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 130 {
		t.Fatalf("exit: %v, want status 130\n%s\n%s", err, text, stderr.String())
	}
	if !regexp.MustCompile(`Interrupted: \d+ of 1000 games finished; go on with: arena match -resume m\n`).MatchString(text+"\n") || !strings.Contains(text, "Result of alphabeta vs alphabeta-2 after ") {
		t.Errorf("output:\n%s", text)
	}
	if !strings.Contains(stderr.String(), "arena: interrupted") {
		t.Errorf("stderr: %s", stderr.String())
	}
	if b, err := os.ReadFile(filepath.Join(dir, "m", "results.tsv")); err != nil || !strings.Contains(string(b), "\n1\t0\t0\talphabeta\talphabeta-2\t") {
		t.Errorf("results.tsv: %v\n%s", err, b)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "m", "results.txt")); err != nil || !strings.Contains(string(b), "game 1: alphabeta (black) vs alphabeta-2 (white): ") {
		t.Errorf("results.txt: %v\n%s", err, b)
	}
}

// TestArenaServeOthello runs "arena serve othello" as a program: two real
// TCP clients play a game on it, Ctrl-C stops it, and the game's transcript
// is in the working directory.
func TestArenaServeOthello(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	srv := startServeOthello(t, ctx, dir, "-pairing", "fifo", "-timeout", "10")
	playOthelloOnServer(t, ctx, srv.port, "p0", "p1")
	srv.stop()
	if trans, _ := filepath.Glob(filepath.Join(dir, "gamelog_*.txt")); len(trans) != 1 {
		t.Errorf("transcripts: %q", trans)
	}
}

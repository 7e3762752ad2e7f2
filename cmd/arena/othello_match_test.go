package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// writeScript writes an executable shell script into dir.
func writeScript(t *testing.T, dir, name, body string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte("#!/bin/bash\n"+body+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestMatchOthelloPrograms plays external programs over TCP: the example
// client, started with the server's address appended; and programs that are
// missing, crash, or connect and then hang. Each faulty program loses its
// game with the reason, and the match goes on to its end.
func TestMatchOthelloPrograms(t *testing.T) {
	t.Parallel() // its games mostly wait: for slow starts and time limits
	if testing.Short() {
		t.Skip("builds and runs programs")
	}
	bin := buildProgram(t, "examples/othello-random")
	dir := t.TempDir()
	crash := writeScript(t, dir, "crash", "echo 'segfault, pretend' >&2; exit 3")
	hang := writeScript(t, dir, "hang", `exec 3<>/dev/tcp/$1/$2; echo "NICK hang" >&3; sleep 1000`)
	for _, tt := range []struct {
		name   string
		player string
		time   string // the control: generous unless the program must time out
		want   string // in the line of the game the program plays black
	}{
		// A game between two random players may be drawn.
		{"example", "tcp:" + bin + " -nick ex", "60s/move", `game 1: othello-random \(black\) vs random \(white\): ([\w-]+ wins|draw) by discs`},
		{"placeholders", "tcp:" + bin + " -nick ex {host} {port}", "60s/move", `game 1: othello-random \(black\) vs random \(white\): ([\w-]+ wins|draw) by discs`},
		{"missing", "tcp:" + filepath.Join(dir, "nothing-here"), "60s/move", `game 1: nothing-here \(black\) vs random \(white\): random wins by start failure, 0 plies; nothing-here: start failure, program not found: .*nothing-here`},
		{"crash", crash, "60s/move", `game 1: crash \(black\) vs random \(white\): random wins by crash, 0 plies; crash: crash, exited before connecting \(exit status 3\); stderr: segfault, pretend`},
		{"hang", hang, "1s/move", `game 1: hang \(black\) vs random \(white\): random wins by time \(\d+-\d+\), 0 plies; hang: time, no move within 1s`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var out, errOut bytes.Buffer
			err := run(context.Background(), []string{"match", "othello", "-games", "2", "-time", tt.time, "-out", t.TempDir(), tt.player, "random"}, &out, &errOut)
			// A program that never started makes arena fail, after the games.
			if tt.name == "missing" {
				if !errors.Is(err, errNeverStarted) || !strings.Contains(err.Error(), "nothing-here could not start in any of its 2 games (program not found: ") {
					t.Errorf("error %v, want one naming the program that never started", err)
				}
			} else if err != nil {
				t.Fatalf("%v\n%s", err, errOut.String())
			}
			if !regexp.MustCompile(tt.want).MatchString(out.String()) {
				t.Errorf("output does not match %s:\n%s", tt.want, out.String())
			}
			if !strings.Contains(out.String(), "after 2 games") {
				t.Errorf("the match did not go on:\n%s", out.String())
			}
		})
	}
}

// BenchmarkMatchOthello plays random against random through a TUS server on
// loopback, both bots TCP clients: games/s with the protocol in the loop.
func BenchmarkMatchOthello(b *testing.B) {
	cfg := &matchConfig{Game: othelloDef(), Rules: "tus", Time: "10s/move", Stderr: io.Discard}
	r, err := newOthelloRunner(cfg)
	if err != nil {
		b.Fatal(err)
	}
	random, random2 := &playerSpec{Name: "random", Builtin: "random"}, &playerSpec{Name: "random-2", Builtin: "random"}
	benchGames(b, func(n int) gameResult {
		res := r.Play(context.Background(), benchJob(b, n, random, random2))
		if res.Reason != "discs" {
			b.Fatalf("game %d ended by %s, not on the board", n, res.Reason)
		}
		return res
	})
}

// TestMatchOthelloTranscriptNames checks that the -trans transcripts of a
// match name arena's players, black and white, whatever NICK the programs
// send (the replay page shows these names): built-ins, and a program named
// "alice" that sends NICK ex.
func TestMatchOthelloTranscriptNames(t *testing.T) {
	players := []string{"random", "greedy"}
	if !testing.Short() {
		players[1] = "alice=tcp:" + buildProgram(t, "examples/othello-random") + " -nick ex"
	}
	names := []string{"random", "greedy"}
	if !testing.Short() {
		names[1] = "alice"
	}
	out := t.TempDir()
	runArena(t, "match", "othello", "-games", "2", "-out", out, players[0], players[1])
	trans := recordsIn(out, "gamelog_*.txt")
	if len(trans) != 2 {
		t.Fatalf("transcripts: %q", trans)
	}
	var headers []string
	for _, path := range trans {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		header, _, _ := strings.Cut(string(b), "\n")
		headers = append(headers, filepath.Base(filepath.Dir(path))+": "+header)
	}
	want := []string{
		"001-" + names[0] + "-vs-" + names[1] + ": B:" + names[0] + ",W:" + names[1],
		"002-" + names[1] + "-vs-" + names[0] + ": B:" + names[1] + ",W:" + names[0],
	}
	if !slices.Equal(headers, want) {
		t.Errorf("transcript headers %q, want %q", headers, want)
	}
}

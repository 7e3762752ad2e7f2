package main

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestEndingWords: every ending reads back from its word, the words are
// distinct, and a draw never reads "draw by draw".
func TestEndingWords(t *testing.T) {
	seen := map[string]ending{}
	for e := range numEndings {
		got, err := parseEnding(e.String())
		if err != nil || got != e {
			t.Errorf("parseEnding(%q) = %v, %v; want %v", e.String(), got, err, e)
		}
		if prev, ok := seen[e.String()]; ok {
			t.Errorf("%v and %v share the word %q", prev, e, e.String())
		}
		seen[e.String()] = e
		if e != endNone && (e.String() == "draw" || e.String() != strings.ToLower(e.String())) {
			t.Errorf("ending %d is %q, not a plain lowercase word", e, e.String())
		}
		if e != endNone && !strings.Contains(endingsHelp, "  "+e.String()+"  ") && !strings.Contains(endingsHelp, "  "+e.String()+"\n") {
			t.Errorf("arena help results does not list %q", e.String())
		}
	}
	if _, err := parseEnding("by the moon"); err == nil {
		t.Error("parseEnding read an unknown word")
	}
	// The platforms' words of earlier results.tsv files.
	for word, want := range map[string]ending{"discs": endDiscs, "ChessEscape": endEscape, "NoEatFlipDraw": endNoProgress, "TimeOut": endTime, "draw": endScore, "violation": endProtocol} {
		if got, err := parseEnding(word); err != nil || got != want {
			t.Errorf("parseEnding(%q) = %v, %v; want %v", word, got, err, want)
		}
	}
	res := gameResult{Winner: -1, Ending: endScore, Detail: "points/islands/bridges white 1/1/1, black 1/1/1"}
	if got := endingStatus([2]string{"a", "b"}, res); !strings.HasPrefix(got, "draw by score (") {
		t.Errorf("a tied PDD game reads %q", got)
	}
}

// TestEndingFaultDecides: a fault of the loser decides the ending, whatever
// the platform's rules say; a game without one keeps the rules' ending.
func TestEndingFaultDecides(t *testing.T) {
	for k := faultStart; k <= faultProtocol; k++ {
		res := gameResult{Winner: 1}
		res.Faults[0] = fault{Kind: k, Reason: "why"}
		if got := settleEnding(res, endTime); got != k.ending() || got.String() != k.String() {
			t.Errorf("a loss by %v ends by %v", k, got)
		}
		if f := parseFault(res.Faults[0].String()); f != res.Faults[0] {
			t.Errorf("fault %q reads back as %+v", res.Faults[0].String(), f)
		}
	}
	if got := settleEnding(gameResult{Winner: 0}, endEscape); got != endEscape {
		t.Errorf("a game by the rules ends by %v", got)
	}
	if got := settleEnding(gameResult{Winner: -2}, endEscape); got != endNone {
		t.Errorf("an unfinished game ends by %v", got)
	}
	// Earlier arenas' fault words still read.
	if f := parseFault("crashed: exit status 3"); f != (fault{Kind: faultCrash, Reason: "exit status 3"}) {
		t.Errorf("an earlier fault reads as %+v", f)
	}
	if f := parseFault("disconnected: left"); f != (fault{Kind: faultProtocol, Reason: "left"}) {
		t.Errorf("an earlier fault reads as %+v", f)
	}
}

// TestEndingSameInEveryGame: a program that cannot start, one that exits
// with a non-zero status and one killed by a signal lose by the same word
// in the four games and each of their protocols ("start failure", "crash",
// "crash"), in the result line and in results.tsv read back; the result
// line names the record under the run's directory in every game that has
// one (an Othello game whose program never connected has no transcript).
func TestEndingSameInEveryGame(t *testing.T) {
	if testing.Short() {
		t.Skip("plays games with real programs")
	}
	dir := t.TempDir()
	exit3 := writeScript(t, dir, "exit3", "echo 'pretend segfault' >&2; exit 3")
	killed := writeScript(t, dir, "killed", "kill -KILL $$")
	missing := filepath.Join(dir, "no-such-program")
	games := []struct{ game, proto string }{
		{"othello", "tcp"}, {"geister", "stdio"}, {"geister", "tcp"},
		{"darkchess", "mgtp"}, {"darkchess", "legacy"}, {"darkchess", "readmode"}, {"pdd", "strategy"},
	}
	faults := []struct {
		name, path string
		want       ending
	}{
		{"missing", missing, endStart},
		{"exit3", exit3, endCrash},
		{"killed", killed, endCrash},
	}
	for _, g := range games {
		for _, f := range faults {
			t.Run(g.game+"/"+g.proto+"/"+f.name, func(t *testing.T) {
				t.Parallel()
				out := t.TempDir()
				var stdout, stderr bytes.Buffer
				args := []string{"match", g.game, "-games", "1", "-out", out, "bad=" + g.proto + ":" + f.path, "random"}
				if g.game == "othello" {
					args = append(args, "-time", "60s/move")
				}
				err := run(context.Background(), args, &stdout, &stderr)
				if f.want != endStart && err != nil || f.want == endStart && !errors.Is(err, errNeverStarted) {
					t.Fatalf("%v\n%s", err, stderr.String())
				}
				line := regexp.MustCompile(`(?m)^game 1: .*$`).FindString(stdout.String())
				want := regexp.MustCompile(`^game 1: bad \(\w+\) vs random \(\w+\): random wins by ` + f.want.String() + `\b.*; bad: ` + f.want.String() + `, .*; record ` + regexp.QuoteMeta(out) + `/[^/]+/[^/]+$`)
				if g.game == "othello" {
					// No transcript: the game never began on the server.
					want = regexp.MustCompile(`^game 1: bad \(\w+\) vs random \(\w+\): random wins by ` + f.want.String() + `, 0 plies; bad: ` + f.want.String() + `, [^;]*(; stderr: .*)?$`)
				}
				if !want.MatchString(line) {
					t.Errorf("the result line\n%s\ndoes not match %s\n(all: %s)", line, want, stdout.String())
				}
				stored, err := readResults(out)
				if err != nil {
					t.Fatal(err)
				}
				if s := stored[1]; s.Result.Ending != f.want || s.Result.Winner != 1 || s.Result.Faults[0].Kind.ending() != f.want {
					t.Errorf("results.tsv reads back %+v", s.Result)
				}
				if !strings.Contains(stdout.String(), "Endings: 1 "+f.want.String()) {
					t.Errorf("the summary does not count the ending:\n%s", stdout.String())
				}
			})
		}
	}
}

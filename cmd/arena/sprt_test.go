package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/botarena/botarena/sprt"
)

// TestSPRTFlags: -sprt's errors name the bad part; the cap defaults to
// defaultSPRTGames, must be even and goes with swapped seats only; the
// tournament has no -sprt; run.json keeps the test.
func TestSPRTFlags(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"match", "othello", "-sprt", "elo0=0,elo1=x"}, `"elo1=x": "x" is not a number`},
		{[]string{"match", "othello", "-sprt", "elo0=0,elo1=5,alfa=0.1"}, `"alfa=0.1": unknown key`},
		{[]string{"match", "othello", "-sprt", "elo0=0"}, `no elo1`},
		{[]string{"match", "othello", "-sprt", "elo0=5,elo1=0"}, `elo0 must be below elo1`},
		{[]string{"match", "othello", "-sprt", "elo0=0,elo1=5", "-games", "7"}, `-games 7: with -sprt`},
		{[]string{"match", "othello", "-sprt", "elo0=0,elo1=5", "-swap=false"}, `-swap=false`},
		{[]string{"tournament", "othello", "random", "greedy", "-sprt", "elo0=0,elo1=5"}, `flag provided but not defined: -sprt`},
	} {
		args := append(c.args, "-out", t.TempDir())
		var stderr bytes.Buffer
		err := run(t.Context(), args, new(bytes.Buffer), &stderr)
		if err == nil || !strings.Contains(err.Error()+stderr.String(), c.want) {
			t.Errorf("arena %q: error %v (%s), want one saying %s", c.args, err, stderr.String(), c.want)
		}
	}
	def, err := findGame("othello")
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "run")
	pr, err := prepareRun("match", def, []string{"-sprt", "elo0=0 elo1=5", "-out", dir}, new(bytes.Buffer), new(bytes.Buffer))
	if err != nil {
		t.Fatal(err)
	}
	defer pr.close()
	if pr.cfg.Games != defaultSPRTGames || pr.o.sprt.test == nil || *pr.o.sprt.test != (sprt.Test{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05}) {
		t.Errorf("-sprt without -games: %d games, test %v; want %d and elo0=0,elo1=5", pr.cfg.Games, pr.o.sprt.test, defaultSPRTGames)
	}
	rec, err := readRunRecord(dir)
	if err != nil {
		t.Fatal(err)
	}
	if got := rec.Flags["sprt"]; got != "elo0=0,elo1=5,alpha=0.05,beta=0.05" {
		t.Errorf("run.json keeps -sprt as %q", got)
	}
	if _, ok := rec.Flags["games"]; ok {
		t.Errorf("run.json has -games %q, which was not given", rec.Flags["games"])
	}
}

// sprtVerdictRE finds the verdict line of a match's output: the verdict
// and the pairs counted when it was reached.
var sprtVerdictRE = regexp.MustCompile(`(?m)^SPRT .*: (H[01] accepted) after (\d+) pairs`)

// sprtPtnml is the Ptnml line of a match's output.
var sprtPtnmlRE = regexp.MustCompile(`(?m)^  Ptnml\(0-2\): \[(\d+), (\d+), (\d+), (\d+), (\d+)\]`)

// ptnmlOf reads the pentanomial a match printed.
func ptnmlOf(t *testing.T, out string) sprt.Pentanomial {
	t.Helper()
	m := sprtPtnmlRE.FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no Ptnml line in:\n%s", out)
	}
	var p sprt.Pentanomial
	for i := range p {
		p[i], _ = strconv.Atoi(m[i+1])
	}
	return p
}

// TestSPRTStrongerAcceptsH1 plays greedy against random at Othello until
// the test [0, 50] in normalized Elo decides. greedy scores about 65%
// against random, about +120 normalized Elo (measured: +124 ± 73 over 44
// pairs), far above elo1; with α = β = 0.001 (bounds ±6.9) the LLR drifts
// up by about 0.08 a pair with a standard deviation of about 0.2, so the
// chance of ever reaching -6.9 first is below 1e-10 (Wald's bound for a
// Brownian motion, e^(-2·drift·6.9/variance)), and the expected 90 pairs
// are far within the cap of 1000. So every seed accepts H1.
func TestSPRTStrongerAcceptsH1(t *testing.T) {
	t.Parallel()
	for _, jobs := range []string{"3"} { // TestSPRTResume plays with -j 1
		t.Run("j"+jobs, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "run")
			out := runArena(t, "match", "othello", "greedy", "random", "-sprt", "elo0=0,elo1=50,alpha=0.01,beta=0.01",
				"-games", "2000", "-time", "none", "-j", jobs, "-out", dir)
			m := sprtVerdictRE.FindStringSubmatch(out)
			if m == nil || m[1] != "H1 accepted" {
				t.Fatalf("no H1:\n%s", out)
			}
			atVerdict, _ := strconv.Atoi(m[2])
			p := ptnmlOf(t, out)
			games, err := readResults(dir)
			if err != nil {
				t.Fatal(err)
			}
			// Every game played is in a counted pair, and after the
			// verdict at most the pairs under way (one per worker) were
			// completed.
			if len(games) != 2*p.Pairs() {
				t.Errorf("%d games in results.tsv, %d pairs counted", len(games), p.Pairs())
			}
			if n, _ := strconv.Atoi(jobs); p.Pairs() < atVerdict || p.Pairs() > atVerdict+n {
				t.Errorf("verdict after %d pairs, %d pairs played with -j %d", atVerdict, p.Pairs(), n)
			}
			// The pairs are the games' results from greedy's side.
			var want sprt.Pentanomial
			for n := 1; n < 2*p.Pairs(); n += 2 {
				want.Add(resultFor(games[n], "greedy"), resultFor(games[n+1], "greedy"))
			}
			if want != p {
				t.Errorf("Ptnml %v printed, %v in results.tsv", p, want)
			}
			if strings.Count(out, "SPRT: llr ") != p.Pairs() {
				t.Errorf("%d LLR lines for %d pairs", strings.Count(out, "SPRT: llr "), p.Pairs())
			}
		})
	}
}

// resultFor is a stored game's result for the player called name.
func resultFor(g storedGame, name string) sprt.Result {
	switch {
	case g.Result.Winner == -1:
		return sprt.Draw
	case g.Result.Winner >= 0 && g.Seats[g.Result.Winner] == name:
		return sprt.Win
	}
	return sprt.Loss
}

// TestSPRTSameBotNoQuickH1: two copies of random never accept H1 of a [0,
// 50] test within 20 pairs: even with every pair won by one side the LLR
// needs 17 pairs to reach the bound, and random against itself wins a
// pair 2-0 about one time in four, so 17 such pairs of 20 have a chance
// below 1e-7.
func TestSPRTSameBotNoQuickH1(t *testing.T) {
	out := runArena(t, "match", "othello", "random", "random", "-sprt", "elo0=0,elo1=50", "-games", "40", "-time", "none", "-out", filepath.Join(t.TempDir(), "run"))
	if m := sprtVerdictRE.FindStringSubmatch(out); m != nil && m[1] == "H1 accepted" {
		t.Fatalf("random vs random accepted H1:\n%s", out)
	}
	if p := ptnmlOf(t, out); p.Pairs() == 0 || p.Pairs() > 20 {
		t.Errorf("%d pairs counted of a cap of 20", p.Pairs())
	}
	matchAll(t, out, `(no verdict after 20 pairs \(the cap, -games 40\)|H0 accepted after \d+ pairs)`)
}

// TestSPRTResume: a match with -sprt cut short (its results.tsv ending in
// the middle of a pair, as a kill leaves it) and resumed ends as the whole
// match did: the LLR is recomputed from results.tsv, the half pair is
// completed, and the run stops at the same verdict.
func TestSPRTResume(t *testing.T) {
	dir := t.TempDir()
	args := []string{"match", "othello", "greedy", "random", "-sprt", "elo0=0,elo1=50", "-games", "400", "-seed", "5", "-time", "none"}
	whole := runArena(t, append(args, "-out", filepath.Join(dir, "whole"))...)
	m := sprtVerdictRE.FindStringSubmatch(whole)
	if m == nil {
		t.Skipf("seed 5 gave no verdict within the cap:\n%s", whole)
	}
	// The run cut short: its run.json, and its results.tsv with the
	// header and the first 7 games, pairs 1-3 and half of 4, whose
	// directories it keeps.
	cut := filepath.Join(dir, "cut")
	if err := os.Mkdir(cut, 0o755); err != nil {
		t.Fatal(err)
	}
	kept, _ := filepath.Glob(filepath.Join(dir, "whole", "00[1-7]-*"))
	if len(kept) != 7 {
		t.Fatalf("game directories %q", kept)
	}
	for _, d := range kept {
		copyDir(t, d, filepath.Join(cut, filepath.Base(d)))
	}
	run, err := os.ReadFile(filepath.Join(dir, "whole", runFileName))
	if err == nil {
		err = os.WriteFile(filepath.Join(cut, runFileName), run, 0o644)
	}
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, "whole", resultsFileName))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	if len(lines) < 9 {
		t.Fatalf("%d lines in results.tsv", len(lines))
	}
	if err := os.WriteFile(filepath.Join(cut, resultsFileName), []byte(strings.Join(lines[:8], "")), 0o644); err != nil {
		t.Fatal(err)
	}
	resumed := runArena(t, "match", "-resume", cut)
	matchAll(t, resumed, `Resumed: 7 of 400 games were played before`)
	if r := sprtVerdictRE.FindStringSubmatch(resumed); r == nil || r[0] != m[0] {
		t.Errorf("whole run: %q; resumed: %q\n%s", m, r, resumed)
	}
	if w, r := ptnmlOf(t, whole), ptnmlOf(t, resumed); w != r {
		t.Errorf("whole run's Ptnml %v, resumed run's %v", w, r)
	}
	if !strings.Contains(resumed, "SPRT: llr ") || strings.Contains(resumed, "not counted") {
		t.Errorf("resumed run:\n%s", resumed)
	}
}

// TestSPRTRunPairs drives sprtRun with games by hand: a pair counts when
// both its games end, in any order; a pair with an unfinished game does
// not count and is reported; after a verdict only a pair already begun is
// completed.
func TestSPRTRunPairs(t *testing.T) {
	a, b := &playerSpec{Name: "a"}, &playerSpec{Name: "b"}
	game := func(index, winner int) *finished {
		seats := [2]*playerSpec{a, b}
		if index%2 == 1 {
			seats = [2]*playerSpec{b, a}
		}
		return &finished{job: &gameJob{N: index + 1, Index: index, Seats: seats}, result: gameResult{Winner: winner}}
	}
	var out bytes.Buffer
	s := newSPRTRun(sprt.Test{Elo0: 0, Elo1: 200, Alpha: 0.05, Beta: 0.05}, a, b, &out)
	s.header(40)
	s.done(game(1, 1)) // a wins with the second seat: half a pair
	if s.penta.Pairs() != 0 {
		t.Fatalf("half a pair counted: %v", s.penta)
	}
	s.done(game(0, -1)) // a draw: pair 1 is worth 1½
	s.done(game(2, -2)) // unfinished: pair 2 is lost
	s.done(game(3, 1))
	if want := (sprt.Pentanomial{3: 1}); s.penta != want {
		t.Errorf("Ptnml %v, want %v", s.penta, want)
	}
	matchAll(t, out.String(), `SPRT: llr -?\d+\.\d\d \(-2\.94, 2\.94\) \[elo0 0, elo1 200\] pairs 1\n`, `SPRT: game 3 unfinished: pair 2 not counted`)
	for i := 4; s.verdict == sprt.Continue; i += 2 {
		if s.stop(game(i, 0)) || s.stop(game(i+1, 1)) {
			t.Fatalf("stopped before a verdict at game %d", i+1)
		}
		s.done(game(i, 0))
		s.done(game(i+1, 1))
	}
	if s.verdict != sprt.AcceptH1 {
		t.Fatalf("verdict %v after a won every pair", s.verdict)
	}
	n := 2 * (s.penta.Pairs() + 2)
	if !s.stop(game(n, 0)) {
		t.Errorf("a new pair starts after the verdict")
	}
	s.launched[(n+2)/2] = true // its first game began before the verdict
	if s.stop(game(n+3, 0)) {
		t.Errorf("the second game of a pair begun is not started after the verdict")
	}
	out.Reset()
	s.summary(false)
	matchAll(t, out.String(), `H1 accepted after \d+ pairs`, `Ptnml\(0-2\): \[0, 0, 0, 1, \d+\]`, `1 pair not counted`)
}

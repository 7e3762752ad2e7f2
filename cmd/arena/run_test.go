package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/botarena/botarena/internal/longtest"
	"pgregory.net/rapid"
)

// playedGames runs "arena <args> -out DIR" in this process and returns the
// games of results.tsv by number, with DIR.
func playedGames(t *testing.T, args ...string) (map[int]storedGame, string) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "run")
	runArena(t, append(args, "-out", dir)...)
	games, err := readResults(dir)
	if err != nil {
		t.Fatal(err)
	}
	return games, dir
}

// gameMoves is the moves of a game's record, read back by the game's replay.
func gameMoves(t *testing.T, def *gameDef, g storedGame) string {
	t.Helper()
	data, err := os.ReadFile(g.Result.Record)
	if err != nil {
		t.Fatalf("game %d: %v", g.N, err)
	}
	rp, err := replayRecord(def.Name, filepath.Base(g.Result.Record), data)
	if err != nil {
		t.Fatalf("game %d: %s: %v", g.N, g.Result.Record, err)
	}
	return strings.Join(rp.Moves, " ")
}

// TestGamesDiffer: for every game, the games of one pairing between two
// copies of one built-in are all different games, and (in the long tier)
// the same -seed plays the same games again: 4 games (two pairs), of PDD 2
// in the quick tier (a program started per move).
func TestGamesDiffer(t *testing.T) {
	for _, def := range gameDefs() {
		t.Run(def.Name, func(t *testing.T) {
			skipPDDUnderRace(t, def)
			t.Parallel()
			const seed = "20261125"
			n := 4
			if def.Name == "pdd" {
				n = longtest.Pick(2, 4)
			}
			args := []string{"match", def.Name, "random", "random", "-games", fmt.Sprint(n), "-seed", seed, "-time", "none", "-j", "2"}
			first, _ := playedGames(t, args...)
			again := first
			if longtest.Enabled() {
				// The quick tier leaves the same seed's games played
				// again to TestShardsMergeAsOneRun, whose one run and
				// merged shards must write the same records.
				again, _ = playedGames(t, args...)
			}
			seen := map[string]int{}
			for i := 1; i <= n; i++ {
				g, ok := first[i]
				if !ok || g.Result.Winner < -1 {
					t.Fatalf("game %d: %+v", i, g)
				}
				moves := gameMoves(t, def, g)
				if j, dup := seen[moves]; dup {
					t.Errorf("games %d and %d of one pairing are the same game: %s", j, i, moves)
				}
				seen[moves] = i
				if other := gameMoves(t, def, again[i]); other != moves {
					t.Errorf("game %d with -seed %s again is another game:\n%s\n%s", i, seed, moves, other)
				}
			}
		})
	}
}

// TestStrongBeatsRandom: in every game the strongest built-in that answers
// at once (alphabeta for Othello, greedy for the others) beats random by a
// wide margin, colours swapped. The long tier plays 40 games and wants at
// least 34 wins (85%; each wins all 40 with this seed today); the quick tier
// plays the first pair and wants both. The games replay from the seed, so
// the test does not depend on luck. (mcts, the strongest, searches for a
// while on each move: TestSearchBotsBeatRandom plays fewer games with it.)
func TestStrongBeatsRandom(t *testing.T) {
	games, atLeast := longtest.Pick(2, 40), longtest.Pick(2, 34)
	for _, def := range gameDefs() {
		t.Run(def.Name, func(t *testing.T) {
			if def.Name == "pdd" && testing.Short() {
				t.Skip("-short: PDD games start a program per move")
			}
			skipPDDUnderRace(t, def)
			t.Parallel()
			strong := "greedy"
			if def.Name == "othello" {
				strong = "alphabeta"
			}
			played, _ := playedGames(t, "match", def.Name, strong, "random", "-games", fmt.Sprint(games), "-seed", "7", "-time", "none", "-j", "2")
			wins := 0
			for _, g := range played {
				if g.Result.Winner >= 0 && g.Seats[g.Result.Winner] == strong {
					wins++
				}
			}
			if len(played) != games || wins < atLeast {
				t.Errorf("%s won %d of %d games against random, want at least %d of %d", strong, wins, len(played), atLeast, games)
			}
		})
	}
}

// TestSearchBotsBeatRandom: in every game the search built-ins (mcts, and
// PDD's alphabeta and dark chess's expecti, which are also their best)
// beat random in nearly every game, colours swapped (each wins all its
// games with this seed today, PDD's mcts 3 of 4). Under -time none they
// search a fixed number of playouts or a fixed depth a move, so the games
// replay from the seed and the test does not depend on luck or on the
// machine's speed. The long tier plays 10 games (PDD 4) and wants 8 wins (3);
// the quick tier plays the first pair and wants both won, of the quicker
// bots: search's quick tier has expecti's and Geister's mcts players beat
// random (TestDarkChessExpectimaxPlayerBeatsRandom,
// TestGeisterPlayerBeatsRandom), and the long tier plays them here.
func TestSearchBotsBeatRandom(t *testing.T) {
	for _, c := range []struct{ game, bot string }{
		{"othello", "mcts"}, {"othello", "best"}, {"geister", "mcts"}, {"darkchess", "mcts"}, {"pdd", "mcts"},
		{"darkchess", "expecti"}, {"pdd", "alphabeta"},
	} {
		def, err := findGame(c.game)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(c.game+"/"+c.bot, func(t *testing.T) {
			if c.bot == "expecti" || c.game == "geister" {
				longtest.Skip(t, "a few seconds of search a game")
			}
			games, atLeast := longtest.Pick(2, 10), longtest.Pick(2, 8)
			if def.Name == "pdd" {
				if testing.Short() {
					t.Skip("-short: PDD games start a program per move")
				}
				games, atLeast = longtest.Pick(2, 4), longtest.Pick(2, 3)
			}
			skipPDDUnderRace(t, def)
			t.Parallel()
			if !slices.Contains(def.Builtins, c.bot) {
				t.Fatalf("%s is not a built-in: %v", c.bot, def.Builtins)
			}
			played, _ := playedGames(t, "match", def.Name, c.bot, "random", "-games", fmt.Sprint(games), "-seed", "7", "-time", "none", "-j", "2")
			wins := 0
			for _, g := range played {
				if g.Result.Winner >= 0 && g.Seats[g.Result.Winner] == c.bot {
					wins++
				}
			}
			if len(played) != games || wins < atLeast {
				t.Errorf("%s won %d of %d games against random, want at least %d of %d", c.bot, wins, len(played), atLeast, games)
			}
		})
	}
}

// skipPDDUnderRace skips a test of many PDD games under -race, where each
// move starts the race-built test binary as a built-in (about half a
// second): the games are the same without -race, and the race detector
// watches the referee in the other PDD tests.
func skipPDDUnderRace(t *testing.T, def *gameDef) {
	if def.Name == "pdd" && raceEnabled {
		t.Skip("-race: a PDD game starts a race-built program per move; run without -race")
	}
}

// TestBotSeed: the seeds of a game's two seats, and of the games of a
// pairing, all differ, and depend on nothing but the job.
func TestBotSeed(t *testing.T) {
	seen := map[uint64]string{}
	for pairSeed := range uint64(3) {
		for index := range 50 {
			for seat := range 2 {
				j := &gameJob{Seed: pairSeed, Index: index}
				s := j.botSeed(seat)
				key := fmt.Sprintf("pairing seed %d, game %d, seat %d", pairSeed, index, seat)
				if other, dup := seen[s]; dup {
					t.Fatalf("%s and %s get seed %d", other, key, s)
				}
				seen[s] = key
				if again := (&gameJob{Seed: pairSeed, Index: index, N: 99}).botSeed(seat); again != s {
					t.Fatalf("%s: seed %d, then %d", key, s, again)
				}
			}
		}
	}
}

// TestResultsLineRoundTrip: a line of results.tsv reads back as the game it
// was written from.
func TestResultsLineRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		text := rapid.StringMatching(`[a-z0-9 .:/()-]{0,20}`)
		name := rapid.StringMatching(`[a-z][a-z0-9-]{0,10}`)
		seats := [2]*playerSpec{{Name: name.Draw(t, "first")}, {Name: name.Draw(t, "second")}}
		g := &finished{
			pair: pairing{index: rapid.IntRange(0, 50).Draw(t, "pairing")},
			job:  &gameJob{N: rapid.IntRange(1, 1000).Draw(t, "n"), Index: rapid.IntRange(0, 99).Draw(t, "index"), Seats: seats},
			result: gameResult{
				Winner: rapid.IntRange(-2, 1).Draw(t, "winner"),
				Detail: text.Draw(t, "detail") + "\ttab\nline",
				Plies:  rapid.IntRange(0, 500).Draw(t, "plies"), Record: text.Draw(t, "record"),
			},
		}
		for s := range 2 {
			if k := faultKind(rapid.IntRange(0, int(faultProtocol)).Draw(t, "kind")); k != noFault {
				g.result.Faults[s] = fault{Kind: k, Reason: text.Draw(t, "fault")}
			}
			g.result.Fallbacks[s] = rapid.IntRange(0, 40).Draw(t, "fallbacks")
		}
		// The ending as a runner settles it: the loser's fault, if any.
		g.result.Ending = settleEnding(g.result, ending(rapid.IntRange(0, int(numEndings)-1).Draw(t, "ending")))
		back, err := parseResultsLine(resultsLine(g))
		if err != nil {
			t.Fatal(err)
		}
		want := g.result
		want.Detail = tsvField(want.Detail)
		if back.N != g.job.N || back.Index != g.job.Index || back.Pairing != g.pair.index || back.Seats != [2]string{seats[0].Name, seats[1].Name} ||
			back.Result.Winner != want.Winner || back.Result.Ending != want.Ending || back.Result.Detail != want.Detail ||
			back.Result.Plies != want.Plies || back.Result.Record != want.Record || back.Result.Faults != want.Faults ||
			back.Result.Fallbacks != want.Fallbacks {
			t.Fatalf("wrote %+v\nread  %+v", g.result, back.Result)
		}
	})
}

// TestReadResultsKeepsFinishedLines: a line cut short by a kill is ignored,
// a later line of a game wins, and a malformed line is an error naming it.
func TestReadResultsKeepsFinishedLines(t *testing.T) {
	dir := t.TempDir()
	line := func(n int, result string) string {
		return fmt.Sprintf("%d\t0\t%d\ta\tb\t%s\ta\tdiscs\t\t60\t\t\trec\t0\t0", n, n-1, result)
	}
	write := func(s string) {
		if err := os.WriteFile(filepath.Join(dir, resultsFileName), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(resultsHeader + "\n" + line(1, "1-0") + "\n" + line(2, "*") + "\n" + line(2, "0-1") + "\n" + line(3, "1-0")[:20])
	games, err := readResults(dir)
	if err != nil || len(games) != 2 || games[1].Result.Winner != 0 || games[2].Result.Winner != 1 {
		t.Errorf("read %+v, %v", games, err)
	}
	write(resultsHeader + "\n" + line(1, "1-0") + "\n" + "garbage\n")
	if _, err := readResults(dir); err == nil || !strings.Contains(err.Error(), resultsFileName+":3:") {
		t.Errorf("a malformed line: %v", err)
	}
}

// TestResultsWithoutFallbacks: the results.tsv of an earlier arena, whose
// lines end at record, is read with no fallback moves; a run resumed there
// appends its lines in that layout, and the file still reads. A line
// whose column count is not its header's is an error.
func TestResultsWithoutFallbacks(t *testing.T) {
	dir := t.TempDir()
	old := func(n int, result string) string {
		return fmt.Sprintf("%d\t0\t%d\ta\tb\t%s\ta\tdiscs\t\t60\t\t\trec", n, n-1, result)
	}
	for _, header := range []string{oldResultsHeader} {
		path := filepath.Join(dir, resultsFileName)
		if err := os.WriteFile(path, []byte(header+"\n"+old(1, "1-0")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		log, err := openResultsAt(t, dir)
		if err != nil {
			t.Fatal(err)
		}
		seats := [2]*playerSpec{{Name: "a"}, {Name: "b"}}
		err = log.add(&finished{job: &gameJob{N: 2, Index: 1, Seats: seats}, result: gameResult{Winner: 1, Ending: endDiscs, Plies: 60, Record: "rec", Fallbacks: [2]int{0, 4}}})
		log.Close()
		if err != nil {
			t.Fatal(err)
		}
		games, err := readResults(dir)
		if err != nil || len(games) != 2 || games[1].Result.Winner != 0 || games[2].Result.Winner != 1 || games[1].Result.Fallbacks != [2]int{} {
			t.Errorf("%s: read %+v, %v", header, games, err)
		}
		for i, line := range strings.Split(strings.TrimSuffix(string(mustRead(t, path)), "\n"), "\n") {
			if n := strings.Count(line, "\t"); n != 12 {
				t.Errorf("%s: line %d has %d tabs, its header 12: %q", header, i+1, n, line)
			}
		}
	}
	// A new file: the fallbacks columns, read back.
	dir = t.TempDir()
	log, err := openResultsAt(t, dir)
	if err != nil {
		t.Fatal(err)
	}
	seats := [2]*playerSpec{{Name: "a"}, {Name: "b"}}
	err = log.add(&finished{job: &gameJob{N: 1, Seats: seats}, result: gameResult{Winner: 0, Ending: endDiscs, Fallbacks: [2]int{3, 0}}})
	log.Close()
	games, rerr := readResults(dir)
	if err != nil || rerr != nil || games[1].Result.Fallbacks != [2]int{3, 0} {
		t.Errorf("read %+v, %v, %v", games, err, rerr)
	}
	if err := os.WriteFile(filepath.Join(dir, resultsFileName), []byte(resultsHeader+"\n"+old(1, "1-0")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := readResults(dir); err == nil || !strings.Contains(err.Error(), "13 fields, want 15") {
		t.Errorf("a short line under the new header: %v", err)
	}
}

// TestResumeCommandLine: -resume takes the run from its directory and
// refuses what would change its games; a new run refuses a directory that
// holds one; a finished run resumed plays nothing and ends as it did.
func TestResumeCommandLine(t *testing.T) {
	games, dir := playedGames(t, "match", "othello", "greedy", "random", "-games", "3", "-time", "none")
	if len(games) != 3 {
		t.Fatalf("%d games", len(games))
	}
	for _, args := range [][]string{
		{"match", "othello", "-resume", dir, "random"},
		{"match", "othello", "-resume", dir, "-games", "4"},
		{"tournament", "-resume", dir},
		{"match", "geister", "-resume", dir},
		{"match", "othello", "-out", dir},
		{"match", "-resume", t.TempDir()},
	} {
		if err := run(t.Context(), args, new(strings.Builder), new(strings.Builder)); err == nil {
			t.Errorf("arena %q: no error", args)
		}
	}
	before := runSummary(t, dir)
	out := runArena(t, "match", "-resume", dir, "-j", "2")
	matchAll(t, out, `Resumed: 3 of 3 games were played before; playing the other 0\.`, `greedy +\d+ wins`)
	if after := runSummary(t, dir); after != before {
		t.Errorf("results.txt before:\n%s\nafter resuming a finished run:\n%s", before, after)
	}
}

// runSummary reads a run's results.txt.
func runSummary(t *testing.T, dir string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, summaryFileName))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// tableOf is the table at the end of a tournament's output.
func tableOf(out string) string {
	if i := strings.Index(out, "\nRank "); i >= 0 {
		return out[i:]
	}
	return ""
}

// TestTournamentResumeAfterKill kills a real arena with SIGKILL in the
// middle of a tournament, resumes it, and checks that it played only the
// unplayed games and ends with the table of an uninterrupted run with the
// same seed.
func TestTournamentResumeAfterKill(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: plays a tournament twice")
	}
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	args := []string{"tournament", "othello", "random", "greedy", "alphabeta", "-games", "4", "-j", "1", "-seed", "99", "-time", "none"}
	whole, err := arenaCommand(t, ctx, dir, append(args, "-out", "whole")...).Output()
	if err != nil {
		t.Fatalf("%v\n%s", err, whole)
	}

	// The same run, killed once a few games are in results.tsv.
	cmd := arenaCommand(t, ctx, dir, append(args, "-out", "cut")...)
	progress, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(progress)
	for done := 0; done < 5 && sc.Scan(); {
		if strings.HasPrefix(sc.Text(), "[") { // a progress line: a game has ended and is in results.tsv
			done++
		}
	}
	cmd.Process.Signal(syscall.SIGKILL)
	err = cmd.Wait()
	var ee interface{ ExitCode() int }
	if !errors.As(err, &ee) || ee.ExitCode() != -1 {
		t.Fatalf("the killed run: %v", err)
	}
	cut, err := readResults(filepath.Join(dir, "cut"))
	if err != nil || len(cut) < 5 || len(cut) >= 12 {
		t.Fatalf("after the kill results.tsv holds %d games (%v), want 5 to 11 of 12", len(cut), err)
	}
	// The killed run's hold is stale: its file names it, and the resume
	// takes it over.
	if b, err := os.ReadFile(filepath.Join(dir, "cut", lockFileName)); err != nil || !strings.Contains(string(b), fmt.Sprintf("pid %d ", cmd.Process.Pid)) {
		t.Errorf("after the kill %s holds %q (%v), want the killed run's pid %d", lockFileName, b, err, cmd.Process.Pid)
	}

	out, err := arenaCommand(t, ctx, dir, "tournament", "-resume", "cut").Output()
	if err != nil {
		t.Fatalf("resume: %v\n%s", err, out)
	}
	matchAll(t, string(out), fmt.Sprintf(`Resumed: %d of 12 games were played before; playing the other %d\.`, len(cut), 12-len(cut)))
	if w, r := tableOf(string(whole)), tableOf(string(out)); w == "" || w != r {
		t.Errorf("table of the whole run:%s\ntable of the resumed run:%s", w, r)
	}
	wholeGames, err1 := readResults(filepath.Join(dir, "whole"))
	resumed, err2 := readResults(filepath.Join(dir, "cut"))
	if err1 != nil || err2 != nil || len(resumed) != 12 {
		t.Fatalf("%v, %v, %d games", err1, err2, len(resumed))
	}
	for n, g := range wholeGames {
		r := resumed[n]
		if r.Seats != g.Seats || r.Result.Winner != g.Result.Winner || r.Result.Detail != g.Result.Detail || r.Result.Plies != g.Result.Plies {
			t.Errorf("game %d: whole run %+v, resumed %+v", n, g, r)
		}
		if c, ok := cut[n]; ok && c.Result.Record != r.Result.Record {
			t.Errorf("game %d was played again after the kill", n)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "cut", lockFileName)); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("after the resumed run ended, %s: %v; want it removed", lockFileName, err)
	}
	// Every game's directory holds exactly one record: none is left over
	// from the game the kill cut short.
	for n := range 12 {
		files, _ := filepath.Glob(filepath.Join(dir, "cut", fmt.Sprintf("%03d-*", n+1), "gamelog_*.txt"))
		if len(files) != 1 {
			t.Errorf("game %d: records %q", n+1, files)
		}
	}
}

package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/botarena/botarena/internal/fsguard"
)

// gameFileName is arena's record of a game in its directory, written when
// the game ends, beside result.txt and before the game's line of
// results.tsv: the run the game was played in (run.json as it was then)
// and the game's line. -resume and arena merge take a game's result from
// results.tsv only when the game's own record says the same, and only for
// a run.json that is still the one its games were played in.
const gameFileName = "game.json"

// gameRecord is game.json.
type gameRecord struct {
	Version int        `json:"version"` // 1
	Game    int        `json:"game"`    // the game's number in its run
	Run     *runRecord `json:"run"`     // the run it was played in
	Line    string     `json:"line"`    // its line of results.tsv (resultsHeader's layout)
}

// writeGameRecord writes g's game.json, of the run rec, into its directory
// name within root.
func writeGameRecord(root *os.Root, name string, rec *runRecord, g *finished) error {
	b, err := json.MarshalIndent(gameRecord{Version: 1, Game: g.job.N, Run: rec, Line: resultsLine(g)}, "", "  ")
	if err != nil {
		return err
	}
	return writeInRoot(root, filepath.Join(name, gameFileName), append(b, '\n'))
}

// storedLine is the line of results.tsv that s was read from, in
// resultsHeader's layout, so that lines are compared whatever layout they
// were read in.
func storedLine(s storedGame) string {
	return resultsLine(&finished{
		job:    &gameJob{N: s.N, Index: s.Index, Seats: [2]*playerSpec{{Name: s.Seats[0]}, {Name: s.Seats[1]}}},
		pair:   pairing{index: s.Pairing},
		result: s.Result,
	})
}

// runDiff says how the run records a (run.json) and b (a game's) differ,
// "" if they do not.
func runDiff(a, b *runRecord) string {
	var diffs []string
	if a.Command != b.Command || a.Game != b.Game {
		diffs = append(diffs, fmt.Sprintf("arena %s %s in %s, arena %s %s in the game's record", a.Command, a.Game, runFileName, b.Command, b.Game))
	}
	if a.Seed != b.Seed {
		diffs = append(diffs, fmt.Sprintf("seed %d in %s, %d in the game's record", a.Seed, runFileName, b.Seed))
	}
	names := slices.Sorted(maps.Keys(a.Flags))
	for name := range b.Flags {
		if _, ok := a.Flags[name]; !ok {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	for _, name := range names {
		av, aok := a.Flags[name]
		bv, bok := b.Flags[name]
		switch {
		case !aok:
			diffs = append(diffs, fmt.Sprintf("-%s not in %s, %q in the game's record", name, runFileName, bv))
		case !bok:
			diffs = append(diffs, fmt.Sprintf("-%s %q in %s, not in the game's record", name, av, runFileName))
		case av != bv:
			diffs = append(diffs, fmt.Sprintf("-%s %q in %s, %q in the game's record", name, av, runFileName, bv))
		}
	}
	if !slices.Equal(a.Players, b.Players) {
		diffs = append(diffs, fmt.Sprintf("players %s in %s, %s in the game's record", strings.Join(a.Players, " "), runFileName, strings.Join(b.Players, " ")))
	}
	return strings.Join(diffs, "; ")
}

// checkStored checks the lines of results.tsv (stored, read from the run
// directory dir of the run rec of game def) against the games: every line
// must be of one of games (the run's, or the shard's), and every finished
// game's line must agree with the game's directory. The directory must be
// there (a directory, not a symbolic link); its game.json must be of this
// run (run.json unchanged: seed, flags, players) and hold the same line. A
// directory of an earlier arena, without game.json, has its result.txt
// checked instead: it must say what the line says. An error names the game
// and what disagrees.
func checkStored(dir string, rec *runRecord, def *gameDef, games []finished, stored map[int]storedGame) error {
	byNumber := make(map[int]*finished, len(games))
	for i := range games {
		byNumber[games[i].job.N] = &games[i]
	}
	for _, n := range slices.Sorted(maps.Keys(stored)) {
		if _, ok := byNumber[n]; !ok {
			return fmt.Errorf("%s holds a line for game %d, which this run does not have (its games: %s)", resultsFileName, n, gameNumbers(games))
		}
	}
	for _, n := range slices.Sorted(maps.Keys(stored)) {
		s, g := stored[n], byNumber[n]
		if s.Result.Winner < -1 {
			continue // unfinished: played again
		}
		if err := checkGame(dir, rec, def, g, s); err != nil {
			return fmt.Errorf("game %d: %w", n, err)
		}
	}
	return nil
}

// gameNumbers lists the numbers of games, as "1 to 12" when they follow
// one another.
func gameNumbers(games []finished) string {
	if len(games) == 0 {
		return "none"
	}
	first, last := games[0].job.N, games[len(games)-1].job.N
	if last-first == len(games)-1 {
		return fmt.Sprintf("%d to %d", first, last)
	}
	var l []string
	for i := range games {
		l = append(l, fmt.Sprint(games[i].job.N))
	}
	return listed(l)
}

// checkGame checks the line s of game g against g's directory in dir (see
// checkStored).
func checkGame(dir string, rec *runRecord, def *gameDef, g *finished, s storedGame) error {
	gameDir := filepath.Join(dir, gameDirName(g.job))
	st, err := os.Lstat(gameDir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("%s has its line, but its directory %s is missing", resultsFileName, gameDir)
	case err != nil:
		return err
	case !st.IsDir():
		return fmt.Errorf("its directory %s is a %s, not a directory", gameDir, fsguard.Kind(st.Mode()))
	}
	line := storedLine(s)
	data, err := fsguard.ReadBounded(filepath.Join(gameDir, gameFileName), gameFileName, maxGameFile)
	if errors.Is(err, fs.ErrNotExist) {
		return checkResultText(gameDir, def, g, s)
	}
	if err != nil {
		return err
	}
	var gr gameRecord
	if err := json.Unmarshal(data, &gr); err != nil {
		return fmt.Errorf("%s: %w", filepath.Join(gameDir, gameFileName), err)
	}
	if gr.Version != 1 || gr.Run == nil {
		return fmt.Errorf("%s: not a game record arena wrote (version %d)", filepath.Join(gameDir, gameFileName), gr.Version)
	}
	if gr.Game != g.job.N {
		return fmt.Errorf("%s is the record of game %d, not of this game", filepath.Join(gameDir, gameFileName), gr.Game)
	}
	if diff := runDiff(rec, gr.Run); diff != "" {
		return fmt.Errorf("%s is not the run the game was played in: %s (%s was changed since)", filepath.Join(dir, runFileName), diff, runFileName)
	}
	recorded, err := parseResultsLine(gr.Line)
	if err != nil {
		return fmt.Errorf("%s: its line: %w", filepath.Join(gameDir, gameFileName), err)
	}
	if s.Short {
		// results.tsv has an earlier arena's layout, without fallback moves.
		recorded.Result.Fallbacks = [2]int{}
	}
	if want := storedLine(recorded); line != want {
		return fmt.Errorf("%s says %s, but the game's own record (%s) says %s: %s was changed since the game was played",
			resultsFileName, outcomeText(s), filepath.Join(gameDir, gameFileName), outcomeText(recorded), resultsFileName)
	}
	return nil
}

// checkResultText checks the line s of game g against the result.txt of
// its directory gameDir, for the game directories of arenas that wrote no
// game.json.
func checkResultText(gameDir string, def *gameDef, g *finished, s storedGame) error {
	path := filepath.Join(gameDir, "result.txt")
	data, err := fsguard.ReadBounded(path, "a game's result.txt", maxGameFile)
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%s has its line, but its directory %s holds no record of its result (neither %s nor result.txt)", resultsFileName, gameDir, gameFileName)
	}
	if err != nil {
		return err
	}
	text, _, _ := strings.Cut(string(data), "\n")
	want := describe(def, &finished{job: g.job, pair: g.pair, result: s.Result})
	if text != want {
		return fmt.Errorf("%s says %s, but the game's own record (%s) says otherwise: %q: %s was changed since the game was played",
			resultsFileName, outcomeText(s), path, oneLine(text, 200), resultsFileName)
	}
	return nil
}

// outcomeText is a line's result in words for an error: `"greedy" vs
// "random": random wins (discs, "0-64", 60 plies)`.
func outcomeText(s storedGame) string {
	var who string
	switch s.Result.Winner {
	case 0, 1:
		who = s.Seats[s.Result.Winner] + " wins"
	case -1:
		who = "a draw"
	default:
		who = "no result"
	}
	return fmt.Sprintf("%q vs %q: %s (%s, %q, %d plies)", s.Seats[0], s.Seats[1], who, s.Result.Ending, s.Result.Detail, s.Result.Plies)
}

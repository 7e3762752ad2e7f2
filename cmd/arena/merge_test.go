package main

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/botarena/botarena/internal/longtest"
	"github.com/google/go-cmp/cmp"
)

// wallClock matches what differs between two plays of one game with the
// same seed: the times the platforms' records hold (Geister's and dark
// chess's board.txt begin with the date and time, "* 3:07pm November 25,
// 2026", or as dark chess's platform writes it with the minutes unpadded,
// "* 5:2pm Nov 25, 2026", and end with a line "N. <Unix milliseconds>" per
// ply; PDD's result.json has an elapsed_ms per move). Results files hold
// none of them.
var wallClock = regexp.MustCompile(`(?m)^(\d+)\. \d{10,}$|^\* \d{1,2}:\d{1,2}[ap]m \w+ \d{1,2},? +\d{4}$|"elapsed_ms": \d+`)

// withoutWallClock replaces what wallClock matches by a constant.
func withoutWallClock(b []byte) []byte {
	return wallClock.ReplaceAllFunc(b, func(m []byte) []byte {
		switch {
		case bytes.HasPrefix(m, []byte(`"elapsed_ms"`)):
			return []byte(`"elapsed_ms": T`)
		case bytes.HasPrefix(m, []byte("* ")):
			return []byte("* T")
		}
		return append(bytes.Fields(m)[0], " T"...)
	})
}

// treeFiles reads every file under dir by its path in dir (with the
// wall-clock parts of names and contents made constant).
func treeFiles(t *testing.T, dir string) map[string]string {
	t.Helper()
	files := map[string]string{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		b, err := os.ReadFile(path)
		files[string(withoutWallClock([]byte(rel)))] = string(withoutWallClock(b))
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// sortedLines is text's lines, the first kept first and the others sorted
// by their first field as a number (results.tsv's game number).
func sortedLines(text string) []string {
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	slices.SortStableFunc(lines[1:], func(a, b string) int {
		na, _ := strconv.Atoi(strings.SplitN(a, "\t", 2)[0])
		nb, _ := strconv.Atoi(strings.SplitN(b, "\t", 2)[0])
		return na - nb
	})
	return lines
}

// TestShardsMergeAsOneRun plays, for every game, a round robin of three
// built-ins once in one run and once as N shards run side by side (separate
// run calls, as separate machines would) joined by arena merge into the
// directory the one run had: the merged directory is the one run's, file
// for file: run.json, results.txt and every game's records byte for byte
// (but for the wall-clock times the platforms' records hold), results.tsv
// line for line (the one run's in the order its games ended), and the
// printed table.
func TestShardsMergeAsOneRun(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: plays four tournaments twice")
	}
	for _, c := range []struct {
		game   string
		games  int
		shards int
		flags  []string
	}{
		{"othello", 3, 3, nil},
		{"geister", longtest.Pick(1, 2), 3, nil}, // its mcts searches a while a move
		{"darkchess", 3, 2, nil},
		{"pdd", 2, 2, nil},
		// The shards read the openings from their copies of the file,
		// and the merge assigns them as one run does.
		{"othello", 4, 2, []string{"-openings", filepath.Join("testdata", "openings", "othello.txt"), "-openings-order", "random"}},
	} {
		name := c.game
		if c.flags != nil {
			name += "/openings"
		}
		t.Run(name, func(t *testing.T) {
			if def, err := findGame(c.game); err == nil {
				skipPDDUnderRace(t, def)
			}
			t.Parallel()
			root := t.TempDir()
			whole := filepath.Join(root, "run")
			players := []string{"random", "greedy", "mcts"}
			switch {
			case c.game == "pdd" && !longtest.Enabled():
				// A PDD game starts a program per move, and the mcts
				// thinks for a while in each: the quick tier merges the
				// games of one pairing of the quicker bots.
				players = players[:2]
			case !longtest.Enabled():
				// The mcts thinks for a while a move: the quick tier's
				// third player is another random.
				players[2] = "other=random"
			}
			args := slices.Concat([]string{"tournament", c.game}, players, []string{"-games", strconv.Itoa(c.games), "-seed", "11", "-time", "none", "-j", "2"}, c.flags)
			oneOut := runArena(t, append(args, "-out", whole)...)
			one := filepath.Join(root, "one")
			if err := os.Rename(whole, one); err != nil {
				t.Fatal(err)
			}

			var wg sync.WaitGroup
			dirs := make([]string, c.shards)
			for i := range c.shards {
				dirs[i] = filepath.Join(root, fmt.Sprintf("shard-%d", i))
				wg.Go(func() {
					var out, errOut bytes.Buffer
					if err := run(t.Context(), append(args, "-shard", fmt.Sprintf("%d/%d", i, c.shards), "-out", dirs[i]), &out, &errOut); err != nil {
						t.Errorf("shard %d: %v\n%s%s", i, err, out.String(), errOut.String())
					}
				})
			}
			wg.Wait()
			if t.Failed() {
				return
			}
			mergeOut := runArena(t, append([]string{"merge", "-out", whole}, dirs...)...)
			if a, b := tableOf(oneOut), tableOf(mergeOut); a == "" || a != b {
				t.Errorf("the one run's table:%s\nthe merged table:%s", a, b)
			}
			oneText, mergedText := runSummary(t, one), runSummary(t, whole)
			if oneText != mergedText {
				t.Errorf("results.txt differs:\n%s", cmp.Diff(oneText, mergedText))
			}
			oneFiles, mergedFiles := treeFiles(t, one), treeFiles(t, whole)
			if diff := cmp.Diff(sortedLines(oneFiles[resultsFileName]), strings.Split(strings.TrimSuffix(mergedFiles[resultsFileName], "\n"), "\n")); diff != "" {
				t.Errorf("results.tsv (-one run, sorted by game +merged):\n%s", diff)
			}
			delete(oneFiles, resultsFileName)
			delete(mergedFiles, resultsFileName)
			if diff := cmp.Diff(oneFiles, mergedFiles); diff != "" {
				t.Errorf("the merged directory differs from the one run's (-one +merged):\n%s", diff)
			}
			if len(oneFiles) < 3+c.games*3 {
				t.Errorf("%d files in the one run's directory", len(oneFiles))
			}
			if c.flags != nil && (!strings.Contains(mergedText, "; opening ") || mergedFiles[openingsFileName] == "") {
				t.Errorf("the merged run names no opening, or has no %s:\n%s", openingsFileName, mergedText)
			}

			// The merged directory is a finished run: resumed, it plays
			// nothing and prints the same table.
			resumed := runArena(t, "tournament", "-resume", whole)
			n := len(roundRobin(len(players))) * c.games
			matchAll(t, resumed, fmt.Sprintf(`Resumed: %d of %d games were played before; playing the other 0\.`, n, n))
			if a, b := tableOf(oneOut), tableOf(resumed); a != b {
				t.Errorf("the merged run resumed:%s\nwant:%s", b, a)
			}
		})
	}
}

// shardOf plays shard i/n of a small Othello tournament into dir between
// players (random and greedy for nil), with flags added.
func shardOf(t *testing.T, dir string, i, n int, players []string, flags ...string) string {
	t.Helper()
	if players == nil {
		players = []string{"random", "greedy"}
	}
	args := []string{"tournament", "othello", "-games", "4", "-seed", "3", "-time", "none", "-j", "1", "-shard", fmt.Sprintf("%d/%d", i, n), "-out", dir}
	runArena(t, slices.Concat(args, flags, players)...)
	return dir
}

// copyDir copies the directory src to the new dst.
func copyDir(t *testing.T, src, dst string) string {
	t.Helper()
	if err := os.CopyFS(dst, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	return dst
}

// TestMergeRefuses: arena merge names what is wrong with the shards it is
// given, and writes nothing then.
func TestMergeRefuses(t *testing.T) {
	root := t.TempDir()
	at := func(name string) string { return filepath.Join(root, name) }
	s0 := shardOf(t, at("s0"), 0, 2, nil)
	s1 := shardOf(t, at("s1"), 1, 2, nil)
	otherSeed := shardOf(t, at("seed"), 1, 2, nil, "-seed", "4")
	otherGames := shardOf(t, at("games"), 1, 2, nil, "-games", "6")
	otherRules := shardOf(t, at("rules"), 1, 2, nil, "-rules", "standard")
	otherTime := shardOf(t, at("time"), 1, 2, nil, "-time", "30s/move")
	geister := at("geister")
	runArena(t, "tournament", "geister", "-games", "4", "-seed", "3", "-time", "none", "-shard", "1/2", "-out", geister, "random", "greedy")
	otherPlayers := shardOf(t, at("players"), 1, 2, []string{"random", "alphabeta"})
	// Two shards of one -openings file, whose run copies differ (the file
	// was changed between them).
	openingsFile := at("openings.txt")
	if err := os.WriteFile(openingsFile, []byte("f5d6c3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	openings0 := shardOf(t, at("open0"), 0, 2, nil, "-openings", openingsFile)
	openings1 := shardOf(t, at("open1"), 1, 2, nil, "-openings", openingsFile)
	if err := os.WriteFile(filepath.Join(openings1, openingsFileName), []byte("f5f6e6\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ofThree := shardOf(t, at("three"), 1, 3, nil)
	again := copyDir(t, s0, at("again"))
	match := at("match")
	runArena(t, "match", "othello", "-games", "2", "-seed", "3", "-time", "none", "-out", match)

	// s1 stopped before its second game: results.tsv holds its first
	// game and a line cut short by the kill.
	cut := copyDir(t, s1, at("cut"))
	lines := strings.SplitAfter(string(mustRead(t, filepath.Join(s1, resultsFileName))), "\n")
	if err := os.WriteFile(filepath.Join(cut, resultsFileName), []byte(lines[0]+lines[1]+lines[2][:10]), 0o644); err != nil {
		t.Fatal(err)
	}
	// s1 with a line of game 1, which is shard 0's.
	foreign := copyDir(t, s1, at("foreign"))
	first := strings.SplitAfter(string(mustRead(t, filepath.Join(s0, resultsFileName))), "\n")[1]
	f, err := os.OpenFile(filepath.Join(foreign, resultsFileName), os.O_APPEND|os.O_WRONLY, 0)
	if err == nil {
		_, err = f.WriteString(first)
		f.Close()
	}
	if err != nil {
		t.Fatal(err)
	}
	// s1 without a game's directory.
	lost := copyDir(t, s1, at("lost"))
	if err := os.RemoveAll(filepath.Join(lost, "003-random-vs-greedy")); err != nil {
		t.Fatal(err)
	}
	notEmpty := at("full")
	if err := os.MkdirAll(filepath.Join(notEmpty, "x"), 0o755); err != nil {
		t.Fatal(err)
	}

	for _, c := range []struct {
		dirs []string
		err  string
	}{
		{nil, "merge: name the shards' records directories"},
		{[]string{at("nothing")}, "is not a run's records directory (no run.json)"},
		{[]string{match}, "holds an arena match, not a tournament"},
		{[]string{s0, otherSeed}, fmt.Sprintf("%s and %s are shards of different tournaments: seed 3 in %s, 4 in %s", s0, otherSeed, s0, otherSeed)},
		{[]string{s0, otherGames}, fmt.Sprintf(`different tournaments: -games "4" in %s, "6" in %s`, s0, otherGames)},
		{[]string{s0, otherRules}, fmt.Sprintf(`different tournaments: -rules "tus" in %s, "standard" in %s`, s0, otherRules)},
		{[]string{s0, otherTime}, fmt.Sprintf(`different tournaments: -time "none" in %s, "30s/move" in %s`, s0, otherTime)},
		{[]string{s0, geister}, fmt.Sprintf(`%s and %s are shards of different tournaments: othello in %s, geister in %s`, s0, geister, s0, geister)},
		{[]string{s0, otherPlayers}, fmt.Sprintf("different tournaments: players random=random greedy=greedy in %s, random=random alphabeta=alphabeta in %s", s0, otherPlayers)},
		{[]string{openings0, openings1}, fmt.Sprintf("%s and %s are shards of different tournaments: -openings", openings0, openings1)},
		{[]string{s0, ofThree}, fmt.Sprintf("%s is shard 0/2 and %s shard 1/3: the shards of one tournament are cut into one number of shards", s0, ofThree)},
		{[]string{s0}, fmt.Sprintf("1 shard of 2 missing: 1/2 (given: 0/2 in %s)", s0)},
		{[]string{s1}, fmt.Sprintf("1 shard of 2 missing: 0/2 (given: 1/2 in %s)", s1)},
		{[]string{s0, s1, again}, fmt.Sprintf("shard 0/2 is given twice: %s and %s", s0, again)},
		{[]string{s0, cut}, fmt.Sprintf(`shard 1/2 (%s) has not finished 1 of its 2 games (game 4): go on with it with "arena tournament -resume %s"`, cut, cut)},
		{[]string{s0, foreign}, fmt.Sprintf("%s: results.tsv holds game 1, which is not one of shard 1/2's games", foreign)},
		{[]string{s0, lost}, fmt.Sprintf("shard 1/2 (%s): game 3: results.tsv has its line, but its directory %s is missing", lost, filepath.Join(lost, "003-random-vs-greedy"))},
	} {
		out := at("merged")
		err := run(t.Context(), append([]string{"merge", "-out", out}, c.dirs...), new(strings.Builder), new(strings.Builder))
		if err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("merge %q: %v\nwant %q", c.dirs, err, c.err)
		}
		if _, err := os.Stat(out); err == nil {
			t.Fatalf("merge %q made %s", c.dirs, out)
		}
	}
	err = run(t.Context(), []string{"merge", "-out", notEmpty, s0, s1}, new(strings.Builder), new(strings.Builder))
	if err == nil || !strings.Contains(err.Error(), "-out "+notEmpty+": not empty") {
		t.Errorf("merge into a directory that is not empty: %v", err)
	}
	// The two good shards merge, into a new directory or printing only.
	for _, args := range [][]string{{"merge", s1, s0}, {"merge", "-out", at("merged"), s0, s1}} {
		out := runArena(t, args...)
		matchAll(t, out, `(?m)^Othello round robin: random, greedy; 4 games per pairing, 4 games, rules tus, time none, seed 3$`,
			`(?m)^Merged from 2 shards: `, `(?m)^\s+1\s+\S+\s+4\s`)
	}
}

// TestCopyTree: a game's directory is copied with its files and
// directories; a pipe is left out; a symbolic link (a program's, pointing
// out of its directory) is refused by the check before the copy and by the
// copy itself, naming it, and is neither followed nor copied.
func TestCopyTree(t *testing.T) {
	src, dst := t.TempDir(), filepath.Join(t.TempDir(), "copy")
	if err := os.MkdirAll(filepath.Join(src, "sub", "deeper"), 0o755); err != nil {
		t.Fatal(err)
	}
	files := map[string]string{"record.txt": "moves\n", "sub/deeper/log": "a log"}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(src, name), []byte(text), 0o640); err != nil {
			t.Fatal(err)
		}
	}
	if err := syscall.Mkfifo(filepath.Join(src, "pipe"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := checkTree(src); err != nil {
		t.Fatal(err)
	}
	if err := copyTree(src, dst); err != nil {
		t.Fatal(err)
	}
	for name, text := range files {
		if got := string(mustRead(t, filepath.Join(dst, name))); got != text {
			t.Errorf("%s: %q, want %q", name, got, text)
		}
	}
	if st, err := os.Stat(filepath.Join(dst, "record.txt")); err != nil || st.Mode().Perm() != 0o640 {
		t.Errorf("record.txt: %v, %v", st, err)
	}
	if _, err := os.Lstat(filepath.Join(dst, "pipe")); err == nil {
		t.Errorf("the pipe was copied")
	}
	escape := filepath.Join(src, "sub", "escape")
	if err := os.Symlink("/etc/passwd", escape); err != nil {
		t.Fatal(err)
	}
	want := escape + " is a symbolic link (to /etc/passwd): arena merge copies no link"
	if err := checkTree(src); err == nil || err.Error() != want {
		t.Errorf("checkTree with a link: %v, want %q", err, want)
	}
	again := filepath.Join(t.TempDir(), "copy")
	if err := copyTree(src, again); err == nil || err.Error() != want {
		t.Errorf("copyTree with a link: %v, want %q", err, want)
	}
	if _, err := os.Lstat(filepath.Join(again, "sub", "escape")); err == nil {
		t.Errorf("the link was copied")
	}
}

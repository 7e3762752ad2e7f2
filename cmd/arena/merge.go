package main

import (
	"context"
	"crypto/sha256"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"github.com/botarena/botarena/internal/fsguard"
)

// maxListed bounds the game numbers or shards that an error of arena merge
// lists; the rest are counted.
const maxListed = 12

// shardRun is one shard's records directory, as arena merge reads it.
type shardRun struct {
	dir    string             // as given on the command line
	rec    *runRecord         // its run.json
	shard  shardSpec          // its -shard (0/1 for a run without one)
	cfg    *matchConfig       // the tournament its flags and players make
	flags  map[string]string  // the value of every flag that shapes the games, given or not, -shard aside
	stored map[int]storedGame // its results.tsv
}

// runMerge carries out "arena merge [-out DIR] SHARD_DIR...": it joins the
// records directories of the shards of one tournament (arena tournament
// -shard I/N) into what one run of the whole tournament would have left,
// and prints its table. Without -out it only prints.
func runMerge(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fset := flag.NewFlagSet("arena merge", flag.ContinueOnError)
	fset.SetOutput(stderr)
	out := fset.String("out", "", "write the merged run into this new `directory`: run.json, results.tsv, results.txt and a copy of every game's directory, as one run of the whole tournament with -out DIR would have written them")
	fset.Usage = func() {
		fmt.Fprintf(stderr, "usage: arena merge [-out DIR] SHARD_DIR...\n\n")
		fmt.Fprintf(stderr, "Joins the records directories of the N shards of one tournament (arena tournament\n-shard I/N, each with its own -out) and prints the table one run of the whole tournament\nwould have printed. Each game's line of results.tsv must agree with its game.json, and\nits directory must be there; with -out no symbolic link is copied, every shard is checked\nbefore anything is written, and DIR appears whole or not at all.\n\nflags:\n")
		fset.PrintDefaults()
	}
	dirs, err := parseInterleaved(fset, args)
	if err != nil {
		return err
	}
	if len(dirs) == 0 {
		return errors.New("name the shards' records directories (arena merge [-out DIR] SHARD_DIR...)")
	}
	shards, err := readShards(dirs)
	if err != nil {
		return err
	}
	first := shards[0]
	cfg := *first.cfg
	cfg.Out = *out
	pairs := roundRobin(len(cfg.Players))
	games := schedule(&cfg, pairs)
	assignOpenings(&cfg, games)
	if err := joinResults(shards, cfg.Game, games, len(pairs), *out); err != nil {
		return err
	}
	rows := tallyRows(&cfg, games)
	if *out != "" {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := writeMerged(shards, &cfg, games, len(pairs), rows); err != nil {
			return fmt.Errorf("-out %s: %w", *out, err)
		}
	}
	names := make([]string, len(cfg.Players))
	for i, p := range cfg.Players {
		names[i] = p.Name
	}
	fmt.Fprintf(stdout, "%s round robin: %s; %d games per pairing, %d games, rules %s, time %s, seed %d\n",
		cfg.Game.Title, strings.Join(names, ", "), cfg.Games, len(games), cfg.Rules, orNone(cfg.Time), cfg.Seed)
	fmt.Fprintf(stdout, "Merged from %s: %s\n", plural(len(shards), "shard"), strings.Join(dirs, ", "))
	if *out != "" {
		fmt.Fprintf(stdout, "Records: %s\n", *out)
	}
	printTable(stdout, rows)
	return nil
}

// readShards reads the shards' run.json and results.tsv and checks that
// they are the N shards of one tournament, each once; it returns them in
// their order.
func readShards(dirs []string) ([]*shardRun, error) {
	var shards []*shardRun
	for _, dir := range dirs {
		s, err := readShard(dir)
		if err != nil {
			return nil, err
		}
		shards = append(shards, s)
	}
	first := shards[0]
	for _, s := range shards[1:] {
		if diff := tournamentDiff(first, s); diff != "" {
			return nil, fmt.Errorf("%s and %s are shards of different tournaments: %s (the shards of one tournament have the same game, players, seed and flags, -shard aside)", first.dir, s.dir, diff)
		}
		if s.shard.Count != first.shard.Count {
			return nil, fmt.Errorf("%s is shard %s and %s shard %s: the shards of one tournament are cut into one number of shards", first.dir, first.shard.String(), s.dir, s.shard.String())
		}
	}
	n := first.shard.Count
	byIndex := make([]*shardRun, n)
	for _, s := range shards {
		if prev := byIndex[s.shard.Index]; prev != nil {
			return nil, fmt.Errorf("shard %s is given twice: %s and %s", s.shard.String(), prev.dir, s.dir)
		}
		byIndex[s.shard.Index] = s
	}
	var missing []string
	for i, s := range byIndex {
		if s == nil {
			missing = append(missing, fmt.Sprintf("%d/%d", i, n))
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("%s of %d missing: %s (given: %s)", plural(len(missing), "shard"), n, listed(missing), givenShards(shards))
	}
	return byIndex, nil
}

// readShard reads one shard's directory.
func readShard(dir string) (*shardRun, error) {
	rec, err := readRunRecord(dir)
	if err != nil {
		return nil, err
	}
	if rec.Command != "tournament" {
		return nil, fmt.Errorf("%s holds an arena %s, not a tournament: only tournaments are cut into shards", dir, rec.Command)
	}
	s := &shardRun{dir: dir, rec: rec, shard: shardSpec{Index: 0, Count: 1}}
	if v, ok := rec.Flags["shard"]; ok {
		if s.shard, err = parseShard(v); err != nil {
			return nil, fmt.Errorf("%s: -shard %q: %w", filepath.Join(dir, runFileName), v, err)
		}
	}
	if s.cfg, s.flags, err = tournamentOf(rec, dir); err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, runFileName), err)
	}
	if s.stored, err = readResults(dir); err != nil {
		return nil, err
	}
	return s, nil
}

// tournamentOf makes the tournament rec describes, as "arena tournament"
// would from the same command line, without starting anything; flags are
// the values of its flags that shape the games (given or default, -shard
// aside).
func tournamentOf(rec *runRecord, dir string) (*matchConfig, map[string]string, error) {
	def, err := findGame(rec.Game)
	if err != nil {
		return nil, nil, err
	}
	cfg := &matchConfig{Game: def, Stderr: io.Discard}
	var o runOptions
	fset := newRunFlags("tournament", def, cfg, &o, io.Discard)
	specs, err := parseInterleaved(fset, rec.args(dir))
	if err != nil {
		return nil, nil, err
	}
	if len(specs) < 2 {
		return nil, nil, fmt.Errorf("%d players; a tournament has two or more", len(specs))
	}
	for _, spec := range specs {
		p, err := parsePlayer(def, spec)
		if err != nil {
			return nil, nil, err
		}
		cfg.Players = append(cfg.Players, p)
	}
	uniqueNames(cfg.Players)
	if cfg.Games < 1 {
		return nil, nil, fmt.Errorf("-games %d", cfg.Games)
	}
	// The openings are the run's copy of the file (as -resume reads them):
	// the shards' copies must hold the same openings, whatever the path.
	cfg.Out = dir
	if err := loadOpenings(cfg, true); err != nil {
		return nil, nil, err
	}
	flags := map[string]string{}
	fset.VisitAll(func(f *flag.Flag) {
		if !runOnlyFlag(f.Name) && f.Name != "shard" {
			flags[f.Name] = f.Value.String()
		}
	})
	if cfg.openings != nil {
		flags["openings"] = fmt.Sprintf("%s (%x)", flags["openings"], sha256.Sum256(cfg.openings.Data))
	}
	return cfg, flags, nil
}

// tournamentDiff says how the tournaments of shards a and b differ, "" if
// they do not.
func tournamentDiff(a, b *shardRun) string {
	var diffs []string
	if a.rec.Game != b.rec.Game {
		return fmt.Sprintf("%s in %s, %s in %s", a.rec.Game, a.dir, b.rec.Game, b.dir)
	}
	if a.rec.Seed != b.rec.Seed {
		diffs = append(diffs, fmt.Sprintf("seed %d in %s, %d in %s", a.rec.Seed, a.dir, b.rec.Seed, b.dir))
	}
	for _, name := range slices.Sorted(maps.Keys(a.flags)) {
		if av, bv := a.flags[name], b.flags[name]; av != bv {
			diffs = append(diffs, fmt.Sprintf("-%s %q in %s, %q in %s", name, av, a.dir, bv, b.dir))
		}
	}
	if !slices.Equal(a.rec.Players, b.rec.Players) {
		diffs = append(diffs, fmt.Sprintf("players %s in %s, %s in %s", strings.Join(a.rec.Players, " "), a.dir, strings.Join(b.rec.Players, " "), b.dir))
	}
	return strings.Join(diffs, "; ")
}

// givenShards lists the shards given, for an error.
func givenShards(shards []*shardRun) string {
	var l []string
	for _, s := range shards {
		l = append(l, s.shard.String()+" in "+s.dir)
	}
	return listed(l)
}

// listed joins items with ", ", the first maxListed of them and the count
// of the others.
func listed(items []string) string {
	if len(items) <= maxListed {
		return strings.Join(items, ", ")
	}
	return strings.Join(items[:maxListed], ", ") + fmt.Sprintf(" and %d more", len(items)-maxListed)
}

// joinResults fills games, the whole tournament's schedule of the game
// def, with the shards' results: each game from the shard that plays it,
// which must have played it to a result that its directory in the shard
// confirms (checkGame: the directory is there, and its game.json is of the
// shard's run.json and holds the same line). A record's path is made the
// record's place in out (the merged directory) or, without out, in its
// shard's directory.
func joinResults(shards []*shardRun, def *gameDef, games []finished, pairings int, out string) error {
	n := len(shards)
	owner := shardsOf(games, pairings, n)
	byNumber := map[int]int{}
	for i := range games {
		byNumber[games[i].job.N] = i
	}
	var problems []string
	for si, s := range shards {
		for _, num := range slices.Sorted(maps.Keys(s.stored)) {
			if i, ok := byNumber[num]; !ok || owner[i] != si {
				return fmt.Errorf("%s: %s holds game %d, which is not one of shard %s's games: the directory holds another run", s.dir, resultsFileName, num, s.shard.String())
			}
		}
		var unfinished []string
		mine := 0
		for i := range games {
			if owner[i] != si {
				continue
			}
			mine++
			g := &games[i]
			st, ok := s.stored[g.job.N]
			if !ok || st.Result.Winner < -1 {
				unfinished = append(unfinished, fmt.Sprint(g.job.N))
				continue
			}
			if _, err := restore(games[i:i+1], s.stored); err != nil {
				return fmt.Errorf("%s: %w", s.dir, err)
			}
			if err := checkGame(s.dir, s.rec, def, g, st); err != nil {
				return fmt.Errorf("shard %s (%s): game %d: %w", s.shard.String(), s.dir, g.job.N, err)
			}
			base := s.dir
			if out != "" {
				base = out
			}
			g.result.Record = movedRecord(g.result.Record, gameDirName(g.job), base)
		}
		if len(unfinished) > 0 {
			problems = append(problems, fmt.Sprintf("shard %s (%s) has not finished %d of its %d games (%s %s): go on with it with \"arena tournament -resume %s\"",
				s.shard.String(), s.dir, len(unfinished), mine, pluralWord(len(unfinished), "game"), listed(unfinished), s.dir))
		}
	}
	if len(problems) > 0 {
		return errors.New(strings.Join(problems, "; "))
	}
	return nil
}

// pluralWord writes "game" for 1, "games" for more.
func pluralWord(n int, noun string) string {
	if n == 1 {
		return noun
	}
	return noun + "s"
}

// movedRecord is the path of a record, once at path in the directory of a
// game called gameDir, when that directory is in base: the part of path
// after its last element gameDir, joined to base/gameDir, and made absolute
// if path was (as a runner that writes absolute paths would have written
// it there). A path without that element is kept.
func movedRecord(path, gameDir, base string) string {
	if path == "" {
		return ""
	}
	if filepath.IsAbs(path) && !filepath.IsAbs(base) {
		if abs, err := filepath.Abs(base); err == nil {
			base = abs
		}
	}
	parts := strings.Split(filepath.ToSlash(path), "/")
	i := -1
	for j := len(parts) - 1; j >= 0; j-- {
		if parts[j] == gameDir {
			i = j
			break
		}
	}
	if i < 0 {
		return path
	}
	return filepath.Join(append([]string{base}, parts[i:]...)...)
}

// tallyRows is every player's wins, draws and losses in games, in the
// players' order.
func tallyRows(cfg *matchConfig, games []finished) []tallyRow {
	rows := make([]tallyRow, len(cfg.Players))
	for i, p := range cfg.Players {
		rows[i].name = p.Name
		for g := range games {
			if res, ok := outcomeFor(&games[g], p); ok {
				rows[i].t.add(res)
			}
		}
	}
	return rows
}

// writeMerged makes cfg.Out, which must not exist or be an empty
// directory, the records directory of the whole tournament: run.json
// without -shard, every game's directory copied from its shard with its
// result.txt and game.json written anew (the record's path in them is the
// merged one, the run the merged one), results.tsv with a line per game in
// the order of their numbers, and results.txt with rows, the table.
//
// It is all or nothing: every game's directory is checked first (no
// symbolic link, no file over maxCopiedFile), then the directory is built
// in a new directory beside cfg.Out and renamed into place at the end; a
// refusal or a failure leaves no cfg.Out behind, and cfg.Out made
// meanwhile by another arena is left alone.
func writeMerged(shards []*shardRun, cfg *matchConfig, games []finished, pairings int, rows []tallyRow) error {
	out := cfg.Out
	if entries, err := os.ReadDir(out); err == nil && len(entries) > 0 {
		return errors.New("not empty: arena merge writes a new directory")
	} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	owner := shardsOf(games, pairings, len(shards))
	for i := range games {
		src := filepath.Join(shards[owner[i]].dir, gameDirName(games[i].job))
		if err := checkTree(src); err != nil {
			return fmt.Errorf("game %d in shard %s: %w (nothing was written)", games[i].job.N, shards[owner[i]].shard.String(), err)
		}
	}
	parent := filepath.Dir(out)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(parent, "."+filepath.Base(out)+".merge-")
	if err != nil {
		return err
	}
	done := false
	defer func() {
		if !done {
			os.RemoveAll(tmp)
		}
	}()
	if err := os.Chmod(tmp, 0o755); err != nil {
		return err
	}
	build := *cfg
	build.Out = tmp
	rec := *shards[0].rec
	rec.Flags = maps.Clone(rec.Flags)
	delete(rec.Flags, "shard")
	if err := saveOpenings(&build); err != nil {
		return err
	}
	if err := writeRunRecord(tmp, &rec); err != nil {
		return err
	}
	root, err := os.OpenRoot(tmp)
	if err != nil {
		return err
	}
	defer root.Close()
	var tsv strings.Builder
	tsv.WriteString(resultsHeader + "\n")
	for i := range games {
		g := &games[i]
		name := gameDirName(g.job)
		if err := copyTree(filepath.Join(shards[owner[i]].dir, name), filepath.Join(tmp, name)); err != nil {
			return fmt.Errorf("game %d: %w", g.job.N, err)
		}
		if err := writeInRoot(root, filepath.Join(name, "result.txt"), []byte(describe(cfg.Game, g)+"\n")); err != nil {
			return fmt.Errorf("game %d: %w", g.job.N, err)
		}
		if err := writeGameRecord(root, name, &rec, g); err != nil {
			return fmt.Errorf("game %d: %w", g.job.N, err)
		}
		tsv.WriteString(resultsLine(g) + "\n")
	}
	if err := writeInRoot(root, resultsFileName, []byte(tsv.String())); err != nil {
		return err
	}
	if err := writeSummary(&build, games, rows); err != nil {
		return err
	}
	// rename(2) replaces an empty directory and nothing else: a directory
	// another arena began writing into meanwhile is not touched.
	if err := os.Rename(tmp, out); err != nil {
		if errors.Is(err, fs.ErrExist) || errors.Is(err, syscall.ENOTEMPTY) {
			return errors.New("not empty: arena merge writes a new directory (another arena began writing there)")
		}
		return err
	}
	done = true
	return nil
}

// checkTree checks that the game directory src can be copied whole: a
// directory (not a symbolic link to one) of directories and regular files
// of at most maxCopiedFile bytes each. A symbolic link anywhere is refused,
// naming it: a copy would point where a program chose (a link to a file
// outside its directory), and following it would copy that file. A named
// pipe or a socket a program left is not a record and is left out.
func checkTree(src string) error {
	st, err := os.Lstat(src)
	if err != nil {
		return err
	}
	switch {
	case st.Mode()&fs.ModeSymlink != 0:
		target, _ := os.Readlink(src)
		return fmt.Errorf("%s is a symbolic link (to %s): arena merge copies no link", src, oneLine(target, 200))
	case st.IsDir():
		entries, err := os.ReadDir(src)
		if err != nil {
			return err
		}
		for _, e := range entries {
			if err := checkTree(filepath.Join(src, e.Name())); err != nil {
				return err
			}
		}
	case st.Mode().IsRegular() && st.Size() > maxCopiedFile:
		return tooBig(src, "a file to copy", maxCopiedFile)
	}
	return nil
}

// copyTree copies the file tree at src to dst, which must not exist:
// directories and regular files (with their permission bits); a symbolic
// link is an error naming it (checkTree), and anything else (a socket or
// a pipe a program left) is skipped. A file is opened without waiting and
// copied only if it is still a regular file, within maxCopiedFile bytes.
func copyTree(src, dst string) error {
	st, err := os.Lstat(src)
	if err != nil {
		return err
	}
	switch {
	case st.Mode()&fs.ModeSymlink != 0:
		return checkTree(src)
	case st.IsDir():
		if err := os.Mkdir(dst, st.Mode().Perm()|0o700); err != nil {
			return err
		}
		entries, err := os.ReadDir(src)
		if err != nil {
			return err
		}
		for _, e := range entries {
			if err := copyTree(filepath.Join(src, e.Name()), filepath.Join(dst, e.Name())); err != nil {
				return err
			}
		}
		return nil
	case st.Mode().IsRegular():
		return copyFile(src, dst, st.Mode().Perm())
	}
	return nil
}

// copyFile copies the regular file src to the new file dst. src is opened
// without following a symbolic link put in its place since it was checked.
func copyFile(src, dst string, perm fs.FileMode) error {
	in, err := os.OpenFile(src, os.O_RDONLY|fsguard.NoWait|fsguard.NoFollow, 0)
	if err != nil {
		return err
	}
	defer in.Close()
	if st, err := in.Stat(); err != nil {
		return err
	} else if !st.Mode().IsRegular() {
		return fsguard.NotRegular(src, st.Mode())
	}
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm|0o600)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, newBoundedReader(in, src, "a file to copy", maxCopiedFile)); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/botarena/botarena/internal/fsguard"
)

// refusedWithin runs an arena command line in this process and returns its
// error, failing the test if it takes more than a minute: a file that
// cannot be read is refused at once, however it is made.
func refusedWithin(t *testing.T, args ...string) error {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- run(ctx, args, new(strings.Builder), new(strings.Builder)) }()
	select {
	case err := <-done:
		return err
	case <-time.After(2 * time.Minute):
		t.Fatalf("arena %q still runs after two minutes: it waits on a file", args)
		return nil
	}
}

// wantRefused checks that err is an error matching the regular expression
// want.
func wantRefused(t *testing.T, what string, err error, want string) {
	t.Helper()
	if err == nil || !regexp.MustCompile(want).MatchString(err.Error()) {
		t.Errorf("%s: %v\nwant an error matching %q", what, err, want)
	}
}

// mkfifo makes a named pipe at path.
func mkfifo(t *testing.T, path string) string {
	t.Helper()
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// replaceWith makes the file at path a named pipe ("fifo"), a symbolic
// link to /dev/zero ("zero") or a sparse regular file of size bytes.
func replaceWith(t *testing.T, path, kind string, size int64) {
	t.Helper()
	if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		t.Fatal(err)
	}
	switch kind {
	case "fifo":
		mkfifo(t, path)
	case "zero":
		if err := os.Symlink("/dev/zero", path); err != nil {
			t.Fatal(err)
		}
	case "big":
		if err := os.WriteFile(path, nil, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Truncate(path, size); err != nil {
			t.Fatal(err)
		}
	}
}

// TestBoundedRead: the helper every read of a named file goes through
// refuses a FIFO (at once, with no writer), a device, a directory, and a
// regular file over its bound, naming the file; a file of exactly the
// bound is read.
func TestBoundedRead(t *testing.T) {
	dir := t.TempDir()
	fifo := mkfifo(t, filepath.Join(dir, "fifo"))
	exact := filepath.Join(dir, "exact")
	if err := os.WriteFile(exact, []byte("0123456789"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		path, want string
	}{
		{fifo, `fifo: not a regular file: it is a named pipe`},
		{"/dev/zero", `/dev/zero: not a regular file: it is a character device`},
		{dir, `not a regular file: it is a directory`},
		{exact, `exact: over 9 bytes, the most read of a test file`},
	} {
		max := int64(1 << 20)
		if c.path == exact {
			max = 9
		}
		_, err := fsguard.ReadBounded(c.path, "a test file", max)
		wantRefused(t, c.path, err, c.want)
	}
	if data, err := fsguard.ReadBounded(exact, "a test file", 10); err != nil || string(data) != "0123456789" {
		t.Errorf("a file of exactly the bound: %q, %v", data, err)
	}
	// The streaming reader: a file over the bound fails past it, one of
	// exactly the bound reads whole.
	for _, c := range []struct {
		max  int64
		fail bool
	}{{9, true}, {10, false}} {
		f, _, err := fsguard.OpenRegular(exact)
		if err != nil {
			t.Fatal(err)
		}
		r := newBoundedReader(f, exact, "a test file", c.max)
		b := make([]byte, 4)
		var got []byte
		for {
			n, rerr := r.Read(b)
			got = append(got, b[:n]...)
			if rerr != nil {
				err = rerr
				break
			}
			if n == 0 {
				break
			}
		}
		f.Close()
		var tb *fsguard.TooBigError
		if c.fail != errors.As(err, &tb) {
			t.Errorf("bound %d: read %q, %v", c.max, got, err)
		}
	}
}

// TestStartAndOpeningsRefuseFIFO: -start and -openings given a FIFO or
// /dev/zero are refused at once for every game, naming the file and what it
// is; a -start record over its bound is refused.
func TestStartAndOpeningsRefuseFIFO(t *testing.T) {
	dir := t.TempDir()
	fifo := mkfifo(t, filepath.Join(dir, "fifo"))
	big := filepath.Join(dir, "big.txt")
	replaceWith(t, big, "big", maxStartFile+1)
	for _, game := range []string{"othello", "geister", "darkchess", "pdd"} {
		for _, c := range []struct {
			flag, path, want string
		}{
			{"-start", fifo, `fifo: not a regular file: it is a named pipe`},
			{"-start", "/dev/zero", `/dev/zero: not a regular file: it is a character device`},
			{"-openings", fifo, `-openings: .*fifo: not a regular file: it is a named pipe`},
			{"-openings", "/dev/zero", `-openings: /dev/zero: not a regular file: it is a character device`},
			{"-start", big, `big.txt: over \d+ bytes, the most read of a`},
		} {
			out := filepath.Join(dir, game+strings.TrimPrefix(c.flag, "-"))
			err := refusedWithin(t, "match", game, c.flag, c.path, "-out", out, "-time", "none")
			wantRefused(t, fmt.Sprintf("%s %s %s", game, c.flag, c.path), err, c.want)
		}
	}
}

// TestResumeRefusesFIFO: -resume with run.json or results.tsv a FIFO,
// /dev/zero or a file over its bound, and arena merge with such a shard,
// are refused at once, naming the file.
func TestResumeRefusesFIFO(t *testing.T) {
	_, dir := playedGames(t, "match", "othello", "greedy", "random", "-games", "2", "-seed", "5", "-time", "none")
	root := t.TempDir()
	shard := shardOf(t, filepath.Join(root, "s0"), 0, 2, nil)
	for _, c := range []struct {
		file, kind, want string
		size             int64
	}{
		{runFileName, "fifo", `run.json: not a regular file: it is a named pipe`, 0},
		{runFileName, "zero", `run.json: not a regular file: it is a character device`, 0},
		{runFileName, "big", fmt.Sprintf(`run.json: over %d bytes, the most read of run.json`, maxRunFile), maxRunFile + 1},
		{resultsFileName, "fifo", `results.tsv: not a regular file: it is a named pipe`, 0},
		{resultsFileName, "zero", `results.tsv: not a regular file: it is a character device`, 0},
	} {
		t.Run(c.file+"/"+c.kind, func(t *testing.T) {
			cp := copyDir(t, dir, filepath.Join(t.TempDir(), "run"))
			replaceWith(t, filepath.Join(cp, c.file), c.kind, c.size)
			wantRefused(t, "-resume", refusedWithin(t, "match", "-resume", cp), c.want)
			wantRefused(t, "-resume", refusedWithin(t, "match", "othello", "-resume", cp), c.want)

			s := copyDir(t, shard, filepath.Join(t.TempDir(), "s0"))
			replaceWith(t, filepath.Join(s, c.file), c.kind, c.size)
			out := filepath.Join(t.TempDir(), "merged")
			wantRefused(t, "merge", refusedWithin(t, "merge", "-out", out, s), c.want)
			if _, err := os.Lstat(out); err == nil {
				t.Errorf("merge made %s", out)
			}
		})
	}
}

// TestSignalEndsWaitingArena: SIGTERM, SIGINT or SIGHUP (closing arena's
// terminal) ends an arena that waits for a program to connect, with
// status 130, and the program with it.
func TestSignalEndsWaitingArena(t *testing.T) {
	t.Parallel() // it mostly waits: for time limits and signals
	if testing.Short() {
		t.Skip("runs arena")
	}
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP} {
		t.Run(sig.String(), func(t *testing.T) {
			dir := t.TempDir()
			marker := fmt.Sprintf("1000.%d%d", os.Getpid(), sig)
			never := filepath.Join(dir, "never.sh")
			if err := os.WriteFile(never, []byte("#!/bin/sh\nexec sleep "+marker+"\n"), 0o755); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(t.Context(), 3*time.Minute)
			defer cancel()
			cmd := arenaCommand(t, ctx, dir, "match", "othello", "-games", "1", "-time", "none", "-startup", "1h", "-out", "run", "tcp:"+never, "random")
			stdout, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			// The header is printed once the run is prepared, before the
			// game starts: from then on arena waits for the program.
			if !bufio.NewScanner(stdout).Scan() {
				t.Fatal("arena printed nothing")
			}
			// The program has started when its sleep is there.
			for !sleepRunning(marker) {
				if ctx.Err() != nil {
					t.Fatal("the program never started")
				}
				time.Sleep(10 * time.Millisecond)
			}
			if err := cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			err = cmd.Wait()
			var ee *exec.ExitError
			if ctx.Err() != nil {
				t.Fatalf("arena did not end on %v: %v", sig, err)
			}
			if !errors.As(err, &ee) || ee.ExitCode() != 130 {
				t.Errorf("arena after %v: %v, want exit status 130 (interrupted)", sig, err)
			}
			if sleepRunning(marker) {
				t.Errorf("the program (sleep %s) outlived arena after %v", marker, sig)
			}
		})
	}
}

// sleepRunning reports whether a process "sleep marker" is alive (not a
// zombie) on this machine, by its command line in /proc; false where there
// is no /proc.
func sleepRunning(marker string) bool {
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		cmdline, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err != nil || !bytes.Equal(cmdline, []byte("sleep\x00"+marker+"\x00")) {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err == nil && !bytes.Contains(stat, []byte(") Z ")) {
			return true
		}
	}
	return false
}

// forgeLine rewrites the line of game n in the run dir's results.tsv with
// edit, which gets the line's fields.
func forgeLine(t *testing.T, dir string, n int, edit func(f []string)) {
	t.Helper()
	path := filepath.Join(dir, resultsFileName)
	lines := strings.Split(string(mustRead(t, path)), "\n")
	found := false
	for i, line := range lines {
		f := strings.Split(line, "\t")
		if i > 0 && f[0] == fmt.Sprint(n) {
			edit(f)
			lines[i] = strings.Join(f, "\t")
			found = true
		}
	}
	if !found {
		t.Fatalf("%s has no line of game %d", path, n)
	}
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
}

// toRandom makes a line's game one that random won 64-0 (the fields of
// resultsHeader).
func toRandom(f []string) {
	if f[3] == "random" {
		f[5] = "1-0"
	} else {
		f[5] = "0-1"
	}
	f[6], f[7], f[8] = "random", "discs", "64-0"
}

// greedyWin is the number of a game greedy won in games.
func greedyWin(t *testing.T, games map[int]storedGame) int {
	t.Helper()
	for n, g := range games {
		if w := g.Result.Winner; w >= 0 && g.Seats[w] == "greedy" {
			return n
		}
	}
	t.Fatal("greedy won no game")
	return 0
}

// TestForgedResultsResume: -resume believes no forged results.tsv: a line
// of a game greedy won, edited to random's 64-0 win, is refused naming the
// game, with the table left as it was; so is a line for a game the run does
// not have, a run.json whose seed or flags were changed, and a line whose
// game directory is missing. A run of an earlier arena (no game.json) is
// checked against its result.txt.
func TestForgedResultsResume(t *testing.T) {
	games, dir := playedGames(t, "match", "othello", "greedy", "random", "-games", "4", "-seed", "5", "-time", "none")
	won := greedyWin(t, games)
	before := runSummary(t, dir)

	forged := copyDir(t, dir, filepath.Join(t.TempDir(), "forged"))
	forgeLine(t, forged, won, toRandom)
	err := refusedWithin(t, "match", "-resume", forged)
	wantRefused(t, "a forged line", err, fmt.Sprintf(`game %d: results.tsv says "[a-z]+" vs "[a-z]+": random wins \(discs, "64-0", \d+ plies\), but the game's own record \(.*game.json\) says .*greedy wins`, won))
	if after := runSummary(t, forged); after != before {
		t.Errorf("the refused resume changed results.txt:\n%s", after)
	}

	extra := copyDir(t, dir, filepath.Join(t.TempDir(), "extra"))
	f, err := os.OpenFile(filepath.Join(extra, resultsFileName), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(f, "9\t0\t8\tgreedy\trandom\t0-1\trandom\tdiscs\t0-64\t60\t\t\t%s\t0\t0\n", filepath.Join(extra, "009-greedy-vs-random", "gamelog_arena.txt"))
	f.Close()
	wantRefused(t, "a line for game 9", refusedWithin(t, "match", "-resume", extra), `results.tsv holds a line for game 9, which this run does not have \(its games: 1 to 4\)`)

	for _, c := range []struct {
		name, from, to, want string
	}{
		{"seed", `"seed": 5,`, `"seed": 6,`, `run.json is not the run the game was played in: seed 6 in run.json, 5 in the game's record`},
		{"flags", `"time": "none"`, `"time": "30s/move"`, `run.json is not the run the game was played in: -time "30s/move" in run.json, "none" in the game's record`},
	} {
		changed := copyDir(t, dir, filepath.Join(t.TempDir(), c.name))
		path := filepath.Join(changed, runFileName)
		text := string(mustRead(t, path))
		if !strings.Contains(text, c.from) {
			t.Fatalf("run.json holds no %s:\n%s", c.from, text)
		}
		if err := os.WriteFile(path, []byte(strings.Replace(text, c.from, c.to, 1)), 0o644); err != nil {
			t.Fatal(err)
		}
		wantRefused(t, "run.json with another "+c.name, refusedWithin(t, "match", "-resume", changed), `game 1: .*`+c.want)
	}

	lost := copyDir(t, dir, filepath.Join(t.TempDir(), "lost"))
	name := filepath.Base(filepath.Dir(games[won].Result.Record))
	if err := os.RemoveAll(filepath.Join(lost, name)); err != nil {
		t.Fatal(err)
	}
	wantRefused(t, "a missing game directory", refusedWithin(t, "match", "-resume", lost), fmt.Sprintf(`game %d: results.tsv has its line, but its directory .*%s is missing`, won, name))

	// An earlier arena's run: no game.json, result.txt checked.
	old := copyDir(t, dir, filepath.Join(t.TempDir(), "old"))
	files, _ := filepath.Glob(filepath.Join(old, "*", gameFileName))
	if len(files) != 4 {
		t.Fatalf("%d game.json files, want 4", len(files))
	}
	for _, f := range files {
		os.Remove(f)
	}
	out := runArena(t, "match", "-resume", old)
	matchAll(t, out, `Resumed: 4 of 4 games were played before; playing the other 0\.`)
	forgeLine(t, old, won, toRandom)
	wantRefused(t, "a forged line of an earlier arena's run", refusedWithin(t, "match", "-resume", old), fmt.Sprintf(`game %d: results.tsv says .*random wins .*result.txt\) says otherwise: "game %d: .*greedy wins`, won, won))
}

// TestForgedResultsMerge: arena merge of a shard with a forged line, a
// symbolic link to a file outside in a game's directory, or a missing game
// directory refuses, naming the game or the link, and leaves no -out (nor
// its temporary directory) behind; without -out the forged line and the
// missing directory are refused too.
func TestForgedResultsMerge(t *testing.T) {
	root := t.TempDir()
	at := func(name string) string { return filepath.Join(root, name) }
	s0 := shardOf(t, at("s0"), 0, 2, nil)
	s1 := shardOf(t, at("s1"), 1, 2, nil)
	games, err := readResults(s1)
	if err != nil {
		t.Fatal(err)
	}
	won := greedyWin(t, games)
	gameDir := filepath.Base(filepath.Dir(games[won].Result.Record))

	forged := copyDir(t, s1, at("forged"))
	forgeLine(t, forged, won, toRandom)

	secret := at("shadow")
	if err := os.WriteFile(secret, []byte("root:secret\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	linked := copyDir(t, s1, at("linked"))
	link := filepath.Join(linked, gameDir, "shadow")
	if err := os.Symlink(secret, link); err != nil {
		t.Fatal(err)
	}
	lost := copyDir(t, s1, at("lost"))
	if err := os.RemoveAll(filepath.Join(lost, gameDir)); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		shard, want string
		withoutOut  bool // refused without -out too
	}{
		{forged, fmt.Sprintf(`shard 1/2 \(%s\): game %d: results.tsv says .*random wins \(discs, "64-0".*but the game's own record .* says .*greedy wins`, regexp.QuoteMeta(forged), won), true},
		{linked, fmt.Sprintf(`game %d in shard 1/2: %s is a symbolic link \(to %s\): arena merge copies no link`, won, regexp.QuoteMeta(link), regexp.QuoteMeta(secret)), false},
		{lost, fmt.Sprintf(`game %d: results.tsv has its line, but its directory .*%s is missing`, won, gameDir), true},
	} {
		out := at("merged")
		wantRefused(t, "merge "+c.shard, refusedWithin(t, "merge", "-out", out, s0, c.shard), c.want)
		if _, err := os.Lstat(out); err == nil {
			t.Errorf("merge of %s made %s", c.shard, out)
		}
		if left, _ := filepath.Glob(filepath.Join(root, ".merged*")); len(left) > 0 {
			t.Errorf("merge of %s left %q", c.shard, left)
		}
		if c.withoutOut {
			wantRefused(t, "merge without -out "+c.shard, refusedWithin(t, "merge", s0, c.shard), c.want)
		}
	}
	// The good shards merge; the merged run holds its own game.json, and
	// resumes.
	out := at("merged")
	runArena(t, "merge", "-out", out, s0, s1)
	runArena(t, "tournament", "-resume", out)
	if b := mustRead(t, filepath.Join(out, gameDir, gameFileName)); strings.Contains(string(b), `"shard"`) {
		t.Errorf("the merged game.json names a shard:\n%s", b)
	}
}

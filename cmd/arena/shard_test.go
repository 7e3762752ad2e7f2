package main

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"pgregory.net/rapid"
)

// testTournament is the schedule's input for a round robin of n players
// (named p0, p1, ...) playing games games per pairing.
func testTournament(n, games int, swap bool) (*matchConfig, []pairing) {
	cfg := &matchConfig{Game: othelloDef(), Games: games, Swap: swap, Seed: 12345, Out: "out"}
	for i := range n {
		cfg.Players = append(cfg.Players, &playerSpec{Name: fmt.Sprintf("p%d", i), Builtin: "random"})
	}
	return cfg, roundRobin(n)
}

// TestScheduleInterleaved: a tournament's games come round by round, game
// pair k of every pairing before pair k+1 of any, a pair's two games side by
// side with the seats swapped; every game keeps the seed, index and seats it
// has in its pairing, and the games are numbered 1, 2, ... in that order. A
// match's games are its pairing's, in order.
func TestScheduleInterleaved(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		players := rapid.IntRange(2, 7).Draw(t, "players")
		games := rapid.IntRange(1, 9).Draw(t, "games")
		swap := rapid.Bool().Draw(t, "swap")
		cfg, pairs := testTournament(players, games, swap)
		sched := schedule(cfg, pairs)
		if len(sched) != len(pairs)*games {
			t.Fatalf("%d games, want %d", len(sched), len(pairs)*games)
		}
		seen := map[[2]int]bool{}
		for i, g := range sched {
			j := g.job
			if j.N != i+1 {
				t.Fatalf("game %d has number %d", i+1, j.N)
			}
			key := [2]int{g.pair.index, j.Index}
			if seen[key] {
				t.Fatalf("pairing %d game %d twice", key[0], key[1])
			}
			seen[key] = true
			if want := cfg.Seed ^ uint64(g.pair.index)*0x9E3779B97F4A7C15; j.Seed != want {
				t.Fatalf("game %d: seed %x, want %x", j.N, j.Seed, want)
			}
			a, b := cfg.Players[g.pair.a], cfg.Players[g.pair.b]
			if swap && j.Index%2 == 1 {
				a, b = b, a
			}
			if j.Seats != [2]*playerSpec{a, b} {
				t.Fatalf("game %d (pairing %d, index %d): seats %s, %s", j.N, g.pair.index, j.Index, j.Seats[0].Name, j.Seats[1].Name)
			}
			if want := filepath.Join("out", fmt.Sprintf("%03d-%s-vs-%s", j.N, a.Name, b.Name)); j.Dir != want {
				t.Fatalf("game %d: directory %s, want %s", j.N, j.Dir, want)
			}
			if i > 0 {
				prev := sched[i-1]
				if j.Index/2 < prev.job.Index/2 {
					t.Fatalf("game %d is of round %d, after a game of round %d", j.N, j.Index/2, prev.job.Index/2)
				}
				if j.Index%2 == 1 && (prev.pair != g.pair || prev.job.Index != j.Index-1) {
					t.Fatalf("game %d (index %d of pairing %d) does not follow its pair's first game", j.N, j.Index, g.pair.index)
				}
			}
		}
		// A match: one pairing, its games in order.
		match := schedule(cfg, pairs[:1])
		for i, g := range match {
			if g.job.Index != i || g.job.N != i+1 {
				t.Fatalf("match game %d: number %d, index %d", i+1, g.job.N, g.job.Index)
			}
		}
	})
}

// TestShardSlices: the N shards of a schedule are disjoint, cover it, keep
// its order and each game pair in one shard; their numbers of pairs differ
// by one at most; with N rounds or more every shard plays every pairing;
// one shard is the whole schedule.
func TestShardSlices(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		players := rapid.IntRange(2, 9).Draw(t, "players")
		games := rapid.IntRange(1, 12).Draw(t, "games")
		n := rapid.IntRange(1, 10).Draw(t, "shards")
		cfg, pairs := testTournament(players, games, true)
		sched := schedule(cfg, pairs)
		owner := map[int]int{}
		units := make([]map[[2]int]bool, n)
		var covered []int
		for i := range n {
			units[i] = map[[2]int]bool{}
			slice := shardSpec{Index: i, Count: n}.of(sched, len(pairs))
			last := 0
			for _, g := range slice {
				if prev, ok := owner[g.job.N]; ok {
					t.Fatalf("game %d is in shards %d and %d", g.job.N, prev, i)
				}
				if g.job.N <= last {
					t.Fatalf("shard %d: game %d after game %d", i, g.job.N, last)
				}
				last = g.job.N
				owner[g.job.N] = i
				covered = append(covered, g.job.N)
				units[i][[2]int{g.pair.index, g.job.Index / 2}] = true
			}
		}
		if len(covered) != len(sched) {
			t.Fatalf("the shards hold %d games of %d", len(covered), len(sched))
		}
		for _, g := range sched {
			if g.job.Index%2 == 1 && owner[g.job.N] != owner[g.job.N-1] {
				t.Fatalf("game %d is in shard %d, its pair's first game %d in shard %d", g.job.N, owner[g.job.N], g.job.N-1, owner[g.job.N-1])
			}
		}
		lo, hi := len(sched), 0
		for _, u := range units {
			lo, hi = min(lo, len(u)), max(hi, len(u))
		}
		if hi-lo > 1 {
			t.Fatalf("the shards hold %d to %d game pairs", lo, hi)
		}
		if rounds := (games + 1) / 2; rounds >= n {
			for i, u := range units {
				for p := range pairs {
					if !slices.ContainsFunc(slices.Collect(maps.Keys(u)), func(k [2]int) bool { return k[0] == p }) {
						t.Fatalf("%d rounds, %d shards: shard %d never plays pairing %d", rounds, n, i, p)
					}
				}
			}
		}
		if whole := (shardSpec{Index: 0, Count: 1}).of(sched, len(pairs)); len(whole) != len(sched) {
			t.Fatalf("shard 0/1 has %d games of %d", len(whole), len(sched))
		}
	})
}

// TestShardSpreadsPairings: three players cut into three shards (the number
// of pairings) do not leave each shard one pairing: the deal moves on each
// round. A plain "pair k to shard k mod N" fails this.
func TestShardSpreadsPairings(t *testing.T) {
	cfg, pairs := testTournament(3, 6, true)
	sched := schedule(cfg, pairs)
	for i := range 3 {
		var got []int
		for _, g := range (shardSpec{Index: i, Count: 3}).of(sched, len(pairs)) {
			if !slices.Contains(got, g.pair.index) {
				got = append(got, g.pair.index)
			}
		}
		if len(got) != 3 {
			t.Errorf("shard %d/3 plays pairings %v, want all three", i, got)
		}
	}
}

// TestParseShard: -shard takes I/N with I from 0 to N-1, and says what is
// wrong with anything else.
func TestParseShard(t *testing.T) {
	for _, c := range []struct {
		in   string
		want shardSpec
		err  string
	}{
		{"0/1", shardSpec{0, 1}, ""},
		{"0/3", shardSpec{0, 3}, ""},
		{"2/3", shardSpec{2, 3}, ""},
		{" 4/5 ", shardSpec{4, 5}, ""},
		{"3/3", shardSpec{}, "shard index 3 is out of range: shards are counted from 0, so the 3 shards are 0/3 to 2/3 (for indices from 1, give I-1)"},
		{"7/3", shardSpec{}, "shard index 7 is out of range"},
		{"-1/3", shardSpec{}, "shard index -1 is out of range"},
		{"/3", shardSpec{}, "no shard index I before the \"/\" (is the variable that gives it, JOB_COMPLETION_INDEX or SLURM_ARRAY_TASK_ID, unset?)"},
		{"1/", shardSpec{}, "no number of shards N after the \"/\""},
		{"1/0", shardSpec{}, "the number of shards N is 0; it must be at least 1"},
		{"0/1000001", shardSpec{}, "at most 100000"},
		{"x/3", shardSpec{}, "the shard index I, \"x\", is not a whole number"},
		{"1/three", shardSpec{}, "the number of shards N, \"three\", is not a whole number"},
		{"2", shardSpec{}, "not I/N"},
		{"env", shardSpec{}, "not I/N"},
		{"", shardSpec{}, "not I/N"},
	} {
		got, err := parseShard(c.in)
		switch {
		case c.err == "" && (err != nil || got != c.want):
			t.Errorf("parseShard(%q) = %v, %v; want %v", c.in, got, err, c.want)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("parseShard(%q) error %v, want %q", c.in, err, c.err)
		}
	}
}

// TestETA: the progress line's ETA is the mean wall time of the games this
// run played times the games left over those played at once; unknown until
// a game has ended; restored and unfinished games do not count.
func TestETA(t *testing.T) {
	e := etaClock{jobs: 2}
	if got := e.left(10); got != "ETA ?" {
		t.Errorf("before any game: %q", got)
	}
	e.add(&finished{restored: true, result: gameResult{Winner: 0}, wall: time.Hour})
	e.add(&finished{result: gameResult{Winner: -2}, wall: time.Hour})
	if got := e.left(10); got != "ETA ?" {
		t.Errorf("after a restored and an unfinished game: %q", got)
	}
	e.add(&finished{result: gameResult{Winner: 1}, wall: 10 * time.Second})
	e.add(&finished{result: gameResult{Winner: -1}, wall: 30 * time.Second})
	for _, c := range []struct {
		left int
		want string
	}{{10, "ETA 1m40s"}, {1, "ETA 20s"}, {0, "ETA 0s"}} {
		if got := e.left(c.left); got != c.want {
			t.Errorf("mean 20s, -j 2, %d left: %q, want %q", c.left, got, c.want)
		}
	}
}

// TestShardCommandLine: -shard needs -seed and belongs to tournaments;
// run.json records it; a shard plays its slice, says so, and prints the
// table of its games.
func TestShardCommandLine(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		args []string
		err  string
	}{
		{[]string{"tournament", "othello", "random", "greedy", "-shard", "0/2", "-out", filepath.Join(dir, "x")}, "-shard 0/2 needs -seed"},
		{[]string{"tournament", "othello", "random", "greedy", "-shard", "2/2", "-seed", "1"}, `invalid value "2/2" for flag -shard: shard index 2 is out of range`},
		{[]string{"match", "othello", "-shard", "0/2", "-seed", "1"}, "flag provided but not defined: -shard"},
	} {
		err := run(t.Context(), c.args, new(strings.Builder), new(strings.Builder))
		if err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("arena %q: %v, want %q", c.args, err, c.err)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "x")); err == nil {
		t.Errorf("a refused shard made its -out directory")
	}
	out := filepath.Join(dir, "s1")
	text := runArena(t, "tournament", "othello", "random", "greedy", "r2=random", "-games", "2", "-seed", "5", "-time", "none", "-shard", "1/2", "-out", out)
	matchAll(t, text, `(?m)^Othello round robin: random, greedy, r2; 2 games per pairing, 6 games, `,
		`(?m)^Shard 1/2 \(counted from 0\): 2 games of the 6; "arena merge" joins the 2 shards' directories$`,
		`(?m)^\s+\d\s+\S+\s+[0-2]\s`)
	rec, err := readRunRecord(out)
	if err != nil || rec.Flags["shard"] != "1/2" {
		t.Fatalf("run.json: %+v, %v", rec, err)
	}
	games, err := readResults(out)
	if err != nil || len(games) != 2 || games[3].Index != 0 || games[4].Index != 1 {
		t.Errorf("shard 1/2 played %+v (%v), want games 3 and 4 (the first pair of pairing 1)", games, err)
	}
}

// TestShardResume: a shard stopped after its first game goes on with
// -resume, plays only its own unplayed games, and ends with the table of
// the same shard played at one go.
func TestShardResume(t *testing.T) {
	dir := t.TempDir()
	args := []string{"tournament", "othello", "random", "greedy", "alphabeta", "-games", "4", "-seed", "9", "-time", "none", "-j", "1", "-shard", "0/2"}
	whole := runArena(t, append(args, "-out", filepath.Join(dir, "whole"))...)

	// The same shard, stopped (as by Ctrl-C) once its first game is in
	// results.tsv: the progress line on stderr says so.
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	var out strings.Builder
	stop := &cancelOnWrite{cancel: cancel}
	err := run(ctx, append(args, "-out", filepath.Join(dir, "cut")), &out, stop)
	if err == nil || !strings.Contains(out.String(), "go on with: arena tournament -resume") {
		t.Fatalf("the stopped shard: %v\n%s", err, out.String())
	}
	cut, err := readResults(filepath.Join(dir, "cut"))
	if err != nil {
		t.Fatal(err)
	}
	finishedGames := 0
	for _, g := range cut {
		if g.Result.Winner >= -1 {
			finishedGames++
		}
	}
	if finishedGames < 1 || finishedGames >= 6 {
		t.Fatalf("the stopped shard finished %d games, want 1 to 5 of its 6", finishedGames)
	}
	resumed := runArena(t, "tournament", "-resume", filepath.Join(dir, "cut"))
	matchAll(t, resumed, fmt.Sprintf(`Resumed: %d of 6 games were played before; playing the other %d\.`, finishedGames, 6-finishedGames),
		`Shard 0/2 \(counted from 0\): 6 games of the 12`)
	if w, r := tableOf(whole), tableOf(resumed); w == "" || w != r {
		t.Errorf("table of the shard at one go:%s\ntable of the resumed shard:%s", w, r)
	}
	a, _ := readResults(filepath.Join(dir, "whole"))
	b, _ := readResults(filepath.Join(dir, "cut"))
	if !slices.Equal(slices.Sorted(maps.Keys(a)), slices.Sorted(maps.Keys(b))) {
		t.Errorf("games played at one go %v, after resuming %v", slices.Sorted(maps.Keys(a)), slices.Sorted(maps.Keys(b)))
	}
}

// cancelOnWrite is a progress output that calls cancel at its first
// progress line: a game has ended and is in results.tsv.
type cancelOnWrite struct {
	mu     sync.Mutex
	cancel func()
}

func (c *cancelOnWrite) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if strings.HasPrefix(string(p), "[") {
		c.cancel()
	}
	return len(p), nil
}

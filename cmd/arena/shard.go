package main

import (
	"fmt"
	"strconv"
	"strings"
)

// maxShards bounds N in -shard I/N: more shards than any cluster runs one
// tournament on; a larger N is taken for a typo.
const maxShards = 100000

// shardSpec is -shard I/N: the run plays the I-th of N disjoint slices of the
// tournament's schedule, I counted from 0 (as Kubernetes' JOB_COMPLETION_INDEX
// counts). The zero value (Count 0) is no -shard: the whole schedule.
//
// The schedule is cut at game pairs (games 2k and 2k+1 of a pairing, the
// seats swapped, or a pairing's last game alone when -games is odd), never
// inside one: a pair's two games, which share a dark chess deal or an
// opening, are played by one shard. Pair k of the schedule (from 0, in the
// order schedule lists the games) goes to shard (k + k/L) mod N, where L is
// the least common multiple of N and the number of pairings P: the pairs are
// dealt to the shards in turn, like cards, so that the shards' numbers of
// games differ by one pair at most after any round; and the deal moves on by
// one shard every L pairs, so that when N divides P a shard does not play
// the same pairings round after round (with N rounds or more, every shard
// plays every pairing).
type shardSpec struct {
	Index, Count int
}

// String writes the spec as -shard takes it ("2/5"); "" for no shard.
func (s *shardSpec) String() string {
	if s == nil || s.Count == 0 {
		return ""
	}
	return fmt.Sprintf("%d/%d", s.Index, s.Count)
}

// Set parses -shard's value.
func (s *shardSpec) Set(v string) error {
	p, err := parseShard(v)
	if err != nil {
		return err
	}
	*s = p
	return nil
}

// parseShard reads "I/N": I from 0 to N-1, N from 1 to maxShards.
func parseShard(v string) (shardSpec, error) {
	is, ns, ok := strings.Cut(strings.TrimSpace(v), "/")
	if !ok {
		return shardSpec{}, fmt.Errorf("not I/N: give the shard's index I, counted from 0, and the number of shards N, as in 0/4, 1/4, 2/4, 3/4")
	}
	n, err := strconv.Atoi(ns)
	switch {
	case ns == "":
		return shardSpec{}, fmt.Errorf("no number of shards N after the \"/\"")
	case err != nil:
		return shardSpec{}, fmt.Errorf("the number of shards N, %q, is not a whole number", ns)
	case n < 1:
		return shardSpec{}, fmt.Errorf("the number of shards N is %d; it must be at least 1", n)
	case n > maxShards:
		return shardSpec{}, fmt.Errorf("the number of shards N is %d; at most %d", n, maxShards)
	}
	i, err := strconv.Atoi(is)
	switch {
	case is == "":
		return shardSpec{}, fmt.Errorf("no shard index I before the \"/\" (is the variable that gives it, JOB_COMPLETION_INDEX or SLURM_ARRAY_TASK_ID, unset?)")
	case err != nil:
		return shardSpec{}, fmt.Errorf("the shard index I, %q, is not a whole number", is)
	case i == n:
		return shardSpec{}, fmt.Errorf("shard index %d is out of range: shards are counted from 0, so the %d shards are 0/%d to %d/%d (for indices from 1, give I-1)", i, n, n, n-1, n)
	case i < 0 || i > n:
		return shardSpec{}, fmt.Errorf("shard index %d is out of range: shards are counted from 0, so the %d shards are 0/%d to %d/%d", i, n, n, n-1, n)
	}
	return shardSpec{Index: i, Count: n}, nil
}

// shardOfPair is the shard, from 0, of the schedule's game pair k (from 0)
// when the schedule has pairings pairings and is cut into n shards; see
// shardSpec.
func shardOfPair(k, pairings, n int) int {
	l := n / gcd(n, max(pairings, 1)) * max(pairings, 1)
	return (k + k/l) % n
}

// gcd is the greatest common divisor of a and b, both positive.
func gcd(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// shardsOf returns the shard, from 0, of each of games (schedule's list for
// pairings pairings) when cut into n shards.
func shardsOf(games []finished, pairings, n int) []int {
	out := make([]int, len(games))
	k := -1
	for i := range games {
		if i == 0 || games[i].pair.index != games[i-1].pair.index || games[i].job.Index/2 != games[i-1].job.Index/2 {
			k++
		}
		out[i] = shardOfPair(k, pairings, n)
	}
	return out
}

// of returns the games of the schedule games (of pairings pairings) that
// shard s plays, in the schedule's order; all of them when s is no shard.
func (s shardSpec) of(games []finished, pairings int) []finished {
	if s.Count == 0 {
		return games
	}
	var out []finished
	for i, sh := range shardsOf(games, pairings, s.Count) {
		if sh == s.Index {
			out = append(out, games[i])
		}
	}
	return out
}

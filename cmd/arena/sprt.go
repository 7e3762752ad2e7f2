package main

import (
	"context"
	"flag"
	"fmt"
	"io"

	"github.com/botarena/botarena/sprt"
)

// defaultSPRTGames is the cap on games of a match with -sprt and no
// -games: 100000 games, 50000 pairs. A [0, 5] test at α = β = 0.05 in
// normalized Elo (the order of size fishtest uses) is expected to run
// about 42000 games when the true difference lies midway, its slowest case
// (ln((1-β)/α)·ln((1-α)/β) over the LLR's variance per pair, about
// (√2·5/347.4)²), and about 26000 at elo0 or elo1. At the slowest case
// the cap, 2.4 times the expected length, ends about 7% of such tests
// without a verdict (the exit time of a Brownian motion from an interval
// exceeds k times its mean with probability about 4/π·e^(-π²k/8)); a
// wider test, or a true difference nearer either hypothesis or beyond,
// rarely reaches it.
const defaultSPRTGames = 100000

// sprtFlag is -sprt: the test, or nil when the flag is not given.
type sprtFlag struct {
	test *sprt.Test
}

// String writes the test in sprt.Parse's form, "" when not set.
func (f *sprtFlag) String() string {
	if f == nil || f.test == nil {
		return ""
	}
	return f.test.String()
}

// Set parses the flag's value.
func (f *sprtFlag) Set(s string) error {
	t, err := sprt.Parse(s)
	if err != nil {
		return err
	}
	f.test = &t
	return nil
}

// addSPRTFlag adds -sprt to a match's flags.
func addSPRTFlag(fs *flag.FlagSet, f *sprtFlag) {
	fs.Var(f, "sprt", "play game pairs (seats swapped) until a sequential probability ratio test decides: `elo0=0,elo1=5,alpha=0.05,beta=0.05` (alpha and beta default to 0.05; Elo is normalized Elo unless model=logistic); -games is then the cap (default 100000, even)")
}

// prepareSPRT checks and completes a match's flags for -sprt: the games
// come in pairs with the seats swapped, and -games, the cap, defaults to
// defaultSPRTGames. fs holds the flags as given.
func prepareSPRT(fs *flag.FlagSet, cfg *matchConfig, f *sprtFlag) error {
	if f.test == nil {
		return nil
	}
	given := map[string]bool{}
	fs.Visit(func(fl *flag.Flag) { given[fl.Name] = true })
	if !given["games"] {
		cfg.Games = defaultSPRTGames
	}
	switch {
	case !cfg.Swap:
		return fmt.Errorf("-sprt plays game pairs with the seats swapped; it cannot go with -swap=false")
	case cfg.Games < 2 || cfg.Games%2 != 0:
		return fmt.Errorf("-games %d: with -sprt, -games is the cap on games, played in pairs: give an even number, 2 or more", cfg.Games)
	}
	return nil
}

// sprtRun follows the test of a match: it pairs the games as they end
// (games 2k and 2k+1 of the pairing, the same start with the seats
// swapped), counts each pair whose two games both finished in the
// pentanomial of the first player, prints the LLR after each, and says
// when to stop starting games.
type sprtRun struct {
	test         sprt.Test
	a            *playerSpec // the player whose Elo is tested
	b            string      // its opponent's name
	w            io.Writer
	cap          int // the games scheduled
	penta        sprt.Pentanomial
	llr          float64
	half         map[int]*finished // a pair's game whose partner has not ended
	broken       map[int]bool      // pairs with an unfinished game
	launched     map[int]bool      // pairs with a game started (or restored)
	verdict      sprt.Verdict      // at the first crossing of a bound
	verdictPairs int               // the pairs counted then
	verdictLLR   float64
}

// newSPRTRun starts following test of a's Elo over b, printing to w.
func newSPRTRun(test sprt.Test, a, b *playerSpec, w io.Writer) *sprtRun {
	return &sprtRun{test: test, a: a, b: b.Name, w: w, half: map[int]*finished{}, broken: map[int]bool{}, launched: map[int]bool{}}
}

// pairOf is the pair a game belongs to within its pairing.
func pairOf(g *finished) int { return g.job.Index / 2 }

// header describes the test.
func (s *sprtRun) header(games int) {
	s.cap = games
	lower, upper := s.test.Bounds()
	fmt.Fprintf(s.w, "SPRT %s (%s Elo of %s over %s): bounds (%.2f, %.2f), at most %d pairs\n",
		s.test, s.test.Model, s.a.Name, s.b, lower, upper, games/2)
}

// done counts a finished game (a restored one too).
func (s *sprtRun) done(g *finished) {
	key := pairOf(g)
	s.launched[key] = true
	if s.broken[key] {
		return
	}
	if g.result.Winner < -1 {
		s.broken[key] = true
		delete(s.half, key)
		fmt.Fprintf(s.w, "SPRT: game %d unfinished: pair %d not counted\n", g.job.N, key+1)
		return
	}
	first, ok := s.half[key]
	if !ok {
		s.half[key] = g
		return
	}
	delete(s.half, key)
	s.penta.Add(s.resultOf(first), s.resultOf(g))
	s.llr = s.test.LLR(s.penta)
	lower, upper := s.test.Bounds()
	fmt.Fprintf(s.w, "SPRT: llr %.2f (%.2f, %.2f) [elo0 %g, elo1 %g] pairs %d\n",
		s.llr, lower, upper, s.test.Elo0, s.test.Elo1, s.penta.Pairs())
	if s.verdict == sprt.Continue {
		if v := s.test.Verdict(s.llr); v != sprt.Continue {
			s.verdict, s.verdictPairs, s.verdictLLR = v, s.penta.Pairs(), s.llr
		}
	}
}

// resultOf is g's result for the tested player; g is finished.
func (s *sprtRun) resultOf(g *finished) sprt.Result {
	switch res, _ := outcomeFor(g, s.a); {
	case res > 0:
		return sprt.Win
	case res < 0:
		return sprt.Loss
	}
	return sprt.Draw
}

// stop reports whether next is not to be started: once the test has a
// verdict, no game starts but one that completes a pair already begun.
func (s *sprtRun) stop(next *finished) bool {
	key := pairOf(next)
	if s.verdict != sprt.Continue && !s.launched[key] {
		return true
	}
	s.launched[key] = true
	return false
}

// summary prints the verdict, the pairs and the Elo estimate from them.
func (s *sprtRun) summary(interrupted bool) {
	lower, upper := s.test.Bounds()
	fmt.Fprintf(s.w, "\nSPRT %s (%s Elo of %s - %s): ", s.test, s.test.Model, s.a.Name, s.b)
	switch {
	case s.verdict != sprt.Continue:
		fmt.Fprintf(s.w, "%v after %d pairs (llr %.2f, bounds %.2f, %.2f)", s.verdict, s.verdictPairs, s.verdictLLR, lower, upper)
		if s.penta.Pairs() > s.verdictPairs {
			more, verb := s.penta.Pairs()-s.verdictPairs, "were"
			if more == 1 {
				verb = "was"
			}
			fmt.Fprintf(s.w, "; %s %s under way: llr %.2f over %d", plural(more, "more pair"), verb, s.llr, s.penta.Pairs())
		}
	case interrupted:
		fmt.Fprintf(s.w, "no verdict yet, interrupted after %d pairs: llr %.2f (%.2f, %.2f)", s.penta.Pairs(), s.llr, lower, upper)
	default:
		fmt.Fprintf(s.w, "no verdict after %d pairs (the cap, -games %d): llr %.2f (%.2f, %.2f)", s.penta.Pairs(), s.cap, s.llr, lower, upper)
	}
	fmt.Fprintln(s.w)
	p := s.penta
	fmt.Fprintf(s.w, "  Ptnml(0-2): [%d, %d, %d, %d, %d] (pairs by %s's points: 0, 1/2, 1, 3/2, 2)\n", p[0], p[1], p[2], p[3], p[4], s.a.Name)
	if e := p.Estimate(); p.Pairs() > 0 {
		fmt.Fprintf(s.w, "  Elo from pairs (%s - %s): %s, normalized %s\n", s.a.Name, s.b, formatElo(e.Elo, e.Margin), formatElo(e.NormalizedElo, e.NormalizedMargin))
	}
	if n := len(s.half) + len(s.broken); n > 0 {
		fmt.Fprintf(s.w, "  %s not counted: a game of each unfinished or unplayed\n", plural(n, "pair"))
	}
}

// wrap adds the test to a match's hooks: its line in the header, the LLR
// after each pair, the stop, and the verdict after the table (interrupted
// when ctx is done by then).
func (s *sprtRun) wrap(ctx context.Context, h runHooks) runHooks {
	header, done, table := h.header, h.done, h.table
	h.header = func(games []finished) {
		header(games)
		s.header(len(games))
	}
	h.done = func(g *finished) {
		done(g)
		s.done(g)
	}
	h.table = func() []tallyRow {
		rows := table()
		s.summary(ctx.Err() != nil)
		return rows
	}
	h.stop = s.stop
	return h
}

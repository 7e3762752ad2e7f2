package examples_test

import (
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	"github.com/botarena/botarena/internal/longtest"
)

// TestSearchExamples runs the four examples that play each game's best bot
// (search's *BestPlayer) as real programs, each speaking its game's protocol, in "arena match" games against arena's
// random bot: they think 100 ms a move (the examples offer no playout
// budget, only a time) under a control of 2 s a move, so that a loaded
// machine does not make them lose on time; the dark chess engine, which
// has no time option, shares out a 10 s sudden-death clock that MGTP tells
// it.
//
// The quick tier plays one pair of games per example, the seats swapped,
// both games at once (arena match -j 2) and the examples in parallel: a game
// lasts as many 100 ms as the example has moves, however many run at once.
// It checks the wiring: every game is played to its end with no fault of
// the example's (could not start, crashed, timed out, illegal move,
// disconnected) and counted in the example's result line. How many it wins
// depends on how much it searched in its 100 ms, that is on the machine's
// load, so the quick tier does not check it. The long tier (BOTARENA_LONG=1)
// plays four games (two for PDD, whose games are long) one at a time and
// one example at a time, so that each has the machine to itself, and adds
// the strength check: the example wins most of them (with seed 1 each wins
// all today; a draw fails nothing).
func TestSearchExamples(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the example programs in whole games")
	}
	arena := build(t, "../cmd/arena")
	for _, c := range []struct {
		game, dir, proto string
		control          string
		games, atLeast   int // in the long tier
	}{
		{"othello", "othello-best", "tcp", "2s/move", 4, 3},
		{"geister", "geister-best", "stdio", "2s/move", 4, 3},
		// The 2021 system's clock is sudden death, which MGTP tells.
		{"darkchess", "darkchess-best", "mgtp", "10s", 4, 3},
		{"pdd", "pdd-best", "strategy", "2s/move", 2, 1},
	} {
		t.Run(c.game, func(t *testing.T) {
			if !longtest.Enabled() {
				t.Parallel()
			}
			c.games = longtest.Pick(2, c.games)
			if c.control == "10s" && !longtest.Enabled() {
				// Sudden death, which the example shares out over its
				// moves: the quick tier's games think half as long.
				c.control = "5s"
			}
			bin := build(t, c.dir)
			prog := c.proto + ":" + bin
			if c.control != "10s" {
				// darkchess-best shares out the clock itself; the others
				// think 100 ms a move, 30 ms in the quick tier, well within
				// the limit of 2 s.
				prog += " -time " + longtest.Pick("30ms", "100ms")
			}
			cmd := exec.Command(arena, "match", c.game, prog, "random",
				"-games", strconv.Itoa(c.games), "-j", strconv.Itoa(longtest.Pick(2, 1)),
				"-time", c.control, "-seed", "1", "-out", filepath.Join(t.TempDir(), "run"))
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("%s: %v\n%s", cmd, err, out)
			}
			if m := regexp.MustCompile(regexp.QuoteMeta(c.dir) + ` (could not start|crashed|timed out|illegal move|disconnected)`).Find(out); m != nil {
				t.Errorf("%s: %q\n%s", cmd, m, out)
			}
			m := regexp.MustCompile(`(?m)^\s*` + regexp.QuoteMeta(c.dir) + `\s+(\d+) wins, (\d+) draws, (\d+) losses`).FindSubmatch(out)
			if m == nil {
				t.Fatalf("%s: no result line for %s\n%s", cmd, c.dir, out)
			}
			var n [3]int
			for i := range n {
				n[i], _ = strconv.Atoi(string(m[i+1]))
			}
			if n[0]+n[1]+n[2] != c.games {
				t.Errorf("%s: %s won %d, drew %d and lost %d games, want %d games in all\n%s", cmd, c.dir, n[0], n[1], n[2], c.games, out)
			} else if longtest.Enabled() && n[0] < c.atLeast {
				t.Errorf("%s: %s won %d, drew %d and lost %d of %d games against random, want %d games and at least %d wins\n%s",
					cmd, c.dir, n[0], n[1], n[2], c.games, c.games, c.atLeast, out)
			}
			t.Logf("%s: %d wins, %d draws, %d losses", c.dir, n[0], n[1], n[2])
		})
	}
}

package examples_test

import (
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
)

// TestSearchExamples runs the four search examples as real programs, each
// speaking its game's protocol, in "arena match" games against arena's
// random bot: they think 100 ms a move under a control of 2 s a move, so
// that a loaded machine does not make them lose on time. Every game must be
// played to its end with no fault of the example's (could not start,
// crashed, timed out, illegal move, disconnected), and the example must win
// most of them (with seed 1 each wins all today; a draw fails nothing).
func TestSearchExamples(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the example programs in whole games")
	}
	arena := build(t, "../cmd/arena")
	for _, c := range []struct {
		game, dir, proto string
		games, atLeast   int
	}{
		{"othello", "othello-mcts", "tcp", 4, 3},
		{"geister", "geister-ismcts", "stdio", 4, 3},
		{"darkchess", "darkchess-expecti", "mgtp", 4, 3},
		{"pdd", "pdd-mcts", "strategy", 2, 1},
	} {
		t.Run(c.game, func(t *testing.T) {
			bin := build(t, c.dir)
			cmd := exec.Command(arena, "match", c.game, c.proto+":"+bin+" -time 100ms", "random",
				"-games", strconv.Itoa(c.games), "-time", "2s/move", "-seed", "1", "-out", filepath.Join(t.TempDir(), "run"))
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
			if n[0]+n[1]+n[2] != c.games || n[0] < c.atLeast {
				t.Errorf("%s: %s won %d, drew %d and lost %d of %d games against random, want %d games and at least %d wins\n%s",
					cmd, c.dir, n[0], n[1], n[2], c.games, c.games, c.atLeast, out)
			}
			t.Logf("%s: %d wins, %d draws, %d losses", c.dir, n[0], n[1], n[2])
		})
	}
}

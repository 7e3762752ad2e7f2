package darkchess_test

import (
	"bufio"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/botarena/botarena/darkchess"
	"github.com/botarena/botarena/internal/sharedtest"
	"github.com/botarena/botarena/record"
	gocmp "github.com/google/go-cmp/cmp"
)

// recordsTestdata returns the shared folder of real dark chess records, or
// skips the test if it is absent (a checkout of this repository alone).
func recordsTestdata(t testing.TB) string {
	t.Helper()
	sharedtest.Dir(t, "darkchess", "records", "index.tsv")
	return sharedtest.Dir(t, "darkchess")
}

// readPlies reads a record with package record's board.txt reader, checks
// that the game starts from the all-face-down opening, and returns its
// plies.
func readPlies(t testing.TB, path string) []darkchess.Ply {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	b, err := record.ReadDarkChessBoard(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if b.Start != darkchess.Opening {
		t.Fatalf("%s: not an all-face-down start: %s", path, b.Start)
	}
	return b.Plies
}

// replay plays the plies under rules from the opening without a deal, every
// flip naming its piece. It returns the game and the index of the first
// refused ply (len(plies) if none) with its error.
func replay(rules darkchess.Rules, plies []darkchess.Ply) (*darkchess.Game, int, error) {
	g := darkchess.NewGame(rules, nil)
	for i, ply := range plies {
		if err := g.PlayPly(ply); err != nil {
			return g, i, err
		}
	}
	return g, len(plies), nil
}

// checkRecordMoves compares the legal moves of every position of g with the
// naive reference's.
func checkRecordMoves(t testing.TB, name string, g *darkchess.Game) {
	t.Helper()
	var buf [darkchess.MaxMoves]darkchess.Move
	for i := 0; i <= g.Ply(); i++ {
		p, _ := g.PositionAt(i)
		ref := toRef(p)
		if got, want := p.AppendLegalMoves(buf[:0]), ref.moves(); !slices.Equal(got, want) {
			t.Fatalf("%s, before ply %d, %s: moves (-ref +got):\n%s", name, i+1, p, gocmp.Diff(want, got))
		}
	}
}

// TestRecords2021 replays every 2021 record under NTU2021: every ply is
// legal, the game ends exactly where and as index.tsv says, and every position
// has the reference's moves. Replayed under Classic, no repetition game is a
// draw at its last ply (the Classic draw comes one ply later).
func TestRecords2021(t *testing.T) {
	dir := recordsTestdata(t)
	f, err := os.Open(filepath.Join(dir, "records", "index.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Scan() // the header
	endings := map[string]int{}
	for sc.Scan() {
		c := strings.Split(sc.Text(), "\t")
		if len(c) != 8 {
			t.Fatalf("index.tsv: %q", sc.Text())
		}
		file, firstColour, plyCount, ending, winner := c[0], c[3], c[4], c[5], c[6]
		plies := readPlies(t, filepath.Join(dir, "records", file))
		if strconv.Itoa(len(plies)) != plyCount {
			t.Errorf("%s: %d plies, index says %s", file, len(plies), plyCount)
		}
		g, n, err := replay(darkchess.NTU2021, plies)
		if err != nil {
			t.Errorf("%s: ply %d %s refused: %v", file, n+1, plies[n], err)
			continue
		}
		endings[ending]++
		if g.FirstColor().String() != firstColour {
			t.Errorf("%s: first colour %s, index says %s", file, g.FirstColor(), firstColour)
		}
		r, over := g.Result()
		var want darkchess.Result
		switch {
		case strings.HasPrefix(ending, "no-pieces"):
			want = darkchess.Result{Reason: darkchess.NoPieces, Winner: colourNamed(winner)}
		case ending == "blocked":
			want = darkchess.Result{Reason: darkchess.NoLegalPly, Winner: colourNamed(winner)}
		case strings.HasPrefix(ending, "repetition-k"):
			k, _ := strconv.Atoi(strings.TrimPrefix(ending, "repetition-k"))
			want = darkchess.Result{Reason: darkchess.PositionRepetitionDraw, Draw: true, Repetitions: 3, Cycle: k}
		case ending == "no-capture-no-flip-60":
			want = darkchess.Result{Reason: darkchess.NoEatFlipDraw, Draw: true}
		case ending == "timeout" || ending == "unfinished":
		default:
			t.Fatalf("%s: unknown ending %q", file, ending)
		}
		if over != (want.Reason != darkchess.Unfinished) || r != want {
			t.Errorf("%s: result %v (over %v), index says %s %s", file, r, over, ending, winner)
		}
		if strings.HasPrefix(ending, "repetition") {
			if gc, n, err := replay(darkchess.Classic, plies); err != nil || n != len(plies) || gc.IsOver() {
				t.Errorf("%s under Classic: %d plies, %v, over %v", file, n, err, gc.IsOver())
			}
		}
		checkRecordMoves(t, file, g)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	want := map[string]int{"no-pieces": 1678, "no-pieces(flips-left)": 22, "blocked": 18, "repetition-k4": 239, "repetition-k8": 2,
		"repetition-k12": 2, "no-capture-no-flip-60": 179, "timeout": 11, "unfinished": 15}
	if diff := gocmp.Diff(want, endings); diff != "" {
		t.Errorf("endings (-README +replayed):\n%s", diff)
	}
}

func colourNamed(s string) darkchess.Color {
	switch s {
	case "red":
		return darkchess.Red
	case "black":
		return darkchess.Black
	}
	return darkchess.NoColor
}

var fileName2017 = regexp.MustCompile(`^(\w+)_VS_(\w+)_\(.*\)-(\w+)_(Win|Lose|Draws)\.txt$`)

// TestRecords2017 replays the 2017 server records under Classic: each ends as
// its file name says (MoveError and RoundTimeout games still in play), and
// the four LongCatch games, replayed under NTU2021, reach the draw one ply
// before their end.
func TestRecords2017(t *testing.T) {
	dir := filepath.Join(recordsTestdata(t), "legacy", "2017-linux-client-3.1", "server-records")
	files, err := filepath.Glob(filepath.Join(dir, "*.txt"))
	if err != nil || len(files) != 27 {
		t.Fatalf("%d 2017 records, %v", len(files), err)
	}
	reasons := map[string]int{}
	for _, path := range files {
		name := filepath.Base(path)
		m := fileName2017.FindStringSubmatch(name)
		if m == nil {
			t.Fatalf("file name %q", name)
		}
		reason, outcome := m[3], m[4]
		reasons[reason]++
		plies := readPlies(t, path)
		g, n, err := replay(darkchess.Classic, plies)
		if err != nil {
			t.Errorf("%s: ply %d %s refused: %v", name, n+1, plies[n], err)
			continue
		}
		r, over := g.Result()
		switch reason {
		case "Normal":
			winner := g.FirstColor() // the first-named player is the first player
			if outcome == "Lose" {
				winner = winner.Opponent()
			}
			if !over || r.Reason != darkchess.NoPieces || r.Winner != winner {
				t.Errorf("%s: %v", name, r)
			}
		case "NoEatFlip":
			if r.Reason != darkchess.NoEatFlipDraw {
				t.Errorf("%s: %v", name, r)
			}
		case "LongCatch":
			if r != (darkchess.Result{Reason: darkchess.PositionRepetitionDraw, Draw: true, Repetitions: 3, Cycle: 4}) {
				t.Errorf("%s: %v", name, r)
			}
			gn, n, err := replay(darkchess.NTU2021, plies)
			if rn, _ := gn.Result(); n != len(plies)-1 || !errors.Is(err, darkchess.ErrGameOver) || rn.Reason != darkchess.PositionRepetitionDraw {
				t.Errorf("%s under NTU2021: stopped at ply %d of %d (%v), %v", name, n+1, len(plies), err, rn)
			}
		case "MoveError", "RoundTimeout":
			if over {
				t.Errorf("%s: over: %v", name, r)
			}
		default:
			t.Errorf("%s: unknown reason", name)
		}
		checkRecordMoves(t, name, g)
	}
	want := map[string]int{"Normal": 8, "MoveError": 5, "RoundTimeout": 1, "NoEatFlip": 9, "LongCatch": 4}
	if diff := gocmp.Diff(want, reasons); diff != "" {
		t.Errorf("reasons (-README +files):\n%s", diff)
	}
}

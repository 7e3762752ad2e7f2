package record_test

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/botarena/botarena/internal/sharedtest"
	"github.com/botarena/botarena/othello"
	"github.com/botarena/botarena/record"
	"github.com/google/go-cmp/cmp"
)

// goldenTranscripts is what the testdata README says of each -trans file.
var goldenTranscripts = []struct {
	file         string
	black, white string
	discs        [2]int // black, white at the end
	passLine     int    // the pass falls between lines passLine and passLine+1; 0 for none
	passer       othello.Color
	moveList     string // the game in the plain format, from the README
}{
	{"release-v1.0.0-gamelog-game-1-2026-07-22.txt", "V1ReleaseB1", "V1ReleaseA1", [2]int{33, 31}, 0, 0,
		"d3c5f6f5e6f7c6c7b5a4g6g5d6d7f4e7h6c4f8e2d2g3f3c3e8e3b6c1a5a6f2g4h3f1g2h5h4g7d8h7b4b3g1c8h8a3b7h1g8a7b8h2e1d1a2a1b2b1c2a8"},
	{"release-v1.0.0-gamelog-game-2-2026-07-22.txt", "V1ReleaseB2", "V1ReleaseA2", [2]int{33, 31}, 0, 0,
		"d3c5f6f5e6f7c6c7b5a4g6g5d6d7f4e7h6c4f8e2d2g3f3c3e8e3b6c1a5a6f2g4h3f1g2h5h4g7d8h7b4b3g1c8h8a3b7h1g8a7b8h2e1d1a2a1b2b1c2a8"},
	{"search-017-wld-gamelog-game-1-2026-07-22.txt", "WldFinal1", "WldFinal2", [2]int{37, 27}, 59, othello.Black,
		"d3c5f6f5e6f7c6c7b5a4g6h6f8e3d6g5b6d7c8e7a5a6f3d8e8f4g4g3h4h5h7c3e2g7h3b4c4b3c2d1c1f2d2f1b8e1g1g2b2a1a3b7h1h2g8h8a8a7b1a2"},
	{"search-017-wld-gamelog-game-2-2026-07-22.txt", "WldFinal4", "WldFinal3", [2]int{37, 27}, 59, othello.Black,
		"d3c5f6f5e6f7c6c7b5a4g6h6f8e3d6g5b6d7c8e7a5a6f3d8e8f4g4g3h4h5h7c3e2g7h3b4c4b3c2d1c1f2d2f1b8e1g1g2b2a1a3b7h1h2g8h8a8a7b1a2"},
	{"client-001-server-game-1-2026-07-22.txt", "PonderC", "PonderD", [2]int{40, 24}, 58, othello.White,
		"d3c5f6f5e6f7c6c7b5a4g6g5d6e7d7h6f4e8b6a5a6a7b4c4f8g3f3c3e3g4h3g8h4f2d8c8e2f1a3a2d2b3c2e1d1g7h5c1b7g2h1h2h7a8b8h8g1b2a1b1"},
	{"client-001-server-game-2-2026-07-22.txt", "PonderE", "PonderF", [2]int{36, 28}, 60, othello.White,
		"d3c5f6f5e6f7c6c7b5a4g6g5d6e7d7h6f4e8b6a5a6a7b4c4f8g3f3c3c8d8h3b7a3b3e3g4c2f2h5d2a8b8h4h2g7c1b2a2e1h8h7g8h1d1g1f1b1e2a1g2"},
}

// othelloTestdataDir returns the testdata folder, or skips the test if it is
// absent (a checkout of this repository alone).
func othelloTestdataDir(t testing.TB) string {
	t.Helper()
	return sharedtest.Dir(t, "othello")
}

// TestOthelloTestdataCovered checks that the table above covers every
// transcript in the folder, so a new file cannot go untested.
func TestOthelloTestdataCovered(t *testing.T) {
	dir := othelloTestdataDir(t)
	var found []string
	for _, pattern := range []string{"*gamelog*.txt", "client-001-server-game-*.txt"} {
		m, err := filepath.Glob(filepath.Join(dir, pattern))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range m {
			found = append(found, filepath.Base(f))
		}
	}
	var want []string
	for _, g := range goldenTranscripts {
		want = append(want, g.file)
	}
	slices.Sort(want)
	slices.Sort(found)
	if diff := cmp.Diff(want, found); diff != "" {
		t.Errorf("transcripts in %s (-table +folder):\n%s", dir, diff)
	}
}

// debugEnds collects the END lines of the server's debug logs, keyed by
// "<black nick>,<white nick>", as the discs they give.
func debugEnds(t *testing.T, dir string) map[string][2]int {
	t.Helper()
	ends := map[string][2]int{}
	re := regexp.MustCompile(`END Win:\[[^\]]*\] ([^:\s]+):(\d+) ([^:\s]+):(\d+)$`)
	files, err := filepath.Glob(filepath.Join(dir, "*-server-debug-*.txt"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(fh)
		for sc.Scan() {
			if m := re.FindStringSubmatch(sc.Text()); m != nil {
				b, _ := strconv.Atoi(m[2])
				w, _ := strconv.Atoi(m[4])
				ends[m[1]+","+m[3]] = [2]int{b, w}
			}
		}
		fh.Close()
		if err := sc.Err(); err != nil {
			t.Fatal(err)
		}
	}
	return ends
}

// TestOthelloTestdataReplay replays every real transcript: the nicknames,
// the passes where the README puts them, a finished game with the logged
// disc counts (checked against the debug log's END where there is one).
func TestOthelloTestdataReplay(t *testing.T) {
	dir := othelloTestdataDir(t)
	ends := debugEnds(t, dir)
	if len(ends) != 4 {
		t.Errorf("found %d END lines in the debug logs, want 4: %v", len(ends), ends)
	}
	for _, tc := range goldenTranscripts {
		t.Run(tc.file, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join(dir, tc.file))
			if err != nil {
				t.Fatal(err)
			}
			tr, err := record.ReadOthelloTranscript(bytes.NewReader(data), othello.Position{})
			if err != nil {
				t.Fatal(err)
			}
			if tr.Black != tc.black || tr.White != tc.white {
				t.Errorf("nicknames %q, %q; want %q, %q", tr.Black, tr.White, tc.black, tc.white)
			}
			if tr.Start != othello.TUS.Start {
				t.Errorf("start %s, want the TUS start", tr.Start)
			}
			g, err := tr.Game()
			if err != nil {
				t.Fatal(err)
			}
			res, over := g.Result()
			if !over || res.Reason != othello.Discs {
				t.Fatalf("game not finished on the board: %v", res)
			}
			if got := [2]int{res.Black, res.White}; got != tc.discs {
				t.Errorf("final discs %v, want %v", got, tc.discs)
			}
			if res.Black+res.White != 64 {
				t.Errorf("the board is not full: %v", res)
			}
			if end, ok := ends[tc.black+","+tc.white]; ok && end != tc.discs {
				t.Errorf("the debug log's END gives %v, the table %v", end, tc.discs)
			}

			// The passes: lines 2..L are moves 0..L-2, so a pass between
			// lines L and L+1 is move L-1.
			var passes []int
			for i, m := range tr.Moves {
				if m == othello.Pass {
					passes = append(passes, i)
				}
			}
			var wantPasses []int
			if tc.passLine != 0 {
				wantPasses = []int{tc.passLine - 1}
			}
			if diff := cmp.Diff(wantPasses, passes); diff != "" {
				t.Errorf("pass indices (-want +got):\n%s", diff)
			}
			for _, i := range passes {
				if p, _ := g.PositionAt(i); p.Turn() != tc.passer {
					t.Errorf("move %d: %s passed, want %s", i, p.Turn(), tc.passer)
				}
			}
			if lines := bytes.Count(data, []byte("\n")); len(tr.Moves) != lines-1+len(passes) {
				t.Errorf("%d moves for %d lines and %d passes", len(tr.Moves), lines, len(passes))
			}
		})
	}
}

// TestOthelloTestdataRoundTrip: -trans -> game -> move list (the README's)
// -> game -> -trans, byte for byte.
func TestOthelloTestdataRoundTrip(t *testing.T) {
	dir := othelloTestdataDir(t)
	readme, err := os.ReadFile(filepath.Join(dir, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range goldenTranscripts {
		t.Run(tc.file, func(t *testing.T) {
			if !bytes.Contains(readme, []byte("`"+tc.moveList+"`")) {
				t.Errorf("the README does not list %s", tc.moveList)
			}
			data, err := os.ReadFile(filepath.Join(dir, tc.file))
			if err != nil {
				t.Fatal(err)
			}
			tr, err := record.ReadOthelloTranscript(bytes.NewReader(data), othello.TUS.Start)
			if err != nil {
				t.Fatal(err)
			}
			g, err := tr.Game()
			if err != nil {
				t.Fatal(err)
			}

			var list bytes.Buffer
			if err := record.WriteOthelloMoveList(&list, g); err != nil {
				t.Fatal(err)
			}
			if got := list.String(); got != tc.moveList+"\n" {
				t.Errorf("move list\n got %q\nwant %q", got, tc.moveList+"\n")
			}

			std, err := record.ReadOthelloMoveList(&list)
			if err != nil {
				t.Fatal(err)
			}
			if std.Position() != othello.FlipX.Position(g.Position()) {
				t.Errorf("the move list's game ends on %s, want the mirror of %s", std.Position(), g.Position())
			}
			tus := mirrorGame(t, std)
			if diff := cmp.Diff(tr.Moves, tus.Moves()); diff != "" {
				t.Errorf("moves after the round trip (-trans +move list):\n%s", diff)
			}

			var out bytes.Buffer
			if err := record.WriteOthelloTranscript(&out, record.NewOthelloTranscript(tus, tr.Black, tr.White)); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(out.Bytes(), data) {
				t.Errorf("-trans after the round trip differs:\n%s", cmp.Diff(string(data), out.String()))
			}

			// The streaming writer writes the same bytes.
			var live bytes.Buffer
			tw, err := record.NewOthelloTransWriter(&live, tr.Black, tr.White)
			if err != nil {
				t.Fatal(err)
			}
			for i, m := range tr.Moves {
				if m == othello.Pass {
					continue
				}
				p, _ := g.PositionAt(i)
				if err := tw.Move(m.Square(), p.Turn()); err != nil {
					t.Fatal(err)
				}
			}
			if !bytes.Equal(live.Bytes(), data) {
				t.Errorf("OthelloTransWriter's output differs:\n%s", cmp.Diff(string(data), live.String()))
			}
		})
	}
}

// mirrorGame replays g's moves through FlipX from the mirror of g's start.
func mirrorGame(t testing.TB, g *othello.Game) *othello.Game {
	t.Helper()
	start, _ := g.PositionAt(0)
	rules := othello.Rules{Name: "mirror", Start: othello.FlipX.Position(start)}
	switch rules.Start {
	case othello.TUS.Start:
		rules = othello.TUS
	case othello.Standard.Start:
		rules = othello.Standard
	}
	m := othello.NewGame(rules)
	for i, mv := range g.Moves() {
		if err := m.Play(othello.FlipX.Move(mv)); err != nil {
			t.Fatalf("mirrored move %d: %v", i+1, err)
		}
	}
	return m
}

// TestOthelloTestdataCRLF reads every transcript with CRLF line ends (what
// the Windows server may have written) to the same result.
func TestOthelloTestdataCRLF(t *testing.T) {
	dir := othelloTestdataDir(t)
	for _, tc := range goldenTranscripts {
		data, err := os.ReadFile(filepath.Join(dir, tc.file))
		if err != nil {
			t.Fatal(err)
		}
		lf, err := record.ReadOthelloTranscript(bytes.NewReader(data), othello.Position{})
		if err != nil {
			t.Fatal(err)
		}
		crlf, err := record.ReadOthelloTranscript(strings.NewReader(strings.ReplaceAll(string(data), "\n", "\r\n")+"\r\n\n"), othello.Position{})
		if err != nil {
			t.Fatalf("%s with CRLF: %v", tc.file, err)
		}
		if diff := cmp.Diff(lf, crlf, cmp.Comparer(func(a, b othello.Position) bool { return a == b })); diff != "" {
			t.Errorf("%s: CRLF reads differently (-LF +CRLF):\n%s", tc.file, diff)
		}
	}
}

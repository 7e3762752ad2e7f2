package pdd_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/botarena/botarena/pdd"
)

// The golden fixtures, as chess.txt and bridge.txt grids
// without the final line end.
var (
	f1Chess  = strings.TrimSuffix(pddGolden("F1/chess.txt"), "\n")
	f1Bridge = strings.TrimSuffix(pddGolden("F1/bridge.txt"), "\n")
	f2Chess  = strings.TrimSuffix(pddGolden("F2/chess.txt"), "\n")
	f2Bridge = strings.TrimSuffix(pddGolden("F2/bridge.txt"), "\n")
	s1Chess  = strings.TrimSuffix(pddGolden("S1/chess.txt"), "\n")
	s1Bridge = strings.TrimSuffix(pddGolden("S1/bridge.txt"), "\n")
	s3Chess  = strings.TrimSuffix(pddGolden("S3/chess.txt"), "\n")
	s3Bridge = strings.TrimSuffix(pddGolden("S3/bridge.txt"), "\n")
	m1Chess  = strings.TrimSuffix(pddGolden("M1/chess.txt"), "\n")
	m1Bridge = strings.TrimSuffix(pddGolden("M1/bridge.txt"), "\n")
)

// pddGolden returns the file name of the golden fixtures, kept
// once for every package's tests in pdd/testdata/fixtures. A missing file
// reads as text that no PDD reader accepts, so the tests using it fail.
func pddGolden(name string) string {
	b, err := os.ReadFile(filepath.Join(".", "testdata", "fixtures", filepath.FromSlash(name)))
	if err != nil {
		return "missing fixture: " + err.Error()
	}
	return string(b)
}

// setupFromFiles builds a Setup from chess.txt and bridge.txt grids (rows
// missing at the end are all 0), in the manner of the record package.
func setupFromFiles(t tb, rules pdd.Rules, turn pdd.Color, chess, bridge string) pdd.Setup {
	t.Helper()
	s := pdd.Setup{Rules: rules, Turn: turn}
	ends := map[int][]pdd.Square{}
	for y, line := range strings.Split(chess, "\n") {
		for x, f := range strings.Split(line, ",") {
			n, err := strconv.Atoi(f)
			if err != nil || x > 9 || y > 9 {
				t.Fatalf("chess %d,%d: %q", x, y, f)
			}
			s.Cells[pdd.SquareAt(x, y)] = pdd.Color(n)
		}
	}
	for y, line := range strings.Split(bridge, "\n") {
		for x, f := range strings.Split(line, ",") {
			n, err := strconv.Atoi(f)
			if err != nil || x > 9 || y > 9 {
				t.Fatalf("bridge %d,%d: %q", x, y, f)
			}
			if n > 0 {
				ends[n] = append(ends[n], pdd.SquareAt(x, y))
			}
		}
	}
	for k := 1; k <= len(ends); k++ {
		if len(ends[k]) != 2 {
			t.Fatalf("bridge %d has %d ends", k, len(ends[k]))
		}
		s.Bridges = append(s.Bridges, [2]pdd.Square{ends[k][0], ends[k][1]})
	}
	return s
}

func fromFiles(t tb, rules pdd.Rules, turn pdd.Color, chess, bridge string) pdd.Position {
	t.Helper()
	p, err := pdd.NewPosition(setupFromFiles(t, rules, turn, chess, bridge))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// sq reads "x,y".
func sq(t tb, text string) pdd.Square {
	t.Helper()
	s, err := pdd.ParseSquare(text)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// mv reads a move.
func mv(t tb, text string) pdd.Move {
	t.Helper()
	m, err := pdd.ParseMove(text)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// build makes a position from lists of "x,y" points and bridges "x,y-x,y"
// (in build order, each between tiles of one colour).
func build(t tb, rules pdd.Rules, turn pdd.Color, white, black, bridges string) pdd.Position {
	t.Helper()
	s := pdd.Setup{Rules: rules, Turn: turn}
	for _, f := range strings.Fields(white) {
		s.Cells[sq(t, f)] = pdd.White
	}
	for _, f := range strings.Fields(black) {
		s.Cells[sq(t, f)] = pdd.Black
	}
	for _, f := range strings.Fields(bridges) {
		a, b, _ := strings.Cut(f, "-")
		s.Bridges = append(s.Bridges, [2]pdd.Square{sq(t, a), sq(t, b)})
	}
	p, err := pdd.NewPosition(s)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// countKinds counts the legal moves of p by action.
func countKinds(p pdd.Position) map[pdd.Action]int {
	n := map[pdd.Action]int{}
	for _, m := range p.AppendLegalMoves(nil) {
		n[m.Action()]++
	}
	return n
}

// TestFixtureCounts checks the move counts and perft of the
// reference fixtures, in both profiles.
func TestFixtureCounts(t *testing.T) {
	for _, tt := range []struct {
		name          string
		chess, bridge string
		turn          pdd.Color
		rules         pdd.Rules
		chessN, brN   int
		bridges       string // the legal bridges, in order
		perft         []uint64
	}{
		{"F1", f1Chess, f1Bridge, pdd.Black, pdd.Course, 3318, 2, "Bridge_8,5_7,7 Bridge_8,5_8,7", []uint64{3320, 11013246}},
		{"F1", f1Chess, f1Bridge, pdd.Black, pdd.Official, 3318, 2, "Bridge_8,5_7,7 Bridge_8,5_8,7", []uint64{3320, 11013246}},
		{"F1", f1Chess, f1Bridge, pdd.White, pdd.Course, 3481, 1, "Bridge_3,0_5,0", []uint64{3482, 11013246}},
		{"F1", f1Chess, f1Bridge, pdd.White, pdd.Official, 3481, 1, "Bridge_3,0_5,0", []uint64{3482, 11013246}},
		{"F2", f2Chess, f2Bridge, pdd.Black, pdd.Course, 4278, 0, "", []uint64{4278, 17518410}},
		{"F2", f2Chess, f2Bridge, pdd.Black, pdd.Official, 4278, 0, "", []uint64{4278, 17518410}},
		{"M1", m1Chess, m1Bridge, pdd.White, pdd.Course, 111, 1, "Bridge_1,7_0,9", []uint64{112, 15727, 861289}},
		{"M1", m1Chess, m1Bridge, pdd.White, pdd.Official, 111, 2, "Bridge_1,7_0,9 Bridge_9,2_8,4", []uint64{113, 15872, 885697}},
		{"M1", m1Chess, m1Bridge, pdd.Black, pdd.Course, 163, 0, "", []uint64{163}},
		{"M1", m1Chess, m1Bridge, pdd.Black, pdd.Official, 163, 0, "", []uint64{163}},
	} {
		p := fromFiles(t, tt.rules, tt.turn, tt.chess, tt.bridge)
		name := tt.name + "/" + tt.turn.String() + "/" + tt.rules.String()
		kinds := countKinds(p)
		if kinds[pdd.ChessAction] != tt.chessN || kinds[pdd.BridgeAction] != tt.brN || len(kinds) > 2 {
			t.Errorf("%s: moves by action %v, want %d Chess and %d Bridge", name, kinds, tt.chessN, tt.brN)
		}
		var got []string
		for _, m := range p.AppendLegalMoves(nil) {
			if m.Action() == pdd.BridgeAction {
				got = append(got, m.String())
			}
		}
		if want := sortedMoves(t, tt.bridges); strings.Join(got, " ") != want {
			t.Errorf("%s: bridges %v, want %s", name, got, want)
		}
		for d, want := range tt.perft {
			if got := pdd.Perft(p, d+1); got != want {
				t.Errorf("%s: perft(%d) = %d, want %d", name, d+1, got, want)
			}
		}
	}
}

// sortedMoves returns the canonical strings of the moves in list, in
// canonical order.
func sortedMoves(t tb, list string) string {
	var ms []pdd.Move
	for _, f := range strings.Fields(list) {
		ms = append(ms, mv(t, f))
	}
	for i := range ms {
		for j := i + 1; j < len(ms); j++ {
			if ms[j] < ms[i] {
				ms[i], ms[j] = ms[j], ms[i]
			}
		}
	}
	var out []string
	for _, m := range ms {
		out = append(out, m.String())
	}
	return strings.Join(out, " ")
}

// tb is what the helpers need of *testing.T, *testing.B and *rapid.T.
type tb interface {
	Helper()
	Fatal(args ...any)
	Fatalf(format string, args ...any)
}

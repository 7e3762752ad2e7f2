package darkchess_test

import (
	"bufio"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/botarena/botarena/darkchess"
)

// moveList returns p's legal moves as the vectors write them: sorted as text
// (the generator's own order is by square index), space separated, "none"
// for no move.
func moveList(p darkchess.Position) string {
	var names []string
	for _, m := range p.AppendLegalMoves(nil) {
		names = append(names, m.String())
	}
	return textList(names)
}

func textList(names []string) string {
	if len(names) == 0 {
		return "none"
	}
	slices.Sort(names)
	return strings.Join(names, " ")
}

func mustParse(t testing.TB, s string) darkchess.Position {
	t.Helper()
	p, err := darkchess.ParsePosition(s)
	if err != nil {
		t.Fatalf("ParsePosition(%q): %v", s, err)
	}
	return p
}

// TestMovesVectors checks testdata/moves.tsv (a copy of the shared vectors):
// the capture table's exceptions, cannon jumps, face-down pieces and both loss
// rules.
func TestMovesVectors(t *testing.T) {
	f, err := os.Open("testdata/moves.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	rows := 0
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		cols := strings.Split(line, "\t")
		if len(cols) != 4 {
			t.Fatalf("moves.tsv:%d: want 4 columns, got %d", n, len(cols))
		}
		rows++
		name, pos, want := cols[0], cols[1], cols[2]
		p := mustParse(t, pos)
		if got := moveList(p); got != want {
			t.Errorf("%s: moves %q, want %q (%s)", name, got, want, cols[3])
		}
		// The loss rules: a side with no move has lost, and a game started
		// there says why.
		g := darkchess.NewGameFrom(darkchess.DefaultRules, p, nil)
		r, over := g.Result()
		if over != (want == "none") || over != p.IsOver() {
			t.Errorf("%s: game over %v, IsOver %v", name, over, p.IsOver())
		}
		switch name {
		case "no-pieces-loses":
			if r.Reason != darkchess.NoPieces || r.Winner != darkchess.Black || p.Count(darkchess.Red) != 0 {
				t.Errorf("%s: result %v", name, r)
			}
		case "blocked-loses":
			if r.Reason != darkchess.NoLegalPly || r.Winner != darkchess.Black || p.Count(darkchess.Red) == 0 {
				t.Errorf("%s: result %v", name, r)
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if rows < 6 {
		t.Fatalf("moves.tsv has %d rows", rows)
	}
}

// TestTakesTable checks Kind.Takes against the table written out
// literally (refTakes), and that the move generator follows it for every
// attacker and victim on a two-piece board.
func TestTakesTable(t *testing.T) {
	for a := darkchess.King; a <= darkchess.Pawn; a++ {
		for v := darkchess.King; v <= darkchess.Pawn; v++ {
			want := refTakes[a-1][v-1] != '.'
			if got := a.Takes(v); got != want {
				t.Errorf("%s.Takes(%s) = %v, want %v", a, v, got, want)
			}
			var s darkchess.Setup
			s.Board[darkchess.B2] = darkchess.MakePiece(darkchess.Red, a)
			s.Board[darkchess.B3] = darkchess.MakePiece(darkchess.Black, v)
			p, err := darkchess.NewPosition(s)
			if err != nil {
				t.Fatal(err)
			}
			m := darkchess.NewMove(darkchess.B2, darkchess.B3)
			if p.IsLegal(m) != want || p.IsCapture(m) != true {
				t.Errorf("%s: %s legal %v, want %v", p, m, p.IsLegal(m), want)
			}
		}
	}
	for _, k := range []darkchess.Kind{darkchess.NoKind, 8} {
		if k.Takes(darkchess.Pawn) || darkchess.Pawn.Takes(k) {
			t.Errorf("Takes accepts %d", k)
		}
	}
}

// TestCaptureRules pins the rules one example at a time:
// the moves of the piece on one square.
func TestCaptureRules(t *testing.T) {
	for _, tt := range []struct {
		name, pos, from, want string
	}{
		// The king may not take a pawn, but takes every other kind.
		{"K not p", "----/----/----/----/----/----/-p--/-K-- r 00000000000000 0", "b1", "b1-a1 b1-c1"},
		{"K takes k", "----/----/----/----/----/----/-k--/-K-- r 00000000000000 0", "b1", "b1-a1 b1-b2 b1-c1"},
		{"K takes c", "----/----/----/----/----/----/-c--/-K-- r 00000000000000 0", "b1", "b1-a1 b1-b2 b1-c1"},
		// A pawn takes only a pawn or the king.
		{"P takes k", "----/----/----/----/----/----/-k--/-P-- r 00000000000000 0", "b1", "b1-a1 b1-b2 b1-c1"},
		{"P takes p", "----/----/----/----/----/----/-p--/-P-- r 00000000000000 0", "b1", "b1-a1 b1-b2 b1-c1"},
		{"P not c", "----/----/----/----/----/----/-c--/-P-- r 00000000000000 0", "b1", "b1-a1 b1-c1"},
		{"P not g", "----/----/----/----/----/----/gP--/-g-- r 00000000000000 0", "b2", "b2-b3 b2-c2"},
		// Equal ranks take each other; a lower rank does not take a higher.
		{"R takes r", "----/----/----/----/----/----/-r--/-R-- r 00000000000000 0", "b1", "b1-a1 b1-b2 b1-c1"},
		{"N not r", "----/----/----/----/----/----/-r--/-N-- r 00000000000000 0", "b1", "b1-a1 b1-c1"},
		{"G not k, takes m", "----/----/----/----/----/----/-k--/mG-- r 00000000000000 0", "b1", "b1-a1 b1-c1"},
		// Black's pieces follow the same table.
		{"k not P", "----/----/----/----/----/----/-P--/-k-- b 00000000000000 0", "b1", "b1-a1 b1-c1"},
		{"p takes K", "----/----/----/----/----/----/-K--/-p-- b 00000000000000 0", "b1", "b1-a1 b1-b2 b1-c1"},
		// A cannon never captures by stepping; it steps to empty squares.
		{"C no step capture", "----/----/----/----/----/----/-p--/rCn- r 00000000000000 0", "b1", "none"},
		// A cannon jumps over exactly one screen of any colour, revealed or not, onto the
		// first occupied square beyond, a revealed enemy of any kind.
		{"C jumps own screen to k", "-k--/----/----/----/-R--/----/----/-C-- r 00000000000000 0", "b1", "b1-a1 b1-b2 b1-b8 b1-c1"},
		{"C jumps face-down screen to c", "-c--/----/----/-X--/----/----/----/-C-- r 00000000000010 0", "b1", "b1-a1 b1-b2 b1-b8 b1-c1"},
		{"C empty squares both sides of screen", "----/----/----/----/----/----/----/C-pk r 00000000000000 0", "a1", "a1-a2 a1-b1 a1-d1"},
		{"C never jumps to empty", "----/----/----/----/----/----/----/Cp-- r 00000000000000 0", "a1", "a1-a2"},
		{"C target face-down: no", "----/----/----/----/----/----/----/CpX- r 00000000000001 0", "a1", "a1-a2"},
		{"C target own: no", "----/----/----/----/----/----/----/CpR- r 00000000000000 0", "a1", "a1-a2"},
		{"C only the first piece beyond the screen", "----/----/----/----/----/----/----/Cppk r 00000000000000 0", "a1", "a1-a2 a1-c1"},
		{"C along the file", "k---/----/p---/----/----/----/----/C--- r 00000000000000 0", "a1", "a1-a2 a1-a8 a1-b1"},
		// Face-down pieces never move and are never captured by a step.
		{"no step onto face-down", "----/----/----/----/----/----/-X--/XKX- r 00000000000003 0", "b1", "none"},
	} {
		p := mustParse(t, tt.pos)
		from, err := darkchess.ParseSquare(tt.from)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, m := range p.AppendLegalMoves(nil) {
			if m.From() == from && !m.IsFlip() {
				got = append(got, m.String())
			}
		}
		if got := textList(got); got != tt.want {
			t.Errorf("%s: moves from %s = %q, want %q", tt.name, tt.from, got, tt.want)
		}
		checkAgainstReference(t, p)
	}
}

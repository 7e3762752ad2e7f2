package record_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/botarena/botarena/pdd"
	"github.com/botarena/botarena/record"
	"github.com/google/go-cmp/cmp"
)

type pddFixture struct {
	name          string
	chess, bridge string
	turn          pdd.Color
	moves         int // legal moves with turn to move, Course
}

var pddFixtures = []pddFixture{
	{"F1", pddF1Chess, pddF1Bridge, pdd.Black, 3320},
	{"F1-W", pddF1Chess, pddF1Bridge, pdd.White, 3482},
	{"F2", pddF2Chess, pddF2Bridge, pdd.Black, 4278},
	{"S1", pddS1Chess, pddS1Bridge, pdd.White, -1},
	{"S3", pddS3Chess, pddS3Bridge, pdd.White, -1},
	{"M1", pddM1Chess, pddM1Bridge, pdd.White, 112},
}

func crlf(s string) string { return strings.ReplaceAll(s, "\n", "\r\n") }

func mustChess(t *testing.T, s string, mode record.PDDMode) record.PDDChess {
	t.Helper()
	c, err := record.ReadPDDChess(strings.NewReader(s), mode)
	if err != nil {
		t.Fatalf("ReadPDDChess: %v", err)
	}
	return c
}

func mustBridges(t *testing.T, s string, mode record.PDDMode) record.PDDBridges {
	t.Helper()
	b, err := record.ReadPDDBridges(strings.NewReader(s), mode)
	if err != nil {
		t.Fatalf("ReadPDDBridges: %v", err)
	}
	return b
}

// The fixtures read and write back byte for byte, with LF or
// CRLF, and from a file without its final terminator.
func TestPDDGoldenRoundTrip(t *testing.T) {
	sizes := map[string][2]int{"F1": {200, 200}, "F2": {200, 200}, "S1": {200, 200}, "S3": {200, 200}, "M1": {200, 202}}
	for _, f := range pddFixtures {
		t.Run(f.name, func(t *testing.T) {
			if sz, ok := sizes[f.name]; ok && (len(f.chess) != sz[0] || len(f.bridge) != sz[1]) {
				t.Fatalf("fixture sizes %d, %d; want %v", len(f.chess), len(f.bridge), sz)
			}
			for _, mode := range []record.PDDMode{record.PDDStrict, record.PDDLenient} {
				for _, eol := range []string{"lf", "crlf", "no-final", "crlf-no-final", "trailing-empty"} {
					in := map[string]func(string) string{
						"lf":             func(s string) string { return s },
						"crlf":           crlf,
						"no-final":       func(s string) string { return strings.TrimSuffix(s, "\n") },
						"crlf-no-final":  func(s string) string { return strings.TrimSuffix(crlf(s), "\r\n") },
						"trailing-empty": func(s string) string { return s + "\n\r\n\n" },
					}[eol]
					wantCRLF := strings.HasPrefix(eol, "crlf")
					c := mustChess(t, in(f.chess), mode)
					b := mustBridges(t, in(f.bridge), mode)
					if c.CRLF != wantCRLF || b.CRLF != wantCRLF {
						t.Errorf("%s %s: CRLF = %v, %v; want %v", mode, eol, c.CRLF, b.CRLF, wantCRLF)
					}
					wantC, wantB := f.chess, f.bridge
					if wantCRLF {
						wantC, wantB = crlf(wantC), crlf(wantB)
					}
					var buf bytes.Buffer
					if err := record.WritePDDChess(&buf, c); err != nil || buf.String() != wantC {
						t.Errorf("%s %s: chess.txt written as %q, %v", mode, eol, buf.String(), err)
					}
					buf.Reset()
					if err := record.WritePDDBridges(&buf, b); err != nil || buf.String() != wantB {
						t.Errorf("%s %s: bridge.txt written as %q, %v", mode, eol, buf.String(), err)
					}
				}
			}
		})
	}
}

// Reading a fixture gives the fixture's position: its move counts and
// scores, and the position writes back to the same files.
func TestPDDFixturePositions(t *testing.T) {
	for _, f := range pddFixtures {
		t.Run(f.name, func(t *testing.T) {
			c := mustChess(t, f.chess, record.PDDStrict)
			b := mustBridges(t, f.bridge, record.PDDStrict)
			p, err := record.PDDPosition(c, b, pdd.Setup{Turn: f.turn})
			if err != nil {
				t.Fatal(err)
			}
			if f.moves >= 0 {
				if n := p.NumLegalMoves(); n != f.moves {
					t.Errorf("%d legal moves, want %d", n, f.moves)
				}
			}
			if got := record.NewPDDChess(p).String(); got != f.chess {
				t.Errorf("NewPDDChess = %q", got)
			}
			if got := record.NewPDDBridges(p).String(); got != f.bridge {
				t.Errorf("NewPDDBridges = %q", got)
			}
		})
	}
	// S1: White 7 points, 4 islands, 3 bridges; Black 6/4/2.
	p, err := record.PDDPosition(mustChess(t, pddS1Chess, 0), mustBridges(t, pddS1Bridge, 0), pdd.Setup{Turn: pdd.White})
	if err != nil {
		t.Fatal(err)
	}
	if w, b := p.Score(pdd.White), p.Score(pdd.Black); w != (pdd.Score{Points: 7, Islands: 4, Bridges: 3}) || b != (pdd.Score{Points: 6, Islands: 4, Bridges: 2}) {
		t.Errorf("S1 scores %v, %v", w, b)
	}
	// M1's bridge 2 is a black knight 8,2-7,4; bridge 10 is 0,2-2,4.
	p, err = record.PDDPosition(mustChess(t, pddM1Chess, 0), mustBridges(t, pddM1Bridge, 0), pdd.Setup{Turn: pdd.White})
	if err != nil {
		t.Fatal(err)
	}
	if p.NumBridges() != 10 || p.BridgeAt(10) != [2]pdd.Square{pdd.SquareAt(0, 2), pdd.SquareAt(2, 4)} {
		t.Errorf("M1 bridges: %d, #10 = %v", p.NumBridges(), p.BridgeAt(10))
	}
}

// The course's example stepLog.txt reads, writes back byte for byte, replays to F2 and
// cross-checks with F2's files.
func TestPDDSeedStepLog(t *testing.T) {
	if len(pddSeedStepLog) != 92 {
		t.Fatalf("seed stepLog is %d bytes", len(pddSeedStepLog))
	}
	for _, mode := range []record.PDDMode{record.PDDStrict, record.PDDLenient} {
		for _, in := range []string{pddSeedStepLog, crlf(pddSeedStepLog), strings.TrimSuffix(pddSeedStepLog, "\n")} {
			l, err := record.ReadPDDStepLog(strings.NewReader(in), mode)
			if err != nil {
				t.Fatal(err)
			}
			want := pddSeedStepLog
			if l.CRLF {
				want = crlf(want)
			}
			if got, err := l.MarshalText(); err != nil || string(got) != want {
				t.Errorf("%s: written as %q, %v", mode, got, err)
			}
		}
	}
	l, _ := record.ReadPDDStepLog(strings.NewReader(pddSeedStepLog), record.PDDStrict)
	wantSteps := []record.PDDStep{
		{Color: pdd.White, Turn: 1, Move: pdd.Chess(pdd.SquareAt(2, 0), pdd.SquareAt(2, 2)), ChangeTiles: [2]pdd.Square{pdd.NoSquare, pdd.NoSquare}},
		{Color: pdd.Black, Turn: 2, Move: pdd.Change, ChangeTiles: [2]pdd.Square{pdd.SquareAt(2, 0), pdd.SquareAt(2, 2)}},
		{Color: pdd.White, Turn: 3, Move: pdd.Chess(pdd.SquareAt(0, 2), pdd.SquareAt(1, 3)), ChangeTiles: [2]pdd.Square{pdd.NoSquare, pdd.NoSquare}},
		{Color: pdd.Black, Turn: 4, Move: pdd.Bridge(pdd.SquareAt(2, 0), pdd.SquareAt(2, 2)), ChangeTiles: [2]pdd.Square{pdd.NoSquare, pdd.NoSquare}},
		{Color: pdd.White, Turn: 5, Move: pdd.Chess(pdd.SquareAt(8, 8), pdd.SquareAt(9, 9)), ChangeTiles: [2]pdd.Square{pdd.NoSquare, pdd.NoSquare}},
	}
	if diff := cmp.Diff(wantSteps, l.Steps); diff != "" {
		t.Errorf("steps (-want +got):\n%s", diff)
	}
	g, err := record.CheckPDDStepLog(l, pdd.Course, mustChess(t, pddF2Chess, 0), mustBridges(t, pddF2Bridge, 0))
	if err != nil {
		t.Fatal(err)
	}
	if g.Turn() != pdd.Black || g.Ply() != 5 {
		t.Errorf("after the course's example stepLog: %s to move after %d plies", g.Turn(), g.Ply())
	}
	// The log of the game is the course's example stepLog again.
	if got, _ := record.NewPDDStepLog(g).MarshalText(); string(got) != pddSeedStepLog {
		t.Errorf("NewPDDStepLog = %q", got)
	}
	// ReadPDDGame does all of it.
	g2, err := record.ReadPDDGame(strings.NewReader(pddF2Chess), strings.NewReader(pddF2Bridge), strings.NewReader(pddSeedStepLog), pdd.Course)
	if err != nil || g2.Position() != g.Position() {
		t.Errorf("ReadPDDGame: %v", err)
	}
	// The empty file is White's first turn.
	if g, err := record.ReadPDDGame(strings.NewReader(strings.Repeat("0,0,0,0,0,0,0,0,0,0\n", 10)), strings.NewReader(strings.Repeat("0,0,0,0,0,0,0,0,0,0\n", 10)), strings.NewReader(""), pdd.Course); err != nil || g.Ply() != 0 {
		t.Errorf("empty game: %v", err)
	}
}

// A stepLog that matches the files only with x and y swapped is reported
// as ErrTransposed; another mismatch names the first cell that differs.
func TestPDDStepLogCrossCheck(t *testing.T) {
	l, _ := record.ReadPDDStepLog(strings.NewReader(pddSeedStepLog), record.PDDStrict)
	c := mustChess(t, pddF2Chess, 0)
	b := mustBridges(t, pddF2Bridge, 0)
	var tc record.PDDChess
	var tb record.PDDBridges
	for sq := range pdd.Square(pdd.NumSquares) {
		tc.Cells[pdd.Transpose.Square(sq)] = c.Cells[sq]
		tb.Cells[pdd.Transpose.Square(sq)] = b.Cells[sq]
	}
	if _, err := record.CheckPDDStepLog(l, pdd.Course, tc, tb); !errors.Is(err, record.ErrTransposed) {
		t.Errorf("transposed files: %v", err)
	}
	c.Cells[pdd.SquareAt(4, 7)] = pdd.White
	_, err := record.CheckPDDStepLog(l, pdd.Course, c, b)
	var pe *record.ParseError
	if !errors.As(err, &pe) || !errors.Is(err, record.ErrStepLogMismatch) || pe.File != "chess.txt" || pe.Line != 8 || pe.Column != 9 {
		t.Fatalf("mismatch: %#v", err)
	}
	if want := "record: chess.txt: line 8, column 9: field 5: stepLog.txt replays to 0 at 4,7, the file has 1"; err.Error() != want {
		t.Errorf("error %q\nwant  %q", err, want)
	}
	b.Cells[pdd.SquareAt(2, 2)] = 0
	c = mustChess(t, pddF2Chess, 0)
	if _, err := record.CheckPDDStepLog(l, pdd.Course, c, b); !errors.As(err, &pe) || pe.File != "bridge.txt" || pe.Line != 3 {
		t.Errorf("bridge mismatch: %v", err)
	}
}

// checkPDDError checks that err is a *ParseError with the given file, line
// and column whose text contains want.
func checkPDDError(t *testing.T, err error, file string, line, col int, want string) {
	t.Helper()
	var pe *record.ParseError
	if !errors.As(err, &pe) {
		t.Fatalf("error %v (%T) is not a *ParseError", err, err)
	}
	if pe.File != file || pe.Line != line || pe.Column != col || !strings.Contains(err.Error(), want) {
		t.Errorf("error %q: file %q line %d column %d; want %q line %d column %d containing %q", err, pe.File, pe.Line, pe.Column, file, line, col, want)
	}
}

func TestPDDGridErrors(t *testing.T) {
	const z = "0,0,0,0,0,0,0,0,0,0\n"
	rows := func(lines ...string) string {
		var b strings.Builder
		for i := range 10 {
			if i < len(lines) && lines[i] != "" {
				b.WriteString(lines[i] + "\n")
			} else {
				b.WriteString(z)
			}
		}
		return b.String()
	}
	tests := []struct {
		name       string
		in         string
		bridge     bool
		strictOnly bool // lenient accepts it
		line, col  int
		want       string
	}{
		{"seven", rows("", "", "0,0,0,7,0,0,0,0,0,0"), false, false, 3, 7, `field 4: want 0, 1 or 2, got "7"`},
		{"letter", rows("x,0,0,0,0,0,0,0,0,0"), false, false, 1, 1, `field 1: want 0, 1 or 2, got "x"`},
		{"minus", rows("0,0,0,0,0,0,0,0,0,-1"), true, false, 1, 19, `field 10: want a bridge number 0 to 99, got "-1"`},
		{"three", rows("3,0,0,0,0,0,0,0,0,0"), false, false, 1, 1, `want 0, 1 or 2, got "3"`},
		{"hundred", rows("100,0,0,0,0,0,0,0,0,0"), true, false, 1, 1, `got "100"`},
		{"nine fields", rows("", "0,0,0,0,0,0,0,0,0"), false, false, 2, 0, "want 10 fields, got 9"},
		{"eleven fields", rows("", "0,0,0,0,0,0,0,0,0,0,0"), false, false, 2, 0, "want 10 fields, got more"},
		{"empty field", rows("0,,0,0,0,0,0,0,0,0"), false, false, 1, 3, `field 2: want 0, 1 or 2, got ""`},
		{"eleven lines", rows() + z, false, false, 11, 0, "want 10 lines, got 11"},
		{"nine lines", strings.Repeat(z, 9), false, false, 10, 0, "want 10 lines, got 9"},
		{"empty", "", true, false, 1, 0, "want 10 lines, got 0"},
		{"empty line inside", z + "\n" + strings.Repeat(z, 9), false, false, 2, 1, `field 1: want 0, 1 or 2, got ""`},
		{"lone CR", rows("0,0,0,0,0,0,0,0,0,0\r\r"), false, false, 1, 19, `field 10: want 0, 1 or 2, got "0\r"`},
		{"space", rows("0, 0,0,0,0,0,0,0,0,0"), false, true, 1, 3, `field 2: want 0, 1 or 2, got " 0"`},
		{"tab", rows("0,0,0,0,0,0,0,0,0,0\t"), true, true, 1, 19, `field 10: want a bridge number 0 to 99, got "0\t"`},
		{"trailing comma", rows("0,0,0,0,0,0,0,0,0,0,"), false, true, 1, 0, "want 10 fields, got more"},
		{"leading zero", rows("01,0,0,0,0,0,0,0,0,0"), false, true, 1, 1, `field 1: leading zero in "01"`},
		{"bom", "\xEF\xBB\xBF" + rows(), false, true, 1, 1, "byte order mark"},
		{"too large", rows() + strings.Repeat("\n", 64<<10), false, false, 1, 0, "file larger than 65536 bytes"},
		{"long line", rows(strings.Repeat("0", 5000)), false, false, 1, 0, "line longer than 4096 bytes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			file := "chess.txt"
			read := func(mode record.PDDMode) error {
				_, err := record.ReadPDDChess(strings.NewReader(tt.in), mode)
				return err
			}
			if tt.bridge {
				file = "bridge.txt"
				read = func(mode record.PDDMode) error {
					_, err := record.ReadPDDBridges(strings.NewReader(tt.in), mode)
					return err
				}
			}
			err := read(record.PDDStrict)
			checkPDDError(t, err, file, tt.line, tt.col, tt.want)
			if !errors.Is(err, record.ErrSyntax) && !errors.Is(err, record.ErrLineTooLong) {
				t.Errorf("%v wraps neither ErrSyntax nor ErrLineTooLong", err)
			}
			lerr := read(record.PDDLenient)
			if tt.strictOnly && lerr != nil {
				t.Errorf("lenient: %v", lerr)
			}
			if !tt.strictOnly && lerr == nil {
				t.Errorf("lenient accepts it")
			}
		})
	}
}

// Lenient reading accepts what hand-made files contain and reads the same
// board.
func TestPDDLenientChess(t *testing.T) {
	want := mustChess(t, pddF1Chess, record.PDDStrict)
	messy := "\xEF\xBB\xBF" + strings.NewReplacer(
		"0,0,0,1,0,1,0,0,0,0\n0,0,0,0", " 0 ,0,\t0,01,0,1,0,0,0,0 ,\r\n0,0,0,0",
		"0,0,0,0,1,0,1,0,0,0", "0,0,0,0,001,0,1,0,0,0,",
	).Replace(pddF1Chess) + " \n\t\n"
	got := mustChess(t, messy, record.PDDLenient)
	if got.Cells != want.Cells || !got.CRLF {
		t.Errorf("lenient read %v", got)
	}
	if _, err := record.ReadPDDChess(strings.NewReader(messy), record.PDDStrict); err == nil {
		t.Error("strict accepts it")
	}
	var c record.PDDChess
	if err := c.UnmarshalText([]byte(messy)); err != nil || c.Cells != want.Cells {
		t.Errorf("UnmarshalText: %v", err)
	}
}

func TestPDDBridgeChecks(t *testing.T) {
	b := mustBridges(t, pddM1Bridge, record.PDDStrict)
	br, err := b.Bridges()
	if err != nil || len(br) != 10 || br[1] != [2]pdd.Square{pdd.SquareAt(8, 2), pdd.SquareAt(7, 4)} {
		t.Fatalf("Bridges = %v, %v", br, err)
	}
	// Bridge 10 (0,2 and 2,4) loses an endpoint: ErrBridgeCount at 0,2.
	one := b
	one.Cells[pdd.SquareAt(2, 4)] = 0
	_, err = one.Bridges()
	checkPDDError(t, err, "bridge.txt", 3, 1, "field 1: bridge 10 stands on 1 cell")
	if !errors.Is(err, record.ErrBridgeCount) {
		t.Errorf("%v is not ErrBridgeCount", err)
	}
	// A third cell numbered 4.
	three := b
	three.Cells[pdd.SquareAt(9, 9)] = 4
	_, err = three.Bridges()
	checkPDDError(t, err, "bridge.txt", 5, 8, "field 4: bridge 4 stands on 3 cells")
	// Bridge 8 renumbered 12: a gap.
	gap := b
	gap.Cells[pdd.SquareAt(9, 0)], gap.Cells[pdd.SquareAt(7, 2)] = 12, 12
	_, err = gap.Bridges()
	checkPDDError(t, err, "bridge.txt", 8, 13, "field 7: bridge 9, but no bridge 8")
	if !errors.Is(err, record.ErrBridgeNumbering) {
		t.Errorf("%v is not ErrBridgeNumbering", err)
	}
	// Numbers from 2: no bridge 1.
	var from2 record.PDDBridges
	from2.Cells[0], from2.Cells[2] = 2, 2
	_, err = from2.Bridges()
	checkPDDError(t, err, "bridge.txt", 1, 1, "bridge 2, but no bridge 1")
	// No bridges at all is fine.
	if br, err := (record.PDDBridges{}).Bridges(); err != nil || len(br) != 0 {
		t.Errorf("empty: %v %v", br, err)
	}
}

// An impossible board names the cell that makes it impossible.
func TestPDDImpossibleBoard(t *testing.T) {
	var c record.PDDChess
	for x := 1; x <= 5; x++ {
		c.Cells[pdd.SquareAt(x, 1)] = pdd.White
	}
	_, err := record.PDDPosition(c, record.PDDBridges{}, pdd.Setup{Turn: pdd.Black})
	checkPDDError(t, err, "chess.txt", 2, 11, "field 6: impossible board at 5,1")
	if !errors.Is(err, pdd.ErrGroupTooLarge) {
		t.Errorf("%v is not ErrGroupTooLarge", err)
	}
	// A bridge between tiles of two colours.
	c = record.PDDChess{}
	c.Cells[pdd.SquareAt(2, 0)], c.Cells[pdd.SquareAt(2, 2)] = pdd.White, pdd.Black
	var b record.PDDBridges
	b.Cells[pdd.SquareAt(2, 0)], b.Cells[pdd.SquareAt(2, 2)] = 1, 1
	_, err = record.PDDPosition(c, b, pdd.Setup{Turn: pdd.Black})
	checkPDDError(t, err, "bridge.txt", 1, 5, "field 3: impossible bridge 1 2,0-2,2")
	if !errors.Is(err, pdd.ErrBridgeNotOwn) {
		t.Errorf("%v is not ErrBridgeNotOwn", err)
	}
	// A tile under a bridge.
	c.Cells[pdd.SquareAt(2, 2)] = pdd.White
	c.Cells[pdd.SquareAt(2, 1)] = pdd.Black
	_, err = record.PDDPosition(c, b, pdd.Setup{Turn: pdd.Black})
	if !errors.Is(err, pdd.ErrBridgeBlocked) {
		t.Errorf("%v is not ErrBridgeBlocked", err)
	}
	// A flag that does not fit is the caller's, not a file's.
	_, err = record.PDDPosition(record.PDDChess{}, record.PDDBridges{}, pdd.Setup{Turn: pdd.Black, ChangeAvailable: true})
	var pe *record.ParseError
	if err == nil || errors.As(err, &pe) || !errors.Is(err, pdd.ErrInvalidSetup) {
		t.Errorf("Change flag: %v", err)
	}
	// A bridge count error comes first.
	b.Cells[pdd.SquareAt(2, 2)] = 0
	if _, err = record.PDDPosition(c, b, pdd.Setup{Turn: pdd.Black}); !errors.Is(err, record.ErrBridgeCount) {
		t.Errorf("%v is not ErrBridgeCount", err)
	}
}

func TestPDDStepErrors(t *testing.T) {
	tests := []struct {
		in         string
		strictOnly bool
		line, col  int
		want       string
	}{
		{"W_1_Chess_2,0_2,2\nX_2_Chess_0,0_1,1\n", false, 2, 1, `color: want W or B, got "X"`},
		{"W_0_Chess_2,0_2,2\n", false, 1, 3, `turn: want 1 to 999999, got "0"`},
		{"W_x_Chess_2,0_2,2\n", false, 1, 3, `turn: want a number, got "x"`},
		{"W_1000000_Chess_2,0_2,2\n", false, 1, 3, `turn: want 1 to 999999`},
		{"W_01_Chess_2,0_2,2\n", true, 1, 3, `turn: leading zero in "01"`},
		{"W_1_Move_2,0_2,2\n", false, 1, 5, `action: want Chess, Bridge or Change, got "Move"`},
		{"W_1_chess_2,0_2,2\n", true, 1, 5, `action: want Chess, Bridge or Change, got "chess"`},
		{"w_1_Chess_2,0_2,2\n", true, 1, 1, `color: want W or B, got "w"`},
		{"W_1_Chess_2,0\n", false, 1, 0, `Chess wants 2 points`},
		{"W_1_Chess_2,0_2,2_3,3\n", false, 1, 18, `unexpected "_" after point 2`},
		{"W_1_Chess_2,0_10,2\n", false, 1, 15, `point 2: want x,y with digits 0-9, got "10,2"`},
		{"W_1_Chess_2,2_2,2\n", false, 1, 15, `point 2: the 2 points must differ`},
		{"W_1_Chess_2,2_2,0\n", true, 1, 11, `point 1: the lower square (10*y+x) comes first`},
		{"W_1_Chess_2,0_2,2\n\nB_2_Chess_0,0_1,1\n", false, 2, 0, "empty line"},
		{"W_1_Chess_2,0_2,2\nB_2_Chess_0,0_1,1\nW_3_Change_0,0_1,1\n", false, 3, 0, "Change can only be line 2, by B"},
		{"W_1_Chess_2,0_2,2\n W_2_Chess_0,0_1,1\n", true, 2, 1, `color: want W or B, got " W"`},
		{"\xEF\xBB\xBFW_1_Chess_2,0_2,2\n", true, 1, 1, "byte order mark"},
		{"W_1_Pass_2,0_2,2\n", false, 1, 9, "Pass takes no points"},
		{"W_1\n", false, 1, 0, "want color_turn_action_x,y_x,y"},
	}
	for _, tt := range tests {
		_, err := record.ReadPDDStepLog(strings.NewReader(tt.in), record.PDDStrict)
		checkPDDError(t, err, "stepLog.txt", tt.line, tt.col, tt.want)
		_, lerr := record.ReadPDDStepLog(strings.NewReader(tt.in), record.PDDLenient)
		if tt.strictOnly != (lerr == nil) {
			t.Errorf("%q: lenient: %v", tt.in, lerr)
		}
	}
	// Lenient: any case, blanks, leading zeros, points in either order.
	l, err := record.ReadPDDStepLog(strings.NewReader(" w _ 01 _ chess _ 2,2 _ 2,0 \r\nB_2_CHANGE_2,2_2,0"), record.PDDLenient)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := l.MarshalText(); string(got) != "W_1_Chess_2,0_2,2\r\nB_2_Change_2,0_2,2\r\n" {
		t.Errorf("lenient steps written as %q", got)
	}
	// The Official Pass extension reads, and a Course replay refuses it.
	l, err = record.ReadPDDStepLog(strings.NewReader("W_1_Chess_2,0_2,2\nB_2_Pass\n"), record.PDDStrict)
	if err != nil || l.Steps[1].Move != pdd.Pass || l.Steps[1].String() != "B_2_Pass" {
		t.Fatalf("Pass: %v %v", l, err)
	}
	_, err = record.ReplayPDDStepLog(l, pdd.Course)
	checkPDDError(t, err, "stepLog.txt", 2, 0, "Pass is not a Course action")
}

func TestPDDReplayErrors(t *testing.T) {
	read := func(s string) record.PDDStepLog {
		l, err := record.ReadPDDStepLog(strings.NewReader(s), record.PDDStrict)
		if err != nil {
			t.Fatal(err)
		}
		return l
	}
	_, err := record.ReplayPDDStepLog(read("W_1_Chess_2,0_2,2\nW_2_Chess_0,0_1,1\n"), pdd.Course)
	checkPDDError(t, err, "stepLog.txt", 2, 0, "W_2_Chess_0,0_1,1: W moved out of turn: B is to move and has a legal move")
	_, err = record.ReplayPDDStepLog(read("W_1_Chess_2,0_2,2\nB_2_Chess_2,0_1,1\n"), pdd.Course)
	checkPDDError(t, err, "stepLog.txt", 2, 0, "pdd: square is occupied")
	if !errors.Is(err, pdd.ErrOccupied) {
		t.Errorf("%v is not ErrOccupied", err)
	}
	_, err = record.ReplayPDDStepLog(read("W_1_Chess_2,0_2,2\nB_2_Change_2,0_3,3\n"), pdd.Course)
	checkPDDError(t, err, "stepLog.txt", 2, 0, "Change names 2,0 3,3, but the opening tiles are 2,0 2,2")
	_, err = record.ReplayPDDStepLog(read("W_1_Chess_2,0_2,2\nB_2_Chess_0,0_1,1\nW_3_Bridge_2,0_2,1\n"), pdd.Course)
	if !errors.Is(err, pdd.ErrBridgeNotOwn) {
		t.Errorf("bad bridge: %v", err)
	}
	// A hand-built Change elsewhere than line 2.
	l := read("W_1_Chess_2,0_2,2\n")
	l.Steps = append([]record.PDDStep{{Color: pdd.Black, Turn: 1, Move: pdd.Change}}, l.Steps...)
	if _, err := record.ReplayPDDStepLog(l, pdd.Course); err == nil {
		t.Error("Change on line 1 replays")
	}
}

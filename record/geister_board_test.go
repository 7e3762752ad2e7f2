package record_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/botarena/botarena/geister"
	"github.com/botarena/botarena/geister/geistertest"
	"github.com/botarena/botarena/record"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"pgregory.net/rapid"
)

// geisterExampleBoard is the board.txt, in the canonical layout
// (the escape written sideways).
const geisterExampleBoard = `* 9:05pm November 22, 2026
* a1 vs a2
* 4 4 4 4
* - h g f e -
* - d c b a -
* - - - - - -
* - - - - - -
* - A B C D -
* - E F G H -
* time 600
* 1. A,WEST A,NORTH
* 2. A,NORTH A,SOUTH
* 3. A,NORTH A,NORTH
* 4. A,NORTH A,SOUTH
* 5. A,NORTH A,NORTH
* 6. A,WEST
* ChessEscape a1 wins 1,0
* Comment 0 0
0. 1795352700000
1. 1795352700500
2. 1795352700505
3. 1795352701007
4. 1795352701008
5. 1795352701509
6. 1795352701511
7. 1795352702013
8. 1795352702014
9. 1795352702515
10. 1795352702516
11. 1795352703017
1. 0 0
2. 0 0
3. 0 0
4. 0 0
5. 0 0
6. 0
* red EFGH bcde
`

func mustParseGeisterMoves(t testing.TB, moves ...string) []geister.Move {
	t.Helper()
	out := make([]geister.Move, len(moves))
	for i, s := range moves {
		m, err := geister.ParseMove(s)
		if err != nil {
			t.Fatal(err)
		}
		out[i] = m
	}
	return out
}

func mustReds(t testing.TB, s string) geister.Reds {
	t.Helper()
	r, err := geister.ParseReds(s)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func geisterExampleWant(t testing.TB) *record.GeisterBoard {
	start := geister.StartSetup(geister.RedsAt(0), geister.RedsAt(0)).Ghosts
	var times []time.Time
	for _, ms := range []int64{1795352700000, 1795352700500, 1795352700505, 1795352701007, 1795352701008, 1795352701509, 1795352701511, 1795352702013, 1795352702014, 1795352702515, 1795352702516, 1795352703017} {
		times = append(times, time.UnixMilli(ms))
	}
	return &record.GeisterBoard{
		Date:      time.Date(2026, time.November, 22, 21, 5, 0, 0, time.Local),
		First:     "a1",
		Second:    "a2",
		Counts:    &[4]int{4, 4, 4, 4},
		Start:     start,
		TimeLimit: 600 * time.Second,
		Moves: mustParseGeisterMoves(t, "A,WEST", "A,NORTH", "A,NORTH", "A,SOUTH", "A,NORTH", "A,NORTH",
			"A,NORTH", "A,SOUTH", "A,NORTH", "A,NORTH", "A,WEST"),
		Result:   geister.Result{Reason: geister.ChessEscape, Winner: geister.First},
		Times:    times,
		Captures: make([]geister.GhostColor, 11),
		Reds:     [2]geister.Reds{mustReds(t, "EFGH"), mustReds(t, "BCDE")},
	}
}

// geisterTB is what the helpers need of a *testing.T or a *rapid.T.
type geisterTB interface {
	Helper()
	Fatal(args ...any)
	Fatalf(format string, args ...any)
}

func readGeisterBoard(t geisterTB, text string) *record.GeisterBoard {
	t.Helper()
	b, err := record.ReadGeisterBoard(strings.NewReader(text))
	if err != nil {
		t.Fatalf("ReadGeisterBoard: %v\n%s", err, text)
	}
	return b
}

func writeGeisterBoard(t geisterTB, b *record.GeisterBoard) string {
	t.Helper()
	var buf bytes.Buffer
	if err := record.WriteGeisterBoard(&buf, b); err != nil {
		t.Fatalf("WriteGeisterBoard: %v", err)
	}
	return buf.String()
}

func TestGeisterBoardExample(t *testing.T) {
	b := readGeisterBoard(t, geisterExampleBoard)
	if diff := cmp.Diff(geisterExampleWant(t), b); diff != "" {
		t.Errorf("read (-want +got):\n%s", diff)
	}
	if got := writeGeisterBoard(t, b); got != geisterExampleBoard {
		t.Errorf("written:\n%s\nwant:\n%s", got, geisterExampleBoard)
	}
	// The platform's own example writes the escape as it was received, NORTH.
	north := strings.Replace(geisterExampleBoard, "* 6. A,WEST", "* 6. A,NORTH", 1)
	if diff := cmp.Diff(b, readGeisterBoard(t, north)); diff != "" {
		t.Errorf("escape written NORTH (-sideways +north):\n%s", diff)
	}
	g, err := b.Game(geister.NTPU)
	if err != nil {
		t.Fatal(err)
	}
	if r, over := g.Result(); !over || r != b.Result {
		t.Errorf("Game result %v, %v", r, over)
	}
	// The final board of the Java transcript of the same game.
	if got, want := g.Position().Board(geister.First), "88b24B34B44B15R25R35R45R42b31r21r11r40r30b20b10b"; got != want {
		t.Errorf("final board %s, want %s", got, want)
	}
	if !b.ColorsKnown() {
		t.Error("ColorsKnown is false")
	}
}

// TestGeisterBoardLenient reads variants of the example that the reader
// must take as the same record.
func TestGeisterBoardLenient(t *testing.T) {
	want := readGeisterBoard(t, geisterExampleBoard)
	variants := map[string]func(string) string{
		"CRLF":              func(s string) string { return strings.ReplaceAll(s, "\n", "\r\n") },
		"no final line end": func(s string) string { return strings.TrimSuffix(s, "\n") },
		"no star": func(s string) string {
			return strings.ReplaceAll(s, "* ", "")
		},
		"blank lines and spaces": func(s string) string {
			return "\n\n" + strings.ReplaceAll(s, "\n", "  \t\n\n")
		},
		"short month, unpadded minutes, no comma, upper-case PM": func(s string) string {
			return strings.Replace(s, "9:05pm November 22, 2026", "9:5PM Nov 22 2026", 1)
		},
		"one-letter and lower-case directions": func(s string) string {
			return strings.Replace(s, "1. A,WEST A,NORTH", "1. a,w A,n", 1)
		},
		"Wins and decimal score": func(s string) string {
			return strings.Replace(s, "a1 wins 1,0", "a1 Wins 1.000000,0.000000", 1)
		},
		"rows without spaces": func(s string) string {
			return strings.Replace(s, "* - h g f e -", "* -hgfe-", 1)
		},
		"a first line and unknown star lines": func(s string) string {
			return strings.Replace(s, "* time 600", "* first 1\n* time 600\n* whatever this is", 1)
		},
		"parts in another order": func(s string) string {
			s = strings.Replace(s, "* a1 vs a2\n", "", 1)
			return "* a1 vs a2\n" + s
		},
	}
	for name, f := range variants {
		t.Run(name, func(t *testing.T) {
			got := readGeisterBoard(t, f(geisterExampleBoard))
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	t.Run("timestamps in seconds", func(t *testing.T) {
		got := readGeisterBoard(t, strings.Replace(geisterExampleBoard, "0. 1795352700000", "0. 1795352700", 1))
		if !got.Times[0].Equal(time.Unix(1795352700, 0)) {
			t.Errorf("Times[0] = %v", got.Times[0])
		}
	})
	t.Run("draw with a player token", func(t *testing.T) {
		text := "1. A,NORTH A,NORTH\n2. A,SOUTH A,SOUTH\n* GamePlyLimitDraw a1 Draw 0.5,0.5\n"
		got := readGeisterBoard(t, text)
		if want := (geister.Result{Reason: geister.GamePlyLimitDraw, Draw: true}); got.Result != want {
			t.Errorf("result %v", got.Result)
		}
		g, err := got.Game(geister.Rules{Name: "four", PlyLimit: 4})
		if err != nil {
			t.Fatal(err)
		}
		if r, _ := g.Result(); r != got.Result {
			t.Errorf("game result %v", r)
		}
		if _, err := got.Game(geister.NTPU); err == nil {
			t.Error("a draw after 4 plies read under a 200-ply limit")
		}
	})
	t.Run("missing parts", func(t *testing.T) {
		got := readGeisterBoard(t, "1. A,NORTH\n")
		want := &record.GeisterBoard{
			Start: geister.StartSetup(geister.RedsAt(0), geister.RedsAt(0)).Ghosts,
			Moves: mustParseGeisterMoves(t, "A,NORTH"),
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
		}
		const canonical = "* - h g f e -\n* - d c b a -\n* - - - - - -\n* - - - - - -\n* - A B C D -\n* - E F G H -\n* time 0\n* 1. A,NORTH\n* Comment 0 0\n"
		if got := writeGeisterBoard(t, got); got != canonical {
			t.Errorf("written:\n%s\nwant:\n%s", got, canonical)
		}
	})
}

func TestGeisterBoardErrors(t *testing.T) {
	ex := geisterExampleBoard
	tests := []struct {
		name       string
		text       string
		line, col  int
		err        error
		msgContain string
	}{
		{"empty", "", 1, 0, record.ErrSyntax, "no board rows and no moves"},
		{"only a header", "* a1 vs a2\n* time 9\n", 2, 0, record.ErrSyntax, "no board rows"},
		{"unknown line", "1. A,NORTH\nhello\n", 2, 1, record.ErrSyntax, "unrecognised"},
		{"bad direction", strings.Replace(ex, "2. A,NORTH A,SOUTH", "2. A,NORTH A,UP", 1), 12, 16, record.ErrSyntax, "direction"},
		{"bad ghost", strings.Replace(ex, "2. A,NORTH A,SOUTH", "2. Z,NORTH A,SOUTH", 1), 12, 6, record.ErrSyntax, "ghost"},
		{"round out of order", strings.Replace(ex, "* 3. A,NORTH", "* 4. A,NORTH", 1), 13, 3, record.ErrSyntax, "round 4 where round 3"},
		{"three plies", strings.Replace(ex, "2. A,NORTH A,SOUTH", "2. A,NORTH A,SOUTH A,EAST", 1), 12, 22, record.ErrSyntax, "at most two"},
		{"round after a one-ply round", "1. A,NORTH\n2. A,NORTH\n", 2, 0, record.ErrSyntax, "one ply"},
		{"illegal move", strings.Replace(ex, "1. A,WEST A,NORTH", "1. A,SOUTH A,NORTH", 1), 11, 6, geister.ErrIllegalMove, "ply 1"},
		{"move after the end", strings.Replace(ex, "* 6. A,WEST", "* 6. A,WEST B,NORTH", 1), 16, 13, geister.ErrGameOver, "ply 12"},
		{"move after the result", strings.Replace(ex, "* Comment 0 0", "* 7. B,NORTH", 1), 18, 0, record.ErrSyntax, "after the result"},
		{"wrong result", strings.Replace(ex, "ChessEscape a1 wins 1,0", "NoRedGhost a1 wins 1,0", 1), 17, 0, record.ErrSyntax, "the board says"},
		{"wrong winner name", strings.Replace(ex, "ChessEscape a1 wins 1,0", "ChessEscape a2 wins 1,0", 1), 17, 0, record.ErrSyntax, "who lost"},
		{"bad score", strings.Replace(ex, "a1 wins 1,0", "a1 wins 1,1", 1), 17, 23, record.ErrSyntax, "a win scores"},
		{"draw scored as a win", strings.Replace(ex, "ChessEscape a1 wins 1,0", "GamePlyLimitDraw Draw 1,0", 1), 17, 25, record.ErrSyntax, "a draw scores"},
		{"ChessEscape as a draw", strings.Replace(ex, "ChessEscape a1 wins 1,0", "ChessEscape Draw 0.5,0.5", 1), 17, 15, record.ErrSyntax, "only GamePlyLimitDraw"},
		{"capture code", strings.Replace(ex, "3. 0 0\n", "3. 0 1\n", 1), 33, 0, record.ErrSyntax, "capture record says a red"},
		{"capture code out of range", strings.Replace(ex, "3. 0 0\n", "3. 0 3\n", 1), 33, 6, record.ErrSyntax, "capture code"},
		{"too many captures", strings.Replace(ex, "6. 0\n", "6. 0 0\n", 1), 36, 0, record.ErrSyntax, "capture code for ply 12"},
		{"too many timestamps", strings.Replace(ex, "11. 1795352703017\n", "11. 1795352703017\n12. 1795352703018\n13. 1795352703019\n", 1), 31, 0, record.ErrSyntax, "timestamp 12"},
		{"timestamp numbering", strings.Replace(ex, "5. 1795352701509", "6. 1795352701509", 1), 24, 1, record.ErrSyntax, "timestamp 6 where timestamp 5"},
		{"bad counts", strings.Replace(ex, "* 4 4 4 4", "* 4 4 3 4", 1), 3, 0, record.ErrSyntax, "match neither"},
		{"count out of range", strings.Replace(ex, "* 4 4 4 4", "* 4 4 5 4", 1), 3, 7, record.ErrSyntax, "out of range"},
		{"three counts", strings.Replace(ex, "* 4 4 4 4", "* 4 4 4", 1), 3, 0, record.ErrSyntax, "4 numbers"},
		{"ghost twice", strings.Replace(ex, "* - h g f e -", "* - h g f a -", 1), 5, 11, record.ErrSyntax, "ghost a twice"},
		{"five rows", strings.Replace(ex, "* - - - - - -\n", "", 1), 8, 0, record.ErrSyntax, "5 board rows"},
		{"seven rows", strings.Replace(ex, "* - - - - - -\n", "* - - - - - -\n* - - - - - -\n", 1), 10, 0, record.ErrSyntax, "seventh"},
		{"bad red set", strings.Replace(ex, "* red EFGH bcde", "* red EFGH bcd", 1), 37, 12, record.ErrSyntax, "red set"},
		{"red set that does not fit", strings.Replace(ex, "* red EFGH bcde", "* red AFGH bcde", 1), 16, 6, geister.ErrIllegalMove, "ply 11"},
		{"bad date", strings.Replace(ex, "9:05pm", "13:05pm", 1), 1, 3, record.ErrSyntax, "hour"},
		{"bad month", strings.Replace(ex, "November", "Brumaire", 1), 1, 10, record.ErrSyntax, "month"},
		{"no such day", strings.Replace(ex, "November 22", "November 31", 1), 1, 0, record.ErrSyntax, "no day 31"},
		{"two dates", "* 9:05pm November 22, 2026\n* 9:05pm November 22, 2026\n1. A,NORTH\n", 2, 0, record.ErrSyntax, "second date"},
		{"two players lines", "* a vs b\n* a vs b\n1. A,NORTH\n", 2, 0, record.ErrSyntax, "second players"},
		{"bad time", strings.Replace(ex, "* time 600", "* time ten", 1), 10, 8, record.ErrSyntax, "time limit"},
		{"long line", "1. A,NORTH\n" + strings.Repeat("x", record.MaxLineLength+1) + "\n", 2, 0, record.ErrLineTooLong, "longer than"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := record.ReadGeisterBoard(strings.NewReader(tc.text))
			var pe *record.ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %v is not a *ParseError", err)
			}
			if pe.Line != tc.line || pe.Column != tc.col || !errors.Is(err, tc.err) || !strings.Contains(pe.Msg, tc.msgContain) {
				t.Errorf("got line %d, column %d, %v; want line %d, column %d, %v containing %q", pe.Line, pe.Column, err, tc.line, tc.col, tc.err, tc.msgContain)
			}
		})
	}
	if _, err := record.ReadGeisterBoard(nil); err == nil {
		t.Error("nil reader accepted")
	}
}

// TestGeisterBoardUnknownColors reads records without the red line: the
// replay finds colours that fit the capture record and the result.
func TestGeisterBoardUnknownColors(t *testing.T) {
	// The first player's A walks to (1,1) and takes the second player's d
	// there, the second player's A stepping aside: the code says red.
	const text = "1. A,NORTH A,WEST\n2. A,NORTH A,NORTH\n3. A,NORTH\n1. 0 0\n2. 0 0\n3. 1\n"
	b := readGeisterBoard(t, text)
	if b.ColorsKnown() || b.Counts != nil {
		t.Errorf("ColorsKnown %v, Counts %v", b.ColorsKnown(), b.Counts)
	}
	g, err := b.Game(geister.NTPU)
	if err != nil {
		t.Fatal(err)
	}
	p := g.Position()
	if red, blue := p.Captured(geister.Second); red != 1 || blue != 0 {
		t.Errorf("captured %d red, %d blue; the record says one red", red, blue)
	}
	if _, err := b.View(geister.First); err == nil {
		t.Error("View without the viewer's red set")
	}
	// The same with a blue capture, and the first player's reds given: the
	// view is exact.
	b2 := readGeisterBoard(t, strings.Replace(text, "3. 1", "3. 2", 1)+"* red EFGH -\n")
	v, err := b2.View(geister.First)
	if err != nil {
		t.Fatal(err)
	}
	if red, blue := v.Captured(geister.Second); red != 0 || blue != 1 {
		t.Errorf("view: captured %d red, %d blue", red, blue)
	}
	if got := writeGeisterBoard(t, b2); !strings.HasSuffix(got, "* red EFGH -\n") {
		t.Errorf("red line not kept:\n%s", got)
	}
	// A record whose only fitting colours make the escaping ghost blue.
	const escape = "1. A,WEST A,NORTH\n2. A,NORTH A,SOUTH\n3. A,NORTH A,NORTH\n4. A,NORTH A,SOUTH\n5. A,NORTH A,NORTH\n6. A,NORTH\n* ChessEscape x wins 1,0\n"
	b3 := readGeisterBoard(t, escape)
	if b3.Moves[10] != geister.NewMove(geister.A, geister.West) {
		t.Errorf("escape read as %v", b3.Moves[10])
	}
	g3, err := b3.Game(geister.NTPU)
	if err != nil {
		t.Fatal(err)
	}
	if r, _ := g3.Result(); r.Reason != geister.ChessEscape || r.Winner != geister.First {
		t.Errorf("result %v", r)
	}
	// With A red, nothing fits.
	_, err = record.ReadGeisterBoard(strings.NewReader(escape + "* red ABCD -\n"))
	if !errors.Is(err, geister.ErrIllegalMove) {
		t.Errorf("red A escaping: %v", err)
	}
	// A capture code that no colouring explains: nothing was captured.
	_, err = record.ReadGeisterBoard(strings.NewReader("1. A,NORTH\n1. 2\n"))
	var pe *record.ParseError
	if !errors.As(err, &pe) || pe.Line != 2 || !strings.Contains(pe.Msg, "no red sets fit") {
		t.Errorf("impossible capture: %v", err)
	}
}

// TestGeisterBoardCustom reads a custom initial board (the platform's custom start):
// ghosts absent from the rows are captured, and the counts tell how many
// of each colour are left.
func TestGeisterBoardCustom(t *testing.T) {
	const text = `* 3 4 4 2
* - h g - - -
* - d c b a -
* - - - - - -
* - - - - - -
* - A B C D -
* - - F G H -
* time 900
* 1. A,NORTH
* red ABCE abgh
`
	b := readGeisterBoard(t, text)
	g, err := b.Game(geister.NTPU)
	if err != nil {
		t.Fatal(err)
	}
	start, _ := g.PositionAt(0)
	if r, bl := start.Captured(geister.First); r != 1 || bl != 0 {
		t.Errorf("first player lost %d red, %d blue at the start", r, bl)
	}
	if r, bl := start.Captured(geister.Second); r != 0 || bl != 2 {
		t.Errorf("second player lost %d red, %d blue at the start", r, bl)
	}
	if got := writeGeisterBoard(t, b); got != text[:len(text)-len("* red ABCE abgh\n")]+"* Comment 0 0\n* red ABCE abgh\n" {
		t.Errorf("written:\n%s", got)
	}
	// Without the red line, the counts pick colours that fit.
	b2 := readGeisterBoard(t, strings.Replace(text, "* red ABCE abgh\n", "", 1))
	g2, err := b2.Game(geister.NTPU)
	if err != nil {
		t.Fatal(err)
	}
	start2, _ := g2.PositionAt(0)
	if r, bl := start2.Captured(geister.Second); r != 0 || bl != 2 {
		t.Errorf("guessed colours: second player lost %d red, %d blue at the start", r, bl)
	}
}

func TestGeisterBoardMidGame(t *testing.T) {
	b := readGeisterBoard(t, geisterExampleBoard)
	m, err := b.MidGame(4)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Moves) != 4 || len(m.Times) != 5 || len(m.Captures) != 4 || m.Result.Reason != geister.Unfinished {
		t.Fatalf("cut: %d moves, %d times, %d captures, %v", len(m.Moves), len(m.Times), len(m.Captures), m.Result)
	}
	if len(b.Moves) != 11 {
		t.Fatal("MidGame changed its receiver")
	}
	text := writeGeisterBoard(t, m)
	if strings.Contains(text, "ChessEscape") || !strings.Contains(text, "* 2. A,NORTH A,SOUTH\n* Comment") {
		t.Errorf("mid-game file:\n%s", text)
	}
	m2 := readGeisterBoard(t, text)
	if diff := cmp.Diff(m, m2); diff != "" {
		t.Errorf("mid-game file read back (-want +got):\n%s", diff)
	}
	p, err := m2.StartPosition([2]geister.Reds{})
	if err != nil {
		t.Fatal(err)
	}
	want, _ := mustGeisterGame(t, b).PositionAt(4)
	if p != want {
		t.Errorf("StartPosition:\n%s\nwant\n%s", p.Diagram(), want.Diagram())
	}
	g := geister.NewGame(geister.NTPU, p)
	if g.Ply() != 4 || g.Turn() != geister.First {
		t.Errorf("game from the file: ply %d, %v to move", g.Ply(), g.Turn())
	}
	if _, err := m.MidGame(5); err == nil {
		t.Error("MidGame past the end")
	}
	if _, err := b.StartPosition([2]geister.Reds{}); err == nil {
		t.Error("StartPosition of a decided game")
	}

	// Without the red line, the players' SET decides, and must fit.
	m.Reds = [2]geister.Reds{}
	if _, err := m.StartPosition([2]geister.Reds{}); err == nil {
		t.Error("StartPosition without any red set")
	}
	reds := [2]geister.Reds{mustReds(t, "ABCD"), mustReds(t, "EFGH")}
	p, err = m.StartPosition(reds)
	if err != nil {
		t.Fatal(err)
	}
	if p.Reds(geister.First) != reds[0] || p.Reds(geister.Second) != reds[1] || p.Ply() != 4 {
		t.Errorf("StartPosition with SETs: %v", p)
	}
	if err := m.CheckReds(geister.First, reds[0]); err != nil {
		t.Error(err)
	}
	// A capture record that needs a red a: a SET making a blue must not fit.
	capRec := readGeisterBoard(t, "1. A,NORTH A,WEST\n2. A,NORTH A,NORTH\n3. A,NORTH\n1. 0 0\n2. 0 0\n3. 1\n")
	if err := capRec.CheckReds(geister.Second, mustReds(t, "EFGH")); err == nil {
		t.Error("a SET that contradicts the capture record fits")
	}
	if err := capRec.CheckReds(geister.Second, mustReds(t, "ADEF")); err != nil {
		t.Errorf("a SET that fits: %v", err)
	}
	if err := b.CheckReds(geister.First, mustReds(t, "ABCD")); err == nil {
		t.Error("a SET other than the file's red set fits")
	}
}

func mustGeisterGame(t testing.TB, b *record.GeisterBoard) *geister.Game {
	t.Helper()
	g, err := b.Game(geister.NTPU)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func TestGeisterBoardWriteErrors(t *testing.T) {
	good := func() *record.GeisterBoard { return readGeisterBoard(t, geisterExampleBoard) }
	tests := map[string]func(b *record.GeisterBoard){
		"name with a space":     func(b *record.GeisterBoard) { b.First = "a b" },
		"one name":              func(b *record.GeisterBoard) { b.Second = "" },
		"count":                 func(b *record.GeisterBoard) { b.Counts[0] = 5 },
		"two ghosts on one":     func(b *record.GeisterBoard) { b.Start[1][0] = b.Start[0][0] },
		"escaped at the start":  func(b *record.GeisterBoard) { b.Start[0][0] = geister.Escaped },
		"time limit":            func(b *record.GeisterBoard) { b.TimeLimit = 1500 * time.Millisecond },
		"no move":               func(b *record.GeisterBoard) { b.Moves[0] = geister.NoMove },
		"draw by escape":        func(b *record.GeisterBoard) { b.Result.Draw = true },
		"too many timestamps":   func(b *record.GeisterBoard) { b.Times = append(b.Times, time.Now()) },
		"timestamp before 1970": func(b *record.GeisterBoard) { b.Times[0] = time.Unix(-1, 0) },
		"too many captures":     func(b *record.GeisterBoard) { b.Captures = append(b.Captures, 0) },
		"capture code":          func(b *record.GeisterBoard) { b.Captures[0] = 3 },
		"red set":               func(b *record.GeisterBoard) { b.Reds[0] = geister.RedsOf(geister.A) },
	}
	for name, f := range tests {
		b := good()
		f(b)
		if out, err := record.AppendGeisterBoard([]byte("x"), b); err == nil || string(out) != "x" {
			t.Errorf("%s: wrote %q, %v", name, out, err)
		}
	}
	if err := record.WriteGeisterBoard(&bytes.Buffer{}, nil); err == nil {
		t.Error("nil record written")
	}
}

// TestGeisterBoardGames writes random games, reads them back and replays
// them: every position and the result come back.
func TestGeisterBoardGames(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		g := geistertest.Game(geister.NTPU).Draw(t, "game")
		if _, ok := g.PositionAt(0); !ok {
			t.Skip("no start")
		}
		b, err := record.NewGeisterBoard(g, "alice", "bob")
		if err != nil {
			t.Fatal(err)
		}
		b.Date = time.Date(2026, 1, 2, 3, 4, 0, 0, time.Local)
		if rapid.Bool().Draw(t, "hide") {
			b.Reds = [2]geister.Reds{}
		}
		text := writeGeisterBoard(t, b)
		back := readGeisterBoard(t, text)
		if diff := cmp.Diff(b, back, cmpopts.EquateEmpty()); diff != "" {
			t.Fatalf("read back (-written +read):\n%s\n%s", diff, text)
		}
		g2, err := back.Game(geister.NTPU)
		if err != nil {
			t.Fatal(err)
		}
		r1, o1 := g.Result()
		r2, o2 := g2.Result()
		if r1 != r2 || o1 != o2 || len(g2.Moves()) != len(g.Moves()) {
			t.Fatalf("result %v %v, replayed %v %v", r1, o1, r2, o2)
		}
		for ply := 0; ply <= g.Ply(); ply++ {
			p1, _ := g.PositionAt(ply)
			p2, _ := g2.PositionAt(ply)
			if b.ColorsKnown() && p1 != p2 {
				t.Fatalf("ply %d: %v, replayed %v", ply, p1, p2)
			}
			if p1.Occupied() != p2.Occupied() {
				t.Fatalf("ply %d: squares differ", ply)
			}
		}
	})
}

func TestNewGeisterBoard(t *testing.T) {
	if _, err := record.NewGeisterBoard(nil, "", ""); err == nil {
		t.Error("nil game")
	}
	p, _ := geister.Start(geister.RedsAt(0), geister.RedsAt(69))
	p, _ = p.Play(geister.NewMove(geister.A, geister.North))
	if _, err := record.NewGeisterBoard(geister.NewGame(geister.NTPU, p), "", ""); err == nil {
		t.Error("a game from ply 1")
	}
	g := geister.NewGame(geister.NTPU, mustStart(t))
	g.Play(geister.NewMove(geister.B, geister.North))
	g.Forfeit(geister.Second, geister.TimeOut)
	b, err := record.NewGeisterBoard(g, "", "")
	if err != nil {
		t.Fatal(err)
	}
	text := writeGeisterBoard(t, b)
	if !strings.Contains(text, "* TimeOut first wins 1,0\n") || strings.Contains(text, " vs ") {
		t.Errorf("written:\n%s", text)
	}
	back := readGeisterBoard(t, text)
	g2, err := back.Game(geister.NTPU)
	if err != nil {
		t.Fatal(err)
	}
	if r, _ := g2.Result(); r != (geister.Result{Reason: geister.TimeOut, Winner: geister.First}) {
		t.Errorf("replayed result %v", r)
	}
}

func mustStart(t testing.TB) geister.Position {
	p, err := geister.Start(geister.RedsAt(0), geister.RedsAt(69))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

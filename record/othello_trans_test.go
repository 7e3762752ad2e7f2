package record_test

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/botarena/botarena/othello"
	"github.com/botarena/botarena/record"
	"github.com/google/go-cmp/cmp"
)

// shortTrans is the shortest finished game (9 plies) from the TUS start, in
// -trans form: the mirror of d3 c3 b3 d2 e1 d6 d7 e3 f4.
const shortTrans = "B:Alice,W:Bob\n4,2,1\n5,2,-1\n6,2,1\n4,1,-1\n3,0,1\n4,5,-1\n4,6,1\n3,2,-1\n2,3,1\n"

// passTrans reaches a forced black pass after 8 plies from the TUS start (the
// mirror of d3 c3 b3 b2 f5 a3 a1 c1); white moves on with d3, so lines 9 and
// 10 are both white.
const passTrans = "B:Alice,W:Bob\n4,2,1\n5,2,-1\n6,2,1\n6,1,-1\n2,4,1\n7,2,-1\n7,0,1\n5,0,-1\n3,2,-1\n"

func mustPlace(sq othello.Square) othello.Move { return othello.Place(sq) }

func TestReadOthelloTranscript(t *testing.T) {
	tr, err := record.ReadOthelloTranscript(strings.NewReader(shortTrans), othello.Position{})
	if err != nil {
		t.Fatal(err)
	}
	want := &record.OthelloTranscript{
		Black: "Alice", White: "Bob", Start: othello.TUS.Start,
		Moves: []othello.Move{
			mustPlace(othello.E3), mustPlace(othello.F3), mustPlace(othello.G3), mustPlace(othello.E2), mustPlace(othello.D1),
			mustPlace(othello.E6), mustPlace(othello.E7), mustPlace(othello.D3), mustPlace(othello.C4),
		},
	}
	if diff := cmp.Diff(want, tr, positionComparer); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	g, err := tr.Game()
	if err != nil {
		t.Fatal(err)
	}
	if r, over := g.Result(); !over || r.String() != "black wins 13-0 (discs)" {
		t.Errorf("result %v, over %v", r, over)
	}
	if g.Rules().Name != "tus" {
		t.Errorf("rules %q, want the TUS preset", g.Rules().Name)
	}
}

var positionComparer = cmp.Comparer(func(a, b othello.Position) bool { return a == b })

func TestReadOthelloTranscriptLeniency(t *testing.T) {
	want, err := record.ReadOthelloTranscript(strings.NewReader(shortTrans), othello.Position{})
	if err != nil {
		t.Fatal(err)
	}
	for name, in := range map[string]string{
		"CRLF":                 strings.ReplaceAll(shortTrans, "\n", "\r\n"),
		"no final LF":          strings.TrimSuffix(shortTrans, "\n"),
		"trailing empty lines": shortTrans + "\n\r\n\n",
		"mixed":                strings.Replace(shortTrans, "\n", "\r\n", 3) + "\r\n",
	} {
		got, err := record.ReadOthelloTranscript(strings.NewReader(in), othello.Position{})
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if diff := cmp.Diff(want, got, positionComparer); diff != "" {
			t.Errorf("%s: (-want +got):\n%s", name, diff)
		}
	}
	// One byte at a time, and with data and EOF together.
	for name, r := range map[string]io.Reader{
		"one byte":  iotest.OneByteReader(strings.NewReader(shortTrans)),
		"data+EOF":  iotest.DataErrReader(strings.NewReader(shortTrans)),
		"half read": iotest.HalfReader(strings.NewReader(shortTrans)),
	} {
		got, err := record.ReadOthelloTranscript(r, othello.Position{})
		if err != nil {
			t.Errorf("%s: %v", name, err)
		} else if diff := cmp.Diff(want, got, positionComparer); diff != "" {
			t.Errorf("%s: (-want +got):\n%s", name, diff)
		}
	}
}

func TestReadOthelloTranscriptHeader(t *testing.T) {
	for _, tc := range []struct{ in, black, white string }{
		{"B:a,W:b", "a", "b"},
		{"B:,W:", "", ""},
		{"B:a,W:b,W:c", "a", "b,W:c"}, // split at the first ",W:"
		{"B:a,,W:W:x", "a,", "W:x"},   // commas and colons in names
		{"B:名前,W:ＷＨＩＴＥ", "名前", "ＷＨＩＴＥ"},             // UTF-8
		{"B: sp ace ,W:\ttab", " sp ace ", "\ttab"}, // kept as written
	} {
		tr, err := record.ReadOthelloTranscript(strings.NewReader(tc.in+"\n"), othello.Position{})
		if err != nil {
			t.Errorf("%q: %v", tc.in, err)
			continue
		}
		if tr.Black != tc.black || tr.White != tc.white || len(tr.Moves) != 0 {
			t.Errorf("%q: black %q white %q moves %v", tc.in, tr.Black, tr.White, tr.Moves)
		}
		var out bytes.Buffer
		if err := record.WriteOthelloTranscript(&out, tr); err != nil || out.String() != tc.in+"\n" {
			t.Errorf("%q written back as %q, %v", tc.in, out.String(), err)
		}
	}
}

func TestReadOthelloTranscriptPass(t *testing.T) {
	tr, err := record.ReadOthelloTranscript(strings.NewReader(passTrans), othello.Position{})
	if err != nil {
		t.Fatal(err)
	}
	// Lines 2..9 are moves 0..7; the pass between lines 9 and 10 is move 8.
	if len(tr.Moves) != 10 || tr.Moves[8] != othello.Pass || tr.Moves[9] != othello.Place(othello.D3) {
		t.Fatalf("moves %v", tr.Moves)
	}
	g, err := tr.Game()
	if err != nil {
		t.Fatal(err)
	}
	if p, _ := g.PositionAt(8); p.Turn() != othello.Black || !p.MustPass() {
		t.Errorf("before the pass: %s", p)
	}
	if g.IsOver() || g.Turn() != othello.Black {
		t.Errorf("over %v, turn %s", g.IsOver(), g.Turn())
	}
	// Black may not play instead of passing, nor white pass twice.
	for in, want := range map[string]string{
		strings.TrimSuffix(passTrans, "3,2,-1\n") + "3,2,1\n":  "record: line 10: black at 3,2 (d3): no placement is legal: the move must be a pass",
		strings.TrimSuffix(passTrans, "3,2,-1\n") + "0,0,-1\n": "record: line 10: white at 0,0 (a1): flips no disc",
		passTrans + "2,5,-1\n":                                 "record: line 11: white at 2,5 (c6): not white's turn: black has a legal move",
	} {
		_, err := record.ReadOthelloTranscript(strings.NewReader(in), othello.Position{})
		if err == nil || err.Error() != want {
			t.Errorf("got %v\nwant %s", err, want)
		}
	}
}

func TestReadOthelloTranscriptErrors(t *testing.T) {
	const h = "B:a,W:b\n"
	long := strings.Repeat("x", record.MaxLineLength+1)
	tests := []struct {
		name, in string
		want     string
		line     int
		is       error
	}{
		{"empty", "", `record: line 1: no header: the transcript is empty`, 1, record.ErrSyntax},
		{"no header", "4,2,1\n", `record: line 1, column 1: the header must start with "B:"`, 1, record.ErrSyntax},
		{"lower-case header", "b:a,w:b\n", `record: line 1, column 1: the header must start with "B:"`, 1, record.ErrSyntax},
		{"no ,W:", "B:a;W:b\n4,2,1\n", `record: line 1: the header must be "B:<black>,W:<white>"`, 1, record.ErrSyntax},
		{"CR in header", "B:a,W:b\r\r\n", `record: line 1, column 8: carriage return in the header`, 1, record.ErrSyntax},
		{"empty first line", "\nB:a,W:b\n", `record: line 1, column 1: the header must start with "B:"`, 1, record.ErrSyntax},
		{"x", h + "8,2,1\n", `record: line 2, column 1: x must be a digit 0-7`, 2, record.ErrSyntax},
		{"leading space", h + " 4,2,1\n", `record: line 2, column 1: x must be a digit 0-7`, 2, record.ErrSyntax},
		{"first comma", h + "4;2,1\n", `record: line 2, column 2: expected "," after x`, 2, record.ErrSyntax},
		{"two digits", h + "42,2,1\n", `record: line 2, column 2: expected "," after x`, 2, record.ErrSyntax},
		{"x only", h + "4\n", `record: line 2, column 2: expected "," after x`, 2, record.ErrSyntax},
		{"y", h + "4,8,1\n", `record: line 2, column 3: y must be a digit 0-7`, 2, record.ErrSyntax},
		{"second comma", h + "4,2\n", `record: line 2, column 4: expected "," after y`, 2, record.ErrSyntax},
		{"colour 0", h + "4,2,0\n", `record: line 2, column 5: color must be 1 (black) or -1 (white)`, 2, record.ErrSyntax},
		{"colour +1", h + "4,2,+1\n", `record: line 2, column 5: color must be 1 (black) or -1 (white)`, 2, record.ErrSyntax},
		{"no colour", h + "4,2,\n", `record: line 2, column 5: color must be 1 (black) or -1 (white)`, 2, record.ErrSyntax},
		{"trailing space", h + "4,2,1 \n", `record: line 2, column 5: color must be 1 (black) or -1 (white)`, 2, record.ErrSyntax},
		{"spaces", h + "4, 2, 1\n", `record: line 2, column 3: y must be a digit 0-7`, 2, record.ErrSyntax},
		{"blank inside", h + "4,2,1\n\n5,4,-1\n", `record: line 3: empty line before a move`, 3, record.ErrSyntax},
		{"white first", h + "4,2,-1\n", `record: line 2: white at 4,2 (e3): not white's turn: black has a legal move`, 2, othello.ErrIllegalMove},
		{"black twice", h + "4,2,1\n5,3,1\n", `record: line 3: black at 5,3 (f4): not black's turn: white has a legal move`, 3, othello.ErrIllegalMove},
		{"no flip", h + "0,0,1\n", `record: line 2: black at 0,0 (a1): flips no disc`, 2, othello.ErrIllegalMove},
		{"occupied", h + "4,2,1\n4,2,-1\n", `record: line 3: white at 4,2 (e3): square occupied`, 3, othello.ErrIllegalMove},
		{"centre", h + "3,3,1\n", `record: line 2: black at 3,3 (d4): square occupied`, 2, othello.ErrIllegalMove},
		{"after the end", shortTrans + "0,0,-1\n", `record: line 11: white at 0,0 (a1): the game is over`, 11, othello.ErrGameOver},
		{"after the end, black", shortTrans + "0,0,1\n", `record: line 11: black at 0,0 (a1): the game is over`, 11, othello.ErrGameOver},
		{"long header", "B:" + long + ",W:b\n", `record: line 1: line longer than 4096 bytes`, 1, record.ErrLineTooLong},
		{"long move line", h + "4,2,1\n" + long + "\n", `record: line 3: line longer than 4096 bytes`, 3, record.ErrLineTooLong},
		{"long last line", h + long + "x", `record: line 2: line longer than 4096 bytes`, 2, record.ErrLineTooLong},
		{"long blank line", h + strings.Repeat("\r", 5000) + "\n", `record: line 2: line longer than 4096 bytes`, 2, record.ErrLineTooLong},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tr, err := record.ReadOthelloTranscript(strings.NewReader(tc.in), othello.Position{})
			if err == nil {
				t.Fatalf("no error; read %+v", tr)
			}
			if tr != nil {
				t.Errorf("a transcript along with the error: %+v", tr)
			}
			if err.Error() != tc.want {
				t.Errorf("error\n got %s\nwant %s", err, tc.want)
			}
			var pe *record.ParseError
			if !errors.As(err, &pe) || pe.Line != tc.line {
				t.Errorf("error %#v: want a *ParseError on line %d", err, tc.line)
			}
			if !errors.Is(err, tc.is) {
				t.Errorf("error %v is not %v", err, tc.is)
			}
		})
	}
}

func TestParseErrorFile(t *testing.T) {
	_, err := record.ReadOthelloTranscript(strings.NewReader("B:a,W:b\n9,9,1\n"), othello.Position{})
	var pe *record.ParseError
	if !errors.As(err, &pe) {
		t.Fatalf("%v is not a *ParseError", err)
	}
	pe.File = "gamelog.txt"
	if got, want := pe.Error(), "record: gamelog.txt: line 2, column 1: x must be a digit 0-7"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

func TestReadOthelloTranscriptStart(t *testing.T) {
	// The same game from the standard start is its mirror image.
	in := "B:a,W:b\n3,2,1\n2,2,-1\n"
	tr, err := record.ReadOthelloTranscript(strings.NewReader(in), othello.Standard.Start)
	if err != nil {
		t.Fatal(err)
	}
	g, err := tr.Game()
	if err != nil {
		t.Fatal(err)
	}
	if g.Rules().Name != "standard" || g.Ply() != 2 || g.IsOver() {
		t.Errorf("rules %q, ply %d, over %v", g.Rules().Name, g.Ply(), g.IsOver())
	}
	// From the TUS start, d3 is not legal for black.
	_, err = record.ReadOthelloTranscript(strings.NewReader(in), othello.Position{})
	if want := "record: line 2: black at 3,2 (d3): flips no disc"; err == nil || err.Error() != want {
		t.Errorf("from the TUS start: %v, want %s", err, want)
	}
	// Any start: one where white moves first.
	p, err := othello.ParsePosition("---------------------------XO------OX--------------------------- O")
	if err != nil {
		t.Fatal(err)
	}
	tr, err = record.ReadOthelloTranscript(strings.NewReader("B:a,W:b\n3,2,-1\n"), p)
	if err != nil {
		t.Fatal(err)
	}
	if g, err := tr.Game(); err != nil || g.Rules().Name != "custom" || g.Ply() != 1 {
		t.Errorf("custom start: %v, %v", g, err)
	}
}

// A transcript may stop before the game is over (a timeout, a disconnect).
func TestReadOthelloTranscriptUnfinished(t *testing.T) {
	tr, err := record.ReadOthelloTranscript(strings.NewReader("B:a,W:b\n4,2,1\n"), othello.Position{})
	if err != nil {
		t.Fatal(err)
	}
	g, err := tr.Game()
	if err != nil {
		t.Fatal(err)
	}
	if g.IsOver() || g.Turn() != othello.White {
		t.Errorf("over %v, turn %s", g.IsOver(), g.Turn())
	}
	tr, err = record.ReadOthelloTranscript(strings.NewReader("B:a,W:b\n"), othello.Position{})
	if err != nil || len(tr.Moves) != 0 {
		t.Fatalf("header only: %+v, %v", tr, err)
	}
}

type failingReader struct{ err error }

func (r failingReader) Read([]byte) (int, error) { return 0, r.err }

func TestReadOthelloTranscriptReadError(t *testing.T) {
	boom := errors.New("boom")
	_, err := record.ReadOthelloTranscript(io.MultiReader(strings.NewReader("B:a,W:b\n4,2,1\n"), failingReader{boom}), othello.Position{})
	if !errors.Is(err, boom) || err.Error() != "record: reading line 3: boom" {
		t.Errorf("got %v", err)
	}
	var pe *record.ParseError
	if errors.As(err, &pe) {
		t.Errorf("a read error is not a *ParseError: %v", err)
	}
	if _, err := record.ReadOthelloTranscript(nil, othello.Position{}); err == nil {
		t.Error("nil reader: no error")
	}
}

func TestOthelloTranscriptGameErrors(t *testing.T) {
	var nilT *record.OthelloTranscript
	if _, err := nilT.Game(); err == nil {
		t.Error("nil transcript: no error")
	}
	tr := &record.OthelloTranscript{Moves: []othello.Move{othello.Place(othello.E3), othello.Pass}}
	_, err := tr.Game()
	if !errors.Is(err, othello.ErrIllegalMove) || err.Error() != "record: move 2: othello: pass for white: a pass is allowed only when no placement is" {
		t.Errorf("got %v", err)
	}
}

func TestWriteOthelloTranscript(t *testing.T) {
	tr, err := record.ReadOthelloTranscript(strings.NewReader(passTrans), othello.Position{})
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := record.WriteOthelloTranscript(&out, tr); err != nil {
		t.Fatal(err)
	}
	if got, want := out.String(), passTrans; got != want {
		t.Errorf("got %q, want %q", got, want)
	}

	// A missing forced pass, an illegal move, nicknames that do not fit:
	// refused, and nothing written.
	noPass := &record.OthelloTranscript{Black: "a", White: "b", Moves: slicesWithout(tr.Moves, othello.Pass)}
	for _, tc := range []struct {
		name string
		t    *record.OthelloTranscript
		want string
		is   error
	}{
		{"nil", nil, "record: nil transcript", nil},
		{"missing pass", noPass, "record: move 9: othello: d3 for black: no placement is legal: the move must be a pass", othello.ErrIllegalMove},
		{"illegal", &record.OthelloTranscript{Moves: []othello.Move{othello.Place(othello.A1)}}, "record: move 1: othello: a1 for black: flips no disc", othello.ErrIllegalMove},
		{"no move", &record.OthelloTranscript{Moves: []othello.Move{othello.NoMove}}, "record: move 1: othello: none for black: not a move", othello.ErrIllegalMove},
		{"LF in black", &record.OthelloTranscript{Black: "a\nb"}, `record: black nickname "a\nb" has a line break: unsupported operation`, errors.ErrUnsupported},
		{"CR in white", &record.OthelloTranscript{White: "b\r"}, `record: white nickname "b\r" has a line break: unsupported operation`, errors.ErrUnsupported},
		{",W: in black", &record.OthelloTranscript{Black: "a,W:b"}, `record: black nickname "a,W:b" has ",W:", which ends it in the header: unsupported operation`, errors.ErrUnsupported},
		{"too long", &record.OthelloTranscript{Black: strings.Repeat("b", 2048), White: strings.Repeat("w", 2044)}, "record: header longer than 4096 bytes: unsupported operation", errors.ErrUnsupported},
	} {
		var out bytes.Buffer
		err := record.WriteOthelloTranscript(&out, tc.t)
		if err == nil || err.Error() != tc.want {
			t.Errorf("%s: got %v, want %s", tc.name, err, tc.want)
		}
		if tc.is != nil && !errors.Is(err, tc.is) {
			t.Errorf("%s: %v is not %v", tc.name, err, tc.is)
		}
		if out.Len() != 0 {
			t.Errorf("%s: wrote %q", tc.name, out.String())
		}
	}
	// The longest header that fits is written and read back.
	fit := &record.OthelloTranscript{Black: strings.Repeat("b", 2048), White: strings.Repeat("w", 2043), Start: othello.TUS.Start}
	out.Reset()
	if err := record.WriteOthelloTranscript(&out, fit); err != nil {
		t.Fatal(err)
	}
	back, err := record.ReadOthelloTranscript(&out, othello.Position{})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(fit, back, positionComparer); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func slicesWithout(s []othello.Move, m othello.Move) []othello.Move {
	var out []othello.Move
	for _, x := range s {
		if x != m {
			out = append(out, x)
		}
	}
	return out
}

// flushRecorder records each Write and Flush.
type flushRecorder struct {
	log []string
}

func (f *flushRecorder) Write(p []byte) (int, error) {
	f.log = append(f.log, "write "+string(p))
	return len(p), nil
}

func (f *flushRecorder) Flush() error {
	f.log = append(f.log, "flush")
	return nil
}

func TestOthelloTransWriter(t *testing.T) {
	var rec flushRecorder
	tw, err := record.NewOthelloTransWriter(&rec, "V1ReleaseB1", "V1ReleaseA1")
	if err != nil {
		t.Fatal(err)
	}
	if err := tw.Move(othello.SquareAt(4, 2), othello.Black); err != nil {
		t.Fatal(err)
	}
	if err := tw.Move(othello.SquareAt(5, 4), othello.White); err != nil {
		t.Fatal(err)
	}
	want := []string{"write B:V1ReleaseB1,W:V1ReleaseA1\n", "flush", "write 4,2,1\n", "flush", "write 5,4,-1\n", "flush"}
	if diff := cmp.Diff(want, rec.log); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}

	if err := tw.Move(othello.NoSquare, othello.Black); err == nil || err.Error() != "record: transcript move on -1: not a square" {
		t.Errorf("NoSquare: %v", err)
	}
	if err := tw.Move(othello.A1, othello.Color(2)); err == nil || err.Error() != "record: transcript move of colour 2: not a colour" {
		t.Errorf("colour 2: %v", err)
	}
	if len(rec.log) != len(want) {
		t.Errorf("refused moves were written: %q", rec.log)
	}

	// Through a bufio.Writer, each line reaches the file at once.
	var file bytes.Buffer
	bw := bufio.NewWriter(&file)
	tw, err = record.NewOthelloTransWriter(bw, "a", "b")
	if err != nil {
		t.Fatal(err)
	}
	if file.String() != "B:a,W:b\n" {
		t.Errorf("header not flushed: %q", file.String())
	}
	if err := tw.Move(othello.E3, othello.Black); err != nil || file.String() != "B:a,W:b\n4,2,1\n" {
		t.Errorf("move not flushed: %q, %v", file.String(), err)
	}
}

// errWriter fails after n writes.
type errWriter struct {
	n   int
	err error
}

func (w *errWriter) Write(p []byte) (int, error) {
	if w.n == 0 {
		return 0, w.err
	}
	w.n--
	return len(p), nil
}

func TestOthelloTransWriterErrors(t *testing.T) {
	boom := errors.New("disk full")
	if _, err := record.NewOthelloTransWriter(&errWriter{0, boom}, "a", "b"); !errors.Is(err, boom) {
		t.Errorf("header write: %v", err)
	}
	if _, err := record.NewOthelloTransWriter(&bytes.Buffer{}, "a,W:", "b"); !errors.Is(err, errors.ErrUnsupported) {
		t.Errorf("bad nickname: %v", err)
	}
	if _, err := record.NewOthelloTransWriter(nil, "a", "b"); err == nil {
		t.Error("nil writer: no error")
	}
	w := &errWriter{1, boom}
	tw, err := record.NewOthelloTransWriter(w, "a", "b")
	if err != nil {
		t.Fatal(err)
	}
	for range 2 { // the error sticks
		if err := tw.Move(othello.E3, othello.Black); !errors.Is(err, boom) || err.Error() != "record: writing transcript: disk full" {
			t.Errorf("got %v", err)
		}
	}
	var zero record.OthelloTransWriter
	if err := zero.Move(othello.E3, othello.Black); err == nil {
		t.Error("zero OthelloTransWriter: no error")
	}
	var nilW *record.OthelloTransWriter
	if err := nilW.Move(othello.E3, othello.Black); err == nil {
		t.Error("nil OthelloTransWriter: no error")
	}
}

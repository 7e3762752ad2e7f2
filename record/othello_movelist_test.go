package record_test

import (
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

// The shortest finished game, and a game with a forced black pass at ply 9
// (white then plays e3 or f6), in standard orientation.
const (
	shortList = "d3c3b3d2e1d6d7e3f4"
	passList  = "d3c3b3b2f5a3a1c1"
)

func moves(t testing.TB, names ...string) []othello.Move {
	t.Helper()
	var ms []othello.Move
	for _, n := range names {
		m, err := othello.ParseMove(n)
		if err != nil {
			t.Fatal(err)
		}
		ms = append(ms, m)
	}
	return ms
}

func TestParseOthelloMoveList(t *testing.T) {
	g, err := record.ParseOthelloMoveList("f5d6c3d3c4")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(moves(t, "f5", "d6", "c3", "d3", "c4"), g.Moves()); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if g.Rules().Name != "standard" || g.IsOver() || g.Turn() != othello.White {
		t.Errorf("rules %q, over %v, turn %s", g.Rules().Name, g.IsOver(), g.Turn())
	}

	g, err = record.ParseOthelloMoveList(shortList + "\n")
	if err != nil {
		t.Fatal(err)
	}
	if r, over := g.Result(); !over || r.String() != "black wins 13-0 (discs)" {
		t.Errorf("%s: %v", shortList, r)
	}

	g, err = record.ParseOthelloMoveList("")
	if err != nil || g.Ply() != 0 || g.Position() != othello.Standard.Start {
		t.Errorf("empty list: %v, %v", g, err)
	}
}

func TestParseOthelloMoveListLeniency(t *testing.T) {
	want := append(moves(t, strings.Split("d3 c3 b3 b2 f5 a3 a1 c1", " ")...), othello.Pass, othello.Place(othello.E3))
	for _, in := range []string{
		passList + "e3",                           // the pass inferred
		passList + "pae3",                         // explicit, as Edax writes it
		passList + "PSe3",                         // either token, any case
		passList + "Pa e3\n",                      // white space between moves
		"D3C3B3B2F5A3A1C1E3",                      // upper case
		" d3 c3\tb3\r\nb2\n\nf5a3a1c1 pA e3 \n\n", // white space anywhere between moves
	} {
		g, err := record.ParseOthelloMoveList(in)
		if err != nil {
			t.Errorf("%q: %v", in, err)
			continue
		}
		if diff := cmp.Diff(want, g.Moves()); diff != "" {
			t.Errorf("%q: (-want +got):\n%s", in, diff)
		}
	}
	// A pass at the end of the list is kept when explicit.
	g, err := record.ParseOthelloMoveList(passList + "pa")
	if err != nil || g.Ply() != 9 || g.Turn() != othello.White {
		t.Errorf("final pass: %v, %v", g, err)
	}
}

func TestReadOthelloMoveListReaders(t *testing.T) {
	const in = "d3c3b3 b2\r\nf5a3a1c1e3\n"
	want, err := record.ParseOthelloMoveList(in)
	if err != nil {
		t.Fatal(err)
	}
	for name, r := range map[string]io.Reader{
		"one byte":  iotest.OneByteReader(strings.NewReader(in)),
		"data+EOF":  iotest.DataErrReader(strings.NewReader(in)),
		"half read": iotest.HalfReader(strings.NewReader(in)),
	} {
		g, err := record.ReadOthelloMoveList(r)
		if err != nil {
			t.Errorf("%s: %v", name, err)
		} else if diff := cmp.Diff(want.Moves(), g.Moves()); diff != "" {
			t.Errorf("%s: (-want +got):\n%s", name, diff)
		}
	}
	boom := errors.New("boom")
	_, err = record.ReadOthelloMoveList(io.MultiReader(strings.NewReader("d3c"), failingReader{boom}))
	if !errors.Is(err, boom) || err.Error() != "record: reading move 2: boom" {
		t.Errorf("read error: %v", err)
	}
	_, err = record.ReadOthelloMoveList(io.MultiReader(strings.NewReader("d3 "), failingReader{boom}))
	if !errors.Is(err, boom) || err.Error() != "record: reading move 2: boom" {
		t.Errorf("read error: %v", err)
	}
	if _, err := record.ReadOthelloMoveList(nil); err == nil {
		t.Error("nil reader: no error")
	}
}

func TestParseOthelloMoveListErrors(t *testing.T) {
	tests := []struct {
		name, in string
		want     string
		is       error
	}{
		{"illegal", "f5d6c3d3c4f4f6f3e6e7d7c4", `record: line 1, column 23: move 12 "c4": not legal for white`, othello.ErrIllegalMove},
		{"first move", "a1", `record: line 1, column 1: move 1 "a1": not legal for black`, othello.ErrIllegalMove},
		{"occupied", "d3d3", `record: line 1, column 3: move 2 "d3": not legal for white`, othello.ErrIllegalMove},
		{"off the board", "f5i9", `record: line 1, column 3: move 2 "i9": not a square a1-h8, nor pa or ps for a pass`, record.ErrSyntax},
		{"row 0", "f5d0", `record: line 1, column 3: move 2 "d0": not a square a1-h8, nor pa or ps for a pass`, record.ErrSyntax},
		{"separator", "f5,d6", `record: line 1, column 3: move 2 ",d": not a square a1-h8, nor pa or ps for a pass`, record.ErrSyntax},
		{"full pass word", "f5pass", `record: line 1, column 3: move 2 "pa": a pass is not forced: white has a legal move`, othello.ErrIllegalMove},
		{"half token", "f5d", `record: line 1, column 3: move 2 "d": incomplete move: a square a1-h8, or pa or ps for a pass`, record.ErrSyntax},
		{"split token", "f5 d 6", `record: line 1, column 4: move 2 "d": incomplete move: a square a1-h8, or pa or ps for a pass`, record.ErrSyntax},
		{"non-ASCII", "f5\xffd6", `record: line 1, column 3: move 2 "\xffd": not a square a1-h8, nor pa or ps for a pass`, record.ErrSyntax},
		{"second line", "f5d6\n  c3x9", `record: line 2, column 5: move 4 "x9": not a square a1-h8, nor pa or ps for a pass`, record.ErrSyntax},
		{"CRLF lines", "f5\r\nd6\r\nc3\r\nd3\r\nc4\r\nf4\r\nf6\r\nf3\r\ne6\r\ne7\r\nd7\r\nc4\r\n", `record: line 12, column 1: move 12 "c4": not legal for white`, othello.ErrIllegalMove},
		{"pass not forced", "pa", `record: line 1, column 1: move 1 "pa": a pass is not forced: black has a legal move`, othello.ErrIllegalMove},
		{"pass twice", passList + "papa", `record: line 1, column 19: move 10 "pa": a pass is not forced: white has a legal move`, othello.ErrIllegalMove},
		{"illegal after a pass", passList + "a8", `record: line 1, column 17: move 9 "a8": not legal for white (after black's forced pass)`, othello.ErrIllegalMove},
		{"after the end", shortList + "a1", `record: line 1, column 19: move 10 "a1": the game is over`, othello.ErrGameOver},
		{"pass after the end", shortList + " ps", `record: line 1, column 20: move 10 "ps": the game is over`, othello.ErrGameOver},
		{"junk after the end", shortList + "\nzz", `record: line 2, column 1: move 10 "zz": not a square a1-h8, nor pa or ps for a pass`, record.ErrSyntax},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g, err := record.ParseOthelloMoveList(tc.in)
			if err == nil {
				t.Fatalf("no error; read %v", g.Moves())
			}
			if g != nil {
				t.Errorf("a game along with the error")
			}
			if err.Error() != tc.want {
				t.Errorf("error\n got %s\nwant %s", err, tc.want)
			}
			var pe *record.ParseError
			if !errors.As(err, &pe) {
				t.Errorf("%v is not a *ParseError", err)
			}
			if !errors.Is(err, tc.is) {
				t.Errorf("%v is not %v", err, tc.is)
			}
		})
	}
	// The reason is in the rules engine's error.
	_, err := record.ParseOthelloMoveList("d3d3")
	var me *othello.MoveError
	if !errors.As(err, &me) || me.Reason != "square occupied" || me.Turn != othello.White {
		t.Errorf("%#v", me)
	}
}

func TestWriteOthelloMoveList(t *testing.T) {
	g, err := record.ParseOthelloMoveList("F5 D6 C3 D3 C4")
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := record.WriteOthelloMoveList(&out, g); err != nil {
		t.Fatal(err)
	}
	if out.String() != "f5d6c3d3c4\n" {
		t.Errorf("got %q", out.String())
	}

	// Passes are left out.
	g, err = record.ParseOthelloMoveList(passList + "pa e3")
	if err != nil {
		t.Fatal(err)
	}
	b, err := record.AppendOthelloMoveList([]byte("moves: "), g)
	if err != nil || string(b) != "moves: "+passList+"e3" {
		t.Errorf("got %q, %v", b, err)
	}

	// A TUS game is mirrored: the first TUS move e3 (PUT 4 2) is d3.
	tus := othello.NewGame(othello.TUS)
	for _, m := range moves(t, "e3", "f5", "c6") {
		if err := tus.Play(m); err != nil {
			t.Fatal(err)
		}
	}
	b, err = record.AppendOthelloMoveList(nil, tus)
	if err != nil || string(b) != "d3c5f6" {
		t.Errorf("TUS game: %q, %v", b, err)
	}

	// Any other start is refused.
	for _, r := range []othello.Rules{othello.Board6x6, {Name: "empty board"}} {
		_, err := record.AppendOthelloMoveList(nil, othello.NewGame(r))
		if !errors.Is(err, errors.ErrUnsupported) {
			t.Errorf("%s: %v", r.Name, err)
		}
	}
	p, _ := othello.ParsePosition("---------------------------OX------XO--------------------------- O")
	out.Reset()
	err = record.WriteOthelloMoveList(&out, othello.NewGame(othello.Rules{Start: p}))
	want := "record: a move list starts from the standard position (or its mirror, the TUS one), not from ---------------------------OX------XO--------------------------- O: unsupported operation"
	if err == nil || err.Error() != want || out.Len() != 0 {
		t.Errorf("white to move: %v, wrote %q", err, out.String())
	}
	if _, err := record.AppendOthelloMoveList(nil, nil); err == nil {
		t.Error("nil game: no error")
	}
}

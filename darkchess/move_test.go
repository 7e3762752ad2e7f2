package darkchess_test

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/botarena/botarena/darkchess"
)

func TestSquares(t *testing.T) {
	if s := darkchess.SquareAt(1, 6); s != darkchess.B7 || s.String() != "b7" || s.X() != 1 || s.Y() != 6 || s != 25 {
		t.Errorf("SquareAt(1, 6) = %v", s)
	}
	if darkchess.A1 != 0 || darkchess.D1 != 3 || darkchess.A2 != 4 || darkchess.D8 != 31 || darkchess.A8^28 != 0 {
		t.Error("square numbering")
	}
	for _, bad := range [][2]int{{-1, 0}, {4, 0}, {0, 8}, {0, -1}} {
		if s := darkchess.SquareAt(bad[0], bad[1]); s != darkchess.NoSquare || s.Valid() || s.String() != "-" || s.Bit() != 0 {
			t.Errorf("SquareAt(%v) = %v", bad, s)
		}
	}
	for sq := range darkchess.Square(32) {
		for _, name := range []string{sq.String(), strings.ToUpper(sq.String())} {
			if got, err := darkchess.ParseSquare(name); err != nil || got != sq {
				t.Errorf("ParseSquare(%q) = %v, %v", name, got, err)
			}
		}
		if !sq.Bit().Has(sq) || sq.Bit().Count() != 1 {
			t.Errorf("%s.Bit()", sq)
		}
	}
	for _, tt := range []struct {
		in     string
		offset int
	}{{"", 0}, {"e1", 0}, {"a9", 1}, {"a0", 1}, {"a", 1}, {"a11", 2}, {"1a", 0}} {
		var se *darkchess.SyntaxError
		if _, err := darkchess.ParseSquare(tt.in); !errors.As(err, &se) || se.Offset != tt.offset {
			t.Errorf("ParseSquare(%q) error = %v, want offset %d", tt.in, err, tt.offset)
		}
	}
	b := darkchess.A1.Bit() | darkchess.D8.Bit() | darkchess.B2.Bit()
	if got := b.String(); got != "...x\n....\n....\n....\n....\n....\n.x..\nx...\n" {
		t.Errorf("Bitboard.String() = %q", got)
	}
	var n []darkchess.Square
	for s := range b.Squares() {
		n = append(n, s)
		break
	}
	if len(n) != 1 || n[0] != darkchess.A1 {
		t.Error("Squares does not stop early")
	}
}

func TestPieces(t *testing.T) {
	for pc := range darkchess.Piece(18) {
		valid := pc < 16 && pc != darkchess.NoPiece && pc != darkchess.Hidden
		if pc.Valid() != valid {
			t.Errorf("%d.Valid() = %v", pc, pc.Valid())
		}
		if !valid {
			if pc.Color() != darkchess.NoColor || pc.Kind() != darkchess.NoKind {
				t.Errorf("%d has colour %s kind %s", pc, pc.Color(), pc.Kind())
			}
			continue
		}
		if darkchess.MakePiece(pc.Color(), pc.Kind()) != pc {
			t.Errorf("MakePiece(%s, %s) != %d", pc.Color(), pc.Kind(), pc)
		}
		if got, err := darkchess.ParsePiece(pc.String()); err != nil || got != pc {
			t.Errorf("ParsePiece(%q) = %v, %v", pc, got, err)
		}
	}
	if got := darkchess.RedKing.String() + darkchess.BlackPawn.String() + darkchess.Hidden.String() + darkchess.NoPiece.String() + darkchess.Piece(99).String(); got != "KpX-?" {
		t.Errorf("piece letters %q", got)
	}
	if darkchess.MakePiece(darkchess.NoColor, darkchess.King) != darkchess.NoPiece || darkchess.MakePiece(darkchess.Red, 0) != darkchess.NoPiece {
		t.Error("MakePiece of invalid values")
	}
	for _, in := range []string{"", "x", "KK", "Q", "?"} {
		if _, err := darkchess.ParsePiece(in); err == nil {
			t.Errorf("ParsePiece(%q) succeeded", in)
		}
	}
	names := ""
	for k := darkchess.NoKind; k <= darkchess.Pawn+1; k++ {
		names += k.String() + strconv.Itoa(k.InitialCount()) + " "
	}
	if names != "no kind0 king1 guard2 minister2 rook2 knight2 cannon2 pawn5 invalid kind0 " {
		t.Errorf("kinds %q", names)
	}
	if darkchess.Red.Opponent() != darkchess.Black || darkchess.NoColor.Opponent() != darkchess.NoColor || darkchess.Color(7).String() != "invalid color" ||
		darkchess.NoColor.String() != "unknown" || darkchess.NoColor.Valid() {
		t.Error("colours")
	}
}

func TestParseMove(t *testing.T) {
	for in, want := range map[string]darkchess.Move{
		"b5-b6": darkchess.NewMove(darkchess.B5, darkchess.B6),
		"b5 b6": darkchess.NewMove(darkchess.B5, darkchess.B6),
		"B5B6":  darkchess.NewMove(darkchess.B5, darkchess.B6),
		"b7":    darkchess.Flip(darkchess.B7),
		"b7-b7": darkchess.Flip(darkchess.B7),
		"a1-d8": darkchess.NewMove(darkchess.A1, darkchess.D8),
	} {
		m, err := darkchess.ParseMove(in)
		if err != nil || m != want {
			t.Errorf("ParseMove(%q) = %v, %v", in, m, err)
		}
		if again, err := darkchess.ParseMove(m.String()); err != nil || again != m {
			t.Errorf("ParseMove(%q) = %v, %v", m, again, err)
		}
		text, err := m.MarshalText()
		var u darkchess.Move
		if err != nil || u.UnmarshalText(text) != nil || u != m {
			t.Errorf("%v: text round trip %q, %v", m, text, err)
		}
	}
	for _, tt := range []struct {
		in     string
		offset int
	}{{"", 0}, {"b", 1}, {"b5-", 3}, {"b5--b6", 3}, {"b5-b6x", 5}, {"b5  b6", 3}, {"b5-e6", 3}, {"b5b", 3}, {"b7(c)", 2}} {
		var se *darkchess.SyntaxError
		m, err := darkchess.ParseMove(tt.in)
		if !errors.As(err, &se) || se.Offset != tt.offset || m != darkchess.NoMove {
			t.Errorf("ParseMove(%q) = %v, %v; want offset %d", tt.in, m, err, tt.offset)
		}
	}
	if darkchess.NoMove.Valid() || darkchess.NoMove.String() != "none" || darkchess.NoMove.IsFlip() {
		t.Error("NoMove")
	}
	if _, err := darkchess.NoMove.MarshalText(); err == nil {
		t.Error("NoMove.MarshalText succeeded")
	}
	var m darkchess.Move
	if m.UnmarshalText([]byte("zz")) == nil || m != darkchess.NoMove {
		t.Error("UnmarshalText of garbage")
	}
}

func TestParsePly(t *testing.T) {
	for in, want := range map[string]darkchess.Ply{
		"b7(c)": {Move: darkchess.Flip(darkchess.B7), Piece: darkchess.BlackCannon},
		"A1(K)": {Move: darkchess.Flip(darkchess.A1), Piece: darkchess.RedKing},
		"b5-b6": {Move: darkchess.NewMove(darkchess.B5, darkchess.B6)},
		"b7":    {Move: darkchess.Flip(darkchess.B7)},
	} {
		p, err := darkchess.ParsePly(in)
		if err != nil || p != want {
			t.Errorf("ParsePly(%q) = %v, %v", in, p, err)
		}
		if again, err := darkchess.ParsePly(p.String()); err != nil || again != p {
			t.Errorf("ParsePly(%q) = %v, %v", p, again, err)
		}
		text, err := p.MarshalText()
		var u darkchess.Ply
		if err != nil || u.UnmarshalText(text) != nil || u != p {
			t.Errorf("%v: text round trip %q, %v", p, text, err)
		}
	}
	for _, in := range []string{"b7(X)", "b7(-)", "b7(q)", "e7(c)", "b7(c", "b7()", "b7 (c)"} {
		if p, err := darkchess.ParsePly(in); err == nil || p.Move != darkchess.NoMove {
			t.Errorf("ParsePly(%q) = %v, %v", in, p, err)
		}
	}
	for _, tt := range []struct {
		ply   darkchess.Ply
		valid bool
		text  string
	}{
		{darkchess.Ply{Move: darkchess.Flip(darkchess.C3), Piece: darkchess.RedPawn}, true, "c3(P)"},
		{darkchess.Ply{Move: darkchess.Flip(darkchess.C3)}, false, "c3-c3"},
		{darkchess.Ply{Move: darkchess.Flip(darkchess.C3), Piece: darkchess.Hidden}, false, "none"},
		{darkchess.Ply{Move: darkchess.NewMove(darkchess.C3, darkchess.C4), Piece: darkchess.RedPawn}, false, "none"},
		{darkchess.Ply{Move: darkchess.NoMove}, false, "none"},
	} {
		if tt.ply.Valid() != tt.valid || tt.ply.String() != tt.text {
			t.Errorf("%#v: Valid %v String %q", tt.ply, tt.ply.Valid(), tt.ply.String())
		}
	}
	if _, err := (darkchess.Ply{Move: darkchess.NoMove}).MarshalText(); err == nil {
		t.Error("invalid ply marshalled")
	}
}

// TestPlayErrors: every refusal names its reason and wraps its sentinel, and
// leaves the position unchanged.
func TestPlayErrors(t *testing.T) {
	mid := "P-X-/-K-g/-R--/-mp-/r-c-/c-PP/gk--/---- b 00000000000001 0"
	midDealt := mid + " ..p./..../..../..../..../..../..../...."
	lost := "----/----/----/----/----/-X--/--k-/---- r 00000000000001 0"
	for _, tt := range []struct {
		pos    string
		ply    string
		sent   error
		reason string
	}{
		{openingText, "a1-a2", darkchess.ErrIllegalMove, "first ply must be a flip"},
		{openingText, "a1", darkchess.ErrNoDeal, "is unknown"},
		{mid, "c8", darkchess.ErrNoDeal, "is unknown"},
		{mid, "c8(k)", darkchess.ErrIllegalMove, "no k is face-down"},
		{midDealt, "c8(P)", darkchess.ErrIllegalMove, "no P is face-down"},
		{mid + " ..p./..../..../..../..../..../..../....", "c8(p)", nil, ""},
		{mid, "a8", darkchess.ErrIllegalMove, "nothing face-down on a8"},
		{mid, "a1-a2", darkchess.ErrIllegalMove, "no piece on a1"},
		{mid, "c8-c7", darkchess.ErrIllegalMove, "face-down and cannot move"},
		{mid, "b7-b8", darkchess.ErrIllegalMove, "is not yours"},
		{mid, "b2-c3", darkchess.ErrIllegalMove, "ranks and files only"},
		{mid, "b5-c5", darkchess.ErrIllegalMove, "own piece is on c5"},
		{mid, "a4-a1", darkchess.ErrIllegalMove, "one step"},
		{mid, "c5-c7", darkchess.ErrIllegalMove, "one step"},
		{mid, "b2-b1", nil, ""},
		{mid, "a3-a8", nil, ""},
		{mid, "c4-c3", darkchess.ErrIllegalMove, "jumping over exactly one piece"},
		{mid, "c4-c6", darkchess.ErrIllegalMove, "a cannon moves one step"},
		{"P-X-/-K-g/-R--/-mp-/r-c-/c-PP/gk--/---- r 00000000000001 0", "b6-b5", darkchess.ErrIllegalMove, "a rook may not take a minister"},
		{"P-X-/-K-g/-R--/-mp-/r-c-/c-PP/gk--/---- r 00000000000001 0", "b7-c7", nil, ""},
		{"----/----/----/----/----/----/-p--/-K-- r 00000000000000 0", "b1-b2", darkchess.ErrIllegalMove, "a king may not take a pawn"},
		{"-X--/-K--/----/----/----/----/----/---- r 00000000000001 0", "b7-b8", darkchess.ErrIllegalMove, "a face-down piece cannot be captured"},
		{mid, "b2-b1(p)", darkchess.ErrIllegalMove, "reveals no piece"},
		{lost, "b3", darkchess.ErrGameOver, "has lost"},
	} {
		p := mustParse(t, tt.pos)
		ply, err := darkchess.ParsePly(strings.TrimSuffix(tt.ply, "(p)"))
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasSuffix(tt.ply, "(p)") {
			ply.Piece = darkchess.BlackPawn
		}
		got, err := p.PlayPly(ply)
		if tt.sent == nil {
			if err != nil {
				t.Errorf("%s PlayPly(%s): %v", p, ply, err)
			}
			continue
		}
		var me *darkchess.MoveError
		if !errors.Is(err, tt.sent) || !errors.As(err, &me) || !strings.Contains(me.Reason, tt.reason) || got != p || me.Ply != ply {
			t.Errorf("%s PlayPly(%s) = %v; want %v with %q", p, ply, err, tt.sent, tt.reason)
			continue
		}
		if !strings.HasPrefix(err.Error(), "darkchess: "+ply.String()+" for ") {
			t.Errorf("error text %q", err)
		}
	}
}

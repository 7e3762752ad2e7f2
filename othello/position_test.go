package othello_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/botarena/botarena/othello"
	"github.com/botarena/botarena/othello/othellotest"
	"pgregory.net/rapid"
)

func TestStartStrings(t *testing.T) {
	for _, tt := range []struct {
		rules othello.Rules
		want  string
		legal string
	}{
		{othello.Standard, "---------------------------OX------XO--------------------------- X", "d3 c4 f5 e6"},
		{othello.TUS, "---------------------------XO------OX--------------------------- X", "e3 c5 f4 d6"},
		{othello.Board6x6, "--------------OX----XO-------------- X", "d3 c4 f5 e6"},
	} {
		if got := tt.rules.Start.String(); got != tt.want {
			t.Errorf("%s start = %q, want %q", tt.rules.Name, got, tt.want)
		}
		var names []string
		for s := range tt.rules.Start.LegalSquares().Squares() {
			names = append(names, s.String())
		}
		if got := strings.Join(names, " "); got != sortedSquares(tt.legal) {
			t.Errorf("%s legal = %q, want %q", tt.rules.Name, got, tt.legal)
		}
	}
}

func sortedSquares(list string) string {
	var b othello.Bitboard
	for _, f := range strings.Fields(list) {
		s, _ := othello.ParseSquare(f)
		b |= s.Bit()
	}
	var names []string
	for s := range b.Squares() {
		names = append(names, s.String())
	}
	return strings.Join(names, " ")
}

func TestParsePositionLenient(t *testing.T) {
	want := othello.Standard.Start
	for _, in := range []string{
		"---------------------------OX------XO--------------------------- X",
		"...........................ox......xo........................... x",
		"...........................O*......*O........................... *",
		"--------\n--------\n--------\n---OX---\n---XO---\n--------\n--------\n--------\nX\n",
	} {
		got, err := othello.ParsePosition(in)
		if err != nil || got != want {
			t.Errorf("ParsePosition(%q) = %s, %v", in, got, err)
		}
	}
}

func TestParsePositionErrors(t *testing.T) {
	for _, tt := range []struct {
		in     string
		offset int
		msg    string
	}{
		{"", 0, "empty position"},
		{strings.Repeat("-", 64) + " Z", 65, "side to move"},
		{strings.Repeat("-", 63) + " X", 64, "needs 64 squares"},
		{strings.Repeat("-", 10) + "?" + strings.Repeat("-", 53) + " X", 10, "a square is"},
		{strings.Repeat("-", 65) + " X", 66, "too many"},
		{strings.Repeat("-", 40) + " X", 41, "needs 64 squares"},
		{strings.Repeat("-", 70) + " X", 65, "too many"},
	} {
		_, err := othello.ParsePosition(tt.in)
		var se *othello.SyntaxError
		if !errors.As(err, &se) || se.Offset != tt.offset || !strings.Contains(se.Msg, tt.msg) {
			t.Errorf("ParsePosition(%q) error = %v, want offset %d and %q", tt.in, err, tt.offset, tt.msg)
		}
	}
	// A 6x6 board with a disc outside b2..g7 cannot be written, but a Setup can try.
	_, err := othello.NewPosition(othello.Setup{Black: othello.A1.Bit() | othello.D4.Bit(), White: othello.D4.Bit(), Size: 6, Turn: 7})
	var se *othello.SetupError
	if !errors.Is(err, othello.ErrInvalidSetup) || !errors.As(err, &se) {
		t.Fatalf("NewPosition error = %v", err)
	}
	for _, part := range []string{"setup Turn", "both colours on d4", "off the 6x6 board on a1"} {
		if !strings.Contains(err.Error(), part) {
			t.Errorf("error %q does not mention %q", err, part)
		}
	}
	if _, err := othello.NewPosition(othello.Setup{Size: 7}); err == nil || !strings.Contains(err.Error(), "setup Size: 7") {
		t.Errorf("Size 7: %v", err)
	}
}

func TestPositionRoundTrips(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := anyPosition().Draw(t, "p")
		q, err := othello.ParsePosition(p.String())
		if err != nil || q != p {
			t.Fatalf("ParsePosition(%q) = %s, %v", p, q, err)
		}
		r, err := othello.NewPosition(p.Setup())
		if err != nil || r != p {
			t.Fatalf("NewPosition(Setup) = %s, %v", r, err)
		}
		text, _ := p.MarshalText()
		var u othello.Position
		if err := u.UnmarshalText(text); err != nil || u != p {
			t.Fatalf("UnmarshalText(%q) = %s, %v", text, u, err)
		}
		if p.Count(othello.Black)+p.Count(othello.White)+p.Empty().Count() != p.Board().Count() {
			t.Fatalf("%s: counts do not add up", p)
		}
	})
}

func TestSquaresAndMoves(t *testing.T) {
	if s := othello.SquareAt(4, 2); s != othello.E3 || s.String() != "e3" || s.X() != 4 || s.Y() != 2 {
		t.Errorf("SquareAt(4, 2) = %v", s)
	}
	for _, bad := range [][2]int{{-1, 0}, {8, 0}, {0, 8}, {0, -1}} {
		if s := othello.SquareAt(bad[0], bad[1]); s != othello.NoSquare || s.Valid() || s.String() != "-" {
			t.Errorf("SquareAt(%v) = %v", bad, s)
		}
	}
	for sq := range othello.Square(64) {
		for _, name := range []string{sq.String(), strings.ToUpper(sq.String())} {
			if got, err := othello.ParseSquare(name); err != nil || got != sq {
				t.Errorf("ParseSquare(%q) = %v, %v", name, got, err)
			}
		}
		m := othello.Place(sq)
		if m.Square() != sq || m.IsPass() || !m.Valid() {
			t.Errorf("Place(%v) = %v", sq, m)
		}
		if got, err := othello.ParseMove(m.String()); err != nil || got != m {
			t.Errorf("ParseMove(%q) = %v, %v", m, got, err)
		}
	}
	for _, in := range []string{"pass", "PA", "ps", "Pass"} {
		if m, err := othello.ParseMove(in); err != nil || m != othello.Pass {
			t.Errorf("ParseMove(%q) = %v, %v", in, m, err)
		}
	}
	for _, in := range []string{"", "i1", "a9", "a0", "e33", "pas", "1a"} {
		var se *othello.SyntaxError
		if _, err := othello.ParseMove(in); !errors.As(err, &se) {
			t.Errorf("ParseMove(%q) error = %v, want *SyntaxError", in, err)
		}
	}
	if othello.NoMove.Valid() || othello.NoMove.String() != "none" || othello.Place(othello.NoSquare) != othello.NoMove {
		t.Error("NoMove")
	}
	if _, err := othello.NoMove.MarshalText(); err == nil {
		t.Error("NoMove.MarshalText succeeded")
	}
}

func TestPlayErrors(t *testing.T) {
	start := othello.Standard.Start
	full, _ := othello.ParsePosition(strings.Repeat("X", 63) + "O X")
	// Black to move, no black move, white has one (it can flank on h8? no: white
	// needs a run of black ending in white) - build a forced pass by hand:
	// white h1, black g1, empty f1, black to move has nothing, white plays f1.
	pass, err := othello.NewPosition(othello.Setup{Black: othello.G1.Bit(), White: othello.H1.Bit(), Turn: othello.Black})
	if err != nil {
		t.Fatal(err)
	}
	if !pass.MustPass() {
		t.Fatalf("%s: MustPass = false", pass)
	}
	for _, tt := range []struct {
		p      othello.Position
		m      othello.Move
		sent   error
		reason string
	}{
		{start, othello.Place(othello.A1), othello.ErrIllegalMove, "flips no disc"},
		{start, othello.Place(othello.D4), othello.ErrIllegalMove, "square occupied"},
		{start, othello.Pass, othello.ErrIllegalMove, "a pass is allowed only"},
		{start, othello.NoMove, othello.ErrIllegalMove, "not a move"},
		{othello.Board6x6.Start, othello.Place(othello.A1), othello.ErrIllegalMove, "off the board"},
		{pass, othello.Place(othello.F1), othello.ErrIllegalMove, "must be a pass"},
		{full, othello.Place(othello.H8), othello.ErrGameOver, "game is over"},
	} {
		got, err := tt.p.Play(tt.m)
		var me *othello.MoveError
		if !errors.Is(err, tt.sent) || !errors.As(err, &me) || !strings.Contains(me.Reason, tt.reason) || got != tt.p {
			t.Errorf("%s Play(%s) = %v; want %v with %q", tt.p, tt.m, err, tt.sent, tt.reason)
		}
	}
	if after, err := pass.Play(othello.Pass); err != nil || after.Turn() != othello.White || after.Black() != pass.Black() {
		t.Errorf("forced pass: %s, %v", after, err)
	}
}

func TestGame(t *testing.T) {
	g := othello.NewGame(othello.TUS)
	if g.IsOver() || g.Ply() != 0 || g.Position() != othello.TUS.Start || g.Turn() != othello.Black {
		t.Fatal("new game")
	}
	if err := g.Play(othello.Place(othello.D3)); !errors.Is(err, othello.ErrIllegalMove) || g.Ply() != 0 {
		t.Fatalf("illegal move: %v, ply %d", err, g.Ply())
	}
	if err := g.Play(othello.Place(othello.E3)); err != nil {
		t.Fatal(err)
	}
	if p, ok := g.PositionAt(0); !ok || p != othello.TUS.Start {
		t.Error("PositionAt(0)")
	}
	if _, ok := g.PositionAt(2); ok {
		t.Error("PositionAt(2) exists")
	}
	moves := g.Moves()
	moves[0] = othello.Pass
	if g.Moves()[0] != othello.Place(othello.E3) {
		t.Error("Moves is not a copy")
	}
	if err := g.Forfeit(othello.White, othello.Discs); err == nil {
		t.Error("forfeit by discs accepted")
	}
	if err := g.Forfeit(othello.White, othello.Timeout); err != nil {
		t.Fatal(err)
	}
	r, over := g.Result()
	want := othello.Result{Reason: othello.Timeout, Winner: othello.Black, Black: 4, White: 1}
	if !over || r != want || r.String() != "black wins 4-1 (timeout)" {
		t.Errorf("result %v, want %v", r, want)
	}
	if err := g.Play(othello.Place(othello.F4)); !errors.Is(err, othello.ErrGameOver) {
		t.Errorf("move after forfeit: %v", err)
	}
	if err := g.Forfeit(othello.Black, othello.Disconnect); !errors.Is(err, othello.ErrGameOver) {
		t.Errorf("second forfeit: %v", err)
	}
	if err := g.AgreeDraw(); !errors.Is(err, othello.ErrGameOver) {
		t.Errorf("draw agreed after a forfeit: %v", err)
	}
}

// TestGameResignAndAgreedDraw: a resignation loses and an agreed draw
// draws, whatever the discs, each keeping the counts; neither is accepted
// twice or after the game ended, and no other reason forfeits.
func TestGameResignAndAgreedDraw(t *testing.T) {
	g := othello.NewGame(othello.TUS)
	if err := g.Play(othello.Place(othello.E3)); err != nil {
		t.Fatal(err)
	}
	for _, r := range []othello.Reason{othello.Unfinished, othello.Discs, othello.AgreedDraw, othello.AgreedDraw + 1} {
		if err := g.Forfeit(othello.Black, r); err == nil || g.IsOver() {
			t.Errorf("forfeit by %v accepted", r)
		}
	}
	if err := g.Forfeit(othello.Black, othello.Resign); err != nil {
		t.Fatal(err)
	}
	r, over := g.Result()
	want := othello.Result{Reason: othello.Resign, Winner: othello.White, Black: 4, White: 1}
	if !over || r != want || r.String() != "white wins 4-1 (resignation)" {
		t.Errorf("result %v, want %v", r, want)
	}
	if err := g.AgreeDraw(); !errors.Is(err, othello.ErrGameOver) {
		t.Errorf("draw agreed after a resignation: %v", err)
	}

	g = othello.NewGame(othello.TUS)
	if err := g.Play(othello.Place(othello.E3)); err != nil {
		t.Fatal(err)
	}
	if err := g.AgreeDraw(); err != nil {
		t.Fatal(err)
	}
	r, over = g.Result()
	want = othello.Result{Reason: othello.AgreedDraw, Draw: true, Black: 4, White: 1}
	if !over || r != want || r.String() != "draw 4-1 (agreement)" {
		t.Errorf("result %v, want %v", r, want)
	}
	if err := g.Play(othello.Place(othello.F3)); !errors.Is(err, othello.ErrGameOver) {
		t.Errorf("move after an agreed draw: %v", err)
	}
	if err := g.Forfeit(othello.White, othello.Resign); !errors.Is(err, othello.ErrGameOver) {
		t.Errorf("resignation after an agreed draw: %v", err)
	}
}

// TestGamesEnd plays random games to the end: the result follows the discs,
// and the game refuses further moves.
func TestGamesEnd(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		g := othellotest.Game(othello.Standard).Draw(t, "g")
		var buf [64]othello.Move
		for !g.IsOver() {
			moves := g.Position().AppendLegalMoves(buf[:0])
			if err := g.Play(moves[len(moves)/2]); err != nil {
				t.Fatal(err)
			}
		}
		r, _ := g.Result()
		p := g.Position()
		if !p.IsOver() || r.Reason != othello.Discs || r.Black != p.Count(othello.Black) || r.White != p.Count(othello.White) {
			t.Fatalf("result %v for %s", r, p)
		}
		if r.Draw != (r.Black == r.White) || (!r.Draw && (r.Winner == othello.Black) != (r.Black > r.White)) {
			t.Fatalf("winner wrong in %v", r)
		}
	})
}

func TestDrawResult(t *testing.T) {
	p, err := othello.ParsePosition(strings.Repeat("X", 32) + strings.Repeat("O", 32) + " X")
	if err != nil {
		t.Fatal(err)
	}
	g := othello.NewGame(othello.Rules{Name: "full", Start: p})
	r, over := g.Result()
	if !over || !r.Draw || r.String() != "draw 32-32 (discs)" {
		t.Errorf("result %v, over %v", r, over)
	}
}

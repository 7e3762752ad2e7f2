package darkchess_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/botarena/botarena/darkchess"
	"pgregory.net/rapid"
)

const openingText = "XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXXX - 12222251222225 0"

func TestOpening(t *testing.T) {
	p := darkchess.Opening
	if p.String() != openingText || p.Turn() != darkchess.NoColor || p.Dealt() || p.FaceDown() != 0xFFFFFFFF {
		t.Fatalf("opening %s", p)
	}
	if p.Count(darkchess.Red) != 16 || p.Count(darkchess.Black) != 16 || p.Pool(darkchess.RedPawn) != 5 || p.Pool(darkchess.BlackKing) != 1 {
		t.Error("opening counts")
	}
	moves := p.AppendLegalMoves(nil)
	if len(moves) != 32 || !moves[0].IsFlip() || moves[31] != darkchess.Flip(darkchess.D8) {
		t.Errorf("opening moves %v", moves)
	}
	if q := mustParse(t, openingText); q != p {
		t.Errorf("parsed opening %s", q)
	}
	// The documented example deal.
	dealt := mustParse(t, openingText+" PmRc/MRpP/MrnK/Pknp/rCpC/GgPP/GpNN/gmpc")
	if dealt.DealAt(darkchess.A8) != darkchess.RedPawn || dealt.DealAt(darkchess.D1) != darkchess.BlackCannon || dealt.At(darkchess.A8) != darkchess.Hidden {
		t.Errorf("dealt opening %s", dealt)
	}
	after := dealt.PlayUnchecked(darkchess.Flip(darkchess.B8))
	if after.At(darkchess.B8) != darkchess.BlackMinister || after.Turn() != darkchess.Red || after.Pool(darkchess.BlackMinister) != 1 {
		t.Errorf("after the first flip: %s", after)
	}
}

func TestParsePositionLenient(t *testing.T) {
	want := mustParse(t, "PgXP/-g-G/-X-M/XNXm/N-Xc/--PK/X---/Pm-P b 01020101000001 0 ..R./..../.k../R.p./..G./..../C.../....")
	for _, in := range []string{
		"PgXP/-g-G/-X-M/XNXm/N-Xc/--PK/X---/Pm-P b 01020101000001 0 ..R./..../.k../R.p./..G./..../C.../....",
		"  PgxP/.g.G/.x.M/xNxm/N.xc/..PK/x.../Pm.P\tB\n01020101000001 0\r\n--R-/----/-k--/R-p-/--G-/----/C---/----\n",
	} {
		if got, err := darkchess.ParsePosition(in); err != nil || got != want {
			t.Errorf("ParsePosition(%q) = %s, %v", in, got, err)
		}
	}
	if got := mustParse(t, openingText+" -"); got != darkchess.Opening {
		t.Errorf("deal \"-\" gave %s", got)
	}
}

func TestParsePositionErrors(t *testing.T) {
	for _, tt := range []struct {
		in     string
		offset int
		msg    string
	}{
		{"", 0, "want board"},
		{"XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXXX -", 41, "want board"},
		{"XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXX? - 12222251222225 0", 38, "bad square"},
		{"XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXX - 12222251222225 0", 38, "4 squares"},
		{"XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXXXX/XXXX - 12222251222225 0", 34, "separated by /"},
		{"XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/ - 12222251222225 0", 39, "8 ranks"},
		{"XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXXX x 12222251222225 0", 40, "side to move"},
		{"XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXXX - 1222225122222 0", 55, "14 digits"},
		{"XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXXX - 1222225122222a 0", 55, "14 digits"},
		{"XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXXX - 12222251222225 -1", 57, "decimal"},
		{"XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXXX - 12222251222225 70000", 57, "at most 65535"},
		{openingText + " PmRc/MRpP/MrnK/Pknp/rCpC/GgPP/GpNN/gmpX", 97, "deal square"},
		{openingText + " PmRc/MRpP/MrnK/Pknp/rCpC/GgPP/GpNN/gmpc x", 99, "after the deal"},
	} {
		_, err := darkchess.ParsePosition(tt.in)
		var se *darkchess.SyntaxError
		if !errors.As(err, &se) || se.Offset != tt.offset || !strings.Contains(se.Msg, tt.msg) {
			t.Errorf("ParsePosition(%q) error = %v, want offset %d and %q", tt.in, err, tt.offset, tt.msg)
		}
	}
}

// TestNewPositionErrors: NewPosition reports every problem of a Setup, each
// a *SetupError wrapping ErrInvalidSetup.
func TestNewPositionErrors(t *testing.T) {
	var s darkchess.Setup
	s.Turn = 5
	s.Board[darkchess.A1] = 20                  // not a piece
	s.Board[darkchess.B1] = darkchess.Hidden    // face-down, without deal below
	s.Board[darkchess.C1] = darkchess.Hidden    // face-down, with a deal
	s.Deal[darkchess.C1] = darkchess.RedKing    //
	s.Deal[darkchess.D1] = darkchess.BlackPawn  // a deal on a square that is not face-down
	s.Pool[darkchess.Hidden] = 1                // not a piece
	s.Pool[darkchess.RedGuard] = -1             // negative
	s.Board[darkchess.A2] = darkchess.BlackKing //
	s.Board[darkchess.B2] = darkchess.BlackKing // two black kings
	s.Quiet = -3                                //
	_, err := darkchess.NewPosition(s)
	var se *darkchess.SetupError
	if !errors.Is(err, darkchess.ErrInvalidSetup) || !errors.As(err, &se) {
		t.Fatalf("NewPosition error = %v", err)
	}
	for _, part := range []string{
		"setup Turn: 5", "setup Board: not a piece on a1", "a piece under d1, which is not face-down",
		"nothing under face-down b1", "count 1 at index 8", "negative count -1 for G",
		"2 black kings (k)", "setup Quiet: -3",
	} {
		if !strings.Contains(err.Error(), part) {
			t.Errorf("error %q does not mention %q", err, part)
		}
	}
	for _, tt := range []struct{ pos, msg string }{
		{"XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXXX - 12222251222224 0", "counts sum to 31 but 32 squares are face-down"},
		{"K---/XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXXX - 12222251222225 0", "2 red kings (K)"},
		{"K---/----/----/----/----/----/----/---- - 00000000000000 0", "colours are unassigned but pieces are revealed on a8"},
		{"----/----/----/----/----/----/----/---- - 00000000000000 0", "nothing is face-down"},
		{"X---/----/----/----/----/----/----/---- r 10000000000000 0 k---/..../..../..../..../..../..../....", "does not count the pieces of the deal"},
		{"PPPP/PP--/----/----/----/----/----/---- r 00000000000000 0", "6 red pawns"},
	} {
		_, err := darkchess.ParsePosition(tt.pos)
		if !errors.Is(err, darkchess.ErrInvalidSetup) || !strings.Contains(err.Error(), tt.msg) {
			t.Errorf("%s: error %v, want %q", tt.pos, err, tt.msg)
		}
	}
	// A Deal with an all-zero Pool counts the pool from the deal.
	var d darkchess.Setup
	d.Board[darkchess.A1], d.Deal[darkchess.A1] = darkchess.Hidden, darkchess.BlackRook
	d.Turn = darkchess.NoColor
	p, err := darkchess.NewPosition(d)
	if err != nil || p.Pool(darkchess.BlackRook) != 1 || p.String() != "----/----/----/----/----/----/----/X--- - 00000000001000 0 ..../..../..../..../..../..../..../r..." {
		t.Errorf("pool from deal: %s, %v", p, err)
	}
}

// TestPositionRoundTrips: String, Setup and MarshalText give back the same
// position, with and without the deal, and the invariants hold.
func TestPositionRoundTrips(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := anyPosition().Draw(t, "p")
		q, err := darkchess.ParsePosition(p.String())
		if err != nil || q != p {
			t.Fatalf("ParsePosition(%q) = %s, %v", p, q, err)
		}
		r, err := darkchess.NewPosition(p.Setup())
		if err != nil || r != p {
			t.Fatalf("NewPosition(Setup) = %s, %v", r, err)
		}
		text, _ := p.MarshalText()
		var u darkchess.Position
		if err := u.UnmarshalText(text); err != nil || u != p {
			t.Fatalf("UnmarshalText(%q) = %s, %v", text, u, err)
		}
		checkInvariants(t, p)
		_ = p.Diagram()
	})
}

// checkInvariants: every square shows exactly one thing, the boards agree with
// At, the counts stay within a side's pieces, and the view hides the deal.
func checkInvariants(t fataler, p darkchess.Position) {
	t.Helper()
	var seen darkchess.Bitboard
	for pc := range darkchess.Piece(16) {
		b := p.Pieces(pc)
		if seen&b != 0 {
			t.Fatalf("%s: %s overlaps other pieces on %v", p, pc, seen&b)
		}
		seen |= b
		for sq := range b.Squares() {
			if p.At(sq) != pc {
				t.Fatalf("%s: Pieces(%s) has %s, which shows %s", p, pc, sq, p.At(sq))
			}
		}
	}
	if seen != 0xFFFFFFFF {
		t.Fatalf("%s: squares showing nothing: %v", p, ^seen)
	}
	if p.Revealed(darkchess.Red)&p.Revealed(darkchess.Black) != 0 || p.Empty()&p.FaceDown() != 0 {
		t.Fatalf("%s: overlapping boards", p)
	}
	pool := 0
	for c := range darkchess.Color(2) {
		n := p.Revealed(c).Count()
		for k := darkchess.King; k <= darkchess.Pawn; k++ {
			pc := darkchess.MakePiece(c, k)
			if p.Pieces(pc).Count()+p.Pool(pc) > k.InitialCount() {
				t.Fatalf("%s: too many %s", p, pc)
			}
			n += p.Pool(pc)
			pool += p.Pool(pc)
		}
		if n != p.Count(c) || n > 16 {
			t.Fatalf("%s: %s counts %d, Count %d", p, c, n, p.Count(c))
		}
	}
	if pool != p.FaceDown().Count() {
		t.Fatalf("%s: pool %d for %d face-down squares", p, pool, p.FaceDown().Count())
	}
	v := p.View(darkchess.Red)
	vp := v.Position()
	for sq := range darkchess.Square(32) {
		if vp.DealAt(sq) != darkchess.NoPiece || vp.At(sq) != p.At(sq) {
			t.Fatalf("%s: the view shows %s / deal %s on %s", p, vp.At(sq), vp.DealAt(sq), sq)
		}
	}
	if strings.Count(v.String(), " ") != 3 || (p.FaceDown() != 0 && vp.Dealt()) {
		t.Fatalf("%s: the view %s exposes a deal", p, v)
	}
	dealt := 0
	for sq := range p.FaceDown().Squares() {
		if p.DealAt(sq).Valid() {
			dealt++
		}
	}
	if (dealt == p.FaceDown().Count()) != p.Dealt() || (dealt != 0 && !p.Dealt()) {
		t.Fatalf("%s: Dealt %v with %d of %d face-down pieces known", p, p.Dealt(), dealt, p.FaceDown().Count())
	}
}

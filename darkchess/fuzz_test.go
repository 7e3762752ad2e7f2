package darkchess_test

import (
	"testing"

	"github.com/botarena/botarena/darkchess"
)

// fuzzPositions seeds FuzzParsePosition: the vectors' positions, dealt and
// not, and some near misses.
var fuzzPositions = []string{
	openingText,
	openingText + " PmRc/MRpP/MrnK/Pknp/rCpC/GgPP/GpNN/gmpc",
	"PgXP/-g-G/-X-M/XNXm/N-Xc/--PK/X---/Pm-P b 01020101000001 0 ..R./..../.k../R.p./..G./..../C.../....",
	"rXXX/XXMp/CXCP/XnXX/KGXc/R-Pn/M-X-/GPXc b 00011021221002 0",
	"P-P-/-K-g/-R--/-mp-/r-c-/c-PP/gk--/---- b 00000000000000 0",
	"-k--/----/-X--/----/----/-Crg/-p--/---- r 00000000010000 17",
	"  pgxP/.g.G/.x.M/xNxm/N.xc/..PK/x.../Pm.P\tB\n01020101000001 0\r\n-",
	"XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXXX - 12222251222225 65536",
	"////////",
	"",
}

func FuzzParsePosition(f *testing.F) {
	for _, s := range fuzzPositions {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := darkchess.ParsePosition(s)
		if err != nil {
			if p != (darkchess.Position{}) {
				t.Fatalf("ParsePosition(%q) failed but returned %s", s, p)
			}
			return
		}
		q, err := darkchess.ParsePosition(p.String())
		if err != nil || q != p {
			t.Fatalf("ParsePosition(%q) = %s; reparse %s, %v", s, p, q, err)
		}
		checkInvariants(t, p)
		_ = p.Diagram()
		var buf [darkchess.MaxMoves]darkchess.Move
		for _, m := range p.AppendLegalMoves(buf[:0]) {
			ply := darkchess.Ply{Move: m}
			if m.IsFlip() && !p.Dealt() {
				for pc := range darkchess.Piece(16) {
					if p.Pool(pc) > 0 {
						ply.Piece = pc
					}
				}
			}
			if _, err := p.PlayPly(ply); err != nil {
				t.Fatalf("%s: legal %s refused: %v", p, ply, err)
			}
		}
		_ = darkchess.Perft(p, 2)
		_ = darkchess.PerftChance(p.View(darkchess.Red), 1)
	})
}

func FuzzParseSquare(f *testing.F) {
	for _, s := range []string{"a1", "D8", "b7", "", "e1", "a9", "a", "a10"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sq, err := darkchess.ParseSquare(s)
		if err != nil {
			if sq != darkchess.NoSquare {
				t.Fatalf("ParseSquare(%q) failed but returned %v", s, sq)
			}
			return
		}
		if !sq.Valid() {
			t.Fatalf("ParseSquare(%q) = invalid %d", s, sq)
		}
		if again, err := darkchess.ParseSquare(sq.String()); err != nil || again != sq {
			t.Fatalf("ParseSquare(%q) = %v; reparse %v, %v", s, sq, again, err)
		}
	})
}

func FuzzParseMove(f *testing.F) {
	for _, s := range []string{"b5-b6", "b5 b6", "b5b6", "b7", "B7-b7", "", "b5-", "b5--b6", "e1-a1", "b7(c)"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		m, err := darkchess.ParseMove(s)
		if err != nil {
			if m != darkchess.NoMove {
				t.Fatalf("ParseMove(%q) failed but returned %v", s, m)
			}
			return
		}
		if !m.Valid() {
			t.Fatalf("ParseMove(%q) = invalid %v", s, m)
		}
		if again, err := darkchess.ParseMove(m.String()); err != nil || again != m {
			t.Fatalf("ParseMove(%q) = %v; reparse %v, %v", s, m, again, err)
		}
	})
}

func FuzzParsePly(f *testing.F) {
	for _, s := range []string{"b7(c)", "A1(K)", "b5-b6", "b7", "b7(X)", "b7(", "b7()", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := darkchess.ParsePly(s)
		if err != nil {
			if p.Move != darkchess.NoMove || p.Piece != darkchess.NoPiece {
				t.Fatalf("ParsePly(%q) failed but returned %v", s, p)
			}
			return
		}
		if again, err := darkchess.ParsePly(p.String()); err != nil || again != p {
			t.Fatalf("ParsePly(%q) = %v; reparse %v, %v", s, p, again, err)
		}
	})
}

func FuzzParsePiece(f *testing.F) {
	for _, s := range []string{"K", "p", "X", "-", "", "?", "KK"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		pc, err := darkchess.ParsePiece(s)
		if err != nil {
			return
		}
		if again, err := darkchess.ParsePiece(pc.String()); err != nil || again != pc || pc.String() != s {
			t.Fatalf("ParsePiece(%q) = %v; reparse %v, %v", s, pc, again, err)
		}
	})
}

package othello_test

import (
	"testing"

	"github.com/botarena/botarena/othello"
)

func FuzzParsePosition(f *testing.F) {
	for _, r := range []othello.Rules{othello.Standard, othello.TUS, othello.Board6x6} {
		f.Add(r.Start.String())
	}
	f.Add("...........................ox......xo........................... *")
	f.Add("X")
	f.Add("--------\n--------\r\n")
	f.Fuzz(func(t *testing.T, s string) {
		p, err := othello.ParsePosition(s)
		if err != nil {
			return
		}
		q, err := othello.ParsePosition(p.String())
		if err != nil || q != p {
			t.Fatalf("ParsePosition(%q) = %s; reparse %s, %v", s, p, q, err)
		}
		p.AppendLegalMoves(nil)
		_ = p.Diagram()
	})
}

func FuzzParseMove(f *testing.F) {
	for _, s := range []string{"e3", "H8", "pass", "pa", "PS", "", "i9", "e"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		m, err := othello.ParseMove(s)
		if err != nil {
			if m != othello.NoMove {
				t.Fatalf("ParseMove(%q) failed but returned %v", s, m)
			}
			return
		}
		if again, err := othello.ParseMove(m.String()); err != nil || again != m {
			t.Fatalf("ParseMove(%q) = %v; reparse %v, %v", s, m, again, err)
		}
	})
}

func FuzzParseSquare(f *testing.F) {
	for _, s := range []string{"a1", "H8", "e3", "", "i1", "a9", "a", "a10"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sq, err := othello.ParseSquare(s)
		if err != nil {
			if sq != othello.NoSquare {
				t.Fatalf("ParseSquare(%q) failed but returned %v", s, sq)
			}
			return
		}
		if !sq.Valid() {
			t.Fatalf("ParseSquare(%q) = %d, not a square", s, sq)
		}
		if again, err := othello.ParseSquare(sq.String()); err != nil || again != sq {
			t.Fatalf("ParseSquare(%q) = %v; reparse %v, %v", s, sq, again, err)
		}
		if othello.SquareAt(sq.X(), sq.Y()) != sq {
			t.Fatalf("SquareAt(%d, %d) != %v", sq.X(), sq.Y(), sq)
		}
	})
}

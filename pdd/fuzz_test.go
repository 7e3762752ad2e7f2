package pdd_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/botarena/botarena/pdd"
)

func FuzzParseSquare(f *testing.F) {
	for _, s := range []string{"0,0", "1,3", "9,9", "", "10,1", "a,b", "1,1 "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sq, err := pdd.ParseSquare(s)
		if err != nil {
			var se *pdd.SyntaxError
			if sq != pdd.NoSquare || !errors.As(err, &se) || se.Offset < 0 || se.Offset > len(s) {
				t.Fatalf("ParseSquare(%q) = %v, %v", s, sq, err)
			}
			return
		}
		if !sq.Valid() || sq.String() != s {
			t.Fatalf("ParseSquare(%q) = %v, prints %q", s, sq, sq.String())
		}
		if again, err := pdd.ParseSquare(sq.String()); err != nil || again != sq {
			t.Fatalf("ParseSquare(%q) = %v; reparse %v, %v", s, sq, again, err)
		}
	})
}

func FuzzParseMove(f *testing.F) {
	for _, s := range []string{"Chess_2,0_2,2", "Bridge_4,4_6,5", "Change", "Change_2,0_2,2", "Pass", "chess_1,1_1,1",
		"Bridge_0,0_3,0", "", "Chess_", "PASS_1,1_2,2", "Bridge_9,9_9,9"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		m, err := pdd.ParseMove(s)
		if err != nil {
			var se *pdd.SyntaxError
			if m != pdd.NoMove || !errors.As(err, &se) || se.Offset < 0 || se.Offset > len(s) {
				t.Fatalf("ParseMove(%q) = %v, %v", s, m, err)
			}
			return
		}
		if !m.Valid() {
			t.Fatalf("ParseMove(%q) = invalid %#x", s, uint16(m))
		}
		if again, err := pdd.ParseMove(m.String()); err != nil || again != m {
			t.Fatalf("ParseMove(%q) = %v; reparse %v, %v", s, m, again, err)
		}
		// Legality is Play's business: it must answer, not panic.
		p := pdd.Course.Start().PlayUnchecked(pdd.Chess(22, 55))
		if _, err := p.Play(m); (err == nil) != p.IsLegal(m) {
			t.Fatalf("%s: Play and IsLegal disagree: %v", m, err)
		}
	})
}

func FuzzParsePosition(f *testing.F) {
	board := strings.Repeat(".", 100)
	f.Add(board + " W course")
	f.Add(board + " b OFFICIAL final first=B")
	f.Add(strings.Repeat("WB........", 10) + " W course")
	f.Add("..W...W.../" + board[10:] + " B course change")
	f.Add(strings.Repeat("..W.......", 9) + "..W......." + " W course bridges=2,0-2,2")
	f.Add(strings.Repeat(".", 44) + "W.W" + strings.Repeat(".", 53) + " W official bridges=4,4-6,4;")
	f.Fuzz(func(t *testing.T, s string) {
		p, err := pdd.ParsePosition(s)
		if err != nil {
			var se *pdd.SyntaxError
			if errors.As(err, &se) && (se.Offset < 0 || se.Offset > len(s)) {
				t.Fatalf("ParsePosition(%q): offset %d", s, se.Offset)
			}
			return
		}
		q, err := pdd.ParsePosition(p.String())
		if err != nil || q != p {
			t.Fatalf("ParsePosition(%q) = %s; reparse %s, %v", s, p, q, err)
		}
		if r, err := pdd.NewPosition(p.Setup()); err != nil || r != p {
			t.Fatalf("NewPosition(Setup(%s)) = %v", p, err)
		}
		moves := p.AppendLegalMoves(nil)
		if len(moves) != p.NumLegalMoves() || len(moves) > pdd.MaxMoves {
			t.Fatalf("%s: %d moves, count %d", p, len(moves), p.NumLegalMoves())
		}
		for _, m := range moves {
			if _, err := p.Play(m); err != nil {
				t.Fatalf("%s: legal %s refused: %v", p, m, err)
			}
		}
		_ = p.Diagram()
		_ = p.Outcome()
	})
}

func FuzzParseRules(f *testing.F) {
	for _, s := range []string{"course", "official", "Course", "", "x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, err := pdd.ParseRules(s)
		if err != nil {
			return
		}
		if again, err := pdd.ParseRules(r.String()); err != nil || again != r || !r.Valid() {
			t.Fatalf("ParseRules(%q) = %v; reparse %v, %v", s, r, again, err)
		}
	})
}

// FuzzPlayUnchecked plays any sequence of 16-bit values, legal or not, with
// PlayUnchecked and then asks the position everything: a meaningless
// position is allowed, a panic is not.
func FuzzPlayUnchecked(f *testing.F) {
	f.Add([]byte{0x00, 0x16, 0x80, 0x00, 0x40, 0x16, 0xC0, 0x00}, false)
	f.Add([]byte{0x0b, 0x37, 0x0b, 0x37, 0x45, 0x99}, true)
	f.Fuzz(func(t *testing.T, data []byte, official bool) {
		p := pdd.Course.Start()
		if official {
			p = pdd.Official.Start()
		}
		for i := 0; i+1 < len(data); i += 2 {
			m := pdd.Move(uint16(data[i])<<8 | uint16(data[i+1]))
			_, _ = p.Play(m)
			p = p.PlayUnchecked(m)
		}
		moves := p.AppendLegalMoves(nil)
		_ = p.NumLegalMoves()
		_, _ = p.IsOver(), p.MustPass()
		_ = p.Outcome()
		_ = p.String()
		_ = p.Diagram()
		_, _ = pdd.NewPosition(p.Setup())
		for _, m := range moves {
			_, _ = p.Play(m)
		}
		for s := range pdd.Symmetries() {
			_ = s.Position(p).NumLegalMoves()
		}
		_ = pdd.Perft(p, 1)
	})
}

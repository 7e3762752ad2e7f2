package geister_test

import (
	"testing"

	"github.com/botarena/botarena/geister"
)

// The board strings of the transcripts, for the seed corpora.
var seedBoards = []string{
	"14B24R34R44R15R25B35B45B41u31u21u11u40u30u20u10u",
	"14B24R34R44R15R25B35B45B41u31u21u11u40u30u20u00u",
	"14B24R34R44R99r15R25B35B45B44u31u21u11u40u30u20u10u"[:48],
	"00B24B34B44B15R25R35R45R42u31u21u11u40u30u20u10u",
	"88b24B34B44B15R25R35R45R42b31r21r11r40r30b20b10b",
	"13B24R34R44R15R25B35B45B88b31b21b11b40r30r20r10r",
	"14B24B34B44B15R25R35R45R41b31r21r11r40r30b20b10b",
	"14B99r99r45R05R99b50B99b99b99r21u01u99r99b99b30u",
	"99r99r99r30R99b99b99b11B05b99r99r99r02r99b99b99b",
	"14B24R34R44R15R25B35B45B41U31U21U11U40U30U20U10U",
}

func FuzzParseMove(f *testing.F) {
	for _, s := range []string{"A,NORTH", "MOV:H,EAST", "mov:a,s", "B,N", "A,UP", "MOV:,N", "Abc,N", "", "A,\u017f"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		m, err := geister.ParseMove(s)
		if err != nil {
			if m != geister.NoMove {
				t.Fatalf("ParseMove(%q) failed but returned %v", s, m)
			}
			return
		}
		if again, err := geister.ParseMove(m.String()); err != nil || again != m || !m.Valid() {
			t.Fatalf("ParseMove(%q) = %v; reparse %v, %v", s, m, again, err)
		}
	})
}

func FuzzParseSquare(f *testing.F) {
	for _, s := range []string{"14", "00", "55", "1-4", "99", "88", "66", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sq, err := geister.ParseSquare(s)
		if err != nil {
			if sq != geister.NoSquare {
				t.Fatalf("ParseSquare(%q) failed but returned %v", s, sq)
			}
			return
		}
		if again, err := geister.ParseSquare(sq.String()); err != nil || again != sq || !sq.Valid() {
			t.Fatalf("ParseSquare(%q) = %v; reparse %v, %v", s, sq, again, err)
		}
	})
}

func FuzzParseReds(f *testing.F) {
	for _, s := range []string{"BCDE", "SET:EFGH", "set:abcd", "ABC", "AABC", "ZZZZ", "ABCDE"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, err := geister.ParseReds(s)
		if err != nil {
			return
		}
		if again, err := geister.ParseReds(r.String()); err != nil || again != r || !r.Valid() || r.Index() < 0 {
			t.Fatalf("ParseReds(%q) = %v; reparse %v, %v", s, r, again, err)
		}
	})
}

func FuzzParseReason(f *testing.F) {
	for _, s := range []string{"ChessEscape", "notimeout", "GAMEPLYLIMITDRAW", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, err := geister.ParseReason(s)
		if err != nil {
			return
		}
		if again, err := geister.ParseReason(r.String()); err != nil || again != r {
			t.Fatalf("ParseReason(%q) = %v; reparse %v, %v", s, r, again, err)
		}
	})
}

// FuzzParsePosition: parse, print, parse agree; nothing panics, and the
// position works.
func FuzzParsePosition(f *testing.F) {
	for _, b := range seedBoards {
		f.Add(b + " 0")
		f.Add(b)
	}
	f.Add("14R24R34R44R15B25B35B45B41b31b21b11b40r30r20r10r 4294967295")
	f.Fuzz(func(t *testing.T, s string) {
		p, err := geister.ParsePosition(s)
		if err != nil {
			return
		}
		q, err := geister.ParsePosition(p.String())
		if err != nil || q != p {
			t.Fatalf("ParsePosition(%q) = %s; reparse %s, %v", s, p, q, err)
		}
		exercise(t, p)
	})
}

// FuzzParseBoard: a global board read as either receiver writes back the
// same, and reads back into the same position.
func FuzzParseBoard(f *testing.F) {
	for _, b := range seedBoards {
		f.Add(b, uint8(0), 0)
		f.Add(b, uint8(1), 11)
	}
	f.Fuzz(func(t *testing.T, s string, receiver uint8, ply int) {
		c := geister.Color(receiver)
		p, err := geister.ParseBoard(s, c, ply)
		if err != nil {
			return
		}
		q, err := geister.ParseBoard(p.Board(c), c, ply)
		if err != nil || q != p || p.Ply() != ply {
			t.Fatalf("ParseBoard(%q, %s) = %s; reparse %s, %v", s, c, p, q, err)
		}
		exercise(t, p)
	})
}

// FuzzParseView: a MOV? board read as either viewer writes back the same,
// reads back into the same view, and determinizes into a position showing it.
func FuzzParseView(f *testing.F) {
	for _, b := range seedBoards {
		f.Add(b, uint8(0), 0)
		f.Add(b, uint8(1), 1)
	}
	f.Fuzz(func(t *testing.T, s string, viewer uint8, ply int) {
		c := geister.Color(viewer)
		v, err := geister.ParseView(s, c, ply)
		if err != nil {
			return
		}
		w, err := geister.ParseView(v.String(), c, ply)
		if err != nil || w != v || v.Viewer() != c {
			t.Fatalf("ParseView(%q, %s) = %s; reparse %s, %v", s, c, v, w, err)
		}
		v.AppendLegalMoves(nil)
		v.Result()
		p := geister.Determinize(v, nil)
		if p.View(c) != v {
			t.Fatalf("Determinize(%s) = %s", v, p)
		}
		exercise(t, p)
	})
}

// exercise runs the position's methods: none may panic, and every legal move
// plays.
func exercise(t *testing.T, p geister.Position) {
	t.Helper()
	if q, err := geister.NewPosition(p.Setup()); err != nil || q != p {
		t.Fatalf("NewPosition(%s.Setup()) = %s, %v", p, q, err)
	}
	for m := range geister.Move(34) {
		if p.IsLegal(m) {
			if _, err := p.Play(m); err != nil {
				t.Fatalf("%s: legal %s refused: %v", p, m, err)
			}
		} else if _, err := p.Play(m); err == nil {
			t.Fatalf("%s: illegal %s accepted", p, m)
		}
	}
	_ = p.Diagram()
	_ = geister.Perft(p, 2)
	_ = p.View(geister.First).String() + p.View(geister.Second).String()
}

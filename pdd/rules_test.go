package pdd_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/botarena/botarena/pdd"
)

// TestGroupRules checks the worked examples G1-G19 (White to
// move, Chess), in both profiles, and against the reference.
func TestGroupRules(t *testing.T) {
	for _, tt := range []struct {
		name, white, black, move string
		want                     error
	}{
		{"G1", "1,1 2,1 1,2", "", "Chess_2,2_7,7", nil},
		{"G2", "1,1 2,1 1,2 3,3", "", "Chess_2,2_7,7", pdd.ErrIslandTouches},
		{"G3", "1,1 2,1 1,2", "", "Chess_2,2_3,3", pdd.ErrIslandTouches},
		{"G4", "1,1 2,1 1,2 2,2", "", "Chess_3,3_7,7", pdd.ErrIslandTouches},
		{"G5", "1,1 2,1 1,2 2,2", "", "Chess_3,0_7,7", pdd.ErrIslandTouches},
		{"G6", "1,1 2,1 1,2 2,2", "", "Chess_4,4_7,7", nil},
		{"G7", "1,1 2,1 1,2 2,2", "", "Chess_3,1_7,7", pdd.ErrGroupTooLarge},
		{"G8", "1,1 2,1 3,1 4,1", "", "Chess_5,1_7,7", pdd.ErrGroupTooLarge},
		{"G9", "1,1 2,1 4,1 5,1", "", "Chess_3,1_7,7", pdd.ErrGroupTooLarge},
		{"G10", "1,1 2,1", "", "Chess_3,1_4,1", nil},
		{"G11", "1,1 2,1 5,2", "", "Chess_3,1_4,1", pdd.ErrIslandTouches},
		{"G12", "1,1 2,1 3,2", "", "Chess_4,2_7,7", nil},
		{"G13", "1,1 2,1 3,1 4,1", "", "Chess_5,1_6,2", pdd.ErrGroupTooLarge},
		{"G14", "1,1 2,1 1,2", "3,2 2,3 3,3", "Chess_2,2_7,7", nil},
		{"G15", "1,1 1,2", "", "Chess_2,1_2,2", nil},
		{"G16", "1,1 2,1 1,2", "5,5", "Chess_5,5_7,7", pdd.ErrOccupied},
		{"G17", "1,1 2,1 1,2 0,3", "", "Chess_2,2_7,7", pdd.ErrIslandTouches},
		{"G18", "1,1 2,1 3,1", "", "Chess_0,1_4,2", pdd.ErrIslandTouches},
		{"G19", "1,1 2,1 1,2 2,2 4,3 5,3 4,4", "", "Chess_3,3_7,7", pdd.ErrIslandTouches},
	} {
		for _, rules := range []pdd.Rules{pdd.Course, pdd.Official} {
			p := build(t, rules, pdd.White, tt.white, tt.black, "")
			m := mv(t, tt.move)
			_, err := p.Play(m)
			if !errors.Is(err, tt.want) || (err == nil) != (tt.want == nil) {
				t.Errorf("%s %s: Play(%s) = %v, want %v", tt.name, rules, m, err, tt.want)
			}
			if tt.want != nil && !errors.Is(err, pdd.ErrIllegalMove) {
				t.Errorf("%s: %v does not match ErrIllegalMove", tt.name, err)
			}
			var me *pdd.MoveError
			if err != nil && (!errors.As(err, &me) || me.Move != m || me.Turn != pdd.White || me.Reason == "") {
				t.Errorf("%s: error %#v", tt.name, err)
			}
			compareMove(t, p, m)
			compareWithNaive(t, p)
		}
	}
	// G18: each tile alone is legal.
	p := build(t, pdd.Course, pdd.White, "1,1 2,1 3,1", "", "")
	for _, m := range []string{"Chess_0,1_7,7", "Chess_4,2_7,7", "Chess_2,2_7,7"} {
		if _, err := p.Play(mv(t, m)); err != nil && m != "Chess_2,2_7,7" {
			t.Errorf("G18 single %s: %v", m, err)
		}
	}
	// Under a bridge, for either colour.
	for _, c := range []pdd.Color{pdd.White, pdd.Black} {
		p := build(t, pdd.Course, c, "2,0 2,2", "", "2,0-2,2")
		if _, err := p.Play(mv(t, "Chess_2,1_7,7")); !errors.Is(err, pdd.ErrUnderBridge) {
			t.Errorf("%s Chess_2,1_7,7 under a bridge: %v", c, err)
		}
	}
}

// TestGroupMessages checks the detail of a few errors.
func TestGroupMessages(t *testing.T) {
	p := build(t, pdd.Course, pdd.White, "1,1 2,1 1,2", "", "")
	_, err := p.Play(mv(t, "Chess_2,2_3,3"))
	want := "pdd: island touches another own tile: island 1,1 2,1 1,2 2,2 touches 3,3 (white Chess_2,2_3,3)"
	if err == nil || err.Error() != want {
		t.Errorf("G3 error\n got %v\nwant %s", err, want)
	}
	p = build(t, pdd.Course, pdd.White, "1,1 2,1 1,2 2,2", "", "")
	_, err = p.Play(mv(t, "Chess_3,0_7,7"))
	if err == nil || !strings.Contains(err.Error(), "island 1,1 2,1 1,2 2,2 touches 3,0") {
		t.Errorf("G5 error %v", err)
	}
}

// TestBridgeRules checks the worked examples B1-B19 in both
// profiles, the squares under each legal bridge, and the reference.
func TestBridgeRules(t *testing.T) {
	for _, tt := range []struct {
		name                   string
		white, black, existing string
		mover                  pdd.Color
		move                   string
		course, official       error
		under                  string
	}{
		{"B1", "2,0 2,2", "", "", pdd.White, "Bridge_2,0_2,2", nil, nil, "2,1"},
		{"B2", "4,4 6,6", "", "", pdd.White, "Bridge_4,4_6,6", nil, nil, "5,5"},
		{"B3", "4,4 6,5", "", "", pdd.White, "Bridge_4,4_6,5", nil, nil, "5,4 5,5"},
		{"B4", "4,4 5,6", "", "", pdd.White, "Bridge_4,4_5,6", nil, nil, "4,5 5,5"},
		{"B5", "2,0 2,2", "2,1", "", pdd.White, "Bridge_2,0_2,2", pdd.ErrBridgeBlocked, pdd.ErrBridgeBlocked, ""},
		{"B6", "4,4 6,5", "5,5", "", pdd.White, "Bridge_4,4_6,5", pdd.ErrBridgeBlocked, pdd.ErrBridgeBlocked, ""},
		{"B7", "0,0 3,0", "", "", pdd.White, "Bridge_0,0_3,0", pdd.ErrBridgeShape, pdd.ErrBridgeShape, ""},
		{"B8", "0,0 1,1", "", "", pdd.White, "Bridge_0,0_1,1", pdd.ErrBridgeShape, pdd.ErrBridgeShape, ""},
		{"B9", "2,0", "2,2", "", pdd.White, "Bridge_2,0_2,2", pdd.ErrBridgeNotOwn, pdd.ErrBridgeNotOwn, ""},
		{"B10", "2,0 2,2 4,0", "", "2,0-2,2", pdd.White, "Bridge_2,0_4,0", pdd.ErrBridgeEnds, pdd.ErrBridgeEnds, ""},
		{"B11", "4,4 6,5", "4,5 6,6", "4,4-6,5", pdd.Black, "Bridge_4,5_6,6", pdd.ErrBridgeBlocked, nil, "5,5 5,6"},
		{"B12", "4,4 6,5", "4,3 6,4", "4,4-6,5", pdd.Black, "Bridge_4,3_6,4", pdd.ErrBridgeBlocked, nil, "5,3 5,4"},
		{"B13", "4,4 6,6", "3,6 5,4", "4,4-6,6", pdd.Black, "Bridge_3,6_5,4", pdd.ErrBridgeCrossing, pdd.ErrBridgeCrossing, ""},
		{"B14", "4,4 6,6", "4,6 6,4", "4,4-6,6", pdd.Black, "Bridge_4,6_6,4", pdd.ErrBridgeBlocked, pdd.ErrBridgeCrossing, ""},
		{"B15", "4,5 6,5", "5,4 5,6", "4,5-6,5", pdd.Black, "Bridge_5,4_5,6", pdd.ErrBridgeBlocked, pdd.ErrBridgeCrossing, ""},
		{"B16", "3,3 5,5", "3,5 5,4", "3,3-5,5", pdd.Black, "Bridge_3,5_5,4", pdd.ErrBridgeBlocked, pdd.ErrBridgeCrossing, ""},
		{"B17", "4,4 6,5", "4,5 6,4", "4,4-6,5", pdd.Black, "Bridge_4,5_6,4", pdd.ErrBridgeBlocked, pdd.ErrBridgeCrossing, ""},
		{"B18", "4,4 6,6", "3,4 5,6", "4,4-6,6", pdd.Black, "Bridge_3,4_5,6", nil, nil, "4,5"},
		{"B19", "4,4 4,5 6,5 6,6", "", "4,4-6,5", pdd.White, "Bridge_4,5_6,6", pdd.ErrBridgeBlocked, nil, "5,5 5,6"},
	} {
		for _, rules := range []pdd.Rules{pdd.Course, pdd.Official} {
			want := tt.course
			if rules == pdd.Official {
				want = tt.official
			}
			p := build(t, rules, tt.mover, tt.white, tt.black, tt.existing)
			m := mv(t, tt.move)
			next, err := p.Play(m)
			if !errors.Is(err, want) || (err == nil) != (want == nil) {
				t.Errorf("%s %s: Play(%s) = %v, want %v", tt.name, rules, m, err, want)
			}
			if err == nil {
				a, b := m.Squares()
				if got := squareNames(pdd.BridgeUnder(a, b)); got != tt.under {
					t.Errorf("%s %s: under %q, want %q", tt.name, rules, got, tt.under)
				}
				if next.Under() != p.Under().Union(pdd.BridgeUnder(b, a)) {
					t.Errorf("%s %s: under after the bridge %q", tt.name, rules, squareNames(next.Under()))
				}
				if k := next.NumBridges(); next.BridgeAt(k) != [2]pdd.Square{mustSq(m, 0), mustSq(m, 1)} {
					t.Errorf("%s: bridge %d is %v", tt.name, k, next.BridgeAt(k))
				}
			}
			compareMove(t, p, m)
			compareWithNaive(t, p)
		}
	}
	// B11 in Official: the shared square lies under both bridges.
	p := build(t, pdd.Official, pdd.Black, "4,4 6,5", "4,5 6,6", "4,4-6,5 4,5-6,6")
	if got := squareNames(p.Under()); got != "5,4 5,5 5,6" {
		t.Errorf("B11 official under %q", got)
	}
	if _, err := pdd.NewPosition(setupOf(t, pdd.Course, pdd.Black, "4,4 6,5", "4,5 6,6", "4,4-6,5 4,5-6,6")); !errors.Is(err, pdd.ErrBridgeBlocked) {
		t.Errorf("B11 course setup: %v", err)
	}
}

func mustSq(m pdd.Move, i int) pdd.Square {
	a, b := m.Squares()
	if i == 0 {
		return a
	}
	return b
}

func squareNames(b pdd.Bitboard) string {
	var out []string
	for s := range b.Squares() {
		out = append(out, s.String())
	}
	return strings.Join(out, " ")
}

func setupOf(t tb, rules pdd.Rules, turn pdd.Color, white, black, bridges string) pdd.Setup {
	t.Helper()
	s := pdd.Setup{Rules: rules, Turn: turn}
	for _, f := range strings.Fields(white) {
		s.Cells[sq(t, f)] = pdd.White
	}
	for _, f := range strings.Fields(black) {
		s.Cells[sq(t, f)] = pdd.Black
	}
	for _, f := range strings.Fields(bridges) {
		a, b, _ := strings.Cut(f, "-")
		s.Bridges = append(s.Bridges, [2]pdd.Square{sq(t, a), sq(t, b)})
	}
	return s
}

// TestBridgeShapes: from a lone tile in the middle, the 16 bridge targets
// (and no other square) give a bridge, with the squares under.
func TestBridgeShapes(t *testing.T) {
	a := pdd.SquareAt(4, 4)
	n := 0
	for b := range pdd.Square(pdd.NumSquares) {
		if b == a {
			continue
		}
		p := build(t, pdd.Course, pdd.White, a.String()+" "+b.String(), "", "")
		dx, dy := b.X()-a.X(), b.Y()-a.Y()
		ax, ay := max(dx, -dx), max(dy, -dy)
		var want []pdd.Square
		switch {
		case ax == 2 && ay == 1:
			want = []pdd.Square{pdd.SquareAt(a.X()+dx/2, a.Y()), pdd.SquareAt(a.X()+dx/2, b.Y())}
		case ax == 1 && ay == 2:
			want = []pdd.Square{pdd.SquareAt(a.X(), a.Y()+dy/2), pdd.SquareAt(b.X(), a.Y()+dy/2)}
		case ax == 2 && ay == 0, ax == 0 && ay == 2, ax == 2 && ay == 2:
			want = []pdd.Square{pdd.SquareAt(a.X()+dx/2, a.Y()+dy/2)}
		}
		next, err := p.Play(pdd.Bridge(a, b))
		if (err == nil) != (want != nil) {
			t.Errorf("bridge %s-%s: %v", a, b, err)
			continue
		}
		if err != nil {
			if !errors.Is(err, pdd.ErrBridgeShape) {
				t.Errorf("bridge %s-%s: %v, want ErrBridgeShape", a, b, err)
			}
			continue
		}
		n++
		var w pdd.Bitboard
		for _, s := range want {
			w = w.With(s)
		}
		if next.Under() != w {
			t.Errorf("bridge %s-%s under %s, want %s", a, b, squareNames(next.Under()), squareNames(w))
		}
	}
	if n != 16 {
		t.Errorf("%d bridge targets, want 16", n)
	}
	// A bridge onto itself is a shape error too.
	p := build(t, pdd.Course, pdd.White, "4,4", "", "")
	if _, err := p.Play(pdd.Bridge(a, a)); !errors.Is(err, pdd.ErrBridgeShape) {
		t.Errorf("bridge onto itself: %v", err)
	}
}

// TestScoring checks S1-S4 and F1.
func TestScoring(t *testing.T) {
	s1 := setupFromFiles(t, pdd.Course, pdd.White, s1Chess, s1Bridge)
	s2 := s1
	for _, f := range []string{"6,8", "7,8", "6,9", "7,9"} {
		s2.Cells[sq(t, f)] = pdd.Black
	}
	s3 := setupFromFiles(t, pdd.Course, pdd.White, s3Chess, s3Bridge)
	s4 := s3
	s4.Bridges = s3.Bridges[:2]
	f1 := setupFromFiles(t, pdd.Course, pdd.Black, f1Chess, f1Bridge)
	for _, tt := range []struct {
		name         string
		setup        pdd.Setup
		white, black pdd.Score
		result       string
	}{
		{"S1", s1, pdd.Score{7, 4, 3}, pdd.Score{6, 4, 2}, "white wins 7/4/3 to 6/4/2 (score)"},
		{"S2", s2, pdd.Score{7, 4, 3}, pdd.Score{7, 5, 2}, "black wins 7/4/3 to 7/5/2 (islands)"},
		{"S3", s3, pdd.Score{3, 2, 1}, pdd.Score{3, 2, 2}, "black wins 3/2/1 to 3/2/2 (bridges)"},
		{"S4", s4, pdd.Score{3, 2, 1}, pdd.Score{3, 2, 1}, "draw 3/2/1 to 3/2/1 (draw)"},
		{"F1", f1, pdd.Score{0, 0, 2}, pdd.Score{0, 0, 1}, "white wins 0/0/2 to 0/0/1 (bridges)"},
	} {
		for _, rules := range []pdd.Rules{pdd.Course, pdd.Official} {
			s := tt.setup
			s.Rules = rules
			p, err := pdd.NewPosition(s)
			if err != nil {
				t.Fatalf("%s: %v", tt.name, err)
			}
			if w, b := p.Score(pdd.White), p.Score(pdd.Black); w != tt.white || b != tt.black {
				t.Errorf("%s %s: scores %v / %v, want %v / %v", tt.name, rules, w, b, tt.white, tt.black)
			}
			if got := p.Outcome().String(); got != tt.result {
				t.Errorf("%s %s: outcome %q, want %q", tt.name, rules, got, tt.result)
			}
			for sym := range pdd.Symmetries() {
				q := sym.Position(p)
				if q.Score(pdd.White) != tt.white || q.Score(pdd.Black) != tt.black {
					t.Errorf("%s %s: scores change under %s", tt.name, rules, sym)
				}
			}
			compareWithNaive(t, p)
		}
	}
	if got := (pdd.Score{7, 4, 3}).String(); got != "7 points, 4 islands, 3 bridges" {
		t.Errorf("Score.String = %q", got)
	}
}

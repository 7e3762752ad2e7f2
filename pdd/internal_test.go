package pdd

import (
	"testing"

	"pgregory.net/rapid"
)

// TestMasks checks the bit layout.
func TestMasks(t *testing.T) {
	var col0, col9 Bitboard
	for y := range 10 {
		col0 = col0.With(SquareAt(0, y))
		col9 = col9.With(SquareAt(9, y))
	}
	for _, tt := range []struct {
		name string
		got  Bitboard
		want Bitboard
	}{
		{"Board", board, Bitboard{0xFFFFFFFFFFFFFFFF, 0x0000000FFFFFFFFF}},
		{"Col0", col0, Bitboard{0x1004010040100401, 0x0000000004010040}},
		{"Col9", col9, Bitboard{0x0802008020080200, 0x0000000802008020}},
		{"NotCol0", board.Without(col0), Bitboard{notCol0Lo, notCol0Hi}},
		{"NotCol9", board.Without(col9), Bitboard{notCol9Lo, notCol9Hi}},
	} {
		if tt.got != tt.want {
			t.Errorf("%s = %#x, want %#x", tt.name, tt.got, tt.want)
		}
	}
	if s := SquareAt(1, 3); s != 31 || !s.Bit().Has(31) || s.Bit() != (Bitboard{1 << 31, 0}) {
		t.Error("square 31")
	}
	if s := SquareAt(9, 9); s.Bit() != (Bitboard{0, 1 << 35}) {
		t.Error("square 99")
	}
}

// TestNeighbourhoods compares the shift-based n4 and n8 with the tables and
// with coordinates, on random sets.
func TestNeighbourhoods(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		b := Bitboard{rapid.Uint64().Draw(t, "lo"), rapid.Uint64().Draw(t, "hi") & boardHi}
		var w4, w8 Bitboard
		for s := range b.Squares() {
			for dy := -1; dy <= 1; dy++ {
				for dx := -1; dx <= 1; dx++ {
					o := SquareAt(s.X()+dx, s.Y()+dy)
					if !o.Valid() || dx == 0 && dy == 0 {
						continue
					}
					w8 = w8.With(o)
					if dx == 0 || dy == 0 {
						w4 = w4.With(o)
					}
				}
			}
		}
		if n4(b) != w4 || neighbours4(b) != w4 {
			t.Fatalf("n4(%#x) = %#x / %#x, want %#x", b, n4(b), neighbours4(b), w4)
		}
		if n8(b) != w8 || neighbours8(b) != w8 {
			t.Fatalf("n8(%#x) = %#x / %#x, want %#x", b, n8(b), neighbours8(b), w8)
		}
	})
}

// TestPlacements checks the placement table.
func TestPlacements(t *testing.T) {
	want := map[int]string{0: "0,0-2,0", 1: "0,0-2,1", 2: "0,0-0,2", 3: "0,0-1,2", 4: "0,0-2,2", 5: "1,0-3,0", 575: "7,9-9,9"}
	for id, s := range want {
		p := bridges.p[id]
		if got := p.a.String() + "-" + p.b.String(); got != s {
			t.Errorf("placement %d = %s, want %s", id, got, s)
		}
	}
	kinds := map[uint8]int{}
	for id, p := range bridges.p {
		kinds[p.kind]++
		if p.a >= p.b || placementOf(p.a, p.b) != id || placementOf(p.b, p.a) != id {
			t.Errorf("placement %d: %v", id, p)
		}
		if id > 0 && (p.a < bridges.p[id-1].a || p.a == bridges.p[id-1].a && p.b <= bridges.p[id-1].b) {
			t.Errorf("placement %d out of order", id)
		}
		n := p.under.Count()
		if p.kind == shapeKnight && n != 2 || p.kind != shapeKnight && n != 1 {
			t.Errorf("placement %d has %d squares under", id, n)
		}
	}
	if kinds[shapeOrthogonal] != 160 || kinds[shapeDiagonal] != 128 || kinds[shapeKnight] != 288 {
		t.Errorf("placements by shape %v, want 160/128/288", kinds)
	}
	n := 0
	for a := range Square(NumSquares) {
		n += int(bridges.nfwd[a])
	}
	if n != NumPlacements {
		t.Errorf("%d forward placements", n)
	}
}

// TestBridgeTablesNaive compares the placement pairs' tables, which the
// package builds looking only at nearby pairs, with every pair looked at.
func TestBridgeTablesNaive(t *testing.T) {
	for i := range NumPlacements {
		p := &bridges.p[i]
		if p.a >= p.b || p.a.Y() > p.b.Y() || (i > 0 && bridges.p[i-1].a > p.a) {
			t.Fatalf("placement %d %v: not in the order of its lower endpoint", i, p)
		}
		for j := range NumPlacements {
			q := &bridges.p[j]
			cross := i != j && segmentsMeet(p.a, p.b, q.a, q.b)
			shared := i != j && !p.under.Intersect(q.under).IsEmpty()
			if bridges.crossing[i].has(j) != cross || bridges.shared[i].has(j) != shared {
				t.Fatalf("placements %v and %v: crossing %v, shared %v in the tables; want %v, %v",
					p, q, bridges.crossing[i].has(j), bridges.shared[i].has(j), cross, shared)
			}
		}
	}
}

// TestCrossings checks the crossing census over the placement
// pairs that can coexist (no shared endpoint, no endpoint under the other).
func TestCrossings(t *testing.T) {
	corner, parallel, orthoKnight := 0, 0, 0
	maxGeo := map[uint8]int{}
	maxCourse := map[uint8]int{}
	for i := range NumPlacements {
		p := &bridges.p[i]
		geo, course := 0, 0
		for j := range NumPlacements {
			q := &bridges.p[j]
			ends := p.a.Bit().With(p.b)
			qends := q.a.Bit().With(q.b)
			if i == j || !ends.Intersect(qends).IsEmpty() || !ends.Intersect(q.under).IsEmpty() || !qends.Intersect(p.under).IsEmpty() {
				continue
			}
			cross, shared := bridges.crossing[i].has(j), bridges.shared[i].has(j)
			if cross {
				geo++
			}
			if cross || shared {
				course++
			}
			if bridges.conflict[Official][i].has(j) != cross || bridges.conflict[Course][i].has(j) != (cross || shared) {
				t.Fatalf("conflict tables differ for %d, %d", i, j)
			}
			if j < i {
				continue
			}
			switch {
			case cross && !shared:
				corner++
				if p.kind != shapeDiagonal || q.kind != shapeDiagonal || n4(p.under) != n4(p.under).Union(q.under) {
					t.Errorf("crossing without a shared square: %v %v", p, q)
				}
			case shared && !cross:
				parallel++
				if p.kind != shapeKnight || q.kind != shapeKnight || p.b-p.a != q.b-q.a {
					t.Errorf("shared square without crossing: %v %v", p, q)
				}
			}
			if (cross || shared) && (p.kind == shapeOrthogonal && q.kind == shapeKnight || p.kind == shapeKnight && q.kind == shapeOrthogonal) {
				orthoKnight++
			}
		}
		maxGeo[p.kind] = max(maxGeo[p.kind], geo)
		maxCourse[p.kind] = max(maxCourse[p.kind], course)
	}
	if corner != 224 || parallel != 256 || orthoKnight != 0 {
		t.Errorf("%d corner crossings, %d parallel knights, %d orthogonal-knight conflicts; want 224, 256, 0", corner, parallel, orthoKnight)
	}
	for kind, want := range map[uint8][2]int{shapeDiagonal: {11, 11}, shapeOrthogonal: {3, 3}, shapeKnight: {3, 5}} {
		if maxGeo[kind] != want[0] || maxCourse[kind] != want[1] {
			t.Errorf("shape %d: most conflicts %d geometric, %d Course; want %v", kind, maxGeo[kind], maxCourse[kind], want)
		}
	}
}

// TestMoveEncoding checks the 16-bit layout.
func TestMoveEncoding(t *testing.T) {
	if Chess(SquareAt(2, 0), SquareAt(2, 2)) != Move(2<<7|22) || Bridge(SquareAt(2, 2), SquareAt(2, 0)) != Move(1<<14|2<<7|22) {
		t.Error("Chess or Bridge encoding")
	}
	if Change != 0x8000 || Pass != 0xC000 || NoMove != 0 {
		t.Error("Change, Pass, NoMove")
	}
	for m := range 1 << 16 {
		mm := Move(m)
		if mm.Valid() != (mm.String() != "none") {
			t.Fatalf("%#x: Valid %v, String %q", m, mm.Valid(), mm.String())
		}
		if mm.Valid() {
			if q, err := ParseMove(mm.String()); err != nil || q != mm {
				t.Fatalf("%#x: %s reparses as %v, %v", m, mm, q, err)
			}
		}
		playAnything(mm)
	}
}

// playAnything plays any 16-bit value on a few positions: a
// meaningless result is allowed, a panic is not.
func playAnything(m Move) {
	p := Course.Start().PlayUnchecked(Chess(0, 22))
	_ = p.PlayUnchecked(m).PlayUnchecked(m).NumLegalMoves()
	_, _ = p.Play(m)
}

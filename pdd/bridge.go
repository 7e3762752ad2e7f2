package pdd

// The 576 bridge placements. A placement is an unordered
// pair of squares A < B at one of the 8 bridge offsets; its id is its rank in
// lexicographic order of (A, B).

// NumPlacements is the number of bridge placements on the board.
const NumPlacements = 576

// maxBridges bounds the bridges of any position: 33 under Course (each
// bridge needs 2 own tiles and a free square, 3b <= 100), 15 under Official.
const maxBridges = 33

type placement struct {
	a, b  Square
	under Bitboard // the squares under the bridge
	kind  uint8    // shapeOrthogonal, shapeDiagonal or shapeKnight
}

const (
	shapeOrthogonal = iota
	shapeDiagonal
	shapeKnight
)

// placementSet is a set of placement ids, bit id%64 of word id/64.
type placementSet [(NumPlacements + 63) / 64]uint64

func (s *placementSet) add(id int)      { s[id>>6] |= 1 << uint(id&63) }
func (s *placementSet) has(id int) bool { return s[id>>6]>>uint(id&63)&1 != 0 }

// meets reports whether s and t share a placement.
func (s *placementSet) meets(t *placementSet) bool {
	var x uint64
	for i := range s {
		x |= s[i] & t[i]
	}
	return x != 0
}

type bridgeTables struct {
	p        [NumPlacements]placement
	id       [NumSquares][NumSquares]int16 // placement id of (a, b), either order; -1 if none
	fwd      [NumSquares][8]int16          // the placements whose lower endpoint is the square, by B
	nfwd     [NumSquares]uint8
	crossing [NumPlacements]placementSet // placements whose segment meets this one's
	shared   [NumPlacements]placementSet // placements that share a square under with this one
	conflict [2][NumPlacements]placementSet
}

// isBridgeOffset reports whether (dx, dy) is one of the 16 directed bridge
// offsets.
func isBridgeOffset(dx, dy int) (kind uint8, ok bool) {
	ax, ay := max(dx, -dx), max(dy, -dy)
	switch {
	case ax == 2 && ay == 0, ax == 0 && ay == 2:
		return shapeOrthogonal, true
	case ax == 2 && ay == 2:
		return shapeDiagonal, true
	case ax == 2 && ay == 1, ax == 1 && ay == 2:
		return shapeKnight, true
	}
	return 0, false
}

// underSquares returns the squares under a bridge from a to b.
func underSquares(a, b Square) Bitboard {
	x1, y1, x2, y2 := a.X(), a.Y(), b.X(), b.Y()
	dx, dy := x2-x1, y2-y1
	switch {
	case max(dx, -dx) == 2 && max(dy, -dy) == 1:
		return SquareAt(x1+dx/2, y1).Bit().Union(SquareAt(x1+dx/2, y2).Bit())
	case max(dx, -dx) == 1 && max(dy, -dy) == 2:
		return SquareAt(x1, y1+dy/2).Bit().Union(SquareAt(x2, y1+dy/2).Bit())
	}
	return SquareAt(x1+dx/2, y1+dy/2).Bit() // orthogonal and diagonal: the middle
}

// orient returns the sign of the turn o -> p -> q.
func orient(ox, oy, px, py, qx, qy int) int {
	v := (px-ox)*(qy-oy) - (py-oy)*(qx-ox)
	switch {
	case v > 0:
		return 1
	case v < 0:
		return -1
	}
	return 0
}

// onSegment reports whether q, collinear with p-r, lies within its box.
func onSegment(px, py, qx, qy, rx, ry int) bool {
	return min(px, rx) <= qx && qx <= max(px, rx) && min(py, ry) <= qy && qy <= max(py, ry)
}

// segmentsMeet reports whether the closed segments between the centres of
// a-b and c-d share a point, with integer orientation tests only.
func segmentsMeet(a, b, c, d Square) bool {
	ax, ay, bx, by := a.X(), a.Y(), b.X(), b.Y()
	cx, cy, dx, dy := c.X(), c.Y(), d.X(), d.Y()
	o1 := orient(ax, ay, bx, by, cx, cy)
	o2 := orient(ax, ay, bx, by, dx, dy)
	o3 := orient(cx, cy, dx, dy, ax, ay)
	o4 := orient(cx, cy, dx, dy, bx, by)
	if o1 != o2 && o3 != o4 {
		return true
	}
	return o1 == 0 && onSegment(ax, ay, cx, cy, bx, by) ||
		o2 == 0 && onSegment(ax, ay, dx, dy, bx, by) ||
		o3 == 0 && onSegment(cx, cy, ax, ay, dx, dy) ||
		o4 == 0 && onSegment(cx, cy, bx, by, dx, dy)
}

// bridges holds the placement tables, built once and never changed.
var bridges = func() *bridgeTables {
	t := new(bridgeTables)
	for a := range t.id {
		for b := range t.id[a] {
			t.id[a][b] = -1
		}
	}
	n := 0
	for a := range Square(NumSquares) {
		for b := a + 1; b < NumSquares; b++ {
			kind, ok := isBridgeOffset(b.X()-a.X(), b.Y()-a.Y())
			if !ok {
				continue
			}
			t.p[n] = placement{a: a, b: b, under: underSquares(a, b), kind: kind}
			t.id[a][b], t.id[b][a] = int16(n), int16(n)
			t.fwd[a][t.nfwd[a]] = int16(n)
			t.nfwd[a]++
			n++
		}
	}
	// Both relations are symmetric: each pair is looked at once. The
	// placements come in the order of their lower endpoint a (a square is
	// x + 10y), so a.Y() is a placement's least row and never decreases
	// along the list: once q's least row is more than 1 past p's greatest,
	// no later q comes near p. This
	// runs at every start of a program that imports the package (a PDD
	// strategy program starts for every move), so it stays small.
	for i := range NumPlacements {
		p := &t.p[i]
		for j := i + 1; j < NumPlacements; j++ {
			q := &t.p[j]
			if q.a.Y() > p.b.Y()+1 {
				break
			}
			if max(p.a.X(), p.b.X())+1 < min(q.a.X(), q.b.X()) || max(q.a.X(), q.b.X())+1 < min(p.a.X(), p.b.X()) {
				continue
			}
			if segmentsMeet(p.a, p.b, q.a, q.b) {
				t.crossing[i].add(j)
				t.crossing[j].add(i)
			}
			if !p.under.Intersect(q.under).IsEmpty() {
				t.shared[i].add(j)
				t.shared[j].add(i)
			}
		}
	}
	for i := range NumPlacements {
		for w := range t.crossing[i] {
			t.conflict[Official][i][w] = t.crossing[i][w]
			t.conflict[Course][i][w] = t.crossing[i][w] | t.shared[i][w]
		}
	}
	return t
}()

// BridgeUnder returns the squares under a bridge between a and b (in either
// order): the middle square of a straight or diagonal bridge, the 2 squares
// a knight's bridge passes over. It is empty if a and b are not at a bridge
// offset.
func BridgeUnder(a, b Square) Bitboard {
	id := placementOf(a, b)
	if id < 0 {
		return Bitboard{}
	}
	return bridges.p[id].under
}

// placementOf returns the placement id of a bridge between a and b, or -1.
func placementOf(a, b Square) int {
	if !a.Valid() || !b.Valid() {
		return -1
	}
	return int(bridges.id[a][b])
}

// builtSet returns the set of placements built in p.
func (p *Position) builtSet() placementSet {
	var s placementSet
	for _, id := range p.bridges[:min(int(p.nb), maxBridges)] {
		s.add(int(id) % NumPlacements)
	}
	return s
}

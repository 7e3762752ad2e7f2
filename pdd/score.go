package pdd

import (
	"fmt"
	"math/bits"
)

// Score is one colour's score. Points sums T(n) = n(n+1)/2 over
// the colour's networks, n being the islands of the network; a network is a
// set of own groups (islands and sandbanks) joined by own bridges. Islands
// counts all own islands, networked or not; Bridges all own bridges.
type Score struct {
	Points, Islands, Bridges int
}

// String returns "7 points, 4 islands, 3 bridges".
func (s Score) String() string {
	return fmt.Sprintf("%d points, %d islands, %d bridges", s.Points, s.Islands, s.Bridges)
}

// Compare returns +1 if s beats t, -1 if t beats s, and 0 for a tie: more
// points win; if tied, more islands; if still tied, more bridges.
func (s Score) Compare(t Score) int {
	for _, d := range [3]int{s.Points - t.Points, s.Islands - t.Islands, s.Bridges - t.Bridges} {
		switch {
		case d > 0:
			return 1
		case d < 0:
			return -1
		}
	}
	return 0
}

// Score returns the score of c in p. It is defined for any position; the
// result of a game counts only once the game is over.
func (p Position) Score(c Color) Score {
	if !c.Valid() {
		return Score{}
	}
	P := p.tiles[c.index()]
	var gid [NumSquares]uint8
	var parent, islands [50]uint8
	ng := 0
	for rest := P; !rest.IsEmpty() && ng < len(parent); ng++ {
		g := fullGroup(P, firstSquare(rest))
		rest = rest.Without(g)
		parent[ng] = uint8(ng)
		if g.Count() == 4 {
			islands[ng] = 1
		}
		for w := range 2 {
			for m := g[w]; m != 0; m &= m - 1 {
				gid[(w<<6|bits.TrailingZeros64(m))%NumSquares] = uint8(ng)
			}
		}
	}
	find := func(i uint8) uint8 {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	var s Score
	for _, id := range p.bridges[:p.nb] {
		pl := &bridges.p[id%NumPlacements]
		if !P.Has(pl.a) || !P.Has(pl.b) {
			continue
		}
		s.Bridges++
		if ra, rb := find(gid[pl.a]), find(gid[pl.b]); ra != rb {
			parent[ra] = rb
			islands[rb] += islands[ra]
		}
	}
	for i := range ng {
		if parent[i] == uint8(i) {
			n := int(islands[i])
			s.Islands += n
			s.Points += n * (n + 1) / 2
		}
	}
	return s
}

package search

import "github.com/botarena/botarena/pdd"

// pddReach returns the points c's side of p could reach: its groups joined
// into networks by its bridges and by the bridges it could still build
// (two of its tiles that carry no bridge, at a bridge offset, the squares
// under them free; crossings are not checked), each network worth
// n(n+1)/2 for its n islands, where a group of 4 counts as an island, and
// a smaller group with a free square next to it as a share of one by its
// size (pddReach3, pddReach2, pddReach1). A group that cannot grow counts
// for no island, but still joins the groups on either side of it. It
// allocates nothing.
func pddReach(p pdd.Position, c pdd.Color) float64 {
	tiles := p.Tiles(c)
	if tiles.IsEmpty() {
		return 0
	}
	free := p.Free()
	var gid [pdd.NumSquares]uint8 // an own tile's group index + 1; 0: none
	var parent [pdd.NumSquares / 2]uint8
	var weight [pdd.NumSquares / 2]float64
	ng := 0
	for rest := tiles; !rest.IsEmpty() && ng < len(parent); ng++ {
		g := tiles.Group(firstSquare(rest))
		rest = rest.Without(g)
		parent[ng] = uint8(ng)
		switch n := g.Count(); {
		case n >= 4:
			weight[ng] = 1
		case g.Neighbors().Intersect(free).IsEmpty():
		case n == 3:
			weight[ng] = pddReach3
		case n == 2:
			weight[ng] = pddReach2
		default:
			weight[ng] = pddReach1
		}
		for s := range g.Squares() {
			gid[s] = uint8(ng + 1)
		}
	}
	find := func(i uint8) uint8 {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	join := func(a, b pdd.Square) {
		if ra, rb := find(gid[a]-1), find(gid[b]-1); ra != rb {
			parent[ra] = rb
			weight[rb] += weight[ra]
		}
	}
	var ends pdd.Bitboard // the tiles that carry a bridge
	for k := 1; k <= p.NumBridges(); k++ {
		e := p.BridgeAt(k)
		ends = ends.With(e[0]).With(e[1])
		if tiles.Has(e[0]) && tiles.Has(e[1]) {
			join(e[0], e[1])
		}
	}
	// The bridge offsets (dx, dy) toward higher squares.
	steps := [8][2]int{{2, 0}, {0, 2}, {2, 2}, {-2, 2}, {2, 1}, {1, 2}, {-2, 1}, {-1, 2}}
	open := tiles.Without(ends)
	for a := range open.Squares() {
		x, y := a.X(), a.Y()
		for _, d := range steps {
			b := pdd.SquareAt(x+d[0], y+d[1])
			if !open.Has(b) || gid[a] == gid[b] {
				continue
			}
			if pdd.BridgeUnder(a, b).Without(free).IsEmpty() {
				join(a, b)
			}
		}
	}
	v := 0.0
	for i := range ng {
		if parent[i] == uint8(i) {
			n := weight[i]
			v += n * (n + 1) / 2
		}
	}
	return v
}

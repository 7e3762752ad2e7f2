package search

import "github.com/botarena/botarena/pdd"

// pddReach returns the points c's side of p could reach: its groups joined
// into networks by its bridges and by the bridges it could still build
// (two of its tiles that carry no bridge, at a bridge offset, the squares
// under them free; crossings are not checked), each network worth
// n(n+1)/2 for its n islands, where a group of 4 counts as an island, and
// a smaller group with a free square next to it as a share of one by its
// size (pddReach3, pddReach2, pddReach1). A group that cannot grow counts
// for no island, but still joins the groups on either side of it.
func pddReach(p pdd.Position, c pdd.Color) float64 {
	_, reach := pddSide(p, c)
	return reach
}

// pddSide returns c's side of p as [PDDBestPlayer] counts it: its
// [PDDValue] (board) and the points it could reach ([pddReach]), from one
// pass over its groups. It allocates nothing.
func pddSide(p pdd.Position, c pdd.Color) (board, reach float64) {
	tiles := p.Tiles(c)
	if tiles.IsEmpty() {
		return 0, 0
	}
	free := p.Free()
	// An own tile's group index + 1; 0: none (or past the 50 groups a
	// side can have at most).
	var gid [pdd.NumSquares]uint8
	var parent, islands [pdd.NumSquares / 2]uint8
	var weight [pdd.NumSquares / 2]float64
	bonus := 0.0 // PDDValue's for the groups that can still grow
	ng := 0
	for rest := tiles; !rest.IsEmpty() && ng < len(parent); ng++ {
		g := tiles.Group(firstSquare(rest))
		rest = rest.Without(g)
		parent[ng] = uint8(ng)
		n := g.Count()
		if n == 4 {
			islands[ng], weight[ng] = 1, 1
		} else if !g.Neighbors().Intersect(free).IsEmpty() {
			switch n {
			case 3:
				weight[ng], bonus = pddReach3, bonus+14
			case 2:
				weight[ng], bonus = pddReach2, bonus+5
			default:
				weight[ng], bonus = pddReach1, bonus+1
			}
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
			islands[rb] += islands[ra]
		}
	}
	var ends pdd.Bitboard // the tiles that carry a bridge
	nb := 0               // c's bridges
	for k := 1; k <= p.NumBridges(); k++ {
		e := p.BridgeAt(k) // 1-based
		ends = ends.With(e[0]).With(e[1])
		if tiles.Has(e[0]) && tiles.Has(e[1]) {
			nb++
			if gid[e[0]] != 0 && gid[e[1]] != 0 {
				join(e[0], e[1])
			}
		}
	}
	points, nIslands := 0, 0
	for i := range ng {
		if parent[i] == uint8(i) {
			n := int(islands[i])
			nIslands += n
			points += n * (n + 1) / 2
		}
	}
	board = 100*float64(points) + 30*float64(nIslands) + 2*float64(nb) + bonus
	// The bridge offsets (dx, dy) toward higher squares.
	steps := [8][2]int{{2, 0}, {0, 2}, {2, 2}, {-2, 2}, {2, 1}, {1, 2}, {-2, 1}, {-1, 2}}
	open := tiles.Without(ends)
	for a := range open.Squares() {
		x, y := a.X(), a.Y()
		for _, d := range steps {
			b := pdd.SquareAt(x+d[0], y+d[1])
			if !open.Has(b) || gid[a] == gid[b] || gid[a] == 0 || gid[b] == 0 {
				continue
			}
			if pdd.BridgeUnder(a, b).Without(free).IsEmpty() {
				join(a, b)
			}
		}
	}
	for i := range ng {
		if parent[i] == uint8(i) {
			n := weight[i]
			reach += n * (n + 1) / 2
		}
	}
	return board, reach
}

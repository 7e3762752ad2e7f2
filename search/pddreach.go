package search

import (
	"math"
	"os"
	"strconv"

	"github.com/botarena/botarena/pdd"
)

// pddBridgeSteps are the 8 bridge offsets (dx, dy) toward higher squares.
var pddBridgeSteps = [8][2]int{{2, 0}, {0, 2}, {2, 2}, {-2, 2}, {2, 1}, {1, 2}, {-2, 1}, {-1, 2}}

// pddReachParams weigh the groups of [pddReach].
type pddReachParams struct {
	w3, w2, w1 float64
}

// pddReach returns the points c's side of p could reach: its groups, each
// counted as an island (1) or as a share of one by its size when it still
// has room to grow (none when it has not), joined into networks by its
// bridges and by the bridges it could still build (two own tiles that carry
// no bridge at a bridge offset, the squares under them free; crossings are
// not checked), each network of n islands worth n(n+1)/2.
func pddReach(p pdd.Position, c pdd.Color, w *pddReachParams) float64 {
	tiles := p.Tiles(c)
	if tiles.IsEmpty() {
		return 0
	}
	free := p.Free()
	var gid [pdd.NumSquares]uint8 // group index + 1; 0: not an own tile
	var parent [pdd.NumSquares / 2]uint8
	var weight [pdd.NumSquares / 2]float64
	ng := 0
	for rest := tiles; !rest.IsEmpty() && ng < len(parent); ng++ {
		g := tiles.Group(firstSquare(rest))
		rest = rest.Without(g)
		parent[ng] = uint8(ng)
		n := g.Count()
		switch {
		case n >= 4:
			weight[ng] = 1
		case g.Neighbors().Intersect(free).IsEmpty():
		case n == 3:
			weight[ng] = w.w3
		case n == 2:
			weight[ng] = w.w2
		default:
			weight[ng] = w.w1
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
	union := func(a, b pdd.Square) {
		ra, rb := find(gid[a]-1), find(gid[b]-1)
		if ra != rb {
			parent[ra] = rb
			weight[rb] += weight[ra]
		}
	}
	var ends pdd.Bitboard
	for k := 1; k <= p.NumBridges(); k++ {
		e := p.BridgeAt(k) // 1-based
		ends = ends.With(e[0]).With(e[1])
		if gid[e[0]] != 0 && gid[e[1]] != 0 {
			union(e[0], e[1])
		}
	}
	for a := range tiles.Without(ends).Squares() {
		x, y := a.X(), a.Y()
		for _, d := range pddBridgeSteps {
			bx, by := x+d[0], y+d[1]
			if bx < 0 || bx > 9 || by > 9 {
				continue
			}
			b := pdd.SquareAt(bx, by)
			if gid[b] == 0 || ends.Has(b) || gid[a] == gid[b] {
				continue
			}
			if under := pdd.BridgeUnder(a, b); under.Without(free).IsEmpty() {
				union(a, b)
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

// pddParams: experiment knobs (temporary).
type pddParams struct {
	beam  int
	reach float64
	gain  float64
	rp    pddReachParams
}

func pddParamsFromEnv() *pddParams {
	f := func(name string, def float64) float64 {
		if v, err := strconv.ParseFloat(os.Getenv(name), 64); err == nil {
			return v
		}
		return def
	}
	return &pddParams{
		beam:  int(f("PDDX_BEAM", pddBeam)),
		reach: f("PDDX_REACH", 0),
		gain:  f("PDDX_GAIN", pddEvalGain),
		rp:    pddReachParams{w3: f("PDDX_W3", 0.6), w2: f("PDDX_W2", 0.35), w1: f("PDDX_W1", 0.15)},
	}
}

func (prm *pddParams) value(q pdd.Position, c pdd.Color) float64 {
	v := PDDValue(q, c)
	if prm.reach != 0 {
		v += prm.reach * pddReach(q, c, &prm.rp)
	}
	return v
}

func (prm *pddParams) eval(q pdd.Position, player int) float64 {
	me := pdd.White
	if player == 1 {
		me = pdd.Black
	}
	return math.Tanh(prm.gain * (prm.value(q, me) - prm.value(q, me.Opponent())) / 100)
}

package pdd

import "math/bits"

// MaxMoves bounds the number of legal moves of any position: the 4,950 pairs
// of the empty board. A [Move] array of this size never overflows in
// [Position.AppendLegalMoves].
const MaxMoves = 4950

// squareTables holds per-square neighbourhoods, built once.
type squareTables struct {
	n4   [NumSquares]Bitboard // orthogonal neighbours
	n8   [NumSquares]Bitboard // king neighbours
	win4 [NumSquares]Bitboard // squares at Chebyshev distance 1..4
	nb4  [NumSquares][4]Square
	nnb4 [NumSquares]uint8
	up   [NumSquares]Bitboard // the squares above (greater than) the square
}

var sq = func() *squareTables {
	t := new(squareTables)
	for s := range Square(NumSquares) {
		for y := range 10 {
			for x := range 10 {
				dx, dy := x-s.X(), y-s.Y()
				d := max(dx, -dx, dy, -dy)
				o := SquareAt(x, y)
				switch {
				case d == 0:
				case d == 1 && (dx == 0 || dy == 0):
					t.n4[s] = t.n4[s].With(o)
					t.nb4[s][t.nnb4[s]] = o
					t.nnb4[s]++
					fallthrough
				case d == 1:
					t.n8[s] = t.n8[s].With(o)
					fallthrough
				case d <= 4:
					t.win4[s] = t.win4[s].With(o)
				}
				if o > s {
					t.up[s] = t.up[s].With(o)
				}
			}
		}
	}
	return t
}()

// neighbours8 returns the king neighbourhood of the squares of g (at most a
// handful), by table.
func neighbours8(g Bitboard) Bitboard {
	var r Bitboard
	for w := range 2 {
		for m := g[w]; m != 0; m &= m - 1 {
			s := w<<6 | bits.TrailingZeros64(m)
			r = r.Union(sq.n8[s%NumSquares])
		}
	}
	return r
}

// neighbours4 is neighbours8 for the orthogonal neighbourhood.
func neighbours4(g Bitboard) Bitboard {
	var r Bitboard
	for w := range 2 {
		for m := g[w]; m != 0; m &= m - 1 {
			s := w<<6 | bits.TrailingZeros64(m)
			r = r.Union(sq.n4[s%NumSquares])
		}
	}
	return r
}

// group returns the orthogonally connected group of tiles of P that holds s
// (s itself added to P), stopping once it exceeds 5 tiles.
func group(P Bitboard, s Square) Bitboard {
	g := s.Bit()
	P = P.Union(g)
	for {
		next := g.Union(n4(g).Intersect(P))
		if next == g || next.Count() > 5 {
			return next
		}
		g = next
	}
}

// fullGroup returns the whole orthogonally connected group of P holding s.
func fullGroup(P Bitboard, s Square) Bitboard {
	g := s.Bit()
	for {
		next := g.Union(n4(g).Intersect(P))
		if next == g {
			return g
		}
		g = next
	}
}

// scan modes of chessScan.
const (
	scanAppend = iota
	scanCount
	scanExists
)

// chessScan enumerates the legal 2-tile placements of the side with tiles P
// on the free squares free. In scanAppend mode it appends them to
// dst in canonical order; in scanCount mode it counts them; in scanExists
// mode it stops at the first. It returns dst and the count.
//
// The method: a square s is legal alone iff its new group G(s) (s with the
// own groups next to it) has at most 4 tiles, is not an island touching
// another own tile, and s touches no existing island. A pair a < b of such
// squares is then illegal only when b joins a's group (b next to G(a)) into
// one that breaks I1 or I2, or when either new group is an island next to
// the other square.
func chessScan(P, free Bitboard, mode int, dst []Move) ([]Move, int) {
	// Label P's groups in one raster scan: a tile joins the group of its
	// left and upper neighbours, merging them if they differ.
	var gid [NumSquares]uint8
	var gmask [NumSquares]Bitboard
	ng := uint8(0)
	for w := range 2 {
		for m := P[w]; m != 0; m &= m - 1 {
			t := Square(w<<6|bits.TrailingZeros64(m)) % NumSquares
			left := t%10 != 0 && P.Has(t-1)
			up := t >= 10 && P.Has(t-10)
			var id uint8
			switch {
			case left && up && gid[t-1] != gid[t-10]:
				id = gid[t-1]
				old := gid[t-10]
				for u := range gmask[old].Squares() {
					gid[u] = id
				}
				gmask[id] = gmask[id].Union(gmask[old])
				gmask[old] = Bitboard{}
			case left:
				id = gid[t-1]
			case up:
				id = gid[t-10]
			default:
				id = ng
				ng++
			}
			gid[t] = id
			gmask[id] = gmask[id].With(t)
		}
	}
	var islands Bitboard
	for _, g := range gmask[:ng] {
		if g.Count() == 4 {
			islands = islands.Union(g)
		}
	}

	// Singles.
	var gs [NumSquares]Bitboard // G(s), for s in adj
	var gn [NumSquares]uint8    // |G(s)|, for s in adj
	adj := n4(P).Intersect(free)
	l1 := free.Without(adj).Without(n8(islands))
	var i4 Bitboard // singles that complete an island
	for w := range 2 {
		for m := adj[w]; m != 0; m &= m - 1 {
			s := Square(w<<6 | bits.TrailingZeros64(m))
			if s >= NumSquares {
				break
			}
			g := s.Bit()
			for _, t := range sq.nb4[s][:sq.nnb4[s]] {
				if P.Has(t) {
					g = g.Union(gmask[gid[t]])
				}
			}
			n := g.Count()
			if n > 4 || !sq.n8[s].Intersect(islands).Without(g).IsEmpty() {
				continue
			}
			if n == 4 {
				if !neighbours8(g).Intersect(P).Without(g).IsEmpty() {
					continue
				}
				i4 = i4.With(s)
			}
			gs[s], gn[s] = g, uint8(n)
			l1 = l1.With(s)
		}
	}

	// Pairs.
	count := 0
	for w := range 2 {
		for m := l1[w]; m != 0; m &= m - 1 {
			a := Square(w<<6 | bits.TrailingZeros64(m))
			cand := l1.Intersect(sq.up[a%NumSquares])
			if cand.IsEmpty() {
				continue
			}
			if adj.Has(a) {
				ga, na := gs[a], gn[a]
				if na == 4 {
					cand = cand.Without(neighbours8(ga))
				} else {
					merge := neighbours4(ga).Intersect(cand)
					for w2 := range 2 {
						for mm := merge[w2]; mm != 0; mm &= mm - 1 {
							b := Square(w2<<6 | bits.TrailingZeros64(mm))
							if !adj.Has(b) {
								if na+1 <= 3 {
									continue
								}
							} else if na+gn[b] <= 3 {
								continue
							}
							u := ga.Union(b.Bit())
							if adj.Has(b) {
								u = u.Union(gs[b])
							}
							if n := u.Count(); n > 4 || n == 4 && !neighbours8(u).Intersect(P).Without(u).IsEmpty() {
								cand = cand.Without(b.Bit())
							}
						}
					}
					cand = cand.Without(touchedBy(a, i4.Intersect(cand).Without(merge), &gs))
				}
			} else {
				// a alone: it may only complete an island with b next to it,
				// or touch b's island.
				merge := sq.n4[a].Intersect(cand).Intersect(adj)
				for w2 := range 2 {
					for mm := merge[w2]; mm != 0; mm &= mm - 1 {
						b := Square(w2<<6 | bits.TrailingZeros64(mm))
						if gn[b] < 3 {
							continue
						}
						u := gs[b].With(a)
						if n := u.Count(); n > 4 || n == 4 && !neighbours8(u).Intersect(P).Without(u).IsEmpty() {
							cand = cand.Without(b.Bit())
						}
					}
				}
				cand = cand.Without(touchedBy(a, i4.Intersect(cand).Without(sq.n4[a]), &gs))
			}
			switch mode {
			case scanAppend:
				dst = appendPairs(dst, a, cand)
			case scanCount:
				count += cand.Count()
			default:
				if !cand.IsEmpty() {
					return dst, 1
				}
			}
		}
	}
	return dst, count
}

// touchedBy returns the squares b of cand (island completers, not joining a)
// whose new island lies next to a.
func touchedBy(a Square, cand Bitboard, gs *[NumSquares]Bitboard) Bitboard {
	cand = cand.Intersect(sq.win4[a%NumSquares])
	var out Bitboard
	for w := range 2 {
		for m := cand[w]; m != 0; m &= m - 1 {
			b := Square(w<<6|bits.TrailingZeros64(m)) % NumSquares
			if !sq.n8[a%NumSquares].Intersect(gs[b]).IsEmpty() {
				out = out.With(b)
			}
		}
	}
	return out
}

// appendPairs appends Chess(a, b) for every b of set, all above a.
func appendPairs(dst []Move, a Square, set Bitboard) []Move {
	hi := Move(a) << 7
	for m := set[0]; m != 0; m &= m - 1 {
		dst = append(dst, hi|Move(bits.TrailingZeros64(m)))
	}
	for m := set[1]; m != 0; m &= m - 1 {
		dst = append(dst, hi|Move(64+bits.TrailingZeros64(m)))
	}
	return dst
}

// firstSquare returns the lowest square of a non-empty b.
func firstSquare(b Bitboard) Square {
	if b[0] != 0 {
		return Square(bits.TrailingZeros64(b[0]))
	}
	return Square(64 + bits.TrailingZeros64(b[1]))
}

// bridgeScan enumerates the legal bridges of the side with tiles P, in
// placement-id order, in the modes of chessScan.
func (p *Position) bridgeScan(P Bitboard, mode int, dst []Move) ([]Move, int) {
	if p.rules == Official && int(p.nb) >= Official.BridgeSupply() || p.nb >= maxBridges {
		return dst, 0
	}
	avail := P.Without(p.ends)
	blocked := p.tiles[0].Union(p.tiles[1])
	if p.rules != Official {
		blocked = blocked.Union(p.under)
	}
	var built placementSet
	haveBuilt := p.nb == 0
	count := 0
	for w := range 2 {
		for m := avail[w]; m != 0; m &= m - 1 {
			a := (w<<6 | bits.TrailingZeros64(m)) % NumSquares
			for _, id := range bridges.fwd[a][:bridges.nfwd[a]] {
				pl := &bridges.p[id]
				if !avail.Has(pl.b) || !pl.under.Intersect(blocked).IsEmpty() {
					continue
				}
				if !haveBuilt {
					built, haveBuilt = p.builtSet(), true
				}
				if bridges.conflict[p.rules&1][id].meets(&built) {
					continue
				}
				switch mode {
				case scanAppend:
					dst = append(dst, kindBridge|Move(pl.a)<<7|Move(pl.b))
				case scanExists:
					return dst, 1
				}
				count++
			}
		}
	}
	return dst, count
}

// Package pddtest provides rapid generators of Ponte del Diavolo positions,
// games and candidate moves, for property tests of code built on package pdd
// (in the manner of net/http/httptest).
//
//	rapid.Check(t, func(t *rapid.T) {
//		p := pddtest.Position().Draw(t, "p")
//		// ... a property of p
//	})
package pddtest

import (
	"github.com/botarena/botarena/pdd"
	"pgregory.net/rapid"
)

// Game generates games played from the empty board under rules by uniformly
// chosen legal moves, stopping after a drawn number of plies (up to 70) or at
// the end.
func Game(rules pdd.Rules) *rapid.Generator[*pdd.Game] {
	return rapid.Custom(func(t *rapid.T) *pdd.Game {
		return play(t, rules, false)
	})
}

// CompactGame generates games that favour what uniform play seldom shows:
// bridges (played whenever one is legal, most of the time) and tiles next to
// own tiles (islands, crowded groups, narrow gaps, bridges over them),
// stopping after a drawn number of plies (up to 70) or at the end.
func CompactGame(rules pdd.Rules) *rapid.Generator[*pdd.Game] {
	return rapid.Custom(func(t *rapid.T) *pdd.Game {
		return play(t, rules, true)
	})
}

func play(t *rapid.T, rules pdd.Rules, compact bool) *pdd.Game {
	g := pdd.NewGame(rules)
	plies := rapid.IntRange(0, 70).Draw(t, "plies")
	buf := make([]pdd.Move, 0, pdd.MaxMoves)
	var near []pdd.Move
	for range plies {
		p := g.Position()
		moves := p.AppendLegalMoves(buf[:0])
		if len(moves) == 0 {
			break
		}
		choice := moves
		if compact {
			near = near[:0]
			var bridges []pdd.Move
			own := p.Tiles(p.Turn())
			for _, m := range moves {
				a, b := m.Squares()
				switch m.Action() {
				case pdd.BridgeAction:
					bridges = append(bridges, m)
				case pdd.ChessAction:
					if adjacent(a, b) || touches(own, a) || touches(own, b) {
						near = append(near, m)
					}
				}
			}
			switch bias := rapid.IntRange(0, 9).Draw(t, "bias"); {
			case len(bridges) > 0 && bias < 6:
				choice = bridges
			case len(near) > 0 && bias < 9:
				choice = near
			}
		}
		m := rapid.SampledFrom(choice).Draw(t, "move")
		if err := g.Play(m); err != nil {
			t.Fatalf("pddtest: legal move %s refused in %s: %v", m, p, err)
		}
	}
	return g
}

// adjacent reports whether a and b are a king's step apart.
func adjacent(a, b pdd.Square) bool {
	return max(a.X()-b.X(), b.X()-a.X()) <= 1 && max(a.Y()-b.Y(), b.Y()-a.Y()) <= 1
}

// touches reports whether s is a king's step from a square of set.
func touches(set pdd.Bitboard, s pdd.Square) bool {
	for dy := -1; dy <= 1; dy++ {
		for dx := -1; dx <= 1; dx++ {
			if set.Has(pdd.SquareAt(s.X()+dx, s.Y()+dy)) {
				return true
			}
		}
	}
	return false
}

// Position generates positions reachable by legal play under either profile,
// from uniform and from compact games: what a real game can show.
func Position() *rapid.Generator[pdd.Position] {
	return rapid.Custom(func(t *rapid.T) pdd.Position {
		rules := rapid.SampledFrom([]pdd.Rules{pdd.Course, pdd.Official}).Draw(t, "rules")
		gen := rapid.SampledFrom([]*rapid.Generator[*pdd.Game]{Game(rules), CompactGame(rules)}).Draw(t, "kind")
		return gen.Draw(t, "game").Position()
	})
}

// Square generates any of the 100 squares.
func Square() *rapid.Generator[pdd.Square] {
	return rapid.Custom(func(t *rapid.T) pdd.Square {
		return pdd.Square(rapid.IntRange(0, pdd.NumSquares-1).Draw(t, "square"))
	})
}

// Move generates any move, legal or not in whatever position: Chess on any
// two squares, Bridge between any two squares (mostly at a bridge offset),
// Change and Pass.
func Move() *rapid.Generator[pdd.Move] {
	return rapid.Custom(func(t *rapid.T) pdd.Move {
		switch rapid.IntRange(0, 9).Draw(t, "action") {
		case 0:
			return pdd.Change
		case 1:
			return pdd.Pass
		case 2, 3, 4, 5:
			a, b := Square().Draw(t, "a"), Square().Draw(t, "b")
			if a == b {
				b = (a + 1) % pdd.NumSquares
			}
			return pdd.Chess(a, b)
		}
		a := Square().Draw(t, "a")
		if rapid.Bool().Draw(t, "any") {
			return pdd.Bridge(a, Square().Draw(t, "b"))
		}
		dx := rapid.SampledFrom([]int{-2, -1, 0, 1, 2}).Draw(t, "dx")
		dy := rapid.SampledFrom([]int{-2, -1, 0, 1, 2}).Draw(t, "dy")
		b := pdd.SquareAt(a.X()+dx, a.Y()+dy)
		if !b.Valid() {
			b = a
		}
		return pdd.Bridge(a, b)
	})
}

// Candidate generates moves a program might send in p: mostly near the
// interesting squares (own tiles, the opponent's, squares under bridges, the
// free squares next to own tiles), legal or not, and sometimes any [Move].
func Candidate(p pdd.Position) *rapid.Generator[pdd.Move] {
	return rapid.Custom(func(t *rapid.T) pdd.Move {
		var pool []pdd.Square
		for _, set := range []pdd.Bitboard{p.Tiles(pdd.White), p.Tiles(pdd.Black), p.Under(), p.Free()} {
			for s := range set.Squares() {
				pool = append(pool, s)
			}
		}
		if len(pool) < 2 || rapid.IntRange(0, 4).Draw(t, "anywhere") == 0 {
			return Move().Draw(t, "move")
		}
		a := rapid.SampledFrom(pool).Draw(t, "a")
		var b pdd.Square
		if rapid.Bool().Draw(t, "near") {
			dx := rapid.IntRange(-4, 4).Draw(t, "dx")
			dy := rapid.IntRange(-4, 4).Draw(t, "dy")
			b = pdd.SquareAt(a.X()+dx, a.Y()+dy)
		} else {
			b = rapid.SampledFrom(pool).Draw(t, "b")
		}
		if !b.Valid() || b == a {
			b = (a + 1) % pdd.NumSquares
		}
		if rapid.Bool().Draw(t, "bridge") {
			return pdd.Bridge(a, b)
		}
		return pdd.Chess(a, b)
	})
}

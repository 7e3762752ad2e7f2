// Package geistertest provides rapid generators of Geister red sets,
// positions, views and games, for property tests of code built on package
// geister (in the manner of net/http/httptest).
//
//	rapid.Check(t, func(t *rapid.T) {
//		v := geistertest.View().Draw(t, "v")
//		// ... a property of what a bot sees
//	})
package geistertest

import (
	"github.com/botarena/botarena/geister"
	"pgregory.net/rapid"
)

// Reds generates one of the 70 valid red sets.
func Reds() *rapid.Generator[geister.Reds] {
	return rapid.Custom(func(t *rapid.T) geister.Reds {
		return geister.RedsAt(rapid.IntRange(0, geister.NumReds-1).Draw(t, "reds"))
	})
}

// Start generates start positions with both red sets drawn by [Reds].
func Start() *rapid.Generator[geister.Position] {
	return rapid.Custom(func(t *rapid.T) geister.Position {
		p, err := geister.Start(Reds().Draw(t, "first"), Reds().Draw(t, "second"))
		if err != nil {
			t.Fatalf("geistertest: %v", err)
		}
		return p
	})
}

// Game generates games played under rules from a [Start] position by
// uniformly chosen legal moves, stopping after a drawn number of plies (up to
// 250) or at the end. Some moves are sent in the Java server's North spelling
// of the escape when one is legal.
func Game(rules geister.Rules) *rapid.Generator[*geister.Game] {
	return rapid.Custom(func(t *rapid.T) *geister.Game {
		g := geister.NewGame(rules, Start().Draw(t, "start"))
		plies := rapid.IntRange(0, 250).Draw(t, "plies")
		var buf [32]geister.Move
		for range plies {
			if g.IsOver() {
				break
			}
			moves := g.Position().AppendLegalMoves(buf[:0])
			m := rapid.SampledFrom(moves).Draw(t, "move")
			if err := g.Play(m); err != nil {
				t.Fatalf("geistertest: legal move %s refused: %v", m, err)
			}
		}
		return g
	})
}

// Position generates positions reachable by legal play from a start:
// what a real game can show, finished games included.
func Position() *rapid.Generator[geister.Position] {
	return rapid.Custom(func(t *rapid.T) geister.Position {
		return Game(geister.Rules{Name: "unlimited"}).Draw(t, "game").Position()
	})
}

// ArbitraryPosition generates valid positions with ghosts scattered at
// random, any of them captured, perhaps one escaped, at any ply: most of them
// unreachable in a real game, they reach the corner cases legal play seldom
// shows (ghosts on exits, crowded edges, decided boards).
func ArbitraryPosition() *rapid.Generator[geister.Position] {
	return rapid.Custom(func(t *rapid.T) geister.Position {
		var squares []geister.Square
		for s := range geister.Square(geister.NumSquares) {
			squares = append(squares, s)
		}
		squares = rapid.Permutation(squares).Draw(t, "squares")
		s := geister.Setup{
			Reds: [2]geister.Reds{Reds().Draw(t, "first"), Reds().Draw(t, "second")},
			Ply:  rapid.IntRange(0, 400).Draw(t, "ply"),
		}
		escaper := rapid.IntRange(-30, 15).Draw(t, "escaper") // mostly none
		for c := range geister.Color(2) {
			for g := geister.A; g <= geister.H; g++ {
				s.Ghosts[c][g] = squares[8*int(c)+int(g)]
				if rapid.IntRange(0, 2).Draw(t, "captured") == 0 {
					s.Ghosts[c][g] = geister.Captured
				}
				if escaper == 8*int(c)+int(g) && !s.Reds[c].Has(g) {
					s.Ghosts[c][g] = geister.Escaped
				}
			}
		}
		p, err := geister.NewPosition(s)
		if err != nil {
			t.Fatalf("geistertest: %v", err)
		}
		return p
	})
}

// AnyPosition generates a [Position] or an [ArbitraryPosition].
func AnyPosition() *rapid.Generator[geister.Position] {
	return rapid.OneOf(Position(), ArbitraryPosition())
}

// View generates what either player sees of an [AnyPosition].
func View() *rapid.Generator[geister.View] {
	return rapid.Custom(func(t *rapid.T) geister.View {
		p := AnyPosition().Draw(t, "position")
		return p.View(geister.Color(rapid.IntRange(0, 1).Draw(t, "viewer")))
	})
}

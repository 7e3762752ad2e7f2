// Package othellotest provides rapid generators of Othello positions and
// games, for property tests of code built on package othello (in the manner
// of net/http/httptest).
//
//	rapid.Check(t, func(t *rapid.T) {
//		p := othellotest.Position().Draw(t, "p")
//		// ... a property of p
//	})
package othellotest

import (
	"github.com/botarena/botarena/othello"
	"pgregory.net/rapid"
)

// Game generates games played from rules' start by uniformly chosen legal
// moves, stopping after a drawn number of plies (up to 70) or at the end.
func Game(rules othello.Rules) *rapid.Generator[*othello.Game] {
	return rapid.Custom(func(t *rapid.T) *othello.Game {
		g := othello.NewGame(rules)
		plies := rapid.IntRange(0, 70).Draw(t, "plies")
		var buf [64]othello.Move
		for range plies {
			moves := g.Position().AppendLegalMoves(buf[:0])
			if len(moves) == 0 {
				break
			}
			m := rapid.SampledFrom(moves).Draw(t, "move")
			if err := g.Play(m); err != nil {
				t.Fatalf("othellotest: legal move %s refused: %v", m, err)
			}
		}
		return g
	})
}

// Position generates positions reachable from the standard start, the TUS
// start or the 6x6 start by legal play: what a real game can show.
func Position() *rapid.Generator[othello.Position] {
	return rapid.Custom(func(t *rapid.T) othello.Position {
		rules := rapid.SampledFrom([]othello.Rules{othello.Standard, othello.TUS, othello.Board6x6}).Draw(t, "rules")
		return Game(rules).Draw(t, "game").Position()
	})
}

// ArbitraryPosition generates valid 8x8 positions with discs scattered at
// random, most of them unreachable in a real game: the corner cases legal
// play seldom shows (full rows, lone discs, positions with passes).
func ArbitraryPosition() *rapid.Generator[othello.Position] {
	return rapid.Custom(func(t *rapid.T) othello.Position {
		occupied := rapid.Uint64().Draw(t, "occupied") & rapid.Uint64().Draw(t, "density")
		black := occupied & rapid.Uint64().Draw(t, "colours")
		turn := othello.Color(rapid.IntRange(0, 1).Draw(t, "turn"))
		p, err := othello.NewPosition(othello.Setup{
			Black: othello.Bitboard(black),
			White: othello.Bitboard(occupied &^ black),
			Turn:  turn,
		})
		if err != nil {
			t.Fatalf("othellotest: %v", err)
		}
		return p
	})
}

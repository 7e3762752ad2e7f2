// Package darkchesstest provides rapid generators of dark chess deals,
// positions, views and games, for property tests of code built on package
// darkchess (in the manner of net/http/httptest).
//
//	rapid.Check(t, func(t *rapid.T) {
//		p := darkchesstest.Position().Draw(t, "p")
//		// ... a property of p
//	})
package darkchesstest

import (
	"github.com/botarena/botarena/darkchess"
	"pgregory.net/rapid"
)

// pieces is the 32 pieces of a game, in the order K G M R N C P k g m r n c p.
func pieces() []darkchess.Piece {
	var out []darkchess.Piece
	for c := range darkchess.Color(2) {
		for k := darkchess.King; k <= darkchess.Pawn; k++ {
			for range k.InitialCount() {
				out = append(out, darkchess.MakePiece(c, k))
			}
		}
	}
	return out
}

// Opening generates the opening with a deal: all 32 pieces face-down, each
// square's piece drawn as a uniform permutation (which rapid can shrink,
// unlike a seed).
func Opening() *rapid.Generator[darkchess.Position] {
	return rapid.Custom(func(t *rapid.T) darkchess.Position {
		deal := rapid.Permutation(pieces()).Draw(t, "deal")
		var s darkchess.Setup
		for sq := range 32 {
			s.Board[sq] = darkchess.Hidden
			s.Deal[sq] = deal[sq]
		}
		s.Turn = darkchess.NoColor
		p, err := darkchess.NewPosition(s)
		if err != nil {
			t.Fatalf("darkchesstest: %v", err)
		}
		return p
	})
}

// Game generates games played under rules from a dealt opening by uniformly
// chosen legal moves, stopping after a drawn number of plies (up to 300) or
// at the end.
func Game(rules darkchess.Rules) *rapid.Generator[*darkchess.Game] {
	return rapid.Custom(func(t *rapid.T) *darkchess.Game {
		g := darkchess.NewGameFrom(rules, Opening().Draw(t, "opening"), nil)
		plies := rapid.IntRange(0, 300).Draw(t, "plies")
		var buf [darkchess.MaxMoves]darkchess.Move
		for range plies {
			if g.IsOver() {
				break
			}
			moves := g.Position().AppendLegalMoves(buf[:0])
			m := moves[rapid.IntRange(0, len(moves)-1).Draw(t, "move")]
			if err := g.Play(m); err != nil {
				t.Fatalf("darkchesstest: legal move %s refused: %v", m, err)
			}
		}
		return g
	})
}

// Position generates referee positions (with their deal) reachable from the
// opening by legal play under [darkchess.NTU2021]: what a real game shows.
func Position() *rapid.Generator[darkchess.Position] {
	return rapid.Custom(func(t *rapid.T) darkchess.Position {
		return Game(darkchess.NTU2021).Draw(t, "game").Position()
	})
}

// ArbitraryPosition generates valid positions with the 32 pieces scattered at
// random, each square empty, face-down or revealed: random subsets of pieces,
// random face-down masks, a random side to move and counter, with or without
// the deal. Most are unreachable in a real game; they reach the corner cases
// legal play seldom shows (lone pieces, crowded cannons, sides with no pieces
// or no move).
func ArbitraryPosition() *rapid.Generator[darkchess.Position] {
	return rapid.Custom(func(t *rapid.T) darkchess.Position {
		order := rapid.Permutation(pieces()).Draw(t, "pieces")
		// Per square: 0 empty, 1 face-down, 2 revealed, with a drawn bias.
		empty := rapid.IntRange(0, 10).Draw(t, "empty")
		down := rapid.IntRange(0, 10).Draw(t, "down")
		var s darkchess.Setup
		hidden, revealed := 0, 0
		for sq := range 32 {
			switch r := rapid.IntRange(0, 20).Draw(t, "square"); {
			case r < empty:
			case r < empty+down:
				s.Board[sq] = darkchess.Hidden
				s.Deal[sq] = order[sq]
				hidden++
			default:
				s.Board[sq] = order[sq]
				revealed++
			}
		}
		if !rapid.Bool().Draw(t, "dealt") {
			for sq := range 32 {
				if s.Deal[sq] != darkchess.NoPiece {
					s.Pool[s.Deal[sq]]++
					s.Deal[sq] = darkchess.NoPiece
				}
			}
		}
		s.Turn = darkchess.Color(rapid.IntRange(0, 1).Draw(t, "turn"))
		if revealed == 0 && hidden > 0 && rapid.Bool().Draw(t, "unassigned") {
			s.Turn = darkchess.NoColor
		}
		s.Quiet = rapid.IntRange(0, 200).Draw(t, "quiet")
		p, err := darkchess.NewPosition(s)
		if err != nil {
			t.Fatalf("darkchesstest: %v", err)
		}
		return p
	})
}

// View generates what a player sees of a reachable position, with the
// game's history and rules.
func View() *rapid.Generator[darkchess.View] {
	return rapid.Custom(func(t *rapid.T) darkchess.View {
		g := Game(darkchess.NTU2021).Draw(t, "game")
		return g.View(rapid.SampledFrom([]darkchess.Color{darkchess.Red, darkchess.Black}).Draw(t, "viewer"))
	})
}

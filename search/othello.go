package search

import (
	"math/bits"

	"github.com/botarena/botarena/othello"
)

// Othello is the [Game] adapter of package othello: the state is an
// [othello.Position], player 0 is [othello.Black] and player 1
// [othello.White]. A forced pass is a move ([othello.Pass]); the game is over
// when neither side can move, and the disc counts decide it.
type Othello struct{}

// ToMove returns the side to move: 0 for black, 1 for white.
func (Othello) ToMove(p othello.Position) int { return int(p.Turn()) }

// AppendMoves appends the legal moves of p, as [othello.Position.AppendLegalMoves].
func (Othello) AppendMoves(p othello.Position, dst []othello.Move) []othello.Move {
	return p.AppendLegalMoves(dst)
}

// Play returns the position after m ([othello.Position.PlayUnchecked]).
func (Othello) Play(p othello.Position, m othello.Move) othello.Position {
	return p.PlayUnchecked(m)
}

// IsTerminal reports whether neither side can move.
func (Othello) IsTerminal(p othello.Position) bool { return p.IsOver() }

// Result returns 1 if player has more discs than the opponent, -1 if fewer,
// 0 for a draw.
func (Othello) Result(p othello.Position, player int) float64 {
	d := p.Count(othello.Color(player&1)) - p.Count(othello.Color(player&1).Opponent())
	switch {
	case d > 0:
		return 1
	case d < 0:
		return -1
	}
	return 0
}

// Hash returns a 64-bit hash of p, for a transposition table ([Hasher]):
// a mix of its two bitboards, the side to move and the board size.
func (Othello) Hash(p othello.Position) uint64 {
	h := uint64(p.Black())*0x9E3779B97F4A7C15 ^ bits.RotateLeft64(uint64(p.White())*0xC2B2AE3D27D4EB4F, 31)
	h ^= uint64(p.Turn())<<1 | uint64(p.Size()&2)>>1 // Size is 8 or 6: bit 1 tells them apart
	// The finaliser of SplitMix64 spreads every input bit over the hash.
	h = (h ^ h>>30) * 0xBF58476D1CE4E5B9
	h = (h ^ h>>27) * 0x94D049BB133111EB
	return h ^ h>>31
}

// MovesLeft returns the number of empty squares of p: the placements left
// at most ([Remainer]).
func (Othello) MovesLeft(p othello.Position) int { return p.Empty().Count() }

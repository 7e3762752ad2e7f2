package search

import "github.com/botarena/botarena/othello"

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

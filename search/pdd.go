package search

import "github.com/botarena/botarena/pdd"

// PDD is the [Game] adapter of package pdd: the state is a [pdd.Position]
// (its rule profile included), player 0 is [pdd.White] and player 1
// [pdd.Black]. A forced or voluntary [pdd.Pass] is a move; the scores decide
// a finished game ([pdd.Position.Outcome]).
type PDD struct{}

// ToMove returns the side to move: 0 for white, 1 for black.
func (PDD) ToMove(p pdd.Position) int { return pddIndex(p.Turn()) }

func pddIndex(c pdd.Color) int { return int(c-pdd.White) & 1 }

// AppendMoves appends the legal moves of p ([pdd.Position.AppendLegalMoves]).
// [pdd.MaxMoves] of room is always enough.
func (PDD) AppendMoves(p pdd.Position, dst []pdd.Move) []pdd.Move { return p.AppendLegalMoves(dst) }

// Play returns the position after m ([pdd.Position.PlayUnchecked]).
func (PDD) Play(p pdd.Position, m pdd.Move) pdd.Position { return p.PlayUnchecked(m) }

// IsTerminal reports whether the game is over ([pdd.Position.IsOver]).
func (PDD) IsTerminal(p pdd.Position) bool { return p.IsOver() }

// Result returns 1 if player's score beats the opponent's, -1 if it loses, 0
// for a draw.
func (PDD) Result(p pdd.Position, player int) float64 {
	r := p.Outcome()
	switch {
	case r.Draw:
		return 0
	case pddIndex(r.Winner) == player:
		return 1
	}
	return -1
}

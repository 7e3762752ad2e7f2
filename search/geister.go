package search

import (
	"math/rand/v2"

	"github.com/botarena/botarena/geister"
)

// Geister is the [Game] adapter of package geister: the state is a
// [geister.Position] (the referee's, with both sides' colours), player 0 is
// [geister.First] and player 1 [geister.Second]. A game ends when the board
// decides it or at the ply limit, a draw. It is also a [Determinizer]: a
// player's [geister.View] is sampled with [geister.Determinize].
type Geister struct {
	// PlyLimit is the number of plies after which an undecided game is
	// drawn; 0 means [geister.GAT]'s (300). Search needs a limit: a random
	// game may otherwise wander for a long time.
	PlyLimit int
}

func (g Geister) limit() int {
	if g.PlyLimit > 0 {
		return g.PlyLimit
	}
	return geister.GAT.PlyLimit
}

// ToMove returns the side to move: 0 for the first player, 1 for the second.
func (Geister) ToMove(p geister.Position) int { return int(p.Turn()) }

// AppendMoves appends the legal moves of p ([geister.Position.AppendLegalMoves]),
// or nothing at the ply limit.
func (g Geister) AppendMoves(p geister.Position, dst []geister.Move) []geister.Move {
	if p.Ply() >= g.limit() {
		return dst
	}
	return p.AppendLegalMoves(dst)
}

// Play returns the position after m ([geister.Position.PlayUnchecked]).
func (Geister) Play(p geister.Position, m geister.Move) geister.Position {
	return p.PlayUnchecked(m)
}

// IsTerminal reports whether the board decides the game or the ply limit is
// reached.
func (g Geister) IsTerminal(p geister.Position) bool { return p.IsOver() || p.Ply() >= g.limit() }

// Result returns 1 if player won, -1 if it lost, 0 for a draw (the ply limit).
func (Geister) Result(p geister.Position, player int) float64 {
	r := p.Result()
	switch {
	case r.Reason == geister.Unfinished:
		return 0
	case r.Winner == geister.Color(player&1):
		return 1
	}
	return -1
}

// Determinize returns a position consistent with v, the opponent's unknown
// colours drawn uniformly ([geister.Determinize]).
func (Geister) Determinize(v geister.View, r *rand.Rand) geister.Position {
	return geister.Determinize(v, r)
}

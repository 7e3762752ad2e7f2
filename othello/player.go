package othello

import "context"

// Player chooses the moves of an Othello bot; every Othello protocol accepts
// one. Play receives the position with the player to move: p.Turn() is the
// player's colour. It is called only when the player has at least one
// placement (it never has to pass) and never twice at the same time; ctx is
// cancelled when the answer is no longer wanted (the game ended, the opponent
// left) or its deadline has passed. Play should return its best move by ctx's
// deadline: an error or an illegal move ends the game. Never assume the start
// position: a game may begin from any position.
type Player interface {
	Play(ctx context.Context, p Position) (Move, error)
}

// PlayerFunc adapts an ordinary function to [Player].
type PlayerFunc func(ctx context.Context, p Position) (Move, error)

// Play calls f(ctx, p).
func (f PlayerFunc) Play(ctx context.Context, p Position) (Move, error) { return f(ctx, p) }

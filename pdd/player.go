package pdd

import "context"

// Player chooses the moves of a Ponte del Diavolo bot; every PDD protocol
// accepts one. Play receives the position with the player's colour to move
// (p.Turn()), [Change] available when p.ChangeAvailable() says so; it has at
// least one legal move. Play should return a legal move of p by ctx's deadline;
// ctx is cancelled when the answer is no longer wanted. What a late or illegal
// move, or an error, costs is the caller's rule (the per-move program interface
// replaces it with the first legal move).
type Player interface {
	Play(ctx context.Context, p Position) (Move, error)
}

// PlayerFunc adapts an ordinary function to [Player].
type PlayerFunc func(ctx context.Context, p Position) (Move, error)

// Play calls f(ctx, p).
func (f PlayerFunc) Play(ctx context.Context, p Position) (Move, error) { return f(ctx, p) }

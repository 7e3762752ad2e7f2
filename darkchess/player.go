package darkchess

import "context"

// Player chooses the plies of a dark chess bot; every dark chess engine
// interface (the legacy socket protocol, read mode, MGTP) accepts one.
//
// Play receives the view of the side to move, which is the player's own
// (v.Turn() is the player's colour; it is [NoColor] for the first ply of a
// fresh game, which must be a flip). The view carries the ply history, and the
// rules and both clocks as far as the protocol tells them. The context's
// deadline is the hard limit: the player's remaining time minus the caller's
// safety margin. Play should return a legal move by then; an error or an
// illegal move loses the game.
//
// Play is called only when the player is to move, never twice at the same
// time, and the caller waits for it to return, so a player should honour ctx.
type Player interface {
	Play(ctx context.Context, v View) (Move, error)
}

// PlayerFunc adapts an ordinary function to [Player].
type PlayerFunc func(ctx context.Context, v View) (Move, error)

// Play calls f(ctx, v).
func (f PlayerFunc) Play(ctx context.Context, v View) (Move, error) { return f(ctx, v) }

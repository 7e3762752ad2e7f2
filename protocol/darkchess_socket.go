package protocol

import (
	"context"

	"github.com/botarena/botarena/darkchess"
)

// DarkChessPlayer chooses plies for the dark chess clients of every engine
// interface: the legacy socket protocol ([DialDarkChessLegacy]), read mode and
// MGTP (package protocol/mgtp, whose engine side takes a DarkChessPlayer).
//
// Play receives the view of the side to move, which is the player's own
// (v.Turn() is the player's colour; it is [darkchess.NoColor] for the first
// ply of a fresh game, which must be a flip). The view carries the ply
// history, and the rules and both clocks as far as the protocol tells them
// (see [darkchess.View]). The context's deadline is the hard limit: the
// player's remaining time minus the client's safety margin. Play should return
// a legal move by then; an error or an illegal move loses the game.
//
// A client calls Play only when the player is to move, never twice at the
// same time, and waits for it to return before it returns itself, so a player
// should honour ctx.
type DarkChessPlayer interface {
	Play(ctx context.Context, v darkchess.View) (darkchess.Move, error)
}

// DarkChessPlayerFunc adapts an ordinary function to [DarkChessPlayer].
type DarkChessPlayerFunc func(ctx context.Context, v darkchess.View) (darkchess.Move, error)

// Play calls f(ctx, v).
func (f DarkChessPlayerFunc) Play(ctx context.Context, v darkchess.View) (darkchess.Move, error) {
	return f(ctx, v)
}

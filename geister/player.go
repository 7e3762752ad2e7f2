package geister

import (
	"context"
	"math/rand/v2"
)

// Player chooses the red ghosts and the moves of a Geister bot; every Geister
// protocol accepts one. It has two methods, not one as in the other games, on
// purpose: the hidden red set is the player's first decision, taken before any
// board exists, and the opponent never sees it.
//
// Setup is called once, before the game starts, and returns the player's red
// set. Play is called for every move with the view of that board: the
// player's own frame (its ghosts start on rows 4 and 5 and move North), the
// opponent's colours unknown except for ghosts off the board. They are called
// one at a time, and ctx is cancelled when the answer is no longer wanted or
// its deadline has passed. An error or an illegal move loses the game.
type Player interface {
	Setup(ctx context.Context) (Reds, error)
	Play(ctx context.Context, v View) (Move, error)
}

// PlayerFunc adapts an ordinary move function to [Player]. Its Setup draws one
// of the [NumReds] red sets uniformly at random (from math/rand/v2's global
// source), so that an opponent cannot learn it.
type PlayerFunc func(ctx context.Context, v View) (Move, error)

// Setup returns a uniformly random red set.
func (f PlayerFunc) Setup(context.Context) (Reds, error) { return RedsAt(rand.IntN(NumReds)), nil }

// Play calls f(ctx, v).
func (f PlayerFunc) Play(ctx context.Context, v View) (Move, error) { return f(ctx, v) }

package main

import (
	"context"

	"github.com/botarena/botarena/othello"
	"github.com/botarena/botarena/search"
	"github.com/botarena/botarena/timer"
)

// The Othello best bot's search under -time none, so that the games
// replay from the seed: 4 plies, and an exact solve from 10 empty squares.
const (
	othelloBestDepth = 4
	othelloBestSolve = 10
)

// newOthelloBest returns the Othello best bot, for one game at a time:
// search.OthelloBestPlayer (principal-variation alpha-beta over the
// learned n-tuple evaluation, with an exact endgame solve), told the
// match's control by a keeper.
func newOthelloBest(ctl timer.Control) othello.Player {
	k := &keeper{ctl: ctl}
	var o search.DepthOptions
	if ctl.Unlimited() {
		o.Depth, o.Solve = othelloBestDepth, othelloBestSolve
	}
	p := search.OthelloBestPlayer(o)
	return othello.PlayerFunc(func(ctx context.Context, pos othello.Position) (othello.Move, error) {
		return p.Play(k.withStatus(ctx), pos)
	})
}

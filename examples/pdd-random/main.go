// Command pdd-random is a Ponte del Diavolo strategy for the course platform
// that plays a random legal move. The platform runs it once per move:
//
//	pdd-random <W|B> <Y|N> chess.txt bridge.txt stepLog.txt
//
// permove.Run gives the player a deadline below the platform's 5 s; a
// player that misses it (or fails) gets a fallback move, the first legal
// one, which the runner reports on stderr for the referee to count.
package main

import (
	"context"
	"math/rand/v2"

	"github.com/botarena/botarena/pdd"
	"github.com/botarena/botarena/protocol/permove"
)

func main() {
	permove.Run(pdd.PlayerFunc(func(_ context.Context, p pdd.Position) (pdd.Move, error) {
		moves := p.AppendLegalMoves(nil) // never empty when called
		return moves[rand.IntN(len(moves))], nil
	}))
}

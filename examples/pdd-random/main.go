// Command pdd-random is a Ponte del Diavolo strategy for the course platform
// that plays a random legal move. The platform runs it once per move:
//
//	pdd-random <W|B> <Y|N> chess.txt bridge.txt stepLog.txt
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

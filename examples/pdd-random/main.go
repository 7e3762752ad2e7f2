// Command pdd-random is a Ponte del Diavolo strategy for the course platform
// that plays a random legal move. The platform runs it once per move:
//
//	pdd-random <W|B> <Y|N> chess.txt bridge.txt stepLog.txt
package main

import (
	"context"
	"math/rand/v2"

	"github.com/botarena/botarena/pdd"
	"github.com/botarena/botarena/protocol"
)

func main() {
	protocol.RunPDDStrategy(protocol.PDDPlayerFunc(func(_ context.Context, t protocol.PDDTurn) (pdd.Move, error) {
		moves := t.Position.AppendLegalMoves(nil) // never empty when called
		return moves[rand.IntN(len(moves))], nil
	}))
}

// Command darkchess-readmode is a random dark chess engine for read mode:
// the platform runs it once per ply in its folder, where it reads board.txt
// and leaves a random legal ply in move.txt.
package main

import (
	"context"
	"log"
	"math/rand/v2"

	"github.com/botarena/botarena/darkchess"
	"github.com/botarena/botarena/protocol"
)

func main() {
	bot := protocol.DarkChessPlayerFunc(func(_ context.Context, v darkchess.View) (darkchess.Move, error) {
		moves := v.AppendLegalMoves(nil)
		return moves[rand.IntN(len(moves))], nil // never empty: the game is on
	})
	if err := protocol.RunDarkChessReadMode(context.Background(), ".", bot); err != nil {
		log.Fatal(err)
	}
}

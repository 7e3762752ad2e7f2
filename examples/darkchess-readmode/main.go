// Command darkchess-readmode is a random dark chess engine for read mode:
// the platform runs it once per ply in its folder, where it reads board.txt
// and leaves a random legal ply in move.txt.
package main

import (
	"context"
	"log"
	"math/rand/v2"

	"github.com/botarena/botarena/darkchess"
	"github.com/botarena/botarena/protocol/readmode"
)

func main() {
	bot := darkchess.PlayerFunc(func(_ context.Context, v darkchess.View) (darkchess.Move, error) {
		moves := v.AppendLegalMoves(nil)
		return moves[rand.IntN(len(moves))], nil // never empty: the game is on
	})
	if err := readmode.Run(context.Background(), ".", bot); err != nil {
		log.Fatal(err)
	}
}

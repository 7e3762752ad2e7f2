// Command geister-stdio plays Geister at random as an NTPU platform program in
// STDIO mode: the launcher's messages on standard input, the moves on
// standard output (give its path as the AI path, with no AI arguments).
package main

import (
	"context"
	"log"
	"math/rand/v2"
	"os"

	"github.com/botarena/botarena/geister"
	"github.com/botarena/botarena/protocol/ntpu"
)

func main() {
	random := func(_ context.Context, v geister.View) (geister.Move, error) {
		moves := v.AppendLegalMoves(nil) // never empty while the game goes on
		return moves[rand.IntN(len(moves))], nil
	}
	// geister.PlayerFunc picks a random red set; the log goes to standard error.
	if err := ntpu.ServeSTDIO(context.Background(), os.Stdin, os.Stdout, geister.PlayerFunc(random)); err != nil {
		log.Fatal(err)
	}
}

// Command darkchess-mgtp is a random dark chess engine that speaks MGTP on
// its standard input and output, for the 2021 match system or arena match.
package main

import (
	"context"
	"errors"
	"log"
	"math/rand/v2"
	"os"

	"github.com/botarena/botarena/darkchess"
	"github.com/botarena/botarena/protocol/mgtp"
)

func main() {
	random := func(_ context.Context, v darkchess.View) (darkchess.Move, error) {
		moves := v.AppendLegalMoves(nil)
		if len(moves) == 0 {
			return darkchess.NoMove, errors.New("no legal ply")
		}
		return moves[rand.IntN(len(moves))], nil
	}
	if err := mgtp.Serve(context.Background(), os.Stdin, os.Stdout, darkchess.PlayerFunc(random)); err != nil {
		log.Fatal(err)
	}
}

// Command darkchess-best is an MGTP engine (the 2021 match system's) that
// plays dark chess with the library's strongest dark chess bot,
// search.DarkChessBestPlayer: expectiminimax, each flip a chance node,
// captures searched past the horizon.
//
// The player keeps its own time: MGTP tells it the time setting and its time
// left, and each ply spends a share of the time left (over 50 plies, a
// margin kept back for each ply to come).
package main

import (
	"context"
	"log"
	"os"

	"github.com/botarena/botarena/protocol/mgtp"
	"github.com/botarena/botarena/search"
)

func main() {
	bot := search.DarkChessBestPlayer(search.DepthOptions{})
	if err := mgtp.Serve(context.Background(), os.Stdin, os.Stdout, bot); err != nil {
		log.Fatal(err)
	}
}

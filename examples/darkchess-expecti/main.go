// Command darkchess-expecti is an MGTP engine (the 2021 match system's) that plays dark chess by
// expectiminimax, each flip a chance node, captures searched past the horizon: [-time 5s]
//
// The player keeps its own time: MGTP tells it the game's time setting and its time left, and
// it spends a share of the time left on each ply (the time left over 50 plies, a margin kept
// back for every ply still to come), so that no game runs out. -time only caps a ply further.
package main

import (
	"context"
	"flag"
	"log"
	"os"

	"github.com/botarena/botarena/darkchess"
	"github.com/botarena/botarena/protocol/mgtp"
	"github.com/botarena/botarena/search"
	"github.com/botarena/botarena/timer"
)

func main() {
	most := flag.Duration("time", 0, "most time per ply (0: a share of the clock MGTP tells, no more)")
	flag.Parse()
	var bot darkchess.Player = search.DarkChessExpectimaxPlayer(search.DepthOptions{})
	if *most > 0 {
		// Another policy is a Status changed before the player reads it:
		// here a per-move cap on top of the clock.
		expecti := bot
		bot = darkchess.PlayerFunc(func(ctx context.Context, v darkchess.View) (darkchess.Move, error) {
			s, _ := timer.StatusFrom(ctx)
			s.Control.MoveCap = *most
			return expecti.Play(timer.WithStatus(ctx, s), v)
		})
	}
	if err := mgtp.Serve(context.Background(), os.Stdin, os.Stdout, bot); err != nil {
		log.Fatal(err)
	}
}

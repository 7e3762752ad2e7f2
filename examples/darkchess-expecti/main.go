// Command darkchess-expecti is an MGTP engine (the 2021 match system's) that plays dark chess by
// expectiminimax, each flip a chance node, captures searched past the horizon: [-time 5s]
package main

import (
	"context"
	"flag"
	"log"
	"os"
	"time"

	"github.com/botarena/botarena/darkchess"
	"github.com/botarena/botarena/protocol/mgtp"
	"github.com/botarena/botarena/search"
)

func main() {
	think := flag.Duration("time", 5*time.Second, "time per ply, at most the clock MGTP tells less a margin")
	flag.Parse()
	expecti := search.DarkChessExpectimaxPlayer(search.DepthOptions{})
	// The engine's deadline is the whole time left: spend a slice of it.
	bot := darkchess.PlayerFunc(func(ctx context.Context, v darkchess.View) (darkchess.Move, error) {
		ctx, cancel := context.WithTimeout(ctx, *think)
		defer cancel()
		return expecti.Play(ctx, v)
	})
	if err := mgtp.Serve(context.Background(), os.Stdin, os.Stdout, bot); err != nil {
		log.Fatal(err)
	}
}

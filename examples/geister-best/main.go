// Command geister-best plays Geister as an NTPU platform program in STDIO
// mode with the library's strongest Geister bot, search.GeisterBestPlayer:
// information-set Monte Carlo tree search that checks, before it moves,
// which moves would let the opponent force an escape. Give its path as the
// AI path, and "-time 5s" as its arguments for another time per move.
package main

import (
	"context"
	"flag"
	"log"
	"os"
	"time"

	"github.com/botarena/botarena/geister"
	"github.com/botarena/botarena/protocol/ntpu"
	"github.com/botarena/botarena/search"
)

func main() {
	var s ntpu.STDIO
	flag.DurationVar(&s.MoveTime, "time", 2*time.Second, "time per move (the launcher does not tell it)")
	flag.Parse()
	// Each iteration guesses the opponent's colours afresh from what this
	// player has seen; the playouts end at the platform's 200-ply limit.
	bot := search.GeisterBestPlayer(search.Options{Seed: uint64(time.Now().UnixNano())}, geister.NTPU.PlyLimit)
	if err := s.Serve(context.Background(), os.Stdin, os.Stdout, bot); err != nil {
		log.Fatal(err)
	}
}

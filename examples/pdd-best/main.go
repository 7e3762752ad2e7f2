// Command pdd-best is a Ponte del Diavolo strategy for the course platform
// that plays the library's strongest PDD bot, search.PDDBestPlayer. The
// platform runs it once per move:
//
//	pdd-best [-time 4.5s] <W|B> <Y|N> chess.txt bridge.txt stepLog.txt
//
// The search answers shortly before -time has passed since the program
// started. Should it not, the runner plays the first legal move (a fallback
// move) and says so on stderr; "arena match pdd" counts these in the result
// line: any means -time is too long for the machine.
package main

import (
	"context"
	"flag"
	"os"

	"github.com/botarena/botarena/protocol/permove"
	"github.com/botarena/botarena/search"
)

func main() {
	budget := flag.Duration("time", permove.DefaultBudget, "time to think, from the start (the platform allows 5 s)")
	flag.Parse()
	bot := search.PDDBestPlayer(search.DepthOptions{})
	args := append([]string{os.Args[0]}, flag.Args()...)
	os.Exit(permove.RunArgs(context.Background(), args, os.Stderr, bot, permove.Options{Budget: *budget}))
}

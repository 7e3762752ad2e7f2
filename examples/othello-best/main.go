// Command othello-best plays Othello on a TUS server with search.OthelloBestPlayer,
// the library's strongest: principal-variation search over a learned evaluation,
// an exact endgame solve. Usage: othello-best [-nick name] [-time 8s] [host [port]]
package main

import (
	"cmp"
	"context"
	"flag"
	"log"
	"net"
	"time"

	"github.com/botarena/botarena/protocol/tus"
	"github.com/botarena/botarena/search"
)

func main() {
	var c tus.Client
	flag.StringVar(&c.Nick, "nick", "", "nickname to send with NICK")
	flag.DurationVar(&c.MoveTime, "time", 8*time.Second, "time per move (the course server allows 10 s)")
	flag.Parse()
	addr := net.JoinHostPort(cmp.Or(flag.Arg(0), "localhost"), cmp.Or(flag.Arg(1), "25033"))
	bot := search.OthelloBestPlayer(search.DepthOptions{})
	out, err := c.Dial(context.Background(), addr, bot)
	if err != nil {
		log.Fatal(err)
	}
	log.Printf("played %s: %s", out.Color, out.Result)
}

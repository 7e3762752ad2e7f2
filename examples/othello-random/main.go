// Command othello-random plays Othello at random on a TUS server: othello-random [-nick name] [host [port]]
package main

import (
	"cmp"
	"context"
	"flag"
	"log"
	"math/rand/v2"
	"net"
	"time"

	"github.com/botarena/botarena/othello"
	"github.com/botarena/botarena/protocol/tus"
)

func main() {
	c := tus.Client{MoveTime: 8 * time.Second} // the course server allows 10 s
	flag.StringVar(&c.Nick, "nick", "", "nickname to send with NICK")
	flag.Parse()
	addr := net.JoinHostPort(cmp.Or(flag.Arg(0), "localhost"), cmp.Or(flag.Arg(1), "25033"))
	random := func(_ context.Context, p othello.Position) (othello.Move, error) {
		return p.AppendLegalMoves(nil)[rand.IntN(p.LegalSquares().Count())], nil // never a pass
	}
	out, err := c.Dial(context.Background(), addr, othello.PlayerFunc(random))
	if err != nil {
		log.Fatal(err)
	}
	log.Printf("played %s: %s", out.Color, out.Result)
}

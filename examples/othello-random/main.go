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
	"github.com/botarena/botarena/protocol"
)

func main() {
	c := protocol.OthelloClient{MoveTime: 8 * time.Second} // the course server allows 10 s
	flag.StringVar(&c.Nick, "nick", "", "nickname to send with NICK")
	flag.Parse()
	addr := net.JoinHostPort(cmp.Or(flag.Arg(0), "localhost"), cmp.Or(flag.Arg(1), "25033"))
	random := func(_ context.Context, p othello.Position, _ othello.Color) (othello.Move, error) {
		return p.AppendLegalMoves(nil)[rand.IntN(p.LegalSquares().Count())], nil // never a pass
	}
	out, err := c.Dial(context.Background(), addr, protocol.OthelloPlayerFunc(random))
	if err != nil {
		log.Fatal(err)
	}
	log.Printf("played %s: %s", out.Color, out.Result)
}

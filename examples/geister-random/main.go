// Command geister-random plays Geister at random on a Java geister server: geister-random [host [port]]
package main

import (
	"cmp"
	"context"
	"flag"
	"log"
	"math/rand/v2"
	"net"
	"time"

	"github.com/botarena/botarena/geister"
	"github.com/botarena/botarena/protocol/gat"
)

func main() {
	flag.Parse()
	addr := net.JoinHostPort(cmp.Or(flag.Arg(0), "localhost"), cmp.Or(flag.Arg(1), "10000")) // 10001: the second seat
	random := geister.PlayerFunc(func(_ context.Context, v geister.View) (geister.Move, error) {
		moves := v.AppendLegalMoves(nil) // never empty when Play is called; the red set is random too
		return moves[rand.IntN(len(moves))], nil
	})
	c := gat.Client{MoveTime: 8 * time.Second} // the server allows 10 s a move once its budget is spent
	out, err := c.Dial(context.Background(), addr, random)
	if err != nil {
		log.Fatal(err)
	}
	log.Printf("played %s: %s", out.Color, out.Result)
}

package tus_test

import (
	"bufio"
	"context"
	"fmt"
	"log"
	"math/rand/v2"
	"net"
	"time"

	"github.com/botarena/botarena/othello"
	"github.com/botarena/botarena/protocol/tus"
)

// A random player on a TUS OthelloServer: one call plays one game.
// (Not run: there is no server at localhost:25033 in a test.)
func ExampleDial() {
	random := othello.PlayerFunc(func(ctx context.Context, p othello.Position) (othello.Move, error) {
		moves := p.AppendLegalMoves(nil) // never empty when Play is called
		return moves[rand.IntN(len(moves))], nil
	})
	out, err := tus.Dial(context.Background(), "localhost:25033", random)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("we played %s: %s\n", out.Color, out.Result)
}

// Run plays over any connection. Here the server is a script on the other
// end of a net.Pipe: it takes one move, then ends the game as if the
// opponent had run out of time.
func ExampleClient_Run() {
	server, conn := net.Pipe()
	served := make(chan struct{})
	go func() {
		defer close(served)
		defer server.Close()
		board := func(p othello.Position) []byte {
			return tus.AppendEvent(nil, tus.BoardEvent(p))
		}
		in := bufio.NewScanner(server)
		in.Scan()
		fmt.Println("server got:", in.Text()) // NICK
		start := othello.TUS.Start
		fmt.Fprintf(server, "START 1\n%sTURN 1\n", board(start))
		in.Scan()
		fmt.Println("server got:", in.Text()) // PUT
		cmd, _ := tus.ParseCommand(in.Text())
		after, _ := start.Play(othello.Place(cmd.Square()))
		fmt.Fprintf(server, "%sTURN -1\nEND Win:[alice] alice:4 bob:1\n", board(after))
		in.Scan()
		fmt.Println("server got:", in.Text()) // CLOSE
	}()

	first := othello.PlayerFunc(func(ctx context.Context, p othello.Position) (othello.Move, error) {
		return p.AppendLegalMoves(nil)[0], nil
	})
	c := tus.Client{Nick: "alice", MoveTime: 8 * time.Second}
	out, err := c.Run(context.Background(), conn, first)
	<-served
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("alice played %s: %s\n", out.Color, out.Result)
	// Output:
	// server got: NICK alice
	// server got: PUT 4 2
	// server got: CLOSE
	// alice played black: black wins 4-1 (timeout)
}

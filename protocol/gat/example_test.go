package gat_test

import (
	"bufio"
	"context"
	"fmt"
	"log"
	"math/rand/v2"
	"net"
	"strings"

	"github.com/botarena/botarena/geister"
	"github.com/botarena/botarena/protocol/gat"
)

// A random player on a Java geister server: one call plays one game, here
// in the first player's seat. (Not run: there is no server at
// localhost:10000 in a test.)
func ExampleDial() {
	random := geister.PlayerFunc(func(ctx context.Context, v geister.View) (geister.Move, error) {
		moves := v.AppendLegalMoves(nil) // never empty when Play is called
		return moves[rand.IntN(len(moves))], nil
	})
	out, err := gat.Dial(context.Background(), "localhost:10000", random)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("we played %s: %s\n", out.Color, out.Result)
}

// fixedReds sets B-E red and plays the first legal move.
type fixedReds struct{}

func (fixedReds) Setup(context.Context) (geister.Reds, error) { return geister.ParseReds("BCDE") }

func (fixedReds) Play(_ context.Context, v geister.View) (geister.Move, error) {
	return v.AppendLegalMoves(nil)[0], nil
}

// Run plays over any connection. Here the server is a script on the other
// end of a net.Pipe: it takes the red ghosts and one move, then ends the
// game as if the opponent had run out of time.
func ExampleClient_Run() {
	server, conn := net.Pipe()
	served := make(chan struct{})
	go func() {
		defer close(served)
		defer server.Close()
		in := bufio.NewScanner(server)
		fmt.Fprint(server, "SET?\r\n")
		in.Scan()
		fmt.Println("server got:", in.Text())
		start, _ := geister.Start(geister.RedsOf(geister.B, geister.C, geister.D, geister.E), geister.RedsAt(0))
		fmt.Fprintf(server, "OK \r\nMOV?%s\r\n", start.View(geister.First))
		in.Scan()
		fmt.Println("server got:", in.Text())
		cmd, _ := gat.ParseCommand(in.Text())
		after, _ := start.Play(cmd.Move)
		fmt.Fprintf(server, "OK \r\nWON:%s\r\n", after.Board(geister.First))
		in.Scan() // the client closes
	}()

	c := gat.Client{}
	out, err := c.Run(context.Background(), conn, fixedReds{})
	<-served
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("we played %s with %s red: %s\n", out.Color, out.Reds, out.Result)
	// Output:
	// server got: SET:BCDE
	// server got: MOV:A,NORTH
	// we played first with BCDE red: first wins (TimeOut)
}

// seeded sets a fixed red set and plays moves drawn from a seeded source,
// so that the game below always goes the same way.
type seeded struct {
	reds geister.Reds
	rng  *rand.Rand
}

func (s seeded) Setup(context.Context) (geister.Reds, error) { return s.reds, nil }

func (s seeded) Play(_ context.Context, v geister.View) (geister.Move, error) {
	moves := v.AppendLegalMoves(nil)
	return moves[s.rng.IntN(len(moves))], nil
}

// A host for the Java server's clients on two local ports (":10000" and
// ":10001" by default, with ListenAndServe), and two bots playing one game
// on it.
func ExampleHost() {
	var lns [2]net.Listener
	for i := range lns {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			log.Fatal(err)
		}
		lns[i] = ln
	}
	records := make(chan gat.GameRecord, 1)
	host := &gat.Host{
		Rules:     geister.GAT, // 300 plies, an illegal move loses
		OnGameEnd: func(r gat.GameRecord) { records <- r },
	}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- host.Serve(ctx, lns[0], lns[1]) }()

	outs := make(chan gat.Outcome, 2)
	for i, ln := range lns {
		bot := seeded{geister.RedsAt(i * 69), rand.New(rand.NewPCG(1, uint64(i)))}
		go func() {
			out, err := gat.Dial(ctx, ln.Addr().String(), bot)
			if err != nil {
				log.Fatal(err)
			}
			outs <- out
		}()
	}
	rec := <-records
	fmt.Printf("game %d: %s after %d plies\n", rec.ID, rec.Result, len(rec.Moves))
	for range 2 {
		out := <-outs
		fmt.Printf("%s saw %s, %s\n", out.Color, strings.ToLower(out.End.Kind.String()), out.Result)
	}
	cancel()
	if err := <-served; err != nil {
		log.Fatal(err)
	}
	// Unordered output:
	// game 0: first wins (NoRedGhost) after 130 plies
	// first saw won, first wins (NoRedGhost)
	// second saw lst, first wins (NoRedGhost)
}

// The codec reads a server's line into a board, which gives the view a bot
// plays from.
func ExampleParseEvent() {
	e, err := gat.ParseEvent("MOV?14B24R34R44R15R25B35B45B41u31u21u11u40u30u20u10u\r\n")
	if err != nil {
		log.Fatal(err)
	}
	v, err := e.Board.View(geister.First, 0)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(e.Kind, v.Reds(), len(v.AppendLegalMoves(nil)), "moves")
	fmt.Printf("%s", gat.AppendCommand(nil, gat.Command{Kind: gat.Move, Move: geister.NewMove(geister.A, geister.North)}))
	// Output:
	// MOV? BCDE 8 moves
	// MOV:A,NORTH
}

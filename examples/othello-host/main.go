// Command othello-host embeds a TUS Othello server (the course's
// OthelloServer protocol) in a program of its own: it referees every game
// the connecting clients play, keeps a win table from the results, and
// prints it when stopped with Ctrl-C.
//
//	go run ./examples/othello-host -addr :25033 -timeout 10s
//
// Any TUS client can then connect, for example two copies of
// examples/othello-random.
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"sync"
	"time"

	"github.com/botarena/botarena/othello"
	"github.com/botarena/botarena/protocol/tus"
)

func main() {
	addr := flag.String("addr", tus.DefaultAddr, "address to listen on")
	timeout := flag.Duration("timeout", 10*time.Second, "time for each move (0 = no limit)")
	flag.Parse()

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()

	var mu sync.Mutex
	wins := map[string]int{}
	host := &tus.Host{
		Timeout: *timeout,
		Logger:  slog.New(slog.NewTextHandler(os.Stderr, nil)),
		OnGameEnd: func(r tus.GameRecord) {
			fmt.Printf("game %d: %s (black) vs %s (white): %s\n", r.ID, r.Black, r.White, r.Result)
			mu.Lock()
			defer mu.Unlock()
			if !r.Result.Draw && r.Result.Reason != othello.Unfinished {
				wins[[2]string{r.Black, r.White}[r.Result.Winner]]++
			}
		},
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("Othello host listening on", ln.Addr())
	if err := host.Serve(ctx, ln); err != nil {
		log.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	for nick, n := range wins {
		fmt.Printf("%s: %d wins\n", nick, n)
	}
}

// Command arena hosts game servers compatible with the platforms' own clients
// and runs matches between programs.
//
//	arena match othello [flags] [black [white]]
//	arena serve othello [flags]
//
// With no flags, "arena match othello" hosts a TUS Othello server on
// loopback, connects two built-in bots to it over TCP, plays a game and
// prints the moves, the final board and the result. Run "arena help" for the
// flags.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
)

// version is the botarena version the servers announce.
const version = "0.1.0"

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	if errors.Is(err, flag.ErrHelp) {
		os.Exit(0)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "arena:", err)
		os.Exit(2)
	}
}

const usage = `usage:
  arena match othello [flags] [black [white]]   play games between two players over a loopback server
  arena serve othello [flags]                   run a TUS OthelloServer-compatible server
  arena help [command]                          show the flags of a command

games: othello
`

// run carries out one arena command line.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return errors.New("no command given")
	}
	cmd, rest := args[0], args[1:]
	switch cmd {
	case "help", "-h", "-help", "--help":
		if len(rest) > 0 {
			return run(ctx, []string{rest[0], "othello", "-h"}, stdout, stderr)
		}
		fmt.Fprint(stdout, usage)
		return nil
	case "match", "serve":
	default:
		fmt.Fprint(stderr, usage)
		return fmt.Errorf("unknown command %q (commands: match, serve, help)", cmd)
	}
	if len(rest) == 0 || strings.HasPrefix(rest[0], "-") {
		return fmt.Errorf("%s: name the game (games: othello)", cmd)
	}
	game, rest := rest[0], rest[1:]
	if game != "othello" {
		return fmt.Errorf("%s: unknown game %q (games: othello)", cmd, game)
	}
	if cmd == "serve" {
		return serveOthello(ctx, rest, stdout, stderr)
	}
	return matchOthello(ctx, rest, stdout, stderr)
}

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
	"syscall"

	"github.com/botarena/botarena/internal/proc"
)

// version is the botarena version the servers announce.
const version = "0.1.0"

func main() {
	// The processes that programs leave orphaned become arena's (on Linux),
	// so that the end of each game kills and reaps them.
	if err := proc.Subreaper(); err != nil && !errors.Is(err, errors.ErrUnsupported) {
		fmt.Fprintln(os.Stderr, "arena: warning:", err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	var code exitCode
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
		os.Exit(0)
	case errors.As(err, &code):
		os.Exit(int(code))
	case errors.Is(err, errInterrupted):
		fmt.Fprintln(os.Stderr, "arena: interrupted")
		os.Exit(130)
	}
	fmt.Fprintln(os.Stderr, "arena:", err)
	os.Exit(2)
}

// exitCode is an exit status a command chose (a bot's), not an error to print.
type exitCode int

func (c exitCode) Error() string { return fmt.Sprintf("exit status %d", int(c)) }

// usage lists the commands and the games.
func usage() string {
	var b strings.Builder
	b.WriteString(`usage:
  arena match <game> [flags] [player [player]]         games between two players (default: two built-in bots)
  arena tournament <game> [flags] player player ...    a round robin, games in parallel (-j)
  arena serve <game> [flags]                           the platform's server, for its existing clients
  arena view [-web addr] [record files or dirs...]     the web viewer, to replay record files
  arena bot <game> <name> [args...]                    a built-in bot as a program speaking the game's interface
  arena help [command [game]]                          the flags of a command

games and their players:
`)
	for _, d := range gameDefs() {
		fmt.Fprintf(&b, "  %-10s built-in: %s; programs: %s\n", d.Name, strings.Join(d.Builtins, ", "), strings.Join(d.Protocols, ", "))
	}
	b.WriteString(`
A program player is PROTOCOL:COMMAND ARGS ("mgtp:./engine -d 3"), or a path
alone for the game's first protocol; NAME=PLAYER names a player.
`)
	return b.String()
}

// gameNames lists the games, for errors.
func gameNames() string {
	var names []string
	for _, d := range gameDefs() {
		names = append(names, d.Name)
	}
	return strings.Join(names, ", ")
}

// run carries out one arena command line.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage())
		return errors.New("no command given")
	}
	cmd, rest := args[0], args[1:]
	switch cmd {
	case "help", "-h", "-help", "--help":
		if len(rest) == 0 {
			fmt.Fprint(stdout, usage())
			return nil
		}
		if len(rest) == 1 && rest[0] != "view" {
			rest = append(rest, "othello")
		}
		return run(ctx, append(rest, "-h"), stdout, stderr)
	case "view":
		return viewCmd(ctx, rest, stdout, stderr)
	case "match", "tournament", "serve", "bot":
	default:
		fmt.Fprint(stderr, usage())
		return fmt.Errorf("unknown command %q (commands: match, tournament, serve, view, bot, help)", cmd)
	}
	if len(rest) == 0 || strings.HasPrefix(rest[0], "-") {
		return fmt.Errorf("%s: name the game (games: %s)", cmd, gameNames())
	}
	def, err := findGame(rest[0])
	if err != nil {
		return fmt.Errorf("%s: %w", cmd, err)
	}
	rest = rest[1:]
	switch cmd {
	case "serve":
		if def.Serve == nil {
			return fmt.Errorf("serve: %s has no server: its platforms run the programs themselves; use arena match or arena tournament (servers: %s)", def.Name, servedGames())
		}
		return def.Serve(ctx, rest, stdout, stderr)
	case "bot":
		if len(rest) == 0 || strings.HasPrefix(rest[0], "-") {
			return fmt.Errorf("bot %s: name the bot (built-in: %s)", def.Name, strings.Join(def.Builtins, ", "))
		}
		if def.Bot == nil {
			return fmt.Errorf("bot %s: not available", def.Name)
		}
		if code := def.Bot(ctx, rest[0], rest[1:], os.Stdin, stdout, stderr); code != 0 {
			return exitCode(code)
		}
		return nil
	case "tournament":
		err = runTournament(ctx, def, rest, stdout, stderr)
	default:
		err = runMatch(ctx, def, rest, stdout, stderr)
	}
	if err != nil && !errors.Is(err, flag.ErrHelp) && !errors.Is(err, errInterrupted) {
		return fmt.Errorf("%s %s: %w", cmd, def.Name, err)
	}
	return err
}

// servedGames lists the games arena serves.
func servedGames() string {
	var names []string
	for _, d := range gameDefs() {
		if d.Serve != nil {
			names = append(names, d.Name)
		}
	}
	return strings.Join(names, ", ")
}

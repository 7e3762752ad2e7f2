package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"syscall"

	"github.com/botarena/botarena/internal/proc"
	"github.com/botarena/botarena/protocol/permove"
)

// version is the botarena version the servers announce and "arena
// version" prints first.
const version = "0.1.0"

func main() {
	// The processes that programs leave orphaned become arena's (on Linux),
	// so that the end of each game kills and reaps them.
	if err := proc.Subreaper(); err != nil && !errors.Is(err, errors.ErrUnsupported) {
		fmt.Fprintln(os.Stderr, "arena: warning:", err)
	}
	// SIGHUP too: closing the terminal or the SSH session arena runs in
	// ends it as Ctrl-C does, with its programs.
	signalled, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	// The first signal cancels the context, and arena ends its games and
	// writes what they left; from then on the signals have their default
	// action again, so that a second one ends arena at once, whatever it is
	// doing (its programs die with it).
	go func() {
		<-signalled.Done()
		stop()
	}()
	ctx := context.WithValue(signalled, programStartKey{}, permove.ProgramStart())
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
	case errors.Is(err, errNeverStarted):
		// The games were played and reported; a program that never ran
		// is a mistake in the command line worth a failing status.
		fmt.Fprintln(os.Stderr, "arena:", err)
		os.Exit(1)
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
  arena match <game> [flags] [player player]           games between two players (default: two built-in bots)
  arena tournament <game> [flags] player player ...    a round robin, games in parallel (-j), or one shard of it (-shard I/N)
  arena merge [-out DIR] SHARD_DIR...                  join the shards of a tournament into its whole run and table
  arena serve <game> [flags]                           the platform's server, for its existing clients
  arena view [-web addr] [record files or dirs...]     the web viewer, to replay record files
  arena bot <game> <name> [args...]                    a built-in bot as a program speaking the game's interface
  arena train othello [-seed S] [-games N] [-out FILE] the weights of the best Othello bot, by self-play
  arena help [command [game]]                          the flags of a command
  arena version                                        arena's version and the revision it was built from
  arena help results                                   how games end: the words of result lines and results.tsv

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

// commandNames lists the commands, for errors.
const commandNames = "match, tournament, merge, serve, view, bot, train, help, version"

// versionText is what "arena version" prints: arena's version, then the
// module's version, the VCS revision (with its time, and "modified" for a
// work tree with changes) and the Go version, as the build recorded them.
func versionText() string {
	var b strings.Builder
	b.WriteString("arena " + version)
	info, ok := debug.ReadBuildInfo()
	if !ok {
		b.WriteString(" (no build information)")
		return b.String()
	}
	mod := info.Main.Version
	if mod == "" {
		mod = "(devel)"
	}
	fmt.Fprintf(&b, "\nmodule %s %s", info.Main.Path, mod)
	var rev, at string
	modified := false
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			at = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	switch {
	case rev == "":
		b.WriteString("\nrevision unknown (built without version control information)")
	default:
		fmt.Fprintf(&b, "\nrevision %s", rev)
		if at != "" {
			fmt.Fprintf(&b, " (%s)", at)
		}
		if modified {
			b.WriteString(", modified")
		}
	}
	fmt.Fprintf(&b, "\n%s %s/%s", info.GoVersion, runtime.GOOS, runtime.GOARCH)
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
	if helpRequested(rest) {
		stderr = stdout // help is asked for: it goes to standard output
	}
	switch cmd {
	case "help", "-h", "-help", "--help":
		return help(ctx, rest, stdout, stderr)
	case "version", "-version", "--version":
		if len(rest) > 0 {
			return fmt.Errorf("version: unexpected argument %q", rest[0])
		}
		fmt.Fprintln(stdout, versionText())
		return nil
	case "view":
		if err := viewCmd(ctx, rest, stdout, stderr); err != nil && !errors.Is(err, flag.ErrHelp) && !strings.HasPrefix(err.Error(), "view: ") {
			return fmt.Errorf("view: %w", err)
		} else if err != nil {
			return err
		}
		return nil
	case "merge":
		if err := runMerge(ctx, rest, stdout, stderr); err != nil && !errors.Is(err, flag.ErrHelp) {
			return fmt.Errorf("merge: %w", err)
		} else if err != nil {
			return err
		}
		return nil
	case "train":
		return runTrain(ctx, rest, stdout, stderr)
	case "match", "tournament", "serve", "bot":
	default:
		fmt.Fprint(stderr, usage())
		return fmt.Errorf("unknown command %q (commands: %s)", cmd, commandNames)
	}
	if (cmd == "match" || cmd == "tournament") && len(rest) > 0 && isResumeFlag(rest[0]) {
		// "arena tournament -resume DIR": the game is the run's.
		game, err := resumedGame(rest)
		if err != nil {
			return fmt.Errorf("%s: %w", cmd, err)
		}
		rest = append([]string{game}, rest...)
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
		if err := def.Serve(ctx, rest, stdout, stderr); err != nil && !errors.Is(err, flag.ErrHelp) && !errors.Is(err, errInterrupted) {
			return fmt.Errorf("serve %s: %w", def.Name, err)
		}
		return nil
	case "bot":
		if len(rest) == 0 || strings.HasPrefix(rest[0], "-") {
			return fmt.Errorf("bot %s: name the bot (built-in: %s)", def.Name, strings.Join(def.Builtins, ", "))
		}
		if def.Bot == nil {
			return fmt.Errorf("bot %s: not available", def.Name)
		}
		if !slices.Contains(def.Builtins, rest[0]) && !helpRequested(rest) {
			return fmt.Errorf("bot %s: unknown bot %q (built-in: %s)", def.Name, rest[0], strings.Join(def.Builtins, ", "))
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

// helpRequested reports whether args ask for help: -h, -help or --help
// before a "--".
func helpRequested(args []string) bool {
	for _, a := range args {
		switch a {
		case "--":
			return false
		case "-h", "-help", "--help", "--h":
			return true
		}
	}
	return false
}

// help carries out "arena help [command [game]]": the usage of arena, or of
// a command for a game (othello when none is named), on stdout, with a nil
// error. Asked for help on what does not exist, it writes the usage on
// stderr and returns the error, as a command line arena cannot read does.
func help(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] == "help" {
		fmt.Fprint(stdout, usage())
		return nil
	}
	cmd := args[0]
	if cmd == "results" {
		fmt.Fprint(stdout, endingsHelp)
		return nil
	}
	line := []string{cmd}
	switch cmd {
	case "view", "merge", "train":
	case "match", "tournament", "serve", "bot":
		game := "othello"
		if len(args) > 1 {
			game = args[1]
		} else {
			fmt.Fprintf(stdout, "(the flags for othello; \"arena help %s <game>\" for another game: %s)\n\n", cmd, gameNames())
		}
		def, err := findGame(game)
		if err != nil {
			return fmt.Errorf("help %s: %w", cmd, err)
		}
		if cmd == "serve" && def.Serve == nil {
			fmt.Fprintf(stdout, "%s has no server: its platforms run the programs themselves; use arena match or arena tournament (servers: %s)\n", def.Name, servedGames())
			return nil
		}
		line = append(line, game)
		if cmd == "bot" {
			line = append(line, "NAME")
		}
	case "version":
		fmt.Fprintln(stdout, "usage: arena version\n\nPrints arena's version, the module's version and the revision it was built from.")
		return nil
	default:
		fmt.Fprint(stderr, usage())
		return fmt.Errorf("help: unknown command %q (commands: %s)", cmd, commandNames)
	}
	if err := run(ctx, append(line, "-h"), stdout, stdout); err != nil && !errors.Is(err, flag.ErrHelp) {
		return err
	}
	return nil
}

// isResumeFlag reports whether arg is -resume (with or without its value).
func isResumeFlag(arg string) bool {
	name, _, _ := strings.Cut(strings.TrimLeft(arg, "-"), "=")
	return strings.HasPrefix(arg, "-") && name == "resume"
}

// resumedGame returns the game of the run that "-resume DIR" (or
// -resume=DIR) at the start of args names.
func resumedGame(args []string) (string, error) {
	dir := ""
	if _, v, ok := strings.Cut(args[0], "="); ok {
		dir = v
	} else if len(args) > 1 {
		dir = args[1]
	}
	if dir == "" {
		return "", errors.New("-resume: give the directory of the run to go on with")
	}
	rec, err := readRunRecord(dir)
	if err != nil {
		return "", fmt.Errorf("-resume: %w", err)
	}
	return rec.Game, nil
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

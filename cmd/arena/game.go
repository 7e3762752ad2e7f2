package main

import (
	"context"
	"errors"
	"flag"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"os/exec"
	"syscall"
	"time"

	"github.com/botarena/botarena/internal/proc"
	"github.com/botarena/botarena/viewer"
)

// A gameDef is everything arena knows about one game: its players, its
// options and its server (package viewer reads and draws its records). Each
// game fills one in its own file (othello.go, geister.go, darkchess.go,
// pdd.go); gameDefs lists them.
type gameDef struct {
	// Name is the game's name on the command line: othello, geister,
	// darkchess, pdd.
	Name string
	// Title is the game's name in print: "Othello", "Geister", ...
	Title string
	// Builtins are the built-in players' names, "random" first, then the
	// stronger ones. Each is written with the public API only.
	Builtins []string
	// Protocols are the interfaces an external program may speak, as the
	// prefix of a player spec ("tcp:./bot"); the first is the one used for
	// a spec that names a program without a prefix.
	Protocols []string
	// ProgramHelp says, for "arena help match <game>", how arena starts a
	// program of each protocol and what it gives it (a server's host and
	// port, files, arguments).
	ProgramHelp string
	// Defaults are the two players of "arena match <game>" with none named.
	Defaults [2]string
	// Seats names the two seats, the first mover's first: "black",
	// "white" (Othello), "first", "second" (Geister), ...
	Seats [2]string
	// Presets are the rule presets accepted by -rules, the default first.
	Presets []string
	// DefaultTime is the time control of a match in timer's text form when
	// -time is not given.
	DefaultTime string
	// HumanTime, when not "", is the time control of a match with a
	// person in it (player "human") when -time is not given: the
	// platform's own control is too short for a person.
	HumanTime string
	// Flags, when not nil, registers the game's own match flags (PDD's -eol,
	// say) on the flag set of "arena match" and "arena tournament"; NewRunner
	// reads their values. gameDefs makes a new gameDef per call, so the
	// values may live in the closure.
	Flags func(fs *flag.FlagSet)
	// Serve runs the platform's server ("arena serve <game>"), nil if the
	// game has none.
	Serve func(ctx context.Context, args []string, stdout, stderr io.Writer) error
	// NewRunner checks the match options that belong to the game (rules
	// preset, time control, ply limit, start record) and returns the runner
	// that plays its games. It is called once per match or tournament.
	NewRunner func(cfg *matchConfig) (runner, error)
	// Bot runs a built-in player as a program speaking the game's program
	// interface ("arena bot <game> <name> [args]"), so that a referee that
	// only runs programs can run it too, and so that a user can point a
	// built-in at a real server. It returns the process exit code.
	Bot func(ctx context.Context, name string, args []string, stdin io.Reader, stdout, stderr io.Writer) int
}

// gameDefs returns every game arena plays, in the order they are listed.
func gameDefs() []*gameDef {
	return []*gameDef{othelloDef(), geisterDef(), darkchessDef(), pddDef()}
}

// A runner plays games of one game kind with the options of one match or
// tournament. Play is called from several goroutines at once by a tournament
// with -j > 1: every game must use its own sockets, processes and directory.
type runner interface {
	// Play plays one game to its end, or until ctx is done (then the result
	// is unfinished: Winner -2). It never returns a player's misbehaviour as
	// an error: a program that is missing, crashes, hangs or talks nonsense
	// loses the game, with the reason in the result and the record, and it
	// has been reaped when Play returns. Err in the result is for the arena's
	// own failures (a record that cannot be written, no free port).
	Play(ctx context.Context, job *gameJob) gameResult
}

// matchConfig holds the options of a match or tournament that every game
// shares. The game's NewRunner reads what it needs.
type matchConfig struct {
	run      *runDir // the run's directory, held open; nil outside a match or tournament (merge)
	Game     *gameDef
	Players  []*playerSpec // two for a match, two or more for a tournament
	Games    int           // games per pairing
	Swap     bool          // swap who moves first after each game (先後互換)
	Time     string        // the -time control in timer's text form; "" means Game.DefaultTime
	Rules    string        // the -rules preset; "" means the game's default (Presets[0])
	MaxPlies int           // the -plies limit; 0 means the preset's
	Start    string        // -start: a record file to start every game from, "" for the start position
	Seed     uint64        // the match seed (never 0 here: arena draws one when none is given)
	Startup  time.Duration // -startup: how long a program has to start, connect and finish its handshake; 0 (a test's config) means defaultStartup
	Out      string        // the directory of this run's records
	Verbose  bool          // -v: log the hosts' and referees' events to stderr
	Stderr   io.Writer     // where logs go

	// Openings is -openings: a file of start positions, one a line, played
	// once with each colour (openings.go); "" for none.
	Openings string
	// OpeningsOrder is -openings-order: sequential (the file's order) or
	// random (shuffled by Seed).
	OpeningsOrder string
	// openings is the -openings file read and checked by loadOpenings, nil
	// for none.
	openings *openingSet
}

// playerSpec is one player of a match as given on the command line: a
// built-in bot ("random") or an external program with its interface
// ("mgtp:./engine --depth 3", or a bare path for the game's first protocol).
type playerSpec struct {
	Spec     string   // as given on the command line
	Name     string   // the name in results and records: the built-in's name or the program's base name, made unique within the match
	Builtin  string   // the built-in bot, "" for a program
	Protocol string   // the program's interface (one of gameDef.Protocols), "" for a built-in
	Command  []string // the program and its arguments, split on blanks
	Human    bool     // a person plays, on the web viewer's seat page (human.go)
}

// gameJob is one game to play.
type gameJob struct {
	N     int            // the game's number in the run, from 1
	Index int            // the game's index within its pairing, from 0 (game 2i and 2i+1 are a pair with the seats swapped)
	Seats [2]*playerSpec // Seats[0] moves first (or plays the first seat)
	Seed  uint64         // the pairing's seed, derived from the match seed; every game of a pairing has it: built-ins are seeded by botSeed, and dark chess deals from rand.NewPCG(Seed, Index/2), so games 2i and 2i+1 share a deal with the seats swapped
	Dir   string         // a directory of its own, already made, for the game's record files
	ID    string         // the game's id in the web viewer
	Watch viewer.Watcher // never nil
	Log   *slog.Logger   // never nil
	// Root is Dir, opened through the run's directory while the game is
	// played (nil where a runner is called on its own): arena's files in
	// the game's directory go through it (writeGameFile), so that a
	// program that swaps the directory for a symlink does not take them
	// elsewhere.
	Root *os.Root

	// Web is where persons play (the seat pages of -web), nil without
	// -web: a game with a person in it then cannot start (human.go).
	Web *webSeats

	// Opening is where the game starts, from -openings (assignOpenings):
	// games 2i and 2i+1 of a pairing, the seats swapped, share one. Nil for
	// none: the game starts from the rules' start or -start.
	Opening *opening
}

// botSeed is the seed of the built-in player in seat of the game (0 for
// Seats[0]). It mixes the pairing's seed (itself from the match seed and the
// pairing), the game's index within its pairing and the seat, so that every
// game of a pairing is another game (two copies of one bot included) and the
// same -seed plays the same games again. The runners of the four games take
// their built-ins' seeds from here alone; it is never 0.
func (j *gameJob) botSeed(seat int) uint64 {
	return splitmix64(j.Seed^splitmix64(uint64(j.Index)<<1|uint64(seat&1))) | 1
}

// splitmix64 is SplitMix64's finaliser: a bijection that spreads every
// input bit over the whole output, so that nearby inputs (indices 0, 1, 2)
// give unrelated seeds.
func splitmix64(x uint64) uint64 {
	x += 0x9E3779B97F4A7C15
	x = (x ^ x>>30) * 0xBF58476D1CE4E5B9
	x = (x ^ x>>27) * 0x94D049BB133111EB
	return x ^ x>>31
}

// gameResult is the outcome of one game.
type gameResult struct {
	Winner int      // 0: Seats[0] won, 1: Seats[1] won, -1: a draw, -2: unfinished (interrupted; no result)
	Ending ending   // how it ended, in arena's words for every game (endNone for an unfinished game)
	Reason string   // the platform's word for how it ended ("discs", "ChessEscape", "NoEatFlipDraw", a violation, ...), as its record writes it
	Detail string   // a short human text: the score, the fault ("program not found: ./bot"), ...
	Plies  int      // plies played
	Record string   // the main record file written ("" if none)
	Faults [2]fault // per seat, what its program did wrong (the zero fault for nothing)
	// Fallbacks counts, per seat, the moves its program played in its
	// player's place when the player's deadline passed (or it failed), as
	// the program reported them (PDD's strategy runner): moves that count
	// in the game but that the player did not choose.
	Fallbacks [2]int
	Err       error // the arena's own failure, not a player's
}

// A faultKind is what a program did wrong, in the same words for the four
// games, whatever each platform calls it (the platform's word is the
// result's Reason). Each kind's word is the ending it gives the game
// ([faultKind.ending]).
type faultKind uint8

// The fault kinds. A program's fault is exactly one of them.
const (
	noFault       faultKind = iota
	faultStart              // could not start: missing, not executable, not a program
	faultCrash              // crashed: died by a signal or exited with a non-zero status during its game
	faultTimeout            // timed out: no answer within its time (to start, connect, hand-shake or move)
	faultIllegal            // illegal move: a well-formed move the rules forbid
	faultProtocol           // broke the protocol: garbage, a wrong command, closed its connection or its output, or exited with status 0, before the end
)

// String returns the kind in the words arena prints, its ending's: "start
// failure", "crash", "time", "illegal move", "protocol error" ("" for
// noFault).
func (k faultKind) String() string { return k.ending().String() }

// A fault is what a program did wrong in a game: its kind and, in a few
// words, what happened ("program not found: ./bot", "exit status 2; stderr:
// panic: ...", "sent \"MOV:Z,UP\"").
type fault struct {
	Kind   faultKind
	Reason string
}

// String writes the fault as arena prints it after the player's name:
// "start failure, program not found: ./bot"; "" for no fault.
func (f fault) String() string {
	switch {
	case f.Kind == noFault:
		return ""
	case f.Reason == "":
		return f.Kind.String()
	}
	return f.Kind.String() + ", " + f.Reason
}

// startFault is the fault of a program at path that could not be started
// with err (one wrapping proc.ErrStart, or exec.LookPath's), in the words
// of its cause.
func startFault(path string, err error) fault {
	why := func() string {
		switch {
		case errors.Is(err, exec.ErrNotFound), errors.Is(err, fs.ErrNotExist):
			return "program not found: " + path
		case errors.Is(err, fs.ErrPermission):
			return "program not executable: " + path
		case errors.Is(err, syscall.ENOEXEC):
			return "not a program this machine can run: " + path
		case errors.Is(err, syscall.ENOTDIR):
			return "program not found (a path through a file): " + path
		}
		// The innermost cause, without the layers that all say "could
		// not be started".
		for {
			next := errors.Unwrap(err)
			if next == nil {
				return path + ": " + err.Error()
			}
			err = next
		}
	}
	return fault{Kind: faultStart, Reason: why()}
}

// exitFault is the fault of a program that ended by itself before its game
// did, as the process result says: crashed (a signal, a non-zero status) or
// disconnected (status 0). The last line of its standard error, if any, is
// added to the reason.
func exitFault(st proc.Result, what string) fault {
	f := fault{Kind: faultCrash, Reason: st.Status}
	if st.ExitCode == 0 {
		f = fault{Kind: faultProtocol, Reason: "exited with status 0"}
	}
	if what != "" {
		f.Reason = what + " (" + f.Reason + ")"
	}
	if tail := lastLine(st.Stderr); tail != "" {
		f.Reason += "; stderr: " + tail
	}
	return f
}

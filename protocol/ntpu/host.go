package ntpu

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"strings"
	"time"

	"github.com/botarena/botarena/geister"
	"github.com/botarena/botarena/protocol/gat"
	"github.com/botarena/botarena/record"
	"github.com/botarena/botarena/timer"
)

// ConnectMode is how the NTPU launcher talks to a player's program
// (連接模式).
type ConnectMode uint8

const (
	// STDIOMode speaks the protocol over the program's standard input
	// and output. It is the zero value.
	STDIOMode ConnectMode = iota
	// TCPMode starts the program with two more arguments, the IP
	// address and the port the host listens on, and speaks the Java
	// server's protocol over the connection the program makes there.
	TCPMode
)

// String returns "stdio" or "tcp".
func (m ConnectMode) String() string {
	switch m {
	case STDIOMode:
		return "stdio"
	case TCPMode:
		return "tcp"
	}
	return fmt.Sprintf("ConnectMode(%d)", uint8(m))
}

// Program is a player's program, as the NTPU launcher's AI path (AI
// 路徑) and AI arguments (AI 參數) describe it.
type Program struct {
	// Name names the player in the record; "" means the program file's
	// base name. It must not hold white space, and has at most 200 bytes.
	Name string
	// Path is the program. A name without a path separator is looked up in
	// PATH.
	Path string
	// Args are its arguments. In TCP mode the host appends the IP address
	// and the port to listen on. [SplitArgs] splits the launcher's
	// one-line argument field.
	Args []string
	// Dir is the working directory; "" means the program's own directory
	// when Path holds a path separator (the launcher's way), else the
	// host's.
	Dir string
	// Env is the environment; nil means the host's.
	Env []string
	// Mode is the connect mode: STDIOMode (the zero value) or
	// TCPMode.
	Mode ConnectMode

	// Player, when not nil, is a player that runs in the host's own
	// process instead of a program (a person's seat, say): the host starts
	// it with [STDIO.Serve] on an in-memory pipe each way and talks to it
	// in STDIO mode, so that every message it sends is checked as a
	// program's, on the same clock. Path, Args, Dir, Env and Mode are then
	// ignored. Its ctx ends when the game does (its result is sent first
	// when it can be), and at the latest when ExitGrace has passed after
	// that. A Setup or Play that returns an error wrapping [ErrResign]
	// resigns the game (the player loses by geister.Resign); any other
	// error ends it as a program's exit would (Disconnect).
	Player geister.Player
}

// ErrResign is the error an in-process player's Setup or Play returns,
// wrapped or not, to resign: the player loses the game by geister.Resign.
var ErrResign = errors.New("ntpu: the player resigns")

// SplitArgs splits the launcher's argument field as our hosts do:
// at white space, a pair of double quotes grouping what is
// between them (the quotes are removed). An unterminated quote runs to the
// end.
func SplitArgs(s string) []string {
	var args []string
	var cur strings.Builder
	in, have := false, false
	for _, r := range s {
		switch {
		case r == '"':
			in, have = !in, true
		case !in && (r == ' ' || r == '\t' || r == '\n' || r == '\r'):
			if have {
				args = append(args, cur.String())
				cur.Reset()
				have = false
			}
		default:
			cur.WriteRune(r)
			have = true
		}
	}
	if have {
		args = append(args, cur.String())
	}
	return args
}

// The NTPU hosts' defaults.
const (
	geisterNTPUSetupTimeout   = 60 * time.Second
	geisterNTPUConnectTimeout = 10 * time.Second
	geisterNTPUExitGrace      = 2 * time.Second
	geisterNTPUWriteTimeout   = 5 * time.Second
)

// Host referees one Geister game at a time between two programs
// run as the NTPU platform's launcher runs them: in STDIO mode
// (the protocol on the program's standard input and output) or in TCP mode
// (the program started with the host's address, connecting back). The
// messages are the Java server's, each program in its own frame.
//
// A game: both programs are started, each in its own process group; SET? is
// sent to both; each SET: (four distinct letters A-H) is answered OK, any
// other line NG, and the player may try again, until SetupTimeout. Then the
// side to move gets MOV? and its view, its clock runs from the moment the
// MOV? is written until its command has been read, and a legal MOV: is
// answered OK, OKR or OKB (OK for an escape). Anything else from the side to
// move (a malformed line, an illegal move, a line over [gat.MaxLine]
// bytes) gets NG, and under the rules' geister.Lose policy (the NTPU
// default) loses the game; under geister.Retry the same player must send
// another move, on the same clock. Blank lines are ignored everywhere. A
// STDIO-mode program may talk on its standard output, as the launcher shows
// it in its window: while a command is awaited, a line that does not begin
// with SET: or MOV: is logged and skipped, and the clock runs on. A line
// from the player not to move is logged and dropped in STDIO mode and gets
// NG in TCP mode (the Java server's rule). A program whose time runs
// out loses (TimeOut); one that closes its output, exits or, in TCP mode,
// does not connect within ConnectTimeout or closes the connection before its
// result, loses (Disconnect) (if neither TCP-mode program connects, the game
// is abandoned without a result); during setup, one that has not set its reds
// when the other has, by SetupTimeout, loses on time, and if neither has set
// the game is abandoned without a result.
//
// At the end each program still connected gets its result, WON:, LST: or
// DRW: and the final board with every colour, and in STDIO mode "/exit"; in
// TCP mode the host half-closes the connection. A program gets ExitGrace to
// exit by itself and is then killed with every process of its group; one
// that lost on time is killed at once. The host always waits for both
// programs (they are reaped) before Play returns, so no game outlives it.
//
// A player may also run in the host's own process (Program.Player): the
// host then talks to it in STDIO mode over in-memory pipes, under the same
// checks and clock, and it may resign ([ErrResign]).
//
// Configure the fields before calling Play. The zero Host is a
// working host: the NTPU rules (200 plies, an illegal move loses), no time
// limit, a 60 s setup timeout. A host holds only settings: one host may run
// several games at once.
type Host struct {
	// Rules are the rules of the game; the zero value means geister.NTPU.
	Rules geister.Rules

	// Time is each player's clock (timer.NTPU builds it from the
	// launcher's fields; the launcher's default is timer.NTPU("Absolute",
	// 900*time.Second, 0, 0)). The zero Control sets no limit.
	Time timer.Control

	// SetupTimeout is how long the players have to set their red ghosts,
	// from the SET? (sent once both programs have started, and in TCP mode
	// connected). Zero means 60 s.
	SetupTimeout time.Duration

	// ConnectTimeout is how long a TCP-mode program has to connect after it
	// was started. Zero means 10 s.
	ConnectTimeout time.Duration

	// ExitGrace is how long a program has to exit by itself after its
	// result. Zero means 2 s.
	ExitGrace time.Duration

	// CRLF ends every line written to a STDIO-mode program with "\r\n",
	// as the Java server does, instead of "\n". TCP mode always uses
	// "\r\n".
	CRLF bool

	// Start, when not nil, is a mid-game file (中盤檔案) the game
	// starts from: its recorded moves are replayed, the game goes on from
	// there and the ply limit counts them. The players are still asked
	// for SET:; where the file gives a side's red set, a well-formed SET:
	// is answered OK and its letters are ignored; where it does not, the
	// SET: must fit the file's captures, counts and moves, or it gets NG.
	Start *record.GeisterBoard

	// BoardFile, when set, writes board.txt (the opponent's
	// reds "-") into each program's directory before each of its plies, as
	// the NTPU platform does for programs that read the position from it.
	BoardFile bool

	// Logger receives the host's log: the programs, every command at
	// Debug, the lines skipped or dropped (at most proc.LogLimit bytes of
	// them per program), the result, and each program's standard error
	// when it ends. Nil discards it.
	Logger *slog.Logger

	// Clocks, when not nil, are the players' clocks as the game begins
	// (the first player's first), as a [timer.Snapshot] gave them, instead
	// of the control's fresh ones: a game played on from Start after a
	// take-back goes on with the time each side had left (see
	// [timer.NewClockFrom]). Time must be set.
	Clocks *[2]timer.PlayerState

	// OnPly, when not nil, is called from the goroutine that runs Play when
	// play begins (both red sets accepted; Move is geister.NoMove, Position
	// the start, a mid-game file's moves played) and after every accepted
	// move, once the move has been judged (the event carries the result if
	// the move ended the game) and before the players are told of it: a
	// live viewer draws the game from it. It must return quickly; the game
	// waits for it. Endings without a move (a time out, a disconnect, an
	// illegal move) are not plies: Play's result has them.
	OnPly func(gat.PlyEvent)
}

// StartError is the error of [Host.Play] for a program
// that could not be started: missing, not executable, not a program. The
// other program is then stopped (or never started), and no game is played.
type StartError struct {
	Side geister.Color // whose program it is
	Path string        // the program, as Program.Path gave it
	Err  error         // why it could not be started
}

// Error names the side, the program and the cause.
func (e *StartError) Error() string {
	return fmt.Sprintf("ntpu: geister ntpu: the %s player's program %s: %v", e.Side, e.Path, e.Err)
}

// Unwrap returns Err.
func (e *StartError) Unwrap() error { return e.Err }

// Game is a game a [Host] refereed.
type Game struct {
	// Result is the outcome; Reason is geister.Unfinished for a game
	// abandoned in setup (neither player set its reds in time) or cut
	// short by Play's ctx.
	Result geister.Result
	// Record is the game as a board.txt: names, the initial
	// board, the moves (a mid-game start's included), the result, the
	// timestamps, the captures and both red sets.
	Record *record.GeisterBoard
	// Final is the last position, the zero Position if play never began.
	Final geister.Position
	// Players tells how each program fared, the first player's first.
	Players [2]ProgramRun
	// Began and Ended are when the programs were started and when the
	// result was known.
	Began, Ended time.Time
	// Clock is the players' clocks when play ended: at the result, or,
	// for a game cut short by Play's ctx, at that moment, the ply in
	// progress counted as [timer.Snapshot] counts it (Host.Clocks takes
	// its Players to play on). The zero Snapshot without a time control or
	// when play never began.
	Clock timer.Snapshot
}

// ProgramRun is how a program fared in a [Game].
type ProgramRun struct {
	// Name is the player's name in the record.
	Name string
	// Fault says what the program did that lost the game or broke the
	// protocol ("" for nothing): the bad command, the silence, the exit.
	Fault string
	// FaultErr is the error behind a refused move's Fault: it wraps
	// [geister.ErrIllegalMove] for a well-formed move the rules forbid,
	// and is a *[geister.SyntaxError] or another error for a line that is no
	// move at all (garbage, another command), so that errors.Is tells an
	// illegal move from a protocol error. Nil for the other faults.
	FaultErr error
	// TimedOut reports that the fault was silence: no move, no red
	// ghosts or no connection in time.
	TimedOut bool
	// Status is how the program ended, as os.ProcessState says it: "exit
	// status 0", "signal: killed"; ExitCode is -1 after a signal.
	Status   string
	ExitCode int
	// Killed reports that the host killed the program's process group: its
	// time ran out, it did not exit within ExitGrace after its result, or
	// Play's ctx ended.
	Killed bool
	// Stderr is what the program wrote to its standard error, at most
	// 256 KiB of it (internal/proc.LogLimit): the start and the end, with a
	// "[truncated N bytes]" line between when bytes were dropped;
	// StderrDropped counts those.
	Stderr        []byte
	StderrDropped int64
	// Dropped counts the non-blank lines the host read from the program
	// while it awaited nothing from it (STDIO mode) or after its result.
	Dropped int
	// Skipped counts the non-blank lines of a STDIO-mode program's output
	// that were not commands, skipped while the host awaited one. The
	// skipped and dropped lines go to the Logger, at most proc.LogLimit
	// bytes of them (the head and the tail).
	Skipped int
}

// check rejects settings that make no sense.
func (h *Host) check(programs [2]Program) error {
	switch {
	case h.SetupTimeout < 0:
		return fmt.Errorf("ntpu: Host.SetupTimeout %v is negative", h.SetupTimeout)
	case h.ConnectTimeout < 0:
		return fmt.Errorf("ntpu: Host.ConnectTimeout %v is negative", h.ConnectTimeout)
	case h.ExitGrace < 0:
		return fmt.Errorf("ntpu: Host.ExitGrace %v is negative", h.ExitGrace)
	case h.Rules.PlyLimit < 0:
		return fmt.Errorf("ntpu: Host.Rules.PlyLimit %d is negative", h.Rules.PlyLimit)
	}
	if err := h.Time.Validate(); err != nil {
		return fmt.Errorf("ntpu: Host.Time: %w", err)
	}
	if h.Clocks != nil && h.Time.Unlimited() {
		return errors.New("ntpu: Host.Clocks without a time control (Host.Time)")
	}
	for i, p := range programs {
		if p.Player != nil {
			if strings.ContainsAny(p.Name, " \t\r\n\v\f") || len(p.Name) > 200 {
				return fmt.Errorf("ntpu: the %s player's name %q holds white space or is over 200 bytes", geister.Color(i), p.Name)
			}
			continue
		}
		if p.Path == "" {
			return fmt.Errorf("ntpu: the %s player's Program has no Path", geister.Color(i))
		}
		if p.Mode > TCPMode {
			return fmt.Errorf("ntpu: the %s player's program has an unknown mode %d", geister.Color(i), p.Mode)
		}
		if strings.ContainsAny(p.Name, " \t\r\n\v\f") || len(p.Name) > 200 {
			return fmt.Errorf("ntpu: the %s player's name %q holds white space or is over 200 bytes", geister.Color(i), p.Name)
		}
		if h.BoardFile && ntpuProgramDir(p) == "" {
			return fmt.Errorf("ntpu: BoardFile needs a directory for the %s player's program %q", geister.Color(i), p.Path)
		}
	}
	if h.Start != nil {
		var err error
		if h.Start.ColorsKnown() {
			_, err = h.Start.StartPosition([2]geister.Reds{})
		} else {
			// Some red sets must fit, or no SET ever will.
			_, err = h.Start.MidGame(len(h.Start.Moves))
		}
		if err != nil {
			return fmt.Errorf("ntpu: Host.Start: %w", err)
		}
	}
	return nil
}

// ntpuProgramDir is the directory a program runs in.
func ntpuProgramDir(p Program) string {
	if p.Dir != "" {
		return p.Dir
	}
	if strings.ContainsRune(p.Path, filepath.Separator) || strings.ContainsRune(p.Path, '/') {
		if abs, err := filepath.Abs(p.Path); err == nil {
			return filepath.Dir(abs)
		}
	}
	return ""
}

// ntpuProgramName is a program's name in the record.
func ntpuProgramName(p Program, c geister.Color) string {
	if p.Name != "" {
		return p.Name
	}
	if p.Player != nil {
		return c.String()
	}
	name := strings.Map(func(r rune) rune {
		if strings.ContainsRune(" \t\r\n\v\f", r) {
			return '_'
		}
		return r
	}, filepath.Base(p.Path))
	if name == "" || name == "." || name == string(filepath.Separator) {
		return c.String()
	}
	return name
}

// Play runs one game between the programs first and second and returns it.
//
// The error is for a game that could not be held: settings that make no
// sense, a program that could not be started (a *StartError; the
// other is then stopped), or ctx ending, which kills both programs; the game so far comes with it.
// Whatever a program does in the game costs it only the game.
func (h *Host) Play(ctx context.Context, first, second Program) (*Game, error) {
	if h == nil {
		h = &Host{}
	}
	programs := [2]Program{first, second}
	if err := h.check(programs); err != nil {
		return nil, err
	}
	g := newNTPUGame(h, programs)
	return g.run(ctx)
}

package mgtp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"slices"
	"time"

	"github.com/botarena/botarena/darkchess"
	"github.com/botarena/botarena/internal/proc"
	"github.com/botarena/botarena/protocol"
)

// DefaultQuitWait is how long a [Seat] waits for an engine to exit after
// quit before it kills its process group.
const DefaultQuitWait = 2 * time.Second

// replyBuffer bounds the replies read ahead of the one awaited.
const replyBuffer = 64

// goneGrace is how long a seat whose engine closed its output (or input)
// waits for the process to exit, to tell a crash from a disconnection.
const goneGrace = time.Second

// Program is an MGTP engine program, as the host side runs it: one process
// per game, started as Path with Args in Dir, in its own process group,
// its standard input and output piped. [Program.Seat] gives a
// seat for one game under a protocol.DarkChessReferee:
//
//	ref := protocol.DarkChessReferee{FreeFirstPly: true}
//	a := mgtp.Program{Path: "./engine-a"}
//	b := mgtp.Program{Path: "./engine-b"}
//	rec, err := ref.Play(ctx, darkchess.NewGame(darkchess.NTU2021, rng), [2]protocol.DarkChessSeat{a.Seat(), b.Seat()})
//
// The seat sends exactly the commands of the 2021 system: the
// handshake "1 name", "2 version", "7 reset_board", "15 time_setting <ms>",
// "14 ready"; "12 genmove <colour>" on the engine's turn; after every ply,
// its own included, "10 move <src> <dst>" or "11 flip <sq> <piece>" and
// "16 time_left <mover's colour> <mover's ms>"; "5 quit" at the end. Under
// a control other than the 2021 system's 900 s sudden death, and in a game
// resumed mid-way, the handshake also tells both clocks, "16 time_left red
// <ms>" and "16 time_left black <ms>", before ready: a 2021-template engine
// plans a 900 s game until it hears one. It waits for the reply to each
// command, skipping (and logging to Output) every other line the engine
// prints, replies with another id included.
//
// Faults: a handshake command unanswered within the referee's
// handshake timeout, a genmove unanswered by the mover's deadline, an echo
// unanswered within its tell timeout, an engine that exits or closes its
// output: TimeOut (of kind protocol.DarkChessTimedOut, protocol.DarkChessCrashed,
// or protocol.DarkChessDisconnected for an engine that closed its output and lives
// on). A genmove answered "?12" or with anything but two squares: BadMove
// (an illegal ply too, found by the referee). "a0 a0": Resign. A "?" to any
// other command is logged and the game goes on. At the end the seat sends
// quit, gives a healthy engine QuitWait to exit, kills its process group and
// reaps it; an engine that lost by a fault is killed at once.
type Program struct {
	// Path is the program. A name without a path separator is looked up
	// in PATH.
	Path string
	// Args are its arguments.
	Args []string
	// Dir is its working directory; "" means the host's.
	Dir string
	// Env is its environment; nil means the host's.
	Env []string
	// Transcript, when not nil, receives the .command transcript of the
	// game as the 2021 system wrote it: each command line as
	// sent, each reply as ">>" and the reply without its leading '=' (a
	// failure as ">>?<id> ..."), and after quit a bare ">>" if a command
	// was left unanswered. The reply to quit is not waited for, and not
	// written.
	Transcript io.Writer
	// Output, when not nil, receives the engine's standard output lines
	// that are not awaited replies and, once it has ended, its standard
	// error: at most 256 KiB of it all per game (internal/proc.LogLimit),
	// the first half as it comes, the last half when the seat ends, with a
	// "[truncated N bytes]" line between (an engine that floods its output
	// makes no huge log, and the end, where faults show, is kept).
	Output io.Writer
	// Logger receives the seat's events; nil discards them.
	Logger *slog.Logger
	// SendRules sends "8 num_repetition <R>" and "9 num_moves_to_draw <N>"
	// before ready (off in the 2021 system).
	SendRules bool
	// SendGameOver sends "13 game_over <red|black|draw>" before quit (off
	// in the 2021 system).
	SendGameOver bool
	// QuitWait is how long a healthy engine has to exit after quit; 0
	// means DefaultQuitWait.
	QuitWait time.Duration
}

// Seat returns a seat that runs the program for one game.
func (p *Program) Seat() *Seat {
	s := &Seat{p: *p, log: p.Logger}
	s.p.Args = slices.Clone(p.Args)
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	s.log = s.log.With("engine", p.Path)
	if p.Output != nil {
		s.out = proc.NewBoundedWriter(p.Output, proc.LogLimit)
	}
	return s
}

// Seat is the host's end of one MGTP engine for one game: a
// protocol.DarkChessSeat. Make one with [Program.Seat].
type Seat struct {
	p   Program
	log *slog.Logger

	proc     *proc.Process
	stopProc context.CancelFunc
	stdin    *os.File
	replies  chan Reply
	readDone chan struct{}
	readErr  error               // why reading ended; set before readDone is closed
	out      *proc.BoundedWriter // Output, bounded; nil without Output
	wbuf     []byte

	name, version string
	color         darkchess.Color
	first         bool
	unanswered    bool // a command was left without its reply
	failed        bool // the engine failed: no grace at the end
}

var _ protocol.DarkChessSeat = (*Seat)(nil)

// EngineName and EngineVersion return the engine's answers to name and
// version ("" before the handshake).
func (s *Seat) EngineName() string { return s.name }

// EngineVersion returns the engine's answer to version.
func (s *Seat) EngineVersion() string { return s.version }

// Begin starts the program and runs the handshake.
func (s *Seat) Begin(ctx context.Context, b protocol.DarkChessBegin) error {
	if s.p.Path == "" {
		s.failed = true
		return &protocol.DarkChessFault{Reason: darkchess.TimeOut, Kind: protocol.DarkChessNotStarted, Err: errors.New("mgtp: Program.Path is empty")}
	}
	s.color, s.first = b.Color, b.First
	pctx, stop := context.WithCancel(context.WithoutCancel(ctx))
	pr, err := proc.Start(pctx, proc.Config{
		Path: s.p.Path, Args: s.p.Args, Dir: s.p.Dir, Env: s.p.Env,
		PipeStdin: true, PipeStdout: true,
	})
	if err != nil {
		stop()
		s.failed = true
		return err
	}
	s.proc, s.stopProc, s.stdin = pr, stop, pr.Stdin()
	s.replies, s.readDone = make(chan Reply, replyBuffer), make(chan struct{})
	go s.read(pr.Stdout())
	s.log.Info("mgtp: engine started", "pid", pr.Pid())

	r, err := s.do(ctx, NewCommand(CmdName))
	if err != nil {
		return err
	}
	s.name = r.Payload
	if r, err = s.do(ctx, NewCommand(CmdVersion)); err != nil {
		return err
	}
	s.version = r.Payload
	cmds := []Command{NewCommand(CmdResetBoard)}
	v := b.View
	if len(v.History) > 0 {
		for _, ply := range v.History {
			c, err := PlyCommand(ply)
			if err != nil {
				return err
			}
			cmds = append(cmds, c)
		}
	} else if v.Position() != darkchess.Opening {
		cmds = append(cmds, InitBoardCommand(v))
	}
	setting := b.Control.Main
	if setting == 0 {
		setting = b.Left
	}
	cmds = append(cmds, TimeSettingCommand(setting))
	if tellClocks(b) {
		cmds = append(cmds, clockCommands(b)...)
	}
	if s.p.SendRules {
		cmds = append(cmds,
			NewCommand(CmdNumRepetition, fmt.Sprint(v.Rules.RepetitionCycles)),
			NewCommand(CmdNumMovesToDraw, fmt.Sprint(v.Rules.NoProgressPlies)))
	}
	cmds = append(cmds, NewCommand(CmdReady))
	for _, c := range cmds {
		if _, err := s.do(ctx, c); err != nil {
			return err
		}
	}
	return nil
}

// tellClocks reports whether the handshake tells both clocks with
// time_left: in a game resumed mid-way, whose clocks have run, and under a
// control other than the 2021 system's 900 s sudden death, which the 2021
// engines assume until their first time_left (one that hears nothing
// before its first genmove plans a 900 s game). A control without any limit
// tells nothing: its clocks say 0.
func tellClocks(b protocol.DarkChessBegin) bool {
	if len(b.View.History) > 0 {
		return true
	}
	c := b.Control
	return !c.Unlimited() && (c.Main != protocol.DarkChessDefaultControl.Main || c.Increment != 0 || c.Period != 0 || c.MoveCap != 0)
}

// clockCommands returns "16 time_left red <ms>" and "16 time_left black
// <ms>": each colour's clock, or, before the first flip has given the
// colours, the engine's own for both (neither has run yet).
func clockCommands(b protocol.DarkChessBegin) []Command {
	left := b.View.TimeLeft
	if !b.View.Turn().Valid() {
		left = [2]time.Duration{b.Left, b.Left}
	}
	return []Command{TimeLeftCommand(darkchess.Red, left[darkchess.Red]), TimeLeftCommand(darkchess.Black, left[darkchess.Black])}
}

// read is the reader goroutine: replies to the channel (dropped, and
// logged, when it is full), everything else to Output.
func (s *Seat) read(stdout io.Reader) {
	defer close(s.readDone)
	lr := newLineReader(stdout)
	for {
		line, err := lr.readLine()
		if err != nil {
			s.readErr = err
			return
		}
		if r, perr := ParseReply(line); perr == nil {
			select {
			case s.replies <- r:
				continue
			default:
				s.log.Warn("mgtp: too many replies ahead; dropping one", "line", line)
			}
		}
		s.output(line + "\n")
	}
}

// output writes to Output, within its bound.
func (s *Seat) output(text string) {
	if s.out != nil {
		io.WriteString(s.out, text)
	}
}

// transcript writes one line to the transcript.
func (s *Seat) transcript(line string) {
	if s.p.Transcript != nil {
		io.WriteString(s.p.Transcript, line+"\n")
	}
}

// send writes a command, within ctx, after dropping the replies read so
// far: they answer nothing the host is waiting for.
func (s *Seat) send(ctx context.Context, c Command) error {
	for drained := false; !drained; {
		select {
		case r := <-s.replies:
			s.log.Warn("mgtp: skipping a reply nothing awaits", "line", r.String())
			s.output(r.String() + "\n")
		default:
			drained = true
		}
	}
	s.wbuf = AppendCommand(s.wbuf[:0], c)
	s.transcript(string(s.wbuf[:len(s.wbuf)-1]))
	s.log.Debug("mgtp: send", "line", string(s.wbuf[:len(s.wbuf)-1]))
	if dl, ok := ctx.Deadline(); ok {
		s.stdin.SetWriteDeadline(dl)
		defer s.stdin.SetWriteDeadline(time.Time{})
	}
	if _, err := s.stdin.Write(s.wbuf); err != nil {
		s.failed = true
		s.unanswered = s.unanswered || c.ID != CmdQuit
		err = fmt.Errorf("mgtp: writing %q: %w", c.String(), err)
		kind := protocol.DarkChessTimedOut // it stopped reading
		if !errors.Is(err, os.ErrDeadlineExceeded) {
			kind = s.gone(ctx)
		}
		return &protocol.DarkChessFault{Reason: darkchess.TimeOut, Kind: kind, Err: err}
	}
	return nil
}

// await waits for the reply to the command id, skipping other lines.
func (s *Seat) await(ctx context.Context, id ID) (Reply, error) {
	for {
		var r Reply
		select {
		case r = <-s.replies:
		case <-s.readDone:
			select {
			case r = <-s.replies:
			default:
				s.unanswered, s.failed = true, true
				err := s.readErr
				if errors.Is(err, io.EOF) {
					err = io.ErrUnexpectedEOF
				}
				return Reply{}, &protocol.DarkChessFault{Reason: darkchess.TimeOut, Kind: s.gone(ctx),
					Err: fmt.Errorf("mgtp: the engine closed its output awaiting %s: %w", id, err)}
			}
		case <-ctx.Done():
			s.unanswered, s.failed = true, true
			return Reply{}, fmt.Errorf("mgtp: no reply to %s: %w", id, ctx.Err())
		}
		if r.ID != id {
			s.log.Warn("mgtp: skipping a reply to another command", "want", int(id), "line", r.String())
			s.output(r.String() + "\n")
			continue
		}
		s.log.Debug("mgtp: recv", "line", r.String())
		line := r.String()
		if r.OK {
			line = line[1:]
		}
		s.transcript(">>" + line)
		return r, nil
	}
}

// gone returns what became of an engine whose output or input closed:
// crashed if its process exits within goneGrace, else disconnected.
func (s *Seat) gone(ctx context.Context) protocol.DarkChessFaultKind {
	t := time.NewTimer(goneGrace)
	defer t.Stop()
	select {
	case <-s.proc.Exited():
		return protocol.DarkChessCrashed
	case <-t.C:
	case <-ctx.Done():
	}
	return protocol.DarkChessDisconnected
}

// do sends c and waits for its reply. A failure reply is logged and is
// not an error.
func (s *Seat) do(ctx context.Context, c Command) (Reply, error) {
	if err := s.send(ctx, c); err != nil {
		return Reply{}, err
	}
	r, err := s.await(ctx, c.ID)
	if err == nil && !r.OK {
		s.log.Warn("mgtp: command refused", "command", c.String(), "reply", r.String())
	}
	return r, err
}

// Ask sends genmove for the side to move and reads the engine's ply.
func (s *Seat) Ask(ctx context.Context, v darkchess.View) (darkchess.Move, error) {
	if s.stdin == nil {
		return darkchess.NoMove, errors.New("mgtp: engine not started")
	}
	if err := s.send(ctx, GenmoveCommand(v.Turn())); err != nil {
		return darkchess.NoMove, err
	}
	r, err := s.await(ctx, CmdGenmove)
	if err != nil {
		return darkchess.NoMove, err
	}
	if !r.OK {
		s.failed = true
		return darkchess.NoMove, &protocol.DarkChessFault{Reason: darkchess.BadMove, Err: fmt.Errorf("the engine answered %q", r.String())}
	}
	m, err := r.Move()
	switch {
	case errors.Is(err, ErrResign):
		return darkchess.NoMove, &protocol.DarkChessFault{Reason: darkchess.Resign, Err: err}
	case err != nil:
		s.failed = true
		return darkchess.NoMove, &protocol.DarkChessFault{Reason: darkchess.BadMove, Err: err}
	}
	return m, nil
}

// Tell sends the ply and the mover's time left.
func (s *Seat) Tell(ctx context.Context, t protocol.DarkChessTell) error {
	if s.stdin == nil {
		return errors.New("mgtp: engine not started")
	}
	s.color = t.Color
	c, err := PlyCommand(t.Ply)
	if err != nil {
		return err
	}
	if _, err := s.do(ctx, c); err != nil {
		return err
	}
	var left time.Duration
	if t.Mover.Valid() {
		left = t.TimeLeft[t.Mover]
	}
	_, err = s.do(ctx, TimeLeftCommand(t.Mover, left))
	return err
}

// End sends quit (after game_over with SendGameOver), waits for a healthy
// engine to exit, then kills it and every process it started, reaps it, and
// writes the kept end of its output to Output.
func (s *Seat) End(ctx context.Context, r darkchess.Result) error {
	if s.out != nil {
		defer s.out.Close() // the kept tail of the output
	}
	if s.proc == nil {
		return nil
	}
	wait := s.p.QuitWait
	if wait <= 0 {
		wait = DefaultQuitWait
	}
	forfeit := !r.Draw && (r.Reason == darkchess.TimeOut || r.Reason == darkchess.BadMove)
	lost := forfeit && (s.color.Valid() && r.Winner != s.color || !s.color.Valid() && s.first)
	healthy := !s.failed && !lost
	if healthy && s.p.SendGameOver {
		word := "draw"
		if !r.Draw {
			word = r.Winner.String()
		}
		gctx, cancel := context.WithTimeout(ctx, wait)
		s.do(gctx, NewCommand(CmdGameOver, word))
		cancel()
	}
	qctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	s.send(qctx, NewCommand(CmdQuit))
	if s.unanswered {
		s.transcript(">>")
	}
	s.stdin.Close()
	if healthy {
		select {
		case <-s.proc.Exited():
		case <-qctx.Done():
			s.log.Warn("mgtp: the engine did not exit after quit; killing it")
		}
	}
	s.stopProc()
	res := s.proc.Wait()
	<-s.readDone
	s.log.Info("mgtp: engine ended", "status", res.Status)
	if len(res.Stderr) > 0 {
		s.output(string(res.Stderr))
	}
	return nil
}

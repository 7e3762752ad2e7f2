package mgtp

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/botarena/botarena/darkchess"
	"github.com/botarena/botarena/timer"
)

// The answers of the templates.
const (
	// ProtocolVersion is the answer to protocol_version.
	ProtocolVersion = "1.1.0"
	// DefaultName and DefaultVersion are what an [Engine] without a Name
	// or Version answers.
	DefaultName    = "botarena"
	DefaultVersion = "1.0.0"
)

// listCommands is the answer to list_commands: the templates' 19 names.
var listCommands = strings.Join([]string{
	"protocol_version", "name", "version", "known_command", "list_commands", "quit",
	"boardsize", "reset_board", "num_repetition", "num_moves_to_draw", "move", "flip",
	"genmove", "game_over", "ready", "time_settings", "time_left", "showboard", "init_board",
}, "\n")

// Engine is the engine side of MGTP: it answers a host's commands for a
// darkchess.Player. The zero value is ready to use; an Engine holds
// only settings, so one Engine may serve many games at once.
type Engine struct {
	// Name and Version are the answers to name and version; "" means
	// DefaultName and DefaultVersion.
	Name, Version string
	// Margin is the part of the remaining time kept in reserve: the
	// player's deadline is its colour's time_left (or the time_setting
	// before any), less Margin, after genmove arrived. 0 means 1 s. The
	// margin is at most half the remaining time.
	Margin time.Duration
	// Rules are the rules of the view given to the player, until
	// num_repetition or num_moves_to_draw change them; the zero Rules mean
	// darkchess.DefaultRules (NTU2021, the 2021 system's).
	Rules darkchess.Rules
	// Logger receives diagnostics (never standard output, which carries
	// only replies): commands at Debug, refused ones at Warn, showboard's
	// board at Info. Nil discards them. A program would pass a logger on
	// os.Stderr.
	Logger *slog.Logger
}

// Serve answers the MGTP commands read from in on out, for p, with the zero
// [Engine]: a program's main is
//
//	mgtp.Serve(context.Background(), os.Stdin, os.Stdout, bot)
func Serve(ctx context.Context, in io.Reader, out io.Writer, p darkchess.Player) error {
	var e Engine
	return e.Serve(ctx, in, out, p)
}

// Serve answers the commands read from in, one reply each, in order, on
// out (each reply in one Write, so an unbuffered out such as os.Stdout is
// flushed), until quit, which it answers "=5" before returning nil, or the
// end of in, which also returns nil (the host is gone).
//
// It follows the engine obligations. It dispatches on the id
// and ignores the name; an unknown id gets "?<id> unknown command", and a
// line with no id is logged and ignored. reset_board starts a new game;
// the position changes only with move and flip (never with the engine's
// own genmove answer), which are refused with "?10"/"?11" when they do not
// fit it. genmove's colour is the player's colour ("unknown": the first
// ply of a fresh game, which must be a flip); a colour that is not the side
// to move of the position makes it the side to move, when the position
// allows. time_setting and time_settings set both clocks, time_left the
// given colour's; num_repetition and num_moves_to_draw (their first
// integer) set the Rules; init_board sets a position without history
// (counts in the 2021 template's order); boardsize, game_over and ready are
// acknowledged; showboard logs the board.
//
// The player gets the view with its history, rules and clocks, and a
// context whose deadline is its remaining time less the margin. While it
// thinks, Serve keeps reading: quit (or the end of in, or ctx) cancels it,
// and other commands wait their turn. A player that fails or returns an
// illegal ply is answered "?12 <reason>" (which loses the game); its ply is
// otherwise answered "=12 <src> <dst>". Serve returns an error only when
// writing fails, in fails, or ctx ends; it returns after every Play call
// it made has returned.
func (e *Engine) Serve(ctx context.Context, in io.Reader, out io.Writer, p darkchess.Player) error {
	if p == nil {
		return errors.New("mgtp: nil darkchess.Player")
	}
	if e.Margin < 0 {
		return fmt.Errorf("mgtp: negative Engine.Margin %v", e.Margin)
	}
	s := &engineSession{e: *e, out: out, player: p, log: e.Logger}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	if s.e.Name == "" {
		s.e.Name = DefaultName
	}
	if s.e.Version == "" {
		s.e.Version = DefaultVersion
	}
	if s.e.Rules == (darkchess.Rules{}) {
		s.e.Rules = darkchess.DefaultRules
	}
	s.reset()
	lines := make(chan engineLine)
	stop := make(chan struct{})
	// The reader ends at the end of in, or at the next line after Serve
	// returns; a Read blocked on a silent host ends only when the host
	// closes the pipe (or the program exits).
	go readLines(in, lines, stop)
	defer close(stop)
	return s.loop(ctx, lines)
}

// engineLine is a line read, or the error that ended reading.
type engineLine struct {
	text string
	err  error
}

// readLines sends the lines of in, then the error that ended them.
func readLines(in io.Reader, lines chan<- engineLine, stop <-chan struct{}) {
	r := newLineReader(in)
	for {
		text, err := r.readLine()
		select {
		case lines <- engineLine{text, err}:
		case <-stop:
			return
		}
		if err != nil {
			return
		}
	}
}

// lineReader reads lines of at most MaxLine bytes, dropping the rest of a
// longer line.
type lineReader struct {
	br *bufio.Reader
}

func newLineReader(r io.Reader) *lineReader {
	return &lineReader{br: bufio.NewReaderSize(r, MaxLine+2)}
}

// readLine returns the next line without its LF (and a CR before it). A
// line over MaxLine is cut there, and the rest of it dropped. A last line
// without LF is a line; then io.EOF.
func (r *lineReader) readLine() (string, error) {
	chunk, err := r.br.ReadSlice('\n')
	switch {
	case err == nil:
		return strings.TrimSuffix(string(chunk[:len(chunk)-1]), "\r"), nil
	case errors.Is(err, bufio.ErrBufferFull):
		line := string(chunk[:MaxLine])
		for errors.Is(err, bufio.ErrBufferFull) {
			_, err = r.br.ReadSlice('\n')
		}
		if err != nil && !errors.Is(err, bufio.ErrBufferFull) && !errors.Is(err, io.EOF) {
			return "", err
		}
		return line, nil
	case errors.Is(err, io.EOF) && len(chunk) > 0:
		return strings.TrimSuffix(string(chunk), "\r"), nil
	}
	return "", err
}

// engineSession is the state of one Serve call.
type engineSession struct {
	e      Engine
	out    io.Writer
	player darkchess.Player
	log    *slog.Logger
	wbuf   []byte

	view      darkchess.View
	turnKnown bool          // false after init_board with pieces revealed: the side to move is a guess
	setting   time.Duration // time_setting; 0 until given
	played    int           // plies the player gave since the game began
	pending   []engineLine  // lines read while the player thought
}

// reset starts a new game.
func (s *engineSession) reset() {
	rules := s.view.Rules
	if rules == (darkchess.Rules{}) {
		rules = s.e.Rules
	}
	s.view, s.turnKnown = darkchess.Opening.View(darkchess.NoColor), true
	s.played = 0
	s.view.Rules = rules
	s.view.TimeLeft = [2]time.Duration{s.setting, s.setting}
}

// loop serves until quit or the end of input.
func (s *engineSession) loop(ctx context.Context, lines <-chan engineLine) error {
	for {
		var l engineLine
		if len(s.pending) > 0 {
			l, s.pending = s.pending[0], s.pending[1:]
		} else {
			select {
			case l = <-lines:
			case <-ctx.Done():
				return fmt.Errorf("mgtp: %w", context.Cause(ctx))
			}
		}
		if l.err != nil {
			if errors.Is(l.err, io.EOF) {
				s.log.Info("mgtp: end of input")
				return nil
			}
			return fmt.Errorf("mgtp: reading commands: %w", l.err)
		}
		quit, err := s.handle(ctx, l.text, lines)
		if err != nil || quit {
			return err
		}
	}
}

// reply writes one reply.
func (s *engineSession) reply(id ID, ok bool, payload string) error {
	s.wbuf = AppendReply(s.wbuf[:0], Reply{ID: id, OK: ok, Payload: payload})
	if _, err := s.out.Write(s.wbuf); err != nil {
		return fmt.Errorf("mgtp: writing a reply: %w", err)
	}
	return nil
}

// handle carries out one command line. It reports quit.
func (s *engineSession) handle(ctx context.Context, line string, lines <-chan engineLine) (bool, error) {
	c, err := ParseCommand(line)
	if err != nil {
		if strings.TrimSpace(line) != "" {
			s.log.Warn("mgtp: ignoring a line that is not a command", "line", line)
		}
		return false, nil
	}
	s.log.Debug("mgtp: command", "line", line)
	refuse := func(err error) (bool, error) {
		s.log.Warn("mgtp: command refused", "line", line, "err", err)
		return false, s.reply(c.ID, false, oneLine(err.Error()))
	}
	ok := func(payload string) (bool, error) { return false, s.reply(c.ID, true, payload) }
	switch c.ID {
	case CmdProtocolVersion:
		return ok(ProtocolVersion)
	case CmdName:
		return ok(s.e.Name)
	case CmdVersion:
		return ok(s.e.Version)
	case CmdKnownCommand:
		known := len(c.Args) > 0 && (c.Args[0] == CmdTimeSetting.String() || slices.Contains(strings.Split(listCommands, "\n"), c.Args[0]))
		return ok(strconv.FormatBool(known))
	case CmdListCommands:
		return ok(listCommands)
	case CmdQuit:
		return true, s.reply(CmdQuit, true, "")
	case CmdBoardsize, CmdGameOver, CmdReady:
		return ok("")
	case CmdResetBoard:
		s.reset()
		return ok("")
	case CmdNumRepetition, CmdNumMovesToDraw:
		n, err := c.Int()
		if err != nil {
			return refuse(err)
		}
		if c.ID == CmdNumRepetition {
			s.view.Rules.RepetitionCycles = n
		} else {
			s.view.Rules.NoProgressPlies = n
		}
		s.view.Rules.Name = ""
		return ok("")
	case CmdMove, CmdFlip:
		ply, err := c.Ply()
		if err != nil {
			return refuse(err)
		}
		v, err := s.view.Play(ply)
		if err != nil && !s.turnKnown {
			// After init_board the side to move is a guess: the other
			// side may be the one that moved.
			if w, ok := s.withTurn(s.view, s.view.Turn().Opponent()); ok {
				v, err = w.Play(ply)
			}
		}
		if err != nil {
			return refuse(err)
		}
		s.view, s.turnKnown = v, true
		return ok("")
	case CmdTimeSetting:
		d, err := c.Millis()
		if err != nil {
			return refuse(err)
		}
		s.setting = d
		s.view.TimeLeft = [2]time.Duration{d, d}
		return ok("")
	case CmdTimeLeft:
		col, d, err := c.TimeLeft()
		if err != nil {
			return refuse(err)
		}
		s.view.TimeLeft[col] = d
		return ok("")
	case CmdShowboard:
		s.log.Info("mgtp: board\n" + s.view.Position().Diagram())
		return ok("")
	case CmdInitBoard:
		if err := s.initBoard(c); err != nil {
			return refuse(err)
		}
		return ok("")
	case CmdGenmove:
		return s.genmove(ctx, c, lines)
	}
	return refuse(errors.New("unknown command"))
}

// oneLine keeps the first line of a message.
func oneLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}

// withViewer returns v seen by c.
func (s *engineSession) withViewer(v darkchess.View, c darkchess.Color) darkchess.View {
	w := v.Position().View(c)
	w.History, w.Rules, w.TimeLeft = v.History, v.Rules, v.TimeLeft
	return w
}

// withTurn returns v with c to move, if that makes a position.
func (s *engineSession) withTurn(v darkchess.View, c darkchess.Color) (darkchess.View, bool) {
	st := v.Position().Setup()
	st.Turn = c
	p, err := darkchess.NewPosition(st)
	if err != nil {
		return v, false
	}
	w := p.View(c)
	w.History, w.Rules, w.TimeLeft = v.History, v.Rules, v.TimeLeft
	return w, true
}

// initBoard sets the position of init_board.
func (s *engineSession) initBoard(c Command) error {
	board, alive, err := c.InitBoard()
	if err != nil {
		return err
	}
	var st darkchess.Setup
	st.Board = board
	st.Pool = alive
	revealed := false
	for _, pc := range board {
		if pc.Valid() {
			st.Pool[pc]--
			revealed = true
		}
	}
	st.Turn = darkchess.NoColor
	if revealed {
		// The side to move comes with genmove; red until then.
		st.Turn = darkchess.Red
	}
	p, err := darkchess.NewPosition(st)
	if err != nil {
		return err
	}
	v := p.View(st.Turn)
	v.Rules, v.TimeLeft = s.view.Rules, s.view.TimeLeft
	s.view, s.turnKnown = v, !revealed
	return nil
}

// genmove asks the player for a ply and answers it.
func (s *engineSession) genmove(ctx context.Context, c Command, lines <-chan engineLine) (bool, error) {
	col, err := c.Color()
	if err != nil {
		s.log.Warn("mgtp: genmove without a colour; playing the side to move", "line", c.String())
		col = s.view.Turn()
	}
	if col.Valid() && s.view.Turn() != col {
		if w, ok := s.withTurn(s.view, col); ok {
			if s.turnKnown {
				s.log.Warn("mgtp: genmove for the side not to move; taking it as the side to move", "color", col.String())
			}
			s.view = w
		}
	}
	s.turnKnown = true
	if col.Valid() && s.view.Viewer() != col {
		s.view = s.withViewer(s.view, col)
	}
	v := s.view
	left := s.setting
	if col.Valid() {
		left = v.TimeLeft[col]
	}
	start := time.Now()
	pctx, cancel := context.WithCancel(ctx)
	var deadline time.Time
	if left > 0 {
		margin := s.e.Margin
		if margin == 0 {
			margin = time.Second
		}
		deadline = start.Add(left - min(margin, left/2))
		pctx, cancel = context.WithDeadline(ctx, deadline)
	}
	defer cancel()
	pctx = timer.WithStatus(pctx, s.status(col, start, deadline))
	type answer struct {
		m   darkchess.Move
		err error
	}
	done := make(chan answer, 1)
	player := s.player
	go func() {
		defer func() {
			if x := recover(); x != nil {
				done <- answer{darkchess.NoMove, fmt.Errorf("player panicked: %v", x)}
			}
		}()
		m, err := player.Play(pctx, v)
		done <- answer{m, err}
	}()
	quit := false
	var a answer
wait:
	for {
		select {
		case a = <-done:
			break wait
		case l := <-lines:
			s.pending = append(s.pending, l)
			if l.err != nil || isQuit(l.text) {
				quit = true
				cancel()
			}
		case <-ctx.Done():
			cancel()
			a = <-done
			return false, fmt.Errorf("mgtp: %w", context.Cause(ctx))
		}
	}
	switch {
	case a.err != nil:
		s.log.Warn("mgtp: the player failed", "err", a.err, "quit", quit)
		return false, s.reply(CmdGenmove, false, oneLine(a.err.Error()))
	case !v.IsLegal(a.m):
		s.log.Warn("mgtp: the player chose an illegal ply", "move", a.m.String(), "position", v.String())
		return false, s.reply(CmdGenmove, false, "illegal move "+a.m.String())
	}
	r := MoveReply(a.m)
	s.played++
	return false, s.reply(CmdGenmove, true, r.Payload)
}

// status is what the player is told of time for a genmove of col that
// arrived at start, with deadline the one put on its ctx (zero for none):
// the control of time_setting, told, and both colours' time_left, or with
// no time_setting the zero control (no limit), not told. A colour that is
// not valid (the first ply's "unknown") has the time_setting left on both
// clocks. Side is First: MGTP tells colours, not the order of play.
func (s *engineSession) status(col darkchess.Color, start, deadline time.Time) timer.Status {
	var st timer.Status
	if s.setting > 0 {
		own, opp := s.setting, s.setting
		if col.Valid() {
			own, opp = s.view.TimeLeft[col], s.view.TimeLeft[col.Opponent()]
		}
		st = timer.TimeLeftStatus(timer.Control{Main: s.setting}, own, opp, start)
	} else {
		st = timer.Untold(timer.Control{}, start)
	}
	st.Played, st.Deadline = s.played, deadline
	return st
}

// isQuit reports whether line is a quit command.
func isQuit(line string) bool {
	c, err := ParseCommand(line)
	return err == nil && c.ID == CmdQuit
}

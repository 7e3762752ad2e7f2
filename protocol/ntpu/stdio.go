package ntpu

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"time"

	"github.com/botarena/botarena/geister"
	"github.com/botarena/botarena/protocol/gat"
	"github.com/botarena/botarena/timer"
)

// The NTPU platform's STDIO mode: the launcher starts the
// player's program and relays the Java geister server's messages
// to its standard input and its answers from its standard output, one per
// line, unchanged. After the result it sends "/exit".

// ntpuLineReader reads lines of at most max bytes. Unlike lineio it
// survives a longer line: it drops the line, reports it as too long, and
// goes on with the next one, so a peer's long line is one bad command.
type ntpuLineReader struct {
	br  *bufio.Reader
	max int
}

func newNTPULineReader(r io.Reader, max int) *ntpuLineReader {
	return &ntpuLineReader{br: bufio.NewReaderSize(r, max+2), max: max}
}

// next returns the next line without its LF and one CR before it, and
// whether it was longer than max (its text is then empty). A last line
// without LF is returned at end of input, and the next call returns io.EOF.
// Any other error is returned as it is, a partial line before it dropped.
func (r *ntpuLineReader) next() (line string, tooLong bool, err error) {
	for {
		chunk, err := r.br.ReadSlice('\n')
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			tooLong = true
			continue
		case err == nil:
			chunk = chunk[:len(chunk)-1]
		case errors.Is(err, io.EOF) && (len(chunk) > 0 || tooLong):
		default:
			return "", false, err
		}
		if len(chunk) > 0 && chunk[len(chunk)-1] == '\r' {
			chunk = chunk[:len(chunk)-1]
		}
		if tooLong || len(chunk) > r.max {
			return "", true, nil
		}
		return string(chunk), false, nil
	}
}

// STDIO runs a [geister.Player] as a program in the NTPU platform's
// STDIO mode: it reads the server's messages from the program's
// standard input and writes the answers to its standard output. The zero
// value is ready to use; [ServeSTDIO] runs it.
type STDIO struct {
	// MoveTime is the deadline put on the ctx passed to Setup and Play,
	// measured from the arrival of the SET? or MOV?; 0 means none. The
	// launcher does not announce the clock: choose it below the room's.
	// The player also finds it on its ctx as the Deadline of a
	// [timer.Status] (see [timer.StatusFrom]), whose control is the
	// launcher's default, 900 s for the game, not told.
	MoveTime time.Duration
	// Logger receives what happens: every line at Debug, the result at
	// Info, odd lines at Warn. Nil discards it. (Standard error is the
	// place for it: standard output carries the protocol.)
	Logger *slog.Logger
}

// ServeSTDIO runs p as an NTPU STDIO program on in and out (os.Stdin
// and os.Stdout in a program) with the zero [STDIO]: a Go bot is an
// NTPU program in a few lines.
//
//	err := ServeSTDIO(context.Background(), os.Stdin, os.Stdout, bot)
func ServeSTDIO(ctx context.Context, in io.Reader, out io.Writer, p geister.Player) error {
	var s STDIO
	return s.Serve(ctx, in, out, p)
}

// Serve reads the server's messages from in, one per line, and writes the
// answers to out, as the NTPU platform's sample program does: exactly one
// line for every line it reads, until "/exit", after which it writes nothing
// and returns nil.
//
// SET? is answered with p's red set ("SET:BCDE"), MOV? (or the NTPU manual's
// "MOV:" and a board) with p's move for the view the board shows
// ("MOV:A,NORTH": full direction words), NG after our move with another move
// for the same board (p is asked again, at most twice; a third NG gets an
// empty line, like every other line: the acks OK, OKR, OKB, the results WON:,
// LST:, DRW:, unknown and malformed lines, and lines longer than
// [gat.MaxLine]). Blank lines (nothing but white space) get no answer. Input lines may end in LF or
// CRLF. Every answer ends in "\n" and is written with one Write, then
// flushed if out has a Flush method, so nothing waits in a buffer (a
// program that does not flush is the most common fault on the platform).
//
// The protocol never says which side the program plays: the first MOV? is
// taken to be the first player's when it shows the start position, the
// second player's otherwise, and the ply count of the views follows (see
// [gat.Client.Run]).
//
// A player that fails (an error, an invalid red set, an illegal move) ends
// Serve with a [*gat.PlayerError] and no answer: the program should then
// exit, which loses the game. Serve also fails when in ends before "/exit"
// and before a result (io.ErrUnexpectedEOF; after a result, end of input
// is as good as "/exit"), when out fails, and when ctx ends, which sets a
// past read deadline on in or closes it, if it can.
func (s *STDIO) Serve(ctx context.Context, in io.Reader, out io.Writer, p geister.Player) error {
	if p == nil {
		return errors.New("ntpu: nil geister.Player")
	}
	if in == nil || out == nil {
		return errors.New("ntpu: ServeSTDIO needs an input and an output")
	}
	if s.MoveTime < 0 {
		return fmt.Errorf("ntpu: negative STDIO.MoveTime %v", s.MoveTime)
	}
	log := s.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	stop := context.AfterFunc(ctx, func() {
		if d, ok := in.(interface{ SetReadDeadline(time.Time) error }); ok && d.SetReadDeadline(time.Unix(1, 0)) == nil {
			return
		}
		if c, ok := in.(io.Closer); ok {
			c.Close()
		}
	})
	defer stop()
	b := &ntpuBot{s: s, p: p, out: out, log: log}
	lr := newNTPULineReader(in, gat.MaxLine)
	for {
		line, tooLong, err := lr.next()
		if err != nil {
			switch {
			case ctx.Err() != nil:
				return fmt.Errorf("ntpu: geister STDIO program stopped: %w", context.Cause(ctx))
			case errors.Is(err, io.EOF) && b.ended:
				log.Info("geister stdio: end of input after the result")
				return nil
			case errors.Is(err, io.EOF):
				return fmt.Errorf("ntpu: geister STDIO: input ended before /exit and before a result: %w", io.ErrUnexpectedEOF)
			}
			return fmt.Errorf("ntpu: geister STDIO: reading: %w", err)
		}
		if tooLong {
			log.Warn("geister stdio: line too long; answering with an empty line", "max", gat.MaxLine)
			if err := b.write(""); err != nil {
				return err
			}
			continue
		}
		done, err := b.handle(ctx, line)
		if err != nil {
			if ctx.Err() != nil {
				return fmt.Errorf("ntpu: geister STDIO program stopped: %w", context.Cause(ctx))
			}
			return err
		}
		if done {
			return nil
		}
	}
}

// ntpuBot is the state of one STDIO.Serve.
type ntpuBot struct {
	s   *STDIO
	p   geister.Player
	out io.Writer
	log *slog.Logger
	buf []byte

	started bool          // a MOV? came
	me      geister.Color // our side, from the first MOV?
	ply     int           // the ply count of the last view
	last    geister.View  // the view of the last MOV?
	moved   bool          // our last answer was a move, not yet acked
	retries int           // NGs answered with another move for the last MOV?
	ended   bool          // a result came
}

// handle answers one line; it reports whether the program is done (/exit).
func (b *ntpuBot) handle(ctx context.Context, line string) (bool, error) {
	if strings.TrimSpace(line) == "" {
		return false, nil // a blank line gets no answer
	}
	b.log.Debug("geister stdio: recv", "line", line)
	e, err := gat.ParseEvent(line)
	moved := b.moved
	b.moved = false
	if err != nil {
		b.log.Warn("geister stdio: answering an unknown line with an empty line", "err", err)
		return false, b.write("")
	}
	switch e.Kind {
	case gat.Exit:
		b.log.Info("geister stdio: /exit")
		return true, nil
	case gat.SetRequest:
		return false, b.setup(ctx)
	case gat.MoveRequest:
		if !b.started {
			b.started, b.me, b.ply = true, geister.Second, 1
			if ntpuIsStart(e.Board) {
				b.me, b.ply = geister.First, 0
			}
		} else {
			b.ply += 2
		}
		v, err := e.Board.View(b.me, b.ply)
		if err != nil {
			b.log.Warn("geister stdio: MOV? with a board that shows no position; answering with an empty line", "err", err)
			return false, b.write("")
		}
		b.last, b.retries = v, 0
		return false, b.move(ctx)
	case gat.NG:
		if moved && b.retries < geisterNTPURetries {
			b.retries++
			b.log.Warn("geister stdio: our move was refused; asking the player again", "retry", b.retries)
			return false, b.move(ctx)
		}
	case gat.Won, gat.Lost, gat.Draw:
		if !b.ended {
			b.ended = true
			b.log.Info("geister stdio: game over", "result", e.Kind.String(), "board", e.Board.String())
		}
	}
	return false, b.write("")
}

// geisterNTPURetries is how many times a refused move is answered with
// another one.
const geisterNTPURetries = 2

// ntpuIsStart reports whether every ghost of b is on its start square.
func ntpuIsStart(b gat.Board) bool {
	s := geister.StartSetup(geister.RedsAt(0), geister.RedsAt(0))
	return b.Squares == [2][8]geister.Square{s.Ghosts[geister.First], s.Ghosts[geister.Second]}
}

// thinkCtx returns the ctx for one Setup or Play call (setup tells which),
// with the [timer.Status] of the request just read. The launcher tells
// nothing of time, so the control is its default (Absolute, 900 s), not
// told, no clock is known, and the deadline is MoveTime's, if any. A setup
// counts no plies and comes before the side is known (it reads as First).
func (b *ntpuBot) thinkCtx(ctx context.Context, setup bool) (context.Context, context.CancelFunc) {
	start := time.Now()
	def, _ := timer.NTPU(timer.NTPUAbsolute, 900*time.Second, 0, 0)
	st := timer.Untold(def, start)
	if !setup {
		st.Side, st.Played = timer.Side(b.me), b.ply/2
	}
	var cancel context.CancelFunc
	if b.s.MoveTime > 0 {
		st.Deadline = start.Add(b.s.MoveTime)
		ctx, cancel = context.WithDeadline(ctx, st.Deadline)
	} else {
		ctx, cancel = context.WithCancel(ctx)
	}
	return timer.WithStatus(ctx, st), cancel
}

// setup answers SET?.
func (b *ntpuBot) setup(ctx context.Context) error {
	tctx, cancel := b.thinkCtx(ctx, true)
	reds, err := b.p.Setup(tctx)
	cancel()
	if err == nil && !reds.Valid() {
		err = fmt.Errorf("red set %s does not hold 4 ghosts", reds)
	}
	if err != nil {
		return &gat.PlayerError{Setup: true, Reds: reds, Err: err}
	}
	return b.write("SET:" + reds.String())
}

// move answers MOV? (or NG after a move) with the player's move.
func (b *ntpuBot) move(ctx context.Context) error {
	tctx, cancel := b.thinkCtx(ctx, false)
	m, err := b.p.Play(tctx, b.last)
	cancel()
	if err == nil && !b.last.IsLegal(m) {
		err = fmt.Errorf("%s is not legal here", m)
	}
	if err != nil {
		return &gat.PlayerError{View: b.last, Move: m, Err: err}
	}
	b.moved = true
	return b.write("MOV:" + m.String())
}

// write writes one answer line and flushes it.
func (b *ntpuBot) write(line string) error {
	b.log.Debug("geister stdio: send", "line", line)
	b.buf = append(append(b.buf[:0], line...), '\n')
	if _, err := b.out.Write(b.buf); err != nil {
		return fmt.Errorf("ntpu: geister STDIO: writing: %w", err)
	}
	if f, ok := b.out.(interface{ Flush() error }); ok {
		if err := f.Flush(); err != nil {
			return fmt.Errorf("ntpu: geister STDIO: flushing: %w", err)
		}
	}
	return nil
}

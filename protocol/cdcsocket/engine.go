package cdcsocket

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"slices"
	"strconv"
	"syscall"
	"time"

	"github.com/botarena/botarena/darkchess"
	"github.com/botarena/botarena/internal/proc"
	"github.com/botarena/botarena/protocol"
	"github.com/botarena/botarena/protocol/tus"
)

// DefaultPort is the first port the legacy platform tries; it
// goes up from there until a bind succeeds.
const DefaultPort = 3000

// darkChessPortTries bounds the search for a free port.
const darkChessPortTries = 1000

// darkChessQueueMax bounds the messages an engine may send ahead of its
// turn.
const darkChessQueueMax = 64

// darkChessExitGrace is how long End waits for an engine to exit by itself
// once its connection is closed, before killing it, and how long a seat
// whose engine closed its connection waits for it to exit, to tell a crash
// from a disconnection.
const darkChessExitGrace = time.Second

// Program is a program that speaks the legacy socket protocol,
// as the platform side runs it: the host listens on 127.0.0.1,
// starts "<Path> [Args...] 127.0.0.1 <port>" in Dir in its own process group,
// and the program connects back. [Program.Seat] gives a seat
// for one game under a [protocol.DarkChessReferee]:
//
//	ref := protocol.DarkChessReferee{}
//	a := Program{Path: "./search", Dir: "engines/a"}
//	b := Program{Path: "./search", Dir: "engines/b"}
//	rec, err := ref.Play(ctx, darkchess.NewGame(darkchess.Classic, rng), [2]protocol.DarkChessSeat{a.Seat(), b.Seat()})
//
// The seat's faults: the program must connect, and acknowledge "/start_"
// and "/turn", within the referee's handshake timeout; a frame with bad
// length bytes, a payload that is not printable ASCII starting with '/', a
// malformed "/move" or "/flip", or a ply before the handshake is done lose
// by BadMove (MoveError); other unknown messages are logged and ignored; a
// program that closes its connection or exits loses by TimeOut, as soon as
// the host sees it. Messages are read in order, as the platform reads them:
// a ply sent early is the engine's answer on its next turn. At the end the
// host closes the connection, gives a healthy program a second to exit,
// kills its process group and reaps it.
type Program struct {
	// Path is the program: "search" in the platform's folder. A name without
	// a path separator is looked up in PATH; give "./search" for the one in
	// Dir.
	Path string
	// Args come before "127.0.0.1 <port>" (for an interpreter, say).
	Args []string
	// Dir is the program's working directory; "" means the host's.
	Dir string
	// FirstPort is the first port tried, going up until a bind succeeds;
	// 0 means DefaultPort (3000), and a negative value lets the
	// system choose a free port.
	FirstPort int
	// Output, when not nil, receives what the program printed on its
	// standard output, then on its standard error, once it has ended: at
	// most 256 KiB per game (internal/proc.LogLimit), the start and the
	// end, with a "[truncated N bytes]" line between when bytes were
	// dropped.
	Output io.Writer
	// Logger receives the seat's events; nil discards them.
	Logger *slog.Logger
}

// Seat returns a seat that runs the program for one game.
func (e *Program) Seat() protocol.DarkChessSeat {
	s := &dcHostSeat{e: *e, log: e.Logger}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	s.log = s.log.With("engine", e.Path)
	return s
}

// dcEvent is what the seat's reader hands over: a message, a fault, or the
// end of the stream.
type dcEvent struct {
	msg   Message
	fault error // a BadMove fault
	err   error // the stream ended
}

// dcHostSeat is the host's end of one legacy engine for one game.
type dcHostSeat struct {
	e   Program
	log *slog.Logger

	ln      net.Listener
	p       *proc.Process
	stopP   context.CancelFunc
	conn    net.Conn
	dc      *Conn
	events  chan dcEvent
	stop    chan struct{}
	readEnd chan struct{}
	queue   []dcEvent       // messages read ahead by Tell, for Ask
	ended   error           // the fault or end the reader reported; sticky
	late    bool            // an Ask ran out of time: no grace at the end
	color   darkchess.Color // the engine's colour, once known
	first   bool            // the engine is the first player
}

// listen binds 127.0.0.1 on the first free port from FirstPort.
func (s *dcHostSeat) listen(ctx context.Context) (net.Listener, error) {
	var lc net.ListenConfig
	if s.e.FirstPort < 0 {
		return lc.Listen(ctx, "tcp", "127.0.0.1:0")
	}
	port := s.e.FirstPort
	if port == 0 {
		port = DefaultPort
	}
	var err error
	for i := 0; i < darkChessPortTries && port+i <= 65535; i++ {
		var ln net.Listener
		ln, err = lc.Listen(ctx, "tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port+i)))
		if err == nil {
			return ln, nil
		}
		if !errors.Is(err, syscall.EADDRINUSE) && !errors.Is(err, syscall.EACCES) {
			return nil, err
		}
	}
	return nil, fmt.Errorf("cdcsocket: no free port from %d: %w", port, err)
}

// Begin listens, starts the program, accepts its connection and exchanges
// "/start_" and "/turn" with it.
func (s *dcHostSeat) Begin(ctx context.Context, b protocol.DarkChessBegin) error {
	if s.e.Path == "" {
		return &protocol.DarkChessFault{Reason: darkchess.TimeOut, Kind: protocol.DarkChessNotStarted, Err: errors.New("cdcsocket: Program.Path is empty")}
	}
	ln, err := s.listen(ctx)
	if err != nil {
		return err
	}
	s.ln = ln
	port := strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
	pctx, stop := context.WithCancel(context.WithoutCancel(ctx))
	p, err := proc.Start(pctx, proc.Config{Path: s.e.Path, Args: append(slices.Clone(s.e.Args), "127.0.0.1", port), Dir: s.e.Dir})
	if err != nil {
		stop()
		return err
	}
	s.p, s.stopP = p, stop
	s.log.Info("dark chess legacy: engine started", "port", port, "pid", p.Pid())

	conn, err := s.accept(ctx)
	if err != nil {
		return err
	}
	s.conn, s.dc = conn, NewConn(conn)
	s.events, s.stop, s.readEnd = make(chan dcEvent, 8), make(chan struct{}), make(chan struct{})
	go s.read()

	s.color, s.first = b.Color, b.First
	in := NewInit(b.View, b.Left)
	if err := s.write(ctx, Message{Kind: StartMsg, Init: in}); err != nil {
		return err
	}
	if err := s.await(ctx, StartAck); err != nil {
		return err
	}
	if err := s.write(ctx, Message{Kind: TurnMsg, First: b.First, Color: b.Color}); err != nil {
		return err
	}
	return s.await(ctx, TurnAck)
}

// accept waits for the program to connect, fail or exit.
func (s *dcHostSeat) accept(ctx context.Context) (net.Conn, error) {
	type accepted struct {
		c   net.Conn
		err error
	}
	ch := make(chan accepted, 1)
	go func() {
		c, err := s.ln.Accept()
		ch <- accepted{c, err}
	}()
	var err error
	kind := protocol.DarkChessCrashed
	select {
	case a := <-ch:
		if a.err == nil {
			s.ln.Close()
			return a.c, nil
		}
		err = a.err
	case <-s.p.Exited():
		err = errors.New("the engine exited before connecting")
	case <-ctx.Done():
		err = fmt.Errorf("the engine did not connect: %w", ctx.Err())
		kind = protocol.DarkChessTimedOut
	}
	s.ln.Close()
	if a := <-ch; a.c != nil {
		a.c.Close()
	}
	return nil, &protocol.DarkChessFault{Reason: darkchess.TimeOut, Kind: kind, Err: fmt.Errorf("cdcsocket: dark chess legacy engine: %w", err)}
}

// read is the reader goroutine: messages, faults and the end, in order.
func (s *dcHostSeat) read() {
	defer close(s.readEnd)
	for {
		m, err := s.dc.ReadMessage(context.Background())
		var ev dcEvent
		var le *tus.LineError
		switch {
		case errors.Is(err, ErrFrame):
			ev.fault = &protocol.DarkChessFault{Reason: darkchess.BadMove, Kind: protocol.DarkChessIllegal, Err: fmt.Errorf("garbage on the socket: %w", err)}
		case errors.As(err, &le) && errors.Is(err, tus.ErrUnknownCommand) && darkChessPrintable(le.Line):
			s.log.Warn("dark chess legacy: ignoring an unknown message", "payload", le.Line)
			continue
		case errors.Is(err, tus.ErrEmptyLine):
			continue
		case errors.As(err, &le):
			ev.fault = &protocol.DarkChessFault{Reason: darkchess.BadMove, Kind: protocol.DarkChessIllegal, Err: err}
		case err != nil:
			ev.err = err
		default:
			ev.msg = m
		}
		select {
		case s.events <- ev:
		case <-s.stop:
			return
		}
		if ev.err != nil || ev.fault != nil {
			return
		}
	}
}

// darkChessPrintable reports whether a payload looks like a message: printable
// ASCII starting with '/'.
func darkChessPrintable(p string) bool {
	if p == "" || p[0] != '/' {
		return false
	}
	for i := range len(p) {
		if p[i] < ' ' && p[i] != '\t' || p[i] > '~' {
			return false
		}
	}
	return true
}

// next returns the next event, within ctx: a queued one first.
func (s *dcHostSeat) next(ctx context.Context) (dcEvent, error) {
	if len(s.queue) > 0 {
		ev := s.queue[0]
		s.queue = s.queue[1:]
		return ev, nil
	}
	if s.ended != nil {
		return dcEvent{}, s.ended
	}
	select {
	case ev := <-s.events:
		return ev, s.check(ctx, ev)
	case <-ctx.Done():
		s.late = true
		return dcEvent{}, ctx.Err()
	}
}

// check records the end an event reports.
func (s *dcHostSeat) check(ctx context.Context, ev dcEvent) error {
	switch {
	case ev.fault != nil:
		s.ended = ev.fault
	case ev.err != nil:
		s.ended = &protocol.DarkChessFault{Reason: darkchess.TimeOut, Kind: s.gone(ctx), Err: fmt.Errorf("cdcsocket: dark chess legacy engine left: %w", ev.err)}
	}
	return s.ended
}

// gone returns what became of an engine whose connection closed: crashed if
// its process exits within darkChessExitGrace, else disconnected.
func (s *dcHostSeat) gone(ctx context.Context) protocol.DarkChessFaultKind {
	t := time.NewTimer(darkChessExitGrace)
	defer t.Stop()
	select {
	case <-s.p.Exited():
		return protocol.DarkChessCrashed
	case <-t.C:
	case <-ctx.Done():
	}
	return protocol.DarkChessDisconnected
}

// poll queues the messages that have arrived, and reports a fault or end
// among them.
func (s *dcHostSeat) poll(ctx context.Context) error {
	for s.ended == nil {
		select {
		case ev := <-s.events:
			if err := s.check(ctx, ev); err != nil {
				return err
			}
			if len(s.queue) >= darkChessQueueMax {
				s.ended = &protocol.DarkChessFault{Reason: darkchess.BadMove, Err: fmt.Errorf("%d messages sent ahead of its turn", len(s.queue)+1)}
				return s.ended
			}
			s.queue = append(s.queue, ev)
		default:
			return nil
		}
	}
	return s.ended
}

// await waits for an acknowledgement of kind k; a ply before it is a fault.
func (s *dcHostSeat) await(ctx context.Context, k MessageKind) error {
	for {
		ev, err := s.next(ctx)
		if err != nil {
			return err
		}
		switch ev.msg.Kind {
		case k:
			return nil
		case PlyMsg:
			s.ended = &protocol.DarkChessFault{Reason: darkchess.BadMove, Err: fmt.Errorf("a ply (%v) before acknowledging %s", ev.msg.Move, k)}
			return s.ended
		}
		s.log.Warn("dark chess legacy: ignoring a message", "kind", ev.msg.Kind.String())
	}
}

func (s *dcHostSeat) write(ctx context.Context, m Message) error {
	if s.dc == nil {
		return errors.New("cdcsocket: dark chess legacy engine not connected")
	}
	if err := s.dc.WriteMessage(ctx, m); err != nil {
		err = fmt.Errorf("cdcsocket: writing to dark chess legacy engine: %w", err)
		kind := protocol.DarkChessTimedOut // it stopped reading
		// The connection's deadline may pass a moment before ctx's: ctxIO
		// then says context.DeadlineExceeded while ctx.Err is still nil.
		if ctx.Err() == nil && !errors.Is(err, os.ErrDeadlineExceeded) && !errors.Is(err, context.DeadlineExceeded) {
			kind = s.gone(ctx)
		}
		return &protocol.DarkChessFault{Reason: darkchess.TimeOut, Kind: kind, Err: err}
	}
	return nil
}

// Ask waits for the engine's ply.
func (s *dcHostSeat) Ask(ctx context.Context, v darkchess.View) (darkchess.Move, error) {
	if s.dc == nil {
		return darkchess.NoMove, errors.New("cdcsocket: dark chess legacy engine not connected")
	}
	for {
		ev, err := s.next(ctx)
		if err != nil {
			return darkchess.NoMove, err
		}
		if ev.msg.Kind == PlyMsg {
			return ev.msg.Move, nil
		}
		s.log.Warn("dark chess legacy: ignoring a message", "kind", ev.msg.Kind.String())
	}
}

// Tell reports the ply with the engine's own remaining time, after
// checking that the engine has not failed meanwhile (garbage, a closed
// connection). What it sent early is kept, in order, for its next turn.
func (s *dcHostSeat) Tell(ctx context.Context, t protocol.DarkChessTell) error {
	if s.dc == nil {
		return errors.New("cdcsocket: dark chess legacy engine not connected")
	}
	s.color = t.Color
	if err := s.poll(ctx); err != nil {
		return err
	}
	var left time.Duration
	if t.Color.Valid() {
		left = t.TimeLeft[t.Color]
	}
	return s.write(ctx, Message{Kind: PlyReport, Ply: t.Ply, Time: left})
}

// End closes the connection, waits a moment for a healthy program to exit,
// kills its process group and reaps it.
func (s *dcHostSeat) End(ctx context.Context, r darkchess.Result) error {
	if s.ln != nil {
		s.ln.Close()
	}
	if s.conn != nil {
		s.conn.Close()
		close(s.stop)
		<-s.readEnd
	}
	if s.p == nil {
		return nil
	}
	forfeit := !r.Draw && (r.Reason == darkchess.TimeOut || r.Reason == darkchess.BadMove)
	lost := forfeit && (s.color.Valid() && r.Winner != s.color || !s.color.Valid() && s.first)
	if s.ended == nil && !s.late && !lost {
		// A healthy engine exits when its connection closes.
		t := time.NewTimer(darkChessExitGrace)
		select {
		case <-s.p.Exited():
		case <-t.C:
		case <-ctx.Done():
		}
		t.Stop()
	}
	s.stopP()
	res := s.p.Wait()
	s.log.Info("dark chess legacy: engine ended", "status", res.Status)
	if s.e.Output != nil {
		out := proc.NewBoundedWriter(s.e.Output, proc.LogLimit)
		out.Write(res.Stdout)
		out.Write(res.Stderr)
		out.Close()
	}
	return nil
}

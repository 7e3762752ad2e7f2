package cdcsocket

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"sync"
	"time"

	"github.com/botarena/botarena/darkchess"
	"github.com/botarena/botarena/internal/session"
	"github.com/botarena/botarena/protocol/tus"
	"github.com/botarena/botarena/timer"
)

// Conn is an engine's end of a legacy socket connection,
// with the calls of the manual's C++ API: [Conn.InitBoard]
// for init_board, [Conn.Turn] for get_turn, [Conn.Send] for
// send and [Conn.Recv] for recv; get_color is
// [darkchess.Piece.Color]. [Client] runs a whole game on top
// of it for a [darkchess.Player].
//
// Every call takes a context: its deadline becomes the connection's deadline
// (for a conn with SetReadDeadline / SetWriteDeadline), and its cancellation
// interrupts the call (with a past deadline, or by closing a conn without
// deadlines). A read that is interrupted keeps what it had read of the frame,
// so the next read carries on. One goroutine may read while another writes.
type Conn struct {
	rw io.ReadWriter

	rmu  sync.Mutex
	hdr  [2]byte
	got  int // bytes of the frame in progress read so far, header included
	rbuf []byte
	rerr error // a framing error: the stream is garbage from there on

	wmu  sync.Mutex
	wbuf []byte
}

// NewConn returns a connection that speaks over rw.
func NewConn(rw io.ReadWriter) *Conn {
	return &Conn{rw: rw}
}

// DialConn connects to the platform at addr ("127.0.0.1:3000"), as
// the manual's init_protocol(ip, port) does.
func DialConn(ctx context.Context, addr string) (*Conn, error) {
	var d net.Dialer
	conn, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("cdcsocket: dial dark chess platform: %w", err)
	}
	return NewConn(conn), nil
}

// Close closes the underlying connection, if it can be closed. It is safe to
// call more than once.
func (c *Conn) Close() error {
	if cl, ok := c.rw.(io.Closer); ok {
		if err := cl.Close(); err != nil && !errors.Is(err, net.ErrClosed) && !errors.Is(err, os.ErrClosed) {
			return err
		}
	}
	return nil
}

// ctxIO runs f, one read or write on conn, under ctx.
func ctxIO(ctx context.Context, conn io.ReadWriter, read bool, f func() error) error {
	if ctx.Done() == nil {
		return f()
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("cdcsocket: %w", context.Cause(ctx))
	}
	var set func(time.Time) error
	if read {
		if d, ok := conn.(interface{ SetReadDeadline(time.Time) error }); ok {
			set = d.SetReadDeadline
		}
	} else if d, ok := conn.(interface{ SetWriteDeadline(time.Time) error }); ok {
		set = d.SetWriteDeadline
	}
	dl, hasDL := ctx.Deadline()
	if set != nil && hasDL && set(dl) != nil {
		set = nil
	}
	fired := make(chan struct{})
	stop := context.AfterFunc(ctx, func() {
		defer close(fired)
		if set == nil || set(time.Unix(1, 0)) != nil {
			session.Close(conn)
		}
	})
	err := f()
	if !stop() {
		<-fired
	}
	if set != nil {
		set(time.Time{})
	}
	if err != nil && (ctx.Err() != nil || hasDL && errors.Is(err, os.ErrDeadlineExceeded)) {
		cause := context.Cause(ctx)
		if cause == nil {
			cause = context.DeadlineExceeded
		}
		return fmt.Errorf("cdcsocket: %w (%v)", cause, err)
	}
	return err
}

// readFrame reads one frame's payload, resuming a frame an interrupted call
// left half read.
func (c *Conn) readFrame() ([]byte, error) {
	if c.rerr != nil {
		return nil, c.rerr
	}
	for c.got < 2 {
		n, err := c.rw.Read(c.hdr[c.got:])
		c.got += n
		if c.got < 2 && err != nil {
			if errors.Is(err, io.EOF) && c.got > 0 {
				err = io.ErrUnexpectedEOF
			}
			return nil, err
		}
	}
	n, err := darkChessFrameLen(c.hdr[0], c.hdr[1])
	if err != nil {
		c.rerr = err
		return nil, err
	}
	if cap(c.rbuf) < n {
		c.rbuf = make([]byte, n)
	}
	c.rbuf = c.rbuf[:n]
	for c.got < 2+n {
		k, err := c.rw.Read(c.rbuf[c.got-2:])
		c.got += k
		if c.got < 2+n && err != nil {
			if errors.Is(err, io.EOF) {
				err = io.ErrUnexpectedEOF
			}
			return nil, err
		}
	}
	c.got = 0
	return c.rbuf, nil
}

// ReadMessage reads the next message. A frame whose payload is not a
// message of the protocol returns the parse error (a [*LineError]) and the
// connection goes on; a frame with bad length bytes ([ErrFrame]) or
// the end of the stream (io.EOF, [io.ErrUnexpectedEOF] inside a frame) ends
// it.
func (c *Conn) ReadMessage(ctx context.Context) (Message, error) {
	c.rmu.Lock()
	defer c.rmu.Unlock()
	var payload []byte
	err := ctxIO(ctx, c.rw, true, func() error {
		var err error
		payload, err = c.readFrame()
		return err
	})
	if err != nil {
		return Message{}, err
	}
	return ParseMessage(payload)
}

// WriteMessage writes one message, framed.
func (c *Conn) WriteMessage(ctx context.Context, m Message) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	payload, err := AppendMessage(c.wbuf[:0], m)
	if err != nil {
		return err
	}
	frame, err := AppendFrame(make([]byte, 0, len(payload)+2), payload)
	if err != nil {
		return err
	}
	c.wbuf = payload
	return ctxIO(ctx, c.rw, false, func() error {
		_, err := c.rw.Write(frame)
		return err
	})
}

// readKind reads messages until one of kind k, skipping the others (those
// that do not parse included).
func (c *Conn) readKind(ctx context.Context, k MessageKind) (Message, error) {
	for {
		m, err := c.ReadMessage(ctx)
		var le *tus.LineError
		switch {
		case errors.As(err, &le):
			continue
		case err != nil:
			return m, err
		case m.Kind == k:
			return m, nil
		}
	}
}

// InitBoard waits for "/start_", skipping other messages, acknowledges it
// with "/start" and returns its content: the board, the alive counts, the
// history and the remaining time (the manual's init_board). Build the
// position with [Init.View] once [Conn.Turn] has told the
// colour.
func (c *Conn) InitBoard(ctx context.Context) (Init, error) {
	m, err := c.readKind(ctx, StartMsg)
	if err != nil {
		return Init{}, err
	}
	return m.Init, c.WriteMessage(ctx, Message{Kind: StartAck})
}

// Turn waits for "/turn", skipping other messages, acknowledges it and
// returns whether the engine moves first and its colour ([darkchess.NoColor]
// for a fresh game: the first flip decides), as the manual's get_turn.
func (c *Conn) Turn(ctx context.Context) (first bool, color darkchess.Color, err error) {
	m, err := c.readKind(ctx, TurnMsg)
	if err != nil {
		return false, darkchess.NoColor, err
	}
	return m.First, m.Color, c.WriteMessage(ctx, Message{Kind: TurnAck})
}

// Send sends the engine's ply: "/move" for a move or capture, "/flip" when
// m.From() == m.To(), as the manual's send.
func (c *Conn) Send(ctx context.Context, m darkchess.Move) error {
	return c.WriteMessage(ctx, Message{Kind: PlyMsg, Move: m})
}

// Recv waits for the next ply report, skipping other messages: the echo of
// the engine's own ply or the opponent's ply (a flip with the piece it
// revealed), and the engine's remaining time, as the manual's recv. The end
// of the game is io.EOF: the platform closes the connection.
func (c *Conn) Recv(ctx context.Context) (darkchess.Ply, time.Duration, error) {
	m, err := c.readKind(ctx, PlyReport)
	if err != nil {
		return darkchess.Ply{Move: darkchess.NoMove}, 0, err
	}
	return m.Ply, m.Time, nil
}

// Client plays one game of the legacy socket protocol for a
// [darkchess.Player]. The zero value is ready to use; a client holds only
// settings, so one client may run many games at once.
type Client struct {
	// Margin is the part of the remaining time kept in reserve: the
	// player's deadline is the remaining time, less Margin, after the
	// message that gave it the turn. 0 means 1 s. The margin is at most
	// half the remaining time.
	Margin time.Duration
	// Rules are given to the player in the view; the protocol does not say
	// them. The zero value leaves them unknown (zero) in the view.
	Rules darkchess.Rules
	// Logger receives what happens: every message at Debug, the start and
	// the end at Info, odd messages at Warn. Nil discards it.
	Logger *slog.Logger
}

// Outcome is what a [Client] saw of a game.
type Outcome struct {
	// Started reports that "/start_" and "/turn" arrived.
	Started bool
	// First reports that the engine moved first.
	First bool
	// Color is the engine's colour (NoColor if it never learnt it).
	Color darkchess.Color
	// Final is the last position, with its history and the remaining time.
	Final darkchess.View
}

// PlayerError reports a player that did not give a legal ply. The
// client then closes the connection, which loses the game.
type PlayerError struct {
	View darkchess.View // what the player was asked
	Move darkchess.Move // what it returned
	Err  error          // the player's error, or the *darkchess.MoveError of an illegal ply
}

// Error says what the player did wrong, and where.
func (e *PlayerError) Error() string {
	return fmt.Sprintf("cdcsocket: dark chess player failed in %s: %v", e.View, e.Err)
}

// Unwrap returns Err.
func (e *PlayerError) Unwrap() error { return e.Err }

// Dial plays one game for p on the platform at addr
// ("127.0.0.1:3000") with the zero [Client].
func Dial(ctx context.Context, addr string, p darkchess.Player) (Outcome, error) {
	var c Client
	return c.Dial(ctx, addr, p)
}

// DialArgs plays one game for p on the platform named by the
// program's arguments, "<ip> <port>", as the platform starts an engine:
// pass os.Args[1:].
func DialArgs(ctx context.Context, args []string, p darkchess.Player) (Outcome, error) {
	var c Client
	return c.DialArgs(ctx, args, p)
}

// DialArgs connects to the platform named by args, "<ip> <port>" (the
// program's os.Args[1:]), and plays one game, as [Client.Run].
func (c *Client) DialArgs(ctx context.Context, args []string, p darkchess.Player) (Outcome, error) {
	if len(args) != 2 {
		return Outcome{}, fmt.Errorf("cdcsocket: want the arguments <ip> <port>, got %q", args)
	}
	return c.Dial(ctx, net.JoinHostPort(args[0], args[1]), p)
}

// Dial connects to the platform at addr over TCP and plays one game, as
// [Client.Run].
func (c *Client) Dial(ctx context.Context, addr string, p darkchess.Player) (Outcome, error) {
	if p == nil {
		return Outcome{}, errors.New("cdcsocket: nil darkchess.Player")
	}
	var d net.Dialer
	conn, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return Outcome{}, fmt.Errorf("cdcsocket: dial dark chess platform: %w", err)
	}
	return c.Run(ctx, conn, p)
}

// Run plays one game for p over conn, which it owns from then on: it closes
// conn (if it is an [io.Closer]) before returning, whatever happens.
//
// It acknowledges "/start_" and "/turn", builds the position with
// [Init.View], and from then on follows the order of the protocol:
// the first player moves after an even number of plies, the second after an
// odd one. On its turn it asks p for a ply, checks it with the rules engine
// and sends it; each report (the echo of its own ply and the opponent's) is
// played on the view, the first flip telling the colours, and updates the
// player's remaining time. "/askAction" is taken as "your turn", which the
// order already says (it is ignored when it disagrees); "/color" sets the
// colour if it is unknown; unknown and malformed messages are logged and
// ignored. The player runs while the client keeps reading.
//
// The end of the stream is the end of the game: Run returns the outcome and
// a nil error. A player that fails or returns an illegal ply makes Run close
// the connection (the platform sees the engine leave) and return a
// [*PlayerError]. A report that does not fit the position, a framing
// error, a failed connection or ctx ending (which interrupts the connection)
// are the other errors. Run returns only after every Play call it made has
// returned.
func (c *Client) Run(ctx context.Context, conn io.ReadWriter, p darkchess.Player) (Outcome, error) {
	if p == nil {
		session.Close(conn)
		return Outcome{}, errors.New("cdcsocket: nil darkchess.Player")
	}
	if c.Margin < 0 {
		session.Close(conn)
		return Outcome{}, fmt.Errorf("cdcsocket: negative Client.Margin %v", c.Margin)
	}
	log := c.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	runCtx, cancel := context.WithCancel(ctx)
	s := &dcSession{
		c:       *c,
		conn:    NewConn(conn),
		player:  p,
		log:     log,
		runCtx:  runCtx,
		msgs:    make(chan dcIncoming),
		stop:    make(chan struct{}),
		results: make(chan dcResult, 1),
	}
	return session.Run(ctx, conn, cancel, s.stop, s.read, s.loop, s.drainPlayer)
}

// drainPlayer waits for a Play call still in flight to return.
func (s *dcSession) drainPlayer() {
	if s.thinking != nil {
		<-s.results
		s.thinking = nil
	}
}

// dcIncoming is one message from the platform, or the error that ended
// reading, and when it arrived.
type dcIncoming struct {
	msg Message
	err error
	at  time.Time
}

// dcResult is what one Play call returned.
type dcResult struct {
	move darkchess.Move
	err  error
}

// dcThought is a Play call in flight.
type dcThought struct {
	gen    uint64
	view   darkchess.View
	cancel context.CancelFunc
}

// dcSession is the state of one Run. Only the Run goroutine touches it,
// apart from the channels.
type dcSession struct {
	c      Client
	conn   *Conn
	player darkchess.Player
	log    *slog.Logger
	runCtx context.Context

	msgs    chan dcIncoming
	stop    chan struct{}
	results chan dcResult

	init      Init
	haveInit  bool
	started   bool
	first     bool
	me        darkchess.Color
	view      darkchess.View
	turnAt    time.Time // arrival of the message that gave us the turn
	gen       uint64
	thinking  *dcThought
	awaitEcho bool           // our ply was sent, its echo has not come
	lastSent  darkchess.Move // the last ply we sent
	left      time.Duration  // our remaining time, from the last report or /start_
}

// read is the reader goroutine.
func (s *dcSession) read(done chan<- struct{}) {
	defer close(done)
	for {
		m, err := s.conn.ReadMessage(context.Background())
		var le *tus.LineError
		if errors.As(err, &le) {
			s.log.Warn("dark chess: ignoring a message", "err", err)
			continue
		}
		select {
		case s.msgs <- dcIncoming{msg: m, err: err, at: time.Now()}:
		case <-s.stop:
			return
		}
		if err != nil {
			return
		}
	}
}

// loop runs the game until it ends.
func (s *dcSession) loop(ctx context.Context) (Outcome, error) {
	for {
		select {
		case in := <-s.msgs:
			if in.err != nil {
				if ctx.Err() != nil {
					return s.outcome(), fmt.Errorf("cdcsocket: dark chess game abandoned: %w", context.Cause(ctx))
				}
				if errors.Is(in.err, io.EOF) {
					s.log.Info("dark chess: the platform closed the connection: game over", "plies", len(s.view.History))
					return s.outcome(), nil
				}
				return s.outcome(), fmt.Errorf("cdcsocket: reading from dark chess platform: %w", in.err)
			}
			if err := s.handle(in); err != nil {
				return s.fail(ctx, err)
			}
		case r := <-s.results:
			if ctx.Err() != nil {
				return s.outcome(), fmt.Errorf("cdcsocket: dark chess game abandoned: %w", context.Cause(ctx))
			}
			if err := s.played(r); err != nil {
				var pe *PlayerError
				if errors.As(err, &pe) {
					s.log.Error("dark chess: player failed; leaving the game", "err", err)
					return s.outcome(), err
				}
				return s.fail(ctx, err)
			}
		case <-ctx.Done():
			return s.outcome(), fmt.Errorf("cdcsocket: dark chess game abandoned: %w", context.Cause(ctx))
		}
	}
}

func (s *dcSession) fail(ctx context.Context, err error) (Outcome, error) {
	if ctx.Err() != nil {
		return s.outcome(), fmt.Errorf("cdcsocket: dark chess game abandoned: %w", context.Cause(ctx))
	}
	return s.outcome(), err
}

func (s *dcSession) outcome() Outcome {
	return Outcome{Started: s.started, First: s.first, Color: s.me, Final: s.view}
}

func (s *dcSession) send(m Message) error {
	s.log.Debug("dark chess: send", "kind", m.Kind.String(), "move", m.Move.String())
	if err := s.conn.WriteMessage(s.runCtx, m); err != nil {
		return fmt.Errorf("cdcsocket: writing to dark chess platform: %w", err)
	}
	return nil
}

// myTurn reports whether the order of the protocol gives us the move.
func (s *dcSession) myTurn() bool {
	return s.started && (len(s.view.History)%2 == 0) == s.first
}

// handle acts on one message.
func (s *dcSession) handle(in dcIncoming) error {
	m := in.msg
	s.log.Debug("dark chess: recv", "kind", m.Kind.String())
	switch m.Kind {
	case StartMsg:
		if s.started {
			s.log.Warn("dark chess: a second /start_; starting again")
			s.abandon()
			s.started, s.awaitEcho = false, false
		}
		s.init, s.haveInit = m.Init, true
		return s.send(Message{Kind: StartAck})
	case TurnMsg:
		if err := s.send(Message{Kind: TurnAck}); err != nil {
			return err
		}
		if !s.haveInit {
			s.log.Warn("dark chess: /turn before /start_; ignored")
			return nil
		}
		v, err := s.init.View(m.First, m.Color)
		if err != nil {
			return err
		}
		v.Rules = s.c.Rules
		s.view, s.first, s.me, s.started = v, m.First, v.Viewer(), true
		s.turnAt, s.left = in.at, s.init.Time
		s.log.Info("dark chess: game started", "first", m.First, "color", s.me.String(), "position", v.String())
		return s.decide()
	case PlyReport:
		return s.report(in)
	case AskAction:
		if !s.myTurn() {
			s.log.Warn("dark chess: /askAction out of our turn; ignored")
		}
		return s.decide()
	case ColorMsg:
		if m.Color.Valid() && !s.me.Valid() && s.started {
			s.setColor(m.Color)
		} else if m.Color != s.me {
			s.log.Warn("dark chess: /color disagrees", "color", m.Color.String(), "ours", s.me.String())
		}
	default:
		s.log.Warn("dark chess: ignoring an engine's message from the platform", "kind", m.Kind.String())
	}
	return nil
}

// setColor makes c our colour in the view.
func (s *dcSession) setColor(c darkchess.Color) {
	v := s.view.Position().View(c)
	v.History, v.Rules, v.TimeLeft = s.view.History, s.view.Rules, s.view.TimeLeft
	s.view, s.me = v, c
}

// report plays a reported ply on the view.
func (s *dcSession) report(in dcIncoming) error {
	if !s.started {
		s.log.Warn("dark chess: a ply before the game started; ignored")
		return nil
	}
	ply := in.msg.Ply
	mine := s.myTurn()
	if s.thinking != nil {
		s.log.Warn("dark chess: a ply arrived while we were thinking; dropping our answer")
		s.abandon()
	}
	if mine && s.awaitEcho && ply.Move != s.lastSent {
		s.log.Warn("dark chess: the echo is not our ply", "sent", s.lastSent.String(), "echo", ply.String())
	}
	v, err := s.view.Play(ply)
	if err != nil {
		return fmt.Errorf("cdcsocket: the dark chess platform reported %v, which does not fit the position %s: %w", ply, s.view, err)
	}
	s.view = v
	if !s.me.Valid() && ply.Piece.Valid() {
		// The first flip gives the first player the colour of its piece.
		c := ply.Piece.Color()
		if !s.first {
			c = c.Opponent()
		}
		s.setColor(c)
	}
	s.left = in.msg.Time
	if s.me.Valid() {
		s.view.TimeLeft[s.me] = s.left
	}
	s.awaitEcho = false
	s.turnAt = in.at
	return s.decide()
}

// abandon makes the answer being thought about stale and cancels it.
func (s *dcSession) abandon() {
	s.gen++
	if s.thinking != nil {
		s.thinking.cancel()
	}
}

// decide asks the player for a ply if it is our turn and nothing is in
// flight.
func (s *dcSession) decide() error {
	if !s.myTurn() || s.thinking != nil || s.awaitEcho || s.view.IsOver() {
		return nil
	}
	ctx, cancel := context.WithCancel(s.runCtx)
	if s.left > 0 {
		margin := s.c.Margin
		if margin == 0 {
			margin = time.Second
		}
		margin = min(margin, s.left/2)
		ctx, cancel = context.WithDeadline(s.runCtx, s.turnAt.Add(s.left-margin))
	}
	ctx = timer.WithStatus(ctx, s.status(ctx))
	v := s.view
	s.thinking = &dcThought{gen: s.gen, view: v, cancel: cancel}
	player, results := s.player, s.results
	go func() {
		m, err := player.Play(ctx, v)
		results <- dcResult{move: m, err: err}
	}()
	return nil
}

// status is what the player is told of time on this turn: the platform
// tells our remaining time (in /start_ and each report) but not the
// control nor the opponent's clock, so the control is the ICGA default
// (900 s for the game), not told, and Own is the time told. The deadline
// is ctx's.
func (s *dcSession) status(ctx context.Context) timer.Status {
	st := timer.Untold(timer.ICGADarkChess(), s.turnAt)
	st.Own = timer.Remaining{Told: true, Main: max(s.left, 0)}
	if !s.first {
		st.Side = timer.Second
	}
	st.Played = len(s.view.History) / 2
	st.Deadline, _ = ctx.Deadline()
	return st
}

// played acts on the player's answer.
func (s *dcSession) played(r dcResult) error {
	th := s.thinking
	s.thinking = nil
	th.cancel()
	if th.gen != s.gen {
		s.log.Debug("dark chess: dropping a stale answer", "move", r.move.String(), "err", r.err)
		return s.decide()
	}
	if r.err != nil {
		return &PlayerError{View: th.view, Move: r.move, Err: r.err}
	}
	if !th.view.IsLegal(r.move) {
		return &PlayerError{View: th.view, Move: r.move, Err: &darkchess.MoveError{
			Ply: darkchess.Ply{Move: r.move}, Turn: th.view.Turn(), Reason: "not a legal move", Err: darkchess.ErrIllegalMove}}
	}
	s.awaitEcho, s.lastSent = true, r.move
	return s.send(Message{Kind: PlyMsg, Move: r.move})
}

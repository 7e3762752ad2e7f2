package gat

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"time"

	"github.com/botarena/botarena/geister"
	"github.com/botarena/botarena/internal/lineio"
	"github.com/botarena/botarena/internal/session"
	"github.com/botarena/botarena/protocol/tus"
	"github.com/botarena/botarena/timer"
)

// Client plays one game of Geister on a Java geister server, or any
// server of its protocol, for a [geister.Player]. The zero value is
// ready to use; a client holds only settings, so one client may run many
// games at once.
type Client struct {
	// MoveTime is the deadline put on the ctx passed to Setup and Play,
	// measured from the arrival of the SET? or MOV? that asked; 0 means none.
	// The server does not announce its clock: with the Java server's
	// defaults (600 s, then 10 s a move) a bot that spends at most 8 s a move
	// is always in time. The player also finds it on its ctx as the
	// Deadline of a [timer.Status] (see [timer.StatusFrom]), whose control
	// is the Java server's default, not told.
	MoveTime time.Duration
	// Logger receives what happens: every line at Debug, the start and the
	// end at Info, refusals and odd lines at Warn. Nil discards it.
	Logger *slog.Logger
}

// Outcome is what a [Client] saw of a game.
type Outcome struct {
	// Color is our side as the client inferred it from the first MOV? (see
	// [Client.Run]), or the second player when a result came
	// without any MOV? (the first player is asked for a move as soon as
	// the game starts).
	Color geister.Color
	// Reds is the red set the server accepted (the zero Reds if none was).
	Reds geister.Reds
	// Started reports that a MOV? came.
	Started bool
	// Last is the view of the last MOV?.
	Last geister.View
	// Ended reports that a result came.
	Ended bool
	// End is the first result: WON, LST or DRW with its board.
	End Event
	// Final is End's board as a position, when every colour in it is known
	// (the Java server shows them all); the zero Position otherwise. Its ply
	// count is a best guess: the last MOV?'s, plus one if we answered it.
	Final geister.Position
	// Result is the outcome as End tells it: we won on WON, lost on LST,
	// drew on DRW. The reason is the board's when End's board decides the
	// game (ChessEscape, NoBlueGhost, NoRedGhost), GamePlyLimitDraw for
	// DRW, IllegalMove for a LST right after the server refused our move
	// with NG, and TimeOut otherwise: the protocol does not say why, so a
	// disconnect or an illegal move of the opponent also reads as TimeOut.
	Result geister.Result
}

// PlayerError reports a player that failed: it returned an error, an
// invalid red set or an illegal move. The client then closes the
// connection, which loses the game on the server.
type PlayerError struct {
	Setup bool         // the failure was in Setup
	View  geister.View // Play: what the player was shown
	Reds  geister.Reds // Setup: what it returned
	Move  geister.Move // Play: what it returned
	Err   error        // the player's error, or what is wrong with its answer
}

// Error says what the player did wrong, and where.
func (e *PlayerError) Error() string {
	if e.Setup {
		return fmt.Sprintf("gat: geister player failed in Setup (returned %s): %v", e.Reds, e.Err)
	}
	return fmt.Sprintf("gat: geister player failed in %s (returned %s): %v", e.View, e.Move, e.Err)
}

// Unwrap returns Err.
func (e *PlayerError) Unwrap() error { return e.Err }

// errGeisterIllegal is the Err of a PlayerError for an illegal move.
var errGeisterIllegal = errors.New("illegal move")

// Dial plays one game for p on the Geister server at addr
// ("host:port": port 10000 is the first player's seat on the Java server,
// 10001 the second's) with the zero [Client]: no move deadline, no
// logging.
func Dial(ctx context.Context, addr string, p geister.Player) (Outcome, error) {
	var c Client
	return c.Dial(ctx, addr, p)
}

// Dial connects to the Geister server at addr ("host:port") over TCP and
// plays one game for p, as [Client.Run] does.
func (c *Client) Dial(ctx context.Context, addr string, p geister.Player) (Outcome, error) {
	if err := c.check(p); err != nil {
		return Outcome{}, err
	}
	var d net.Dialer
	conn, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return Outcome{}, fmt.Errorf("gat: dial geister server: %w", err)
	}
	return c.Run(ctx, conn, p)
}

func (c *Client) check(p geister.Player) error {
	if p == nil {
		return errors.New("gat: nil geister.Player")
	}
	if c.MoveTime < 0 {
		return fmt.Errorf("gat: negative Client.MoveTime %v", c.MoveTime)
	}
	return nil
}

// geisterRetries is how many times the client asks its player again after
// the server refused a command (NG), per request.
const geisterRetries = 2

// Run plays one game for p over conn, which it owns from then on: it closes
// conn (if it is an [io.Closer]) before returning, whatever happens.
//
// It reads continuously, splitting on LF (one CR before it is dropped) and
// ignoring trailing spaces. SET? asks p.Setup for the red set,
// sent as SET:; every MOV? (or "MOV:" and a board, the NTPU manual's
// spelling) asks p.Play for a move of the view that board shows, sent as
// MOV:. The player runs while the client keeps reading, so a result cancels
// its ctx, and so does a new MOV? (its answer would be stale). Acks (OK, OKR,
// OKB) are taken as acks only: the next board is the truth. After a NG the
// server waits for another command (a retry, under the Java server's
// --no_ng_terminate, or our host's out-of-turn rule) or ends the game; the
// client asks its player again for the same request, at most twice, and
// otherwise waits. Blank and unknown lines are logged and skipped.
//
// The first WON:, LST: or DRW: ends the game: the client closes the
// connection, ignoring anything after it, and returns the outcome with a nil
// error. "/exit" before a result, or the connection closing before one, is
// an error.
//
// The protocol never says which side we play. The client takes the first
// MOV? to be the first player's when it shows the start position (every
// ghost on its start square), and the second player's otherwise; the views'
// ply counts follow (0, 2, 4, ... or 1, 3, 5, ...). A server that starts from
// another position makes the first player read as the second: the views
// still show the right squares and let the player move, in its own frame.
//
// A player that returns an error, an invalid red set or an illegal move loses
// the game on purpose: the client closes the connection and returns a
// [*PlayerError]. Run returns only after every Setup and Play call it
// made has returned, so a player should honour ctx. The other errors are the
// connection failing, a line longer than [MaxLine], and ctx ending,
// which sets a past deadline on conn (or closes it) so that blocked reads and
// writes return; the error then wraps ctx.Err().
//
// The outcome holds what was seen so far, also with an error.
func (c *Client) Run(ctx context.Context, conn io.ReadWriter, p geister.Player) (Outcome, error) {
	if err := c.check(p); err != nil {
		session.Close(conn)
		return Outcome{}, err
	}
	log := c.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	runCtx, cancel := context.WithCancel(ctx)
	s := &geisterSession{
		c:       *c,
		conn:    conn,
		player:  p,
		log:     log,
		runCtx:  runCtx,
		lines:   make(chan geisterLine),
		stop:    make(chan struct{}),
		results: make(chan geisterAnswer, 1),
	}
	return session.Run(ctx, conn, cancel, s.stop, s.read, s.loop, s.drainPlayer)
}

// drainPlayer waits for a Play call still in flight to return.
func (s *geisterSession) drainPlayer() {
	if s.thinking != nil {
		<-s.results
		s.thinking = nil
	}
}

// geisterLine is one line from the server, or the error that ended reading,
// and when it arrived.
type geisterLine struct {
	text string
	err  error
	at   time.Time
}

// geisterAnswer is what one Setup or Play call returned.
type geisterAnswer struct {
	reds geister.Reds
	move geister.Move
	err  error
}

// geisterThought is a Setup or Play call in flight.
type geisterThought struct {
	gen    uint64 // s.gen when it started; another value means the answer is stale
	setup  bool
	view   geister.View
	cancel context.CancelFunc
}

// geisterAwait says what reply the client waits for.
type geisterAwait uint8

const (
	geisterAwaitNothing geisterAwait = iota
	geisterAwaitSet                  // a SET: was sent
	geisterAwaitMove                 // a MOV: was sent
)

// geisterSession is the state of one Run. Only the Run goroutine touches it,
// apart from the channels.
type geisterSession struct {
	c      Client
	conn   io.ReadWriter
	player geister.Player
	log    *slog.Logger
	runCtx context.Context
	wbuf   []byte

	lines   chan geisterLine   // from the reader goroutine
	stop    chan struct{}      // closed when Run no longer reads lines
	results chan geisterAnswer // from the player goroutine; room for the one in flight

	gen      uint64
	thinking *geisterThought
	await    geisterAwait
	retries  int       // asks spent on refusals of the current request
	askedAt  time.Time // arrival of the request being answered
	setupReq bool      // a SET? is being answered
	moveReq  bool      // a MOV? is being answered
	lastNG   bool      // the last line was a NG to our move

	reds     geister.Reds // sent, and accepted once setOK
	setOK    bool
	started  bool
	me       geister.Color
	view     geister.View
	answered bool // the last MOV? got a MOV: that was not refused

	ended bool
	end   Event
}

// read is the reader goroutine.
func (s *geisterSession) read(done chan<- struct{}) {
	defer close(done)
	lr := lineio.NewReader(s.conn, MaxLine)
	for {
		text, err := lr.ReadLine()
		select {
		case s.lines <- geisterLine{text: text, err: err, at: time.Now()}:
		case <-s.stop:
			return
		}
		if err != nil {
			return
		}
	}
}

// loop runs the game until it ends.
func (s *geisterSession) loop(ctx context.Context) (Outcome, error) {
	for {
		select {
		case l := <-s.lines:
			if l.err != nil {
				return s.readFailed(ctx, l.err)
			}
			done, err := s.handle(l)
			if err != nil {
				return s.fail(ctx, err)
			}
			if done {
				s.log.Info("geister: game over", "result", s.end.Kind.String(), "board", s.end.Board.String(), "outcome", s.outcome().Result.String())
				return s.outcome(), nil
			}
		case r := <-s.results:
			if ctx.Err() != nil {
				return s.fail(ctx, ctx.Err())
			}
			if err := s.onAnswer(r); err != nil {
				var pe *PlayerError
				if errors.As(err, &pe) {
					s.log.Error("geister: player failed; leaving the game", "err", err)
					return s.outcome(), err
				}
				return s.fail(ctx, err)
			}
		case <-ctx.Done():
			return s.fail(ctx, ctx.Err())
		}
	}
}

// fail returns the outcome so far and err, or ctx's error if ctx ended.
func (s *geisterSession) fail(ctx context.Context, err error) (Outcome, error) {
	if ctx.Err() != nil {
		return s.outcome(), fmt.Errorf("gat: geister game abandoned: %w", context.Cause(ctx))
	}
	return s.outcome(), err
}

// readFailed ends the game on a read error.
func (s *geisterSession) readFailed(ctx context.Context, err error) (Outcome, error) {
	switch {
	case ctx.Err() != nil:
		return s.fail(ctx, err)
	case errors.Is(err, io.EOF):
		return s.outcome(), fmt.Errorf("gat: geister server closed the connection before a result: %w", io.ErrUnexpectedEOF)
	case errors.Is(err, lineio.ErrLineTooLong):
		return s.outcome(), fmt.Errorf("gat: geister server sent a line over %d bytes: %w", MaxLine, err)
	}
	return s.outcome(), fmt.Errorf("gat: reading from geister server: %w", err)
}

// send writes one command.
func (s *geisterSession) send(cmd Command) error {
	s.wbuf = AppendCommand(s.wbuf[:0], cmd)
	s.log.Debug("geister: send", "line", string(s.wbuf[:len(s.wbuf)-2]))
	if _, err := s.conn.Write(s.wbuf); err != nil {
		return fmt.Errorf("gat: writing to geister server: %w", err)
	}
	return nil
}

// handle acts on one line from the server. It reports whether the game is
// over, or an error that ends it.
func (s *geisterSession) handle(l geisterLine) (bool, error) {
	s.log.Debug("geister: recv", "line", l.text)
	e, err := ParseEvent(l.text)
	lastNG := s.lastNG
	s.lastNG = false
	if err != nil {
		if !errors.Is(err, tus.ErrEmptyLine) {
			s.log.Warn("geister: ignoring a line", "err", err)
		}
		s.lastNG = lastNG
		return false, nil
	}
	switch e.Kind {
	case SetRequest:
		if s.setupReq || s.setOK || s.started {
			s.log.Warn("geister: SET? again; ignored")
			return false, nil
		}
		s.setupReq, s.askedAt, s.retries = true, l.at, 0
		return false, s.ask()
	case OK:
		switch s.await {
		case geisterAwaitSet:
			s.setOK, s.setupReq = true, false
			s.log.Info("geister: red ghosts accepted", "reds", s.reds.String())
		case geisterAwaitMove:
			s.moveReq = false
		default:
			s.log.Warn("geister: OK without a command")
		}
		s.await = geisterAwaitNothing
	case NG:
		switch s.await {
		case geisterAwaitSet, geisterAwaitMove:
			s.lastNG = s.await == geisterAwaitMove
			s.await = geisterAwaitNothing
			s.answered = false
			if s.retries >= geisterRetries {
				s.log.Error("geister: the server refused our command again; waiting for it")
				return false, nil
			}
			s.retries++
			s.log.Warn("geister: the server refused our command; asking the player again", "retry", s.retries)
			return false, s.ask()
		default:
			s.log.Warn("geister: NG without a command")
		}
	case MoveRequest:
		return false, s.moveRequest(e.Board, l.at)
	case Won, Lost, Draw:
		s.abandon()
		s.lastNG = lastNG
		s.ended, s.end = true, e
		return true, nil
	case Exit:
		s.abandon()
		return false, errors.New("gat: geister server said /exit before a result")
	}
	return false, nil
}

// moveRequest acts on a MOV? board.
func (s *geisterSession) moveRequest(b Board, at time.Time) error {
	s.abandon()
	s.moveReq, s.setupReq = false, false
	if s.await == geisterAwaitSet {
		// A MOV? answers our SET as well as an OK would.
		s.setOK = true
	}
	// A server without acks (the Java server's Python predecessor) asks
	// for the next move without answering the last one.
	s.await = geisterAwaitNothing
	ply := s.view.Ply() + 2
	if !s.started {
		s.me, ply = geister.Second, 1
		if geisterIsStart(b) {
			s.me, ply = geister.First, 0
		}
	}
	v, err := b.View(s.me, ply)
	if err != nil {
		s.log.Warn("geister: MOV? with a board that shows no position; not moving", "board", b.String(), "err", err)
		return nil
	}
	if !s.started {
		s.started = true
		s.log.Info("geister: game started", "color", s.me.String())
	}
	s.view, s.answered = v, false
	s.moveReq, s.askedAt, s.retries = true, at, 0
	return s.ask()
}

// geisterIsStart reports whether every ghost of b is on its start square, as
// the first player sees the start.
func geisterIsStart(b Board) bool {
	s := geister.StartSetup(geister.RedsAt(0), geister.RedsAt(0))
	return b.Squares == [2][8]geister.Square{s.Ghosts[geister.First], s.Ghosts[geister.Second]}
}

// abandon makes any answer being thought about stale and cancels it.
func (s *geisterSession) abandon() {
	s.gen++
	if s.thinking != nil {
		s.thinking.cancel()
	}
}

// ask starts the player on the pending request, if there is one and nothing
// is in flight.
func (s *geisterSession) ask() error {
	if s.thinking != nil || s.await != geisterAwaitNothing || s.ended {
		return nil
	}
	setup := s.setupReq && !s.setOK
	if !setup && !s.moveReq {
		return nil
	}
	ctx, cancel := context.WithCancel(s.runCtx)
	if s.c.MoveTime > 0 {
		ctx, cancel = context.WithDeadline(s.runCtx, s.askedAt.Add(s.c.MoveTime))
	}
	ctx = timer.WithStatus(ctx, s.status(setup))
	th := &geisterThought{gen: s.gen, setup: setup, view: s.view, cancel: cancel}
	s.thinking = th
	player, results := s.player, s.results
	go func() {
		var a geisterAnswer
		if th.setup {
			a.reds, a.err = player.Setup(ctx)
		} else {
			a.move, a.err = player.Play(ctx, th.view)
		}
		results <- a
	}()
	return nil
}

// status is what the player is told of time for the pending request. The
// server tells nothing, so the control is the Java server's default
// (--budget 600 --timeout 10, not told) and no clock is known; the
// deadline is the user's MoveTime, if any, as on the ctx. A setup counts
// no plies and is asked before the side is known (it reads as First).
func (s *geisterSession) status(setup bool) timer.Status {
	def, _ := timer.JavaGeister(timer.JavaGeisterBudget, timer.JavaGeisterTimeout)
	st := timer.Untold(def, s.askedAt)
	if s.c.MoveTime > 0 {
		st.Deadline = s.askedAt.Add(s.c.MoveTime)
	}
	if !setup {
		st.Side = timer.Side(s.me)
		st.Played = s.view.Ply() / 2
	}
	return st
}

// onAnswer acts on the player's answer: SET: or MOV: if it is still wanted
// and valid.
func (s *geisterSession) onAnswer(a geisterAnswer) error {
	th := s.thinking
	s.thinking = nil
	th.cancel()
	if th.gen != s.gen {
		s.log.Debug("geister: dropping a stale answer", "move", a.move.String(), "err", a.err)
		return s.ask()
	}
	if th.setup {
		switch {
		case a.err != nil:
			return &PlayerError{Setup: true, Reds: a.reds, Err: a.err}
		case !a.reds.Valid():
			return &PlayerError{Setup: true, Reds: a.reds, Err: errors.New("a red set is 4 ghosts")}
		}
		s.reds, s.await = a.reds, geisterAwaitSet
		return s.send(Command{Kind: Set, Reds: a.reds})
	}
	switch {
	case a.err != nil:
		return &PlayerError{View: th.view, Move: a.move, Err: a.err}
	case !th.view.IsLegal(a.move):
		return &PlayerError{View: th.view, Move: a.move, Err: errGeisterIllegal}
	}
	s.await, s.answered = geisterAwaitMove, true
	return s.send(Command{Kind: Move, Move: a.move})
}

// outcome reports what was seen so far.
func (s *geisterSession) outcome() Outcome {
	out := Outcome{
		Color:   s.me,
		Started: s.started,
		Last:    s.view,
		Ended:   s.ended,
		End:     s.end,
	}
	if s.setOK {
		out.Reds = s.reds
	}
	if !s.ended {
		return out
	}
	if !s.started {
		// The first player is asked for a move as soon as the game
		// starts: a result without a MOV? comes to the second (or ends
		// the setup, when we cannot tell).
		s.me, out.Color = geister.Second, geister.Second
	}
	ply := s.view.Ply()
	if s.answered {
		ply++
	}
	r := geister.Result{Reason: geister.TimeOut, Winner: s.me}
	switch s.end.Kind {
	case Lost:
		r.Winner = s.me.Opponent()
		if s.lastNG {
			r.Reason = geister.IllegalMove
		}
	case Draw:
		r = geister.Result{Reason: geister.GamePlyLimitDraw, Draw: true}
	}
	board := geister.Result{}
	if p, err := s.end.Board.Position(s.me, ply); err == nil {
		out.Final = p
		board = p.Result()
	} else if v, err := s.end.Board.View(s.me, ply); err == nil {
		board = v.Result()
	}
	if board.Reason != geister.Unfinished && !r.Draw {
		r.Reason = board.Reason
	}
	out.Result = r
	return out
}

package tus

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"strings"
	"time"

	"github.com/botarena/botarena/internal/lineio"
	"github.com/botarena/botarena/internal/session"
	"github.com/botarena/botarena/othello"
	"github.com/botarena/botarena/timer"
)

// Client plays one game of Othello on a TUS OthelloServer
// for an [othello.Player]. The zero value is ready to use; a client holds only
// settings, so one client may run many games at once.
type Client struct {
	// Nick is sent with NICK right after connecting, if set. It must pass
	// [ValidNick]. Without it the server calls the player BLACK or WHITE.
	Nick string
	// MoveTime is the deadline put on the ctx passed to Play, measured from
	// the arrival of the TURN that asked for the move; 0 means none. The
	// server does not announce its limit: the examples use 8 s for the
	// tournament's 10 s. The player also finds it on its ctx as a
	// [timer.Status] (a per-move cap the server did not tell; without
	// MoveTime, no limit), from [timer.StatusFrom].
	MoveTime time.Duration
	// Logger receives what happens: every line at Debug, the start and the
	// end at Info, rejected commands and odd lines at Warn. Nil discards it.
	Logger *slog.Logger
}

// Outcome is what an [Client] saw of a game.
type Outcome struct {
	// Color is our colour, from START (meaningful when Started).
	Color othello.Color
	// Started reports that the server sent START.
	Started bool
	// Final is the position of the last BOARD, with the side to move of the
	// last TURN (black before any).
	Final othello.Position
	// Ended reports that the server sent END; End is then what it said.
	Ended bool
	// End is the END line as read by [ParseEnd].
	End EndResult
	// Result is the outcome, best effort. From END: a draw if it says Draw;
	// else the winner named in Win:[...], matched to a colour by nickname
	// (ours is Nick, or BLACK/WHITE without one); else the side with more
	// discs. The counts come from END's name:count pairs, matched to colours
	// by nickname, or black first if that fails (unknown or duplicate names),
	// and from Final when END has fewer than two pairs. The reason is Discs
	// when Final is a finished game, Disconnect when the server sent CLOSE,
	// and otherwise Timeout (the server does not say; a disconnect reported
	// with END before CLOSE also reads as Timeout). Without END, after the
	// opponent left, we win by Disconnect with Final's counts.
	Result othello.Result
	// OpponentLeft reports that the server sent CLOSE before END: the
	// opponent disconnected.
	OpponentLeft bool
}

// PlayerError reports a player that did not give a legal move. The
// client then sends CLOSE and leaves, which loses the game on the server.
type PlayerError struct {
	Position othello.Position // what the player was asked
	Move     othello.Move     // what it returned (NoMove with an error)
	Err      error            // the player's error, or the *othello.MoveError of an illegal move
}

// Error says what the player did wrong, and where.
func (e *PlayerError) Error() string {
	var pe *othello.MoveError
	if errors.As(e.Err, &pe) {
		return fmt.Sprintf("tus: othello player returned an illegal move in %s: %v", e.Position, e.Err)
	}
	return fmt.Sprintf("tus: othello player failed in %s: %v", e.Position, e.Err)
}

// Unwrap returns Err.
func (e *PlayerError) Unwrap() error { return e.Err }

// Dial plays one game for p on the TUS server at addr ("host:port")
// with the zero [Client]: no nickname, no move deadline, no logging.
func Dial(ctx context.Context, addr string, p othello.Player) (Outcome, error) {
	var c Client
	return c.Dial(ctx, addr, p)
}

// Dial connects to the TUS server at addr ("host:port") over TCP and plays one
// game for p, as [Client.Run] does.
func (c *Client) Dial(ctx context.Context, addr string, p othello.Player) (Outcome, error) {
	if err := c.check(p); err != nil {
		return Outcome{}, err
	}
	var d net.Dialer
	conn, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return Outcome{}, fmt.Errorf("tus: dial TUS server: %w", err)
	}
	return c.Run(ctx, conn, p)
}

func (c *Client) check(p othello.Player) error {
	if p == nil {
		return errors.New("tus: nil othello.Player")
	}
	if c.Nick != "" {
		if err := ValidNick(c.Nick); err != nil {
			return fmt.Errorf("tus: Client.Nick %q: %v", c.Nick, err)
		}
	}
	if c.MoveTime < 0 {
		return fmt.Errorf("tus: negative Client.MoveTime %v", c.MoveTime)
	}
	return nil
}

// othelloCloseGrace is how long the client waits for END after the server
// said CLOSE.
const othelloCloseGrace = time.Second

// Run plays one game for p over conn, which it owns from then on: it closes
// conn (if it is an [io.Closer]) before returning, whatever happens.
//
// It sends NICK at once if Nick is set, then reads continuously. The latest
// BOARD is the position and the last TURN the side to move; each TURN of our
// colour after START asks p for one move (a second TURN of ours in a row
// means the opponent passed, and asks again). The player runs while the client
// keeps reading, so END or CLOSE cancels its ctx. Its move is checked with the
// rules engine and sent as PUT. On ERROR 2 the client asks for BOARD and
// decides again from the reply, at most twice per TURN; on ERROR 3 it waits
// for the next TURN; other ERRORs, SAY, unknown and malformed lines are
// logged and otherwise ignored. END ends the game: the client sends CLOSE and
// returns the outcome with a nil error. CLOSE from the server before END means
// the opponent left: the client waits up to a second for END and then
// returns the outcome with OpponentLeft set and a nil error.
//
// A player that returns an error or an illegal move loses the game on
// purpose: the client sends CLOSE and returns an [*PlayerError]. (A
// substitute move would hide the bug; a player wanting a fallback can pick
// one itself before its deadline.) Run returns only after every Play call it
// made has returned, so a player should honour ctx. The other errors are the
// connection failing or closing before END, a line longer than [MaxLine],
// and ctx ending, which sets a past deadline on conn (or closes it) so
// blocked reads and writes return; the error then wraps ctx.Err(). A conn
// with neither deadlines nor Close cannot be interrupted in a Read or Write.
//
// The outcome holds what was seen so far, also with an error.
func (c *Client) Run(ctx context.Context, conn io.ReadWriter, p othello.Player) (Outcome, error) {
	if err := c.check(p); err != nil {
		session.Close(conn)
		return Outcome{}, err
	}
	log := c.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	runCtx, cancel := context.WithCancel(ctx)
	s := &othelloSession{
		c:       *c,
		conn:    conn,
		player:  p,
		log:     log,
		runCtx:  runCtx,
		results: make(chan othelloPlayResult, 1),
		lines:   make(chan othelloLine),
		stop:    make(chan struct{}),
		turn:    othello.Black,
	}
	return session.Run(ctx, conn, cancel, s.stop, s.read, s.loop, s.drainPlayer)
}

// drainPlayer waits for a Play call still in flight to return.
func (s *othelloSession) drainPlayer() {
	if s.thinking != nil {
		<-s.results
		s.thinking = nil
	}
}

// othelloLine is one line read from the server, or the error that ended
// reading, and when it arrived.
type othelloLine struct {
	text string
	err  error
	at   time.Time
}

// othelloPlayResult is what one Play call returned.
type othelloPlayResult struct {
	move othello.Move
	err  error
}

// othelloThought is a Play call in flight.
type othelloThought struct {
	gen    uint64           // s.gen when it started; another value means the answer is stale
	pos    othello.Position // the position the player was given
	cancel context.CancelFunc
}

// othelloSession is the state of one Run. Only the Run goroutine touches it,
// apart from the channels.
type othelloSession struct {
	c      Client // a copy of the settings
	conn   io.ReadWriter
	player othello.Player
	log    *slog.Logger
	runCtx context.Context // parent of the player's ctx; cancelled when Run returns
	wbuf   []byte

	lines   chan othelloLine       // from the reader goroutine
	stop    chan struct{}          // closed when Run no longer reads lines
	results chan othelloPlayResult // from the player goroutine; room for the one in flight

	started      bool
	me           othello.Color
	haveBoard    bool
	black, white othello.Bitboard
	turn         othello.Color // side to move of the last TURN
	turnAt       time.Time     // arrival of the last TURN

	gen        uint64          // bumped whenever an answer being thought about becomes stale
	thinking   *othelloThought // the Play call in flight, or nil
	want       bool            // the last TURN is ours and no PUT has answered it yet
	awaitReply bool            // a PUT was sent and nothing has answered it yet
	resync     bool            // BOARD was requested; decide again on the reply
	retries    int             // BOARD requests spent on the last TURN

	ended        bool
	end          EndResult
	opponentLeft bool
	grace        <-chan time.Time // runs after CLOSE from the server
}

// read is the reader goroutine: it hands every line, then the error that ended
// reading, to the Run goroutine until stop is closed.
func (s *othelloSession) read(done chan<- struct{}) {
	defer close(done)
	lr := lineio.NewReader(s.conn, MaxLine)
	for {
		text, err := lr.ReadLine()
		select {
		case s.lines <- othelloLine{text: text, err: err, at: time.Now()}:
		case <-s.stop:
			return
		}
		if err != nil {
			return
		}
	}
}

// loop runs the game until it ends, and returns the outcome.
func (s *othelloSession) loop(ctx context.Context) (Outcome, error) {
	if s.c.Nick != "" {
		if err := s.send(Command{Kind: Nick, Text: s.c.Nick}); err != nil {
			return s.fail(ctx, err)
		}
	}
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
				return s.finish()
			}
		case r := <-s.results:
			if ctx.Err() != nil {
				// The player stopped because we are leaving; its answer
				// is in, so drainPlayer has nothing to wait for.
				s.thinking = nil
				return s.fail(ctx, ctx.Err())
			}
			if err := s.played(r); err != nil {
				var pe *PlayerError
				if errors.As(err, &pe) {
					s.log.Error("tus: player failed; leaving the game", "err", err)
					s.sendClose()
					return s.outcome(), err
				}
				return s.fail(ctx, err)
			}
		case <-s.grace:
			s.log.Info("tus: no END within a second of CLOSE: the opponent left")
			return s.outcome(), nil
		case <-ctx.Done():
			return s.fail(ctx, ctx.Err())
		}
	}
}

// fail returns the outcome so far and err, or ctx's error if ctx ended (which
// is then what broke the connection).
func (s *othelloSession) fail(ctx context.Context, err error) (Outcome, error) {
	if ctx.Err() != nil {
		return s.outcome(), fmt.Errorf("tus: othello game abandoned: %w", context.Cause(ctx))
	}
	return s.outcome(), err
}

// readFailed ends the game on a read error.
func (s *othelloSession) readFailed(ctx context.Context, err error) (Outcome, error) {
	switch {
	case ctx.Err() != nil:
		return s.fail(ctx, err)
	case s.opponentLeft:
		s.log.Info("tus: the server closed the connection after CLOSE: the opponent left")
		return s.outcome(), nil
	case errors.Is(err, io.EOF):
		return s.outcome(), fmt.Errorf("tus: TUS server closed the connection before END: %w", io.ErrUnexpectedEOF)
	case errors.Is(err, lineio.ErrLineTooLong):
		return s.outcome(), fmt.Errorf("tus: TUS server sent a line over %d bytes: %w", MaxLine, err)
	}
	return s.outcome(), fmt.Errorf("tus: reading from TUS server: %w", err)
}

// finish ends the game after END: CLOSE, then the outcome.
func (s *othelloSession) finish() (Outcome, error) {
	s.sendClose()
	out := s.outcome()
	s.log.Info("tus: game over", "end", s.end.Text, "result", out.Result.String())
	return out, nil
}

// sendClose sends CLOSE, best effort: within a second if conn has deadlines.
func (s *othelloSession) sendClose() {
	if d, ok := s.conn.(interface{ SetWriteDeadline(time.Time) error }); ok {
		d.SetWriteDeadline(time.Now().Add(time.Second))
	}
	if err := s.send(Command{Kind: Close}); err != nil {
		s.log.Debug("tus: CLOSE not sent", "err", err)
	}
}

// send writes one command.
func (s *othelloSession) send(cmd Command) error {
	s.wbuf = AppendCommand(s.wbuf[:0], cmd)
	s.log.Debug("tus: send", "line", string(s.wbuf[:len(s.wbuf)-1]))
	if _, err := s.conn.Write(s.wbuf); err != nil {
		return fmt.Errorf("tus: writing to TUS server: %w", err)
	}
	return nil
}

// handle acts on one line from the server. It reports whether the game is
// over (END), or an error that ends it (a failed write).
func (s *othelloSession) handle(l othelloLine) (bool, error) {
	s.log.Debug("tus: recv", "line", l.text)
	e, err := ParseEvent(l.text)
	if err != nil {
		switch {
		case errors.Is(err, ErrEmptyLine):
		case strings.HasPrefix(l.text, "BOARD"):
			// Our idea of the board is unknown now: decide only after
			// asking for it again.
			s.haveBoard = false
			s.log.Warn("tus: ignoring a malformed BOARD", "err", err)
		default:
			s.log.Warn("tus: ignoring a line", "err", err)
		}
		return false, nil
	}
	switch e.Kind {
	case Start:
		if s.started && e.Color != s.me {
			s.log.Warn("tus: START with another colour", "was", s.me.String(), "now", e.Color.String())
		}
		s.started, s.me = true, e.Color
		s.log.Info("tus: game started", "color", e.Color.String())
	case Board:
		s.black, s.white, s.haveBoard = e.Black, e.White, true
		if th := s.thinking; th != nil && th.gen == s.gen && (th.pos.Black() != e.Black || th.pos.White() != e.White) {
			// The board moved under the player: its answer would be stale.
			// Only the TURN that follows may ask for a move.
			s.log.Warn("tus: BOARD changed during our turn; waiting for TURN")
			s.abandon()
		}
		s.awaitReply = false
		if s.resync {
			s.resync = false
			return false, s.decide()
		}
	case Turn:
		s.abandon()
		s.turn, s.turnAt = e.Color, l.at
		s.awaitReply, s.resync, s.retries = false, false, 0
		switch {
		case !s.started:
			s.log.Warn("tus: TURN before START; not moving")
		case e.Color == s.me:
			s.want = true
			return false, s.decide()
		}
	case SayRelay:
		s.log.Info("tus: say", "text", e.Text)
	case Error:
		return false, s.rejected(e.Code)
	case End:
		s.abandon()
		s.ended, s.end = true, ParseEnd(e.Text)
		return true, nil
	case CloseNotice:
		if !s.opponentLeft {
			s.log.Info("tus: CLOSE from the server: the opponent left; waiting for END")
			s.abandon()
			s.opponentLeft = true
			s.grace = time.After(othelloCloseGrace)
		}
	}
	return false, nil
}

// rejected acts on ERROR code.
func (s *othelloSession) rejected(code int) error {
	put := s.awaitReply
	s.awaitReply = false
	switch {
	case code == 2 && put && s.retries < 2:
		s.retries++
		s.log.Warn("tus: ERROR 2: the server refused our move; asking for BOARD to decide again", "retry", s.retries)
		s.want, s.resync = true, true
		return s.send(Command{Kind: BoardRequest})
	case code == 2 && put:
		s.log.Error("tus: ERROR 2 after two retries; waiting for the server")
	case code == 3:
		s.log.Warn("tus: ERROR 3: not our turn; waiting for TURN")
		s.abandon()
	default:
		// ERROR 1 or 4 during play is a bug of ours; the server goes on.
		s.log.Warn("tus: command refused", "code", code, "after_put", put)
	}
	return nil
}

// abandon makes any answer being thought about stale, cancels it, and drops
// the wish to move until the next TURN.
func (s *othelloSession) abandon() {
	s.gen++
	s.want = false
	s.resync = false
	if s.thinking != nil {
		s.thinking.cancel()
	}
}

// decide asks the player for a move if one is due and none is being thought
// about. Without a usable position it asks for BOARD, within the retry
// budget of the TURN.
func (s *othelloSession) decide() error {
	if !s.want || !s.started || s.turn != s.me || s.thinking != nil || s.awaitReply || s.resync || s.opponentLeft || s.ended {
		return nil
	}
	pos, err := othello.NewPosition(othello.Setup{Black: s.black, White: s.white, Turn: s.me})
	switch {
	case !s.haveBoard || err != nil || pos.LegalSquares() == 0:
		if s.retries >= 2 {
			s.log.Error("tus: our TURN but no move in the position; waiting for the server", "position", pos.String())
			s.want = false
			return nil
		}
		s.retries++
		s.log.Warn("tus: our TURN but no usable position; asking for BOARD", "have_board", s.haveBoard, "position", pos.String())
		s.resync = true
		return s.send(Command{Kind: BoardRequest})
	}
	ctx, cancel := context.WithCancel(s.runCtx)
	if s.c.MoveTime > 0 {
		ctx, cancel = context.WithDeadline(s.runCtx, s.turnAt.Add(s.c.MoveTime))
	}
	ctx = timer.WithStatus(ctx, s.status())
	s.thinking = &othelloThought{gen: s.gen, pos: pos, cancel: cancel}
	player, results := s.player, s.results
	go func() {
		m, err := player.Play(ctx, pos)
		results <- othelloPlayResult{move: m, err: err}
	}()
	return nil
}

// status is what the player is told of time for the last TURN. The
// server tells nothing and limits nothing unless started with -timeout, so
// the control is the user's MoveTime as a per-move cap (not told), or no
// limit without it; the deadline is the one put on the ctx.
func (s *othelloSession) status() timer.Status {
	st := timer.Untold(timer.Control{}, s.turnAt)
	if s.c.MoveTime > 0 {
		st = timer.PerMoveStatus(s.c.MoveTime, false, s.turnAt)
	}
	st.Side = timer.First
	if s.me == othello.White {
		st.Side = timer.Second
	}
	return st
}

// played acts on the player's answer: a PUT if it is still wanted and legal.
func (s *othelloSession) played(r othelloPlayResult) error {
	th := s.thinking
	s.thinking = nil
	th.cancel()
	if th.gen != s.gen || !s.want {
		s.log.Debug("tus: dropping a stale answer", "move", r.move.String(), "err", r.err)
		return s.decide()
	}
	if r.err != nil {
		return &PlayerError{Position: th.pos, Move: r.move, Err: r.err}
	}
	if _, err := th.pos.Play(r.move); err != nil {
		return &PlayerError{Position: th.pos, Move: r.move, Err: err}
	}
	s.want, s.awaitReply = false, true
	sq := r.move.Square()
	return s.send(Command{Kind: Put, X: sq.X(), Y: sq.Y()})
}

// myName is the name the server knows us by.
func (s *othelloSession) myName() string {
	switch {
	case s.c.Nick != "":
		return s.c.Nick
	case !s.started:
		return ""
	case s.me == othello.White:
		return "WHITE"
	}
	return "BLACK"
}

// outcome reports what was seen so far.
func (s *othelloSession) outcome() Outcome {
	final, err := othello.NewPosition(othello.Setup{Black: s.black, White: s.white, Turn: s.turn})
	if err != nil {
		final = othello.Position{}
	}
	out := Outcome{
		Color:        s.me,
		Started:      s.started,
		Final:        final,
		Ended:        s.ended,
		End:          s.end,
		OpponentLeft: s.opponentLeft,
	}
	switch {
	case s.ended:
		out.Result = othelloEndResult(s.end, final, s.me, s.started, s.myName(), s.opponentLeft)
	case s.opponentLeft:
		out.Result = othello.Result{Reason: othello.Disconnect, Winner: s.me,
			Black: final.Count(othello.Black), White: final.Count(othello.White)}
	}
	return out
}

// othelloEndResult reads a Result from END as Outcome.Result says.
func othelloEndResult(e EndResult, final othello.Position, me othello.Color, started bool, myName string, opponentLeft bool) othello.Result {
	r := othello.Result{Black: final.Count(othello.Black), White: final.Count(othello.White)}
	var names [2]string // black's, white's; "" when unknown
	if len(e.Counts) >= 2 {
		a, b := e.Counts[0], e.Counts[1]
		if started && myName != "" && a.Nick != b.Nick && (a.Nick == myName) != (b.Nick == myName) {
			if (a.Nick == myName) != (me == othello.Black) {
				a, b = b, a // the second pair is black's
			}
		}
		names = [2]string{a.Nick, b.Nick}
		r.Black, r.White = a.Discs, b.Discs
	}
	winner, decided := othello.Black, false
	switch {
	case e.Draw:
		r.Draw, decided = true, true
	case e.Winner == "":
	case names[0] != "" && names[0] != names[1] && e.Winner == names[0]:
		winner, decided = othello.Black, true
	case names[0] != "" && names[0] != names[1] && e.Winner == names[1]:
		winner, decided = othello.White, true
	case names[0] != "":
		// A name that is neither pair's, or both players have the name:
		// only the counts can tell.
	case started && myName != "":
		// No pairs: the winner is us or the other one.
		winner, decided = me.Opponent(), true
		if e.Winner == myName {
			winner = me
		}
	}
	if !decided {
		switch {
		case r.Black > r.White:
			winner = othello.Black
		case r.White > r.Black:
			winner = othello.White
		default:
			r.Draw = true
		}
	}
	if !r.Draw {
		r.Winner = winner
	}
	switch {
	case r.Draw || final.IsOver():
		r.Reason = othello.Discs
	case opponentLeft:
		r.Reason = othello.Disconnect
	default:
		r.Reason = othello.Timeout
	}
	return r
}

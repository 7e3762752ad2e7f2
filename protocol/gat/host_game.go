package gat

import (
	"errors"
	"net"
	"time"

	"github.com/botarena/botarena/geister"
	"github.com/botarena/botarena/internal/lineio"
	"github.com/botarena/botarena/timer"
)

// geisterGame is one game and the goroutine that referees it (the Serve
// goroutine, in games). Only that goroutine touches its fields.
type geisterGame struct {
	s    *geisterServer
	id   int
	conn [2]*geisterConn // by seat; nil while the seat is free

	set        [2]bool
	reds       [2]geister.Reds
	setupTimer [2]*time.Timer

	g        *geister.Game // nil until both players have set
	events   chan geisterLineEvent
	written  chan geisterWritten // the MOV?s written to the mover
	done     chan struct{}       // closed when the game is over
	clock    geisterTurnClock
	turnSeq  uint64      // the number of the last MOV?
	pending  uint64      // turnSeq while its MOV? awaits a legal move, else 0
	firstAsk time.Time   // when the first MOV? was sent
	moveAt   []time.Time // when each accepted move was read
	over     bool
	rec      GameRecord

	// The Wait pause after a reply (see reply): while replied is not nil,
	// reply number replySeq is on its way to it, and the pause starts once
	// it has been written (its number comes on repliedOut) or the
	// connection is gone; waiting is the pause running; next runs after it.
	// No command is handled meanwhile.
	replied    *geisterConn
	replySeq   uint64
	repliedOut chan uint64
	waiting    <-chan time.Time
	next       func()
}

func newGeisterGame(s *geisterServer, id int) *geisterGame {
	return &geisterGame{
		s:       s,
		id:      id,
		events:  make(chan geisterLineEvent),
		written: make(chan geisterWritten, 1),
		done:    make(chan struct{}),

		repliedOut: make(chan uint64, 1),
		clock:      newGeisterTurnClock(s.time),
		rec:        GameRecord{ID: id},
	}
}

// run referees the game from the first connection to the result.
func (g *geisterGame) run() {
	defer g.finish()
	for !g.over {
		var arrive [2]<-chan net.Conn
		if g.g == nil {
			for i, c := range g.conn {
				if c == nil {
					arrive[i] = g.s.arrive[i]
				}
			}
		}
		events := g.events
		var repliedGone <-chan struct{}
		if g.replied != nil {
			events, repliedGone = nil, g.replied.done
		} else if g.waiting != nil {
			events = nil
		}
		select {
		case nc := <-arrive[0]:
			g.join(geister.First, nc)
		case nc := <-arrive[1]:
			g.join(geister.Second, nc)
		case ev := <-events:
			g.handle(ev)
		case w := <-g.written:
			if w.seq == g.pending && !g.over {
				g.clock.start(g.g.Turn(), w.at)
			}
		case <-g.setupExpired(geister.First):
			g.setupTimeout(geister.First)
		case <-g.setupExpired(geister.Second):
			g.setupTimeout(geister.Second)
		case <-g.clock.expired():
			if g.clock.rang() {
				g.timeout()
			}
		case seq := <-g.repliedOut:
			if seq == g.replySeq {
				g.startPause()
			}
		case <-repliedGone:
			g.startPause() // the reply will never be written: pause all the same
		case <-g.waiting:
			g.waiting = nil
			if next := g.next; next != nil {
				g.next = nil
				next()
			}
		case <-g.s.ctx.Done():
			g.abort()
		}
	}
}

// join seats nc and asks it for its red ghosts.
func (g *geisterGame) join(seat geister.Color, nc net.Conn) {
	c := g.s.newConn(g, seat, nc)
	if c == nil {
		return
	}
	g.conn[seat] = c
	g.rec.Remote[seat] = c.remote
	if g.conn[seat.Opponent()] != nil {
		g.rec.Began = time.Now()
	}
	g.s.log.Info("geister host: player connected", "game", g.id, "seat", seat.String(), "remote", c.remote)
	c.send(Event{Kind: SetRequest}, nil)
	d := g.s.h.SetupTimeout
	if d == 0 {
		d = geisterSetupTimeout
	}
	if d > 0 {
		g.setupTimer[seat] = time.NewTimer(d)
	}
}

// setupExpired returns the channel of seat's setup timer, or nil.
func (g *geisterGame) setupExpired(seat geister.Color) <-chan time.Time {
	if t := g.setupTimer[seat]; t != nil && g.g == nil && !g.set[seat] {
		return t.C
	}
	return nil
}

// stopSetupTimer stops seat's setup timer.
func (g *geisterGame) stopSetupTimer(seat geister.Color) {
	if t := g.setupTimer[seat]; t != nil {
		t.Stop()
		g.setupTimer[seat] = nil
	}
}

// handle acts on one event from a reader.
func (g *geisterGame) handle(ev geisterLineEvent) {
	c := ev.c
	if c != g.conn[c.seat] {
		return // a connection dropped during setup
	}
	if ev.err != nil {
		g.lost(c, ev.err)
		return
	}
	if ev.line == "" {
		return // empty lines are ignored, where the Java server counts them as errors
	}
	if len(g.rec.Commands) < geisterMaxCommands {
		g.rec.Commands = append(g.rec.Commands, Received{Side: c.seat, Line: ev.line, At: ev.at})
	}
	g.s.log.Debug("geister host: recv", "game", g.id, "seat", c.seat.String(), "line", ev.line)
	cmd, err := ParseCommand(ev.line)
	if g.g == nil {
		g.setupLine(c, cmd, err)
		return
	}
	if c.seat != g.g.Turn() {
		g.ng(c) // out of turn: never fatal
		return
	}
	if err != nil || cmd.Kind != Move || !g.g.Position().IsLegal(cmd.Move) {
		g.refuse(c)
		return
	}
	g.play(c, cmd.Move, ev.at)
}

// setupLine acts on a command during setup.
func (g *geisterGame) setupLine(c *geisterConn, cmd Command, err error) {
	if err != nil || cmd.Kind != Set || g.set[c.seat] {
		g.ng(c)
		return
	}
	g.stopSetupTimer(c.seat)
	g.set[c.seat] = true
	g.reds[c.seat] = cmd.Reds
	g.rec.Reds[c.seat] = cmd.Reds
	g.s.log.Info("geister host: red ghosts set", "game", g.id, "seat", c.seat.String())
	if !g.set[c.seat.Opponent()] || g.conn[c.seat.Opponent()] == nil {
		g.reply(c, Event{Kind: OK}, func() {
			g.publish(ViewerWaiting, 0, g.setupBoard(geister.Second))
		})
		return
	}
	start := g.s.h.Start
	if start == (geister.Position{}) {
		var err error
		start, err = geister.Start(g.reds[0], g.reds[1])
		if err != nil { // cannot happen: ParseReds gives valid sets
			g.abort()
			return
		}
	} else {
		g.rec.Reds = [2]geister.Reds{start.Reds(geister.First), start.Reds(geister.Second)}
	}
	g.g = geister.NewGame(g.s.rules, start)
	g.rec.Start = start
	g.s.log.Info("geister host: game start", "game", g.id, "first", g.rec.Remote[0], "second", g.rec.Remote[1])
	g.onPly(geister.NoMove, g.g.Turn(), geister.Unknown)
	g.reply(c, Event{Kind: OK}, func() {
		if r, over := g.g.Result(); over {
			g.end(r, nil)
			return
		}
		g.askMove()
	})
}

// ng refuses a command without consequence: NG, and the viewer shows the
// board again with the MOV: label, as the Java server's does.
func (g *geisterGame) ng(c *geisterConn) {
	g.reply(c, Event{Kind: NG}, func() {
		if g.g == nil {
			g.publish(ViewerWaiting, 0, g.setupBoard(geister.Second))
		} else {
			g.publish(ViewerWaiting, 0, ResultBoard(g.g.Position(), geister.Second))
		}
	})
}

// refuse answers NG to a bad command from the side to move, which loses
// under geister.Lose.
func (g *geisterGame) refuse(c *geisterConn) {
	if !g.g.Reject() {
		g.ng(c) // Retry: the same player sends another move
		return
	}
	g.clock.stop()
	g.s.log.Info("geister host: illegal move", "game", g.id, "seat", c.seat.String())
	r, _ := g.g.Result()
	g.reply(c, Event{Kind: NG}, func() { g.end(r, nil) })
}

// play plays a legal move of the side to move, read at the given time.
func (g *geisterGame) play(c *geisterConn, m geister.Move, at time.Time) {
	elapsed, inTime := g.clock.stopAt(at)
	g.pending = 0
	if !inTime {
		// A legal move that came after the deadline, before the alarm
		// rang: too late to be played.
		g.timeout()
		return
	}
	pos := g.g.Position()
	ack := Event{Kind: OK}
	if _, col, ok := pos.Captures(m); ok {
		ack.Capture = col // an escape captures nothing: "OK " (D7)
	}
	if err := g.g.Play(m); err != nil { // cannot happen: IsLegal said yes
		g.refuse(c)
		return
	}
	g.rec.Times = append(g.rec.Times, elapsed)
	g.moveAt = append(g.moveAt, at)
	g.onPly(pos.Normalize(m), c.seat, ack.Capture)
	g.reply(c, ack, func() {
		if r, over := g.g.Result(); over {
			g.end(r, nil)
			return
		}
		g.askMove()
	})
}

// reply sends e, the answer to a command of c (OK, OKR, OKB or NG), and then
// runs next (if not nil): at once without Wait; else Wait after e has been
// written to c's socket, as the Java server sleeps after each reply, before
// whatever it sends next (the next MOV?, the results, LST: after
// the NG of an illegal move). No command is handled during the pause, and
// the pause is charged to nobody (no MOV? is pending); only a time out, a
// setup timeout or Serve's end can end the game meanwhile, and next then
// does not run.
func (g *geisterGame) reply(c *geisterConn, e Event, next func()) {
	if g.s.h.Wait <= 0 {
		c.send(e, nil)
		if next != nil {
			next()
		}
		return
	}
	g.replySeq++
	seq := g.replySeq
	g.replied, g.next = c, next
	c.send(e, func() {
		select {
		case g.repliedOut <- seq:
		case <-g.done:
		}
	})
}

// startPause starts the Wait pause: the reply has been written.
func (g *geisterGame) startPause() {
	if g.replied == nil {
		return
	}
	g.replied = nil
	g.waiting = time.After(g.s.h.Wait)
}

// askMove sends MOV? to the side to move; its clock starts when the message
// has been written.
func (g *geisterGame) askMove() {
	if g.firstAsk.IsZero() {
		g.firstAsk = time.Now()
	}
	g.turnSeq++
	g.pending = g.turnSeq
	seq, mover := g.turnSeq, g.g.Turn()
	var written func()
	if g.clock.clock != nil {
		written = func() {
			select {
			case g.written <- geisterWritten{seq, time.Now()}:
			case <-g.done:
			}
		}
	}
	g.conn[mover].send(Event{Kind: MoveRequest, Board: ViewBoard(g.g.View(mover))}, written)
	g.publish(ViewerToMove, mover, ResultBoard(g.g.Position(), geister.Second))
}

// timeout ends the game: the side to move ran out of time.
func (g *geisterGame) timeout() {
	loser := g.g.Turn()
	g.s.log.Info("geister host: time out", "game", g.id, "seat", loser.String())
	if g.g.Forfeit(loser, geister.TimeOut) == nil {
		r, _ := g.g.Result()
		g.end(r, nil)
	}
}

// lost handles the end of c's input.
func (g *geisterGame) lost(c *geisterConn, err error) {
	if errors.Is(err, lineio.ErrLineTooLong) {
		// The line is a bad command, and the next cannot be found: NG, and
		// the loss after it (Wait between them, as for an illegal move).
		g.clock.stop()
		g.reply(c, Event{Kind: NG}, func() { g.forfeit(c, geister.IllegalMove, err) })
		return
	}
	c.kill()
	g.forfeit(c, geister.Disconnect, err)
}

// forfeit makes c lose for reason (a line too long or a disconnect, err);
// during setup only if its opponent is there and has set, otherwise its
// seat is free again.
func (g *geisterGame) forfeit(c *geisterConn, reason geister.Reason, err error) {
	g.s.log.Info("geister host: player lost", "game", g.id, "seat", c.seat.String(), "reason", reason.String(), "err", err)
	if g.g == nil {
		// Setup: the player loses only if its opponent is there and has
		// set; otherwise its seat is free again.
		if g.set[c.seat.Opponent()] && g.conn[c.seat.Opponent()] != nil {
			g.end(geister.Result{Reason: reason, Winner: c.seat.Opponent()}, nil)
			return
		}
		g.drop(c)
		return
	}
	if g.g.Forfeit(c.seat, reason) == nil {
		r, _ := g.g.Result()
		var gone *geisterConn
		if reason == geister.Disconnect {
			gone = c
		}
		g.end(r, gone)
	}
}

// setupTimeout handles a player that has not set its red ghosts in time.
func (g *geisterGame) setupTimeout(seat geister.Color) {
	g.setupTimer[seat] = nil
	c := g.conn[seat]
	g.s.log.Info("geister host: no SET in time", "game", g.id, "seat", seat.String())
	if g.set[seat.Opponent()] && g.conn[seat.Opponent()] != nil {
		g.end(geister.Result{Reason: geister.TimeOut, Winner: seat.Opponent()}, nil)
		return
	}
	g.drop(c)
}

// drop frees a seat during setup: the connection is closed without a result.
func (g *geisterGame) drop(c *geisterConn) {
	g.rec.Began = time.Time{}
	g.stopSetupTimer(c.seat)
	g.conn[c.seat] = nil
	g.set[c.seat] = false
	g.reds[c.seat] = 0
	g.rec.Reds[c.seat] = 0
	g.rec.Remote[c.seat] = ""
	c.closeAfterWrites()
}

// end sends the results: to each connected player (but gone, the loser that
// disconnected) its WON:, LST: or DRW: with its global board, first player
// first, then closes the connections after a drain.
func (g *geisterGame) end(r geister.Result, gone *geisterConn) {
	g.rec.Result = r
	g.rec.Ended = time.Now()
	g.clock.stop()
	for seat, c := range g.conn {
		if c == nil || c == gone {
			continue
		}
		e := Event{Kind: Draw, Board: g.finalBoard(geister.Color(seat))}
		switch {
		case r.Draw:
		case r.Winner == geister.Color(seat):
			e.Kind = Won
		default:
			e.Kind = Lost
		}
		c.send(e, nil)
		c.closeAfterWrites()
	}
	if r.Draw {
		g.publish(ViewerDraw, 0, g.finalBoard(geister.Second))
	} else {
		g.publish(ViewerWon, r.Winner, g.finalBoard(geister.Second))
	}
	g.s.log.Info("geister host: game over", "game", g.id, "result", r.String())
	g.over = true
}

// finalBoard is the global board of the game for receiver: the position, or
// during setup the start board with the colours set so far.
func (g *geisterGame) finalBoard(receiver geister.Color) Board {
	if g.g != nil {
		return ResultBoard(g.g.Position(), receiver)
	}
	return g.setupBoard(receiver)
}

// setupBoard is the start board for receiver, with the ghosts of a side that
// has not set yet all blue (the Java server's default).
func (g *geisterGame) setupBoard(receiver geister.Color) Board {
	return geisterSetupBoard(g.reds, g.set, receiver)
}

// onPly tells OnPly, if set, of the start of play (m is NoMove) or of the
// move m (normalised) that mover just played.
func (g *geisterGame) onPly(m geister.Move, mover geister.Color, capture geister.GhostColor) {
	f := g.s.h.OnPly
	if f == nil {
		return
	}
	p := g.g.Position()
	e := PlyEvent{Game: g.id, Players: g.rec.Remote, N: p.Ply(), Move: m, Mover: mover, Capture: capture, Position: p}
	if g.clock.clock != nil {
		e.Clock = g.clock.clock.Snapshot()
	}
	e.Result, _ = g.g.Result()
	f(e)
}

// publish tells the viewer, if there is one.
func (g *geisterGame) publish(k ViewerKind, side geister.Color, b Board) {
	if v := g.s.h.Viewer; v != nil {
		v.Publish(ViewerState{Kind: k, Side: side, Board: b})
	}
}

// abort ends a game cut short by Serve returning: no result, every
// connection closed.
func (g *geisterGame) abort() {
	for _, c := range g.conn {
		if c != nil {
			c.kill()
		}
	}
	g.clock.stop()
	g.over = true
}

// finish releases the readers and reports the game.
func (g *geisterGame) finish() {
	close(g.done)
	g.clock.stop()
	for i := range g.setupTimer {
		g.stopSetupTimer(geister.Color(i))
	}
	if g.g != nil {
		g.rec.Moves = g.g.Moves()
	}
	if g.conn[0] == nil || g.conn[1] == nil {
		return // nobody played
	}
	if g.rec.Ended.IsZero() {
		g.rec.Ended = time.Now()
	}
	g.rec.RecordFile = g.writeRecord()
	if f := g.s.h.OnGameEnd; f != nil {
		f(g.rec)
	}
}

// geisterWritten tells the game that the MOV? numbered seq reached the
// mover's socket, and when.
type geisterWritten struct {
	seq uint64
	at  time.Time
}

// geisterTurnClock is the players' clock on a [timer.Clock]:
// a ply runs from the moment the MOV? reached the mover's socket until its
// legal move was read (the times the writer and the reader saw, not the
// time the game goroutine got to them), and a time.Timer wakes the game at
// the deadline. The one timer belongs to the game goroutine and is stopped
// with the ply, so it never fires for a finished turn or game (the Java
// server's D4).
type geisterTurnClock struct {
	clock *timer.Clock // nil without a limit
	alarm *time.Timer
	armed bool
	stamp *time.Time // when not zero, the time the clock reads
}

func newGeisterTurnClock(c timer.Control) geisterTurnClock {
	k := geisterTurnClock{stamp: new(time.Time)}
	if !c.Unlimited() {
		stamp := k.stamp
		k.clock = timer.NewClock(c, func() time.Time {
			if !stamp.IsZero() {
				return *stamp
			}
			return time.Now()
		})
	}
	return k
}

// start starts side's ply at the given time.
func (k *geisterTurnClock) start(side geister.Color, at time.Time) {
	if k.clock == nil {
		return
	}
	if _, running := k.clock.Running(); running {
		return
	}
	*k.stamp = at
	err := k.clock.Start(timer.Side(side))
	*k.stamp = time.Time{}
	if err != nil {
		return
	}
	k.arm()
}

// arm sets the alarm for the running ply's deadline.
func (k *geisterTurnClock) arm() {
	dl, ok := k.clock.Deadline()
	if !ok {
		k.disarm()
		return
	}
	d := time.Until(dl)
	if k.alarm == nil {
		k.alarm = time.NewTimer(d)
	} else {
		k.alarm.Reset(d)
	}
	k.armed = true
}

func (k *geisterTurnClock) disarm() {
	if k.alarm != nil {
		k.alarm.Stop()
	}
	k.armed = false
}

// stop ends the running ply, if any, now, and returns its time. It reports
// false if the mover was out of time.
func (k *geisterTurnClock) stop() (time.Duration, bool) {
	return k.stopAt(time.Time{})
}

// stopAt ends the running ply, if any, at the given time (now if zero). A
// move that comes before its MOV? was written costs nothing.
func (k *geisterTurnClock) stopAt(at time.Time) (time.Duration, bool) {
	k.disarm()
	if k.clock == nil {
		return 0, true
	}
	*k.stamp = at
	elapsed, err := k.clock.Stop()
	*k.stamp = time.Time{}
	return elapsed, !errors.Is(err, timer.ErrTimeUp)
}

// rang handles the alarm: it reports true if the mover is out of time, and
// otherwise (the alarm was early) sets it again.
func (k *geisterTurnClock) rang() bool {
	k.armed = false
	if dl, ok := k.clock.Deadline(); ok && time.Now().Before(dl) {
		k.arm()
		return false
	}
	_, inTime := k.stop()
	return !inTime
}

// expired returns a channel that receives when the alarm rings, or nil.
func (k *geisterTurnClock) expired() <-chan time.Time {
	if !k.armed {
		return nil
	}
	return k.alarm.C
}

package ntpu

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/botarena/botarena/geister"
	"github.com/botarena/botarena/protocol/gat"
	"github.com/botarena/botarena/record"
	"github.com/botarena/botarena/timer"
)

// ntpuGame is the state of one Host.Play. Only the Play
// goroutine touches it, apart from the seats' channels.
type ntpuGame struct {
	h     *Host
	rules geister.Rules
	log   *slog.Logger
	seats [2]*ntpuSeat

	setupTimeout, connectTimeout, grace time.Duration

	reds [2]geister.Reds
	set  [2]bool

	game  *geister.Game // nil until play begins
	clock *timer.Clock
	stamp time.Time // when non-zero, the clock's now: the arrival of the line being handled
	alarm *time.Timer
	armed bool

	times    []time.Time
	captures []geister.GhostColor
	endClock timer.Snapshot // the clocks when play ended

	over    bool
	result  geister.Result
	killNow [2]bool // the side lost on time: no grace

	began, ended time.Time
}

func newNTPUGame(h *Host, programs [2]Program) *ntpuGame {
	g := &ntpuGame{
		h:              h,
		rules:          h.Rules,
		log:            h.Logger,
		setupTimeout:   h.SetupTimeout,
		connectTimeout: h.ConnectTimeout,
		grace:          h.ExitGrace,
	}
	if g.rules == (geister.Rules{}) {
		g.rules = geister.NTPU
	}
	if g.log == nil {
		g.log = slog.New(slog.DiscardHandler)
	}
	if g.setupTimeout == 0 {
		g.setupTimeout = geisterNTPUSetupTimeout
	}
	if g.connectTimeout == 0 {
		g.connectTimeout = geisterNTPUConnectTimeout
	}
	if g.grace == 0 {
		g.grace = geisterNTPUExitGrace
	}
	for c := range geister.Color(2) {
		g.seats[c] = newNTPUSeat(c, programs[c], h.CRLF, g.log)
	}
	now := func() time.Time {
		if !g.stamp.IsZero() {
			return g.stamp
		}
		return time.Now()
	}
	if h.Clocks != nil {
		g.clock = timer.NewClockFrom(h.Time, *h.Clocks, now)
	} else {
		g.clock = timer.NewClock(h.Time, now)
	}
	return g
}

// run plays the game and returns its report.
func (g *ntpuGame) run(ctx context.Context) (*Game, error) {
	g.began = time.Now()
	var lns [2]net.Listener
	var startErr error
	for c, s := range g.seats {
		var err error
		switch {
		case s.prog.Player != nil:
			err = s.startInProcess(ctx)
		case s.prog.Mode == TCPMode:
			lns[c], err = s.startTCP(ctx)
		default:
			err = s.startSTDIO(ctx)
		}
		if err != nil {
			startErr = &StartError{Side: geister.Color(c), Path: s.prog.Path, Err: err}
			// The other seat never starts.
			if c == 0 {
				close(g.seats[1].readerDone)
			}
			break
		}
	}
	if startErr != nil {
		for c, s := range g.seats {
			if lns[c] != nil {
				// Started, not connected: it has no reader.
				lns[c].Close()
				close(s.readerDone)
			}
			s.finish(0, true)
		}
		return nil, startErr
	}
	var wg sync.WaitGroup
	for c, s := range g.seats {
		if lns[c] != nil {
			wg.Go(func() { s.connect(ctx, lns[c], g.connectTimeout) })
		}
	}
	wg.Wait()

	err := g.loop(ctx)
	if g.alarm != nil {
		g.alarm.Stop()
	}
	if g.game != nil && !g.h.Time.Unlimited() {
		g.endClock = g.clock.Snapshot()
	}
	g.ended = time.Now()
	g.announce()
	for c, s := range g.seats {
		now := g.killNow[c] || ctx.Err() != nil
		wg.Go(func() { s.finish(g.grace, now) })
	}
	wg.Wait()
	return g.report(), err
}

// loop runs the game until it ends, or ctx does.
func (g *ntpuGame) loop(ctx context.Context) error {
	if g.seats[0].gone && g.seats[1].gone {
		g.over = true // neither TCP-mode program connected: no game, no result
		g.log.Warn("geister ntpu: neither program connected; game abandoned")
		return nil
	}
	for c, s := range g.seats {
		if err := s.send(gat.Event{Kind: gat.SetRequest}, geisterNTPUWriteTimeout); err != nil && !errors.Is(err, errNTPUGone) {
			g.disconnect(geister.Color(c), "its input closed: "+err.Error())
		}
	}
	setup := time.NewTimer(g.setupTimeout)
	defer setup.Stop()
	for !g.over {
		var setupC, alarmC <-chan time.Time
		if g.game == nil {
			setupC = setup.C
		} else if g.armed {
			alarmC = g.alarm.C
		}
		select {
		case l := <-g.seats[0].lines:
			if err := g.line(geister.First, l); err != nil {
				return err
			}
		case l := <-g.seats[1].lines:
			if err := g.line(geister.Second, l); err != nil {
				return err
			}
		case <-setupC:
			g.setupTimedOut()
		case <-alarmC:
			g.rang()
		case <-ctx.Done():
			g.log.Warn("geister ntpu: game cut short", "err", context.Cause(ctx))
			return fmt.Errorf("ntpu: geister ntpu: game cut short: %w", context.Cause(ctx))
		}
	}
	return nil
}

// line handles one line from side c.
func (g *ntpuGame) line(c geister.Color, l ntpuLine) error {
	s := g.seats[c]
	if l.err != nil {
		if s.inproc != nil && errors.Is(s.inProcessErr(), ErrResign) {
			g.resign(c)
			return nil
		}
		why := "closed its output before its result"
		if s.inproc != nil {
			why = "the in-process player stopped before its result"
			if err := s.inProcessErr(); err != nil {
				why += ": " + err.Error()
			}
		}
		if s.run.Fault != "" {
			why = s.run.Fault
		} else if s.prog.Mode == TCPMode {
			why = "closed the connection before its result"
		}
		g.disconnect(c, why)
		return nil
	}
	if !l.tooLong && strings.TrimSpace(l.text) == "" {
		return nil // blank lines are ignored everywhere
	}
	if g.game == nil {
		return g.setupLine(c, l)
	}
	g.playLine(c, l)
	return nil
}

// talking reports whether l, from side c while the host awaits a command of
// it, is a STDIO-mode program talking on its standard output (its board, its
// thoughts: the launcher shows stdout in its window) rather than a command:
// the line is then logged within a bound and skipped, and the program's
// clock runs on. Lines over gat.MaxLine bytes are bad
// commands. A TCP-mode program speaks the Java server's protocol, where any
// line is a command.
func (g *ntpuGame) talking(c geister.Color, l ntpuLine) bool {
	s := g.seats[c]
	if s.prog.Mode != STDIOMode || l.tooLong || ntpuIsCommand(l.text) {
		s.log.Debug("geister ntpu: recv", "line", l.text, "too_long", l.tooLong)
		return false
	}
	s.skipped(l)
	return true
}

// awaitingNothing handles a line from a side the host expects nothing from:
// NG in TCP mode (the Java server's rule), dropped in STDIO mode.
func (g *ntpuGame) awaitingNothing(c geister.Color, l ntpuLine) {
	s := g.seats[c]
	if s.prog.Mode == TCPMode {
		s.log.Debug("geister ntpu: recv", "line", l.text, "too_long", l.tooLong)
		g.send(c, gat.Event{Kind: gat.NG})
		return
	}
	s.dropped(l, "out of turn")
}

// send sends e to side c; a failed write is a disconnect, unless the game
// is over.
func (g *ntpuGame) send(c geister.Color, e gat.Event) {
	err := g.seats[c].send(e, geisterNTPUWriteTimeout)
	if err != nil && !errors.Is(err, errNTPUGone) && !g.over {
		g.disconnect(c, "its input closed: "+err.Error())
	}
}

// setupLine handles a line during setup.
func (g *ntpuGame) setupLine(c geister.Color, l ntpuLine) error {
	if g.set[c] {
		g.awaitingNothing(c, l)
		return nil
	}
	if g.talking(c, l) {
		return nil
	}
	var cmd gat.Command
	err := errors.New("a line over 1024 bytes")
	if !l.tooLong {
		cmd, err = gat.ParseCommand(l.text)
		if err == nil && cmd.Kind != gat.Set {
			err = errors.New("a MOV: before the game began")
		}
	}
	reds := cmd.Reds
	if start := g.h.Start; err == nil && start != nil {
		if start.Reds[c].Valid() {
			reds = start.Reds[c]
		} else {
			err = start.CheckReds(c, reds)
		}
	}
	if err != nil {
		g.seats[c].log.Info("geister ntpu: SET refused", "line", l.text, "err", err)
		g.send(c, gat.Event{Kind: gat.NG})
		return nil
	}
	g.send(c, gat.Event{Kind: gat.OK})
	if g.over {
		return nil
	}
	g.reds[c], g.set[c] = reds, true
	if g.set[0] && g.set[1] {
		return g.begin()
	}
	return nil
}

// begin starts play once both sides have set.
func (g *ntpuGame) begin() error {
	var start geister.Position
	var err error
	if g.h.Start != nil {
		start, err = g.h.Start.StartPosition(g.reds)
	} else {
		start, err = geister.Start(g.reds[0], g.reds[1])
	}
	if err != nil {
		g.over = true
		return fmt.Errorf("ntpu: geister ntpu: no start position: %w", err)
	}
	g.game = geister.NewGame(g.rules, start)
	g.log.Info("geister ntpu: play begins", "reds_first", g.reds[0].String(), "reds_second", g.reds[1].String(), "ply", start.Ply())
	g.onPly(geister.NoMove, g.game.Turn(), geister.Unknown)
	if g.gameOver() {
		return nil
	}
	g.turn()
	return nil
}

// turn asks the side to move for its move and starts its clock.
func (g *ntpuGame) turn() {
	c := g.game.Turn()
	if g.h.BoardFile && g.seats[c].inproc == nil {
		g.writeBoardFile(c)
	}
	g.send(c, gat.Event{Kind: gat.MoveRequest, Board: gat.ViewBoard(g.game.View(c))})
	if g.over {
		return
	}
	now := time.Now()
	if len(g.times) == 0 {
		g.times = append(g.times, now)
	}
	if err := g.clock.Start(timer.Side(c)); err != nil {
		g.log.Error("geister ntpu: clock", "err", err)
		return
	}
	g.arm()
}

// arm sets the alarm at the running ply's deadline, if any.
func (g *ntpuGame) arm() {
	dl, ok := g.clock.Deadline()
	if !ok {
		g.armed = false
		return
	}
	d := time.Until(dl)
	if g.alarm == nil {
		g.alarm = time.NewTimer(d)
	} else {
		g.alarm.Reset(d)
	}
	g.armed = true
}

// rang handles the alarm: the side to move is out of time, unless the timer
// was early.
func (g *ntpuGame) rang() {
	g.armed = false
	if dl, ok := g.clock.Deadline(); ok && time.Now().Before(dl) {
		g.arm()
		return
	}
	g.timeout(g.game.Turn())
}

// timeout ends the game: side c is out of time.
func (g *ntpuGame) timeout(c geister.Color) {
	g.clock.Stop()
	g.armed = false
	g.seats[c].run.Fault, g.seats[c].run.TimedOut = "no move within its time", true
	g.killNow[c] = true
	g.game.Forfeit(c, geister.TimeOut)
	g.gameOver()
}

// playLine handles a line during play.
func (g *ntpuGame) playLine(c geister.Color, l ntpuLine) {
	if c != g.game.Turn() {
		g.awaitingNothing(c, l)
		return
	}
	if g.talking(c, l) {
		return
	}
	// The line's arrival ends the ply: a command read after the deadline,
	// good or bad, is late.
	if dl, ok := g.clock.Deadline(); ok && !l.at.Before(dl) {
		g.timeout(c)
		return
	}
	var cmd gat.Command
	err := errors.New("a line over 1024 bytes")
	if !l.tooLong {
		cmd, err = gat.ParseCommand(l.text)
		switch {
		case err != nil:
		case cmd.Kind != gat.Move:
			err = errors.New("not a MOV: command")
		case !g.game.Position().IsLegal(cmd.Move):
			_, perr := g.game.Position().Play(cmd.Move)
			err = perr
		}
	}
	if err != nil {
		g.send(c, gat.Event{Kind: gat.NG})
		if g.over {
			return
		}
		if g.game.Reject() {
			g.seats[c].run.Fault = fmt.Sprintf("sent %q: %v", ntpuClip(l.text, l.tooLong), err)
			g.seats[c].run.FaultErr = err
			g.gameOver()
		} else {
			g.seats[c].log.Info("geister ntpu: move refused; the player may send another", "line", l.text, "err", err)
		}
		return
	}
	g.stamp = l.at
	_, cerr := g.clock.Stop()
	g.stamp = time.Time{}
	g.armed = false
	if g.alarm != nil {
		g.alarm.Stop()
	}
	if errors.Is(cerr, timer.ErrTimeUp) {
		g.seats[c].run.Fault, g.seats[c].run.TimedOut = "no move within its time", true
		g.killNow[c] = true
		g.game.Forfeit(c, geister.TimeOut)
		g.gameOver()
		return
	}
	p := g.game.Position()
	m := p.Normalize(cmd.Move)
	_, col, captured := p.Captures(m)
	if !captured {
		col = geister.Unknown
	}
	if err := g.game.Play(m); err != nil {
		g.log.Error("geister ntpu: a legal move refused", "move", m.String(), "err", err)
		return
	}
	g.times = append(g.times, l.at)
	g.captures = append(g.captures, col)
	g.onPly(m, c, col)
	g.send(c, gat.Event{Kind: gat.OK, Capture: col})
	if g.over || g.gameOver() {
		return
	}
	g.turn()
}

// onPly tells OnPly, if set, of the start of play (m is NoMove) or of the
// move m (normalised) that mover just played.
func (g *ntpuGame) onPly(m geister.Move, mover geister.Color, capture geister.GhostColor) {
	f := g.h.OnPly
	if f == nil {
		return
	}
	p := g.game.Position()
	e := gat.PlyEvent{Players: [2]string{g.seats[0].name, g.seats[1].name}, N: p.Ply(), Move: m, Mover: mover, Capture: capture, Position: p}
	if !g.h.Time.Unlimited() {
		e.Clock = g.clock.Snapshot()
	}
	e.Result, _ = g.game.Result()
	f(e)
}

// ntpuClip shortens a line for a fault message.
func ntpuClip(s string, tooLong bool) string {
	if tooLong {
		return fmt.Sprintf("<a line over %d bytes>", gat.MaxLine)
	}
	if len(s) > 60 {
		return s[:60] + "..."
	}
	return s
}

// gameOver reports whether the game has ended, and if so ends it.
func (g *ntpuGame) gameOver() bool {
	if g.over {
		return true
	}
	if r, over := g.game.Result(); over {
		g.over, g.result = true, r
		g.log.Info("geister ntpu: game over", "result", r.String(), "ply", g.game.Ply())
		return true
	}
	return false
}

// disconnect ends the game: side c has left.
func (g *ntpuGame) disconnect(c geister.Color, why string) {
	s := g.seats[c]
	s.gone = true
	if s.run.Fault == "" {
		s.run.Fault = why
	}
	s.log.Warn("geister ntpu: the program left", "why", why)
	g.forfeit(c, geister.Disconnect)
}

// resign ends the game: side c (an in-process player) resigned. Its
// output has ended: it is sent nothing more but its result.
func (g *ntpuGame) resign(c geister.Color) {
	s := g.seats[c]
	s.gone = true
	s.log.Info("geister ntpu: the player resigns")
	g.forfeit(c, geister.Resign)
}

// forfeit ends the game unless it is over, side c losing by reason: in
// the setup, before there is a game, or in play, its clock stopped.
func (g *ntpuGame) forfeit(c geister.Color, reason geister.Reason) {
	if g.over {
		return
	}
	if g.game == nil {
		g.over, g.result = true, geister.Result{Reason: reason, Winner: c.Opponent()}
		g.log.Info("geister ntpu: game over in setup", "result", g.result.String())
		return
	}
	if g.armed {
		g.clock.Stop()
		g.armed = false
	}
	g.game.Forfeit(c, reason)
	g.gameOver()
}

// setupTimedOut ends the setup: a side that has not set loses on time if
// the other has; if neither has, the game is abandoned.
func (g *ntpuGame) setupTimedOut() {
	g.over = true
	if g.set[0] == g.set[1] {
		g.log.Warn("geister ntpu: neither player set its red ghosts in time; game abandoned", "timeout", g.setupTimeout)
		for _, s := range g.seats {
			s.run.Fault, s.run.TimedOut = "did not set its red ghosts in time", true
		}
		return
	}
	loser := geister.First
	if g.set[0] {
		loser = geister.Second
	}
	g.seats[loser].run.Fault, g.seats[loser].run.TimedOut = "did not set its red ghosts in time", true
	g.result = geister.Result{Reason: geister.TimeOut, Winner: loser.Opponent()}
	g.log.Info("geister ntpu: game over in setup", "result", g.result.String())
}

// final returns the last position: the game's, or for a game that ended in
// setup the start with the red sets known (ABCD for a side without).
func (g *ntpuGame) final() (geister.Position, bool) {
	if g.game != nil {
		return g.game.Position(), true
	}
	var reds [2]geister.Reds
	for c := range reds {
		reds[c] = g.reds[c]
		if !g.set[c] {
			reds[c] = geister.RedsAt(0)
		}
	}
	p, _ := geister.Start(reds[0], reds[1])
	return p, false
}

// announce sends each side still there its result, the winner's first (the
// first player's first on a draw).
func (g *ntpuGame) announce() {
	r := g.result
	if !g.over || r.Reason == geister.Unfinished {
		return
	}
	p, _ := g.final()
	order := [2]geister.Color{geister.First, geister.Second}
	if !r.Draw && r.Winner == geister.Second {
		order = [2]geister.Color{geister.Second, geister.First}
	}
	for _, c := range order {
		kind := gat.Lost
		switch {
		case r.Draw:
			kind = gat.Draw
		case r.Winner == c:
			kind = gat.Won
		}
		timeout := geisterNTPUWriteTimeout
		if g.killNow[c] {
			timeout = 100 * time.Millisecond
		}
		g.seats[c].send(gat.Event{Kind: kind, Board: gat.ResultBoard(p, c)}, timeout)
	}
}

// boardRecord returns the game so far as a board.txt record.
func (g *ntpuGame) boardRecord() *record.GeisterBoard {
	b := &record.GeisterBoard{
		Date:      g.began.Truncate(time.Minute),
		First:     g.seats[0].name,
		Second:    g.seats[1].name,
		TimeLimit: g.h.Time.Main.Truncate(time.Second),
		Result:    g.result,
	}
	for c := range b.Reds {
		if g.set[c] {
			b.Reds[c] = g.reds[c]
		}
	}
	var moves []geister.Move
	if g.game != nil {
		moves = g.game.Moves()
	}
	if st := g.h.Start; st != nil {
		k := len(st.Moves)
		b.Start, b.Counts = st.Start, st.Counts
		b.Moves = append(append([]geister.Move(nil), st.Moves...), moves...)
		if len(st.Captures) == k {
			b.Captures = append(append([]geister.GhostColor(nil), st.Captures...), g.captures...)
		}
		if len(st.Times) == k+1 && len(g.times) > 0 {
			b.Times = append(append([]time.Time(nil), st.Times...), g.times[1:]...)
		}
		for c := range b.Reds {
			if st.Reds[c].Valid() {
				b.Reds[c] = st.Reds[c]
			}
		}
	} else {
		b.Start = geister.StartSetup(geister.RedsAt(0), geister.RedsAt(0)).Ghosts
		b.Moves = moves
		b.Captures = append([]geister.GhostColor(nil), g.captures...)
		b.Times = append([]time.Time(nil), g.times...)
	}
	if b.Counts == nil && b.Reds[0].Valid() && b.Reds[1].Valid() {
		var n [4]int
		for c := range geister.Color(2) {
			for gh := geister.A; gh <= geister.H; gh++ {
				if b.Start[c][gh].Valid() {
					if b.Reds[c].Has(gh) {
						n[2*int(c)]++
					} else {
						n[2*int(c)+1]++
					}
				}
			}
		}
		b.Counts = &n
	}
	return b
}

// writeBoardFile writes board.txt for side c, the opponent's reds hidden,
// into c's program directory.
func (g *ntpuGame) writeBoardFile(c geister.Color) {
	b := g.boardRecord()
	b.Reds[c.Opponent()] = 0
	data, err := record.AppendGeisterBoard(nil, b)
	if err == nil {
		dir := ntpuProgramDir(g.seats[c].prog)
		tmp := filepath.Join(dir, fmt.Sprintf(".board.txt.%d.tmp", c))
		if err = os.WriteFile(tmp, data, 0o644); err == nil {
			err = os.Rename(tmp, filepath.Join(dir, "board.txt"))
		}
	}
	if err != nil {
		g.seats[c].log.Warn("geister ntpu: board.txt not written", "err", err)
	}
}

// report returns the game as Play returns it.
func (g *ntpuGame) report() *Game {
	out := &Game{Result: g.result, Record: g.boardRecord(), Began: g.began, Ended: g.ended, Clock: g.endClock}
	if g.game != nil {
		out.Final = g.game.Position()
	}
	for c, s := range g.seats {
		out.Players[c] = s.run
	}
	return out
}

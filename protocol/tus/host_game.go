package tus

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/botarena/botarena/othello"
	"github.com/botarena/botarena/record"
	"github.com/botarena/botarena/timer"
)

// hostEvent is what a reader goroutine hands to its game: a line, or the
// loss of the connection.
type hostEvent struct {
	from othello.Color
	line string
	err  error // not nil: the connection is gone
}

// hostGame is one game and the goroutine that referees it. Only that
// goroutine touches its fields after startGame.
type hostGame struct {
	s       *hostServer
	id      int
	p       [2]*hostConn // by colour
	g       *othello.Game
	events  chan hostEvent // lines and losses from the readers, unbuffered
	written chan uint64    // the numbers of TURNs written to the mover
	done    chan struct{}  // closed when the game is over

	clock   hostTurnClock
	turnSeq uint64 // the number of the last TURN announced
	errs    [2]int // ERRORs sent to each colour
	over    bool
	endText string
	began   time.Time

	// The -trans transcript: the file is made at the start, its header
	// written with the first move (or at the end of a game with none) and
	// written again at the end if a name changed since.
	trans      *record.OthelloTransWriter // nil until the header is written
	transFile  *os.File
	transPath  string
	transNames [2]string // the names in the header written
	transErr   bool      // a write failed: the transcript is left as it is
}

// startGame pairs black and white into a new game and starts it; it reports
// false, changing nothing, if either is no longer waiting.
func (s *hostServer) startGame(black, white *hostConn) bool {
	black.mu.Lock()
	defer black.mu.Unlock()
	white.mu.Lock()
	defer white.mu.Unlock()
	if black.state != hostWaiting || white.state != hostWaiting {
		return false
	}
	g := s.newGame(s.games, black, white)
	s.games++
	var pending [2][]string
	for i, c := range g.p {
		c.state, c.color, c.game = hostPlaying, othello.Color(i), g
		pending[i], c.pending = c.pending, nil
	}
	s.wg.Go(func() { g.run(pending) })
	return true
}

// newGame makes the game without starting it.
func (s *hostServer) newGame(id int, black, white *hostConn) *hostGame {
	return &hostGame{
		s:       s,
		id:      id,
		p:       [2]*hostConn{black, white},
		g:       othello.NewGame(s.rules),
		events:  make(chan hostEvent),
		written: make(chan uint64, 1),
		done:    make(chan struct{}),
		clock:   newHostTurnClock(s.h.Timeout, time.Now),
		began:   time.Now(),
	}
}

// run referees the game: the start, the lines each client sent
// before pairing, then everything until the game is over.
func (g *hostGame) run(pending [2][]string) {
	defer g.finish()
	s := g.s
	s.console("Game-" + strconv.Itoa(g.id) + " Start.")
	s.log.Info("othello host: game start", "game", g.id, "black", g.name(othello.Black), "white", g.name(othello.White))
	g.p[othello.Black].send(Event{Kind: Start, Color: othello.Black}, false, nil)
	g.p[othello.White].send(Event{Kind: Start, Color: othello.White}, false, nil)
	g.openTranscript()
	s.monitor(g.g.Position())
	g.moved(othello.NoMove)
	g.broadcastBoard()
	if g.g.IsOver() {
		r, _ := g.g.Result()
		g.end(r, nil)
		return
	}
	g.announceTurn()
	for c, lines := range pending {
		p := g.p[c]
		for _, line := range lines {
			if !g.over {
				g.handle(othello.Color(c), line)
				continue
			}
			// The game ended on an earlier line: the rest are post-END.
			p.mu.Lock()
			ended := p.state == hostEnded
			p.mu.Unlock()
			if ended {
				s.afterEnd(p, line)
			}
		}
	}
	for !g.over {
		select {
		case ev := <-g.events:
			if ev.err != nil {
				g.s.log.Info("othello host: client lost", "game", g.id, "nick", g.p[ev.from].name(), "err", ev.err)
				g.forfeit(ev.from, othello.Disconnect, false)
			} else {
				g.handle(ev.from, ev.line)
			}
		case seq := <-g.written:
			if seq == g.turnSeq {
				g.clock.start(g.g.Turn())
			}
		case <-g.clock.expired():
			if g.clock.rang() {
				g.timeout()
			}
		case <-s.ctx.Done():
			g.abort()
		}
	}
}

// handle carries out one line from the player of colour from. Checks run in
// the order format, turn, legality.
func (g *hostGame) handle(from othello.Color, line string) {
	c := g.p[from]
	cmd, err := ParseCommand(line)
	switch {
	case errors.Is(err, ErrEmptyLine):
		return
	case errors.Is(err, ErrMalformed):
		g.reject(from, 1)
		return
	case err != nil:
		g.reject(from, 4)
		return
	}
	switch cmd.Kind {
	case Nick:
		c.mu.Lock()
		c.nick = cmd.Text
		c.mu.Unlock()
	case Say:
		e := Event{Kind: SayRelay, Text: c.name() + ": " + cmd.Text}
		for i, p := range g.p {
			p.send(e, othello.Color(i) != from, nil)
		}
	case BoardRequest:
		c.send(BoardEvent(g.g.Position()), false, nil)
	case Close:
		g.s.log.Info("othello host: client closed mid-game", "game", g.id, "nick", c.name())
		g.forfeit(from, othello.Disconnect, true)
	case Put:
		g.put(from, cmd)
	}
}

// put plays a PUT from the player of colour from.
func (g *hostGame) put(from othello.Color, cmd Command) {
	if g.g.Turn() != from {
		g.reject(from, 3)
		return
	}
	sq := cmd.Square()
	if !sq.Valid() || !g.g.Position().IsLegal(othello.Place(sq)) {
		g.reject(from, 2)
		return
	}
	if !g.clock.stop() {
		// A legal PUT that came after the deadline, before the alarm rang:
		// too late to be played.
		g.timeout()
		return
	}
	if err := g.g.Play(othello.Place(sq)); err != nil {
		g.reject(from, 2)
		return
	}
	g.transMove(sq, from)
	g.s.monitor(g.g.Position())
	g.moved(othello.Place(sq))
	g.broadcastBoard()
	if r, over := g.g.Result(); over {
		g.end(r, nil)
		return
	}
	g.announceTurn()
}

// timeout ends the game: the side to move ran out of time.
func (g *hostGame) timeout() {
	g.s.log.Info("othello host: timeout", "game", g.id, "nick", g.p[g.g.Turn()].name())
	g.forfeit(g.g.Turn(), othello.Timeout, false)
}

// reject sends ERROR code to the player of colour to, who loses if that
// makes MaxErrors.
func (g *hostGame) reject(to othello.Color, code int) {
	g.p[to].send(Event{Kind: Error, Code: code}, false, nil)
	g.errs[to]++
	if limit := g.s.h.MaxErrors; limit > 0 && g.errs[to] >= limit {
		g.s.log.Info("othello host: too many errors", "game", g.id, "nick", g.p[to].name(), "errors", g.errs[to])
		g.forfeit(to, othello.TooManyErrors, false)
	}
}

// broadcastBoard sends the position to both players, black first.
func (g *hostGame) broadcastBoard() {
	e := BoardEvent(g.g.Position())
	for _, p := range g.p {
		p.send(e, false, nil)
	}
}

// moved tells OnMove about move m, just played (NoMove: the start).
func (g *hostGame) moved(m othello.Move) {
	f := g.s.h.OnMove
	if f == nil {
		return
	}
	f(MoveEvent{
		Game:     g.id,
		Black:    g.name(othello.Black),
		White:    g.name(othello.White),
		Ply:      g.g.Ply(),
		Move:     m,
		Position: g.g.Position(),
	})
}

// announceTurn plays the forced passes and sends TURN to both players; the
// mover's clock starts when its TURN reaches its socket.
func (g *hostGame) announceTurn() {
	for g.g.Position().MustPass() {
		if g.g.Play(othello.Pass) != nil {
			break
		}
		g.moved(othello.Pass)
	}
	g.turnSeq++
	seq, mover := g.turnSeq, g.g.Turn()
	e := Event{Kind: Turn, Color: mover}
	for i, p := range g.p {
		var written func()
		if othello.Color(i) == mover && g.clock.limit > 0 {
			written = func() {
				select {
				case g.written <- seq:
				case <-g.done:
				}
			}
		}
		p.send(e, false, written)
	}
}

// forfeit ends the game with loser losing for reason. For a disconnect the
// loser's connection is closed (after what is queued, if it said CLOSE) and
// the survivor gets END then CLOSE.
func (g *hostGame) forfeit(loser othello.Color, reason othello.Reason, said bool) {
	if err := g.g.Forfeit(loser, reason); err != nil {
		return
	}
	r, _ := g.g.Result()
	if reason != othello.Disconnect {
		g.end(r, nil)
		return
	}
	gone := g.p[loser]
	gone.mu.Lock()
	gone.state = hostGone
	gone.mu.Unlock()
	if said {
		gone.closeAfterWrites(true)
	} else {
		gone.kill()
	}
	g.end(r, gone)
}

// end sends END to the players still connected and prints the end on the
// console. After a disconnect (gone is the loser's connection) the survivor
// also gets CLOSE and its connection is closed. Otherwise both connections
// go to their post-END state: ERROR 4 to everything but CLOSE, closed on
// CLOSE, on EOF or hostEndLinger after END.
func (g *hostGame) end(r othello.Result, gone *hostConn) {
	black, white := g.p[othello.Black].name(), g.p[othello.White].name()
	g.endText = FormatEnd(r, black, white)
	for _, p := range g.p {
		if p != gone {
			p.send(Event{Kind: End, Text: g.endText}, false, nil)
		}
	}
	g.s.console("Game-" + strconv.Itoa(g.id) + ":End Game: " + g.endText)
	g.s.console(black + "," + white)
	linger := g.s.h.endLinger
	if linger == 0 {
		linger = hostEndLinger
	}
	deadline := time.Now().Add(linger)
	for _, p := range g.p {
		if p == gone {
			continue
		}
		p.mu.Lock()
		if gone != nil {
			p.state = hostGone
		} else if p.state == hostPlaying {
			p.state = hostEnded
		}
		p.mu.Unlock()
		if gone != nil {
			p.send(Event{Kind: CloseNotice}, false, nil)
			p.closeAfterWrites(true)
		} else if p.conn != nil {
			p.conn.SetReadDeadline(deadline)
		}
	}
	g.clock.stop()
	g.over = true
}

// abort ends a game cut short by Serve returning: no END, both connections
// closed.
func (g *hostGame) abort() {
	for _, p := range g.p {
		p.mu.Lock()
		p.state = hostGone
		p.mu.Unlock()
		p.kill()
	}
	g.clock.stop()
	g.over = true
}

// finish releases the readers, closes the transcript and reports the game.
func (g *hostGame) finish() {
	close(g.done)
	g.clock.stop()
	g.closeTranscript()
	rec := GameRecord{
		ID:         g.id,
		Black:      g.name(othello.Black),
		White:      g.name(othello.White),
		Moves:      g.g.Moves(),
		End:        g.endText,
		Transcript: g.transPath,
		Began:      g.began,
		Ended:      time.Now(),
	}
	rec.Start, _ = g.g.PositionAt(0)
	if r, ok := g.g.Result(); ok {
		rec.Result = r
	} else {
		p := g.g.Position()
		rec.Result = othello.Result{Reason: othello.Unfinished, Black: p.Count(othello.Black), White: p.Count(othello.White)}
	}
	g.s.log.Info("othello host: game over", "game", g.id, "black", rec.Black, "white", rec.White, "result", rec.Result.String())
	if f := g.s.h.OnGameEnd; f != nil {
		f(rec)
	}
}

// name is the name of the player of colour c that the game reports: the
// host's Names[c] if set, else the player's nickname now.
func (g *hostGame) name(c othello.Color) string {
	if n := g.s.h.Names[c]; n != "" {
		return n
	}
	return g.p[c].name()
}

// openTranscript creates the -trans file, empty: its header is written with
// the first move (transMove), so that it names the players by the NICKs
// they sent before moving, however late after connecting. A failure is
// logged and the game goes on without a transcript.
func (g *hostGame) openTranscript() {
	dir := g.s.h.TransDir
	if dir == "" {
		return
	}
	host, err := os.Hostname()
	if err != nil || host == "" {
		host = "localhost"
	}
	host = strings.Map(func(r rune) rune {
		if r == '/' || r == '\\' || r == filepath.Separator || r < ' ' {
			return '_'
		}
		return r
	}, host)
	ms := time.Now().UnixMilli()
	for i := range int64(10000) {
		path := filepath.Join(dir, fmt.Sprintf("gamelog_%s_%d.txt", host, ms+i))
		if name := g.s.h.TransName; name != "" {
			path = filepath.Join(dir, name)
			if i > 0 {
				ext := filepath.Ext(name)
				path = filepath.Join(dir, fmt.Sprintf("%s-%d%s", strings.TrimSuffix(name, ext), i+1, ext))
			}
		}
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			g.s.log.Warn("othello host: transcript", "game", g.id, "err", err)
			return
		}
		g.transFile, g.transPath = f, path
		g.s.console("Started recording transcript: " + path)
		return
	}
	g.s.log.Warn("othello host: transcript: no free file name", "game", g.id, "dir", dir)
}

// transHeaderNames are the names the transcript header gives the players
// now: the host's Names, else the nicknames (BLACK and WHITE for a player
// that sent none). Names the header cannot hold are replaced by the
// nicknames (which it always can), with a warning in the log if warn.
func (g *hostGame) transHeaderNames(warn bool) [2]string {
	black, white := g.name(othello.Black), g.name(othello.White)
	if _, err := record.NewOthelloTransWriter(io.Discard, black, white); err != nil && g.s.h.Names != [2]string{} {
		if warn {
			g.s.log.Warn("othello host: transcript: the header cannot hold the names; using the nicknames", "game", g.id, "err", err)
		}
		black, white = g.p[othello.Black].name(), g.p[othello.White].name()
	}
	return [2]string{black, white}
}

// transMove writes the line of a disc of colour c placed on sq to the
// transcript, with the header first if this is the first move.
func (g *hostGame) transMove(sq othello.Square, c othello.Color) {
	if g.transFile == nil || g.transErr {
		return
	}
	if g.trans == nil && !g.transHeader() {
		return
	}
	if err := g.trans.Move(sq, c); err != nil {
		g.transFailed(err)
	}
}

// transHeader writes the transcript's header with the names now, reporting
// whether it could.
func (g *hostGame) transHeader() bool {
	names := g.transHeaderNames(true)
	tw, err := record.NewOthelloTransWriter(g.transFile, names[0], names[1])
	if err != nil {
		g.transFailed(err)
		return false
	}
	g.trans, g.transNames = tw, names
	return true
}

// transFailed logs a transcript write that failed; the transcript is left
// as it is from then on.
func (g *hostGame) transFailed(err error) {
	g.s.log.Warn("othello host: transcript", "game", g.id, "file", g.transPath, "err", err)
	g.transErr = true
}

// closeTranscript completes the transcript at the end of the game and
// closes it: the header of a game that ended before its first move, or the
// whole file written again (at most 60 moves) if a player's name changed
// since the header was written (a NICK that came after the opponent's
// first move), so that the header names the players as they are named at
// the end, as the END line (without Names) and the GameRecord do.
func (g *hostGame) closeTranscript() {
	if g.transFile == nil {
		return
	}
	switch {
	case g.transErr:
	case g.trans == nil:
		g.transHeader()
	case g.transHeaderNames(false) != g.transNames:
		names := g.transHeaderNames(false)
		var b bytes.Buffer
		err := record.WriteOthelloTranscript(&b, record.NewOthelloTranscript(g.g, names[0], names[1]))
		if err == nil {
			err = g.transFile.Truncate(0)
		}
		if err == nil {
			_, err = g.transFile.WriteAt(b.Bytes(), 0)
		}
		if err != nil {
			g.transFailed(err)
		}
	}
	if err := g.transFile.Close(); err != nil {
		g.s.log.Warn("othello host: transcript", "game", g.id, "file", g.transPath, "err", err)
	}
}

// hostTurnClock is the per-TURN time limit on a
// [timer.Clock] with the per-move cap Timeout: a ply runs from the moment the
// TURN line reached the mover's socket until a valid PUT. Times come from
// now (time.Now, which has a monotonic reading), and a time.Timer wakes the
// game at the deadline. A limit of 0 never expires.
type hostTurnClock struct {
	limit time.Duration
	now   func() time.Time
	clock *timer.Clock
	alarm *time.Timer
	armed bool
}

func newHostTurnClock(limit time.Duration, now func() time.Time) hostTurnClock {
	k := hostTurnClock{limit: limit, now: now}
	if limit > 0 {
		k.clock = timer.NewClock(timer.PerMove(limit), now)
	}
	return k
}

// start starts side's ply now.
func (k *hostTurnClock) start(side othello.Color) {
	if k.clock == nil {
		return
	}
	if err := k.clock.Start(timer.Side(side)); err != nil {
		return
	}
	k.arm()
}

// arm sets the alarm for the running ply's deadline.
func (k *hostTurnClock) arm() {
	dl, ok := k.clock.Deadline()
	if !ok {
		k.disarm()
		return
	}
	d := dl.Sub(k.now())
	if k.alarm == nil {
		k.alarm = time.NewTimer(d)
	} else {
		k.alarm.Reset(d)
	}
	k.armed = true
}

func (k *hostTurnClock) disarm() {
	if k.alarm != nil {
		k.alarm.Stop()
	}
	k.armed = false
}

// stop ends the running ply, if any, on a valid PUT. It reports false if the
// PUT came too late: the mover is out of time.
func (k *hostTurnClock) stop() bool {
	k.disarm()
	if k.clock == nil {
		return true
	}
	_, err := k.clock.Stop()
	return !errors.Is(err, timer.ErrTimeUp)
}

// rang handles the alarm: it reports true if the mover is out of time, and
// otherwise (the alarm was early for the clock's time source) sets it again.
func (k *hostTurnClock) rang() bool {
	k.armed = false
	if dl, ok := k.clock.Deadline(); ok && k.now().Before(dl) {
		k.arm()
		return false
	}
	return !k.stop()
}

// expired returns a channel that receives when the alarm rings, or nil
// (never ready) when it is not set.
func (k *hostTurnClock) expired() <-chan time.Time {
	if !k.armed {
		return nil
	}
	return k.alarm.C
}

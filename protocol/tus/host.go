package tus

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net"
	"sync"
	"time"

	"github.com/botarena/botarena/othello"
)

// DefaultAddr is the address [Host.ListenAndServe] listens on
// when given "": every interface, the TUS OthelloServer's port 25033.
const DefaultAddr = ":25033"

// DefaultMaxConns is the [Host.MaxConns] of a host that sets
// none: a class's tournament with room to spare, at a few tens of KB per
// waiting connection (each may hold hostPendingBytes of lines).
const DefaultMaxConns = 1000

// The host's fixed limits.
const (
	hostPendingMax   = 64                     // lines a client may send before it is paired...
	hostPendingBytes = 8 << 10                // ...and their bytes, LFs counted: two lines of MaxLine
	hostNickGrace    = time.Second            // how long an unpaired client that sent no NICK waits before it may be paired
	hostRefusers     = 32                     // connections past MaxConns being told so at once; more are closed without a word
	hostRefuseDrain  = 64 << 10               // bytes read from a refused connection before it is closed
	hostRefuseLog    = time.Second            // refusals are logged at most once this often, with a count
	hostQueueLines   = 256                    // lines queued for one client before it counts as gone
	hostEndLinger    = 10 * time.Second       // a connection closes this long after END
	hostWriteTimeout = 10 * time.Second       // a write that stalls this long means the client is gone
	hostDrainTime    = 2 * time.Second        // how long a closing connection is read before it is dropped
	hostPairInterval = 500 * time.Millisecond // PairRandom's tick
	hostFloodBurst   = 512                    // lines a client may send at once...
	hostFloodRate    = 256                    // ...and per second after that
)

// Pairing says how an [Host] pairs waiting connections into
// games.
type Pairing uint8

const (
	// PairRandom is the real server's pairing (since 1.10): every
	// [Host.PairInterval] (0.5 s by default), if two or more
	// connections are waiting, a uniformly random pair of them starts a game
	// with random colours. It is the zero value.
	PairRandom Pairing = iota
	// PairFIFO pairs the two longest-waiting connections as soon as there
	// are two; the one that connected first plays black. Tests and match
	// runners use it.
	PairFIFO
)

// String returns "random" or "fifo", the spelling of the server's -pairing
// option.
func (p Pairing) String() string {
	switch p {
	case PairRandom:
		return "random"
	case PairFIFO:
		return "fifo"
	}
	return fmt.Sprintf("Pairing(%d)", uint8(p))
}

// MarshalText returns [Pairing.String], and fails for an unknown
// value.
func (p Pairing) MarshalText() ([]byte, error) {
	if p > PairFIFO {
		return nil, fmt.Errorf("tus: unknown pairing %d", uint8(p))
	}
	return []byte(p.String()), nil
}

// UnmarshalText reads "random" or "fifo" (exactly, lower case), so that an
// Pairing works with flag.TextVar.
func (p *Pairing) UnmarshalText(text []byte) error {
	switch string(text) {
	case "random":
		*p = PairRandom
	case "fifo":
		*p = PairFIFO
	default:
		return fmt.Errorf("tus: unknown pairing %q (want random or fifo)", text)
	}
	return nil
}

// GameRecord is a game an [Host] refereed, as it hands it to
// [Host.OnGameEnd].
type GameRecord struct {
	ID           int              // n in the console's "Game-<n>", counted from 0 in each Serve
	Black, White string           // the host's Names if set, else the nicknames at the end (BLACK and WHITE for a client that sent none)
	Start        othello.Position // the start position
	Moves        []othello.Move   // the moves in order, forced passes included
	Result       othello.Result   // the outcome; Reason is othello.Unfinished if Serve stopped first
	End          string           // the END payload sent to the players ("" if none was sent)
	Transcript   string           // the -trans file's path ("" without TransDir or if it could not be made)
	Began, Ended time.Time        // when the game was paired and when it ended
}

// Host is the referee side of the TUS OthelloServer protocol:
// a server that the course's clients can use unchanged. It accepts
// connections, pairs waiting clients into games and runs any number of games
// at once, each player on its own connection.
//
// A client that misbehaves costs only its own game: a malformed line gets
// ERROR 1, an illegal square ERROR 2, a PUT out of turn ERROR 3 and an unknown
// command ERROR 4; a client that disconnects, sends CLOSE, sends a line over
// [MaxLine] bytes, floods the host (more than 512 lines at once, or more
// than 256 a second for long) or stops reading what the host writes loses by
// disconnect, and one that does not move in time loses by timeout. Each
// connection has its own writer goroutine with a bounded queue and a write
// deadline, so a slow client never holds up another game.
//
// The rest follows the course server: NICK takes effect at once,
// even before pairing; other lines sent before pairing run right after the
// game's first TURN; a forced pass is the same TURN again;
// the last move is followed by BOARD and END, with no TURN. After END the
// host answers ERROR 4 to everything but CLOSE and closes the connection on
// CLOSE, on EOF or 10 s after END. When a player disconnects, the other gets
// END and then CLOSE, and is closed too.
//
// What waits is bounded. A connection is paired only once it has sent NICK
// (the course's clients send it first thing) or a second after it connected,
// so that the console names the players (the transcript header names them
// whenever their NICK comes: see TransDir). Before
// pairing a client may send at most 64 lines and 8 KiB (NICK aside); one that
// sends more gets ERROR 4 (the line cannot be processed) and a SAY from
// SERVER saying why, and is closed. At most MaxConns connections are open at
// once: one past the cap gets a SAY from SERVER saying the server is full,
// and is closed; the refusals are logged.
//
// Configure the fields before calling Serve and do not change them while it
// runs. The zero Host is a working server: random pairing, no time
// limit, the TUS start position, no transcripts, no console. One Host
// may serve several listeners at once; each Serve call has its own games.
type Host struct {
	// Timeout is how long a player has, from the moment its TURN is written
	// to its connection, to send a valid PUT (the server's -timeout): the
	// per-move cap timer.PerMove(Timeout) on a timer.Clock, on the monotonic
	// clock. An ERROR does not restart it; a repeated TURN (the opponent
	// passed) starts it again. A legal PUT that arrives late loses on time.
	// Zero means no limit.
	Timeout time.Duration

	// Pairing chooses how waiting connections are paired: PairRandom (the
	// zero value, the real server's way) or PairFIFO.
	Pairing Pairing

	// PairInterval is PairRandom's tick; zero means 0.5 s, as the real
	// server. PairFIFO does not use it.
	PairInterval time.Duration

	// Rules gives the start position of every game. The zero value means
	// othello.TUS, the course server's start.
	Rules othello.Rules

	// TransDir, when not empty, is the directory where each game's -trans
	// transcript is written, as gamelog_<hostname>_<epoch-ms>.txt: the file
	// is made at game start, its header is written with the first move (at
	// the end for a game with none), then one flushed line per valid move.
	// The header names the players as they are named then, so a NICK sent
	// at any time before a player's first move is in it; if a name changes
	// after the header is written (a NICK that came after the opponent's
	// first move), the file is written again at the end of the game, so
	// that the header always names the players as they are named at the
	// end, as the GameRecord does. An existing file is never overwritten (the millisecond
	// value is increased until the name is free).
	TransDir string

	// TransName, when not empty, names the transcripts in TransDir in place
	// of gamelog_<hostname>_<epoch-ms>.txt: the first game's is TransName,
	// a later one's TransName with "-2", "-3", ... before its extension.
	// A host that keeps one game's records in a directory of its own names
	// them so that the same games leave the same files.
	TransName string

	// Console, when not nil, receives the course server's -debug console
	// lines: "Connect from: <peer IP>", "Game-<n> Start.", "Send to <nick>:<line>",
	// "Recv from <nick>:<line>", "Started recording transcript: <file>" and
	// the end of each game. A connection that is not yet paired is named
	// WAITING until it sends NICK. Writes are whole lines, one writer at a
	// time, so Console should be quick (os.Stdout is).
	Console io.Writer

	// Monitor, when not nil, receives the board picture at the
	// start of each game and after every move (the server's -monitor, without
	// a window). It may be the same writer as Console.
	Monitor io.Writer

	// MaxErrors, when positive, makes a player lose a game (by
	// othello.TooManyErrors) when it has been sent that many ERRORs in it.
	// Zero means no limit, the real server's behaviour.
	MaxErrors int

	// Logger receives the host's own log: connections, games, results and
	// trouble (a transcript that cannot be written, a client cut off). Nil
	// discards it.
	Logger *slog.Logger

	// Rand draws PairRandom's pairs and colours. Nil means a randomly seeded
	// source; give a seeded one (rand.NewPCG) for repeatable pairings. Serve
	// uses it from one goroutine, so a host with a Rand must not serve two
	// listeners at once, and the source must not be used elsewhere.
	Rand rand.Source

	// OnGameEnd, when not nil, is called once for every game that started,
	// after END has been sent, from that game's goroutine. A game cut short
	// because Serve is returning is reported with Result.Reason
	// othello.Unfinished. Serve waits for the calls to return.
	OnGameEnd func(GameRecord)

	// MaxConns is the most connections the host keeps open at once, waiting,
	// playing or closing. Zero means DefaultMaxConns. A connection
	// past the cap is sent "SAY SERVER: refused: ..." and closed, and the
	// refusal is logged; the games in play go on, and a slot freed by a
	// closed connection takes the next one.
	MaxConns int

	// Names, where not empty, name the black (Names[0]) and the white
	// (Names[1]) player of every game in its transcript header, its
	// GameRecord and its OthelloMoveEvents, in place of their
	// nicknames: for a match runner that hosts one game between players it
	// knows (FIFO pairing, black connecting first). The players, the END line
	// and the console still use the nicknames. A name the transcript header
	// cannot hold (a line break, or ",W:" in black's) is replaced there by
	// the nickname, with a warning in the log.
	Names [2]string

	// OnMove, when not nil, is called at the start of every game (Ply 0,
	// Move NoMove) and after every move, forced passes included, from that
	// game's goroutine, before the next TURN is sent: it must return quickly
	// (a live viewer, say). The game waits for it.
	OnMove func(MoveEvent)

	// For tests: zero means the constants above (nickGrace: negative means
	// none).
	endLinger    time.Duration
	writeTimeout time.Duration
	nickGrace    time.Duration
}

// MoveEvent is a move an Host played, as it hands it to
// Host.OnMove.
type MoveEvent struct {
	Game         int              // the game's ID, as in GameRecord
	Black, White string           // the host's Names if set, else the nicknames now
	Ply          int              // the moves played so far, this one and forced passes included
	Move         othello.Move     // the move played; NoMove at the start
	Position     othello.Position // the position after it
}

// ListenAndServe listens on the TCP address addr (DefaultAddr if
// addr is "") and calls Serve. To learn the port of ":0", listen yourself
// and call Serve.
func (h *Host) ListenAndServe(ctx context.Context, addr string) error {
	if addr == "" {
		addr = DefaultAddr
	}
	var lc net.ListenConfig
	ln, err := lc.Listen(ctx, "tcp", addr)
	if err != nil {
		return err
	}
	return h.Serve(ctx, ln)
}

// Serve accepts connections on ln and referees games between them until ctx
// is done or ln fails. It then closes ln and every connection, ends the
// games in play (reporting them to OnGameEnd as unfinished), waits for all
// of its goroutines and returns: nil when ctx ended it, else the accept
// error.
func (h *Host) Serve(ctx context.Context, ln net.Listener) error {
	if ln == nil {
		return errors.New("tus: Host.Serve: nil listener")
	}
	if h == nil {
		h = &Host{}
	}
	if err := h.check(); err != nil {
		ln.Close()
		return err
	}
	ctx, cancel := context.WithCancel(ctx)
	s := &hostServer{
		h:        h,
		ctx:      ctx,
		log:      h.Logger,
		rules:    h.Rules,
		arrive:   make(chan *hostConn),
		changed:  make(chan struct{}, 1),
		conns:    make(map[*hostConn]struct{}),
		maxConns: cmp.Or(h.MaxConns, DefaultMaxConns),
		grace:    cmp.Or(h.nickGrace, hostNickGrace),
		refusers: make(chan struct{}, hostRefusers),
	}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	if s.rules == (othello.Rules{}) {
		s.rules = othello.TUS
	}
	stop := context.AfterFunc(ctx, func() { ln.Close() })
	defer stop()
	s.wg.Go(s.lobby)
	s.log.Info("othello host: serving", "addr", ln.Addr().String(), "pairing", h.Pairing.String(), "timeout", h.Timeout, "max_conns", s.maxConns)
	err := s.accept(ln)
	if ctx.Err() != nil {
		err = nil
	}
	cancel()
	ln.Close()
	s.closeAll()
	s.wg.Wait()
	s.log.Info("othello host: stopped", "addr", ln.Addr().String())
	return err
}

// check rejects settings that make no sense.
func (h *Host) check() error {
	switch {
	case h.Timeout < 0:
		return fmt.Errorf("tus: Host.Timeout %v is negative", h.Timeout)
	case h.PairInterval < 0:
		return fmt.Errorf("tus: Host.PairInterval %v is negative", h.PairInterval)
	case h.MaxErrors < 0:
		return fmt.Errorf("tus: Host.MaxErrors %d is negative", h.MaxErrors)
	case h.MaxConns < 0:
		return fmt.Errorf("tus: Host.MaxConns %d is negative", h.MaxConns)
	case h.Pairing > PairFIFO:
		return fmt.Errorf("tus: unknown Host.Pairing %d", uint8(h.Pairing))
	}
	return nil
}

// hostServer is the state of one Serve call.
type hostServer struct {
	h     *Host
	ctx   context.Context
	log   *slog.Logger
	rules othello.Rules
	wg    sync.WaitGroup

	arrive  chan *hostConn // accepted connections, in order, to the lobby
	changed chan struct{}  // a waiting connection dropped or became ready (a hint to the lobby)

	maxConns int           // MaxConns or its default
	grace    time.Duration // how long a connection without NICK waits to be paired (<= 0: not at all)

	mu     sync.Mutex
	conns  map[*hostConn]struct{} // every open connection, to close on return
	closed bool
	nextID uint64 // the last connection's id

	refusers     chan struct{} // a token per refused connection being told so
	refused      int           // refusals not yet logged, touched by accept only
	refuseLogged time.Time     // when a refusal was last logged, touched by accept only

	games int // games started, touched by the lobby only

	consoleMu sync.Mutex
}

// accept runs the accept loop until ln fails.
func (s *hostServer) accept(ln net.Listener) error {
	var backoff time.Duration
	for {
		nc, err := ln.Accept()
		if err != nil {
			if s.ctx.Err() != nil || errors.Is(err, net.ErrClosed) {
				return err
			}
			var te interface{ Temporary() bool }
			if !errors.As(err, &te) || !te.Temporary() {
				return err
			}
			// Out of file descriptors and the like: wait and retry, as
			// net/http does.
			backoff = min(max(2*backoff, 5*time.Millisecond), time.Second)
			s.log.Warn("othello host: accept", "err", err, "retry in", backoff)
			t := time.NewTimer(backoff)
			select {
			case <-t.C:
			case <-s.ctx.Done():
				t.Stop()
				return err
			}
			continue
		}
		backoff = 0
		c, open := s.newConn(nc)
		if c == nil && open < 0 {
			nc.Close()
			return s.ctx.Err()
		}
		if c == nil {
			s.refuse(nc, open)
			continue
		}
		host := nc.RemoteAddr().String()
		if h, _, err := net.SplitHostPort(host); err == nil {
			host = h
		}
		s.console("Connect from: " + host)
		s.log.Debug("othello host: connection", "conn", c.id, "remote", nc.RemoteAddr().String())
		s.startGrace(c)
		select {
		case s.arrive <- c:
		case <-s.ctx.Done():
			c.kill()
		}
		s.wg.Go(func() { s.read(c) })
		s.wg.Go(c.write)
	}
}

// refuse tells a connection past MaxConns (open connections are open) that
// the server is full and closes it, in a goroutine of its own, at most
// hostRefusers at once: more are closed at once without a word. It half-closes
// after its line and reads what the client sends meanwhile (up to
// hostRefuseDrain bytes, for hostDrainTime at most), so that the close is not
// a reset that could destroy the line. Refusals are logged at most once per
// hostRefuseLog, with their count.
func (s *hostServer) refuse(nc net.Conn, open int) {
	s.refused++
	if now := time.Now(); now.Sub(s.refuseLogged) >= hostRefuseLog {
		s.log.Warn("othello host: connection refused: the server is full", "remote", nc.RemoteAddr().String(), "open", open, "max_conns", s.maxConns, "refused", s.refused)
		s.refused, s.refuseLogged = 0, now
	}
	select {
	case s.refusers <- struct{}{}:
	default:
		nc.Close()
		return
	}
	line := AppendEvent(nil, Event{Kind: SayRelay, Text: fmt.Sprintf(
		"%s: refused: the server has its maximum of %d connections open; try again later", hostServerNick, s.maxConns)})
	s.wg.Go(func() {
		defer func() { <-s.refusers }()
		stop := context.AfterFunc(s.ctx, func() { nc.Close() })
		defer stop()
		defer nc.Close()
		nc.SetDeadline(time.Now().Add(hostDrainTime))
		if _, err := nc.Write(line); err != nil {
			return
		}
		if cw, ok := nc.(interface{ CloseWrite() error }); ok && cw.CloseWrite() == nil {
			io.Copy(io.Discard, io.LimitReader(nc, hostRefuseDrain))
		}
	})
}

// hostServerNick is the name the host's own SAY lines come from.
const hostServerNick = "SERVER"

// startGrace makes c ready to be paired now if there is no grace, else once
// the grace is over (or at its NICK, whichever comes first).
func (s *hostServer) startGrace(c *hostConn) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if s.grace <= 0 {
		c.ready = true
		return
	}
	c.graceTimer = time.AfterFunc(s.grace, func() {
		c.mu.Lock()
		c.ready = true
		c.mu.Unlock()
		s.hintChanged()
	})
}

// closeAll closes every connection; Serve calls it on the way out.
func (s *hostServer) closeAll() {
	s.mu.Lock()
	s.closed = true
	conns := make([]*hostConn, 0, len(s.conns))
	for c := range s.conns {
		conns = append(conns, c)
	}
	s.mu.Unlock()
	for _, c := range conns {
		c.kill()
	}
}

// forget drops a closed connection from the set, which frees its slot.
func (s *hostServer) forget(c *hostConn) {
	s.mu.Lock()
	delete(s.conns, c)
	open := len(s.conns)
	s.mu.Unlock()
	s.log.Debug("othello host: connection closed", "conn", c.id, "open", open)
}

// console writes one line to the Console, if there is one.
func (s *hostServer) console(line string) {
	if s.h.Console == nil {
		return
	}
	s.consoleMu.Lock()
	defer s.consoleMu.Unlock()
	io.WriteString(s.h.Console, line+"\n")
}

// monitor writes the board picture of p to the Monitor, if there is one.
func (s *hostServer) monitor(p othello.Position) {
	if s.h.Monitor == nil {
		return
	}
	b := appendHostBoardPicture(nil, p)
	s.consoleMu.Lock()
	defer s.consoleMu.Unlock()
	s.h.Monitor.Write(b)
}

// appendHostBoardPicture appends the 17-line board picture:
// rows y = 0..7 from the top between rows of 25 '-', each cell '●' black,
// '○' white or two spaces, followed by '|'.
func appendHostBoardPicture(b []byte, p othello.Position) []byte {
	const rule = "-------------------------\n"
	for y := range 8 {
		b = append(b, rule...)
		b = append(b, '|')
		for x := range 8 {
			switch c, ok := p.At(othello.SquareAt(x, y)); {
			case !ok:
				b = append(b, "  "...)
			case c == othello.Black:
				b = append(b, "●"...)
			default:
				b = append(b, "○"...)
			}
			b = append(b, '|')
		}
		b = append(b, '\n')
	}
	return append(b, rule...)
}

// lobby holds the connections waiting for a game and pairs them.
func (s *hostServer) lobby() {
	var waiting []*hostConn
	var tick <-chan time.Time
	var rng *rand.Rand
	if s.h.Pairing == PairRandom {
		d := s.h.PairInterval
		if d == 0 {
			d = hostPairInterval
		}
		t := time.NewTicker(d)
		defer t.Stop()
		tick = t.C
		src := s.h.Rand
		if src == nil {
			src = rand.NewPCG(rand.Uint64(), rand.Uint64())
		}
		rng = rand.New(src)
	}
	for {
		select {
		case c := <-s.arrive:
			waiting = append(waiting, c)
			if s.h.Pairing == PairFIFO {
				waiting = s.pairFIFO(waiting)
			}
		case <-s.changed:
			waiting = hostLive(waiting)
			if s.h.Pairing == PairFIFO {
				waiting = s.pairFIFO(waiting)
			}
		case <-tick:
			waiting = s.pairRandom(waiting, rng)
		case <-s.ctx.Done():
			return
		}
	}
}

// hostLive filters out the connections that dropped while waiting.
func hostLive(waiting []*hostConn) []*hostConn {
	live := waiting[:0]
	for _, c := range waiting {
		c.mu.Lock()
		ok := c.state == hostWaiting
		c.mu.Unlock()
		if ok {
			live = append(live, c)
		}
	}
	clear(waiting[len(live):])
	return live
}

// hostReady appends to dst the indexes in waiting of the connections ready
// to be paired (they sent NICK, or their grace is over).
func hostReady(dst []int, waiting []*hostConn) []int {
	for i, c := range waiting {
		if c.isReady() {
			dst = append(dst, i)
		}
	}
	return dst
}

// isReady reports whether c may be paired.
func (c *hostConn) isReady() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.ready
}

// pairFIFO starts games between the two longest-waiting connections, the
// earlier one black, once both are ready: the pairs are those of the order
// of arrival, whatever order the NICKs come in.
func (s *hostServer) pairFIFO(waiting []*hostConn) []*hostConn {
	for {
		waiting = hostLive(waiting)
		if len(waiting) < 2 || !waiting[0].isReady() || !waiting[1].isReady() {
			return waiting
		}
		if s.startGame(waiting[0], waiting[1]) {
			clear(waiting[:2])
			waiting = waiting[2:]
		}
	}
}

// pairRandom starts one game between a uniformly random pair of waiting
// connections ready to be paired, with random colours.
func (s *hostServer) pairRandom(waiting []*hostConn, rng *rand.Rand) []*hostConn {
	for {
		waiting = hostLive(waiting)
		r := hostReady(nil, waiting)
		n := len(r)
		if n < 2 {
			return waiting
		}
		i := rng.IntN(n)
		j := rng.IntN(n - 1)
		if j >= i {
			j++
		}
		if rng.IntN(2) == 1 {
			i, j = j, i
		}
		if s.startGame(waiting[r[i]], waiting[r[j]]) {
			i, j = r[i], r[j]
			rest := waiting[:0]
			for k, c := range waiting {
				if k != i && k != j {
					rest = append(rest, c)
				}
			}
			clear(waiting[len(rest):])
			return rest
		}
	}
}

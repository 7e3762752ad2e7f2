package gat

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"sync"
	"time"

	"github.com/botarena/botarena/geister"
	"github.com/botarena/botarena/timer"
)

// The Java geister server's addresses, which
// [Host.ListenAndServe] and [Viewer.ListenAndServe] use when
// given "".
const (
	DefaultFirstAddr  = ":10000" // the first player's seat
	DefaultSecondAddr = ":10001" // the second player's seat
	DefaultViewerAddr = ":8080"  // the WebSocket viewer
)

// The Geister host's fixed limits.
const (
	geisterSetupTimeout = 60 * time.Second // Host.SetupTimeout's default
	geisterQueue        = 64               // messages queued for one connection before it counts as gone
	geisterWriteTimeout = 10 * time.Second // a write that stalls this long means the client is gone
	geisterDrainTime    = 5 * time.Second  // how long a connection is read after its result before it is closed
	geisterFloodBurst   = 512              // lines a client may send at once...
	geisterFloodRate    = 256              // ...and per second after that
	geisterMaxCommands  = 4096             // lines kept in a GameRecord
)

// Received is one line a Geister host received from a player, as the
// Java server logs it: every non-empty line, refused and
// out-of-turn ones included, exactly as received without its line end.
type Received struct {
	Side geister.Color // who sent it
	Line string        // the line, without its line end
	At   time.Time     // when it was read
}

// GameRecord is a game a [Host] refereed, as it hands it to
// [Host.OnGameEnd].
type GameRecord struct {
	ID     int              // counted from 0 in each Serve
	Remote [2]string        // the players' addresses, first player's first
	Reds   [2]geister.Reds  // the red sets accepted (zero for a side that never set)
	Start  geister.Position // the start position (zero if play never started)
	Moves  []geister.Move   // the accepted moves, in the move generator's spelling
	// Times holds the thinking time of each accepted move, from its MOV?
	// written to the move read, as the clock measured it.
	Times []time.Duration
	// Result is the outcome. Reason is geister.Unfinished for a game that
	// Serve cut short.
	Result geister.Result
	// Commands holds the lines received, in order (at most the first 4096),
	// for the Java server's per-game log.
	Commands     []Received
	Began, Ended time.Time // when the second player connected, and when the result was sent
	// RecordFile is the board.txt written into Host.RecordDir ("" if
	// none was).
	RecordFile string
}

// Host is the referee side of the Java geister server's protocol
// (GAT): a server that the Java server's clients can use unchanged,
// without its defects. The first player connects to one
// listener (port 10000 on the Java server), the second to another (10001).
// Each accepted connection gets SET? at once; the game starts when both
// players' SET: have been accepted, and the host then runs it as the Java
// server does: MOV? to the side to move, OK, OKR or OKB to each accepted
// move (OK for an escape, always), NG to refused commands, and WON:, LST:
// or DRW: with the receiver's global board to each player at the end.
//
// Games run one after the other, as on the Java server: a connection that
// arrives while its seat is taken waits, unread, and gets SET? when the next
// game starts. Both listeners stay open for the whole run. To run games at
// once, serve other listeners.
//
// What each command costs: empty lines are ignored, and a
// line may end in LF or CRLF. During setup a well-formed SET: (four distinct
// letters A-H) is answered OK; anything else, a second SET among it, gets NG
// and the player may try again. During play a line from the player not to
// move gets NG and nothing else. From the player to move, a legal MOV: is
// played; anything else (a malformed line, an illegal move, a red ghost
// trying to leave, a SET:) gets NG, and then under Rules.IllegalMove
// geister.Lose the game ends, WON: to the opponent, LST: to the offender, and
// under geister.Retry the player must send another move for the same
// position, on the same clock, with no new MOV?.
//
// A player that disconnects loses (the other gets WON:); one whose time runs
// out loses (LST: to it, WON: to the other); one that sends a line over
// [MaxLine] bytes gets NG and loses, since its next command cannot be
// found; one that floods the host with lines (more than 512 at once, or 256 a
// second for long) or stops reading what the host writes is cut off, which
// is a disconnect. During setup the same failures, and silence past
// SetupTimeout, lose only when the opponent is connected and has set its red
// ghosts; otherwise the player is dropped without a result and its seat is
// free again.
//
// Each player gets exactly one result per game. The host then half-closes
// the connection, reads and discards what the client still sends until it
// closes or 5 s pass, and closes it. Every message goes out in its own write.
//
// Configure the fields before calling Serve and do not change them while it
// runs. The zero Host is a working server with the Java server's
// defaults: the GAT rules (300 plies, an illegal move loses), 600 s then
// 10 s a move, and a 60 s setup timeout.
type Host struct {
	// Rules are the rules of every game: the ply limit (the Java server's
	// --max-turn, which ours honours) and the illegal-move policy
	// (geister.Retry is the Java server's --no_ng_terminate). The zero
	// value means geister.GAT.
	Rules geister.Rules

	// Time is each player's clock, on a timer.Clock: a player's
	// turn starts when its MOV? has been written and ends when its move has
	// been read; a refused move does not stop it. The zero Control means
	// the Java server's defaults, --budget=600 --timeout=10, which is
	// timer.JavaGeister(600, 10): 600 s in all, then 10 s a move, charged
	// in milliseconds (set Charging to timer.WholeSeconds for the Java
	// server's arithmetic, its extra second included).
	Time timer.Control

	// NoTimeLimit runs the games without a clock, whatever Time says. A
	// silent player then holds its game for ever: use it for tests and
	// humans.
	NoTimeLimit bool

	// SetupTimeout is how long a player has, from its SET?, to have a SET:
	// accepted. Zero means 60 s; a negative value means no limit (the Java
	// server has none).
	SetupTimeout time.Duration

	// Wait is the Java server's --wait: a pause after each
	// reply to a command (OK, OKR, OKB, NG), from the moment the reply has
	// been written, before whatever the host sends next: the next MOV?, the
	// results (WON:, LST:, DRW:), the LST: after the NG of an illegal move.
	// It is charged to nobody, and commands that arrive meanwhile are
	// handled after it. Clients that read one line per read (the GAT
	// starter kit) need it to see a result that follows a reply.
	Wait time.Duration

	// Start, when not the zero Position, is the position every game starts
	// from (a mid-game start file, with both red sets): the host still
	// asks for SET: and answers OK to a well-formed one, but keeps the
	// colours of Start. It must be a position that is not decided.
	Start geister.Position

	// RecordDir, when not empty, is the directory where the host writes the
	// NTPU board.txt record of every game that started, named
	// game-<yyyy-MM-dd-HH-mm-ss-SSS>.txt after its start: the players are
	// named by their addresses, the time line gives Time.Main, the
	// timestamps are when the first MOV? was sent and when each move was
	// read. An existing file is never overwritten. A game from a Start
	// past ply 0 is not written (its record belongs after the mid-game
	// file's).
	RecordDir string

	// Viewer, when not nil, is told the state of every game:
	// serve it on its own port for the Java server's viewer page.
	Viewer *Viewer

	// Logger receives the host's log: connections, games, results, and
	// trouble. Nil discards it.
	Logger *slog.Logger

	// OnGameEnd, when not nil, is called once for every game in which both
	// players connected, after the results have been queued, from the
	// host's game goroutine (the next game waits for it). Serve waits for
	// the calls to return.
	OnGameEnd func(GameRecord)

	// OnPly, when not nil, is called from the host's game goroutine when
	// play begins (both red sets accepted; Move is geister.NoMove) and
	// after every accepted move, once the move has been judged (the event
	// carries the result if the move ended the game) and before the
	// players are told of it: a live viewer draws the games from it. It
	// must return quickly; the game waits for it. Endings without a move
	// (a time out, a disconnect, an illegal move) are not plies: OnGameEnd
	// reports them.
	OnPly func(PlyEvent)

	// For tests: zero means the constants above.
	drainTime    time.Duration
	writeTimeout time.Duration
}

// PlyEvent is the start of play or one accepted move, as
// [Host.OnPly] and [ntpu.Host.OnPly] report it.
type PlyEvent struct {
	// Game is the game's ID in a Host (GameRecord.ID); 0
	// from a ntpu.Host.
	Game int
	// Players names the players, the first player's first: their
	// addresses in a Host (GameRecord.Remote), their names
	// in the record in a ntpu.Host.
	Players [2]string
	// N is the ply count after the move: the position's ply count, which
	// for a game started from a mid-game position counts its plies too.
	// At the start of play it is the start's ply count.
	N int
	// Move is the move, normalised (an escape written sideways), in its
	// mover's frame; geister.NoMove at the start of play.
	Move geister.Move
	// Mover is the side that played Move; at the start of play, the side
	// to move.
	Mover geister.Color
	// Capture is the colour of the ghost Move captured, geister.Unknown if
	// it captured none.
	Capture geister.GhostColor
	// Position is the position after the move, with every colour: a viewer
	// that shows the game to a player must draw only what
	// Position.View(player) shows.
	Position geister.Position
	// Clock is the players' clock after the move (the zero Snapshot when
	// the game has no clock); its Players are indexed by side.
	Clock timer.Snapshot
	// Result is the result if the move ended the game; its Reason is
	// geister.Unfinished otherwise.
	Result geister.Result
}

// ListenAndServe listens on the TCP addresses first and second (the Java
// server's ":10000" and ":10001" when "") and calls Serve. To learn the ports
// of ":0", listen yourself and call Serve.
func (h *Host) ListenAndServe(ctx context.Context, first, second string) error {
	if first == "" {
		first = DefaultFirstAddr
	}
	if second == "" {
		second = DefaultSecondAddr
	}
	var lc net.ListenConfig
	ln0, err := lc.Listen(ctx, "tcp", first)
	if err != nil {
		return err
	}
	ln1, err := lc.Listen(ctx, "tcp", second)
	if err != nil {
		ln0.Close()
		return err
	}
	return h.Serve(ctx, ln0, ln1)
}

// Serve accepts the first player's connections on first and the second
// player's on second, and referees games between them, one after the other,
// until ctx is done or a listener fails. It then closes both listeners and
// every connection, ends the game in play (reporting it to OnGameEnd as
// unfinished), waits for all of its goroutines and returns: nil when ctx
// ended it, else the accept error.
func (h *Host) Serve(ctx context.Context, first, second net.Listener) error {
	if first == nil || second == nil {
		for _, ln := range []net.Listener{first, second} {
			if ln != nil {
				ln.Close()
			}
		}
		return errors.New("gat: Host.Serve: nil listener")
	}
	if h == nil {
		h = &Host{}
	}
	if err := h.check(); err != nil {
		first.Close()
		second.Close()
		return err
	}
	ctx, cancel := context.WithCancelCause(ctx)
	s := &geisterServer{
		h:      h,
		ctx:    ctx,
		log:    h.Logger,
		rules:  h.Rules,
		arrive: [2]chan net.Conn{make(chan net.Conn), make(chan net.Conn)},
		conns:  make(map[*geisterConn]struct{}),
	}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	if s.rules == (geister.Rules{}) {
		s.rules = geister.GAT
	}
	switch {
	case h.NoTimeLimit:
		s.time = timer.Control{}
	case h.Time == (timer.Control{}):
		s.time, _ = timer.JavaGeister(timer.JavaGeisterBudget, timer.JavaGeisterTimeout)
	default:
		s.time = h.Time
	}
	lns := [2]net.Listener{first, second}
	stop := context.AfterFunc(ctx, func() {
		for _, ln := range lns {
			ln.Close()
		}
	})
	defer stop()
	s.log.Info("geister host: serving", "first", first.Addr().String(), "second", second.Addr().String(),
		"rules", s.rules.Name, "ply_limit", s.rules.PlyLimit, "illegal_move", s.rules.IllegalMove.String(), "time", s.time.String())
	var errs [2]error
	var accepting sync.WaitGroup
	for i, ln := range lns {
		accepting.Go(func() {
			// A listener that fails stops the host.
			if errs[i] = s.accept(ln, geister.Color(i)); errs[i] != nil {
				cancel(errs[i])
			}
		})
	}
	s.games()
	cancel(nil)
	accepting.Wait()
	s.closeAll()
	s.wg.Wait()
	s.log.Info("geister host: stopped")
	return errors.Join(errs[0], errs[1])
}

// check rejects settings that make no sense.
func (h *Host) check() error {
	switch {
	case h.Rules.PlyLimit < 0:
		return fmt.Errorf("gat: Host.Rules.PlyLimit %d is negative", h.Rules.PlyLimit)
	case h.Rules.IllegalMove > geister.Retry:
		return fmt.Errorf("gat: unknown Host.Rules.IllegalMove %d", h.Rules.IllegalMove)
	case h.Wait < 0:
		return fmt.Errorf("gat: Host.Wait %v is negative", h.Wait)
	}
	if err := h.Time.Validate(); err != nil {
		return fmt.Errorf("gat: Host.Time: %w", err)
	}
	if h.Start != (geister.Position{}) {
		if h.Start.IsOver() {
			return errors.New("gat: Host.Start is a decided position")
		}
		if _, err := geister.NewPosition(h.Start.Setup()); err != nil {
			return fmt.Errorf("gat: Host.Start: %w", err)
		}
	}
	return nil
}

// geisterServer is the state of one Serve call.
type geisterServer struct {
	h     *Host
	ctx   context.Context
	log   *slog.Logger
	rules geister.Rules
	time  timer.Control  // the clock of every game
	wg    sync.WaitGroup // connection goroutines

	arrive [2]chan net.Conn // accepted connections, by seat

	mu     sync.Mutex
	conns  map[*geisterConn]struct{} // every open connection, to close on return
	closed bool
}

// accept runs the accept loop of one seat until ln fails, handing each
// connection to the game loop; it holds at most one at a time, so the
// others wait in the listener's backlog.
func (s *geisterServer) accept(ln net.Listener, seat geister.Color) error {
	var backoff time.Duration
	for {
		nc, err := ln.Accept()
		if err != nil {
			if s.ctx.Err() != nil {
				return nil
			}
			var te interface{ Temporary() bool }
			if errors.Is(err, net.ErrClosed) || !errors.As(err, &te) || !te.Temporary() {
				return err
			}
			backoff = min(max(2*backoff, 5*time.Millisecond), time.Second)
			s.log.Warn("geister host: accept", "seat", seat.String(), "err", err, "retry in", backoff)
			t := time.NewTimer(backoff)
			select {
			case <-t.C:
			case <-s.ctx.Done():
				t.Stop()
				return nil
			}
			continue
		}
		backoff = 0
		select {
		case s.arrive[seat] <- nc:
		case <-s.ctx.Done():
			nc.Close()
			return nil
		}
	}
}

// games runs games one after the other until ctx ends.
func (s *geisterServer) games() {
	for id := 0; s.ctx.Err() == nil; id++ {
		newGeisterGame(s, id).run()
	}
}

// closeAll closes every connection; Serve calls it on the way out.
func (s *geisterServer) closeAll() {
	s.mu.Lock()
	s.closed = true
	conns := make([]*geisterConn, 0, len(s.conns))
	for c := range s.conns {
		conns = append(conns, c)
	}
	s.mu.Unlock()
	for _, c := range conns {
		c.kill()
	}
}

package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/botarena/botarena/internal/fsguard"
	"github.com/botarena/botarena/internal/proc"
	"github.com/botarena/botarena/othello"
	"github.com/botarena/botarena/protocol/tus"
	"github.com/botarena/botarena/record"
	"github.com/botarena/botarena/timer"
	"github.com/botarena/botarena/viewer"
)

// othelloProgramHelp is the game's "arena help match" text on how arena runs a
// program.
const othelloProgramHelp = `A tcp: program is a TUS OthelloServer client. For each game arena starts a
server on 127.0.0.1 at a free port, then the program with the server's host
and port: in place of {host} and {port} in its command line if it has them
("tcp:./client -h {host} -p {port}"), or else appended as its last two
arguments ("tcp:./client" runs "./client 127.0.0.1 40123"). It must connect
within -startup; black connects first.`

// othelloDef describes Othello to arena: the TUS OthelloServer protocol,
// players as its TCP clients.
func othelloDef() *gameDef {
	return &gameDef{
		Name:        "othello",
		Title:       "Othello",
		Builtins:    othelloBotNames(),
		Protocols:   []string{"tcp"},
		ProgramHelp: othelloProgramHelp,
		Defaults:    [2]string{"alphabeta", "random"},
		Seats:       [2]string{"black", "white"},
		Presets:     []string{"tus", "standard"},
		DefaultTime: "10s/move",
		HumanTime:   "60s/move",
		Serve:       serveOthello,
		NewRunner:   newOthelloRunner,
		Bot:         othelloBot,
	}
}

// othelloExitGrace is how long a program has to exit by itself after its
// game before its process group is killed.
const othelloExitGrace = 2 * time.Second

// othelloRunner plays Othello games through a TUS server of its own on
// loopback, one server per game: each player is a TCP client, a built-in bot
// in this process or a program started with the server's address.
type othelloRunner struct {
	cfg     *matchConfig
	rules   othello.Rules
	from    *othelloOpening // the -start record's game (its moves are the records' first), or nil
	perMove time.Duration
	now     func() time.Time // the viewer's clocks' time; nil for time.Now (tests set another)
}

// newOthelloRunner checks the options of an Othello match: the TUS server
// has a start position (-rules tus or standard, or -start a record) and a
// per-move limit, and Othello has no ply limit.
func newOthelloRunner(cfg *matchConfig) (runner, error) {
	rules, err := othelloStart(cfg.Rules)
	if err != nil {
		return nil, fmt.Errorf("-rules: %w", err)
	}
	r := &othelloRunner{cfg: cfg, rules: rules}
	if cfg.Time != "" {
		ctl, err := timer.Parse(cfg.Time)
		if err != nil {
			return nil, fmt.Errorf("-time %q: %w", cfg.Time, err)
		}
		if ctl.Main != 0 || ctl.Period != 0 || ctl.Increment != 0 {
			return nil, fmt.Errorf("-time %q: the TUS server limits each move only (its -timeout): give a per-move limit such as 10s/move, or none", cfg.Time)
		}
		r.perMove = ctl.MoveCap
	}
	if cfg.MaxPlies > 0 {
		return nil, fmt.Errorf("-plies %d: an Othello game ends by itself within 60 moves; there is no ply limit", cfg.MaxPlies)
	}
	if cfg.Start != "" {
		from, err := readOthelloStart(cfg.Start, rules)
		if err != nil {
			return nil, fmt.Errorf("-start: %w", err)
		}
		r.from = from
		r.rules = othello.Rules{Name: "start file " + filepath.Base(cfg.Start), Start: from.Start}
	}
	return r, nil
}

// readOthelloStart reads the game of a -start record: a -trans transcript
// (from the rules' start) or a plain move list (from the standard start,
// mirrored onto the TUS start under -rules tus, as an opening's moves are).
// The games start from its last position, and their records hold its moves
// first, as an opening's, so that they replay from the rules' start.
func readOthelloStart(path string, rules othello.Rules) (*othelloOpening, error) {
	data, err := fsguard.ReadBounded(path, "a -start record", maxStartFile)
	if err != nil {
		return nil, err
	}
	tr, terr := record.ReadOthelloTranscript(bytes.NewReader(data), rules.Start)
	var g *othello.Game
	if terr == nil {
		g, terr = tr.Game()
	}
	sym := othello.Identity
	if terr != nil {
		var lerr error
		if g, lerr = record.ParseOthelloMoveList(strings.TrimSpace(string(data))); lerr != nil {
			return nil, fmt.Errorf("%s: neither a -trans transcript (%v) nor a move list (%v)", path, terr, lerr)
		}
		if rules.Start != othello.Standard.Start {
			sym = othello.FlipX
		}
	}
	if g.IsOver() {
		return nil, fmt.Errorf("%s: the game is over; give a record of an unfinished game", path)
	}
	from, err := othelloLine(rules, sym, g.Moves())
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return from, nil
}

// notifyListener tells when it has accepted a connection, so that the runner
// starts white only once black is waiting (FIFO pairing makes the first
// connection black).
type notifyListener struct {
	net.Listener
	accepted chan struct{}
}

func (l *notifyListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err == nil {
		select {
		case l.accepted <- struct{}{}:
		default:
		}
	}
	return c, err
}

// othelloSeat is one player of a game: a built-in client, a person's
// seat (a client in this process too) or a program.
type othelloSeat struct {
	spec  *playerSpec
	color othello.Color
	human *othelloHuman // the person's player, nil for a bot
	proc  *proc.Process // the program, nil for a built-in or a person
	done  chan struct{} // closed when the built-in's or person's client returned
	fault fault         // what went wrong with it
}

// othelloGame is a game across its take-backs: each take-back ends the TUS
// server's game and starts another from the position before the person's
// last move (a segment of the game, played by othelloRunner.segment).
type othelloGame struct {
	job    *gameJob
	info   viewer.GameInfo
	live   *othelloLive
	humans [2]*othelloHuman // the persons' players by seat, nil for a bot
	base   othello.Rules    // the rules the game's records start from
	pre    []othello.Move   // the opening's moves (-openings), played from base before the game
	start  othello.Position // where the game starts: base's start with pre played
	kept   []othello.Move   // the moves played from start and kept: before the last take-back's position
}

// othelloSegment is one TUS server game of a game: the whole game, or the
// part from its start or a take-back to its end or the next take-back.
type othelloSegment struct {
	rec       tus.GameRecord
	connected int      // the players that reached the server: 2 for a game played
	faults    [2]fault // the players' faults, by seat
	err       error    // arena's own failure
}

// Play plays one Othello game through a TUS server of its own: a TUS game,
// or, when a person takes back a move against a program, one TUS game from
// the start to the take-back and another from the position before the
// person's last move, as many times as the person takes back. The TUS
// protocol has no resignation nor draw offer: a person who resigns or
// agrees to a draw leaves the server's game (which the server scores as a
// disconnect) and the runner scores the game as a resignation or an agreed
// draw; the records hold the moves played, as the TUS formats have no
// result line. A take-back restarts the bot as at a game's start (a
// program is started again), and the records hold the game as finally
// played, from the game's start.
func (r *othelloRunner) Play(ctx context.Context, job *gameJob) gameResult {
	g := &othelloGame{
		job: job,
		info: viewer.GameInfo{
			ID:      job.ID,
			Game:    "othello",
			Title:   fmt.Sprintf("Game %d: %s (black) vs %s (white)", job.N, job.Seats[0].Name, job.Seats[1].Name),
			Players: [2]string{job.Seats[0].Name, job.Seats[1].Name},
			Seats:   [2]string{"black", "white"},
		},
		live:  &othelloLive{w: job.Watch, id: job.ID, now: r.now},
		base:  r.rules,
		start: r.rules.Start,
	}
	if r.from != nil {
		// The -start record's moves are played already, as an opening's.
		g.base, g.pre = r.from.Base, r.from.Moves
	}
	if o := job.Opening; o != nil && o.othello != nil {
		// The opening's moves are played already: the server starts
		// from their position, which it sends in its first BOARD.
		g.base, g.pre, g.start = o.othello.Base, o.othello.Moves, o.othello.Start
		if err := writeOpeningFile(job); err != nil {
			return gameResult{Winner: -2, Err: err}
		}
	}
	if job.Seats[0].Human || job.Seats[1].Human {
		// The game is on the viewer before the seats open, so that a seat
		// page opened at once follows it; the seats close after Finish.
		g.live.begin(g.info, g.start)
		seats, faults := openHumans(job)
		defer closeHumans(job)
		if faults != [2]fault{} {
			// A seat that cannot open loses, as a player that never
			// reached the board.
			res := gameResult{Winner: -2, Faults: faults, Reason: othello.Unfinished.String()}
			switch {
			case faults[0].Kind != noFault && faults[1].Kind == noFault:
				res.Winner, res.Reason = 1, othello.Disconnect.String()
			case faults[1].Kind != noFault && faults[0].Kind == noFault:
				res.Winner, res.Reason = 0, othello.Disconnect.String()
			}
			res.Ending = settleEnding(res, endNone)
			g.live.finish(endingStatus(g.info.Players, res), "")
			return res
		}
		for i, h := range seats {
			if h != nil {
				g.humans[i] = &othelloHuman{seat: h, color: othello.Color(i), live: g.live, perMove: r.perMove}
			}
		}
	}
	var seg othelloSegment
	for {
		seg = r.segment(ctx, g)
		if !g.takenBack(ctx, seg) {
			break
		}
		// The segment's transcript goes: the next segment writes its
		// own, and the game's is written whole at the end.
		if t := seg.rec.Transcript; t != "" && filepath.Dir(t) == filepath.Clean(job.Dir) {
			removeOthelloGameFile(job, filepath.Base(t))
		}
	}
	rec := seg.rec
	res := gameResult{Winner: -2, Err: seg.err, Faults: seg.faults}
	byRules := othelloEnding(rec.Result.Reason)
	switch {
	case seg.connected < 2 && ctx.Err() == nil:
		// A player never reached the board: it loses, as a disconnect.
		res.Winner = 1 - seg.connected
		res.Reason = othello.Disconnect.String()
	case rec.Result.Reason == othello.Unfinished || seg.connected < 2:
		res.Reason = othello.Unfinished.String()
	default:
		moves := append(slices.Clone(g.kept), rec.Moves...)
		res.Plies = len(moves)
		res.Record = rec.Transcript
		res.Reason = rec.Result.Reason.String()
		res.Detail = fmt.Sprintf("%d-%d", rec.Result.Black, rec.Result.White)
		switch {
		case rec.Result.Draw:
			res.Winner = -1
		case rec.Result.Winner == othello.Black:
			res.Winner = 0
		default:
			res.Winner = 1
		}
		// A person who left the server's game by resigning or by a draw
		// both persons agreed on: the game ends so, whatever the server
		// called it.
		switch i, end := g.personLeft(rec); end {
		case errHumanResigned:
			res.Winner, res.Reason, byRules = 1-i, "resign", endResign
		case errHumanDraw:
			res.Winner, res.Reason, byRules = -1, "agreed draw", endAgreed
		}
		if err := writeOthelloMoveList(job, rec, g.base, append(slices.Clone(g.pre), g.kept...)); err != nil && res.Err == nil {
			res.Err = err
		}
		if rec.Transcript == "" && res.Err == nil {
			res.Err = errors.New("the game's transcript could not be written (see the log)")
		}
	}
	res.Ending = settleEnding(res, byRules)
	// The viewer shows the end of a game it was shown (a game with a person
	// is shown from before its players connect: its page shows how it
	// ended, even unfinished).
	if res.Winner >= -1 || g.humans != [2]*othelloHuman{} {
		g.live.finish(endingStatus(g.info.Players, res), rec.Transcript)
	}
	return res
}

// personLeft tells which person left the server's game of rec of their own
// will (the server scored it as their disconnect) and how: resigned
// (errHumanResigned), agreed to a draw (errHumanDraw) or took back a move
// (errHumanTakeBack); nil when no person did.
func (g *othelloGame) personLeft(rec tus.GameRecord) (int, error) {
	if rec.Result.Reason != othello.Disconnect || rec.Result.Draw {
		return -1, nil
	}
	loser := othelloSeatOf(rec.Result.Winner.Opponent())
	if h := g.humans[loser]; h != nil {
		if end := h.ended(); end != nil {
			return loser, end
		}
	}
	return -1, nil
}

// takenBack tells whether the segment seg ended with a person's take-back;
// if so, it sets the game to go on from the position before that person's
// last move (their move and the program's answer, with any pass between,
// taken back).
func (g *othelloGame) takenBack(ctx context.Context, seg othelloSegment) bool {
	if ctx.Err() != nil || seg.connected < 2 {
		return false
	}
	i, end := g.personLeft(seg.rec)
	if end != errHumanTakeBack {
		return false
	}
	moves := append(slices.Clone(g.kept), seg.rec.Moves...)
	cut, ok := othelloLastMoveOf(g.start, moves, othello.Color(i))
	if !ok {
		return false // never offered: nothing to take back
	}
	taker := othelloSeatOf(othello.Color(i))
	g.kept = moves[:cut]
	pos := othelloAfter(g.start, g.kept)
	last := othello.NoMove
	if len(g.kept) > 0 {
		last = g.kept[len(g.kept)-1]
	}
	g.live.restart(pos, len(g.kept), last, taker)
	return true
}

// othelloLastMoveOf returns the index in moves, played from start, of the
// last move colour c placed a disc with (a pass is no move of its own);
// false when c placed none.
func othelloLastMoveOf(start othello.Position, moves []othello.Move, c othello.Color) (int, bool) {
	at, found := 0, false
	p := start
	for i, m := range moves {
		if p.Turn() == c && !m.IsPass() {
			at, found = i, true
		}
		next, err := p.Play(m)
		if err != nil {
			break
		}
		p = next
	}
	return at, found
}

// othelloAfter is the position after moves played from start (as far as
// they are legal: the server played them all).
func othelloAfter(start othello.Position, moves []othello.Move) othello.Position {
	p := start
	for _, m := range moves {
		next, err := p.Play(m)
		if err != nil {
			break
		}
		p = next
	}
	return p
}

// removeOthelloGameFile removes a file of the game's directory, through its
// root when it has one; a failure leaves it there.
func removeOthelloGameFile(job *gameJob, name string) {
	if job.Root != nil {
		job.Root.Remove(name)
		return
	}
	os.Remove(filepath.Join(job.Dir, name))
}

// segment plays one TUS server game of g: from g.start with g.kept played.
func (r *othelloRunner) segment(ctx context.Context, g *othelloGame) othelloSegment {
	job, live := g.job, g.live
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return othelloSegment{err: err}
	}
	nl := &notifyListener{Listener: ln, accepted: make(chan struct{}, 1)}
	records := make(chan tus.GameRecord, 1)
	rules := r.rules
	if o := job.Opening; o != nil && o.othello != nil {
		rules = othello.Rules{Name: fmt.Sprintf("opening %d", o.Number), Start: g.start}
	}
	plyBase := len(g.kept)
	if plyBase > 0 {
		rules = othello.Rules{Name: rules.Name + ", after a take-back", Start: othelloAfter(g.start, g.kept)}
	}
	h := &tus.Host{
		Timeout:   r.perMove,
		Pairing:   tus.PairFIFO,
		Rules:     rules,
		Names:     [2]string{job.Seats[0].Name, job.Seats[1].Name}, // the transcript names arena's players, whatever their NICKs
		TransDir:  job.Dir,
		TransName: othelloTransName,
		Logger:    job.Log,
		OnGameEnd: func(rec tus.GameRecord) { records <- rec },
		OnMove: func(e tus.MoveEvent) {
			switch {
			case e.Ply == 0 && !live.hasBegun():
				live.begin(g.info, e.Position)
			case e.Ply == 0:
				// Begun already: before a person's seat opened, or before
				// a take-back (live.restart showed this position). The
				// clocks go on from now, the players' connecting aside.
				live.resume()
			default:
				live.update(e, plyBase)
			}
		},
	}
	serveCtx, stopServe := context.WithCancel(ctx)
	served := make(chan error, 1)
	go func() { served <- h.Serve(serveCtx, nl) }()
	host, port, _ := net.SplitHostPort(ln.Addr().String())

	seats := [2]*othelloSeat{{spec: job.Seats[0], color: othello.Black}, {spec: job.Seats[1], color: othello.White}}
	for i, s := range seats {
		if hp := g.humans[i]; hp != nil {
			s.human = hp
			hp.reset(othelloMoved(g.start, g.kept, s.color))
		}
	}
	gameCtx, stopGame := context.WithCancel(ctx)
	var wg sync.WaitGroup
	seg := othelloSegment{}
	for i, s := range seats {
		if s.fault = r.start(gameCtx, job, s, host, port, &wg); s.fault.Kind != noFault {
			break
		}
		if s.fault = s.waitConnected(gameCtx, nl.accepted, r.startup()); s.fault.Kind != noFault {
			break
		}
		seg.connected = i + 1
	}
	var rec tus.GameRecord
	if seg.connected == 2 {
		select {
		case rec = <-records:
		case <-ctx.Done():
		}
	}
	// Wind down: the players have their END; programs get a grace period.
	stopGame()
	grace := time.NewTimer(othelloExitGrace)
	for _, s := range seats {
		if s.proc == nil {
			continue
		}
		select {
		case <-s.proc.Exited():
		case <-grace.C:
		}
		s.proc.Kill()
		st := s.proc.Wait()
		writeProgramOutput(job, s.spec.Name, st.Stdout, st.Stderr)
		switch {
		case s.fault.Kind == faultCrash || s.fault.Kind == faultProtocol:
			s.fault = exitFault(st, s.fault.Reason) // it exited before connecting: say how
		case s.fault.Kind == noFault && othelloLost(rec.Result, s.color) && !st.Killed && !st.Success():
			s.fault = exitFault(st, "") // it lost by leaving: it crashed
		}
	}
	grace.Stop()
	wg.Wait()
	// A forfeit is the loser's fault, in arena's words; a person who left
	// of their own will (resigned, agreed to a draw, took back a move) did
	// nothing wrong.
	if seg.connected == 2 {
		for _, s := range seats {
			if othelloLost(rec.Result, s.color) && s.fault.Kind == noFault && (s.human == nil || s.human.ended() == nil) {
				s.fault = othelloForfeit(rec.Result.Reason, r.perMove)
			}
		}
	}
	stopServe()
	if err := <-served; err != nil && ctx.Err() == nil && !errors.Is(err, net.ErrClosed) && !errors.Is(err, context.Canceled) {
		seg.err = err
	}
	seg.rec = rec
	seg.faults = [2]fault{seats[0].fault, seats[1].fault}
	return seg
}

// othelloEnding is the ending of a game the TUS server ended with reason,
// when no fault decides it.
func othelloEnding(reason othello.Reason) ending {
	switch reason {
	case othello.Discs:
		return endDiscs
	case othello.Timeout:
		return endTime
	case othello.Disconnect:
		return endProtocol
	case othello.TooManyErrors:
		return endIllegal
	}
	return endProtocol // a player that never reached the board
}

// start starts seat s: a built-in bot or a person's seat dials the server
// from this process; a program is started with the server's address, in
// place of "{host}" and "{port}" in its command line or else appended as
// its last two arguments (how the course's sample clients are started).
func (r *othelloRunner) start(ctx context.Context, job *gameJob, s *othelloSeat, host, port string, wg *sync.WaitGroup) fault {
	if s.spec.Builtin != "" || s.human != nil {
		var bot othello.Player = s.human
		if s.human == nil {
			var err error
			if bot, err = newOthelloBot(s.spec.Builtin, job.botSeed(othelloSeatOf(s.color)), timer.PerMove(r.perMove)); err != nil {
				return fault{Kind: faultStart, Reason: err.Error()}
			}
		}
		conn, err := net.Dial("tcp", net.JoinHostPort(host, port))
		if err != nil {
			return fault{Kind: faultStart, Reason: err.Error()}
		}
		s.done = make(chan struct{})
		client := &tus.Client{Nick: s.spec.Name}
		wg.Go(func() {
			defer close(s.done)
			defer conn.Close()
			client.Run(ctx, conn, bot)
		})
		return fault{}
	}
	args := make([]string, 0, len(s.spec.Command)+1)
	placed := false
	for _, a := range s.spec.Command[1:] {
		b := strings.ReplaceAll(strings.ReplaceAll(a, "{host}", host), "{port}", port)
		placed = placed || b != a
		args = append(args, b)
	}
	if !placed {
		args = append(args, host, port)
	}
	p, err := proc.Start(context.WithoutCancel(ctx), proc.Config{Path: s.spec.Command[0], Args: args, Dir: ""})
	if err != nil {
		return startFault(s.spec.Command[0], err)
	}
	s.proc = p
	return fault{}
}

// startup is how long a program has to start and connect: -startup.
func (r *othelloRunner) startup() time.Duration {
	if r.cfg.Startup > 0 {
		return r.cfg.Startup
	}
	return defaultStartup
}

// waitConnected waits until the server accepted s's connection, or s's
// program exited, or the startup time passed; a program that exited has a
// fault of kind faultCrash for Play to complete from its exit status.
func (s *othelloSeat) waitConnected(ctx context.Context, accepted <-chan struct{}, startup time.Duration) fault {
	var exited <-chan struct{}
	if s.proc != nil {
		exited = s.proc.Exited()
	}
	t := time.NewTimer(startup)
	defer t.Stop()
	select {
	case <-accepted:
		return fault{}
	case <-exited:
		return fault{Kind: faultCrash, Reason: "exited before connecting"}
	case <-s.done:
		return fault{Kind: faultProtocol, Reason: "the client ended before connecting"}
	case <-t.C:
		return fault{Kind: faultTimeout, Reason: fmt.Sprintf("did not connect within %v (-startup)", startup)}
	case <-ctx.Done():
		return fault{}
	}
}

// othelloLost reports whether colour c lost r.
func othelloLost(r othello.Result, c othello.Color) bool {
	return r.Reason != othello.Unfinished && !r.Draw && r.Winner != c
}

// othelloForfeit is the fault of the loser of a game that ended by reason,
// the zero fault for a game played out.
func othelloForfeit(reason othello.Reason, perMove time.Duration) fault {
	switch reason {
	case othello.Timeout:
		if perMove > 0 {
			return fault{Kind: faultTimeout, Reason: fmt.Sprintf("no move within %v", perMove)}
		}
		return fault{Kind: faultTimeout, Reason: "no move in time"}
	case othello.Disconnect:
		return fault{Kind: faultProtocol, Reason: "left the game"}
	case othello.TooManyErrors:
		return fault{Kind: faultIllegal, Reason: "too many rejected commands"}
	}
	return fault{}
}

// writeOthelloMoveList writes the game as a plain move list beside its
// transcript (moves.txt, the standard orientation), from the start of base:
// the moves pre (an opening's, and those kept before a take-back), then
// the server's game rec. When pre is not empty, the transcript is written
// again so too, since a -trans transcript has no start position (every
// reader starts it from the TUS start) and the server's holds its own
// game's moves only.
func writeOthelloMoveList(job *gameJob, rec tus.GameRecord, base othello.Rules, pre []othello.Move) error {
	g := othello.NewGame(othello.Rules{Name: "record", Start: base.Start})
	for _, m := range append(slices.Clone(pre), rec.Moves...) {
		if err := g.Play(m); err != nil {
			return fmt.Errorf("move list: %w", err)
		}
	}
	if len(pre) > 0 && rec.Transcript != "" {
		var buf bytes.Buffer
		if err := record.WriteOthelloTranscript(&buf, record.NewOthelloTranscript(g, rec.Black, rec.White)); err != nil {
			return fmt.Errorf("transcript with the earlier moves: %w", err)
		}
		var err error
		if filepath.Dir(rec.Transcript) == filepath.Clean(job.Dir) {
			err = writeGameFile(job, filepath.Base(rec.Transcript), buf.Bytes())
		} else {
			err = os.WriteFile(rec.Transcript, buf.Bytes(), 0o644)
		}
		if err != nil {
			return err
		}
	}
	list, err := record.AppendOthelloMoveList(nil, g)
	if err != nil {
		// A game from a mid-game start has no move list from the standard start.
		return nil
	}
	return writeGameFile(job, "moves.txt", append(list, '\n'))
}

// lastLine is the last non-empty line of b, cut to 200 bytes.
func lastLine(b []byte) string {
	s := strings.TrimSpace(string(b))
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		s = s[i+1:]
	}
	if len(s) > 200 {
		s = s[:200] + "..."
	}
	return s
}

// othelloLive turns the host's move events into the viewer's frames, with
// each side's thinking time so far (the time between the events).
type othelloLive struct {
	w     viewer.Watcher
	id    string
	mu    sync.Mutex
	began bool
	now   func() time.Time // the time, nil for time.Now
	last  time.Time        // when the last event came
	used  [2]time.Duration // each seat's thinking time so far
	cur   viewer.Frame     // the latest frame
}

// time is the time now, by l.now.
func (l *othelloLive) time() time.Time {
	if l.now != nil {
		return l.now()
	}
	return time.Now()
}

func (l *othelloLive) clocks() [2]string {
	return [2]string{"used " + viewer.FormatClock(l.used[0]), "used " + viewer.FormatClock(l.used[1])}
}

// begin shows the game in the viewer, at its start p.
func (l *othelloLive) begin(info viewer.GameInfo, p othello.Position) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.began, l.last = true, l.time()
	l.cur = viewer.OthelloFrame(p, 0, othello.NoMove, othelloStatus(p), l.clocks())
	l.w.Begin(info, l.cur)
}

// hasBegun reports whether begin was called.
func (l *othelloLive) hasBegun() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.began
}

// update shows the move of e, plyBase being the plies played before the
// server's game (a take-back's kept moves).
func (l *othelloLive) update(e tus.MoveEvent, plyBase int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.time()
	mover := e.Position.Turn().Opponent() // every move, a pass too, hands the turn over
	l.used[othelloSeatOf(mover)] += now.Sub(l.last)
	l.last = now
	l.cur = viewer.OthelloFrame(e.Position, plyBase+e.Ply, e.Move, othelloStatus(e.Position), l.clocks())
	l.w.Update(l.id, l.cur)
}

// restart shows the game gone back to p after ply plies, last the move
// that led there, after a take-back by the person in seat taker, whose
// time the take-back took: the clocks go on from where they were.
func (l *othelloLive) restart(p othello.Position, ply int, last othello.Move, taker int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.time()
	l.used[taker] += now.Sub(l.last)
	l.last = now
	l.cur = viewer.OthelloFrame(p, ply, last, othelloStatus(p), l.clocks())
	l.w.Update(l.id, l.cur)
}

// resume starts the side to move's clock again from now.
func (l *othelloLive) resume() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.last = l.time()
}

// frame is the latest frame, with the clocks as they are now (the side to
// move's running).
func (l *othelloLive) frame() viewer.Frame {
	l.mu.Lock()
	defer l.mu.Unlock()
	f := l.cur
	used := l.used
	if f.ToMove == 0 || f.ToMove == 1 {
		used[f.ToMove] += l.time().Sub(l.last)
	}
	f.Clocks = [2]string{"used " + viewer.FormatClock(used[0]), "used " + viewer.FormatClock(used[1])}
	return f
}

// finish ends the game in the viewer: status says how (endingStatus),
// record is its transcript.
func (l *othelloLive) finish(status, record string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.began {
		return
	}
	l.cur.Status, l.cur.ToMove = status, -1
	l.w.Finish(l.id, l.cur, status, record)
}

// othelloSeatOf is the seat of colour c: black is seat 0.
func othelloSeatOf(c othello.Color) int {
	if c == othello.White {
		return 1
	}
	return 0
}

// othelloStatus says who is to move.
func othelloStatus(p othello.Position) string {
	if p.IsOver() {
		return "Game over: black " + strconv.Itoa(p.Count(othello.Black)) + ", white " + strconv.Itoa(p.Count(othello.White))
	}
	return fmt.Sprintf("%s to move (black %d, white %d)", p.Turn(), p.Count(othello.Black), p.Count(othello.White))
}

// othelloBot runs a built-in Othello bot as a TUS client program: "arena bot
// othello NAME HOST PORT" connects to a server (the course's server or
// "arena serve othello") and plays its games there until the server ends
// the connection.
func othelloBot(ctx context.Context, name string, args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("arena bot othello "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: arena bot othello NAME [-time C] HOST PORT\n\nThe built-in NAME (%s) plays as a TUS OthelloServer client: it connects to HOST:PORT\n(\"arena serve othello\" or the course's server) and plays its games there.\n\nflags:\n", strings.Join(othelloBotNames(), ", "))
		fs.PrintDefaults()
	}
	timeText := fs.String("time", "none", "the server's per-move limit (its -timeout, e.g. 10s/move), which mcts thinks within; none: mcts searches a fixed number of playouts a move")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() != 2 {
		fs.Usage()
		return 2
	}
	args = fs.Args()
	ctl, err := timer.Parse(*timeText)
	if err != nil {
		fmt.Fprintf(stderr, "arena bot othello: -time %q: %v\n", *timeText, err)
		return 2
	}
	bot, err := newOthelloBot(name, uint64(time.Now().UnixNano()), ctl)
	if err != nil {
		fmt.Fprintln(stderr, "arena bot othello:", err)
		return 2
	}
	client := &tus.Client{Nick: name}
	var d net.Dialer
	conn, err := d.DialContext(ctx, "tcp", net.JoinHostPort(args[0], args[1]))
	if err != nil {
		fmt.Fprintln(stderr, "arena bot othello:", err)
		return 1
	}
	defer conn.Close()
	out, err := client.Run(ctx, conn, bot)
	if err != nil {
		fmt.Fprintln(stderr, "arena bot othello:", err)
		return 1
	}
	fmt.Fprintf(stdout, "%s: %s\n", out.Color, out.Result)
	return 0
}

// othelloTransName is the name of a game's TUS transcript in its directory
// (tus.Host.TransName): the same games leave the same files, and the
// shards of a tournament merge into what one run writes.
const othelloTransName = "gamelog_arena.txt"

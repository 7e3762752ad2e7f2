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
	perMove time.Duration
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
		p, err := readOthelloStart(cfg.Start, rules)
		if err != nil {
			return nil, fmt.Errorf("-start: %w", err)
		}
		r.rules = othello.Rules{Name: "start file " + filepath.Base(cfg.Start), Start: p}
	}
	return r, nil
}

// readOthelloStart reads the last position of a record, a -trans transcript
// (from the rules' start) or a plain move list (from the standard start).
func readOthelloStart(path string, rules othello.Rules) (othello.Position, error) {
	data, err := fsguard.ReadBounded(path, "a -start record", maxStartFile)
	if err != nil {
		return othello.Position{}, err
	}
	var g *othello.Game
	tr, terr := record.ReadOthelloTranscript(bytes.NewReader(data), rules.Start)
	if terr == nil {
		g, terr = tr.Game()
	}
	if terr != nil {
		var lerr error
		if g, lerr = record.ParseOthelloMoveList(strings.TrimSpace(string(data))); lerr != nil {
			return othello.Position{}, fmt.Errorf("%s: neither a -trans transcript (%v) nor a move list (%v)", path, terr, lerr)
		}
	}
	if g.IsOver() {
		return othello.Position{}, fmt.Errorf("%s: the game is over; give a record of an unfinished game", path)
	}
	return g.Position(), nil
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

// othelloSeat is one player of a game: a built-in client or a program.
type othelloSeat struct {
	spec  *playerSpec
	color othello.Color
	proc  *proc.Process // the program, nil for a built-in
	done  chan struct{} // closed when the built-in client returned
	fault fault         // what went wrong with it
}

func (r *othelloRunner) Play(ctx context.Context, job *gameJob) gameResult {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return gameResult{Winner: -2, Err: err}
	}
	nl := &notifyListener{Listener: ln, accepted: make(chan struct{}, 1)}
	records := make(chan tus.GameRecord, 1)
	info := viewer.GameInfo{
		ID:      job.ID,
		Game:    "othello",
		Title:   fmt.Sprintf("Game %d: %s (black) vs %s (white)", job.N, job.Seats[0].Name, job.Seats[1].Name),
		Players: [2]string{job.Seats[0].Name, job.Seats[1].Name},
		Seats:   [2]string{"black", "white"},
	}
	live := &othelloLive{w: job.Watch, id: job.ID, last: time.Now()}
	rules := r.rules
	if o := job.Opening; o != nil && o.othello != nil {
		// The opening's moves are played already: the server starts
		// from their position, which it sends in its first BOARD.
		rules = othello.Rules{Name: fmt.Sprintf("opening %d", o.Number), Start: o.othello.Start}
		if err := writeOpeningFile(job); err != nil {
			return gameResult{Winner: -2, Err: err}
		}
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
			if e.Ply == 0 {
				live.begin(info, e)
				return
			}
			live.update(e)
		},
	}
	serveCtx, stopServe := context.WithCancel(ctx)
	served := make(chan error, 1)
	go func() { served <- h.Serve(serveCtx, nl) }()
	host, port, _ := net.SplitHostPort(ln.Addr().String())

	seats := [2]*othelloSeat{{spec: job.Seats[0], color: othello.Black}, {spec: job.Seats[1], color: othello.White}}
	gameCtx, stopGame := context.WithCancel(ctx)
	var wg sync.WaitGroup
	res := gameResult{Winner: -2}
	connected := 0
	for i, s := range seats {
		if s.fault = r.start(gameCtx, job, s, host, port, &wg); s.fault.Kind != noFault {
			break
		}
		if s.fault = s.waitConnected(gameCtx, nl.accepted, r.startup()); s.fault.Kind != noFault {
			break
		}
		connected = i + 1
	}
	var rec tus.GameRecord
	if connected == 2 {
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
		writeProgramOutput(job, s.spec.Name, st)
		switch {
		case s.fault.Kind == faultCrash || s.fault.Kind == faultProtocol:
			s.fault = exitFault(st, s.fault.Reason) // it exited before connecting: say how
		case s.fault.Kind == noFault && othelloLost(rec.Result, s.color) && !st.Killed && !st.Success():
			s.fault = exitFault(st, "") // it lost by leaving: it crashed
		}
	}
	// A forfeit is the loser's fault, in arena's words.
	if connected == 2 {
		for _, s := range seats {
			if othelloLost(rec.Result, s.color) && s.fault.Kind == noFault {
				s.fault = othelloForfeit(rec.Result.Reason, r.perMove)
			}
		}
	}
	grace.Stop()
	wg.Wait()
	stopServe()
	if err := <-served; err != nil && ctx.Err() == nil && !errors.Is(err, net.ErrClosed) && !errors.Is(err, context.Canceled) {
		res.Err = err
	}
	res.Faults = [2]fault{seats[0].fault, seats[1].fault}
	switch {
	case connected < 2 && ctx.Err() == nil:
		// A player never reached the board: it loses, as a disconnect.
		res.Winner = 1 - connected
		res.Reason = othello.Disconnect.String()
	case rec.Result.Reason == othello.Unfinished || connected < 2:
		res.Reason = othello.Unfinished.String()
	default:
		res.Plies = len(rec.Moves)
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
		res.Err = writeOthelloMoveList(job, rec, job.Opening)
		if rec.Transcript == "" && res.Err == nil {
			res.Err = errors.New("the game's transcript could not be written (see the log)")
		}
	}
	res.Ending = settleEnding(res, othelloEnding(rec.Result.Reason))
	if connected == 2 && res.Winner >= -1 {
		live.finish(endingStatus([2]string{job.Seats[0].Name, job.Seats[1].Name}, res), rec.Transcript)
	}
	return res
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

// start starts seat s: a built-in bot dials the server from this process;
// a program is started with the server's address, in place of "{host}" and
// "{port}" in its command line or else appended as its last two arguments
// (how the course's sample clients are started).
func (r *othelloRunner) start(ctx context.Context, job *gameJob, s *othelloSeat, host, port string, wg *sync.WaitGroup) fault {
	if s.spec.Builtin != "" {
		bot, err := newOthelloBot(s.spec.Builtin, job.botSeed(othelloSeatOf(s.color)), timer.PerMove(r.perMove))
		if err != nil {
			return fault{Kind: faultStart, Reason: err.Error()}
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
// transcript (moves.txt, the standard orientation). A game from an opening
// (o not nil) is written from the preset's start: the opening's moves,
// then the game's; and so is its transcript, rewritten, since a -trans
// transcript has no start position (every reader starts it from the TUS
// start): the host's holds the game's moves only.
func writeOthelloMoveList(job *gameJob, rec tus.GameRecord, o *opening) error {
	g := othello.NewGame(othello.Rules{Name: "record", Start: rec.Start})
	var moves []othello.Move
	if o != nil && o.othello != nil {
		g = othello.NewGame(o.othello.Base)
		moves = append(moves, o.othello.Moves...)
	}
	for _, m := range append(moves, rec.Moves...) {
		if err := g.Play(m); err != nil {
			return fmt.Errorf("move list: %w", err)
		}
	}
	if o != nil && o.othello != nil && rec.Transcript != "" {
		var buf bytes.Buffer
		if err := record.WriteOthelloTranscript(&buf, record.NewOthelloTranscript(g, rec.Black, rec.White)); err != nil {
			return fmt.Errorf("transcript with the opening: %w", err)
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

// writeProgramOutput keeps what a program printed, as <name>.stdout and
// <name>.stderr in the game's directory, when it printed anything.
func writeProgramOutput(job *gameJob, name string, st proc.Result) {
	for ext, b := range map[string][]byte{".stdout": st.Stdout, ".stderr": st.Stderr} {
		if len(b) > 0 {
			writeGameFile(job, safeName(name)+ext, b)
		}
	}
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
	last  time.Time        // when the last event came
	used  [2]time.Duration // each seat's thinking time so far
	cur   viewer.Frame     // the latest frame
}

func (l *othelloLive) clocks() [2]string {
	return [2]string{"used " + viewer.FormatClock(l.used[0]), "used " + viewer.FormatClock(l.used[1])}
}

func (l *othelloLive) begin(info viewer.GameInfo, e tus.MoveEvent) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.began, l.last = true, time.Now()
	l.cur = viewer.OthelloFrame(e.Position, 0, othello.NoMove, othelloStatus(e.Position), l.clocks())
	l.w.Begin(info, l.cur)
}

func (l *othelloLive) update(e tus.MoveEvent) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := time.Now()
	mover := e.Position.Turn().Opponent() // every move, a pass too, hands the turn over
	l.used[othelloSeatOf(mover)] += now.Sub(l.last)
	l.last = now
	l.cur = viewer.OthelloFrame(e.Position, e.Ply, e.Move, othelloStatus(e.Position), l.clocks())
	l.w.Update(l.id, l.cur)
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

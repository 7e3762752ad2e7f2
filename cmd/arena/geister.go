package main

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/botarena/botarena/geister"
	"github.com/botarena/botarena/internal/fsguard"
	"github.com/botarena/botarena/protocol/gat"
	"github.com/botarena/botarena/protocol/ntpu"
	"github.com/botarena/botarena/record"
	"github.com/botarena/botarena/timer"
	"github.com/botarena/botarena/viewer"
)

// geisterProgramHelp is the game's "arena help match" text on how arena runs a
// program.
const geisterProgramHelp = `A program speaks the NTPU launcher's protocol, one process per game:
"stdio:./bot" on its standard input and output; "tcp:./bot" is started with
the host and port of a server arena opens for it appended as its last two
arguments, and connects to it within -startup. Lines a program writes that
are not commands are skipped and logged.`

// geisterDef describes Geister to arena.
//
// A match is refereed by ntpu.Host, the NTPU platform
// launcher's referee, whatever each program speaks: "stdio:" (the launcher's
// STDIO mode: the Java server's messages on the program's standard input and
// output) or "tcp:" (its TCP mode: the program is started as "<command>
// 127.0.0.1 <port>" and connects back, as a Java server client does). A
// built-in bot plays as a STDIO program, this binary run as "arena bot
// geister <name>", so it meets any program through the protocol. Each
// game's directory holds board.txt, the NTPU record with both red sets.
//
// "arena serve geister" is the Java geister server (ports 10000 and 10001,
// its options), writing every game as an NTPU board.txt.
func geisterDef() *gameDef {
	reveal := false // -reveal, read by NewRunner
	return &gameDef{
		Name:        "geister",
		Title:       "Geister",
		Builtins:    geisterBotNames(),
		Protocols:   []string{"stdio", "tcp"},
		ProgramHelp: geisterProgramHelp,
		Defaults:    [2]string{"greedy", "random"},
		Seats:       [2]string{"first", "second"},
		Presets:     []string{"gat", "ntpu"},
		DefaultTime: geisterDefaultTime(),
		Serve:       serveGeister,
		NewRunner:   func(cfg *matchConfig) (runner, error) { return newGeisterRunner(cfg, reveal) },
		Bot:         geisterBot,
		Flags: func(fs *flag.FlagSet) {
			fs.BoolVar(&reveal, "reveal", false, "show the ghosts' colours on the web viewer's live boards while a game goes on (hidden by default: anyone who opens the viewer, a player too, would see them)")
		},
	}
}

// geisterDefaultTime is the Java server's default control, --budget=600
// --timeout=10: "600s+10s/move".
func geisterDefaultTime() string {
	c, err := timer.JavaGeister(timer.JavaGeisterBudget, timer.JavaGeisterTimeout)
	if err != nil {
		return "600s+10s/move"
	}
	return c.String()
}

// geisterRules returns the rules of a -rules preset: gat (the Java server's,
// the default) or ntpu.
func geisterRules(preset string) (geister.Rules, error) {
	switch preset {
	case "", "gat":
		return geister.GAT, nil
	case "ntpu":
		return geister.NTPU, nil
	}
	return geister.Rules{}, fmt.Errorf("unknown rules %q (accepted: gat: the Java server's, 300 plies; ntpu: the NTPU platform's, 200 plies)", preset)
}

// The runner's limits besides the time control.
const (
	// geisterSetupLimit is the most a program has to set its red ghosts.
	geisterSetupLimit = 60 * time.Second
	// geisterSetupFloor is the least it has, however short the control.
	geisterSetupFloor = 3 * time.Second
)

// geisterRunner plays Geister games through ntpu.Host: every
// player is a program (a built-in bot is this binary run as a STDIO
// program). It holds settings only, so games may run at once.
type geisterRunner struct {
	def   *gameDef
	rules geister.Rules
	time  timer.Control
	start *record.GeisterBoard // -start, nil for none
	// setup is how long the programs have to set their red ghosts: 60 s,
	// or less under a short control (its first ply's allowance, at least
	// geisterSetupFloor), so that a silent program loses in about the time
	// a silent move would; plus what -startup gives beyond its default.
	setup time.Duration
	// startup is -startup: how long a TCP-mode program has to connect.
	startup time.Duration
	self    []string // this binary, to run built-in bots
	// reveal shows the colours on the viewer's live boards (-reveal).
	reveal bool
	// onTakeBack, when not nil, is called when a person took back a move,
	// with where the game goes on and its clocks (a test's hook).
	onTakeBack func(next *record.GeisterBoard, clocks *[2]timer.PlayerState)
}

// newGeisterRunner checks a Geister match's options: the rules preset, the
// time control, the ply limit and the start file. reveal is -reveal.
func newGeisterRunner(cfg *matchConfig, reveal bool) (runner, error) {
	rules, err := geisterRules(cfg.Rules)
	if err != nil {
		return nil, fmt.Errorf("-rules: %w", err)
	}
	switch {
	case cfg.MaxPlies < 0:
		return nil, fmt.Errorf("-plies %d: the ply limit must be positive (or 0 for the preset's: gat 300, ntpu 200)", cfg.MaxPlies)
	case cfg.MaxPlies > 0:
		rules.PlyLimit = cfg.MaxPlies
		rules.Name += "-" + strconv.Itoa(cfg.MaxPlies)
	}
	text := cfg.Time
	if text == "" {
		text = geisterDefaultTime()
	}
	ctl, err := timer.Parse(text)
	if err != nil {
		return nil, fmt.Errorf("-time %q: %w (accepted: none, 900s, 600s+10s/move, 0s+10s/move, 5s/move, \"900s 30s/move\", ...)", text, err)
	}
	startup := cmp.Or(cfg.Startup, defaultStartup)
	// A program sets its red ghosts once it has started: a slow starter
	// gets its -startup on top of the setup time.
	setup := geisterSetupTime(ctl)
	if startup > defaultStartup {
		setup += startup - defaultStartup
	}
	r := &geisterRunner{def: cfg.Game, rules: rules, time: ctl, setup: setup, startup: startup, reveal: reveal}
	if r.def == nil {
		r.def = geisterDef()
	}
	if cfg.Start != "" {
		if r.start, err = readGeisterStart(cfg.Start, rules); err != nil {
			return nil, fmt.Errorf("-start: %w", err)
		}
	}
	self, selfErr := selfCommand("bot", "geister")
	r.self = self
	for _, p := range cfg.Players {
		if p.Human {
			continue // a person plays on the seat page (geister_human.go)
		}
		if p.Builtin != "" {
			if _, err := newGeisterBot(p.Builtin, 1, timer.Control{}, 0); err != nil {
				return nil, err
			}
			if selfErr != nil {
				return nil, selfErr
			}
		} else if p.Protocol != "stdio" && p.Protocol != "tcp" {
			return nil, fmt.Errorf("player %q: protocol %q (accepted for geister: stdio, tcp)", p.Spec, p.Protocol)
		}
	}
	return r, nil
}

// geisterSetupTime is the setup time under ctl: its first ply's allowance
// within [geisterSetupFloor, geisterSetupLimit], geisterSetupLimit without
// a limit.
func geisterSetupTime(ctl timer.Control) time.Duration {
	if ctl.Unlimited() {
		return geisterSetupLimit
	}
	d := ctl.Main + ctl.Period
	if ctl.MoveCap > 0 && (d == 0 || ctl.MoveCap < d) {
		d = ctl.MoveCap
	}
	return min(max(d, geisterSetupFloor), geisterSetupLimit)
}

// readGeisterStart reads a -start file: an NTPU board.txt, cut or not (its
// result line, if any, is ignored), from which a game can go on under rules.
func readGeisterStart(path string, rules geister.Rules) (*record.GeisterBoard, error) {
	data, err := fsguard.ReadBounded(path, "a -start record", maxStartFile)
	if err != nil {
		return nil, err
	}
	b, err := record.ReadGeisterBoard(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("%s: not an NTPU board.txt: %w", path, err)
	}
	b.Result = geister.Result{}
	if b.ColorsKnown() {
		_, err = b.StartPosition([2]geister.Reds{})
	} else {
		_, err = b.MidGame(len(b.Moves))
	}
	if err != nil {
		return nil, fmt.Errorf("%s: no game can start from it: %w", path, err)
	}
	if rules.PlyLimit > 0 && len(b.Moves) >= rules.PlyLimit {
		return nil, fmt.Errorf("%s: its %d plies reach the ply limit %d (raise it with -plies)", path, len(b.Moves), rules.PlyLimit)
	}
	return b, nil
}

// program returns the ntpu.Program of the player in seat, and for a program
// that is missing or not executable, why it cannot start.
func (r *geisterRunner) program(job *gameJob, seat int) (ntpu.Program, fault) {
	p := job.Seats[seat]
	name := geisterRecordName(p.Name, seat)
	if p.Builtin != "" && len(r.self) == 0 {
		return ntpu.Program{}, fault{Kind: faultStart, Reason: "cannot find the arena binary to run the built-in " + p.Builtin}
	}
	if p.Builtin != "" {
		args := append(append([]string(nil), r.self[1:]...), p.Builtin, "-seed", strconv.FormatUint(job.botSeed(seat), 10),
			"-time", r.time.String(), "-plies", strconv.Itoa(r.rules.PlyLimit))
		return ntpu.Program{Name: name, Path: r.self[0], Args: args, Dir: job.Dir}, fault{}
	}
	prog := ntpu.Program{Name: name, Path: p.Command[0], Args: p.Command[1:]}
	if p.Protocol == "tcp" {
		prog.Mode = ntpu.TCPMode
	}
	return prog, geisterCannotRun(prog.Path)
}

// geisterCannotRun says why the program at path cannot start, the zero
// fault if it looks runnable.
func geisterCannotRun(path string) fault {
	if _, err := exec.LookPath(path); err != nil {
		return startFault(path, err)
	}
	return fault{}
}

// geisterRecordName is a player's name as a record holds it: no white space,
// at most 200 bytes, never empty.
func geisterRecordName(name string, seat int) string {
	name = strings.Map(func(r rune) rune {
		if strings.ContainsRune(" \t\r\n\v\f", r) {
			return '_'
		}
		return r
	}, name)
	if len(name) > 200 {
		name = name[:200]
	}
	if name == "" {
		name = geister.Color(seat).String()
	}
	return name
}

// Play plays one game: both programs started by the host, the game refereed,
// board.txt written into job.Dir. A person (player human) plays in this
// process as a player of the same host (geister_human.go); after a person's
// take-back the host is started again from two plies back, and after two
// persons agree on a draw the game ends there.
func (r *geisterRunner) Play(ctx context.Context, job *gameJob) gameResult {
	names := [2]string{job.Seats[0].Name, job.Seats[1].Name}
	live := newGeisterLive(job.Watch, job.ID)
	live.reveal = r.reveal
	live.views = job.Seats[0].Human || job.Seats[1].Human
	live.begin(viewer.GameInfo{
		ID:      job.ID,
		Game:    r.def.Name,
		Title:   fmt.Sprintf("Game %d: %s (first) vs %s (second)", job.N, names[0], names[1]),
		Players: names,
		Seats:   r.def.Seats,
	}, r.time)

	if err := writeOpeningFile(job); err != nil {
		res := gameResult{Winner: -2, Err: err}
		live.finish(res, "")
		return res
	}
	humans, humanFaults := openHumans(job)
	defer closeHumans(job) // after live.finish, so that the seats' pages show the result
	table := &geisterTable{live: live, ctl: r.time}
	var progs [2]ntpu.Program
	var cannot [2]fault
	for seat := range progs {
		switch {
		case humanFaults[seat].Kind != noFault:
			cannot[seat] = humanFaults[seat]
		case humans[seat] != nil:
			progs[seat] = ntpu.Program{Name: geisterRecordName(job.Seats[seat].Name, seat), Player: &geisterHuman{seat: humans[seat], table: table, setup: r.setupFor(job)}}
		default:
			progs[seat], cannot[seat] = r.program(job, seat)
		}
	}
	if cannot != [2]fault{} {
		return r.unstarted(job, live, cannot)
	}
	start := r.startOf(job)
	if start != nil {
		table.startAt = len(start.Moves)
	}
	var (
		clocks *[2]timer.PlayerState
		g      *ntpu.Game
		err    error
		stop   geisterStop
	)
	// A take-back stops the host; it plays on from two plies back, the
	// clocks as they were, the program started again.
	for {
		hctx, cancel := context.WithCancel(ctx)
		table.restart(cancel)
		h := &ntpu.Host{
			Rules:          r.rules,
			Time:           r.time,
			SetupTimeout:   r.setupFor(job),
			ConnectTimeout: r.startup,
			Start:          start,
			Clocks:         clocks,
			Logger:         job.Log,
			OnPly:          table.ply,
		}
		g, err = h.Play(hctx, progs[0], progs[1])
		cancel()
		var by int
		stop, by = table.stopped()
		if g == nil || g.Result.Reason != geister.Unfinished || ctx.Err() != nil {
			stop = geisterGoOn // the game ended otherwise first (a time out)
		}
		if stop != geisterTakeBack {
			break
		}
		next, terr := geisterTakenBack(g.Record)
		if terr != nil {
			err = terr
			break
		}
		job.Log.Info("geister: a person took back a move; the game goes on from two plies back", "player", job.Seats[by].Name, "ply", len(next.Moves))
		start = next
		if !r.time.Unlimited() {
			clocks = geisterClocksOn(g.Clock)
		}
		if r.onTakeBack != nil {
			r.onTakeBack(next, clocks)
		}
	}
	var se *ntpu.StartError
	switch {
	case g == nil && err != nil && ctx.Err() != nil:
		res := gameResult{Winner: -2, Reason: geister.Unfinished.String(), Detail: "interrupted"}
		live.finish(res, "")
		return res
	case errors.As(err, &se):
		cannot[se.Side] = startFault(se.Path, se.Err)
		return r.unstarted(job, live, cannot)
	case g == nil && err != nil:
		res := gameResult{Winner: -2, Err: fmt.Errorf("geister: %w", err)}
		live.finish(res, "")
		return res
	}
	var res gameResult
	switch {
	case stop == geisterAgreed:
		// No platform's board.txt has a draw by agreement: it ends with
		// the SDK's word, AgreedDraw, as a resignation ends with Resign.
		g.Record.Result = geister.Result{Reason: geister.AgreedDraw, Draw: true}
		res = gameResult{Winner: -1, Ending: endAgreed, Plies: len(g.Record.Moves), Reason: geister.AgreedDraw.String(),
			Detail: fmt.Sprintf("%s and %s agreed to a draw", names[0], names[1])}
	case stop == geisterTakeBack: // the game two plies back cannot start
		res = gameResult{Winner: -2, Err: fmt.Errorf("geister: take-back: %w", err)}
		live.finish(res, "")
		return res
	default:
		res = geisterResult(g, names, r.rules)
		if err != nil && ctx.Err() != nil {
			res = gameResult{Winner: -2, Reason: geister.Unfinished.String(), Detail: "interrupted", Plies: res.Plies, Faults: res.Faults}
		}
	}
	for seat, p := range g.Players {
		// A program's standard output is the protocol in STDIO mode:
		// what it printed besides is its standard error.
		writeProgramOutput(job, job.Seats[seat].Name, nil, p.Stderr)
	}
	res.Record, res.Err = writeGeisterRecord(job, g.Record)
	live.finish(res, res.Record)
	return res
}

// setupFor is how long the players of job have to set their red ghosts:
// the runner's setup time, or, where a person plays, the NTPU platform's
// minute at least (a person clicks).
func (r *geisterRunner) setupFor(job *gameJob) time.Duration {
	if job.Seats[0].Human || job.Seats[1].Human {
		return max(r.setup, geisterSetupLimit)
	}
	return r.setup
}

// startOf is where the game of job starts: a mid-game file with both red
// sets and no moves for an opening (the host imposes the red
// sets, answering every well-formed SET: with OK and ignoring its letters;
// the programs learn their colours from the first MOV? board), else -start,
// else nil for the start position with the programs' own SET:s.
func (r *geisterRunner) startOf(job *gameJob) *record.GeisterBoard {
	o := job.Opening
	if o == nil || !o.geister[0].Valid() {
		return r.start
	}
	return &record.GeisterBoard{
		Start:  geister.StartSetup(o.geister[0], o.geister[1]).Ghosts,
		Counts: &[4]int{4, 4, 4, 4},
		Reds:   o.geister,
	}
}

// unstarted ends a game in which a program could not be started: it loses
// by start failure (the record says Disconnect, the platform's word for a
// program that is gone); if neither
// could, the game has no result. The record says so.
func (r *geisterRunner) unstarted(job *gameJob, live *geisterLive, cannot [2]fault) gameResult {
	res := gameResult{Winner: -2, Reason: geister.Disconnect.String(), Faults: cannot}
	switch {
	case cannot[0].Kind != noFault && cannot[1].Kind != noFault:
		res.Reason, res.Detail = geister.Unfinished.String(), "neither program could start"
	case cannot[0].Kind != noFault:
		res.Winner = 1
	default:
		res.Winner = 0
	}
	b := &record.GeisterBoard{
		Date:      time.Now().Truncate(time.Minute),
		First:     geisterRecordName(job.Seats[0].Name, 0),
		Second:    geisterRecordName(job.Seats[1].Name, 1),
		Start:     geister.StartSetup(geister.RedsAt(0), geister.RedsAt(0)).Ghosts,
		TimeLimit: r.time.Main.Truncate(time.Second),
	}
	if st := r.startOf(job); st != nil {
		b.Start, b.Counts, b.Moves, b.Captures, b.Reds = st.Start, st.Counts, st.Moves, st.Captures, st.Reds
	}
	if res.Winner >= 0 {
		b.Result = geister.Result{Reason: geister.Disconnect, Winner: geister.Color(res.Winner)}
	}
	res.Ending = settleEnding(res, endStart)
	res.Plies = len(b.Moves)
	res.Record, res.Err = writeGeisterRecord(job, b)
	live.finish(res, res.Record)
	return res
}

// writeGeisterRecord writes b as board.txt in the game's directory and
// returns its path.
func writeGeisterRecord(job *gameJob, b *record.GeisterBoard) (string, error) {
	data, err := record.AppendGeisterBoard(nil, b)
	if err != nil {
		return "", fmt.Errorf("geister record: %w", err)
	}
	path := filepath.Join(job.Dir, "board.txt")
	if err := writeGameFile(job, "board.txt", data); err != nil {
		return "", fmt.Errorf("geister record: %w", err)
	}
	return path, nil
}

// geisterResult turns the host's game into the arena's result.
func geisterResult(g *ntpu.Game, names [2]string, rules geister.Rules) gameResult {
	r := g.Result
	res := gameResult{Winner: -2, Reason: r.Reason.String(), Plies: len(g.Record.Moves)}
	for seat, p := range g.Players {
		res.Faults[seat] = geisterFault(p, r)
	}
	switch {
	case r.Reason == geister.Unfinished:
		res.Detail = "no result"
		if res.Faults[0].Kind != noFault && res.Faults[1].Kind != noFault {
			res.Detail = "no result: neither player set its red ghosts"
		}
		return res
	case r.Draw:
		res.Winner = -1
	default:
		res.Winner = int(r.Winner)
	}
	res.Ending = settleEnding(res, geisterEnding(r.Reason))
	w, l := names[int(r.Winner)], names[1-int(r.Winner)]
	switch r.Reason {
	case geister.ChessEscape:
		res.Detail = w + "'s blue ghost escaped"
	case geister.NoBlueGhost:
		res.Detail = w + " captured all four of " + l + "'s blue ghosts"
	case geister.NoRedGhost:
		res.Detail = l + " captured all four of " + w + "'s red ghosts"
	case geister.GamePlyLimitDraw:
		res.Detail = fmt.Sprintf("the ply limit, %d, was reached", rules.PlyLimit)
	default:
		if res.Faults[1-int(r.Winner)].Kind == noFault {
			res.Detail = l + " lost by " + r.Reason.String()
		}
	}
	return res
}

// geisterEnding is the ending of a game the host ended with reason, when no
// fault decides it.
func geisterEnding(reason geister.Reason) ending {
	switch reason {
	case geister.ChessEscape:
		return endEscape
	case geister.NoBlueGhost:
		return endBlueCaptured
	case geister.NoRedGhost:
		return endRedCaptured
	case geister.GamePlyLimitDraw:
		return endPlyLimit
	case geister.TimeOut:
		return endTime
	case geister.IllegalMove:
		return endIllegal
	case geister.Disconnect:
		return endProtocol
	case geister.Resign:
		return endResign
	case geister.AgreedDraw:
		return endAgreed
	}
	return endNone
}

// geisterFault is what program run p did wrong in a game that ended with r,
// in arena's words; the zero fault if nothing. A refused line that is no
// move at all (garbage, another command) broke the protocol; only a
// well-formed move the rules forbid is an illegal move.
func geisterFault(p ntpu.ProgramRun, r geister.Result) fault {
	if p.Fault == "" {
		return fault{}
	}
	// A program that ran out of time lost on time, even if it then exited
	// with an error before it was killed (on a loaded machine, a slow
	// starter that found the listener closed).
	crashed := !p.Killed && p.ExitCode != 0 && p.Status != "" && !p.TimedOut
	switch {
	case crashed:
		f := fault{Kind: faultCrash, Reason: p.Fault + " (" + p.Status + ")"}
		if tail := lastLine(p.Stderr); tail != "" {
			f.Reason += "; stderr: " + tail
		}
		return f
	case p.TimedOut:
		return fault{Kind: faultTimeout, Reason: p.Fault}
	case r.Reason == geister.IllegalMove && errors.Is(p.FaultErr, geister.ErrIllegalMove):
		return fault{Kind: faultIllegal, Reason: p.Fault}
	}
	return fault{Kind: faultProtocol, Reason: p.Fault}
}

// geisterBot runs a built-in Geister bot as a program: "arena bot geister
// NAME" speaks the NTPU launcher's STDIO mode on standard input and output;
// "arena bot geister NAME HOST PORT" connects to a Java geister server (or
// "arena serve geister", or the launcher's TCP mode, which appends the host
// and the port) and plays one game there. -seed seeds it.
func geisterBot(ctx context.Context, name string, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("arena bot geister "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: arena bot geister NAME [-seed N] [HOST PORT]\n\nWithout HOST PORT the bot speaks the NTPU STDIO mode; with them it plays one game on a Java geister server (port 10000: the first player, 10001: the second).\nbuilt-in players: %s\n\nflags:\n", strings.Join(geisterBotNames(), ", "))
		fs.PrintDefaults()
	}
	seed := fs.Uint64("seed", 0, "seed of the bot's choices (0: a random seed)")
	timeText := fs.String("time", "none", "the game's time control (e.g. 600s+10s/move), which mcts plans its moves for; none: mcts searches a fixed number of playouts a move")
	plies := fs.Int("plies", 0, "the game's ply limit, for mcts (0: the Java server's, 300)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if *seed == 0 {
		*seed = rand.Uint64()
	}
	ctl, err := timer.Parse(*timeText)
	if err != nil {
		fmt.Fprintf(stderr, "arena bot geister: -time %q: %v\n", *timeText, err)
		return 2
	}
	if *plies < 0 {
		fmt.Fprintf(stderr, "arena bot geister: -plies %d: want 0 or more\n", *plies)
		return 2
	}
	bot, err := newGeisterBot(name, *seed, ctl, *plies)
	if err != nil {
		fmt.Fprintln(stderr, "arena bot geister:", err)
		return 2
	}
	switch fs.NArg() {
	case 0:
		if err := ntpu.ServeSTDIO(ctx, stdin, stdout, bot); err != nil {
			fmt.Fprintln(stderr, "arena bot geister:", err)
			return 1
		}
		return 0
	case 2:
		out, err := gat.Dial(ctx, net.JoinHostPort(fs.Arg(0), fs.Arg(1)), bot)
		if err != nil {
			fmt.Fprintln(stderr, "arena bot geister:", err)
			return 1
		}
		fmt.Fprintf(stdout, "%s player: %s\n", out.Color, out.Result)
		return 0
	}
	fmt.Fprintf(stderr, "arena bot geister: want no arguments (STDIO mode) or HOST PORT, got %q\n", fs.Args())
	return 2
}

// serveGeister runs the Java geister server's protocol ("arena serve
// geister") until ctx is done: the Java server's options, its banner, every
// game written as an NTPU board.txt, and the live games in the web viewer
// with -web.
func serveGeister(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("arena serve geister", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var o gat.HostOptions
	o.RegisterFlags(fs)
	records := fs.String("records", "log", "directory of the records (\"\" for none): per game, game-<time>.txt, an NTPU board.txt, and log-<time>.txt, the Java server's log")
	web := fs.String("web", "", "serve the web viewer on this address (\":8080\" is the Java viewer's port: pick another, e.g. :8081)")
	verbose := fs.Bool("v", false, "log every line received")
	fs.Usage = func() {
		fmt.Fprint(stderr, "usage: arena serve geister [flags]\n\nThe Java geister server (TCPServerWithBlock): the first player connects to --port0, the second to --port1; games run one after the other.\n\nflags:\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("serve geister: unexpected argument %q", fs.Arg(0))
	}
	h, err := o.Host()
	if err != nil {
		return fmt.Errorf("serve geister: %w", err)
	}
	if *records != "" {
		if err := os.MkdirAll(*records, 0o755); err != nil {
			return fmt.Errorf("serve geister: --records: %w", err)
		}
		h.RecordDir = *records
	}
	level := slog.LevelInfo
	if *verbose {
		level = slog.LevelDebug
	}
	h.Logger = slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))

	first, second, viewerAddr := o.Addrs()
	var lc net.ListenConfig
	ln0, err := lc.Listen(ctx, "tcp", first)
	if err != nil {
		return fmt.Errorf("serve geister: the first player's port: %w", err)
	}
	ln1, err := lc.Listen(ctx, "tcp", second)
	if err != nil {
		ln0.Close()
		return fmt.Errorf("serve geister: the second player's port: %w", err)
	}
	var wsln net.Listener
	if h.Viewer != nil {
		if wsln, err = lc.Listen(ctx, "tcp", viewerAddr); err != nil {
			ln0.Close()
			ln1.Close()
			return fmt.Errorf("serve geister: the viewer's port (--ws-port, 0 for none): %w", err)
		}
	}

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var w viewer.Watcher = viewer.Discard{}
	wait := func() {}
	if *web != "" {
		var dirs []string
		if *records != "" {
			dirs = []string{*records}
		}
		vw, vwait, err := startViewer(ctx, *web, stdout, dirs)
		if err != nil {
			ln0.Close()
			ln1.Close()
			if wsln != nil {
				wsln.Close()
			}
			return fmt.Errorf("serve geister: -web: %w", err)
		}
		w, wait = vw, vwait
	}
	live := &geisterServeLive{w: w, time: h.Time, reveal: o.WSReveal}
	if h.NoTimeLimit {
		live.time = timer.Control{}
	}
	var out sync.Mutex
	h.OnPly = live.ply
	h.OnGameEnd = func(rec gat.GameRecord) {
		live.end(rec)
		var javaLog string
		if *records != "" {
			var err error
			if javaLog, err = writeGeisterJavaLog(*records, rec, h.Rules); err != nil {
				fmt.Fprintln(stderr, "arena: serve geister:", err)
			}
		}
		out.Lock()
		defer out.Unlock()
		fmt.Fprintf(stdout, "game %d: %s (first) vs %s (second): %s, %d plies", rec.ID+1, rec.Remote[0], rec.Remote[1], rec.Result, len(rec.Moves))
		if rec.RecordFile != "" {
			fmt.Fprintf(stdout, "; record %s", rec.RecordFile)
		}
		if javaLog != "" {
			fmt.Fprintf(stdout, "; log %s", javaLog)
		}
		fmt.Fprintln(stdout)
	}

	// The banner, after the Java server's.
	port := func(ln net.Listener) int { return ln.Addr().(*net.TCPAddr).Port }
	out.Lock()
	fmt.Fprintf(stdout, "TCPServerWithBlock (arena %s: the Java geister server's protocol)\n", version)
	fmt.Fprintf(stdout, "Budget = %d sec.\n", o.Budget)
	fmt.Fprintf(stdout, "Timeout(after consuming budget) = %d sec.\n", o.Timeout)
	fmt.Fprintf(stdout, "Rules: %s, %s, an illegal move %s\n", h.Rules.Name, geisterPlyLimitText(h.Rules.PlyLimit), map[geister.Policy]string{geister.Lose: "loses", geister.Retry: "gets NG and the player tries again"}[h.Rules.IllegalMove])
	fmt.Fprintf(stdout, "1st player port: %d, 2nd player port: %d\n", port(ln0), port(ln1))
	if wsln != nil {
		fmt.Fprintf(stdout, "Viewer: ws://localhost:%d%s\n", port(wsln), gat.ViewerPath)
	}
	if *records != "" {
		fmt.Fprintf(stdout, "Records: %s (per game: game-<time>.txt, an NTPU board.txt; log-<time>.txt, the Java server's log)\n", *records)
	} else {
		fmt.Fprintln(stdout, "Records: none")
	}
	out.Unlock()

	var wg sync.WaitGroup
	if wsln != nil {
		wg.Go(func() {
			if err := h.Viewer.Serve(ctx, wsln); err != nil && ctx.Err() == nil {
				fmt.Fprintln(stderr, "arena: geister viewer:", err)
			}
		})
	}
	err = h.Serve(ctx, ln0, ln1)
	stopped := ctx.Err() != nil
	cancel()
	wg.Wait()
	wait()
	if stopped {
		return nil // stopped by the user
	}
	return fmt.Errorf("serve geister: %w", err)
}

// writeGeisterJavaLog writes the Java server's per-game log of rec
// into dir as log-<time>.txt, the time of its board.txt (or of its start),
// and returns its path. The winner= line is written as the Java server
// writes it, for a game the rules ended; a draw by a ply limit other than
// the Java server's 300 gets none, since the server cannot have one (its
// --max-turn does nothing) and readers replay the log with 300.
func writeGeisterJavaLog(dir string, rec gat.GameRecord, rules geister.Rules) (string, error) {
	l := &record.GeisterServerLog{Winner: -1}
	for _, c := range rec.Commands {
		l.Commands = append(l.Commands, record.GeisterLogCommand{Player: c.Side, Text: c.Line})
	}
	switch r := rec.Result; r.Reason {
	case geister.ChessEscape, geister.NoBlueGhost, geister.NoRedGhost:
		l.Winner = int(r.Winner)
	case geister.GamePlyLimitDraw:
		if rules.PlyLimit == geister.GAT.PlyLimit {
			l.Winner = 2
		}
	}
	data, err := record.AppendGeisterServerLog(nil, l)
	if err != nil {
		return "", err
	}
	name := "log-" + strings.ReplaceAll(rec.Began.Format("2006-01-02-15-04-05.000"), ".", "-") + ".txt"
	if base := filepath.Base(rec.RecordFile); strings.HasPrefix(base, "game-") {
		name = "log-" + strings.TrimPrefix(base, "game-")
	}
	path := filepath.Join(dir, name)
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return "", err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return "", err
	}
	return path, nil
}

// geisterPlyLimitText says a ply limit in words.
func geisterPlyLimitText(n int) string {
	if n == 0 {
		return "no ply limit"
	}
	return fmt.Sprintf("a draw after %d plies", n)
}

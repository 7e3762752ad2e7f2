package main

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/botarena/botarena/boardsvg"
	"github.com/botarena/botarena/darkchess"
	"github.com/botarena/botarena/internal/fsguard"
	"github.com/botarena/botarena/protocol"
	"github.com/botarena/botarena/protocol/cdcsocket"
	"github.com/botarena/botarena/protocol/mgtp"
	"github.com/botarena/botarena/protocol/readmode"
	"github.com/botarena/botarena/record"
	"github.com/botarena/botarena/timer"
	"github.com/botarena/botarena/viewer"
)

// darkchessProgramHelp is the game's "arena help match" text on how arena runs a
// program.
const darkchessProgramHelp = `Each program runs in a directory of its own in the game's directory:
"mgtp:./engine" is an MGTP engine on its standard input and output (the 2021
match system), told the time left before its first genmove; "legacy:./search"
is started as "./search 127.0.0.1 PORT" and connects back (the 2013-2019
socket protocol); "readmode:./search" runs once per ply, board.txt in,
move.txt out. -startup bounds its start and handshake.`

// darkchessDef describes Chinese dark chess (暗棋) to arena.
//
// A match is refereed by protocol.DarkChessReferee, whatever each engine
// speaks: "mgtp:" (the 2021 match system's stdio protocol, one process per
// game), "legacy:" (the 2013-2019 platform's socket protocol: the program is
// started as "<command> 127.0.0.1 <port>" and connects back) or "readmode:"
// (the platform's read mode: the program runs once per ply in its directory,
// board.txt in, move.txt out). A built-in bot plays as an MGTP engine, this
// binary run as "arena bot darkchess <name>", so it meets any program through
// the protocol. There is no server: the dark chess platforms run the engines
// themselves, and so does arena match.
//
// -startup bounds, for each MGTP and legacy program, its start and its
// handshake (the referee's HandshakeTimeout): an MGTP engine must answer
// name ... ready, a legacy one connect back and acknowledge /start_ and
// /turn, within it; one that does not loses the game before ply 1. A
// read-mode program is started afresh for every ply, within its clock.
//
// A person ("human", "NAME=human", with -web) plays on the seat page under
// the same referee and clock (darkchess_human.go): a flip by a click on a
// face-down piece, a move by clicks on the piece and its target. A person
// may resign (recorded "Resign", as an engine's "a0 a0" is), offer another
// person a draw ("AgreedDraw" in the record, the SDK's word: the platforms'
// records have none), and take back a ply against a program: the game is
// played again from two plies back, the same deal, the clocks as they
// were, the program started again with the game's history; board.txt holds
// the game as finally played.
//
// Each game's directory holds board.txt (the record, in the 2021 match
// system's layout), board.txt.json (the sidecar: seed, game index, deal,
// rules, result), first/ and second/ (each engine's working directory),
// first.command and second.command (an MGTP engine's transcript) and
// first.log and second.log (what each engine printed).
func darkchessDef() *gameDef {
	repetition := 0 // -repetition, read by NewRunner
	return &gameDef{
		Name:        "darkchess",
		Title:       "Chinese dark chess",
		Builtins:    darkchessBotNames(),
		Protocols:   []string{"mgtp", "legacy", "readmode"},
		ProgramHelp: darkchessProgramHelp,
		Defaults:    [2]string{"greedy", "random"},
		Seats:       [2]string{"first", "second"},
		Presets:     []string{"ntu2021", "classic", "icga"},
		DefaultTime: "900s",
		Flags: func(fs *flag.FlagSet) {
			fs.IntVar(&repetition, "repetition", 0, "draw after this many identical cycles of quiet plies (MGTP's num_repetition; 0: the preset's, 3; -1: no repetition draw)")
		},
		NewRunner: func(cfg *matchConfig) (runner, error) {
			return newDarkchessRunner(cfg, repetition)
		},
		Bot: darkchessBot,
	}
}

// darkchessRules returns the rules preset called name ("" is the default,
// ntu2021).
func darkchessRules(name string) (darkchess.Rules, error) {
	switch strings.ToLower(name) {
	case "", "ntu2021":
		return darkchess.NTU2021, nil
	case "classic":
		return darkchess.Classic, nil
	case "icga":
		return darkchess.ICGA, nil
	}
	return darkchess.Rules{}, fmt.Errorf("-rules %q: unknown dark chess preset (presets: ntu2021, the 2021 match system's, the default; classic, the 2013-2019 platform's; icga)", name)
}

// darkchessRunner plays the games of one match or tournament.
type darkchessRunner struct {
	rules     darkchess.Rules
	control   timer.Control
	timeText  string
	start     []byte           // the -start board.txt, nil for the opening
	startName string           // its file name
	startup   time.Duration    // -startup: each program's start and handshake
	tell      time.Duration    // the referee's TellTimeout: 0 for its default (tests shorten it)
	now       func() time.Time // the referee's clock: nil for time.Now (tests give a fake one)
}

// newDarkchessRunner checks the options of a dark chess match: the rules
// preset, the time control, the ply limit (-plies N sets the no-capture-no-
// flip draw limit N of the rules, the only ply limit dark chess has: the
// game is drawn after N plies in a row with no capture and no flip), the
// repetition count R (-repetition: 0 keeps the preset's, -1 turns the rule
// off), the -start record (a board.txt of any variant, whose game must
// still be in play; its result line, if any, is ignored) and the players'
// protocols.
func newDarkchessRunner(cfg *matchConfig, repetition int) (runner, error) {
	rules, err := darkchessRules(cfg.Rules)
	if err != nil {
		return nil, err
	}
	if cfg.MaxPlies < 0 {
		return nil, fmt.Errorf("-plies %d: the no-capture-no-flip draw limit is 0 (the preset's: %d) or more", cfg.MaxPlies, rules.NoProgressPlies)
	}
	if cfg.MaxPlies > 0 {
		rules.NoProgressPlies = cfg.MaxPlies
	}
	switch {
	case repetition < -1:
		return nil, fmt.Errorf("-repetition %d: the repetition count is 0 (the preset's: %d), -1 (no repetition draw) or more than 0", repetition, rules.RepetitionCycles)
	case repetition == -1:
		rules.RepetitionCycles = 0
	case repetition > 0:
		rules.RepetitionCycles = repetition
	}
	r := &darkchessRunner{rules: rules, timeText: cmp.Or(cfg.Time, "900s"), startup: cmp.Or(cfg.Startup, defaultStartup)}
	r.control, err = timer.Parse(r.timeText)
	if err != nil {
		return nil, fmt.Errorf("-time %q: %w (accepted: timer's text form, such as 900s, 15m, 900s+2s, 10s/move, \"900s 30s/move\", none)", r.timeText, err)
	}
	if r.control.Unlimited() {
		// The referee reads the zero Control as its default, 900 s; a
		// Charging of its own makes "none" mean no limit.
		r.control.Charging = timer.WholeSeconds
	}
	if cfg.Start != "" {
		data, err := fsguard.ReadBounded(cfg.Start, "a -start record", maxStartFile)
		if err != nil {
			return nil, fmt.Errorf("-start: %w", err)
		}
		g, err := darkchessStartGame(data, rules, nil)
		if err != nil {
			return nil, fmt.Errorf("-start %s: %w", cfg.Start, err)
		}
		if res, over := g.Result(); over {
			return nil, fmt.Errorf("-start %s: the game is over (%s); give a record of a game still in play", cfg.Start, res)
		}
		r.start, r.startName = data, cfg.Start
	}
	def := darkchessDef()
	for _, p := range cfg.Players {
		switch {
		case p.Human:
			// A person, on the seat page.
		case p.Builtin != "" && !slices.Contains(def.Builtins, p.Builtin):
			return nil, fmt.Errorf("player %q: unknown dark chess built-in (built-in players: %s)", p.Spec, strings.Join(def.Builtins, ", "))
		case p.Builtin == "" && !slices.Contains(def.Protocols, p.Protocol):
			return nil, fmt.Errorf("player %q: unknown dark chess protocol %q (protocols: %s)", p.Spec, p.Protocol, strings.Join(def.Protocols, ", "))
		case p.Builtin == "" && len(p.Command) == 0:
			return nil, fmt.Errorf("player %q: no program", p.Spec)
		}
	}
	return r, nil
}

// darkchessStartGame replays a -start board.txt under rules, without its
// result line, and deals the pieces it never flipped from rng (none if rng
// is nil).
func darkchessStartGame(data []byte, rules darkchess.Rules, rng *rand.Rand) (*darkchess.Game, error) {
	b, err := record.ReadDarkChessBoard(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	b.Result = nil
	return b.Game(rules, rng)
}

// darkchessSidecar is the <record>.json beside each game's board.txt: what replays the game's chance and its setting.
type darkchessSidecar struct {
	Game    int       `json:"game"`  // the game's number in the run, from 1
	Index   int       `json:"index"` // its index within its pairing, from 0
	Seed    uint64    `json:"seed"`  // the pairing's seed; games 2i and 2i+1 use rand.NewPCG(seed, i)
	Pair    int       `json:"pair"`  // i: the pair of games (2i, 2i+1) that share the deal
	Deal    string    `json:"deal"`  // the deal: the piece under each face-down square, rank 8 first
	Start   string    `json:"start"` // the start position with its deal, as darkchess.Position's String writes it
	From    string    `json:"from,omitempty"`
	Opening string    `json:"opening,omitempty"` // the -openings line the deal came from: "opening 3 (line 7: seed 12)"; then Seed and Pair did not deal
	Rules   string    `json:"rules"`
	N       int       `json:"noProgressPlies"`  // the no-capture-no-flip draw limit, 0 for none
	R       int       `json:"repetitionCycles"` // the repetition count, 0 for none
	Time    string    `json:"time"`
	Players [2]string `json:"players"` // first player, second player
	Result  string    `json:"result"`
	Reason  string    `json:"reason"`
	Plies   int       `json:"plies"`
	Faults  [2]string `json:"faults"`
}

// Play plays one game: it builds the game's deal from the job's seed (the
// same for both games of a pair, whose seats are swapped), starts each seat's
// engine in its own directory, referees the game, and writes the record, the
// sidecar and the transcripts.
func (r *darkchessRunner) Play(ctx context.Context, job *gameJob) gameResult {
	log := job.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	watch := job.Watch
	if watch == nil {
		watch = viewer.Discard{}
	}
	pair := job.Index / 2
	rng := rand.New(rand.NewPCG(job.Seed, uint64(pair)))
	var g *darkchess.Game
	if r.start != nil {
		var err error
		if g, err = darkchessStartGame(r.start, r.rules, rng); err != nil {
			return gameResult{Winner: -2, Err: fmt.Errorf("-start %s: %w", r.startName, err)}
		}
	} else if o := job.Opening; o != nil && o.darkchess.Dealt() {
		// The opening's deal, the same for both games of the pair.
		g = darkchess.NewGameFrom(r.rules, o.darkchess, nil)
		if err := writeOpeningFile(job); err != nil {
			return gameResult{Winner: -2, Err: err}
		}
	} else {
		g = darkchess.NewGame(r.rules, rng)
	}
	names := [2]string{job.Seats[0].Name, job.Seats[1].Name}
	startPly := g.Ply()

	// The seats, each program with its own directory and files. A program
	// is started by makers[i], again after a take-back; a person's seat
	// is the same throughout.
	var seats [2]protocol.DarkChessSeat
	var makers [2]func() protocol.DarkChessSeat
	var hseats [2]*dcHumanSeat
	var paths [2]string // each seat's program, for its faults
	var files []*os.File
	defer func() {
		for _, f := range files {
			f.Close()
		}
	}()
	create := func(name string) (*os.File, error) {
		f, err := createGameFile(job, name)
		if err == nil {
			files = append(files, f)
		}
		return f, err
	}
	for i, p := range job.Seats {
		if p.Human {
			paths[i] = p.Name
			continue // seated once the game has begun
		}
		seat := [2]string{"first", "second"}[i]
		dir := filepath.Join(job.Dir, seat)
		if err := mkdirGame(job, seat); err != nil {
			return gameResult{Winner: -2, Err: err}
		}
		out, err := create(seat + ".log")
		if err != nil {
			return gameResult{Winner: -2, Err: err}
		}
		lg := log.With("seat", seat, "player", p.Name)
		cmd := p.Command
		proto := p.Protocol
		if p.Builtin != "" {
			if cmd, err = selfCommand("bot", "darkchess", p.Builtin, "-seed", fmt.Sprint(job.botSeed(i)), "-time", r.timeText); err != nil {
				return gameResult{Winner: -2, Err: err}
			}
			proto = "mgtp"
		} else {
			cmd = slices.Clone(cmd)
			if strings.ContainsAny(cmd[0], `/\`) {
				// The program runs in its own directory: resolve it
				// from arena's.
				if abs, err := filepath.Abs(cmd[0]); err == nil {
					cmd[0] = abs
				}
			}
		}
		paths[i] = cmd[0]
		if p.Builtin == "" {
			paths[i] = p.Command[0] // as the user named it
		}
		switch proto {
		case "mgtp":
			tr, err := create(seat + ".command")
			if err != nil {
				return gameResult{Winner: -2, Err: err}
			}
			prog := &mgtp.Program{Path: cmd[0], Args: cmd[1:], Dir: dir, Transcript: tr, Output: out, Logger: lg,
				// The 2021 system sends no rules: its engines know
				// them. Other rules are told with num_repetition
				// and num_moves_to_draw.
				SendRules: r.rules != darkchess.NTU2021}
			makers[i] = func() protocol.DarkChessSeat { return prog.Seat() }
		case "legacy":
			e := &cdcsocket.Program{Path: cmd[0], Args: cmd[1:], Dir: dir, FirstPort: -1, Output: out, Logger: lg}
			makers[i] = func() protocol.DarkChessSeat { return e.Seat() }
		case "readmode":
			e := &readmode.Program{Path: cmd[0], Args: cmd[1:], Dir: dir, Players: names, Output: out, Logger: lg}
			makers[i] = func() protocol.DarkChessSeat { return e.Seat() }
		default:
			return gameResult{Winner: -2, Err: fmt.Errorf("player %q: unknown dark chess protocol %q", p.Spec, proto)}
		}
	}

	// The live view.
	unlimited := r.control.Unlimited()
	clocks := func(s timer.Snapshot) [2]string {
		if unlimited {
			return [2]string{}
		}
		return [2]string{viewer.FormatClock(s.Players[0].Left), viewer.FormatClock(s.Players[1].Left)}
	}
	noColors := [2]darkchess.Color{darkchess.NoColor, darkchess.NoColor}
	colorsOf := func(first darkchess.Color) [2]darkchess.Color {
		if !first.Valid() {
			return noColors
		}
		return [2]darkchess.Color{first, first.Opponent()}
	}
	_, noViewer := watch.(viewer.Discard)
	picture := func(pos darkchess.Position, last darkchess.Move, colors [2]darkchess.Color, status string, cl [2]string) string {
		if noViewer {
			return "" // nobody looks: no drawing
		}
		return boardsvg.DarkChess(pos, boardsvg.DarkChessOptions{Last: last, Players: names, Colors: colors, Status: status, Clocks: cl})
	}
	startColors := colorsOf(g.FirstColor())
	if g.Turn() == darkchess.NoColor {
		startColors = noColors
	}
	full := timer.NewClock(r.control, time.Now).Snapshot()
	toMove := g.Ply() % 2
	status := viewer.DarkChessStatus(names, startColors, toMove, false, darkchess.Result{})
	var lastMove darkchess.Move = darkchess.NoMove
	if plies := g.Plies(); len(plies) > 0 {
		lastMove = plies[len(plies)-1].Move
	}
	startFrame := viewer.Frame{Ply: g.Ply(), Board: picture(g.Position(), lastMove, startColors, status, clocks(full)), Status: status, Clocks: clocks(full), ToMove: toMove}
	watch.Begin(viewer.GameInfo{
		ID:      job.ID,
		Game:    "darkchess",
		Title:   fmt.Sprintf("Game %d: %s (first) vs %s (second)", job.N, names[0], names[1]),
		Players: names,
		Seats:   [2]string{"first", "second"},
	}, startFrame)
	var mu sync.Mutex // guards lastFrame: OnPly runs on the referee's goroutine
	lastFrame := startFrame

	// The persons' seat pages, open from the game's beginning until it is
	// over and shown. Each question shows the position as the seat sees
	// it (what anyone sees: the face-down pieces stay down).
	humans, humanFaults := openHumans(job)
	defer closeHumans(job)
	for i, h := range humans {
		if h == nil {
			if job.Seats[i].Human {
				seats[i] = dcUnseated{reason: humanFaults[i].Reason}
			}
			continue
		}
		hs := &dcHumanSeat{h: h}
		hs.question = func(v darkchess.View) viewer.Question {
			mu.Lock()
			f := lastFrame
			mu.Unlock()
			colors := colorsOf(g.FirstColor())
			if !g.Turn().Valid() {
				colors = noColors
			}
			prompt := dcPrompt(colors[i])
			last := darkchess.NoMove
			if len(v.History) > 0 {
				last = v.History[len(v.History)-1].Move
			}
			f.Board = boardsvg.DarkChess(v.Position(), boardsvg.DarkChessOptions{Last: last, Players: names, Colors: colors, Status: prompt, Clocks: f.Clocks})
			f.Views, f.Status, f.ToMove = nil, prompt, i
			return viewer.Question{Frame: f, Areas: boardsvg.DarkChessAreas(), Prompt: prompt, Choices: dcChoices(v)}
		}
		// Take-back: against a program, of a ply of this game (not one
		// of the -start record or the opening). No preset forbids it.
		hs.takeBack = func() bool {
			return !job.Seats[1-i].Human && g.Ply()-2 >= startPly
		}
		hseats[i], seats[i] = hs, hs
	}

	var clockFrom *[2]timer.PlayerState // the clocks to go on from after a take-back
	ref := &protocol.DarkChessReferee{
		Control:          r.control,
		HandshakeTimeout: r.startup,
		TellTimeout:      r.tell,
		Now:              r.now,
		Logger:           log,
		OnPly: func(e protocol.DarkChessPlyEvent) {
			colors := colorsOf(g.FirstColor())
			over := e.Result.Reason != darkchess.Unfinished
			status := viewer.DarkChessStatus(names, colors, e.N%2, over, e.Result)
			f := viewer.Frame{Ply: e.N, Move: e.Ply.String(), Status: status, Clocks: clocks(e.Clock), ToMove: e.N % 2}
			if over {
				f.ToMove = -1
			}
			f.Board = picture(e.Position, e.Ply.Move, colors, status, f.Clocks)
			mu.Lock()
			lastFrame = f
			mu.Unlock()
			watch.Update(job.ID, f)
		},
	}
	// The game, played again from two plies back after each take-back.
	var rec protocol.DarkChessGameRecord
	var playErr error
	var began time.Time   // when the game began, before any take-back
	var times []time.Time // when each ply kept after a take-back arrived
	for {
		for i, mk := range makers {
			if mk != nil {
				seats[i] = mk() // the program, started afresh
			}
		}
		gctx, stop := context.WithCancelCause(ctx)
		for _, hs := range hseats {
			if hs != nil {
				hs.stop = stop
			}
		}
		ref.ClockFrom = clockFrom
		rec, playErr = ref.Play(gctx, g, seats)
		cause := context.Cause(gctx)
		stop(nil)
		if began.IsZero() {
			began = rec.Began
		}
		for i, t := range times {
			if i < len(rec.Times) && rec.Times[i].IsZero() {
				rec.Times[i] = t
			}
		}
		if playErr == nil || ctx.Err() != nil {
			break
		}
		if errors.Is(cause, errHumanDraw) {
			// Two persons agreed to a draw.
			if err := g.AgreeDraw(); err == nil {
				rec.Result, _ = g.Result()
				playErr = nil
			}
			break
		}
		if !errors.Is(cause, errHumanTakeBack) || g.Ply()-2 < startPly {
			break
		}
		// Take-back: the person's last ply and the program's answer are
		// undone; the game goes on from the same deal, with the clocks as
		// they are now.
		keep := g.Ply() - 2
		start, _ := g.PositionAt(0)
		plies := g.Plies()[:keep]
		back := darkchess.NewGameFrom(r.rules, start, nil)
		for _, ply := range plies {
			if err := back.PlayPly(ply); err != nil {
				return gameResult{Winner: -2, Err: fmt.Errorf("take-back: replaying ply %s: %w", ply, err)}
			}
		}
		g = back
		times = slices.Clone(rec.Times[:min(keep, len(rec.Times))])
		from := rec.Clock.Players
		clockFrom = &from
		log.Info("dark chess: take-back", "plies", keep)
		colors := startColors
		if g.Turn().Valid() {
			colors = colorsOf(g.FirstColor())
		}
		status := viewer.DarkChessStatus(names, colors, keep%2, false, darkchess.Result{})
		last := darkchess.NoMove
		f := viewer.Frame{Ply: keep, Status: status, Clocks: clocks(rec.Clock), ToMove: keep % 2}
		if keep > 0 {
			last, f.Move = plies[keep-1].Move, plies[keep-1].String()
		}
		f.Board = picture(g.Position(), last, colors, status, f.Clocks)
		mu.Lock()
		lastFrame = f
		mu.Unlock()
		watch.Update(job.ID, f)
	}
	rec.Began = cmp.Or(began, rec.Began)
	if playErr != nil && ctx.Err() == nil {
		return gameResult{Winner: -2, Err: playErr}
	}

	// The result.
	res := gameResult{Winner: darkchessWinnerSeat(rec), Plies: len(rec.Plies), Reason: rec.Result.Reason.String()}
	for i, err := range rec.Faults {
		res.Faults[i] = darkchessFault(err, rec.FaultKinds[i], paths[i])
		if humanFaults[i].Kind != noFault {
			res.Faults[i] = humanFaults[i]
		}
	}
	res.Detail = darkchessDetail(rec, res, names)
	res.Ending = settleEnding(res, darkchessEnding(rec.Result.Reason))
	colors := colorsOf(g.FirstColor())
	over := rec.Result.Reason != darkchess.Unfinished
	final := endingStatus(names, res)
	if !over {
		final = "unfinished: " + res.Detail
	}
	mu.Lock()
	last := lastFrame
	mu.Unlock()
	last.Status, last.ToMove = final, -1
	if len(rec.Plies) > 0 {
		last.Move = rec.Plies[len(rec.Plies)-1].String()
	}
	last.Clocks = clocks(rec.Clock)
	lm := darkchess.NoMove
	if len(rec.Plies) > 0 {
		lm = rec.Plies[len(rec.Plies)-1].Move
	}
	last.Board = picture(g.Position(), lm, colors, final, last.Clocks)

	// The record and its sidecar.
	path := filepath.Join(job.Dir, "board.txt")
	if err := r.writeRecord(path, g, rec, names, job, startPly, res); err != nil {
		res.Err = err
		watch.Finish(job.ID, last, final, "")
		return res
	}
	res.Record = path
	watch.Finish(job.ID, last, final, path)
	return res
}

// writeRecord writes the game's board.txt, in the 2021 match system's
// layout, and its sidecar board.txt.json.
func (r *darkchessRunner) writeRecord(path string, g *darkchess.Game, rec protocol.DarkChessGameRecord, names [2]string, job *gameJob, startPly int, res gameResult) error {
	b := record.NewDarkChessBoard(g, names[0], names[1])
	b.Banner = "INITIAL"
	b.Date = record.DarkChessDate(rec.Began, record.DarkChessServer2021)
	b.Time = int((max(r.control.Main, r.control.MoveCap) + time.Second - 1) / time.Second)
	// The game's start, then when each ply arrived (the start, for plies
	// played before the referee took the game over).
	b.Times = make([]int64, 0, len(rec.Plies)+1)
	b.Times = append(b.Times, rec.Began.UnixMilli())
	for i := range rec.Plies {
		t := rec.Began
		if i < len(rec.Times) && !rec.Times[i].IsZero() {
			t = rec.Times[i]
		}
		b.Times = append(b.Times, t.UnixMilli())
	}
	var buf bytes.Buffer
	if err := record.WriteDarkChessBoard(&buf, b, record.DarkChessServer2021); err != nil {
		return fmt.Errorf("darkchess record: %w", err)
	}
	if err := writeGameFile(job, filepath.Base(path), buf.Bytes()); err != nil {
		return err
	}
	startText := rec.Start.String()
	deal := ""
	if f := strings.Fields(startText); len(f) == 5 {
		deal = f[4]
	}
	sc := darkchessSidecar{
		Game: job.N, Index: job.Index, Seed: job.Seed, Pair: job.Index / 2,
		Deal: deal, Start: startText, Rules: r.rules.Name, N: r.rules.NoProgressPlies, R: r.rules.RepetitionCycles, Time: r.timeText,
		Players: names, Reason: res.Reason, Plies: len(rec.Plies), Faults: [2]string{res.Faults[0].String(), res.Faults[1].String()},
		Result: rec.Result.String(),
	}
	if r.start != nil {
		sc.From = fmt.Sprintf("%s (%d plies)", r.startName, startPly)
	}
	if job.Opening != nil {
		sc.Opening = job.Opening.String()
	}
	js, err := json.MarshalIndent(sc, "", "  ")
	if err != nil {
		return err
	}
	return writeGameFile(job, filepath.Base(path)+".json", append(js, '\n'))
}

// darkchessFault is, in arena's words, what the engine of a seat did wrong
// when the referee's record holds err of kind for it (nil: nothing); path is
// its program. The referee records every fault but a bad ply or a
// resignation as the platform's TimeOut; the kind tells them apart, and of
// the referee's DarkChessIllegal only a ply the rules forbid (one wrapping
// darkchess.ErrIllegalMove) is an illegal move: talk that is no ply broke
// the protocol.
func darkchessFault(err error, kind protocol.DarkChessFaultKind, path string) fault {
	if err == nil {
		return fault{}
	}
	// What the engine did, without the referee's wrapping (its reason is
	// the result's).
	why := err
	if f := (*protocol.DarkChessFault)(nil); errors.As(err, &f) && f.Err != nil {
		why = f.Err
	}
	switch kind {
	case protocol.DarkChessNotStarted:
		return startFault(path, err)
	case protocol.DarkChessResigned, protocol.DarkChessNoFault:
		return fault{} // a resignation is a move, not a fault
	case protocol.DarkChessTimedOut:
		return fault{Kind: faultTimeout, Reason: why.Error()}
	case protocol.DarkChessIllegal:
		if !errors.Is(err, darkchess.ErrIllegalMove) {
			// No ply at all: garbage, or a message out of place.
			return fault{Kind: faultProtocol, Reason: why.Error()}
		}
		return fault{Kind: faultIllegal, Reason: why.Error()}
	case protocol.DarkChessDisconnected:
		return fault{Kind: faultProtocol, Reason: why.Error()}
	}
	return fault{Kind: faultCrash, Reason: why.Error()}
}

// darkchessEnding is the ending of a game the referee ended with reason,
// when no fault decides it.
func darkchessEnding(reason darkchess.Reason) ending {
	switch reason {
	case darkchess.NoPieces:
		return endNoPieces
	case darkchess.NoLegalPly:
		return endNoMoves
	case darkchess.TimeOut:
		return endTime
	case darkchess.BadMove:
		return endIllegal
	case darkchess.Resign:
		return endResign
	case darkchess.NoEatFlipDraw:
		return endNoProgress
	case darkchess.PositionRepetitionDraw:
		return endRepetition
	case darkchess.AgreedDraw:
		return endAgreed
	}
	return endNone
}

// darkchessWinnerSeat returns the seat that won rec (0 the first player),
// -1 for a draw, -2 for an unfinished game.
func darkchessWinnerSeat(rec protocol.DarkChessGameRecord) int {
	r := rec.Result
	switch {
	case r.Reason == darkchess.Unfinished:
		return -2
	case r.Draw:
		return -1
	case !r.Winner.Valid() || r.Winner != rec.FirstColor:
		return 1
	}
	return 0
}

// darkchessDetail says in a few words how the game ended: the fault, or
// the rule and the material left.
func darkchessDetail(rec protocol.DarkChessGameRecord, res gameResult, names [2]string) string {
	switch rec.Result.Reason {
	case darkchess.Unfinished:
		return "interrupted"
	case darkchess.TimeOut, darkchess.BadMove, darkchess.Resign:
		loser := 1 - res.Winner
		if loser >= 0 && loser < 2 && res.Faults[loser].Kind != noFault {
			return "" // the fault says it
		}
		return fmt.Sprintf("%s lost by %s", names[max(loser, 0)], rec.Result.Reason)
	case darkchess.NoEatFlipDraw:
		return fmt.Sprintf("%d plies with no capture and no flip", dcFinalPosition(rec).Quiet())
	case darkchess.PositionRepetitionDraw:
		return fmt.Sprintf("%d repetitions of a %d-ply cycle", rec.Result.Repetitions, rec.Result.Cycle)
	case darkchess.AgreedDraw:
		return fmt.Sprintf("%s and %s agreed", names[0], names[1])
	}
	pos := dcFinalPosition(rec)
	red, black := pos.Count(darkchess.Red), pos.Count(darkchess.Black)
	what := "no pieces left"
	if rec.Result.Reason == darkchess.NoLegalPly {
		what = "no legal ply"
	}
	return fmt.Sprintf("%s: %s; red %d, black %d pieces", names[1-max(res.Winner, 0)], what, red, black)
}

// dcFinalPosition returns the position rec ends in.
func dcFinalPosition(rec protocol.DarkChessGameRecord) darkchess.Position {
	p := rec.Start
	for _, ply := range rec.Plies {
		next, err := p.PlayPly(ply)
		if err != nil {
			break
		}
		p = next
	}
	return p
}

// darkchessBot runs the built-in player name as an engine program:
//
//	arena bot darkchess NAME [-seed N]              MGTP on standard input and output
//	arena bot darkchess NAME [-seed N] IP PORT      the legacy socket client: connects to IP:PORT
//	arena bot darkchess NAME [-seed N] -readmode    read mode: one ply, board.txt to move.txt, in the working directory
//
// The legacy form is how the platform starts an engine ("search 127.0.0.1
// <port>"); the read-mode form is one run of the platform's read mode. It
// returns the exit code: 0, 1 when the game could not be played, 2 for a
// bad command line.
func darkchessBot(ctx context.Context, name string, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("arena bot darkchess "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	seed := fs.Uint64("seed", 0, "seed of the bot's choices (0: a random seed)")
	timeText := fs.String("time", "none", "the game's time control (e.g. 900s), which mcts plans its plies for, on the time left MGTP tells; none: mcts searches a fixed number of playouts a ply")
	readMode := fs.Bool("readmode", false, "play one ply of read mode: read board.txt and write move.txt in the working directory")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: arena bot darkchess NAME [flags]           MGTP engine on stdin/stdout\n"+
			"       arena bot darkchess NAME [flags] IP PORT   legacy socket engine\n"+
			"       arena bot darkchess NAME [flags] -readmode read-mode engine (one ply)\n\nbuilt-in players: %s\n\nflags:\n", strings.Join(darkchessBotNames(), ", "))
		fs.PrintDefaults()
	}
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
		fmt.Fprintf(stderr, "arena bot darkchess: -time %q: %v\n", *timeText, err)
		return 2
	}
	bot, err := newDarkchessBot(name, *seed, ctl)
	if err != nil {
		fmt.Fprintln(stderr, "arena bot darkchess:", err)
		return 2
	}
	logger := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	switch {
	case *readMode && fs.NArg() == 0:
		if err := readmode.Run(ctx, ".", bot); err != nil {
			fmt.Fprintln(stderr, "arena bot darkchess:", err)
			return 1
		}
	case *readMode:
		fmt.Fprintf(stderr, "arena bot darkchess: -readmode takes no arguments, got %q\n", fs.Args())
		return 2
	case fs.NArg() == 0:
		// The bots keep their own margin (think.go): the engine's
		// deadline is the clock less darkchessBotMargin.
		e := &mgtp.Engine{Name: name, Logger: logger, Margin: darkchessBotMargin}
		if err := e.Serve(ctx, stdin, stdout, bot); err != nil {
			fmt.Fprintln(stderr, "arena bot darkchess:", err)
			return 1
		}
	case fs.NArg() == 2:
		c := &cdcsocket.Client{Logger: logger}
		if _, err := c.DialArgs(ctx, fs.Args(), bot); err != nil {
			fmt.Fprintln(stderr, "arena bot darkchess:", err)
			return 1
		}
	default:
		fmt.Fprintf(stderr, "arena bot darkchess: want no arguments (MGTP), IP PORT (legacy socket) or -readmode, got %q\n", fs.Args())
		return 2
	}
	return 0
}

package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/botarena/botarena/boardsvg"
	"github.com/botarena/botarena/internal/fsguard"
	"github.com/botarena/botarena/pdd"
	"github.com/botarena/botarena/protocol/permove"
	"github.com/botarena/botarena/record"
	"github.com/botarena/botarena/timer"
	"github.com/botarena/botarena/viewer"
)

// pddProgramHelp is the game's "arena help match" text on how arena runs a
// program.
const pddProgramHelp = `A strategy program runs once per move in the game's directory, as
"PROG <W|B> <Y|N> chess.txt bridge.txt stepLog.txt" (its colour, whether it
may play Change): it reads the files, writes its move into chess.txt or
bridge.txt, exits 0 within its time.`

// pddDef describes Ponte del Diavolo to arena: games refereed over the course
// platform's files, every player a strategy program run once per
// move as
//
//	PROG <W|B> <Y|N> chess.txt bridge.txt stepLog.txt
//
// the built-ins included ("arena bot pdd NAME ..."), so that the protocol is
// always in the loop. White moves first. The game's own match flags are -eol
// and -workdir; -plies is refused, since a game always ends by
// itself within 67 actions.
func pddDef() *gameDef {
	var eol, workdir string
	return &gameDef{
		Name:        "pdd",
		Title:       "Ponte del Diavolo",
		Builtins:    pddBotNames(),
		Protocols:   []string{"strategy"},
		ProgramHelp: pddProgramHelp,
		Defaults:    [2]string{"greedy", "random"},
		Seats:       [2]string{"white", "black"},
		Presets:     []string{"course", "official"},
		DefaultTime: timer.PDD().String(),
		HumanTime:   "60s/move",
		Flags: func(fs *flag.FlagSet) {
			fs.StringVar(&eol, "eol", "lf", "pdd: line ends of the files the referee writes: lf, or crlf as a Windows platform")
			fs.StringVar(&workdir, "workdir", "", "pdd: working directory of the strategy programs (default: each program's own directory)")
		},
		NewRunner: func(cfg *matchConfig) (runner, error) { return newPDDRunner(cfg, eol, workdir) },
		Bot:       pddBot,
	}
}

// pddResultName is the name of the result file the referee writes in each
// game directory, the record arena lists for a PDD game.
const pddResultName = "result.json"

// pddRunner plays the games of one PDD match or tournament through a
// permove.Referee, one game directory per game.
type pddRunner struct {
	cfg     *matchConfig
	ref     permove.Referee // the settings; each game gets a copy
	start   pdd.Position    // where the games start
	last    *record.PDDStep // the start's last action, if any
	ctl     timer.Control   // the match's control, which the built-ins are told
	unlimit bool            // the control sets no limit: no clocks to show
}

// newPDDRunner checks the options of a PDD match: the rules preset, the time
// control, the ply limit (refused), -eol, -workdir and the -start record.
func newPDDRunner(cfg *matchConfig, eol, workdir string) (*pddRunner, error) {
	rulesName := cfg.Rules
	if rulesName == "" {
		rulesName = "course"
	}
	rules, err := pdd.ParseRules(rulesName)
	if err != nil {
		return nil, fmt.Errorf("-rules %q: unknown preset for pdd (presets: course, official)", cfg.Rules)
	}
	ctl, err := pddControl(cfg.Time)
	if err != nil {
		return nil, err
	}
	if cfg.MaxPlies != 0 {
		return nil, fmt.Errorf("-plies %d: a pdd game has no ply limit; it always ends by itself, within 67 actions (course) or 58 (official)", cfg.MaxPlies)
	}
	var crlf bool
	switch strings.ToLower(eol) {
	case "", "lf":
	case "crlf":
		crlf = true
	default:
		return nil, fmt.Errorf("-eol %q: want lf or crlf", eol)
	}
	if workdir != "" {
		abs, err := filepath.Abs(workdir)
		if err != nil {
			return nil, fmt.Errorf("-workdir %s: %w", workdir, err)
		}
		if st, err := os.Stat(abs); err != nil {
			return nil, fmt.Errorf("-workdir: %w", err)
		} else if !st.IsDir() {
			return nil, fmt.Errorf("-workdir %s: not a directory", workdir)
		}
		workdir = abs
	}
	r := &pddRunner{
		cfg:     cfg,
		ref:     permove.Referee{Rules: rules, Control: ctl, NoTimeLimit: ctl.Unlimited(), CRLF: crlf, WorkDir: workdir},
		start:   rules.Start(),
		ctl:     ctl,
		unlimit: ctl.Unlimited(),
	}
	if cfg.Start != "" {
		l, g, err := readPDDStart(cfg.Start, rules)
		if err != nil {
			return nil, err
		}
		if g.IsOver() {
			return nil, fmt.Errorf("-start %s: the game is over; nothing is left to play", cfg.Start)
		}
		r.ref.Start = l
		r.start = g.Position()
		if n := len(l.Steps); n > 0 {
			r.last = &l.Steps[n-1]
		}
	}
	for _, p := range cfg.Players {
		if p.Human {
			continue // a person plays in arena's process (pdd_human.go)
		}
		if p.Builtin != "" {
			if _, err := newPDDBot(p.Builtin, 1, ctl); err != nil {
				return nil, err
			}
		} else if len(p.Command) == 0 {
			return nil, fmt.Errorf("player %q: no command to run", p.Spec)
		}
	}
	return r, nil
}

// pddControl reads the -time of a PDD match ("" is the platform's 5 s per
// move; none, the zero Control, is no limit: the referee is told so by
// NoTimeLimit, since its zero Control means the platform's 5 s).
func pddControl(text string) (timer.Control, error) {
	if text == "" {
		return timer.PDD(), nil
	}
	ctl, err := timer.Parse(text)
	if err == nil {
		err = ctl.Validate()
	}
	if err != nil {
		return timer.Control{}, fmt.Errorf("-time %q: %w (accepted: 5s/move (the platform's), none, 900s, 900s+2s, 600s+10s/move, \"900s 30s/move\", ...)", text, err)
	}
	return ctl, nil
}

// readPDDStart reads the -start record: a game directory (its stepLog.txt,
// checked against its chess.txt and bridge.txt when they are there), a
// stepLog.txt, or a game directory's result.json (the record a match
// lists), and replays it under rules.
func readPDDStart(path string, rules pdd.Rules) (record.PDDStepLog, *pdd.Game, error) {
	fail := func(err error) (record.PDDStepLog, *pdd.Game, error) {
		return record.PDDStepLog{}, nil, fmt.Errorf("-start %s: %w (want a pdd game directory, its stepLog.txt or its result.json)", path, err)
	}
	st, err := os.Stat(path)
	if err != nil {
		return fail(err)
	}
	dir, stepPath := "", path
	if st.IsDir() {
		dir, stepPath = path, filepath.Join(path, record.PDDStepLogFile)
	}
	data, err := readSmallFile(stepPath)
	if err != nil {
		return fail(err)
	}
	if dir == "" && (strings.EqualFold(filepath.Ext(path), ".json") || bytes.HasPrefix(bytes.TrimSpace(data), []byte("{"))) {
		f, err := permove.ReadResultFile(bytes.NewReader(data))
		if err != nil {
			return fail(err)
		}
		l, err := f.StepLog()
		if err != nil {
			return fail(fmt.Errorf("result.json: %w", err))
		}
		g, err := record.ReplayPDDStepLog(l, rules)
		if err != nil {
			return fail(err)
		}
		return l, g, nil
	}
	l, err := record.ReadPDDStepLog(bytes.NewReader(data), record.PDDLenient)
	if err != nil {
		return fail(err)
	}
	var g *pdd.Game
	chess, cerr := readSmallFile(filepath.Join(dir, record.PDDChessFile))
	bridge, berr := readSmallFile(filepath.Join(dir, record.PDDBridgeFile))
	if dir != "" && cerr == nil && berr == nil {
		g, err = record.ReadPDDGame(bytes.NewReader(chess), bytes.NewReader(bridge), bytes.NewReader(data), rules)
	} else {
		g, err = record.ReplayPDDStepLog(l, rules)
	}
	if err != nil {
		return fail(err)
	}
	return l, g, nil
}

// readSmallFile reads a record file of at most record.PDDMaxFileSize bytes,
// a regular file only (openRegular).
func readSmallFile(path string) ([]byte, error) {
	return fsguard.ReadBounded(path, "a PDD record file", record.PDDMaxFileSize)
}

// program returns the strategy program of a seat's player: the player's
// own command, or a built-in, which the referee plays in arena's own
// process through the same files and checks as a program
// (permove.Program.Player), as "arena bot pdd NAME -seed S" would play it
// but without starting a program for each move: at 100 ms a move on a
// loaded machine, starting arena's binary alone took most of the time.
func (r *pddRunner) program(p *playerSpec, seed uint64) permove.Program {
	if p.Builtin == "" {
		return permove.Program{Name: p.Name, Command: p.Command}
	}
	bot, err := newPDDBot(p.Builtin, seed, r.ctl)
	if err != nil { // cannot happen: newPDDRunner tried the name
		return permove.Program{Name: p.Name}
	}
	return permove.Program{Name: p.Name, Player: bot}
}

// programPath returns what names prog in a fault: its executable, or its
// name for a built-in.
func programPath(prog permove.Program) string {
	if len(prog.Command) > 0 {
		return prog.Command[0]
	}
	return prog.Name
}

// Play referees one game in job.Dir (stepLog.txt, chess.txt,
// bridge.txt, result.json, logs/, violation/), showing every move to
// job.Watch. A person's seat (pdd_human.go) is an in-process player of the
// same referee, asked on its seat page, opened as the game begins and
// closed once it is over.
func (r *pddRunner) Play(ctx context.Context, job *gameJob) gameResult {
	white, black := job.Seats[0], job.Seats[1]
	humans, humanFaults := openHumans(job)
	defer closeHumans(job) // after Finish, so that the seat pages show the result
	ref := r.ref
	ref.Logger = job.Log
	start, lastStart := r.start, r.last
	if o := job.Opening; o != nil && o.pdd != nil {
		// The opening's actions are played already: the referee replays
		// them, and the programs find them in the files it writes.
		ref.Start, start, lastStart = o.pdd.Log, o.pdd.Start, o.pdd.Last
	}
	startPly := len(ref.Start.Steps)
	clocks := r.clocks(timer.NewClock(ref.Control, nil).Snapshot())
	last := viewer.PDDFrame(start, startPly, pdd.NoMove, "", clocks)
	if lastStart != nil {
		last = viewer.PDDFrame(start, startPly, lastStart.Move, lastStart.String(), clocks)
	}
	job.Watch.Begin(viewer.GameInfo{
		ID:      job.ID,
		Game:    "pdd",
		Title:   fmt.Sprintf("Game %d: %s (white) vs %s (black)", job.N, white.Name, black.Name),
		Players: [2]string{white.Name, black.Name},
		Seats:   [2]string{"white", "black"},
	}, last)
	live := &pddLive{frame: last, steps: slices.Clone(ref.Start.Steps), startSteps: len(ref.Start.Steps)}
	ref.OnMove = func(e permove.MoveEvent) {
		step := e.Move.Step
		if e.Ply == 0 { // taken back to the empty board
			last = viewer.PDDFrame(e.Position, 0, pdd.NoMove, "", r.clocks(e.Clock))
		} else {
			last = viewer.PDDFrame(e.Position, e.Ply, step.Move, step.String(), r.clocks(e.Clock))
		}
		live.moved(e, last)
		job.Watch.Update(job.ID, last)
	}
	var progs [2]permove.Program
	for i, p := range job.Seats {
		switch {
		case humans[i] != nil:
			// NoFallback: a person out of time plays no move in
			// their place; the referee's violation is then their
			// time (below).
			progs[i] = permove.Program{Name: p.Name, Player: &pddHuman{seat: humans[i], color: pdd.White + pdd.Color(i), live: live}, Options: permove.Options{NoFallback: true}}
		case p.Human:
			progs[i] = permove.Program{Name: p.Name} // no seat: it cannot start (humanFaults)
		default:
			progs[i] = r.program(p, job.botSeed(i))
		}
	}
	rec, err := ref.Play(ctx, job.Dir, progs[0], progs[1])
	if rec == nil {
		res := gameResult{Winner: -2, Err: err}
		job.Watch.Finish(job.ID, last, "unfinished: "+fmt.Sprint(err), "")
		return res
	}
	res := pddGameResult(rec, job.Dir, [2]string{programPath(progs[0]), programPath(progs[1])})
	for i := range humans {
		switch {
		case humanFaults[i].Kind != noFault:
			res.Faults[i] = humanFaults[i]
		case humans[i] != nil && res.Faults[i].Kind == faultCrash:
			// The person's player failed: their time ran out.
			res.Faults[i] = fault{Kind: faultTimeout, Reason: fmt.Sprintf("turn %d: no move in time", rec.Violation.Turn)}
		}
	}
	res.Ending = settleEnding(res, pddEnding(rec.Result.Reason))
	if err != nil && ctx.Err() == nil {
		res.Err = err // the referee's own failure
	}
	// After the game: the referee wants the game's directory empty.
	if err := writeOpeningFile(job); err != nil && res.Err == nil {
		res.Err = err
	}
	p := rec.Game.Position()
	last.Board = pddPicture(p, lastStep(rec))
	last.Status = endingStatus([2]string{white.Name, black.Name}, res)
	last.ToMove = -1
	job.Watch.Finish(job.ID, last, last.Status, res.Record)
	return res
}

// clocks returns what the viewer shows of the clock: each side's time left
// for its move, nothing when the control sets no limit.
func (r *pddRunner) clocks(s timer.Snapshot) [2]string {
	if r.unlimit {
		return [2]string{}
	}
	return [2]string{viewer.FormatClock(s.Players[timer.First].Left), viewer.FormatClock(s.Players[timer.Second].Left)}
}

// pddPicture draws p, the action last (nil for none) marked.
func pddPicture(p pdd.Position, last *record.PDDStep) string {
	var o boardsvg.PDDOptions
	if last != nil {
		o.Last = last.Move
	}
	return boardsvg.PDD(p, o)
}

// lastStep returns the record's last accepted action, nil if none.
func lastStep(rec *permove.GameRecord) *record.PDDStep {
	if n := len(rec.Moves); n > 0 {
		return &rec.Moves[n-1].Step
	}
	return nil
}

// pddGameResult turns the referee's record of the game played in dir into
// the arena's result: the winner by seat (White is seat 0), the reason in
// the platform's words (score, islands, bridges, draw or violation; none for
// an unfinished game), the ending in arena's (the violation's fault for a
// forfeit), the scores as the detail, and the violation as the fault of the
// seat that lost by it, and each seat's fallback moves (the moves its
// program said its strategy runner played in its player's place); paths
// are the seats' programs. Plies
// counts the lines of stepLog.txt, the actions of a -start record included.
// The record is the game directory's result.json: the platform's files
// (chess.txt, bridge.txt, stepLog.txt) have no place for the players'
// names, and result.json names them (its programs W and B are the arena's
// player names) beside the moves and the result, so that the replay of the
// record says who played.
func pddGameResult(rec *permove.GameRecord, dir string, paths [2]string) gameResult {
	res := gameResult{
		Reason:    rec.Result.Reason.String(),
		Detail:    pddScoreText(rec.Result.White, rec.Result.Black),
		Plies:     len(rec.Moves),
		Record:    filepath.Join(dir, pddResultName), // as the other games name theirs, not the referee's absolute path
		Fallbacks: [2]int{rec.Fallbacks(pdd.White), rec.Fallbacks(pdd.Black)},
	}
	switch {
	case rec.Result.Reason == pdd.Unfinished:
		res.Winner, res.Reason = -2, ""
	case rec.Result.Draw:
		res.Winner = -1
	case rec.Result.Winner == pdd.White:
		res.Winner = 0
	default:
		res.Winner = 1
	}
	if v := rec.Violation; v != nil {
		seat := int(v.Color - pdd.White)
		res.Reason = "violation"
		res.Faults[seat] = pddFault(v, paths[seat])
	}
	res.Ending = settleEnding(res, pddEnding(rec.Result.Reason))
	return res
}

// pddEnding is the ending of a game the referee ended with reason, when no
// fault decides it. A tie of points, islands and bridges is a draw by
// score.
func pddEnding(reason pdd.Reason) ending {
	switch reason {
	case pdd.Points, pdd.Draw:
		return endScore
	case pdd.Islands:
		return endIslands
	case pdd.Bridges:
		return endBridges
	case pdd.Violation:
		return endProtocol
	case pdd.Resign:
		return endResign
	case pdd.AgreedDraw:
		return endAgreed
	}
	return endNone
}

// pddFault is, in arena's words, the fault of a program that broke the
// interface's rules (v), its program being path: could not start, timed
// out, crashed (a non-zero exit or a signal), broke the protocol (a
// malformed or missing chess.txt or bridge.txt, stepLog.txt or the game
// directory tampered with), or an illegal move (a rule of the game: one of
// package pdd's errors, or a tile of the opponent's colour).
// The reason keeps the turn and the referee's detail, without the Go
// package prefixes.
func pddFault(v *permove.Violation, path string) fault {
	// detail is the referee's text after the sentinel's (a timeout's
	// "still running after 5s"), or all of it without the package prefix
	// when the sentinel says what happened (a rule of the game).
	detail := func(sentinel error) string {
		s := v.Err.Error()
		if sentinel != nil {
			s = strings.TrimPrefix(s, sentinel.Error()+": ")
		}
		s = strings.TrimPrefix(strings.TrimPrefix(s, "permove: "), "pdd: ")
		return fmt.Sprintf("turn %d: %s", v.Turn, s)
	}
	switch {
	case errors.Is(v.Err, permove.ErrProgramStart):
		return startFault(path, v.Err)
	case errors.Is(v.Err, permove.ErrTimeout):
		return fault{Kind: faultTimeout, Reason: detail(permove.ErrTimeout)}
	case errors.Is(v.Err, permove.ErrExitStatus):
		return fault{Kind: faultCrash, Reason: detail(permove.ErrExitStatus)}
	case errors.Is(v.Err, permove.ErrFileFormat), errors.Is(v.Err, permove.ErrStepLogWritten):
		return fault{Kind: faultProtocol, Reason: detail(nil)}
	}
	return fault{Kind: faultIllegal, Reason: detail(nil)}
}

// pddScoreText writes both scores: "points/islands/bridges white 7/4/3,
// black 6/4/2" (as the viewer's PDDStatus does).
func pddScoreText(w, b pdd.Score) string {
	return fmt.Sprintf("points/islands/bridges white %d/%d/%d, black %d/%d/%d", w.Points, w.Islands, w.Bridges, b.Points, b.Islands, b.Bridges)
}

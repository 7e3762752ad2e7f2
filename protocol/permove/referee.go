package permove

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/botarena/botarena/internal/proc"
	"github.com/botarena/botarena/pdd"
	"github.com/botarena/botarena/record"
	"github.com/botarena/botarena/timer"
)

// OutputLimit is how much of a program's standard output and of its
// standard error the referee keeps per turn: proc.LogLimit each, the first
// half and the last half, with a "[truncated N bytes]" line between.
const OutputLimit = proc.LogLimit

// InProcessReserve is the most time of a move an in-process
// [Program].Player's runner keeps back from the referee's deadline (a fifth
// of the time when that is less: 20 ms of 100 ms), for writing its move,
// a fallback move included, once its player's time is up.
const InProcessReserve = time.Second

// LogLimit bounds the logs/ of a game per program: at most this many
// bytes of what one program printed, both streams and all its turns, are
// kept there: 1 MiB. The logs of its first turns are kept up to a quarter
// of it and those of its latest turns in the rest; the turns between are
// dropped, oldest first, and logs/<C>.truncated (W.truncated or
// B.truncated) says "[truncated N bytes]" and which turns.
const LogLimit = 4 * proc.LogLimit

// Program is a strategy program that a [Referee] runs once per move.
type Program struct {
	// Name names the program in the record; "" means the base name of
	// Command[0].
	Name string
	// Command is the executable and its own arguments (no shell: split
	// "python3 bot.py" yourself); the referee appends the 5 arguments of
	// the interface. A name without a path separator is looked up in PATH.
	Command []string
	// Player, when not nil, plays in the referee's own process in place of
	// Command: for each move the referee calls [RunArgs] with the same 5
	// arguments, Options, and what standard error it prints captured as a
	// program's, so that the move goes through the same files and checks
	// as a program's without the cost of starting one (tens of
	// milliseconds a move on a loaded machine). The referee sets
	// Options.Rules to its own, and the time of the move: Start is when
	// the run starts and Budget what the clock allows from then (or
	// NoTimeLimit), less [InProcessReserve]; the player is told the clock
	// (Options.Status: the control and both sides' time, as the referee's
	// clock has them). The player must be code you
	// trust: it shares the referee's process and its memory, and is not
	// contained. A move whose RunArgs has not returned by the deadline is
	// a timeout; the referee waits for RunArgs to return (it returns once
	// its player's budget is spent, whatever the player does) before it
	// goes on, so that no late write reaches the next move's files. A
	// player that overruns its budget may then still be running when it is
	// asked for its next move: it must be safe for concurrent use. Unlike
	// a program, the player may end its turn otherwise than by a move, by
	// returning [ErrResign], [ErrDrawAgreed] or [ErrTakeBack] within its
	// time (a person's seat does).
	Player pdd.Player
	// Options are the options of the in-process Player's RunArgs.
	Options Options
}

// name returns the program's name for the record.
func (p Program) name() string {
	if p.Name != "" {
		return p.Name
	}
	if p.Player != nil && len(p.Command) == 0 {
		return "player"
	}
	if len(p.Command) > 0 {
		return filepath.Base(p.Command[0])
	}
	return ""
}

// Referee referees Ponte del Diavolo games between two strategy programs
// over the course platform's per-move file interface. For each
// move it writes chess.txt, bridge.txt and stepLog.txt from its own state
// into the game directory, runs
//
//	PROG <W|B> <Y|N> <chess.txt> <bridge.txt> <stepLog.txt>
//
// (absolute paths; stdin empty; in its own process group) under the time
// control, kills the program and its children when its time is up and again
// once it has exited, and then reads what it left. It never trusts the
// files: it re-derives the position from its own state, accepts only a
// difference that is exactly one legal action ([InferMove]), and appends
// the stepLog line itself. A side without a legal move is skipped (Course);
// the game ends when neither side can move, and the scores decide. A
// program that cannot be started, runs out of time, writes stepLog.txt,
// exits non-zero or crashes, writes malformed files or anything but one
// legal action loses at once with a [*Violation]. A program that says on
// its standard error that it played a fallback move ([FallbackMarker]) has
// its action accepted and counted ([MoveRecord.Fallback],
// [GameRecord.Fallbacks]).
//
// Configure the fields before calling Play and do not change them while it
// runs. One Referee may run several games at once, each in its own
// directory. The zero Referee plays Course games with 5 s per move and
// LF files.
type Referee struct {
	// Rules is the rule profile: pdd.Course (the zero value) or
	// pdd.Official, played over files: a pass is a stepLog.txt line.
	Rules pdd.Rules
	// Control is the time control, run on a timer.Clock per game; a move
	// is timed from just before the program starts until it exits. The zero
	// Control means timer.PDD(), 5 s per move.
	Control timer.Control
	// NoTimeLimit runs the games without a time limit, whatever Control
	// says: a program runs until it exits, or until the context of Play
	// ends.
	NoTimeLimit bool
	// CRLF makes the referee write its files with CRLF line ends, as a
	// Windows platform would; the default is LF.
	CRLF bool
	// WorkDir is the programs' working directory; "" means each program's
	// own directory (that of its executable).
	WorkDir string
	// Logger receives the referee's log: the games at Info, each move at
	// Debug, violations at Warn. Nil discards it.
	Logger *slog.Logger
	// Start holds the actions a game goes on from: the lines of an earlier
	// game's stepLog.txt, replayed under Rules from the empty board when
	// Play begins (record.ReplayPDDStepLog, which puts in the Course skips).
	// They open the new game's stepLog.txt and its record, renumbered 1, 2,
	// ... as the SDK writes turns, with no time charged; the programs play
	// on from the position they reach. The zero value starts from the empty
	// board.
	Start record.PDDStepLog
	// StartClock, when not nil, is the clock's state when the game begins:
	// each side's time left, as a [timer.Snapshot]'s Players give it
	// (indexed by timer.First, White, and timer.Second, Black), for a game
	// that goes on from Start with the clocks it had (timer.NewClockFrom).
	// Nil starts both sides with the control's full time. It is ignored
	// with NoTimeLimit.
	StartClock *[2]timer.PlayerState
	// OnMove, when not nil, is called after each action the referee
	// accepts (each new stepLog.txt line; an Official Pass included, the
	// actions of Start and the Course skips not), from the goroutine running
	// Play, before the next program starts: a live view of the game; and
	// after a take-back, with MoveEvent.TakeBack set. It must return
	// quickly and must not keep the event's Position past what
	// it needs (a value; keeping it is safe).
	OnMove func(MoveEvent)
}

// MoveEvent is an action a [Referee] has just accepted, given to its
// OnMove.
type MoveEvent struct {
	Dir      string         // the game directory
	Move     MoveRecord     // the action: its stepLog line and the program's time
	Ply      int            // the actions accepted so far, this one included: the lines of stepLog.txt
	Position pdd.Position   // the position after the action
	Clock    timer.Snapshot // the game clock after the action
	// TakeBack is set when the event follows a take-back ([ErrTakeBack])
	// in place of an action: Move is then the last action still played
	// (the zero MoveRecord if none is left), Ply the actions left, and
	// Position the position the game goes on from.
	TakeBack bool
}

// Skip is a turn on which a side had no legal move and was skipped
// (Course): no program ran and nothing was written to stepLog.txt.
type Skip struct {
	BeforeTurn int       // the number of the next recorded action
	Color      pdd.Color // the side skipped
}

// MoveRecord is an accepted action: its stepLog line and how long the
// program took (0 for an Official forced Pass, which runs no program).
type MoveRecord struct {
	Step    record.PDDStep // the stepLog line
	Elapsed time.Duration  // the program's run, from start to exit
	// Fallback is set when the program said, on its standard error, that
	// the action is a fallback move: its player gave no move by its
	// deadline or failed, and the strategy runner played one in its place
	// (see FallbackMarker).
	Fallback bool
}

// GameRecord is what a [Referee] records of a game.
type GameRecord struct {
	Dir          string    // the game directory
	Rules        pdd.Rules // the profile
	White, Black string    // the programs' names
	// Game is the referee's game: every move (skips as pdd.Pass), every
	// position and the result.
	Game *pdd.Game
	// Result is the outcome: by score at the end of the game, or
	// pdd.Violation (then Violation says what happened), or
	// pdd.Unfinished if Play was stopped.
	Result    pdd.Result
	Violation *Violation   // what the loser did, after a violation; nil otherwise
	Moves     []MoveRecord // the accepted actions, as stepLog.txt has them
	Skips     []Skip       // the Course skips, in order
	// StartPlies is how many of Moves came from the referee's Start: the
	// actions played before this game took over.
	StartPlies int
}

// Fallbacks returns how many of c's accepted actions were fallback moves
// ([MoveRecord.Fallback]).
func (r *GameRecord) Fallbacks(c pdd.Color) int {
	n := 0
	for _, m := range r.Moves {
		if m.Fallback && m.Step.Color == c {
			n++
		}
	}
	return n
}

// StepLog returns the game's stepLog.txt: the accepted actions.
func (r *GameRecord) StepLog() record.PDDStepLog {
	var l record.PDDStepLog
	for _, m := range r.Moves {
		l.Steps = append(l.Steps, m.Step)
	}
	return l
}

// ResultFile is the layout of a game directory's result.json.
// Colours are "W" and "B", points "x,y"; Winner is "W", "B" or
// "none"; Reason is "score", "islands", "bridges", "draw", "violation",
// "resignation" (the loser's in-process player resigned, [ErrResign]),
// "agreement" (a draw the players agreed to, [ErrDrawAgreed]) or
// "unfinished". The
// platform's files have no place for a resignation or an agreed draw:
// stepLog.txt then ends with the last action played, and result.json alone
// says how the game ended.
type ResultFile struct {
	Rules    string `json:"rules"` // "course" or "official"
	Programs struct {
		W string `json:"W"`
		B string `json:"B"`
	} `json:"programs"` // the programs' names
	Winner string `json:"winner"` // "W", "B" or "none"
	Reason string `json:"reason"` // why the game ended
	// Violation is what the loser did, after a violation: its stable name
	// ("ErrTimeout", ...), side, turn and the error's text.
	Violation *struct {
		Name   string `json:"name"`
		Color  string `json:"color"`
		Turn   int    `json:"turn"`
		Detail string `json:"detail"`
	} `json:"violation,omitempty"`
	Score struct {
		W ResultScore `json:"W"`
		B ResultScore `json:"B"`
	} `json:"score"` // the scores at the end, for information after a violation
	Plies int `json:"plies"` // accepted actions: the lines of stepLog.txt
	// StartPlies is how many of them came from the start record
	// (Referee.Start), not from the programs; omitted when 0.
	StartPlies int `json:"start_plies,omitempty"`
	Skips      []struct {
		BeforeTurn int    `json:"before_turn"`
		Color      string `json:"color"`
	} `json:"skips"` // the Course skips
	Moves []ResultMove `json:"moves"` // the accepted actions
	// Fallbacks counts each colour's fallback moves
	// ([GameRecord.Fallbacks]); omitted when there were none (and in the
	// files of earlier referees, which did not count them).
	Fallbacks *ResultFallbacks `json:"fallbacks,omitempty"`
}

// ResultFallbacks is how many fallback moves each colour played, in
// result.json.
type ResultFallbacks struct {
	W int `json:"W"`
	B int `json:"B"`
}

// ResultScore is one colour's score in result.json.
type ResultScore struct {
	Points  int `json:"points"`  // T(n) summed over the networks
	Islands int `json:"islands"` // all own islands
	Bridges int `json:"bridges"` // all own bridges
}

// ResultMove is one accepted action in result.json; P1 and P2 are empty
// for a Pass.
type ResultMove struct {
	Turn      int    `json:"turn"`         // the stepLog turn number
	Color     string `json:"color"`        // "W" or "B"
	Action    string `json:"action"`       // "Chess", "Bridge", "Change" or "Pass"
	P1        string `json:"p1,omitempty"` // the first point, "x,y"
	P2        string `json:"p2,omitempty"` // the second point
	ElapsedMS int64  `json:"elapsed_ms"`   // the program's run in milliseconds
	// Fallback is true for a fallback move ([MoveRecord.Fallback]);
	// omitted otherwise.
	Fallback bool `json:"fallback,omitempty"`
}

// ResultFile returns the content of result.json.
func (r *GameRecord) ResultFile() ResultFile {
	var f ResultFile
	f.Rules = r.Rules.String()
	f.Programs.W, f.Programs.B = r.White, r.Black
	f.Winner = "none"
	if !r.Result.Draw && r.Result.Winner.Valid() {
		f.Winner = pddColorLetter(r.Result.Winner)
	}
	f.Reason = r.Result.Reason.String()
	if v := r.Violation; v != nil {
		f.Violation = &struct {
			Name   string `json:"name"`
			Color  string `json:"color"`
			Turn   int    `json:"turn"`
			Detail string `json:"detail"`
		}{v.Name(), pddColorLetter(v.Color), v.Turn, fmt.Sprint(v.Err)}
	}
	score := func(s pdd.Score) ResultScore { return ResultScore{s.Points, s.Islands, s.Bridges} }
	f.Score.W, f.Score.B = score(r.Result.White), score(r.Result.Black)
	f.Plies = len(r.Moves)
	f.StartPlies = r.StartPlies
	f.Skips = make([]struct {
		BeforeTurn int    `json:"before_turn"`
		Color      string `json:"color"`
	}, len(r.Skips))
	for i, s := range r.Skips {
		f.Skips[i].BeforeTurn, f.Skips[i].Color = s.BeforeTurn, pddColorLetter(s.Color)
	}
	f.Moves = make([]ResultMove, len(r.Moves))
	for i, m := range r.Moves {
		mv := ResultMove{Turn: m.Step.Turn, Color: pddColorLetter(m.Step.Color), Action: m.Step.Move.Action().String(), ElapsedMS: m.Elapsed.Milliseconds(), Fallback: m.Fallback}
		if a, b := m.Step.Points(); a.Valid() && b.Valid() {
			mv.P1, mv.P2 = a.String(), b.String()
		}
		f.Moves[i] = mv
	}
	if w, b := r.Fallbacks(pdd.White), r.Fallbacks(pdd.Black); w+b > 0 {
		f.Fallbacks = &ResultFallbacks{W: w, B: b}
	}
	return f
}

// Play referees one game, white against black, in dir, which is created if
// needed and must be empty. The game directory holds, at the end:
// stepLog.txt (the accepted actions), chess.txt and bridge.txt (the
// final position; after a violation, the position before it), result.json
// ([GameRecord.ResultFile]), logs/<turn>-<C>.stdout and .stderr (what a
// program printed on a turn, when it printed anything, within LogLimit
// per program), and after a violation violation/chess.txt and
// violation/bridge.txt, the files as the program left them.
//
// The game directory is opened once, as an os.Root, when the game starts,
// and every file the referee reads or writes in it goes through that root:
// no symlink or ".." a program plants there leads the referee out of it,
// and a program that moves the directory or puts a symlink at its path does
// not take the referee along. The last element of dir must therefore be a
// directory, not a symlink (the directories above it may be symlinks). A
// program that plants a symlink (or a pipe, a socket, a device) in the game
// directory, puts something at logs/, violation/ or result.json, or moves
// or replaces the directory loses by ErrStepLogWritten (the platform's 竄改:
// the game directory is the referee's record); a chess.txt or bridge.txt
// that is a symlink or has other hard links is not a regular file of the
// game directory, and loses by ErrFileFormat. At the end
// Play puts a moved game directory back at its path.
//
// With a Start, the game goes on from the position its actions reach, and
// Play fails at once if they do not replay under Rules.
//
// A program's misbehaviour is a result, not an error: the error is for the
// referee's own failures (a directory it cannot write) and for ctx ending,
// which stops the game and kills the program; the record is then returned
// as far as it went, with Result.Reason pdd.Unfinished.
func (r *Referee) Play(ctx context.Context, dir string, white, black Program) (*GameRecord, error) {
	if !r.Rules.Valid() {
		return nil, fmt.Errorf("permove: PDD rules %d are not a profile", r.Rules)
	}
	control := r.Control
	switch {
	case r.NoTimeLimit:
		control = timer.Control{}
	case control == (timer.Control{}):
		control = timer.PDD()
	}
	if err := control.Validate(); err != nil {
		return nil, fmt.Errorf("permove: PDD time control: %w", err)
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("permove: game directory: %w", err)
	}
	gd, err := openPDDDir(abs)
	if err != nil {
		return nil, err
	}
	defer gd.Close()
	rec := &GameRecord{Dir: abs, Rules: r.Rules, White: white.name(), Black: black.name(), Game: pdd.NewGame(r.Rules)}
	if len(r.Start.Steps) > 0 {
		if err := rec.start(r.Start); err != nil {
			return nil, err
		}
	}
	g := &pddGame{
		ref:     r,
		ctx:     ctx,
		dir:     gd,
		control: control,
		log:     r.Logger,
		rec:     rec,
		progs:   [2]Program{white, black},
	}
	if g.log == nil {
		g.log = slog.New(slog.DiscardHandler)
	}
	g.log = g.log.With("dir", abs)
	err = g.run()
	if werr := g.finish(); err == nil {
		err = werr
	}
	return g.rec, err
}

// start sets up the record of a game that goes on from the actions of l:
// its game, moves (renumbered by line) and skips.
func (r *GameRecord) start(l record.PDDStepLog) error {
	game, err := record.ReplayPDDStepLog(l, r.Rules)
	if err != nil {
		return fmt.Errorf("permove: PDD start: %w", err)
	}
	r.Game = game
	for i, m := range game.Moves() {
		p, _ := game.PositionAt(i)
		turn := len(r.Moves) + 1
		if m == pdd.Pass && r.Rules == pdd.Course {
			r.Skips = append(r.Skips, Skip{BeforeTurn: turn, Color: p.Turn()})
			continue
		}
		r.Moves = append(r.Moves, MoveRecord{Step: record.NewPDDStep(p, m, turn)})
	}
	r.StartPlies = len(r.Moves)
	return nil
}

// pddGame is one game in progress.
type pddGame struct {
	ref     *Referee
	ctx     context.Context
	dir     *pddDir // the game directory: every file operation goes through its roots
	control timer.Control
	log     *slog.Logger
	rec     *GameRecord
	progs   [2]Program    // White, Black
	logs    [2]pddLogKeep // what is kept in logs/ of each side's output

	clock    *timer.Clock
	frozenAt time.Time // what the clock reads while set; time.Now otherwise

	startPly int   // the plies of the game (skips included) that came from Start: never taken back
	end      error // the ending the in-process player chose on the turn just run (ErrResign, ...), nil for a move
}

// path returns the absolute path of the file name of the game directory,
// as the programs are given it.
func (g *pddGame) path(name string) string { return filepath.Join(g.dir.path, name) }

// now is the clock's time source: frozen at the instants the referee
// chooses, so that a move is charged the program's own run time.
func (g *pddGame) now() time.Time {
	if !g.frozenAt.IsZero() {
		return g.frozenAt
	}
	return time.Now()
}

// run plays the game to its end, or until ctx ends or the referee fails.
func (g *pddGame) run() error {
	g.clock = timer.NewClock(g.control, g.now)
	if st := g.ref.StartClock; st != nil && !g.ref.NoTimeLimit {
		g.clock = timer.NewClockFrom(g.control, *st, g.now)
	}
	game := g.rec.Game
	g.startPly = game.Ply()
	g.log.Info("pdd game start", "white", g.rec.White, "black", g.rec.Black, "rules", g.ref.Rules.String(), "control", g.control.String())
	for !game.IsOver() {
		if err := g.ctx.Err(); err != nil {
			return err
		}
		p := game.Position()
		turn := len(g.rec.Moves) + 1
		if p.MustPass() {
			if err := game.Play(pdd.Pass); err != nil {
				return fmt.Errorf("permove: forced pass: %w", err)
			}
			if p.Rules() == pdd.Course {
				g.rec.Skips = append(g.rec.Skips, Skip{BeforeTurn: turn, Color: p.Turn()})
				g.log.Debug("pdd skip", "color", pddColorLetter(p.Turn()), "before_turn", turn)
			} else {
				g.accept(p, pdd.Pass, turn, 0, false)
			}
			continue
		}
		m, elapsed, fallback, verr, end, err := g.turn(p, turn)
		if err != nil {
			return err
		}
		if end != nil {
			if err := g.ending(p.Turn(), end); err != nil {
				return err
			}
			game = g.rec.Game // a take-back replaces it
			continue
		}
		if verr != nil {
			v := &Violation{Color: p.Turn(), Turn: turn, Err: verr}
			g.rec.Violation = v
			g.log.Warn("pdd violation", "color", pddColorLetter(v.Color), "turn", turn, "name", v.Name(), "detail", fmt.Sprint(verr))
			if err := game.Forfeit(p.Turn()); err != nil {
				return fmt.Errorf("permove: forfeit: %w", err)
			}
			break
		}
		if err := game.Play(m); err != nil {
			return fmt.Errorf("permove: accepted move refused: %w", err) // InferMove checked it
		}
		g.accept(p, m, turn, elapsed, fallback)
	}
	return nil
}

// ending ends the turn of mover, whose in-process player chose end
// (ErrResign, ErrDrawAgreed or ErrTakeBack) instead of a move.
func (g *pddGame) ending(mover pdd.Color, end error) error {
	game := g.rec.Game
	switch {
	case errors.Is(end, ErrResign):
		g.log.Info("pdd resignation", "color", pddColorLetter(mover))
		return game.Resign(mover)
	case errors.Is(end, ErrDrawAgreed):
		g.log.Info("pdd draw agreed", "color", pddColorLetter(mover))
		return game.AgreeDraw()
	}
	if !g.takeBack(mover) {
		g.log.Info("pdd take-back refused: no action of the side's own to take back", "color", pddColorLetter(mover))
	}
	return nil
}

// takeBack cuts the game back to the position before c's last action
// after the start's (a Pass excepted: a forced one is no choice), so that c
// is to move there again; false if there is none. The record keeps the
// actions before it, with their times, and the skips before it. OnMove is
// told, with TakeBack set.
func (g *pddGame) takeBack(c pdd.Color) bool {
	game := g.rec.Game
	moves := game.Moves()
	k := -1
	for i := len(moves) - 1; i >= g.startPly; i-- {
		if p, _ := game.PositionAt(i); moves[i] != pdd.Pass && p.Turn() == c {
			k = i
			break
		}
	}
	if k < 0 {
		return false
	}
	start, _ := game.PositionAt(0)
	cut := pdd.NewGameFrom(start)
	kept := 0 // the recorded actions before ply k
	for _, m := range moves[:k] {
		if err := cut.Play(m); err != nil { // cannot happen: the game played it
			return false
		}
		if m != pdd.Pass || g.ref.Rules != pdd.Course {
			kept++
		}
	}
	g.rec.Game = cut
	g.rec.Moves = g.rec.Moves[:kept]
	// A skip before ply k comes before the action numbered kept+1; those
	// after it come after the action taken back, numbered kept+1 itself.
	g.rec.Skips = slices.DeleteFunc(g.rec.Skips, func(s Skip) bool { return s.BeforeTurn > kept+1 })
	g.log.Info("pdd take-back", "color", pddColorLetter(c), "plies", len(moves)-k, "actions_left", kept)
	if g.ref.OnMove != nil {
		var last MoveRecord
		if kept > 0 {
			last = g.rec.Moves[kept-1]
		}
		g.ref.OnMove(MoveEvent{Dir: g.dir.path, Move: last, Ply: kept, Position: cut.Position(), Clock: g.clock.Snapshot(), TakeBack: true})
	}
	return true
}

// accept records the accepted move m, played in p; fallback is set when the
// program said it is a fallback move.
func (g *pddGame) accept(p pdd.Position, m pdd.Move, turn int, elapsed time.Duration, fallback bool) {
	step := record.NewPDDStep(p, m, turn)
	mr := MoveRecord{Step: step, Elapsed: elapsed, Fallback: fallback}
	g.rec.Moves = append(g.rec.Moves, mr)
	g.log.Debug("pdd move", "step", step.String(), "elapsed", elapsed)
	if fallback {
		g.log.Warn("pdd fallback move", "color", pddColorLetter(p.Turn()), "turn", turn, "step", step.String())
	}
	if g.ref.OnMove != nil {
		g.ref.OnMove(MoveEvent{Dir: g.dir.path, Move: mr, Ply: len(g.rec.Moves), Position: g.rec.Game.Position(), Clock: g.clock.Snapshot()})
	}
}

// turn runs the program of the side to move in p and returns the move it
// made, and whether it said that move is a fallback move, or the violation
// (verr), or the ending its in-process player chose instead of a move
// (end: ErrResign, ErrDrawAgreed, ErrTakeBack). err is a failure of the
// referee, or ctx's end.
func (g *pddGame) turn(p pdd.Position, turn int) (m pdd.Move, elapsed time.Duration, fallback bool, verr, end, err error) {
	mover := p.Turn()
	stepLog, err := g.writeFiles(p)
	if err != nil {
		return pdd.NoMove, 0, false, nil, nil, err
	}
	sum := sha256.Sum256(stepLog)
	args := Args{Color: mover, Change: p.ChangeAvailable(), Chess: g.path(record.PDDChessFile), Bridge: g.path(record.PDDBridgeFile), StepLog: g.path(record.PDDStepLogFile)}
	prog := g.progs[mover-pdd.White]

	// Start the clock, frozen at t0, so that its charge is the program's
	// own run time.
	side := timer.First
	if mover == pdd.Black {
		side = timer.Second
	}
	t0 := time.Now()
	g.frozenAt = t0
	if err := g.clock.Start(side); err != nil {
		g.frozenAt = time.Time{}
		return pdd.NoMove, 0, false, fmt.Errorf("%w: %w", ErrTimeout, err), nil, nil // out of time before the move
	}
	deadline, limited := g.clock.Deadline()
	g.frozenAt = time.Time{}

	res, startErr := g.runProgram(prog, args, deadline, limited)
	g.frozenAt = t0.Add(res.Elapsed)
	elapsed, terr := g.clock.Stop()
	g.frozenAt = time.Time{}
	// The group is dead now, so the files no longer change. What the
	// program planted in the game directory is found (and removed) before
	// anything else is written there.
	tampered := g.dir.check()
	end, g.end = g.end, nil
	timedOut := res.TimedOut || errors.Is(terr, timer.ErrTimeUp)
	if end == nil || timedOut {
		// (A player's ending keeps no log: what the runner printed is
		// about the fallback it wrote in the ending's place, ignored.)
		g.saveLogs(turn, mover, res)
	}
	if err := g.ctx.Err(); err != nil {
		return pdd.NoMove, 0, false, nil, nil, err
	}
	if end != nil && !timedOut && tampered == nil {
		return pdd.NoMove, elapsed, false, nil, end, nil
	}

	// Classify; the first matching row decides. Everything is
	// read within the game directory opened at the start, whatever the
	// program did to its path.
	chess, cerr := readRegularFile(g.dir.root, record.PDDChessFile)
	bridge, berr := readRegularFile(g.dir.root, record.PDDBridgeFile)
	switch {
	case startErr != nil: // row 1
		verr = fmt.Errorf("%w: %w", ErrProgramStart, startErr)
	case res.TimedOut || errors.Is(terr, timer.ErrTimeUp): // row 2
		detail := fmt.Sprintf("still running after %v", res.Elapsed.Round(time.Millisecond))
		if terr != nil {
			detail = terr.Error()
		}
		verr = fmt.Errorf("%w: %s", ErrTimeout, detail)
	}
	if verr == nil { // row 3
		if tampered != nil {
			// The referee's record is more than stepLog.txt: the game
			// directory and its logs/ are the referee's too.
			verr = fmt.Errorf("%w: %v", ErrStepLogWritten, tampered)
		} else if data, serr := readRegularFile(g.dir.root, record.PDDStepLogFile); serr != nil {
			verr = fmt.Errorf("%w: %v", ErrStepLogWritten, serr)
		} else if sha256.Sum256(data) != sum {
			verr = fmt.Errorf("%w: its SHA-256 changed (%d bytes, %d written)", ErrStepLogWritten, len(data), len(stepLog))
		}
	}
	switch {
	case verr != nil:
	case res.ExitCode != 0: // row 4
		verr = fmt.Errorf("%w: %s", ErrExitStatus, res.Status)
	case cerr != nil: // row 5
		verr = fmt.Errorf("%w: %v", ErrFileFormat, cerr)
	case berr != nil:
		verr = fmt.Errorf("%w: %v", ErrFileFormat, berr)
	default: // rows 5-16
		if m, verr = InferMove(p, chess, bridge); verr == nil {
			return m, elapsed, saidFallback(res.Stderr), nil, nil, nil
		}
	}
	if err := g.saveViolationFiles(chess, cerr, bridge, berr); err != nil {
		return pdd.NoMove, elapsed, false, nil, nil, err
	}
	return pdd.NoMove, elapsed, false, verr, nil, nil
}

// saidFallback reports whether a program's standard error (as captured,
// within OutputLimit) has a line containing FallbackMarker: the program
// played a fallback move.
func saidFallback(stderr []byte) bool {
	for line := range bytes.Lines(stderr) {
		if bytes.Contains(line, []byte(FallbackMarker)) {
			return true
		}
	}
	return false
}

// runProgram runs prog with the 5 interface arguments until it exits or the
// deadline passes.
func (g *pddGame) runProgram(prog Program, args Args, deadline time.Time, limited bool) (proc.Result, error) {
	if prog.Player != nil {
		return g.runPlayer(prog, args, deadline, limited), nil
	}
	if len(prog.Command) == 0 || prog.Command[0] == "" {
		return proc.Result{}, errors.New("no command")
	}
	path := prog.Command[0]
	if strings.ContainsRune(path, os.PathSeparator) || strings.Contains(path, "/") {
		abs, err := filepath.Abs(path)
		if err != nil {
			return proc.Result{}, err
		}
		path = abs
	} else {
		found, err := exec.LookPath(path)
		if err != nil {
			return proc.Result{}, err
		}
		if path, err = filepath.Abs(found); err != nil {
			return proc.Result{}, err
		}
	}
	dir := g.ref.WorkDir
	if dir == "" {
		dir = filepath.Dir(path)
	}
	cfg := proc.Config{
		Path:    path,
		Args:    append(slices.Clone(prog.Command[1:]), args.Strings()...),
		Dir:     dir,
		Capture: OutputLimit,
	}
	if limited {
		// The program's time counts from its own start, as res.Elapsed
		// does: the start of what contains it is the referee's time.
		cfg.Limit = max(time.Until(deadline), time.Nanosecond)
	}
	return proc.Run(g.ctx, cfg)
}

// runPlayer plays prog's in-process Player for one move through RunArgs,
// from now until the deadline, and describes the run as a program's.
func (g *pddGame) runPlayer(prog Program, args Args, deadline time.Time, limited bool) proc.Result {
	start := time.Now()
	opts := prog.Options
	opts.Rules, opts.Start = g.ref.Rules, start
	opts.NoTimeLimit = !limited
	side := timer.First
	if args.Color == pdd.Black {
		side = timer.Second
	}
	st := g.clock.Snapshot().Status(side)
	opts.Status = &st
	if limited {
		left := deadline.Sub(start)
		opts.Budget = max(left-min(InProcessReserve, left/5), time.Nanosecond)
	}
	ctx := g.ctx
	if limited {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, deadline)
		defer cancel()
	}
	stderr := proc.NewBounded(OutputLimit)
	name := prog.name()
	// The player's ending (ErrResign, ...) is caught on its way to
	// RunArgs, which would play a fallback move for it: the referee ends
	// the turn as it says instead (turn), when it came within the time.
	// A player that answers after RunArgs returned is too late: its
	// ending is dropped with the run (done).
	var mu sync.Mutex
	var end error
	done := false
	player := pdd.PlayerFunc(func(ctx context.Context, p pdd.Position) (pdd.Move, error) {
		m, err := prog.Player.Play(ctx, p)
		if errors.Is(err, ErrResign) || errors.Is(err, ErrDrawAgreed) || errors.Is(err, ErrTakeBack) {
			mu.Lock()
			if !done {
				end = err
			}
			mu.Unlock()
		}
		return m, err
	})
	code := RunArgs(ctx, append([]string{name}, args.Strings()...), stderr, player, opts)
	mu.Lock()
	done = true
	g.end = end
	mu.Unlock()
	res := proc.Result{ExitCode: code, Status: fmt.Sprintf("exit status %d", code), Elapsed: time.Since(start), Stderr: stderr.Bytes()}
	switch {
	case g.ctx.Err() != nil:
		res.Canceled = true
	case limited && time.Now().After(deadline):
		res.TimedOut = true
	}
	return res
}

// writeFiles writes the three files of position p, from the referee's own
// state, and returns the bytes of stepLog.txt.
func (g *pddGame) writeFiles(p pdd.Position) ([]byte, error) {
	c, b := record.NewPDDChess(p), record.NewPDDBridges(p)
	c.CRLF, b.CRLF = g.ref.CRLF, g.ref.CRLF
	l := g.rec.StepLog()
	l.CRLF = g.ref.CRLF
	cb, _ := c.MarshalText()
	bb, _ := b.MarshalText()
	lb, err := l.MarshalText()
	if err != nil {
		return nil, fmt.Errorf("permove: stepLog.txt: %w", err)
	}
	for _, f := range []struct {
		name string
		data []byte
	}{{record.PDDChessFile, cb}, {record.PDDBridgeFile, bb}, {record.PDDStepLogFile, lb}} {
		if err := writeFileAtomic(g.dir.root, f.name, f.data, 0o644); err != nil {
			return nil, err
		}
	}
	return lb, nil
}

// pddLogKeep is what logs/ keeps of one side's output in a game, within
// LogLimit: the logs of its first turns (head), then those of its latest
// turns (tail); the turns between were dropped.
type pddLogKeep struct {
	head      int64       // bytes of the first turns' logs, kept for good
	tail      []pddLogged // the later turns' logs, oldest first
	tailBytes int64       // their bytes
	dropped   int64       // bytes of the turns dropped
	turns     []int       // the turns dropped
}

// pddLogged is one turn's logs in logs/.
type pddLogged struct {
	turn  int
	names []string
	size  int64
}

// saveLogs keeps what the program printed on a turn, if anything, in
// logs/<turn>-<C>.stdout and .stderr, within LogLimit for the side.
func (g *pddGame) saveLogs(turn int, c pdd.Color, res proc.Result) {
	size := int64(len(res.Stdout) + len(res.Stderr))
	if size == 0 {
		return
	}
	logs, err := g.dir.logsRoot()
	if err != nil {
		g.log.Warn("pdd: cannot save a program's output", "turn", turn, "err", err)
		return
	}
	k := &g.logs[c-pdd.White]
	letter := pddColorLetter(c)
	head := k.dropped == 0 && len(k.tail) == 0 && k.head+size <= LogLimit/4
	if !head {
		// A turn's logs are at most 2 OutputLimit and a few bytes,
		// which fit in the three quarters of LogLimit left to the tail.
		for len(k.tail) > 0 && k.head+k.tailBytes+size > LogLimit {
			old := k.tail[0]
			k.tail = k.tail[1:]
			k.tailBytes -= old.size
			k.dropped += old.size
			k.turns = append(k.turns, old.turn)
			for _, name := range old.names {
				logs.Remove(name)
			}
		}
		if len(k.turns) > 0 {
			note := fmt.Sprintf("%s: the logs of %s's turns %s were dropped, to keep its logs within %d bytes\n",
				proc.TruncatedLine(k.dropped), letter, pddTurnList(k.turns), LogLimit)
			if err := writeFileAtomic(logs, letter+".truncated", []byte(note), 0o644); err != nil {
				g.log.Warn("pdd: cannot save a program's output", "turn", turn, "err", err)
			}
		}
	}
	kept := pddLogged{turn: turn, size: size}
	for _, out := range []struct {
		ext  string
		data []byte
	}{{"stdout", res.Stdout}, {"stderr", res.Stderr}} {
		if len(out.data) == 0 {
			continue
		}
		name := strconv.Itoa(turn) + "-" + letter + "." + out.ext
		if err := writeFileAtomic(logs, name, out.data, 0o644); err != nil {
			g.log.Warn("pdd: cannot save a program's output", "file", name, "err", err)
		}
		kept.names = append(kept.names, name)
	}
	if head {
		k.head += size
	} else {
		k.tail = append(k.tail, kept)
		k.tailBytes += size
	}
}

// pddTurnList writes turns as "3, 5, 7".
func pddTurnList(turns []int) string {
	var b strings.Builder
	for i, t := range turns {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strconv.Itoa(t))
	}
	return b.String()
}

// saveViolationFiles keeps chess.txt and bridge.txt as the violating
// program left them, when they were regular files it could read.
func (g *pddGame) saveViolationFiles(chess []byte, cerr error, bridge []byte, berr error) error {
	dir, _, err := makeSubdir(g.dir.root, pddViolationDir)
	if err != nil {
		return err
	}
	defer dir.Close()
	for _, f := range []struct {
		name string
		data []byte
		err  error
	}{{record.PDDChessFile, chess, cerr}, {record.PDDBridgeFile, bridge, berr}} {
		if f.data == nil && f.err != nil {
			continue
		}
		if err := writeFileAtomic(dir, f.name, f.data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// finish records the result and writes the final files and result.json,
// after putting the game directory back at its path if a program moved it.
func (g *pddGame) finish() error {
	game := g.rec.Game
	if res, over := game.Result(); over {
		g.rec.Result = res
	} else {
		p := game.Position()
		g.rec.Result = pdd.Result{Reason: pdd.Unfinished, White: p.Score(pdd.White), Black: p.Score(pdd.Black)}
	}
	g.log.Info("pdd game end", "result", g.rec.Result.String(), "plies", len(g.rec.Moves))
	if fresh, err := g.dir.restore(); err != nil {
		// The record is still written, into the directory opened at the
		// start, wherever it is now: never where the path leads.
		g.log.Warn("pdd: the game directory was moved and cannot be put back", "err", err)
	} else if fresh {
		g.log.Warn("pdd: the game directory was moved away; its record is written again into a new one, without logs/ and violation/")
	}
	if _, err := g.writeFiles(game.Position()); err != nil {
		return err
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	if err := enc.Encode(g.rec.ResultFile()); err != nil {
		return fmt.Errorf("permove: result.json: %w", err)
	}
	return writeFileAtomic(g.dir.root, pddResultFile, buf.Bytes(), 0o644)
}

// ReadResultFile reads a result.json that a [Referee] wrote.
func ReadResultFile(r io.Reader) (ResultFile, error) {
	var f ResultFile
	dec := json.NewDecoder(io.LimitReader(r, 16<<20))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return ResultFile{}, fmt.Errorf("permove: result.json: %w", err)
	}
	return f, nil
}

// StepLog rebuilds the stepLog of a game from its result.json's moves: the
// lines of the game directory's stepLog.txt, read leniently. It fails, naming
// the move, for a move that is not a stepLog line.
func (f ResultFile) StepLog() (record.PDDStepLog, error) {
	var l record.PDDStepLog
	for i, m := range f.Moves {
		line := m.Color + "_" + strconv.Itoa(m.Turn) + "_" + m.Action
		if m.P1 != "" || m.P2 != "" {
			line += "_" + m.P1 + "_" + m.P2
		}
		s, err := record.ParsePDDStep(line, record.PDDLenient)
		if err != nil {
			return record.PDDStepLog{}, fmt.Errorf("permove: result.json move %d: %w", i+1, err)
		}
		l.Steps = append(l.Steps, s)
	}
	return l, nil
}

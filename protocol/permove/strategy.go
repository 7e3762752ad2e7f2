package permove

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/botarena/botarena/pdd"
	"github.com/botarena/botarena/record"
	"github.com/botarena/botarena/timer"
)

// DefaultBudget is the time a strategy gets by default to choose its move
// ([Options.Budget]): 4.5 s of the platform's 5 s, leaving 0.5 s
// for starting the program and for the files.
const DefaultBudget = 4500 * time.Millisecond

// FallbackMarker marks the line a strategy program prints on its standard
// error when it plays a fallback move: a move chosen in its player's place,
// because the player gave no move by its deadline, failed, panicked or
// chose an illegal move. [RunArgs] prints
//
//	<prog>: warning: permove: fallback: <why>; playing <move> instead
//
// and a [Referee] counts a turn whose standard error has a line containing
// FallbackMarker as a fallback move ([MoveRecord.Fallback]), so that a
// match shows how many of a program's moves its player did not choose. A
// program written in another language reports its own fallback moves by
// printing such a line. The course platform ignores what a program prints,
// so the line changes nothing there.
const FallbackMarker = "warning: permove: fallback: "

// Options tune [RunArgs]. The zero value is the course
// platform's setting.
type Options struct {
	// Budget is how long the player may think, from Start; 0 means
	// DefaultBudget.
	Budget time.Duration
	// Start is the instant Budget counts from, when earlier than the
	// runner's start (the zero Time: the runner's start). The platform's
	// clock runs from the moment it starts the program, so [Run] sets it
	// to the program's start where the system tells it (Linux's /proc),
	// and the budget covers the time the program took to start.
	Start time.Time
	// Status, when not nil, is what the player is told of time
	// ([timer.StatusFrom]) in place of the per-move cap the runner makes of
	// Budget: a referee that runs the player in its own process knows the
	// game's clocks. The context's deadline (from Start and Budget) stays
	// the hard limit.
	Status *timer.Status
	// NoTimeLimit gives the player a context without a deadline, whatever
	// Budget says, for a referee that sets no limit (arena's -time none).
	// The player then thinks until it answers.
	NoTimeLimit bool
	// NoFallback makes the runner exit with status 1, writing nothing,
	// when the player fails, instead of playing the first legal move.
	NoFallback bool
	// OnFallback, when not nil, is called when the runner plays a fallback
	// move, with the move and why the player's move was not played,
	// before the files are written: a library user's count of its
	// fallbacks. (The runner prints the FallbackMarker line either way.)
	OnFallback func(move pdd.Move, why error)
	// Rules is the rule profile: pdd.Course (the zero value) or
	// pdd.Official.
	Rules pdd.Rules
}

// Run runs player as a PDD strategy program for one move, with
// the program's arguments (os.Args) and the default options, and exits with
// the status [RunArgs] returns. A whole strategy is:
//
//	func main() {
//		permove.Run(pdd.PlayerFunc(func(ctx context.Context, p pdd.Position) (pdd.Move, error) {
//			return p.AppendLegalMoves(nil)[0], nil
//		}))
//	}
func Run(player pdd.Player) {
	os.Exit(RunArgs(context.Background(), os.Args, os.Stderr, player, Options{Start: ProgramStart()}))
}

// ProgramStart returns when the program started, as the system tells it
// (on Linux, from /proc, rounded to 10 ms toward earlier), or the zero Time
// where it cannot tell: the [Options].Start of a strategy program.
func ProgramStart() time.Time {
	if age, ok := processAge(); ok {
		return time.Now().Add(-age)
	}
	return time.Time{}
}

// RunArgs is the testable core of [Run]: it plays one
// move for player as the platform asks with args (the program's name first,
// then PROG <W|B> <Y|N> <chess.txt> <bridge.txt> <stepLog.txt>) and returns
// the exit status:
//
//  1. It parses the arguments ([ParseArgs]). A bad invocation prints
//     "<prog>: <error>" on stderr and returns 2. Y given to W is a warning.
//  2. It reads chess.txt, bridge.txt and stepLog.txt leniently
//     ([record.PDDLenient]; stepLog.txt is only opened for reading) and
//     builds the position with the program's colour to move. A malformed
//     file or an impossible board returns 1 with an error naming the file,
//     the line and the field. A Y flag that the board does not allow
//     (Black to move, White's 2 opening tiles alone) is a warning and
//     counts as N.
//  3. It cross-checks the stepLog's replay with the files
//     ([record.CheckPDDStepLog]); a mismatch is a warning, and the files win.
//  4. Without a legal move it warns and returns 0, leaving the files as they
//     are (the referee never asks a side that cannot move).
//  5. It asks the player, with a context whose deadline is Options.Start
//     (else the start of the run) plus the budget (no deadline with NoTimeLimit). The context
//     also carries a [timer.Status] ([timer.StatusFrom]): the budget as a
//     per-move cap (told when Options.Budget sets it), the program's side
//     and the plies its colour played, so that a search player (package
//     search) shares the budget out as it does on any platform.
//  6. If the player returns an error, panics, returns an illegal move or
//     misses the deadline, it plays a fallback move, the first legal move
//     in canonical order: it calls OnFallback and prints the warning line
//     that [FallbackMarker] describes, which a [Referee] counts. With
//     NoFallback it returns 1 instead, writing nothing.
//  7. It writes only the file the move changes, chess.txt for Chess and
//     Change, bridge.txt for a Bridge (nothing for an Official Pass), in
//     the canonical form with the line ends that file had, atomically (a
//     temporary file in the same directory, renamed over the old
//     one, keeping its mode; in place if that fails). A write failure
//     returns 1.
//  8. It returns 0.
//
// Warnings are printed as "<prog>: warning: <text>". A player that ignores
// ctx keeps running in its goroutine after the runner returns; the program
// then exits anyway.
func RunArgs(ctx context.Context, args []string, stderr io.Writer, player pdd.Player, opts Options) int {
	entry := time.Now()
	if !opts.Start.IsZero() && opts.Start.Before(entry) {
		entry = opts.Start
	}
	if stderr == nil {
		stderr = io.Discard
	}
	prog := "pdd-strategy"
	if len(args) > 0 {
		prog = filepath.Base(args[0])
		args = args[1:]
	}
	warn := func(format string, a ...any) {
		fmt.Fprintf(stderr, "%s: warning: %s\n", prog, fmt.Sprintf(format, a...))
	}
	fail := func(code int, err error) int {
		fmt.Fprintf(stderr, "%s: %v\n", prog, err)
		return code
	}
	a, err := ParseArgs(args)
	if err != nil {
		return fail(2, err)
	}
	if player == nil {
		return fail(1, errors.New("permove: nil pdd.Player"))
	}
	if !opts.Rules.Valid() {
		return fail(1, fmt.Errorf("permove: PDD rules %d are not a profile", opts.Rules))
	}
	if a.Change && a.Color == pdd.White {
		warn("permove: argument 2 (change flag): Y given to W; ignored")
		a.Change = false
	}

	c, err := readPDDStrategyFile(a.Chess, record.ReadPDDChess)
	if err != nil {
		return fail(1, err)
	}
	b, err := readPDDStrategyFile(a.Bridge, record.ReadPDDBridges)
	if err != nil {
		return fail(1, err)
	}
	l, err := readPDDStrategyFile(a.StepLog, record.ReadPDDStepLog)
	if err != nil {
		return fail(1, err)
	}

	base := pdd.Setup{Rules: opts.Rules, Turn: a.Color, ChangeAvailable: a.Change}
	if a.Change && !changeFits(c, b) {
		warn("permove: argument 2 (change flag): Y, but the board is not White's 2 opening tiles alone; taken as N")
		base.ChangeAvailable = false
	}
	if opts.Rules == pdd.Official {
		officialFlags(&base, l)
	}
	pos, err := record.PDDPosition(c, b, base)
	if err != nil {
		return fail(1, namePDDFile(err, a))
	}
	if _, err := record.CheckPDDStepLog(l, opts.Rules, c, b); err != nil {
		warn("%v (playing from chess.txt and bridge.txt)", namePDDFile(err, a))
	}
	moves := pos.AppendLegalMoves(nil)
	if len(moves) == 0 || opts.Rules == pdd.Course && pos.MustPass() {
		warn("%s has no legal move; the files are left as they are", pos.Turn())
		return 0
	}
	budget := opts.Budget
	if budget <= 0 {
		budget = DefaultBudget
	}
	var deadline time.Time // none
	if !opts.NoTimeLimit {
		deadline = entry.Add(budget)
	}
	if opts.Status != nil {
		ctx = timer.WithStatus(ctx, *opts.Status)
	} else {
		ctx = timer.WithStatus(ctx, strategyStatus(opts, a.Color, l, entry))
	}
	m, perr := askPDDPlayer(ctx, player, pos, deadline)
	if perr == nil {
		if _, err := pos.Play(m); err != nil {
			perr = fmt.Errorf("permove: the strategy's move %s is illegal: %w", m, err)
		}
	}
	if perr != nil {
		if opts.NoFallback {
			return fail(1, perr)
		}
		m = moves[0]
		if opts.OnFallback != nil {
			opts.OnFallback(m, perr)
		}
		fmt.Fprintf(stderr, "%s: %s%v; playing %s instead\n", prog, FallbackMarker, oneLine(strings.TrimPrefix(perr.Error(), "permove: ")), m)
	}
	next, err := pos.Play(m)
	if err != nil { // cannot happen: m is legal
		return fail(1, err)
	}
	switch m.Action() {
	case pdd.ChessAction, pdd.ChangeAction:
		out := record.NewPDDChess(next)
		out.CRLF = c.CRLF
		data, _ := out.MarshalText()
		err = writePDDStrategyFile(a.Chess, data, 0o644)
	case pdd.BridgeAction:
		out := record.NewPDDBridges(next)
		out.CRLF = b.CRLF
		data, _ := out.MarshalText()
		err = writePDDStrategyFile(a.Bridge, data, 0o644)
	}
	if err != nil {
		return fail(1, err)
	}
	return 0
}

// strategyStatus is what the player of a run that started at entry is told
// of time ([timer.StatusFrom]): the platform tells a strategy nothing, so
// the control is a per-move cap of the budget, told when Options.Budget
// sets it and otherwise the platform's default (not told); with
// NoTimeLimit, no limit. Its deadline is the one on the player's context.
// Side is the order of play (White first; Black after a Change), and Played the plies of the program's colour in the stepLog.
func strategyStatus(opts Options, me pdd.Color, l record.PDDStepLog, entry time.Time) timer.Status {
	var s timer.Status
	switch {
	case opts.NoTimeLimit:
		s = timer.PerMoveStatus(0, true, entry)
	case opts.Budget > 0:
		s = timer.PerMoveStatus(opts.Budget, true, entry)
	default:
		s = timer.PerMoveStatus(DefaultBudget, false, entry)
	}
	first := pdd.White
	for _, st := range l.Steps {
		if st.Color == me {
			s.Played++
		}
		if st.Move == pdd.Change {
			first = pdd.Black
		}
	}
	if me != first {
		s.Side = timer.Second
	}
	return s
}

// readPDDStrategyFile opens path for reading and reads it leniently with
// read; a fault names the path.
func readPDDStrategyFile[T any](path string, read func(io.Reader, record.PDDMode) (T, error)) (T, error) {
	var zero T
	f, err := os.Open(path)
	if err != nil {
		return zero, fmt.Errorf("permove: %w", err)
	}
	defer f.Close()
	v, err := read(f, record.PDDLenient)
	if err != nil {
		var pe *record.ParseError
		if errors.As(err, &pe) {
			pe.File = path
		}
		return zero, err
	}
	return v, nil
}

// namePDDFile puts the path given for the file a *record.ParseError names.
func namePDDFile(err error, a Args) error {
	var pe *record.ParseError
	if errors.As(err, &pe) {
		switch pe.File {
		case record.PDDChessFile:
			pe.File = a.Chess
		case record.PDDBridgeFile:
			pe.File = a.Bridge
		case record.PDDStepLogFile:
			pe.File = a.StepLog
		}
	}
	return err
}

// changeFits reports whether the board allows Change: White's 2 opening
// tiles alone, without a bridge.
func changeFits(c record.PDDChess, b record.PDDBridges) bool {
	if b.Cells != ([pdd.NumSquares]uint8{}) {
		return false
	}
	white := 0
	for _, v := range c.Cells {
		switch v {
		case pdd.White:
			white++
		case pdd.Black:
			return false
		}
	}
	return white == 2
}

// officialFlags sets the Official end flags from the stepLog: the first
// player is Black after a Change; a first player's Pass as the last line
// gives the second player its final turn.
func officialFlags(s *pdd.Setup, l record.PDDStepLog) {
	first := pdd.White
	for _, st := range l.Steps {
		if st.Move == pdd.Change {
			first = pdd.Black
		}
	}
	s.FirstPlayer = first
	if n := len(l.Steps); n > 0 && l.Steps[n-1].Move == pdd.Pass && l.Steps[n-1].Color == first && s.Turn != first {
		s.FinalTurn = true
	}
}

// oneLine keeps s on one line: line breaks become spaces, so that a
// player's error cannot split the fallback line.
func oneLine(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '\n' || r == '\r' {
			return ' '
		}
		return r
	}, s)
}

// askPDDPlayer asks the player to move in pos, in a goroutine, with the
// deadline on ctx (none for the zero deadline), and turns a panic or a
// missed deadline into an error.
func askPDDPlayer(ctx context.Context, player pdd.Player, pos pdd.Position, deadline time.Time) (pdd.Move, error) {
	var cancel context.CancelFunc
	if deadline.IsZero() {
		ctx, cancel = context.WithCancel(ctx)
	} else {
		ctx, cancel = context.WithDeadline(ctx, deadline)
	}
	defer cancel()
	type answer struct {
		m   pdd.Move
		err error
	}
	ch := make(chan answer, 1) // the goroutine never blocks, even after we leave
	go func() {
		defer func() {
			if r := recover(); r != nil {
				ch <- answer{err: fmt.Errorf("permove: the strategy panicked: %v", r)}
			}
		}()
		m, err := player.Play(ctx, pos)
		ch <- answer{m, err}
	}()
	select {
	case a := <-ch:
		if a.err != nil {
			return pdd.NoMove, fmt.Errorf("permove: the strategy failed: %w", a.err)
		}
		return a.m, nil
	case <-ctx.Done():
		return pdd.NoMove, fmt.Errorf("permove: the strategy gave no move by its deadline: %w", ctx.Err())
	}
}

// writePDDStrategyFile writes a strategy's chess.txt or bridge.txt as a
// strategy must, so that a reader never sees half a file: a temporary file in the same directory, then renamed over
// path, with the mode path had (perm if it did not exist); if the temporary
// file cannot be made or renamed, it rewrites path in place. Whatever is at
// path that is not a regular file (a symlink, a directory) is replaced,
// never followed. (The referee's own writes go through an os.Root: see
// writeFileAtomic.)
func writePDDStrategyFile(path string, data []byte, perm fs.FileMode) error {
	if fi, err := os.Lstat(path); err == nil && fi.Mode().IsRegular() {
		perm = fi.Mode().Perm()
	}
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	f, err := os.CreateTemp(dir, "."+base+".*.tmp")
	if err != nil {
		return writePDDInPlace(path, data, perm)
	}
	tmp := f.Name()
	// No fsync: the rename alone keeps a reader from seeing half a file,
	// which is all a game needs; an fsync waits for the disk, and on a
	// machine busy writing it took hundreds of milliseconds of the move.
	_, werr := f.Write(data)
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Chmod(tmp, perm)
	}
	if werr != nil {
		os.Remove(tmp)
		return fmt.Errorf("permove: writing %s: %w", path, werr)
	}
	if err := os.Rename(tmp, path); err != nil {
		if fi, lerr := os.Lstat(path); lerr == nil && fi.IsDir() {
			// A directory where the file belongs: clear it and try again.
			if os.RemoveAll(path) == nil && os.Rename(tmp, path) == nil {
				return nil
			}
		}
		os.Remove(tmp)
		return writePDDInPlace(path, data, perm)
	}
	return nil
}

// writePDDInPlace rewrites path, replacing a symlink rather than following it.
func writePDDInPlace(path string, data []byte, perm fs.FileMode) error {
	if fi, err := os.Lstat(path); err == nil && !fi.Mode().IsRegular() {
		if err := os.RemoveAll(path); err != nil {
			return fmt.Errorf("permove: writing %s: %w", path, err)
		}
	}
	if err := os.WriteFile(path, data, perm); err != nil {
		return fmt.Errorf("permove: writing %s: %w", path, err)
	}
	return nil
}

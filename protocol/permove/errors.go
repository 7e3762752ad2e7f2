package permove

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/botarena/botarena/pdd"
)

// The violations of the Ponte del Diavolo program interface that are not
// rules of the game (those are package pdd's sentinels, such as
// [pdd.ErrIslandTouches]). A [*Violation] wraps exactly one of these or
// of pdd's; the texts are the stable ones.
var (
	// ErrProgramStart (表一 Compile Error): the program could not be started:
	// not found, not executable, not a valid executable.
	ErrProgramStart = errors.New("permove: program could not be started")
	// ErrTimeout (超時): the program was still running when its time was up.
	ErrTimeout = errors.New("permove: move exceeded the time limit")
	// ErrStepLogWritten (竄改 stepLog.txt): stepLog.txt changed, vanished, or
	// is no longer a regular file. Rewriting the identical bytes cannot be
	// seen. The referee's record in the game directory is more than
	// stepLog.txt, and a program that tampers with the rest loses by it too:
	// one that moves or replaces the game directory, plants a symlink (or a
	// pipe, a socket, a device) in it, or puts something at logs/,
	// violation/ or result.json.
	ErrStepLogWritten = errors.New("permove: stepLog.txt was modified")
	// ErrFileFormat (寫檔格式錯誤): chess.txt or bridge.txt is missing, not a
	// regular file of the game directory (a symlink, or a file with other
	// hard links), larger than 64 KiB or malformed, its bridge numbers are
	// not 1..K, or an old bridge moved.
	ErrFileFormat = errors.New("permove: chess.txt or bridge.txt is malformed")
	// ErrWrongColor (顏色錯誤): a tile of the opponent's colour appeared.
	ErrWrongColor = errors.New("permove: tile of the wrong colour")
	// ErrExitStatus: the program exited with a non-zero status or was
	// killed by a signal (the seed requires "return 0").
	ErrExitStatus = errors.New("permove: program exited with non-zero status")
)

// The ends of a turn other than a move that an in-process
// [Program].Player may choose (a person playing on a page, say) by
// returning one of these errors, wrapped or not, from its Play, within its
// time. They are not violations: the [Referee] ends the game, or takes the
// move back, as each says. A program run as a command has no way to say
// them (the platform's interface has none).
var (
	// ErrResign resigns the game: the player's side loses by pdd.Resign.
	ErrResign = errors.New("permove: the player resigns")
	// ErrDrawAgreed ends the game as a draw both players agreed to
	// (pdd.AgreedDraw): the player's side says that its opponent accepted its
	// offer.
	ErrDrawAgreed = errors.New("permove: the players agree to a draw")
	// ErrTakeBack takes back the player's own last action and whatever
	// followed it: the game goes on from the position before that action,
	// the player to move again, the clock going on as it stands (the time
	// spent on the actions taken back stays spent). The actions of
	// [Referee].Start are never taken back: a take-back without an action
	// of the player's own after them is refused, and the player is asked
	// again.
	ErrTakeBack = errors.New("permove: the player takes back its last action")
)

// pddViolationName returns the stable name of the violation sentinel err
// wraps, or "" if it wraps none.
func pddViolationName(err error) string {
	for _, v := range []struct {
		err  error
		name string
	}{
		{ErrProgramStart, "ErrProgramStart"},
		{ErrTimeout, "ErrTimeout"},
		{ErrStepLogWritten, "ErrStepLogWritten"},
		{ErrExitStatus, "ErrExitStatus"},
		{ErrFileFormat, "ErrFileFormat"},
		{ErrWrongColor, "ErrWrongColor"},
		{pdd.ErrOccupied, "ErrOccupied"},
		{pdd.ErrUnderBridge, "ErrUnderBridge"},
		{pdd.ErrIslandTouches, "ErrIslandTouches"},
		{pdd.ErrGroupTooLarge, "ErrGroupTooLarge"},
		{pdd.ErrBridgeBlocked, "ErrBridgeBlocked"},
		{pdd.ErrBridgeEnds, "ErrBridgeEnds"},
		{pdd.ErrBridgeNotOwn, "ErrBridgeNotOwn"},
		{pdd.ErrUnknownAction, "ErrUnknownAction"},
		{pdd.ErrBridgeShape, "ErrBridgeShape"},
		{pdd.ErrBridgeCrossing, "ErrBridgeCrossing"},
		{pdd.ErrSupply, "ErrSupply"},
	} {
		if errors.Is(err, v.err) {
			return v.name
		}
	}
	return ""
}

// Violation is a program's breach of the PDD interface or rules, which
// loses the game: the side, the turn it was playing (the number its
// stepLog line would have had) and the error, which wraps exactly one
// violation sentinel ([ErrTimeout], ..., or one of pdd's such as
// [pdd.ErrIslandTouches]) with the detail, so errors.Is(v,
// pdd.ErrIslandTouches) holds.
type Violation struct {
	Color pdd.Color // the side that broke the rule, and lost
	Turn  int       // the turn it was playing: accepted actions so far + 1
	Err   error     // wraps one violation sentinel, with the detail
}

// Error returns the side, the turn and the error, such as `permove: B turn
// 12: pdd: island touches another own tile: 2,2 by island 3,3 4,3 5,3 4,4`.
func (v *Violation) Error() string {
	return "permove: " + pddColorLetter(v.Color) + " turn " + strconv.Itoa(v.Turn) + ": " + fmt.Sprint(v.Err)
}

// Unwrap returns Err.
func (v *Violation) Unwrap() error { return v.Err }

// Name returns the stable name of the violation, the one result files use:
// "ErrTimeout", "ErrIslandTouches", ..., or "" if Err wraps no
// violation sentinel.
func (v *Violation) Name() string { return pddViolationName(v.Err) }

// ErrUsage is a strategy program invoked with arguments that are not the
// five of the PDD interface: PROG <W|B> <Y|N> <chess.txt> <bridge.txt>
// <stepLog.txt>. A wrong count is reported as ErrUsage with the count
// given; a wrong argument as a [*ArgError], which wraps ErrUsage.
var ErrUsage = errors.New("permove: usage: PROG <W|B> <Y|N> <chess.txt> <bridge.txt> <stepLog.txt>")

// ArgError is one wrong argument of a PDD strategy's invocation.
type ArgError struct {
	Index int    // 1..5
	Name  string // "color", "change flag", "chess.txt path", ...
	Want  string // "W or B", "Y or N", "a path"
	Got   string // what was given
}

// Error returns, for example, `permove: argument 1 (color): want W or B,
// got "w"`.
func (e *ArgError) Error() string {
	return fmt.Sprintf("permove: argument %d (%s): want %s, got %q", e.Index, e.Name, e.Want, e.Got)
}

// Unwrap returns [ErrUsage].
func (e *ArgError) Unwrap() error { return ErrUsage }

// Args are the five arguments the platform gives a strategy program.
type Args struct {
	Color   pdd.Color // argument 1: W or B, the colour the program plays
	Change  bool      // argument 2: Y (true) if the program may play Change now
	Chess   string    // argument 3: the path of chess.txt
	Bridge  string    // argument 4: the path of bridge.txt
	StepLog string    // argument 5: the path of stepLog.txt
}

// ParseArgs reads the five arguments, the program's name excluded. The
// values are case-sensitive, as the platform passes them. It fails with an
// error wrapping [ErrUsage]: for a count other than 5, `permove: usage:
// PROG <W|B> <Y|N> <chess.txt> <bridge.txt> <stepLog.txt> (got 3
// arguments)`; for a wrong argument, a [*ArgError].
func ParseArgs(args []string) (Args, error) {
	var a Args
	if len(args) != 5 {
		return a, fmt.Errorf("%w (got %d argument%s)", ErrUsage, len(args), pddPlural(len(args)))
	}
	switch args[0] {
	case "W":
		a.Color = pdd.White
	case "B":
		a.Color = pdd.Black
	default:
		return Args{}, &ArgError{Index: 1, Name: "color", Want: "W or B", Got: args[0]}
	}
	switch args[1] {
	case "Y":
		a.Change = true
	case "N":
	default:
		return Args{}, &ArgError{Index: 2, Name: "change flag", Want: "Y or N", Got: args[1]}
	}
	for i, name := range []string{"chess.txt path", "bridge.txt path", "stepLog.txt path"} {
		if args[2+i] == "" {
			return Args{}, &ArgError{Index: 3 + i, Name: name, Want: "a path", Got: ""}
		}
	}
	a.Chess, a.Bridge, a.StepLog = args[2], args[3], args[4]
	return a, nil
}

// Strings returns the five arguments as the platform writes them.
func (a Args) Strings() []string {
	flag := "N"
	if a.Change {
		flag = "Y"
	}
	return []string{pddColorLetter(a.Color), flag, a.Chess, a.Bridge, a.StepLog}
}

func pddPlural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// pddColorLetter returns "W" or "B", as the interface writes colours.
func pddColorLetter(c pdd.Color) string {
	switch c {
	case pdd.White:
		return "W"
	case pdd.Black:
		return "B"
	}
	return "?"
}

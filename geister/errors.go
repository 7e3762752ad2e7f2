package geister

import (
	"errors"
	"fmt"
)

// Errors that [Position.Play], [Game.Play] and [Game.Forfeit] return, to test
// with [errors.Is]. Errors about one move come wrapped in a [*MoveError].
var (
	// ErrIllegalMove is a move that the rules forbid in the position.
	ErrIllegalMove = errors.New("geister: illegal move")
	// ErrGameOver is a move or forfeit after the game has ended.
	ErrGameOver = errors.New("geister: game over")
	// ErrInvalidSetup is a [Setup], board string or [View] that the
	// constructors refuse; the error returned joins one [*SetupError] per
	// problem.
	ErrInvalidSetup = errors.New("geister: invalid setup")

	errInvalidMove = errors.New("geister: not a move")
	errInvalidReds = errors.New("geister: not a set of four red ghosts")
)

// SyntaxError reports text that could not be parsed, and where.
type SyntaxError struct {
	Input  string // the text that was parsed
	Offset int    // byte offset in Input where the problem is
	Msg    string // what is wrong
}

// Error returns the message with the offset and the input.
func (e *SyntaxError) Error() string {
	return fmt.Sprintf("geister: %s at offset %d of %q", e.Msg, e.Offset, e.Input)
}

// MoveError reports a move that could not be played.
type MoveError struct {
	Move   Move   // the move that was refused
	Turn   Color  // the side that tried to play it
	Reason string // why, in words
	Err    error  // ErrIllegalMove or ErrGameOver
}

// Error says which move was refused and why.
func (e *MoveError) Error() string {
	return fmt.Sprintf("geister: %s for the %s player: %s", e.Move, e.Turn, e.Reason)
}

// Unwrap returns the sentinel error.
func (e *MoveError) Unwrap() error { return e.Err }

// SetupError is one problem found in a [Setup], a board string or a view.
type SetupError struct {
	Field string // the Setup field (or board part) at fault
	Msg   string // what is wrong with it
}

// Error names the field and the problem.
func (e *SetupError) Error() string { return fmt.Sprintf("geister: setup %s: %s", e.Field, e.Msg) }

// Unwrap returns [ErrInvalidSetup].
func (e *SetupError) Unwrap() error { return ErrInvalidSetup }

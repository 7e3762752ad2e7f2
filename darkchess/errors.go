package darkchess

import (
	"errors"
	"fmt"
)

// Errors that [Position.Play], [Game.Play] and [Game.Forfeit] return, to test
// with [errors.Is]. Errors about one ply come wrapped in a [*MoveError].
var (
	// ErrIllegalMove is a ply that the rules forbid in the position.
	ErrIllegalMove = errors.New("darkchess: illegal move")
	// ErrNoDeal is a bare flip played on a position that does not know the
	// piece under the square (a [View], or a referee started without a
	// deal): the flip must come as a [Ply] naming the piece.
	ErrNoDeal = errors.New("darkchess: flip outcome unknown")
	// ErrGameOver is a ply or forfeit after the game has ended.
	ErrGameOver = errors.New("darkchess: game over")
	// ErrInvalidSetup is a [Setup] that [NewPosition] refuses; the error
	// returned joins one [*SetupError] per problem.
	ErrInvalidSetup = errors.New("darkchess: invalid setup")

	errInvalidMove = errors.New("darkchess: not a move")
)

// SyntaxError reports text that could not be parsed, and where.
type SyntaxError struct {
	Input  string // the text that was parsed
	Offset int    // byte offset in Input where the problem is
	Msg    string // what is wrong
}

// Error returns the message with the offset and the input.
func (e *SyntaxError) Error() string {
	return fmt.Sprintf("darkchess: %s at offset %d of %q", e.Msg, e.Offset, e.Input)
}

// MoveError reports a ply that could not be played.
type MoveError struct {
	Ply    Ply    // the ply that was refused (for a bare Move, with no piece)
	Turn   Color  // the side that tried to play it
	Reason string // why, in words
	Err    error  // ErrIllegalMove, ErrNoDeal or ErrGameOver
}

// Error says which ply was refused and why.
func (e *MoveError) Error() string {
	return fmt.Sprintf("darkchess: %s for %s: %s", e.Ply, e.Turn, e.Reason)
}

// Unwrap returns the sentinel error.
func (e *MoveError) Unwrap() error { return e.Err }

// SetupError is one problem [NewPosition] found in a [Setup].
type SetupError struct {
	Field string // the Setup field at fault
	Msg   string // what is wrong with it
}

// Error names the field and the problem.
func (e *SetupError) Error() string { return fmt.Sprintf("darkchess: setup %s: %s", e.Field, e.Msg) }

// Unwrap returns [ErrInvalidSetup].
func (e *SetupError) Unwrap() error { return ErrInvalidSetup }

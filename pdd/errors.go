package pdd

import (
	"errors"
	"fmt"
)

// The rule violations of the course platform's table (表一), one sentinel each, and the
// other errors of the package, to test with [errors.Is]. [Position.Play] and
// [Game.Play] return them wrapped in a [*MoveError], which also matches
// [ErrIllegalMove]; [NewPosition] returns the rule ones wrapped in
// [*SetupError]s. The texts are the stable ones.
var (
	// ErrOccupied (選取的棋位已存在棋子): a tile on a square that holds one.
	ErrOccupied = errors.New("pdd: square is occupied")
	// ErrUnderBridge (選取棋位已被橋佔據): a tile on a square under a bridge.
	ErrUnderBridge = errors.New("pdd: square is under a bridge")
	// ErrIslandTouches (與島嶼對角相鄰): an island of 4 tiles next to another
	// own tile, even diagonally.
	ErrIslandTouches = errors.New("pdd: island touches another own tile")
	// ErrGroupTooLarge (棋子相鄰數超過上限): 5 or more own tiles connected
	// orthogonally.
	ErrGroupTooLarge = errors.New("pdd: group of five or more tiles")
	// ErrBridgeBlocked (橋身所需佔據的空地存在棋子或其他橋): a square under
	// the bridge holds a tile, or (Course) is already under a bridge.
	ErrBridgeBlocked = errors.New("pdd: square under the bridge is not free")
	// ErrBridgeEnds (橋的落點數有誤): an endpoint already carries a bridge.
	ErrBridgeEnds = errors.New("pdd: tile already carries a bridge, or bridge lacks two endpoints")
	// ErrBridgeNotOwn (未使用合法棋位建立橋): an endpoint is not a tile of
	// the side that bridges.
	ErrBridgeNotOwn = errors.New("pdd: bridge endpoint is not an own tile")
	// ErrUnknownAction (不是規定的任一動作): not a Chess, Bridge or Change
	// action the position allows: Change when it is not available, a Pass that
	// is not allowed, a value that is not a move.
	ErrUnknownAction = errors.New("pdd: not one Chess, Bridge or Change action")
	// ErrBridgeShape (橋的距離錯誤): the endpoints are not at one of the 8
	// bridge offsets.
	ErrBridgeShape = errors.New("pdd: bridge endpoints are not at a bridge distance")
	// ErrBridgeCrossing: the bridge crosses a bridge on the board (表一
	// counts it with ErrBridgeBlocked).
	ErrBridgeCrossing = errors.New("pdd: bridges cross")
	// ErrSupply ([Official] only): fewer than 2 tiles left, or all 15 bridges
	// built.
	ErrSupply = errors.New("pdd: no tiles or bridges left")

	// ErrIllegalMove matches every move [Position.Play] refuses for a rule
	// (each [*MoveError] but those of [ErrGameOver]).
	ErrIllegalMove = errors.New("pdd: illegal move")
	// ErrGameOver is a move or forfeit after the game has ended.
	ErrGameOver = errors.New("pdd: game over")
	// ErrInvalidSetup is a [Setup] that [NewPosition] refuses; the error
	// returned joins one [*SetupError] per problem.
	ErrInvalidSetup = errors.New("pdd: invalid setup")

	errInvalidMove = errors.New("pdd: not a move")
)

// SyntaxError reports text that could not be parsed, and where.
type SyntaxError struct {
	Input  string // the text that was parsed
	Offset int    // byte offset in Input where the problem is
	Msg    string // what is wrong
}

// Error returns the message with the offset and the input.
func (e *SyntaxError) Error() string {
	return fmt.Sprintf("pdd: %s at offset %d of %q", e.Msg, e.Offset, e.Input)
}

// MoveError reports a move that could not be played.
type MoveError struct {
	Move   Move   // the move that was refused
	Turn   Color  // the side that tried to play it
	Reason string // the detail: which squares, which group, which bridge
	Err    error  // the rule's sentinel, such as ErrIslandTouches, or ErrGameOver
}

// Error returns the sentinel's text and the detail, then the move and side:
// "pdd: island touches another own tile: 2,2 by island 1,1 2,1 1,2 2,2
// (white Chess_2,2_3,3)".
func (e *MoveError) Error() string {
	return fmt.Sprintf("%v: %s (%s %s)", e.Err, e.Reason, e.Turn, e.Move)
}

// Unwrap returns the sentinel and, for a rule violation, [ErrIllegalMove].
func (e *MoveError) Unwrap() []error {
	switch e.Err {
	case nil:
		return nil
	case ErrGameOver:
		return []error{e.Err}
	}
	return []error{e.Err, ErrIllegalMove}
}

// SetupError is one problem [NewPosition] found in a [Setup].
type SetupError struct {
	Field string // the Setup field at fault, such as "Cells" or "Bridges[2]"
	Msg   string // what is wrong with it, and where
	Err   error  // the rule's sentinel (ErrGroupTooLarge, ...), or nil
}

// Error names the field and the problem.
func (e *SetupError) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("pdd: setup %s: %s (%v)", e.Field, e.Msg, e.Err)
	}
	return fmt.Sprintf("pdd: setup %s: %s", e.Field, e.Msg)
}

// Unwrap returns [ErrInvalidSetup] and the rule's sentinel, if any.
func (e *SetupError) Unwrap() []error {
	if e.Err == nil {
		return []error{ErrInvalidSetup}
	}
	return []error{ErrInvalidSetup, e.Err}
}

package pdd

import "strings"

// Move is one turn's action: a Chess move (2 tiles), a Bridge, [Change] or
// [Pass]. It is a 16-bit value: bits 15-14 hold the action (0 Chess, 1
// Bridge, 2 Change, 3 Pass); a Chess move holds its squares a < b in bits
// 13-7 and 6-0, and a Bridge its endpoints a <= b the same way. A Bridge
// between squares that are not at a bridge offset is still a Move (it parses),
// which [Position.Play] refuses with [ErrBridgeShape]. Moves order as the
// canonical move order: Chess by (a, b), then Bridges by (a, b), which is
// placement-id order, then Change, then Pass.
//
// The zero value is [NoMove], which is not a move.
type Move uint16

const (
	// NoMove is the zero Move: no move at all. It is never legal.
	NoMove Move = 0
	// Change is Black's pie move on its first turn: White's 2 opening tiles
	// become black, and White moves next.
	Change Move = 2 << 14
	// Pass gives the turn away. Under [Course] it is the forced skip of a side
	// without a legal move; under [Official] a side without a legal 2-tile
	// placement may pass, which ends the game.
	Pass Move = 3 << 14
)

const (
	kindChess  = 0
	kindBridge = 1 << 14
	kindMask   = 3 << 14
)

// Action is the kind of a [Move], in stepLog.txt's words.
type Action uint8

// The actions. [NoAction] is the action of a value that is not a move.
const (
	NoAction Action = iota
	ChessAction
	BridgeAction
	ChangeAction
	PassAction
)

// String returns "Chess", "Bridge", "Change", "Pass", or "none".
func (a Action) String() string {
	switch a {
	case ChessAction:
		return "Chess"
	case BridgeAction:
		return "Bridge"
	case ChangeAction:
		return "Change"
	case PassAction:
		return "Pass"
	}
	return "none"
}

// Chess returns the move that puts 2 tiles on a and b, in either order. It
// returns [NoMove] if a or b is not a square, or if a == b.
func Chess(a, b Square) Move {
	if !a.Valid() || !b.Valid() || a == b {
		return NoMove
	}
	if a > b {
		a, b = b, a
	}
	return kindChess | Move(a)<<7 | Move(b)
}

// Bridge returns the move that builds a bridge between a and b, in either
// order. It returns [NoMove] if a or b is not a square. Any two squares make
// a Move; whether they are at a bridge offset is a question of legality.
func Bridge(a, b Square) Move {
	if !a.Valid() || !b.Valid() {
		return NoMove
	}
	if a > b {
		a, b = b, a
	}
	return kindBridge | Move(a)<<7 | Move(b)
}

// Action returns the kind of m, or [NoAction] if m is not a move.
func (m Move) Action() Action {
	if !m.Valid() {
		return NoAction
	}
	return Action(m>>14) + ChessAction
}

// Squares returns the 2 squares of a Chess move or the 2 endpoints of a
// Bridge, the lower first, or [NoSquare] twice for Change, Pass and values
// that are not moves.
func (m Move) Squares() (a, b Square) {
	if !m.Valid() || m&kindMask > kindBridge {
		return NoSquare, NoSquare
	}
	return Square(m >> 7 & 127), Square(m & 127)
}

// Valid reports whether m is a move, whatever the position.
func (m Move) Valid() bool {
	a, b := m>>7&127, m&127
	switch m & kindMask {
	case kindChess:
		return a < b && b < NumSquares
	case kindBridge:
		return a <= b && b < NumSquares
	}
	return m == Change || m == Pass
}

// String returns the action as stepLog.txt writes it, without colour and
// turn: "Chess_2,0_2,2", "Bridge_2,0_2,2", "Change", "Pass", or "none" for a
// value that is not a move. The lower square comes first.
func (m Move) String() string {
	if !m.Valid() {
		return "none"
	}
	b, _ := m.AppendText(make([]byte, 0, 16))
	return string(b)
}

// AppendText appends [Move.String] to b. It fails for a value that is not a
// move.
func (m Move) AppendText(b []byte) ([]byte, error) {
	if !m.Valid() {
		return b, errInvalidMove
	}
	b = append(b, m.Action().String()...)
	if m == Change || m == Pass {
		return b, nil
	}
	x, y := m.Squares()
	b = append(b, '_')
	b = x.appendText(b)
	b = append(b, '_')
	return y.appendText(b), nil
}

// MarshalText returns [Move.String]. It fails for a value that is not a move.
func (m Move) MarshalText() ([]byte, error) { return m.AppendText(nil) }

// UnmarshalText sets m to the move [ParseMove] reads from text.
func (m *Move) UnmarshalText(text []byte) error {
	v, err := ParseMove(string(text))
	if err != nil {
		return err
	}
	*m = v
	return nil
}

// ParseMove reads a move as stepLog.txt writes its action: "Chess_x,y_x,y",
// "Bridge_x,y_x,y", "Change" or "Pass". It is lenient in two ways: the action
// word may be in any letter case, and Change may carry the 2 points stepLog
// writes after it ("Change_2,0_2,2"), which are checked for syntax and then
// dropped. The 2 points of Chess and Bridge may come in either order; those
// of Chess must differ. ParseMove checks syntax only; whether the move is
// legal is [Position.Play]'s business.
func ParseMove(text string) (Move, error) {
	word, rest, hasPoints := strings.Cut(text, "_")
	var kind Move
	switch strings.ToLower(word) {
	case "chess":
		kind = kindChess
	case "bridge":
		kind = kindBridge
	case "change":
		kind = Change
	case "pass":
		if hasPoints {
			return NoMove, &SyntaxError{Input: text, Offset: len(word), Msg: "Pass takes no points"}
		}
		return Pass, nil
	default:
		return NoMove, &SyntaxError{Input: text, Offset: 0, Msg: "the action must be Chess, Bridge, Change or Pass"}
	}
	if !hasPoints {
		if kind == Change {
			return Change, nil
		}
		return NoMove, &SyntaxError{Input: text, Offset: len(word), Msg: "want _x,y_x,y after " + word}
	}
	i := len(word) + 1
	a, off, msg := parseSquare(text, i)
	if msg == "" && (len(rest) < 4 || rest[3] != '_') {
		off, msg = i+3, "want _ between the two points"
	}
	var b Square
	if msg == "" {
		b, off, msg = parseSquare(text, i+4)
	}
	if msg == "" && len(rest) != 7 {
		off, msg = i+7, "unexpected text after the second point"
	}
	if msg != "" {
		return NoMove, &SyntaxError{Input: text, Offset: off, Msg: msg}
	}
	switch kind {
	case kindChess:
		if a == b {
			return NoMove, &SyntaxError{Input: text, Offset: i + 4, Msg: "the two tiles of Chess must be on different squares"}
		}
		return Chess(a, b), nil
	case kindBridge:
		return Bridge(a, b), nil
	}
	return Change, nil
}

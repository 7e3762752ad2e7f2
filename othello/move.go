package othello

import "strings"

// Move is a placement on a square, or [Pass]. The zero value is [NoMove],
// which is not a move. Build placements with [Place].
type Move uint8

const (
	// NoMove is the zero Move: no move at all. It is never legal.
	NoMove Move = 0
	// Pass is the forced pass, legal only when the side to move has no
	// placement and the opponent has one.
	Pass Move = 65
)

// Place returns the move that puts a disc on s, or [NoMove] if s is not a
// square.
func Place(s Square) Move {
	if !s.Valid() {
		return NoMove
	}
	return Move(s) + 1
}

// Square returns the square of a placement, or [NoSquare] for [Pass] and
// [NoMove].
func (m Move) Square() Square {
	if m == NoMove || m > 64 {
		return NoSquare
	}
	return Square(m - 1)
}

// IsPass reports whether m is [Pass].
func (m Move) IsPass() bool { return m == Pass }

// Valid reports whether m is a placement or [Pass], whatever the position.
func (m Move) Valid() bool { return m >= 1 && m <= Pass }

// String returns the square name ("e3"), "pass", or "none" for a value that
// is not a move.
func (m Move) String() string {
	switch {
	case m == Pass:
		return "pass"
	case m.Valid():
		return m.Square().String()
	}
	return "none"
}

// AppendText appends [Move.String] to b. It fails for a value that is not a
// move.
func (m Move) AppendText(b []byte) ([]byte, error) {
	if !m.Valid() {
		return b, errInvalidMove
	}
	return append(b, m.String()...), nil
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

// ParseMove reads a move: a square name as [ParseSquare] reads it, or a pass
// written "pass", "pa" or "ps" (Edax's tokens), in any letter case. It checks
// syntax only; whether the move is legal is [Position.Play]'s business.
func ParseMove(text string) (Move, error) {
	switch strings.ToLower(text) {
	case "pass", "pa", "ps":
		return Pass, nil
	}
	s, err := ParseSquare(text)
	if err != nil {
		return NoMove, err
	}
	return Place(s), nil
}

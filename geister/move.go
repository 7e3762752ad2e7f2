package geister

// Direction is a step in the mover's own frame: [North] is toward row 0, the
// opponent's side, whichever player moves.
type Direction uint8

// The four directions, in the order [Position.AppendLegalMoves] tries them.
const (
	North Direction = iota // y-1 in the mover's frame
	East                   // x+1
	West                   // x-1
	South                  // y+1
)

// Valid reports whether d is one of the four directions.
func (d Direction) Valid() bool { return d <= South }

// Opposite returns the reverse direction, which is also d as the other player
// sees it: North and South swap, East and West swap.
func (d Direction) Opposite() Direction { return South - d&3 }

// String returns "NORTH", "EAST", "WEST" or "SOUTH", the words of the wire
// protocol, or "?" for a value that is not a direction.
func (d Direction) String() string {
	switch d {
	case North:
		return "NORTH"
	case East:
		return "EAST"
	case West:
		return "WEST"
	case South:
		return "SOUTH"
	}
	return "?"
}

// Move is one of the mover's ghosts and a direction in the mover's own frame.
// It needs no conversion between the frames: "A,NORTH" is the same Move from
// either player. The zero value is [NoMove], which is not a move. Build moves
// with [NewMove] or [ParseMove].
//
// An escape is its own move: the blue ghost on the mover's exit (0,0) leaves
// with West, the one on (5,0) with East; these sideways moves off the board
// are the escape's canonical spelling, the one the move generator produces.
// [Position.Play] also accepts North from an exit square as the same escape
// (the Java server does) and [Position.Normalize] turns it into the sideways
// move.
type Move uint8

// NoMove is the zero Move: no move at all. It is never legal.
const NoMove Move = 0

// NewMove returns the move of ghost g in direction d, or [NoMove] if either is
// not valid.
func NewMove(g Ghost, d Direction) Move {
	if !g.Valid() || !d.Valid() {
		return NoMove
	}
	return Move(1 + (uint8(g)<<2 | uint8(d)))
}

// Ghost returns the ghost that moves (meaningless for [NoMove]).
func (m Move) Ghost() Ghost { return Ghost((m - 1) >> 2 & 7) }

// Direction returns the direction of the step (meaningless for [NoMove]).
func (m Move) Direction() Direction { return Direction((m - 1) & 3) }

// Valid reports whether m names a ghost and a direction, whatever the
// position.
func (m Move) Valid() bool { return m >= 1 && m <= 32 }

// String returns the move as the wire writes it, "A,NORTH", or "none" for a
// value that is not a move.
func (m Move) String() string {
	if !m.Valid() {
		return "none"
	}
	return m.Ghost().String() + "," + m.Direction().String()
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

// ParseMove reads a move as [Move.String] writes it, "A,NORTH". It is
// lenient in what players send: the wire's "MOV:" prefix may come first; the
// ghost letter and the direction may be in any case; the direction may be one
// letter (N, E, W, S). Nothing else may come before or after, not even a
// space. It checks syntax only: whether the ghost can make the step (or
// escape) is [Position.Play]'s business.
func ParseMove(text string) (Move, error) {
	s, off := text, 0
	if hasPrefixFold(s, "MOV:") {
		s, off = s[4:], 4
	}
	if len(s) == 0 {
		return NoMove, &SyntaxError{Input: text, Offset: off, Msg: "missing ghost: a move is a letter A-H, a comma and a direction"}
	}
	c := s[0] &^ 0x20
	if c < 'A' || c > 'H' {
		return NoMove, &SyntaxError{Input: text, Offset: off, Msg: "the ghost must be a letter A-H"}
	}
	if len(s) < 2 || s[1] != ',' {
		return NoMove, &SyntaxError{Input: text, Offset: off + min(len(s), 1), Msg: "a comma must follow the ghost"}
	}
	var d Direction
	switch w := s[2:]; {
	case equalFold(w, "NORTH"), equalFold(w, "N"):
		d = North
	case equalFold(w, "EAST"), equalFold(w, "E"):
		d = East
	case equalFold(w, "WEST"), equalFold(w, "W"):
		d = West
	case equalFold(w, "SOUTH"), equalFold(w, "S"):
		d = South
	default:
		return NoMove, &SyntaxError{Input: text, Offset: off + 2, Msg: "the direction must be NORTH, EAST, WEST or SOUTH (or N, E, W, S)"}
	}
	return NewMove(Ghost(c-'A'), d), nil
}

// equalFold reports whether s equals the upper-case ASCII word upper, ignoring
// ASCII case only (strings.EqualFold would also fold letters such as U+017F
// onto S).
func equalFold(s, upper string) bool {
	if len(s) != len(upper) {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'a' <= c && c <= 'z' {
			c -= 'a' - 'A'
		}
		if c != upper[i] {
			return false
		}
	}
	return true
}

// hasPrefixFold reports whether s begins with the upper-case ASCII word upper,
// ignoring ASCII case.
func hasPrefixFold(s, upper string) bool {
	return len(s) >= len(upper) && equalFold(s[:len(upper)], upper)
}

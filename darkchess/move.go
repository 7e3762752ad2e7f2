package darkchess

// Move is a ply as a player chooses it: a step or capture from one square to
// another, or a flip, written with the same square twice. It says nothing of
// what a flip reveals: that is the [Ply]. The zero value is [NoMove], which is
// not a move. Build steps and captures with [NewMove], flips with [Flip].
type Move uint16

// A Move holds the destination square in bits 0-4, the origin in bits 5-9 and
// moveValid, set in every move and clear in NoMove.
const (
	moveValid Move = 1 << 10
	moveFrom       = 5
)

// NoMove is the zero Move: no move at all, what [ParseMove] returns on error.
// It is never legal.
const NoMove Move = 0

// NewMove returns the move from one square to another: a step or a capture,
// or the flip of from if to == from. It returns [NoMove] if either is not a
// square. It checks nothing else; whether the move is legal is
// [Position.Play]'s business.
func NewMove(from, to Square) Move {
	if !from.Valid() || !to.Valid() {
		return NoMove
	}
	return moveValid | Move(from)<<moveFrom | Move(to)
}

// Flip returns the move that turns over the piece on s, or [NoMove] if s is
// not a square.
func Flip(s Square) Move { return NewMove(s, s) }

// From returns the square the move starts from (for a flip, the square
// turned over), or [NoSquare] for a value that is not a move.
func (m Move) From() Square {
	if !m.Valid() {
		return NoSquare
	}
	return Square(m.from())
}

// To returns the square the move ends on (for a flip, the square turned
// over), or [NoSquare] for a value that is not a move.
func (m Move) To() Square {
	if !m.Valid() {
		return NoSquare
	}
	return Square(m.to())
}

// from and to are From and To without the check, as shift counts below 32:
// meaningless, but a square, for a value that is not a move. They are the
// hot path's.
func (m Move) from() uint { return uint(m>>moveFrom) & 31 }
func (m Move) to() uint   { return uint(m) & 31 }

// isFlip is IsFlip for a valid move.
func (m Move) isFlip() bool { return m>>moveFrom&31 == m&31 }

// IsFlip reports whether m is a flip: a move whose two squares are the same.
func (m Move) IsFlip() bool { return m.Valid() && m.isFlip() }

// Valid reports whether m is a move, both squares on the board, whatever the
// position. A valid move may still be geometrically impossible (b1-d8).
func (m Move) Valid() bool { return m>>10 == 1 }

// String returns the move as the manual's send(move) writes it: "b5-b6", and
// "b7-b7" for a flip; "none" for a value that is not a move.
func (m Move) String() string {
	if !m.Valid() {
		return "none"
	}
	return m.From().String() + "-" + m.To().String()
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

// ParseMove reads a move: two square names as [ParseSquare] reads them,
// separated by "-", one space or nothing ("b5-b6", "b5 b6", "b5b6"), or a
// single square name, which is a flip ("b7", the same as "b7-b7"). It checks
// syntax only; whether the move is legal is [Position.Play]'s business.
func ParseMove(text string) (Move, error) {
	from, off, msg := parseSquareAt(text, 0)
	if msg != "" {
		return NoMove, &SyntaxError{Input: text, Offset: off, Msg: msg}
	}
	i := 2
	if i == len(text) {
		return Flip(from), nil
	}
	if text[i] == '-' || text[i] == ' ' {
		i++
	}
	to, off, msg := parseSquareAt(text, i)
	if msg != "" {
		return NoMove, &SyntaxError{Input: text, Offset: off, Msg: msg}
	}
	if i+2 != len(text) {
		return NoMove, &SyntaxError{Input: text, Offset: i + 2, Msg: "unexpected text after the move"}
	}
	return NewMove(from, to), nil
}

// Ply is a move as it was played: the [Move], and for a flip the piece it
// revealed. It is what records and protocols carry (b5-b6, b7(c)) and what
// [Game] keeps in its history.
type Ply struct {
	Move  Move
	Piece Piece // the piece a flip revealed; NoPiece for a step or capture
}

// Valid reports whether p is a valid move that, if it is a flip, names one of
// the 14 pieces and otherwise names none.
func (p Ply) Valid() bool {
	if p.Move.IsFlip() {
		return p.Piece.Valid()
	}
	return p.Move.Valid() && p.Piece == NoPiece
}

// String returns the ply as records write it: "b5-b6" for a step or capture,
// "b7(c)" for a flip that revealed c. A flip without its piece is written as
// its move, "b7-b7"; a value that is neither is "none".
func (p Ply) String() string {
	if p.Move.IsFlip() && p.Piece.Valid() {
		return p.Move.From().String() + "(" + p.Piece.String() + ")"
	}
	if !p.Move.Valid() || p.Piece != NoPiece {
		return "none"
	}
	return p.Move.String()
}

// AppendText appends [Ply.String] to b. It fails for a value [Ply.String]
// writes as "none".
func (p Ply) AppendText(b []byte) ([]byte, error) {
	s := p.String()
	if s == "none" {
		return b, errInvalidMove
	}
	return append(b, s...), nil
}

// MarshalText returns [Ply.String]. It fails for a value written "none".
func (p Ply) MarshalText() ([]byte, error) { return p.AppendText(nil) }

// UnmarshalText sets p to the ply [ParsePly] reads from text.
func (p *Ply) UnmarshalText(text []byte) error {
	v, err := ParsePly(string(text))
	if err != nil {
		return err
	}
	*p = v
	return nil
}

// ParsePly reads a ply: a flip with its outcome, a square name and a piece
// letter in parentheses ("b7(c)"), or anything [ParseMove] reads, which gives
// a ply with no piece (a flip written so has none: "b7" and "b7-b7" are the
// choice of a flip, not its outcome). It checks syntax only.
func ParsePly(text string) (Ply, error) {
	if len(text) == 5 && text[2] == '(' && text[4] == ')' {
		s, off, msg := parseSquareAt(text, 0)
		if msg != "" {
			return Ply{Move: NoMove}, &SyntaxError{Input: text, Offset: off, Msg: msg}
		}
		p, err := ParsePiece(text[3:4])
		if err != nil || !p.Valid() {
			return Ply{Move: NoMove}, &SyntaxError{Input: text, Offset: 3, Msg: "a flip reveals one of KGMRNCPkgmrncp"}
		}
		return Ply{Flip(s), p}, nil
	}
	m, err := ParseMove(text)
	if err != nil {
		return Ply{Move: NoMove}, err
	}
	return Ply{Move: m}, nil
}

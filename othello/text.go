package othello

import (
	"strconv"
	"strings"
)

// String returns the position string (Edax's board text): one character per
// square in the order a1, b1, ..., h1, a2, ..., h8 (row by row from the top),
// 'X' black, 'O' white, '-' empty; then a space and the side to move, 'X' or
// 'O'. A 6x6 position lists only its 36 squares b2..g7, in the same order.
//
// The standard start is
//
//	---------------------------OX------XO--------------------------- X
func (p Position) String() string {
	b, _ := p.AppendText(make([]byte, 0, 66))
	return string(b)
}

// AppendText appends [Position.String] to b.
func (p Position) AppendText(b []byte) ([]byte, error) {
	for s := range Square(64) {
		if !p.Board().Has(s) {
			continue
		}
		switch {
		case p.black.Has(s):
			b = append(b, 'X')
		case p.white.Has(s):
			b = append(b, 'O')
		default:
			b = append(b, '-')
		}
	}
	if p.turn == White {
		return append(b, " O"...), nil
	}
	return append(b, " X"...), nil
}

// MarshalText returns [Position.String].
func (p Position) MarshalText() ([]byte, error) { return p.AppendText(nil) }

// UnmarshalText sets p to the position [ParsePosition] reads from text.
func (p *Position) UnmarshalText(text []byte) error {
	v, err := ParsePosition(string(text))
	if err != nil {
		return err
	}
	*p = v
	return nil
}

// ParsePosition reads a position string as [Position.String] writes it. It is
// lenient in what Edax and other programs write: 'X' or '*' for black, 'O' for
// white, '-' or '.' for empty, either letter case, and ASCII white space
// anywhere (so a board may be split into lines). 64 board characters make an
// 8x8 position, 36 a 6x6 one. The side to move comes last. Errors give the
// byte offset of the fault.
func ParsePosition(text string) (Position, error) {
	// Collect the non-space characters with their offsets: the last one is
	// the side to move, the others the board.
	var chars [65]byte
	var offs [65]int
	n := 0
	for i := 0; i < len(text); i++ {
		switch c := text[i]; c {
		case ' ', '\t', '\n', '\r':
		case 'X', 'x', '*', 'O', 'o', '-', '.':
			if n == len(chars) {
				return Position{}, &SyntaxError{Input: text, Offset: i, Msg: "too many characters: the board has 64 squares"}
			}
			chars[n], offs[n] = c, i
			n++
		default:
			if strings.TrimSpace(text[i+1:]) == "" {
				return Position{}, &SyntaxError{Input: text, Offset: i, Msg: "the side to move must be X or O"}
			}
			return Position{}, &SyntaxError{Input: text, Offset: i, Msg: "a square is X, O, *, - or ."}
		}
	}
	if n == 0 {
		return Position{}, &SyntaxError{Input: text, Offset: 0, Msg: "empty position"}
	}
	var s Setup
	switch c := chars[n-1]; c {
	case 'X', 'x', '*':
		s.Turn = Black
	case 'O', 'o':
		s.Turn = White
	default:
		return Position{}, &SyntaxError{Input: text, Offset: offs[n-1], Msg: "the side to move must be X or O"}
	}
	squares := Bitboard(mask8x8)
	switch n - 1 {
	case 64:
		s.Size = 8
	case 36:
		s.Size, squares = 6, mask6x6
	default:
		return Position{}, &SyntaxError{Input: text, Offset: offs[n-1], Msg: "the board needs 64 squares (36 for 6x6), then the side to move"}
	}
	k := 0
	for sq := range squares.Squares() {
		switch chars[k] {
		case 'X', 'x', '*':
			s.Black |= sq.Bit()
		case 'O', 'o':
			s.White |= sq.Bit()
		}
		k++
	}
	return NewPosition(s)
}

// Diagram draws p for people: 8 (or 6) rows with column letters and row
// numbers, 'X' black, 'O' white, '.' empty, '*' where the side to move may
// play, and a last line naming the side to move and the disc counts.
func (p Position) Diagram() string {
	var sb strings.Builder
	lo, hi := 0, 8
	if p.small {
		lo, hi = 1, 7
	}
	legal := p.LegalSquares()
	sb.WriteString("  ")
	for x := lo; x < hi; x++ {
		sb.WriteByte(' ')
		sb.WriteByte(byte('a' + x))
	}
	sb.WriteByte('\n')
	for y := lo; y < hi; y++ {
		sb.WriteByte(' ')
		sb.WriteByte(byte('1' + y))
		for x := lo; x < hi; x++ {
			sq := SquareAt(x, y)
			sb.WriteByte(' ')
			switch c, ok := p.At(sq); {
			case ok && c == Black:
				sb.WriteByte('X')
			case ok:
				sb.WriteByte('O')
			case legal.Has(sq):
				sb.WriteByte('*')
			default:
				sb.WriteByte('.')
			}
		}
		sb.WriteByte('\n')
	}
	sb.WriteString(p.turn.String())
	sb.WriteString(" to move, black ")
	sb.WriteString(strconv.Itoa(p.Count(Black)))
	sb.WriteString(" white ")
	sb.WriteString(strconv.Itoa(p.Count(White)))
	sb.WriteByte('\n')
	return sb.String()
}

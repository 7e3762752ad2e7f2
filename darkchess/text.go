package darkchess

import (
	"strconv"
	"strings"
)

// String returns the position string:
//
//	<rank8>/<rank7>/.../<rank1> <side> <pool> <quiet>
//
// Each rank is 4 characters, files a to d: a piece letter (KGMRNCP red,
// kgmrncp black), X face-down, - empty. The side to move is r, b, or - before
// the first flip. The pool is 14 digits, the face-down count of each piece in
// the order K G M R N C P k g m r n c p. The quiet field is the
// no-capture-no-flip counter. A position that holds a deal appends a space
// and the deal, in the shape of the board: the hidden piece's letter on each
// face-down square, '.' elsewhere. The opening, dealt, is for example
//
//	XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXXX - 12222251222225 0 PmRc/MRpP/MrnK/Pknp/rCpC/GgPP/GpNN/gmpc
func (p Position) String() string {
	b, _ := p.AppendText(make([]byte, 0, 96))
	return string(b)
}

// AppendText appends [Position.String] to b.
func (p Position) AppendText(b []byte) ([]byte, error) {
	for y := 7; y >= 0; y-- {
		for x := range 4 {
			b = append(b, pieceLetters[p.At(SquareAt(x, y))])
		}
		if y > 0 {
			b = append(b, '/')
		}
	}
	b = append(b, ' ', "rb-"[min(p.turn(), NoColor)], ' ')
	for _, pc := range pieceOrder {
		b = append(b, '0'+byte(p.poolCount(pc)))
	}
	b = append(b, ' ')
	b = strconv.AppendUint(b, uint64(p.Quiet()), 10)
	if p.down() == 0 || !p.Dealt() {
		return b, nil
	}
	b = append(b, ' ')
	for y := 7; y >= 0; y-- {
		for x := range 4 {
			c := byte('.')
			if d := p.DealAt(SquareAt(x, y)); d != NoPiece {
				c = pieceLetters[d]
			}
			b = append(b, c)
		}
		if y > 0 {
			b = append(b, '/')
		}
	}
	return b, nil
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

// ParsePosition reads a position string as [Position.String] writes it, and
// checks it as [NewPosition] does. It is lenient in these ways only: the
// fields may be separated by any run of spaces, tabs or line ends, with more
// before and after; an empty square may be written '.' as well as '-', a
// face-down one 'x' as well as 'X'; the side may be upper case; the deal may
// be "-" (no deal), and use '-' as well as '.' for squares without a hidden
// piece. Syntax errors are [*SyntaxError]s giving the byte offset.
func ParsePosition(text string) (Position, error) {
	var fields [6]string
	var offs [6]int
	n := 0
	for i := 0; i < len(text); {
		if isSpace(text[i]) {
			i++
			continue
		}
		j := i
		for j < len(text) && !isSpace(text[j]) {
			j++
		}
		if n == len(fields)-1 {
			return Position{}, &SyntaxError{Input: text, Offset: i, Msg: "unexpected text after the deal"}
		}
		fields[n], offs[n] = text[i:j], i
		n++
		i = j
	}
	if n < 4 {
		return Position{}, &SyntaxError{Input: text, Offset: len(text), Msg: "want board, side, pool and counter"}
	}
	syntax := func(field, at int, msg string) error {
		return &SyntaxError{Input: text, Offset: offs[field] + at, Msg: msg}
	}
	var s Setup
	if off, msg := readRanks(fields[0], func(sq Square, c byte) bool {
		switch c {
		case '-', '.':
		case 'X', 'x':
			s.Board[sq] = Hidden
		default:
			i := strings.IndexByte(pieceLetters, c)
			if i < 0 || !Piece(i).Valid() {
				return false
			}
			s.Board[sq] = Piece(i)
		}
		return true
	}); msg != "" {
		return Position{}, syntax(0, off, msg+": a square is a piece letter, X or -")
	}
	switch fields[1] {
	case "r", "R":
		s.Turn = Red
	case "b", "B":
		s.Turn = Black
	case "-":
		s.Turn = NoColor
	default:
		return Position{}, syntax(1, 0, "the side to move is r, b or -")
	}
	if len(fields[2]) != 14 {
		return Position{}, syntax(2, min(len(fields[2]), 14), "the pool is 14 digits")
	}
	for i, pc := range pieceOrder {
		c := fields[2][i]
		if c < '0' || c > '9' {
			return Position{}, syntax(2, i, "the pool is 14 digits")
		}
		s.Pool[pc] = int(c - '0')
	}
	q := fields[3]
	for i := range len(q) {
		if q[i] < '0' || q[i] > '9' {
			return Position{}, syntax(3, i, "the counter is a decimal number")
		}
	}
	v, err := strconv.ParseUint(q, 10, 16)
	if err != nil {
		return Position{}, syntax(3, 0, "the counter is at most 65535")
	}
	s.Quiet = int(v)
	if n == 5 && fields[4] != "-" {
		if off, msg := readRanks(fields[4], func(sq Square, c byte) bool {
			if c == '.' || c == '-' {
				return true
			}
			i := strings.IndexByte(pieceLetters, c)
			if i < 0 || !Piece(i).Valid() {
				return false
			}
			s.Deal[sq] = Piece(i)
			return true
		}); msg != "" {
			return Position{}, syntax(4, off, msg+": a deal square is a piece letter or .")
		}
	}
	return NewPosition(s)
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// readRanks walks the 8 ranks of a board-shaped field, rank 8 first, calling
// set for each square's character. It returns the offset and a message on
// the first fault, or "" if the field is well formed.
func readRanks(field string, set func(Square, byte) bool) (int, string) {
	i := 0
	for y := 7; y >= 0; y-- {
		for x := range 4 {
			if i >= len(field) || field[i] == '/' {
				return i, "a rank has 4 squares"
			}
			if !set(SquareAt(x, y), field[i]) {
				return i, "bad square"
			}
			i++
		}
		if y > 0 {
			if i >= len(field) || field[i] != '/' {
				return i, "ranks are 4 squares separated by /"
			}
			i++
		}
	}
	if i != len(field) {
		return i, "the board has 8 ranks"
	}
	return 0, ""
}

// Diagram draws p for people: rank 8 first with file letters and rank numbers,
// piece letters, X face-down, . empty; then a line naming the side to move,
// the counter and the face-down pool.
func (p Position) Diagram() string {
	var sb strings.Builder
	sb.WriteString("   a b c d\n")
	for y := 7; y >= 0; y-- {
		sb.WriteByte(' ')
		sb.WriteByte(byte('1' + y))
		for x := range 4 {
			sb.WriteByte(' ')
			c := pieceLetters[p.At(SquareAt(x, y))]
			if c == '-' {
				c = '.'
			}
			sb.WriteByte(c)
		}
		sb.WriteByte('\n')
	}
	if p.turn() == NoColor {
		sb.WriteString("first flip to play")
	} else {
		sb.WriteString(p.turn().String())
		sb.WriteString(" to move")
	}
	sb.WriteString(", quiet ")
	sb.WriteString(strconv.Itoa(p.Quiet()))
	sb.WriteString(", face-down")
	if p.down() == 0 {
		sb.WriteString(" none")
	}
	for _, pc := range pieceOrder {
		if n := p.poolCount(pc); n > 0 {
			sb.WriteByte(' ')
			sb.WriteString(pc.String())
			sb.WriteString(strconv.Itoa(n))
		}
	}
	sb.WriteByte('\n')
	return sb.String()
}

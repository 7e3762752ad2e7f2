package pdd

import (
	"strconv"
	"strings"
)

// String returns the position string: the board, the side to move and the
// rule profile, then the optional fields that are set, in this order:
//
//	board      10 rows of 10 cells, row 0 first, joined by '/': 'W' white,
//	           'B' black, '.' empty (squares under a bridge are empty)
//	side       W or B
//	rules      course or official
//	bridges=   the bridges in build order, lower square first, joined by
//	           ';': bridges=2,0-2,2;4,4-6,5
//	first=B    Black owns the opening tiles (after Change)
//	change     Black may play Change
//	final      Official: the second player's last turn
//	ended      Official: the game has ended
//
// The Course start is 10 rows of ".........." then " W course".
func (p Position) String() string {
	b, _ := p.AppendText(make([]byte, 0, 128))
	return string(b)
}

// AppendText appends [Position.String] to b.
func (p Position) AppendText(b []byte) ([]byte, error) {
	for s := range Square(NumSquares) {
		if s > 0 && s%10 == 0 {
			b = append(b, '/')
		}
		switch p.At(s) {
		case White:
			b = append(b, 'W')
		case Black:
			b = append(b, 'B')
		default:
			b = append(b, '.')
		}
	}
	b = append(b, ' ', "WB"[p.turn&1], ' ')
	b = append(b, p.rules.String()...)
	for k := 1; k <= p.NumBridges(); k++ {
		if k == 1 {
			b = append(b, " bridges="...)
		} else {
			b = append(b, ';')
		}
		e := p.BridgeAt(k)
		b = e[0].appendText(b)
		b = append(b, '-')
		b = e[1].appendText(b)
	}
	if p.first == 1 {
		b = append(b, " first=B"...)
	}
	if p.state&flagChange != 0 {
		b = append(b, " change"...)
	}
	if p.state&flagFinal != 0 {
		b = append(b, " final"...)
	}
	if p.state&flagEnded != 0 {
		b = append(b, " ended"...)
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
// checks the position with [NewPosition]. It is lenient in these ways: the
// board's '/' separators and ASCII white space among its cells are ignored
// (so the board may be 10 lines of 10 cells); a cell may also be written '0',
// '-' (empty), '1', 'w' (white), '2' or 'b' (black); the side may be in lower
// case; the profile and the optional fields may be in any letter case, and
// the optional fields in any order, separated by any white space. Syntax
// errors are [*SyntaxError]s with the byte offset of the fault.
func ParsePosition(text string) (Position, error) {
	var s Setup
	i, n := 0, 0
	for ; i < len(text) && n < NumSquares; i++ {
		switch c := text[i]; c {
		case '/', ' ', '\t', '\r', '\n':
		case '.', '0', '-':
			n++
		case 'W', 'w', '1':
			s.Cells[n] = White
			n++
		case 'B', 'b', '2':
			s.Cells[n] = Black
			n++
		default:
			return Position{}, &SyntaxError{Input: text, Offset: i, Msg: "a cell is W, B or ."}
		}
	}
	if n < NumSquares {
		return Position{}, &SyntaxError{Input: text, Offset: i, Msg: "the board needs 100 cells"}
	}
	if i < len(text) && !isSpace(text[i]) {
		return Position{}, &SyntaxError{Input: text, Offset: i, Msg: "want a space after the 100 cells of the board"}
	}
	fields, offs := splitFields(text, i)
	if len(fields) < 2 {
		return Position{}, &SyntaxError{Input: text, Offset: len(text), Msg: "want the side to move and the rules after the board"}
	}
	switch fields[0] {
	case "W", "w":
		s.Turn = White
	case "B", "b":
		s.Turn = Black
	default:
		return Position{}, &SyntaxError{Input: text, Offset: offs[0], Msg: "the side to move must be W or B"}
	}
	r, err := ParseRules(fields[1])
	if err != nil {
		return Position{}, &SyntaxError{Input: text, Offset: offs[1], Msg: `the rules must be "course" or "official"`}
	}
	s.Rules = r
	seen := map[string]bool{}
	for k, f := range fields[2:] {
		off := offs[k+2]
		key, val, hasVal := strings.Cut(f, "=")
		key = strings.ToLower(key)
		if seen[key] {
			return Position{}, &SyntaxError{Input: text, Offset: off, Msg: "field " + key + " given twice"}
		}
		seen[key] = true
		if hasVal != (key == "bridges" || key == "first") {
			return Position{}, &SyntaxError{Input: text, Offset: off, Msg: "unknown field " + strconv.Quote(f)}
		}
		switch key {
		case "bridges":
			for j, part := range strings.Split(val, ";") {
				at := off + len(key) + 1 + j*8
				a, o, msg := parseSquare(part, 0)
				if msg == "" && (len(part) < 4 || part[3] != '-') {
					o, msg = 3, "a bridge is x,y-x,y"
				}
				var b Square
				if msg == "" {
					b, o, msg = parseSquare(part, 4)
				}
				if msg == "" && len(part) != 7 {
					o, msg = 7, "a bridge is x,y-x,y; bridges are separated by ;"
				}
				if msg != "" {
					return Position{}, &SyntaxError{Input: text, Offset: at + o, Msg: msg}
				}
				s.Bridges = append(s.Bridges, [2]Square{a, b})
			}
		case "first":
			switch val {
			case "W", "w":
				s.FirstPlayer = White
			case "B", "b":
				s.FirstPlayer = Black
			default:
				return Position{}, &SyntaxError{Input: text, Offset: off + 6, Msg: "first must be W or B"}
			}
		case "change":
			s.ChangeAvailable = true
		case "final":
			s.FinalTurn = true
		case "ended":
			s.Ended = true
		default:
			return Position{}, &SyntaxError{Input: text, Offset: off, Msg: "unknown field " + strconv.Quote(f)}
		}
	}
	return NewPosition(s)
}

// splitFields splits text[i:] at white space, returning the fields and their
// offsets in text.
func splitFields(text string, i int) ([]string, []int) {
	var fields []string
	var offs []int
	for i < len(text) {
		for i < len(text) && isSpace(text[i]) {
			i++
		}
		j := i
		for j < len(text) && !isSpace(text[j]) {
			j++
		}
		if j > i {
			fields, offs = append(fields, text[i:j]), append(offs, i)
		}
		i = j
	}
	return fields, offs
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

// Diagram draws p for people: the column numbers, then 10 rows with their
// row number, 'W' white, 'B' black, '-' under a bridge, '.' free; then the
// side to move and profile, and the bridges in build order.
func (p Position) Diagram() string {
	var sb strings.Builder
	sb.WriteString("  0 1 2 3 4 5 6 7 8 9\n")
	for y := range 10 {
		sb.WriteByte('0' + byte(y))
		for x := range 10 {
			s := SquareAt(x, y)
			sb.WriteByte(' ')
			switch {
			case p.At(s) == White:
				sb.WriteByte('W')
			case p.At(s) == Black:
				sb.WriteByte('B')
			case p.under.Has(s):
				sb.WriteByte('-')
			default:
				sb.WriteByte('.')
			}
		}
		sb.WriteByte('\n')
	}
	sb.WriteString(p.Turn().String())
	sb.WriteString(" to move, ")
	sb.WriteString(p.rules.String())
	if p.ChangeAvailable() {
		sb.WriteString(", Change available")
	}
	if p.FinalTurn() {
		sb.WriteString(", final turn")
	}
	if p.state&flagEnded != 0 {
		sb.WriteString(", ended")
	}
	sb.WriteByte('\n')
	for k := 1; k <= p.NumBridges(); k++ {
		e := p.BridgeAt(k)
		sb.WriteString("bridge " + strconv.Itoa(k) + " " + e[0].String() + "-" + e[1].String() + " " + p.At(e[0]).String() + "\n")
	}
	return sb.String()
}

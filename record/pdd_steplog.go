package record

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/botarena/botarena/pdd"
)

// PDDMaxTurn is the largest turn number the stepLog.txt readers accept. A
// Course game has at most 67 actions.
const PDDMaxTurn = 999999

// PDDStep is one line of stepLog.txt, one accepted action:
//
//	W_1_Chess_2,0_2,2
//
// the colour (W or B), the turn number, the action (Chess, Bridge or
// Change) and 2 points x,y: the 2 new tiles of Chess, the 2 endpoints of a
// Bridge, White's 2 opening tiles for Change. The SDK also writes
// "W_9_Pass" for a Pass under the Official profile, a line a
// Course replay refuses.
type PDDStep struct {
	Color pdd.Color // the side that acted
	Turn  int       // the turn number, from 1; the SDK writes the line number
	Move  pdd.Move  // the action: Chess or Bridge with its squares, pdd.Change or pdd.Pass
	// ChangeTiles holds, for Change only, the 2 opening tiles that changed
	// colour, the lower square first.
	ChangeTiles [2]pdd.Square
}

// NewPDDStep returns the stepLog line of move m played in position p at the
// given turn number: the colour is p's side to move, and for Change the 2
// points are White's tiles in p.
func NewPDDStep(p pdd.Position, m pdd.Move, turn int) PDDStep {
	s := PDDStep{Color: p.Turn(), Turn: turn, Move: m, ChangeTiles: [2]pdd.Square{pdd.NoSquare, pdd.NoSquare}}
	if m == pdd.Change {
		i := 0
		for sq := range p.Tiles(pdd.White).Squares() {
			if i < 2 {
				s.ChangeTiles[i] = sq
			}
			i++
		}
	}
	return s
}

// Points returns the 2 points the line writes: the squares of a Chess or
// Bridge move, the opening tiles of Change (the lower first), or
// pdd.NoSquare twice for Pass.
func (s PDDStep) Points() (a, b pdd.Square) {
	if s.Move == pdd.Change {
		return s.ChangeTiles[0], s.ChangeTiles[1]
	}
	return s.Move.Squares()
}

// AppendText appends the line, without terminator, to b:
// "W_1_Chess_2,0_2,2", "B_2_Change_2,0_2,2" or "W_9_Pass". It fails for a
// colour that is not a side, a turn out of 1..PDDMaxTurn, a value that is
// not a move, or Change without its 2 points.
func (s PDDStep) AppendText(b []byte) ([]byte, error) {
	var c byte
	switch s.Color {
	case pdd.White:
		c = 'W'
	case pdd.Black:
		c = 'B'
	default:
		return b, fmt.Errorf("record: step colour %d is not a side", s.Color)
	}
	if s.Turn < 1 || s.Turn > PDDMaxTurn {
		return b, fmt.Errorf("record: step turn %d is out of 1..%d", s.Turn, PDDMaxTurn)
	}
	if !s.Move.Valid() {
		return b, errors.New("record: step without a move")
	}
	p1, p2 := s.Points()
	if s.Move != pdd.Pass && (!p1.Valid() || !p2.Valid()) {
		return b, fmt.Errorf("record: step %s without its 2 points", s.Move.Action())
	}
	b = append(b, c, '_')
	b = strconv.AppendInt(b, int64(s.Turn), 10)
	b = append(b, '_')
	b = append(b, s.Move.Action().String()...)
	if s.Move != pdd.Pass {
		b = append(b, '_')
		b = append(b, p1.String()...)
		b = append(b, '_')
		b = append(b, p2.String()...)
	}
	return b, nil
}

// String returns the line without terminator ([PDDStep.AppendText]), or
// "invalid step" if it cannot be written.
func (s PDDStep) String() string {
	b, err := s.AppendText(nil)
	if err != nil {
		return "invalid step"
	}
	return string(b)
}

// MarshalText returns the line without terminator ([PDDStep.AppendText]).
func (s PDDStep) MarshalText() ([]byte, error) { return s.AppendText(nil) }

// UnmarshalText reads one line ([ParsePDDStep] in [PDDLenient] mode).
func (s *PDDStep) UnmarshalText(text []byte) error {
	v, err := ParsePDDStep(string(text), PDDLenient)
	if err != nil {
		return err
	}
	*s = v
	return nil
}

// ParsePDDStep reads one stepLog.txt line, without its terminator, in the
// given mode. A fault is a [*ParseError] (line 1) naming the field: color,
// turn, action, point 1 or point 2. It checks syntax only; whether the
// action is legal, and whether Change stands on line 2, is for
// [ReadPDDStepLog] and [ReplayPDDStepLog].
func ParsePDDStep(line string, mode PDDMode) (PDDStep, error) {
	s, col, msg := parsePDDStep([]byte(line), mode)
	if msg != "" {
		return PDDStep{}, &ParseError{File: PDDStepLogFile, Line: 1, Column: col, Msg: msg, Err: ErrSyntax}
	}
	return s, nil
}

// parsePDDStep parses a line; on a fault it returns the 1-based column and
// a message naming the field.
func parsePDDStep(line []byte, mode PDDMode) (PDDStep, int, string) {
	s := PDDStep{ChangeTiles: [2]pdd.Square{pdd.NoSquare, pdd.NoSquare}}
	lenient := mode == PDDLenient
	// Split on '_' keeping each field's column.
	type field struct {
		text []byte
		col  int
	}
	var fs []field
	for start := 0; ; {
		i := bytes.IndexByte(line[start:], '_')
		end := len(line)
		if i >= 0 {
			end = start + i
		}
		f := field{text: line[start:end], col: start + 1}
		if lenient {
			f.col += len(f.text) - len(bytes.TrimLeft(f.text, " \t"))
			f.text = trimBlank(f.text)
		}
		if len(fs) == 5 {
			return s, f.col - 1, `unexpected "_" after point 2`
		}
		fs = append(fs, f)
		if i < 0 {
			break
		}
		start = end + 1
	}
	if len(fs) < 3 {
		return s, 0, `want color_turn_action_x,y_x,y, such as "W_1_Chess_2,0_2,2"`
	}
	// Colour.
	switch c := string(fs[0].text); {
	case c == "W" || lenient && c == "w":
		s.Color = pdd.White
	case c == "B" || lenient && c == "b":
		s.Color = pdd.Black
	default:
		return s, fs[0].col, "color: want W or B, got " + strconv.Quote(c)
	}
	// Turn.
	t := fs[1].text
	turn := 0
	for _, c := range t {
		if c < '0' || c > '9' {
			turn = -1
			break
		}
		turn = min(turn*10+int(c-'0'), PDDMaxTurn+1)
	}
	switch {
	case len(t) == 0 || turn < 0:
		return s, fs[1].col, "turn: want a number, got " + strconv.Quote(string(t))
	case !lenient && t[0] == '0' && len(t) > 1:
		return s, fs[1].col, "turn: leading zero in " + strconv.Quote(string(t))
	case turn < 1 || turn > PDDMaxTurn:
		return s, fs[1].col, "turn: want 1 to " + strconv.Itoa(PDDMaxTurn) + ", got " + strconv.Quote(string(t))
	}
	s.Turn = turn
	// Action.
	act := string(fs[2].text)
	if lenient {
		act = string(bytes.ToLower(fs[2].text))
		if act != "" {
			act = string(act[0]-'a'+'A') + act[1:]
		}
	}
	switch act {
	case "Chess", "Bridge", "Change":
	case "Pass":
		if len(fs) > 3 {
			return s, fs[3].col - 1, "Pass takes no points"
		}
		s.Move = pdd.Pass
		return s, 0, ""
	default:
		return s, fs[2].col, "action: want Chess, Bridge or Change, got " + strconv.Quote(string(fs[2].text))
	}
	if len(fs) < 5 {
		return s, 0, act + " wants 2 points x,y_x,y"
	}
	var pts [2]pdd.Square
	for i := range 2 {
		f := fs[3+i]
		sq, err := pdd.ParseSquare(string(f.text))
		if err != nil {
			return s, f.col, "point " + strconv.Itoa(i+1) + ": want x,y with digits 0-9, got " + strconv.Quote(string(f.text))
		}
		pts[i] = sq
	}
	a, b := pts[0], pts[1]
	if a == b && act != "Bridge" {
		return s, fs[4].col, "point 2: the 2 points must differ"
	}
	if a > b {
		if !lenient {
			return s, fs[3].col, "point 1: the lower square (10*y+x) comes first"
		}
		a, b = b, a
	}
	switch act {
	case "Chess":
		s.Move = pdd.Chess(a, b)
	case "Bridge":
		s.Move = pdd.Bridge(a, b)
	case "Change":
		s.Move = pdd.Change
		s.ChangeTiles = [2]pdd.Square{a, b}
	}
	return s, 0, ""
}

// PDDStepLog is the content of stepLog.txt: the accepted actions in order,
// one line each. An empty file (0 bytes, White's first move) has no steps.
type PDDStepLog struct {
	// Steps are the lines, in order.
	Steps []PDDStep
	// CRLF reports that the file read ended its first line with CRLF; the
	// writers then end every line with CRLF instead of LF.
	CRLF bool
}

// NewPDDStepLog returns the stepLog.txt of g: one step per action, numbered
// 1, 2, ... by line; a Course forced skip (a Pass) writes nothing, an
// Official Pass writes "<C>_<turn>_Pass".
func NewPDDStepLog(g *pdd.Game) PDDStepLog {
	var l PDDStepLog
	if g == nil {
		return l
	}
	for i, m := range g.Moves() {
		p, _ := g.PositionAt(i)
		if m == pdd.Pass && p.Rules() == pdd.Course {
			continue
		}
		l.Steps = append(l.Steps, NewPDDStep(p, m, len(l.Steps)+1))
	}
	return l
}

// ReadPDDStepLog reads stepLog.txt from r in the given mode. Every line must
// parse ([ParsePDDStep]); a Change line must be line 2 and Black's. The
// turn numbers are kept as written, and neither their sequence nor the
// alternation of the colours is checked: [ReplayPDDStepLog] checks what
// matters. A fault is a [*ParseError] naming stepLog.txt, the line and the
// field.
func ReadPDDStepLog(r io.Reader, mode PDDMode) (PDDStepLog, error) {
	var l PDDStepLog
	lines, err := readPDDLines(r, mode, PDDStepLogFile)
	if err != nil {
		return PDDStepLog{}, err
	}
	if len(lines) > 0 {
		l.CRLF = lines[0].crlf
	}
	for i, ln := range lines {
		text := ln.text
		if mode == PDDLenient {
			text = trimBlank(text)
		}
		if len(text) == 0 {
			return PDDStepLog{}, &ParseError{File: PDDStepLogFile, Line: i + 1, Msg: "empty line", Err: ErrSyntax}
		}
		s, col, msg := parsePDDStep(text, mode)
		if msg == "" && s.Move == pdd.Change && (i != 1 || s.Color != pdd.Black) {
			col, msg = 0, "Change can only be line 2, by B"
		}
		if msg != "" {
			if col > 0 && mode == PDDLenient {
				col += len(ln.text) - len(bytes.TrimLeft(ln.text, " \t"))
			}
			return PDDStepLog{}, &ParseError{File: PDDStepLogFile, Line: i + 1, Column: col, Msg: msg, Err: ErrSyntax}
		}
		l.Steps = append(l.Steps, s)
	}
	return l, nil
}

// AppendText appends the canonical stepLog.txt to b: each step's line
// ([PDDStep.AppendText]) ended by LF (CRLF if l.CRLF); nothing for no
// steps. It fails, appending nothing, if a step cannot be written.
func (l PDDStepLog) AppendText(b []byte) ([]byte, error) {
	n := len(b)
	for i, s := range l.Steps {
		var err error
		if b, err = s.AppendText(b); err != nil {
			return b[:n], fmt.Errorf("record: stepLog.txt line %d: %w", i+1, err)
		}
		b = appendEOL(b, l.CRLF)
	}
	return b, nil
}

// MarshalText returns the canonical stepLog.txt ([PDDStepLog.AppendText]).
func (l PDDStepLog) MarshalText() ([]byte, error) { return l.AppendText(nil) }

// UnmarshalText reads stepLog.txt in [PDDLenient] mode.
func (l *PDDStepLog) UnmarshalText(text []byte) error {
	v, err := ReadPDDStepLog(bytes.NewReader(text), PDDLenient)
	if err != nil {
		return err
	}
	*l = v
	return nil
}

// WritePDDStepLog writes the canonical stepLog.txt of l to w in one Write.
func WritePDDStepLog(w io.Writer, l PDDStepLog) error {
	b, err := l.MarshalText()
	if err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
}

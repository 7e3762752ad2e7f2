package record

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/botarena/botarena/pdd"
)

// The file names of the Ponte del Diavolo course platform. The
// PDD readers put them in [ParseError.File], so that every error names its
// file; a caller that knows the real path may replace it.
const (
	PDDChessFile   = "chess.txt"
	PDDBridgeFile  = "bridge.txt"
	PDDStepLogFile = "stepLog.txt"
)

// PDDMaxFileSize is the largest chess.txt, bridge.txt or stepLog.txt the PDD
// readers accept: 64 KiB. A real file is a few hundred bytes.
const PDDMaxFileSize = 64 << 10

// Errors of the bridge.txt checks ([PDDBridges.Bridges]), wrapped in a
// [*ParseError], and of the stepLog cross-check ([CheckPDDStepLog]).
var (
	// ErrBridgeCount is a bridge number that stands on 1 cell, or on 3 or
	// more, instead of on the 2 endpoints of its bridge.
	ErrBridgeCount = errors.New("record: bridge number not on exactly 2 cells")
	// ErrBridgeNumbering is a set of bridge numbers that is not exactly
	// 1..K: a gap, or numbers that do not start at 1.
	ErrBridgeNumbering = errors.New("record: bridge numbers are not 1..K")
	// ErrTransposed is a stepLog.txt that matches chess.txt and bridge.txt
	// only with x and y swapped in its points: the platform writes "y,x".
	ErrTransposed = errors.New("record: stepLog.txt points are transposed (y,x)")
	// ErrStepLogMismatch is a stepLog.txt whose replay differs from
	// chess.txt or bridge.txt.
	ErrStepLogMismatch = errors.New("record: stepLog.txt does not match the board files")
)

// PDDMode says how strictly the PDD readers read. Both modes accept LF and
// CRLF line ends (each line its own), a last line without its terminator and
// empty lines at the end; both refuse a file over [PDDMaxFileSize], a line
// over [MaxLineLength], wrong counts of lines or fields, and values out of
// range.
type PDDMode uint8

const (
	// PDDLenient is for strategies and library users, the zero value. It
	// also accepts a UTF-8 byte order mark, spaces and tabs around fields
	// (and around lines), a trailing comma on a grid line, white-space-only
	// lines at the end, and leading zeros ("01"). In stepLog.txt it accepts
	// the colour and the action word in any letter case and the 2 points in
	// either order.
	PDDLenient PDDMode = iota
	// PDDStrict is what the referee applies to a program's output: exactly
	// the canonical form but for the line terminators, the missing final
	// terminator and the empty lines at the end. Strict-accepted input
	// written back gives the same bytes, up to these.
	PDDStrict
)

// String returns "lenient" or "strict".
func (m PDDMode) String() string {
	if m == PDDStrict {
		return "strict"
	}
	if m == PDDLenient {
		return "lenient"
	}
	return "PDDMode(" + strconv.Itoa(int(m)) + ")"
}

// PDDChess is the content of chess.txt: 10 lines of 10 comma-separated
// digits, line y holding row y and field x column x; 0 is an empty cell,
// 1 a white tile, 2 a black tile. The canonical file is 200 bytes with LF
// line ends (210 with CRLF). Squares under a bridge are empty here.
type PDDChess struct {
	// Cells holds the colour of each square, indexed by pdd.Square
	// (10*y+x): pdd.NoColor, pdd.White or pdd.Black.
	Cells [pdd.NumSquares]pdd.Color
	// CRLF reports that the file read ended its first line with CRLF; the
	// writers then end every line with CRLF instead of LF.
	CRLF bool
}

// PDDBridges is the content of bridge.txt: the same 10x10 layout as
// chess.txt, each field 0 or the number of the bridge whose endpoint the
// square is. Bridge k, the k-th built, stands on its 2 endpoints; numbers run
// 1..K without gaps; the squares under a bridge are not stored. Numbers from
// 10 on have 2 digits, so the canonical file is 200 bytes plus one per such
// field (and 10 more with CRLF).
type PDDBridges struct {
	// Cells holds the bridge number on each square, 0 for none, indexed by
	// pdd.Square. The readers accept 0..99.
	Cells [pdd.NumSquares]uint8
	// CRLF reports that the file read ended its first line with CRLF; the
	// writers then end every line with CRLF instead of LF.
	CRLF bool
}

// NewPDDChess returns the chess.txt of p, with LF line ends.
func NewPDDChess(p pdd.Position) PDDChess {
	var c PDDChess
	for s := range pdd.Square(pdd.NumSquares) {
		c.Cells[s] = p.At(s)
	}
	return c
}

// NewPDDBridges returns the bridge.txt of p, with LF line ends: bridge k of
// p ([pdd.Position.BridgeAt]) numbered k on both its endpoints.
func NewPDDBridges(p pdd.Position) PDDBridges {
	var b PDDBridges
	for k := 1; k <= p.NumBridges(); k++ {
		e := p.BridgeAt(k)
		if e[0].Valid() && e[1].Valid() {
			b.Cells[e[0]], b.Cells[e[1]] = uint8(k), uint8(k)
		}
	}
	return b
}

// ReadPDDChess reads chess.txt from r, in the given mode. A fault is a
// [*ParseError] naming chess.txt, the 1-based line, and the field (1-based,
// in the message; its column is the field's first byte), for example
// `record: chess.txt: line 3, column 7: field 4: want 0, 1 or 2, got "7"`;
// it wraps [ErrSyntax] (or [ErrLineTooLong]). Errors of r are returned
// wrapped as they are.
func ReadPDDChess(r io.Reader, mode PDDMode) (PDDChess, error) {
	var c PDDChess
	crlf, err := readPDDGrid(r, mode, PDDChessFile, 2, func(sq pdd.Square, v int) { c.Cells[sq] = pdd.Color(v) })
	c.CRLF = crlf
	if err != nil {
		return PDDChess{}, err
	}
	return c, nil
}

// ReadPDDBridges reads bridge.txt from r, in the given mode: the syntax
// only, each field a number 0..99. Whether the numbers make bridges is
// [PDDBridges.Bridges]'s business. Faults are reported as [ReadPDDChess]
// reports them.
func ReadPDDBridges(r io.Reader, mode PDDMode) (PDDBridges, error) {
	var b PDDBridges
	crlf, err := readPDDGrid(r, mode, PDDBridgeFile, 99, func(sq pdd.Square, v int) { b.Cells[sq] = uint8(v) })
	b.CRLF = crlf
	if err != nil {
		return PDDBridges{}, err
	}
	return b, nil
}

// AppendText appends the canonical chess.txt to b: 10 lines of 10 digits
// joined by commas, each line ended by LF (CRLF if c.CRLF). A cell that is
// not a colour is written as its number, which no reader accepts. It never
// fails.
func (c PDDChess) AppendText(b []byte) ([]byte, error) {
	for y := range 10 {
		for x := range 10 {
			if x > 0 {
				b = append(b, ',')
			}
			b = strconv.AppendUint(b, uint64(c.Cells[10*y+x]), 10)
		}
		b = appendEOL(b, c.CRLF)
	}
	return b, nil
}

// MarshalText returns the canonical chess.txt ([PDDChess.AppendText]).
func (c PDDChess) MarshalText() ([]byte, error) { return c.AppendText(make([]byte, 0, 210)) }

// UnmarshalText reads chess.txt in [PDDLenient] mode.
func (c *PDDChess) UnmarshalText(text []byte) error {
	v, err := ReadPDDChess(bytes.NewReader(text), PDDLenient)
	if err != nil {
		return err
	}
	*c = v
	return nil
}

// String returns the canonical chess.txt.
func (c PDDChess) String() string {
	b, _ := c.AppendText(nil)
	return string(b)
}

// AppendText appends the canonical bridge.txt to b: 10 lines of 10 decimal
// numbers without leading zeros joined by commas, each line ended by LF
// (CRLF if b.CRLF). It never fails.
func (g PDDBridges) AppendText(b []byte) ([]byte, error) {
	for y := range 10 {
		for x := range 10 {
			if x > 0 {
				b = append(b, ',')
			}
			b = strconv.AppendUint(b, uint64(g.Cells[10*y+x]), 10)
		}
		b = appendEOL(b, g.CRLF)
	}
	return b, nil
}

// MarshalText returns the canonical bridge.txt ([PDDBridges.AppendText]).
func (g PDDBridges) MarshalText() ([]byte, error) { return g.AppendText(make([]byte, 0, 240)) }

// UnmarshalText reads bridge.txt in [PDDLenient] mode.
func (g *PDDBridges) UnmarshalText(text []byte) error {
	v, err := ReadPDDBridges(bytes.NewReader(text), PDDLenient)
	if err != nil {
		return err
	}
	*g = v
	return nil
}

// String returns the canonical bridge.txt.
func (g PDDBridges) String() string {
	b, _ := g.AppendText(nil)
	return string(b)
}

// WritePDDChess writes the canonical chess.txt of c to w in one Write.
func WritePDDChess(w io.Writer, c PDDChess) error {
	b, _ := c.MarshalText()
	_, err := w.Write(b)
	return err
}

// WritePDDBridges writes the canonical bridge.txt of b to w in one Write.
func WritePDDBridges(w io.Writer, b PDDBridges) error {
	data, _ := b.MarshalText()
	_, err := w.Write(data)
	return err
}

// Bridges returns the endpoints of each bridge in number order: element k-1
// holds the 2 cells numbered k, the lower square first, as
// [pdd.Setup.Bridges] wants them. It checks that every number stands on
// exactly 2 cells ([ErrBridgeCount], reported at the number's first cell
// in reading order) and that the numbers are exactly 1..K ([ErrBridgeNumbering],
// reported at the first cell of the first number after a gap, or of the
// highest number), each in a [*ParseError] naming bridge.txt, the line and
// the field. Whether the bridges are legal is [pdd.NewPosition]'s business
// ([PDDPosition]).
func (g PDDBridges) Bridges() ([][2]pdd.Square, error) {
	var first [100]pdd.Square // first cell of each number
	var count [100]int
	maxN := 0
	for s := range pdd.Square(pdd.NumSquares) {
		n := int(g.Cells[s])
		if n == 0 {
			continue
		}
		if n > 99 {
			return nil, g.cellError(s, ErrSyntax, fmt.Sprintf("want a bridge number 0 to 99, got %d", n))
		}
		if count[n] == 0 {
			first[n] = s
		}
		count[n]++
		maxN = max(maxN, n)
	}
	for s := range pdd.Square(pdd.NumSquares) {
		n := int(g.Cells[s])
		if n != 0 && n <= 99 && count[n] != 2 && first[n] == s {
			return nil, g.cellError(s, ErrBridgeCount, fmt.Sprintf("bridge %d stands on %d cell%s, want its 2 endpoints", n, count[n], plural(count[n])))
		}
	}
	for n := 1; n <= maxN; n++ {
		if count[n] == 0 {
			// Blame the next number present: it is out of sequence.
			m := n + 1
			for count[m] == 0 {
				m++
			}
			return nil, g.cellError(first[m], ErrBridgeNumbering, fmt.Sprintf("bridge %d, but no bridge %d: numbers must run 1..K without gaps", m, n))
		}
	}
	out := make([][2]pdd.Square, maxN)
	var seen [100]bool
	for s := range pdd.Square(pdd.NumSquares) {
		n := int(g.Cells[s])
		if n == 0 {
			continue
		}
		if !seen[n] {
			out[n-1][0], seen[n] = s, true
		} else {
			out[n-1][1] = s
		}
	}
	return out, nil
}

// cellError returns a *ParseError at square s of bridge.txt.
func (g PDDBridges) cellError(s pdd.Square, cause error, msg string) error {
	return &ParseError{File: PDDBridgeFile, Line: s.Y() + 1, Column: g.column(s), Msg: fieldMsg(s, msg), Err: cause}
}

// column returns the 1-based column of the field of s in the canonical
// line.
func (g PDDBridges) column(s pdd.Square) int {
	col := 1
	for x := range s.X() {
		col += len(strconv.Itoa(int(g.Cells[10*s.Y()+x]))) + 1
	}
	return col
}

// fieldMsg prefixes msg with the 1-based field of s.
func fieldMsg(s pdd.Square, msg string) string {
	return "field " + strconv.Itoa(s.X()+1) + ": " + msg
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

func appendEOL(b []byte, crlf bool) []byte {
	if crlf {
		return append(b, '\r', '\n')
	}
	return append(b, '\n')
}

// pddLine is one line of a PDD file, without its terminator.
type pddLine struct {
	text []byte
	crlf bool // it ended in CRLF
}

// readPDDLines reads a whole PDD file (at most PDDMaxFileSize bytes) and
// splits it into lines: LF or CRLF each, the last one possibly without a
// terminator. Empty lines at the end (white-space-only ones too, when
// lenient) are dropped. It strips a leading BOM when lenient and refuses it
// when strict, and refuses a line over MaxLineLength.
func readPDDLines(r io.Reader, mode PDDMode, file string) ([]pddLine, error) {
	if r == nil {
		return nil, errors.New("record: nil reader")
	}
	data, err := io.ReadAll(io.LimitReader(r, PDDMaxFileSize+1))
	if err != nil {
		return nil, fmt.Errorf("record: reading %s: %w", file, err)
	}
	if len(data) > PDDMaxFileSize {
		return nil, &ParseError{File: file, Line: 1, Msg: "file larger than " + strconv.Itoa(PDDMaxFileSize) + " bytes", Err: ErrSyntax}
	}
	if bom := []byte("\xEF\xBB\xBF"); bytes.HasPrefix(data, bom) {
		if mode == PDDStrict {
			return nil, &ParseError{File: file, Line: 1, Column: 1, Msg: "UTF-8 byte order mark", Err: ErrSyntax}
		}
		data = data[len(bom):]
	}
	var lines []pddLine
	for n := 1; len(data) > 0; n++ {
		text, rest, found := bytes.Cut(data, []byte{'\n'})
		data = rest
		l := pddLine{text: text}
		if found && len(text) > 0 && text[len(text)-1] == '\r' {
			l.text, l.crlf = text[:len(text)-1], true
		}
		if len(l.text) > MaxLineLength {
			return nil, &ParseError{File: file, Line: n, Msg: "line longer than " + strconv.Itoa(MaxLineLength) + " bytes", Err: ErrLineTooLong}
		}
		lines = append(lines, l)
	}
	for len(lines) > 0 {
		last := lines[len(lines)-1].text
		if mode == PDDLenient {
			last = trimBlank(last)
		}
		if len(last) > 0 {
			break
		}
		lines = lines[:len(lines)-1]
	}
	return lines, nil
}

// trimBlank trims spaces and tabs at both ends.
func trimBlank(b []byte) []byte { return bytes.Trim(b, " \t") }

// readPDDGrid reads a 10x10 grid of numbers 0..maxV, calling set for each.
// It returns whether the first line ended in CRLF.
func readPDDGrid(r io.Reader, mode PDDMode, file string, maxV int, set func(pdd.Square, int)) (bool, error) {
	lines, err := readPDDLines(r, mode, file)
	if err != nil {
		return false, err
	}
	crlf := len(lines) > 0 && lines[0].crlf
	for y, l := range lines {
		if y == 10 {
			return crlf, &ParseError{File: file, Line: 11, Msg: "want 10 lines, got " + strconv.Itoa(len(lines)), Err: ErrSyntax}
		}
		if err := parsePDDGridLine(l.text, y, mode, file, maxV, set); err != nil {
			return crlf, err
		}
	}
	if len(lines) < 10 {
		return crlf, &ParseError{File: file, Line: len(lines) + 1, Msg: "want 10 lines, got " + strconv.Itoa(len(lines)), Err: ErrSyntax}
	}
	return crlf, nil
}

// parsePDDGridLine parses line y of a grid.
func parsePDDGridLine(line []byte, y int, mode PDDMode, file string, maxV int, set func(pdd.Square, int)) error {
	fail := func(col int, msg string) error {
		return &ParseError{File: file, Line: y + 1, Column: col, Msg: msg, Err: ErrSyntax}
	}
	end := len(line)
	if mode == PDDLenient {
		// A trailing comma, with blanks around it, is ignored.
		t := bytes.TrimRight(line, " \t")
		if len(t) > 0 && t[len(t)-1] == ',' {
			end = len(t) - 1
		}
	}
	fields := 0
	for start := 0; ; {
		stop := bytes.IndexByte(line[start:end], ',')
		if stop < 0 {
			stop = end
		} else {
			stop += start
		}
		if fields == 10 {
			return fail(0, "want 10 fields, got more")
		}
		x := fields
		fields++
		field := line[start:stop]
		col := start + 1
		if mode == PDDLenient {
			lead := len(field) - len(bytes.TrimLeft(field, " \t"))
			col += lead
			field = trimBlank(field)
		}
		v, msg := parsePDDNumber(field, mode, maxV)
		if msg != "" {
			return fail(col, "field "+strconv.Itoa(x+1)+": "+msg)
		}
		set(pdd.SquareAt(x, y), v)
		if stop == end {
			break
		}
		start = stop + 1
	}
	if fields < 10 {
		return fail(0, "want 10 fields, got "+strconv.Itoa(fields))
	}
	return nil
}

// parsePDDNumber parses a field's number, 0..maxV. It returns a message for
// a bad field.
func parsePDDNumber(field []byte, mode PDDMode, maxV int) (int, string) {
	want := func() string {
		if maxV == 2 {
			return "want 0, 1 or 2"
		}
		return "want a bridge number 0 to " + strconv.Itoa(maxV)
	}
	bad := func() (int, string) {
		return 0, want() + ", got " + strconv.Quote(string(field))
	}
	if len(field) == 0 {
		return bad()
	}
	v := 0
	for _, c := range field {
		if c < '0' || c > '9' {
			return bad()
		}
		v = v*10 + int(c-'0')
		if v > maxV {
			return bad()
		}
	}
	if mode == PDDStrict && len(field) > 1 && field[0] == '0' {
		return 0, "leading zero in " + strconv.Quote(string(field))
	}
	return v, ""
}

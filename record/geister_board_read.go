package record

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/botarena/botarena/geister"
	"github.com/botarena/botarena/internal/lineio"
)

// geisterSpace reports whether c separates the fields of a board.txt line.
func geisterSpace(c byte) bool {
	switch c {
	case ' ', '\t', '\r', '\n', '\v', '\f':
		return true
	}
	return false
}

// geisterField is a field of a line and its 1-based column.
type geisterField struct {
	text string
	col  int
}

// geisterFields splits line at runs of white space.
func geisterFields(line string) []geisterField {
	var fs []geisterField
	for i := 0; i < len(line); {
		if geisterSpace(line[i]) {
			i++
			continue
		}
		j := i
		for j < len(line) && !geisterSpace(line[j]) {
			j++
		}
		fs = append(fs, geisterField{line[i:j], i + 1})
		i = j
	}
	return fs
}

// geisterDigits reports whether s is a non-empty run of ASCII digits.
func geisterDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// geisterRowCell reports whether c may stand on a board row.
func geisterRowCell(c byte) bool {
	return c == '-' || ('A' <= c && c <= 'H') || ('a' <= c && c <= 'h')
}

// geisterBoardReader is the state of one ReadGeisterBoard.
type geisterBoardReader struct {
	b *GeisterBoard

	n    int  // the current line's number
	star bool // the current line starts with '*'

	dateLine, vsLine, countsLine, timeLine, resultLine, redLine int
	resultToken                                                 string // the player token of the result line
	rows                                                        []string
	rowLines                                                    []int
	rowCols                                                     [][6]int
	moveLines, moveCols                                         []int // per ply
	capLines                                                    []int // per ply
	timeLines                                                   []int // per timestamp
	rounds                                                      int   // move lines read
	capRounds                                                   int   // capture lines read
	halfRound                                                   int   // the line of a one-ply round, 0 if none
	halfCaps                                                    int   // the line of a one-code capture line, 0 if none
}

func (r *geisterBoardReader) fail(col int, format string, args ...any) *ParseError {
	return &ParseError{Line: r.n, Column: col, Msg: fmt.Sprintf(format, args...), Err: ErrSyntax}
}

// ReadGeisterBoard reads an NTPU board.txt record and replays it.
//
// It is lenient in what it accepts: LF or CRLF line ends, blank lines
// anywhere, white space around and between fields, a missing final line end.
// Lines are classified by content, not position, with or without the "* "
// prefix: the date ("9:05pm November 22, 2026": minutes padded or not, am or
// pm in any case, month names full or short, with or without the comma),
// the players "X vs Y", the four counts, six board rows (cells "A"-"H",
// "a"-"h", "-", separated by spaces or not), "time N", the move rounds
// ("1. C,NORTH D,NORTH": full or one-letter directions in any case, escapes
// sideways or NORTH; only the last round may hold one ply), the result line
// ("<reason> <player> wins <score>", "wins" in any case, or
// "<reason> [<player>] Draw <score>", scores in any decimal form such as
// "1.000000,0.000000"), "Comment ...", the timestamps ("0. <ms>": 13 digits
// for milliseconds or 10 for seconds, numbered from 0), the capture record
// ("1. 0 2": one or two codes 0-2 per line, grouped like the moves,
// numbered from 1), the SDK's "red EFGH bcde" ("-" for a side not given),
// and "first N", which is ignored. Any other line starting with "*" is
// skipped; any other line is an error.
//
// Missing parts are allowed: without board rows the game starts from the
// standard start (a file with neither rows nor moves is an error); the
// result line, the timestamps and the capture record may be absent.
//
// The record is then replayed with the rules (see [gat.Board.Game]): every
// move must be legal, each capture code must be what its ply captured, the
// counts must describe the initial board or the position after the moves,
// and a result of the board (ChessEscape, NoBlueGhost, NoRedGhost) must be
// the board's, any other result an undecided board. When the record does not
// give a side's red set, the replay looks for one with which everything fits.
// The moves come back normalised (escapes sideways), and Counts is filled in
// from the red sets when the record has none but gives both.
//
// Every fault is a [*ParseError] naming the line (and the column where it
// is one field); its Err is a [*geister.MoveError] for a move the rules
// refuse, [ErrLineTooLong] for a line over [MaxLineLength], and [ErrSyntax]
// for everything else, including a record that does not replay.
func ReadGeisterBoard(rd io.Reader) (*GeisterBoard, error) {
	if rd == nil {
		return nil, errors.New("record: nil reader")
	}
	r := &geisterBoardReader{b: &GeisterBoard{}}
	lr := lineio.NewReader(rd, MaxLineLength)
	for {
		line, err := lr.ReadLine()
		if errors.Is(err, io.EOF) {
			break
		}
		r.n++
		if err != nil {
			return nil, lineError(r.n, err)
		}
		if pe := r.line(line); pe != nil {
			return nil, pe
		}
	}
	return r.finish()
}

// line reads one line.
func (r *geisterBoardReader) line(line string) *ParseError {
	fs := geisterFields(line)
	r.star = false
	if len(fs) > 0 && fs[0].text[0] == '*' {
		r.star = true
		if len(fs[0].text) == 1 {
			fs = fs[1:]
		} else {
			fs[0].text, fs[0].col = fs[0].text[1:], fs[0].col+1
		}
	}
	if len(fs) == 0 {
		return nil
	}
	first := fs[0].text
	switch {
	case len(fs) == 3 && fs[1].text == "vs":
		if r.vsLine != 0 {
			return r.fail(0, "a second players line (the first is line %d)", r.vsLine)
		}
		r.vsLine = r.n
		r.b.First, r.b.Second = first, fs[2].text
	case len(first) > 1 && first[len(first)-1] == '.' && geisterDigits(first[:len(first)-1]):
		return r.numbered(fs)
	case strings.EqualFold(first, "time"):
		return r.timeLimit(fs)
	case strings.EqualFold(first, "comment"), strings.EqualFold(first, "first"):
	case strings.EqualFold(first, "red"):
		return r.reds(fs)
	case geisterAllDigits(fs):
		return r.counts(fs)
	case len(fs) == 6 && geisterRowFields(fs), len(fs) == 1 && geisterRowToken(first):
		return r.row(fs)
	case geisterIsReason(first) && strings.IndexByte(fs[len(fs)-1].text, ',') >= 0:
		return r.result(fs)
	case first[0] >= '0' && first[0] <= '9' && strings.IndexByte(first, ':') >= 0:
		return r.date(line, fs)
	case r.star:
		// An unknown "* " line: skipped.
	default:
		return r.fail(fs[0].col, "unrecognised line %q", geisterClip(line))
	}
	return nil
}

// geisterClip shortens s for an error message.
func geisterClip(s string) string {
	if len(s) > 60 {
		return s[:60] + "..."
	}
	return s
}

func geisterAllDigits(fs []geisterField) bool {
	for _, f := range fs {
		if !geisterDigits(f.text) {
			return false
		}
	}
	return true
}

func geisterRowFields(fs []geisterField) bool {
	for _, f := range fs {
		if len(f.text) != 1 || !geisterRowCell(f.text[0]) {
			return false
		}
	}
	return true
}

// geisterRowToken reports whether s is a board row written without spaces.
func geisterRowToken(s string) bool {
	if len(s) != 6 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !geisterRowCell(s[i]) {
			return false
		}
	}
	return true
}

func geisterIsReason(s string) bool {
	reason, err := geister.ParseReason(s)
	return err == nil && reason != geister.Unfinished
}

// numbered reads a move round, a timestamp or a capture line.
func (r *geisterBoardReader) numbered(fs []geisterField) *ParseError {
	numText := fs[0].text[:len(fs[0].text)-1]
	num, err := strconv.Atoi(numText)
	if err != nil || len(numText) > 9 {
		return r.fail(fs[0].col, "line number %s out of range", numText)
	}
	rest := fs[1:]
	if len(rest) == 0 {
		return r.fail(0, "nothing after the number %d.", num)
	}
	if strings.IndexByte(rest[0].text, ',') >= 0 {
		return r.round(num, fs[0].col, rest)
	}
	if len(rest) == 1 && (len(rest[0].text) == 10 || len(rest[0].text) == 13) && geisterDigits(rest[0].text) {
		return r.timestamp(num, fs[0].col, rest[0])
	}
	for _, f := range rest {
		if f.text != "0" && f.text != "1" && f.text != "2" {
			return r.fail(f.col, "%q is neither a timestamp (10 or 13 digits) nor a capture code 0, 1 or 2", geisterClip(f.text))
		}
	}
	return r.captureLine(num, fs[0].col, rest)
}

// round reads a move line.
func (r *geisterBoardReader) round(num, col int, ms []geisterField) *ParseError {
	if r.resultLine != 0 {
		return r.fail(0, "a move after the result line (line %d)", r.resultLine)
	}
	if r.halfRound != 0 {
		return r.fail(0, "a move round after round %d, which has one ply (line %d)", r.rounds, r.halfRound)
	}
	if num != r.rounds+1 {
		return r.fail(col, "round %d where round %d was expected", num, r.rounds+1)
	}
	if len(ms) > 2 {
		return r.fail(ms[2].col, "a round holds at most two plies")
	}
	for _, f := range ms {
		m, err := geister.ParseMove(f.text)
		if err != nil {
			c := f.col
			var se *geister.SyntaxError
			if errors.As(err, &se) {
				c += se.Offset
				return r.fail(c, "move %q: %s", geisterClip(f.text), se.Msg)
			}
			return r.fail(c, "move %q: %v", geisterClip(f.text), err)
		}
		r.b.Moves = append(r.b.Moves, m)
		r.moveLines = append(r.moveLines, r.n)
		r.moveCols = append(r.moveCols, f.col)
	}
	r.rounds++
	if len(ms) == 1 {
		r.halfRound = r.n
	}
	return nil
}

// timestamp reads a timestamp line.
func (r *geisterBoardReader) timestamp(num, col int, f geisterField) *ParseError {
	if num != len(r.b.Times) {
		return r.fail(col, "timestamp %d where timestamp %d was expected", num, len(r.b.Times))
	}
	v, err := strconv.ParseInt(f.text, 10, 64)
	if err != nil {
		return r.fail(f.col, "timestamp %s out of range", f.text)
	}
	t := time.UnixMilli(v)
	if len(f.text) == 10 {
		t = time.Unix(v, 0)
	}
	r.b.Times = append(r.b.Times, t)
	r.timeLines = append(r.timeLines, r.n)
	return nil
}

// captureLine reads a line of capture codes.
func (r *geisterBoardReader) captureLine(num, col int, codes []geisterField) *ParseError {
	if r.halfCaps != 0 {
		return r.fail(0, "a capture line after line %d, which has one code", r.halfCaps)
	}
	if num != r.capRounds+1 {
		return r.fail(col, "capture line %d where %d was expected", num, r.capRounds+1)
	}
	if len(codes) > 2 {
		return r.fail(codes[2].col, "a capture line holds at most two codes")
	}
	for _, f := range codes {
		r.b.Captures = append(r.b.Captures, geister.GhostColor(f.text[0]-'0'))
		r.capLines = append(r.capLines, r.n)
	}
	r.capRounds++
	if len(codes) == 1 {
		r.halfCaps = r.n
	}
	return nil
}

// timeLimit reads "time N".
func (r *geisterBoardReader) timeLimit(fs []geisterField) *ParseError {
	if r.timeLine != 0 {
		return r.fail(0, "a second time line (the first is line %d)", r.timeLine)
	}
	if len(fs) != 2 {
		return r.fail(0, `the time line must be "time <seconds>"`)
	}
	if !geisterDigits(fs[1].text) || len(fs[1].text) > 9 {
		return r.fail(fs[1].col, "time limit %q must be a number of seconds of at most 9 digits", geisterClip(fs[1].text))
	}
	n, _ := strconv.Atoi(fs[1].text)
	r.timeLine = r.n
	r.b.TimeLimit = time.Duration(n) * time.Second
	return nil
}

// reds reads "red EFGH bcde".
func (r *geisterBoardReader) reds(fs []geisterField) *ParseError {
	if r.redLine != 0 {
		return r.fail(0, "a second red line (the first is line %d)", r.redLine)
	}
	if len(fs) != 3 {
		return r.fail(0, `the red line must be "red <first player's reds> <second player's reds>"`)
	}
	for c, f := range fs[1:] {
		if f.text == "-" {
			continue
		}
		reds, err := geister.ParseReds(f.text)
		if err != nil || strings.IndexByte(f.text, ':') >= 0 {
			return r.fail(f.col, "the %s player's red set %q must be 4 distinct letters A-H, or -", geister.Color(c), geisterClip(f.text))
		}
		r.b.Reds[c] = reds
	}
	r.redLine = r.n
	return nil
}

// counts reads the four counts.
func (r *geisterBoardReader) counts(fs []geisterField) *ParseError {
	if r.countsLine != 0 {
		return r.fail(0, "a second counts line (the first is line %d)", r.countsLine)
	}
	if len(fs) != 4 {
		return r.fail(0, "the counts line must hold 4 numbers (first red, first blue, second red, second blue), not %d", len(fs))
	}
	var n [4]int
	for i, f := range fs {
		if len(f.text) != 1 || f.text[0] > '4' {
			return r.fail(f.col, "count %q out of range 0..4", geisterClip(f.text))
		}
		n[i] = int(f.text[0] - '0')
	}
	r.countsLine = r.n
	r.b.Counts = &n
	return nil
}

// row reads a board row.
func (r *geisterBoardReader) row(fs []geisterField) *ParseError {
	if len(r.rows) == 6 {
		return r.fail(0, "a seventh board row (rows on lines %d to %d)", r.rowLines[0], r.rowLines[5])
	}
	var cells [6]byte
	var cols [6]int
	if len(fs) == 1 {
		for i := range 6 {
			cells[i], cols[i] = fs[0].text[i], fs[0].col+i
		}
	} else {
		for i, f := range fs {
			cells[i], cols[i] = f.text[0], f.col
		}
	}
	r.rows = append(r.rows, string(cells[:]))
	r.rowLines = append(r.rowLines, r.n)
	r.rowCols = append(r.rowCols, cols)
	return nil
}

// result reads the result line.
func (r *geisterBoardReader) result(fs []geisterField) *ParseError {
	if r.resultLine != 0 {
		return r.fail(0, "a second result line (the first is line %d)", r.resultLine)
	}
	reason, _ := geister.ParseReason(fs[0].text)
	score := fs[len(fs)-1]
	first, second, ok := geisterParseScore(score.text)
	if !ok {
		return r.fail(score.col, "score %q must be two numbers separated by a comma", geisterClip(score.text))
	}
	var res geister.Result
	var word geisterField
	switch {
	case len(fs) == 4 && strings.EqualFold(fs[2].text, "wins"):
		word = fs[2]
		r.resultToken = fs[1].text
		switch {
		case first == 1 && second == 0:
			res = geister.Result{Reason: reason, Winner: geister.First}
		case first == 0 && second == 1:
			res = geister.Result{Reason: reason, Winner: geister.Second}
		default:
			return r.fail(score.col, "score %s: a win scores 1,0 or 0,1", score.text)
		}
	case (len(fs) == 3 || len(fs) == 4) && strings.EqualFold(fs[len(fs)-2].text, "draw"):
		word = fs[len(fs)-2]
		if first != 0.5 || second != 0.5 {
			return r.fail(score.col, "score %s: a draw scores 0.5,0.5", score.text)
		}
		res = geister.Result{Reason: reason, Draw: true}
	default:
		return r.fail(0, `the result line must be "<reason> <player> wins <score>" or "<reason> Draw <score>"`)
	}
	if res.Draw != reason.IsDraw() {
		return r.fail(word.col, "%s with %s: only GamePlyLimitDraw and AgreedDraw are draws", reason, word.text)
	}
	r.resultLine = r.n
	r.b.Result = res
	return nil
}

// geisterParseScore reads "<first>,<second>", numbers in decimal form.
func geisterParseScore(s string) (first, second float64, ok bool) {
	a, b, found := strings.Cut(s, ",")
	if !found {
		return 0, 0, false
	}
	x, okx := geisterDecimal(a)
	y, oky := geisterDecimal(b)
	return x, y, okx && oky
}

// geisterDecimal reads digits with at most one point, and at least a digit.
func geisterDecimal(s string) (float64, bool) {
	digits, point := 0, false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9':
			digits++
		case c == '.' && !point:
			point = true
		default:
			return 0, false
		}
	}
	if digits == 0 || len(s) > 40 {
		return 0, false
	}
	v, err := strconv.ParseFloat(s, 64)
	return v, err == nil
}

// geisterMonths are the month names, full; a reader also takes their first
// three letters.
var geisterMonths = [12]string{"january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"}

// date reads "9:05pm November 22, 2026".
func (r *geisterBoardReader) date(line string, fs []geisterField) *ParseError {
	if r.dateLine != 0 {
		return r.fail(0, "a second date line (the first is line %d)", r.dateLine)
	}
	// Rebuild the text from the first field on, so columns stay right.
	start := fs[0].col - 1
	s := line[start:]
	i := 0
	num := func(maxDigits int) (int, bool) {
		j := i
		for j < len(s) && j-i < maxDigits && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		if j == i {
			return 0, false
		}
		v, _ := strconv.Atoi(s[i:j])
		i = j
		return v, true
	}
	spaces := func() {
		for i < len(s) && geisterSpace(s[i]) {
			i++
		}
	}
	col := func() int { return start + i + 1 }
	h, ok := num(2)
	if !ok || h > 12 {
		return r.fail(start+1, "date: the hour must be 1 to 12")
	}
	if i >= len(s) || s[i] != ':' {
		return r.fail(col(), `date: ":" must follow the hour`)
	}
	i++
	m, ok := num(2)
	if !ok || m > 59 {
		return r.fail(col(), "date: the minutes must be 0 to 59")
	}
	spaces()
	if i+2 > len(s) {
		return r.fail(col(), "date: am or pm must follow the time")
	}
	switch strings.ToLower(s[i : i+2]) {
	case "am":
		if h == 12 {
			h = 0
		}
	case "pm":
		if h != 12 {
			h += 12
		}
	default:
		return r.fail(col(), "date: am or pm must follow the time")
	}
	i += 2
	spaces()
	j := i
	for j < len(s) && (s[j]|0x20) >= 'a' && (s[j]|0x20) <= 'z' {
		j++
	}
	word := strings.ToLower(s[i:j])
	month := 0
	for k, name := range geisterMonths {
		if word == name || (len(word) == 3 && word == name[:3]) {
			month = k + 1
		}
	}
	if month == 0 {
		return r.fail(col(), "date: unknown month %q", geisterClip(s[i:j]))
	}
	i = j
	spaces()
	d, ok := num(2)
	if !ok || d < 1 {
		return r.fail(col(), "date: the day must be a number")
	}
	if i < len(s) && s[i] == ',' {
		i++
	}
	spaces()
	y, ok := num(4)
	if !ok || y < 1000 {
		return r.fail(col(), "date: the year must have 4 digits")
	}
	spaces()
	if i != len(s) {
		return r.fail(col(), "date: unexpected text after the year")
	}
	t := time.Date(y, time.Month(month), d, h, m, 0, 0, time.Local)
	if t.Day() != d {
		return r.fail(0, "date: %s has no day %d", time.Month(month), d)
	}
	r.dateLine = r.n
	r.b.Date = t
	return nil
}

// finish checks the record as a whole and replays it.
func (r *geisterBoardReader) finish() (*GeisterBoard, error) {
	b := r.b
	last := max(r.n, 1)
	if len(r.rows) != 0 && len(r.rows) != 6 {
		return nil, &ParseError{Line: r.rowLines[len(r.rowLines)-1], Msg: fmt.Sprintf("%d board rows; the board has 6", len(r.rows)), Err: ErrSyntax}
	}
	if len(r.rows) == 0 && len(b.Moves) == 0 {
		return nil, &ParseError{Line: last, Msg: "no board rows and no moves: not a board.txt record", Err: ErrSyntax}
	}
	if len(r.rows) == 0 {
		b.Start = geisterStartSquares()
	} else {
		var seen [2][8]bool
		for c := range b.Start {
			for g := range b.Start[c] {
				b.Start[c][g] = geister.Captured
			}
		}
		for y, row := range r.rows {
			for x := range 6 {
				ch := row[x]
				if ch == '-' {
					continue
				}
				c, g := geister.First, geister.Ghost(ch-'A')
				if ch >= 'a' {
					c, g = geister.Second, geister.Ghost(ch-'a')
				}
				if seen[c][g] {
					return nil, &ParseError{Line: r.rowLines[y], Column: r.rowCols[y][x], Msg: fmt.Sprintf("ghost %c twice on the board", ch), Err: ErrSyntax}
				}
				seen[c][g] = true
				b.Start[c][g] = geister.SquareAt(x, y)
			}
		}
	}
	if len(b.Times) > len(b.Moves)+1 {
		return nil, &ParseError{Line: r.timeLines[len(b.Moves)+1], Msg: fmt.Sprintf("timestamp %d, but the record has %d plies", len(b.Moves)+1, len(b.Moves)), Err: ErrSyntax}
	}
	if len(b.Captures) > len(b.Moves) {
		return nil, &ParseError{Line: r.capLines[len(b.Moves)], Msg: fmt.Sprintf("capture code for ply %d, but the record has %d plies", len(b.Moves)+1, len(b.Moves)), Err: ErrSyntax}
	}
	if res := b.Result; r.resultLine != 0 && !res.Draw && b.First != "" && b.First != b.Second {
		loser := b.Second
		if res.Winner == geister.Second {
			loser = b.First
		}
		if r.resultToken == loser {
			return nil, &ParseError{Line: r.resultLine, Msg: fmt.Sprintf("the result names %s, who lost by the score", loser), Err: ErrSyntax}
		}
	}
	rp, f := b.replay([2]geister.Reds{})
	if f != nil {
		pe := &ParseError{Line: 1, Msg: f.msg, Err: ErrSyntax}
		switch f.part {
		case partRows:
			if len(r.rowLines) > 0 {
				pe.Line = r.rowLines[0]
			} else {
				pe.Line = last
			}
		case partCounts:
			pe.Line = r.countsLine
		case partMove:
			pe.Line, pe.Column = r.moveLines[f.index], r.moveCols[f.index]
		case partCapture:
			pe.Line = r.capLines[f.index]
		case partResult:
			pe.Line = r.resultLine
		case partRed:
			pe.Line = r.redLine
		}
		if pe.Line == 0 {
			pe.Line = last
		}
		if f.err != nil {
			pe.Err = f.err
		}
		return nil, pe
	}
	b.Moves = rp.moves
	if b.Counts == nil && b.ColorsKnown() {
		n := geisterCounts(rp.start)
		b.Counts = &n
	}
	return b, nil
}

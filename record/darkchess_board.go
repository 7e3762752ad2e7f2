package record

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/botarena/botarena/darkchess"
	"github.com/botarena/botarena/internal/lineio"
)

// DarkChessBoard is a dark chess board.txt: the file
// the 2013-2019 platform gives a read-mode engine before each of its plies,
// the client's and the server's copies of it, and the records of the 2021
// match system, which use the same layout.
//
//	INITIAL                          banner (optional; 2021 server records)
//	* 9:7am Jan 10, 2022             date (free text)
//	* chan vs ai                     players, the first player first
//	* 1 2 2 2 2 2 5 1 2 2 2 2 2 5    face-down counts of the start, K G M R N C P k g m r n c p
//	* X X X X                        the start position, rank 8 first, files a..d
//	  ... 7 more rows ...
//	* first 0                        the first player's colour: 0 red, 1 black, other unknown
//	* time 900                       the time setting
//	* 1. b8(C) c8(C)                 move n: the first player's ply, then the second's
//	  ...
//	* NoMove chan Wins 1.000000,0.000000   result (optional; server records)
//	* Comment 0 0                    (optional)
//	0. 1641776836137                 timestamps (optional)
//	  ...
//
// [ReadDarkChessBoard] reads every variant the platforms wrote, and
// [WriteDarkChessBoard] writes one of the [DarkChessProfile]s. A board
// replays with [DarkChessBoard.Game], and [NewDarkChessBoard] makes one from a
// [darkchess.Game].
type DarkChessBoard struct {
	// Banner is the first line when it does not start with "* ": "INITIAL"
	// in the 2021 server records, "This is TEMPORARILY file. You can use it
	// for DEBUG." in their unfinished snapshots; "" for none.
	Banner string
	// Date is the date line's text after "* ", kept verbatim: the platforms
	// write it in several ways, some wrong (see [DarkChessDate]).
	Date string
	// First and Second are the players' names, the first player first:
	// "x" and "y" from "* Player1(x) vs Player2(y)" or "* x vs y"; a line of
	// another form is all First.
	First, Second string
	// Start is the start position, without a deal: [darkchess.Opening] for a
	// normal game, or the setup of a mid-game start (中盤對下), whose side to
	// move is FirstColor. Its counter is 0: board.txt has none.
	Start darkchess.Position
	// FirstColor is the colour of the first player, from "* first":
	// [darkchess.NoColor] when unknown (the SDK writes 2 before the first
	// flip).
	FirstColor darkchess.Color
	// Time is the "* time" setting, as written: seconds, except
	// milliseconds in the 2019 Windows client (900000). Values of 100000 and
	// above are taken to be milliseconds ([DarkChessBoard.TimeSetting]).
	Time int
	// Plies are the plies played from Start, the first player's first;
	// every flip names the piece it revealed.
	Plies []darkchess.Ply
	// Result is the result line of a server record, nil if there is none.
	Result *DarkChessResult
	// Times are the timestamps "<i>. <t>", t for i = 0, 1, ...: milliseconds
	// since 1970 (seconds in the 2014 manual). Their number and meaning vary:
	// one per ply in the 2017 files; plies+1 in the 2021 ones,
	// whose first two are equal. The SDK's read-mode host writes the game's
	// start, then the end of each ply.
	Times []int64
}

// DarkChessResult is the result line of a server record, in one of two
// grammars:
//
//	2021: <Reason> <name> <Wins|wins|Draw> <s1>,<s2>   NoMove chan Wins 1.000000,0.000000
//	2017: <winner> wins | Draws                         a0 wins
//
// In the 2021 grammar the scores follow the order of the players line and
// decide the winner; the name is the winner's (the first player's for a
// draw).
type DarkChessResult struct {
	// Winner is 1 if the first player won, 2 if the second did, 0 for a
	// draw.
	Winner int
	// Reason is the 2021 grammar's reason: "NoMove" (no pieces or no legal
	// ply), "TimeOut", "NoEatFlipDraw", "PositionRepetitionDraw", or the
	// SDK's "MoveError", "Resign" and "AgreedDraw" (a draw two persons
	// agreed to, which no platform's record has). The 2017 grammar names no
	// reason: "".
	Reason string
	// Repetitions and Cycle are R and k of "PositionRepetitionDraw,R,k".
	Repetitions, Cycle int
	// Text is the line after "* " as read. A writer writes it unchanged when
	// it reads, in the profile's grammar, to the same Winner, Reason,
	// Repetitions and Cycle (so "wins" and "1,0" of the 2021 competition
	// files survive a rewrite), and the canonical line otherwise.
	Text string
}

// darkChessPieceOrder is the order of the 14 counts of line 3.
var darkChessPieceOrder = [14]darkchess.Piece{
	darkchess.RedKing, darkchess.RedGuard, darkchess.RedMinister, darkchess.RedRook, darkchess.RedKnight, darkchess.RedCannon, darkchess.RedPawn,
	darkchess.BlackKing, darkchess.BlackGuard, darkchess.BlackMinister, darkchess.BlackRook, darkchess.BlackKnight, darkchess.BlackCannon, darkchess.BlackPawn,
}

// Bounds on what a board.txt may hold, so that no input makes the reader hold
// unbounded memory.
const (
	darkChessMaxPlies = 1 << 16
	darkChessMaxTimes = darkChessMaxPlies + 1
)

// darkChessReader reads a board.txt line by line.
type darkChessReader struct {
	lr *lineio.Reader
	n  int // the number of the last line read
}

// next returns the next line. At the end of the input it returns io.EOF.
func (d *darkChessReader) next() (string, error) {
	line, err := d.lr.ReadLine()
	if errors.Is(err, io.EOF) {
		return "", io.EOF
	}
	d.n++
	if err != nil {
		return "", lineError(d.n, err)
	}
	return line, nil
}

// header reads a header line, which starts with "* ", and returns what
// follows.
func (d *darkChessReader) header(field string) (string, error) {
	line, err := d.next()
	if errors.Is(err, io.EOF) {
		return "", &ParseError{Line: d.n + 1, Msg: field + ": the file ends before this line", Err: ErrSyntax}
	}
	if err != nil {
		return "", err
	}
	if !strings.HasPrefix(line, "* ") {
		return "", &ParseError{Line: d.n, Column: 1, Msg: field + `: the line must start with "* "`, Err: ErrSyntax}
	}
	return line[2:], nil
}

// fail returns a syntax error at column col of the current line.
func (d *darkChessReader) fail(col int, msg string) error {
	return &ParseError{Line: d.n, Column: col, Msg: msg, Err: ErrSyntax}
}

// dcToken is a word of a line and its 1-based column.
type dcToken struct {
	text string
	col  int
}

// dcTokens splits line at runs of spaces and tabs, counting columns from off+1
// (line is what follows off bytes of the real line).
func dcTokens(line string, off int) []dcToken {
	var toks []dcToken
	for i := 0; i < len(line); {
		if line[i] == ' ' || line[i] == '\t' {
			i++
			continue
		}
		j := i
		for j < len(line) && line[j] != ' ' && line[j] != '\t' {
			j++
		}
		toks = append(toks, dcToken{line[i:j], off + i + 1})
		if len(toks) > 64 { // no line of the format has so many: stop early
			break
		}
		i = j
	}
	return toks
}

// dcNat parses a decimal number of digits only (no sign), at most max.
func dcNat(s string, max int64) (int64, bool) {
	if s == "" || len(s) > 19 {
		return 0, false
	}
	var n int64
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int64(c-'0')
		if n > max {
			return 0, false
		}
	}
	return n, true
}

// ReadDarkChessBoard reads a board.txt (see [DarkChessBoard]) from r. It
// accepts every variant the platforms wrote, with these
// leniencies:
//
//   - lines end in LF or CRLF; the last one may lack its end;
//   - a first line that does not start with "* " is a banner;
//   - the date line is free text; the players line is "Player1(x) vs
//     Player2(y)", "x vs y" or free text (all of it the first player's name);
//   - words are separated by runs of spaces or tabs, and move lines may end
//     with spaces (as in the 2021 snapshots, "* 29. b5-b6 ");
//   - "* first" other than 0 or 1 means unknown;
//   - "* time" is kept as the integer written;
//   - the last move line may hold one ply;
//   - the result line (either grammar), "* Comment ..." and the timestamps
//     are optional;
//   - the record ends at the first line, after the move lines, that does
//     not start with "* " and is not a timestamp "<i>. <t>", or at the end of
//     the input; the rest of the input is not read (the 2021 files go on with
//     the engine's output).
//
// Everything else is checked: the start position (the counts must sum to
// the face-down squares, no kind may exceed its number, a mid-game start
// needs "* first" 0 or 1), the move numbers (1, 2, ...), every ply's legality
// from the start (rules apart: whether the game had ended by the draw rules
// is [DarkChessBoard.Game]'s to say), that flips name their piece, that the
// first flip is of the "* first" colour when that is known, the result
// line's grammar and names, and the timestamps' indices (0, 1, ...). A fault
// is a [*ParseError] naming the line, the column and the field: a syntax
// error wraps [ErrSyntax], a line over [MaxLineLength] [ErrLineTooLong], and
// an illegal ply the rules engine's [*darkchess.MoveError]. A record holds at
// most 65,536 plies and 65,537 timestamps.
func ReadDarkChessBoard(r io.Reader) (*DarkChessBoard, error) {
	if r == nil {
		return nil, errors.New("record: nil reader")
	}
	d := &darkChessReader{lr: lineio.NewReader(r, MaxLineLength)}
	b := &DarkChessBoard{}

	// Banner and date.
	line, err := d.next()
	if errors.Is(err, io.EOF) {
		return nil, &ParseError{Line: 1, Msg: "the file is empty", Err: ErrSyntax}
	}
	if err != nil {
		return nil, err
	}
	if !strings.HasPrefix(line, "* ") {
		b.Banner = line
		if b.Date, err = d.header("date"); err != nil {
			return nil, err
		}
	} else {
		b.Date = line[2:]
	}

	text, err := d.header("players")
	if err != nil {
		return nil, err
	}
	b.First, b.Second = parseDarkChessPlayers(text)

	// The start position.
	var s darkchess.Setup
	text, err = d.header("counts")
	if err != nil {
		return nil, err
	}
	countsLine := d.n
	toks := dcTokens(text, 2)
	if len(toks) != 14 {
		return nil, d.fail(0, fmt.Sprintf("counts: %d numbers, want 14, the face-down pieces K G M R N C P k g m r n c p", len(toks)))
	}
	for i, t := range toks {
		pc := darkChessPieceOrder[i]
		n, ok := dcNat(t.text, 99)
		if !ok {
			return nil, d.fail(t.col, fmt.Sprintf("counts: %q for %s is not a number", t.text, pc))
		}
		if n > int64(pc.Kind().InitialCount()) {
			return nil, d.fail(t.col, fmt.Sprintf("counts: %d face-down %s, but a side has %d", n, pc, pc.Kind().InitialCount()))
		}
		s.Pool[pc] = int(n)
	}
	rowsLine := d.n + 1
	for row := range 8 {
		field := "row " + strconv.Itoa(8-row)
		text, err := d.header(field)
		if err != nil {
			return nil, err
		}
		toks := dcTokens(text, 2)
		if len(toks) != 4 {
			return nil, d.fail(0, fmt.Sprintf("%s: %d cells, want 4 (files a to d: X, - or a piece letter)", field, len(toks)))
		}
		for file, t := range toks {
			sq := darkchess.Square(4*(7-row) + file)
			pc, err := darkchess.ParsePiece(t.text)
			if err != nil || t.text == "x" {
				return nil, d.fail(t.col, fmt.Sprintf("%s: %s is %q, not X, - or a piece letter KGMRNCPkgmrncp", field, sq, t.text))
			}
			s.Board[sq] = pc
		}
	}
	text, err = d.header("first")
	if err != nil {
		return nil, err
	}
	firstLine := d.n
	toks = dcTokens(text, 2)
	if len(toks) != 2 || toks[0].text != "first" {
		return nil, d.fail(3, `first: want "* first <colour>"`)
	}
	v, err := strconv.Atoi(toks[1].text)
	if err != nil {
		return nil, d.fail(toks[1].col, fmt.Sprintf("first: %q is not an integer (0 red, 1 black, other unknown)", toks[1].text))
	}
	firstCol := toks[1].col
	b.FirstColor = darkchess.NoColor
	if v == 0 || v == 1 {
		b.FirstColor = darkchess.Color(v)
	}
	if err := b.setStart(&s); err != nil {
		var se *darkchess.SetupError
		errors.As(err, &se)
		line := rowsLine
		switch {
		case se != nil && se.Field == "Pool":
			line = countsLine
		case se != nil && se.Field == "Turn":
			line = firstLine
		}
		msg := err.Error()
		if se != nil {
			msg = se.Msg
		}
		return nil, &ParseError{Line: line, Msg: "start position: " + msg, Err: ErrSyntax}
	}
	text, err = d.header("time")
	if err != nil {
		return nil, err
	}
	toks = dcTokens(text, 2)
	if len(toks) != 2 || toks[0].text != "time" {
		return nil, d.fail(3, `time: want "* time <setting>"`)
	}
	t, ok := dcNat(toks[1].text, 1<<31-1)
	if !ok {
		return nil, d.fail(toks[1].col, fmt.Sprintf("time: %q is not a number", toks[1].text))
	}
	b.Time = int(t)

	// Move lines, result, comment.
	p := b.Start
	oneLast := false // the last move line held one ply
	result, comment := false, false
	for {
		line, err = d.next()
		if errors.Is(err, io.EOF) {
			return b, nil
		}
		if err != nil {
			return nil, err
		}
		if !strings.HasPrefix(line, "* ") {
			break
		}
		toks := dcTokens(line[2:], 2)
		if len(toks) > 0 && dcIsMoveNumber(toks[0].text) {
			if result || comment {
				return nil, d.fail(3, "move line after the result or comment line")
			}
			num, ok := dcNat(strings.TrimSuffix(toks[0].text, "."), darkChessMaxPlies)
			want := len(b.Plies)/2 + 1
			switch {
			case oneLast:
				return nil, d.fail(3, fmt.Sprintf("move %d: the previous move line holds one ply, so it must be the last", (len(b.Plies)+1)/2))
			case !ok || num != int64(want):
				return nil, d.fail(3, fmt.Sprintf("move number %s, want %d", strings.TrimSuffix(toks[0].text, "."), want))
			case len(toks) == 1 || len(toks) > 3:
				return nil, d.fail(0, fmt.Sprintf("move %d: %d plies, want 1 or 2", want, len(toks)-1))
			case len(b.Plies)+len(toks)-1 > darkChessMaxPlies:
				return nil, d.fail(0, fmt.Sprintf("more than %d plies", darkChessMaxPlies))
			}
			for _, t := range toks[1:] {
				if p, err = b.readPly(d, p, t, firstLine, firstCol); err != nil {
					return nil, err
				}
			}
			oneLast = len(toks) == 2
			continue
		}
		if !result && !comment {
			res, col, msg := parseDarkChessResult(line[2:], 2, b.First, b.Second, 0)
			if msg == "" {
				b.Result, result = res, true
				continue
			}
			if !strings.HasPrefix(line, "* Comment") {
				return nil, d.fail(col, "result: "+msg)
			}
		}
		if comment || !strings.HasPrefix(line, "* Comment") {
			return nil, d.fail(3, `want "* Comment" or a timestamp "<i>. <time>"`)
		}
		comment = true
	}

	// Timestamps, up to the first line of another form.
	for {
		i, t, ok := dcTimestamp(line)
		if !ok {
			return b, nil
		}
		if i != int64(len(b.Times)) {
			return nil, d.fail(1, fmt.Sprintf("timestamp %d, want %d", i, len(b.Times)))
		}
		if len(b.Times) == darkChessMaxTimes {
			return nil, d.fail(0, fmt.Sprintf("more than %d timestamps", darkChessMaxTimes))
		}
		b.Times = append(b.Times, t)
		line, err = d.next()
		if errors.Is(err, io.EOF) {
			return b, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

// setStart builds b.Start from the setup of the counts and rows, with the
// side to move the rule of [DarkChessBoard.Start] gives.
func (b *DarkChessBoard) setStart(s *darkchess.Setup) error {
	s.Turn = dcStartTurn(s.Board, b.FirstColor)
	p, err := darkchess.NewPosition(*s)
	if err != nil {
		return err
	}
	b.Start = p
	return nil
}

// dcStartTurn returns the side to move of a start with the given board: no
// colour while nothing is revealed and something is face-down (the first
// flip gives it), and the first player's colour otherwise.
func dcStartTurn(board [32]darkchess.Piece, first darkchess.Color) darkchess.Color {
	revealed, hidden := false, false
	for _, pc := range board {
		revealed = revealed || pc.Valid()
		hidden = hidden || pc == darkchess.Hidden
	}
	if !revealed && hidden {
		return darkchess.NoColor
	}
	return first
}

// readPly parses the ply dcToken t, plays it on p and appends it to b.Plies.
func (b *DarkChessBoard) readPly(d *darkChessReader, p darkchess.Position, t dcToken, firstLine, firstCol int) (darkchess.Position, error) {
	num := len(b.Plies) + 1
	ply, err := darkchess.ParsePly(t.text)
	if err != nil {
		return p, d.fail(t.col, fmt.Sprintf("ply %d %q: not a ply such as b5-b6 or b7(c)", num, t.text))
	}
	if ply.Move.IsFlip() && ply.Piece == darkchess.NoPiece {
		return p, d.fail(t.col, fmt.Sprintf("ply %d %q: a flip must name the piece it revealed, as in b7(c)", num, t.text))
	}
	next, err := p.PlayPly(ply)
	if err != nil {
		reason := err.Error()
		var me *darkchess.MoveError
		if errors.As(err, &me) {
			reason = me.Reason
		}
		return p, &ParseError{Line: d.n, Column: t.col, Msg: fmt.Sprintf("ply %d %s: %s", num, ply, reason), Err: err}
	}
	if p.Turn() == darkchess.NoColor && b.FirstColor != darkchess.NoColor && ply.Piece.Color() != b.FirstColor {
		return p, &ParseError{Line: firstLine, Column: firstCol, Err: ErrSyntax,
			Msg: fmt.Sprintf("first: %d (%s), but the first flip, %s on line %d, is %s", b.FirstColor, b.FirstColor, ply, d.n, ply.Piece.Color())}
	}
	b.Plies = append(b.Plies, ply)
	return next, nil
}

// dcIsMoveNumber reports whether s is "<digits>.".
func dcIsMoveNumber(s string) bool {
	if len(s) < 2 || s[len(s)-1] != '.' {
		return false
	}
	for i := 0; i < len(s)-1; i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// dcTimestamp parses "<i>. <t>": digits, a dot, spaces or tabs, digits,
// and optional spaces or tabs.
func dcTimestamp(line string) (i, t int64, ok bool) {
	dot := strings.IndexByte(line, '.')
	if dot < 1 {
		return 0, 0, false
	}
	i, ok = dcNat(line[:dot], darkChessMaxTimes)
	if !ok {
		return 0, 0, false
	}
	rest := line[dot+1:]
	trimmed := strings.TrimLeft(rest, " \t")
	if len(trimmed) == len(rest) {
		return 0, 0, false
	}
	t, ok = dcNat(strings.TrimRight(trimmed, " \t"), 1<<63-1)
	return i, t, ok
}

// parseDarkChessPlayers splits the players line's text.
func parseDarkChessPlayers(text string) (first, second string) {
	if rest, ok := strings.CutPrefix(text, "Player1("); ok && strings.HasSuffix(rest, ")") {
		if a, b, ok := strings.Cut(rest, ") vs Player2("); ok {
			return a, b[:len(b)-1]
		}
	}
	if a, b, ok := strings.Cut(text, " vs "); ok {
		return a, b
	}
	return text, ""
}

// Result grammars for parseDarkChessResult.
const (
	dcGrammarAny  = 0
	dcGrammar2021 = 1
	dcGrammar2017 = 2
)

// parseDarkChessResult parses a result line's text (what follows "* ", off
// bytes into the line) in the given grammar (dcGrammarAny: either), for
// players first and second. On a fault it returns the 1-based column (0 for
// the whole line) and a message.
func parseDarkChessResult(text string, off int, first, second string, grammar int) (*DarkChessResult, int, string) {
	toks := dcTokens(text, off)
	res := &DarkChessResult{Text: text}
	switch {
	case len(toks) == 1 && toks[0].text == "Draws" && grammar != dcGrammar2021:
		return res, 0, ""
	case len(toks) == 2 && toks[1].text == "wins" && grammar != dcGrammar2021:
		name := toks[0].text
		switch {
		case name == first && name == second:
			return nil, toks[0].col, fmt.Sprintf("both players are named %q: which one won?", name)
		case name == first:
			res.Winner = 1
		case name == second:
			res.Winner = 2
		default:
			return nil, toks[0].col, fmt.Sprintf("the winner %q is neither player (%q, %q)", name, first, second)
		}
		return res, 0, ""
	case len(toks) != 4 || grammar == dcGrammar2017:
		return nil, 0, `want "<reason> <name> Wins|wins|Draw <score>,<score>" (2021) or "<name> wins" or "Draws" (2017)`
	}
	reason, name, word, scores := toks[0], toks[1], toks[2], toks[3]
	res.Reason = reason.text
	if r, rest, ok := strings.Cut(reason.text, ","); ok && r == "PositionRepetitionDraw" {
		rs, ks, _ := strings.Cut(rest, ",")
		rn, ok1 := dcNat(rs, 1<<16)
		kn, ok2 := dcNat(ks, 1<<16)
		if !ok1 || !ok2 || rn == 0 || kn == 0 {
			return nil, reason.col, fmt.Sprintf("%q: want PositionRepetitionDraw,<count>,<cycle>", reason.text)
		}
		res.Reason, res.Repetitions, res.Cycle = r, int(rn), int(kn)
	} else if res.Reason == "PositionRepetitionDraw" || !isDarkChessReason(res.Reason) {
		return nil, reason.col, fmt.Sprintf("unknown reason %q (want NoMove, TimeOut, NoEatFlipDraw, PositionRepetitionDraw,<R>,<k>, MoveError, Resign or AgreedDraw)", reason.text)
	}
	s1, s2, ok := strings.Cut(scores.text, ",")
	f1, err1 := strconv.ParseFloat(s1, 64)
	f2, err2 := strconv.ParseFloat(s2, 64)
	if !ok || err1 != nil || err2 != nil || !dcIsScore(s1) || !dcIsScore(s2) {
		return nil, scores.col, fmt.Sprintf("scores %q: want <first>,<second> such as 1.000000,0.000000", scores.text)
	}
	switch {
	case f1 > f2:
		res.Winner = 1
	case f2 > f1:
		res.Winner = 2
	}
	draw := dcIsDrawReason(res.Reason)
	switch {
	case word.text != "Wins" && word.text != "wins" && word.text != "Draw":
		return nil, word.col, fmt.Sprintf("%q: want Wins, wins or Draw", word.text)
	case (word.text == "Draw") != draw:
		return nil, word.col, fmt.Sprintf("%q does not go with the reason %s", word.text, res.Reason)
	case draw != (res.Winner == 0):
		return nil, scores.col, fmt.Sprintf("scores %q do not go with %q", scores.text, word.text)
	case res.Winner == 1 && name.text != first:
		return nil, name.col, fmt.Sprintf("the scores say the first player %q won, not %q", first, name.text)
	case res.Winner == 2 && name.text != second:
		return nil, name.col, fmt.Sprintf("the scores say the second player %q won, not %q", second, name.text)
	}
	return res, 0, ""
}

// dcIsScore reports whether s is a plain decimal: digits with at most one dot.
func dcIsScore(s string) bool {
	dot := false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '.' && !dot:
			dot = true
		case c < '0' || c > '9':
			return false
		}
	}
	return s != "" && s != "."
}

// isDarkChessReason reports whether s is a reason of the 2021 grammar
// ([DarkChessResult.Reason]).
func isDarkChessReason(s string) bool {
	switch s {
	case "NoMove", "TimeOut", "NoEatFlipDraw", "PositionRepetitionDraw", "MoveError", "Resign", "AgreedDraw":
		return true
	}
	return false
}

// dcIsDrawReason reports whether s is a reason of the 2021 grammar that
// ends the game drawn.
func dcIsDrawReason(s string) bool {
	return s == "NoEatFlipDraw" || s == "PositionRepetitionDraw" || s == "AgreedDraw"
}

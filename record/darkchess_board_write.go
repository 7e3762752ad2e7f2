package record

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/botarena/botarena/darkchess"
)

// DarkChessProfile is a layout in which [WriteDarkChessBoard] writes a
// board.txt. The reader takes them all.
type DarkChessProfile uint8

const (
	// DarkChessServer2021 is the 2021 match system's record, the default for
	// archives: LF line ends, the banner (Banner, or "INITIAL"), "* a vs b",
	// the 2021 result line when there is a result, "* Comment 0 0", the
	// timestamps. With the texts the reader keeps it rewrites every finished
	// 2021 record byte for byte.
	DarkChessServer2021 DarkChessProfile = iota
	// DarkChessReadMode is the board.txt given to a read-mode engine, in the
	// 2017 Linux client's layout: LF line ends, no banner (the common
	// template skips exactly two lines before the counts), "* Player1(a) vs
	// Player2(b)", no result line, "* Comment 0 0", the timestamps.
	DarkChessReadMode
	// DarkChessServer2017 is the 2017 platform server's record: CRLF line
	// ends, no banner, "* a vs b", the 2017 result line ("* a wins" or
	// "* Draws") when there is a result, "* Comment 0 0", the timestamps.
	DarkChessServer2017
)

// String returns "server2021", "readmode" or "server2017", or
// "DarkChessProfile(n)" for an unknown value.
func (p DarkChessProfile) String() string {
	switch p {
	case DarkChessServer2021:
		return "server2021"
	case DarkChessReadMode:
		return "readmode"
	case DarkChessServer2017:
		return "server2017"
	}
	return "DarkChessProfile(" + strconv.Itoa(int(p)) + ")"
}

// DarkChessDate returns t as profile p writes the date line's text
// ([DarkChessBoard.Date]), in t's location:
//
//	DarkChessServer2021   1:16pm Jan 13, 2022      (hour h%12, minutes unpadded)
//	DarkChessReadMode     3:6pm January 16, 2017   (the 2017 client's, with the right month)
//	DarkChessServer2017   12:41am Jan 16  2017     (hour 1-12, minutes padded, two spaces)
func DarkChessDate(t time.Time, p DarkChessProfile) string {
	ampm := "am"
	if t.Hour() >= 12 {
		ampm = "pm"
	}
	switch p {
	case DarkChessReadMode:
		return fmt.Sprintf("%d:%d%s %s %d, %d", t.Hour()%12, t.Minute(), ampm, t.Month(), t.Day(), t.Year())
	case DarkChessServer2017:
		h := t.Hour() % 12
		if h == 0 {
			h = 12
		}
		return fmt.Sprintf("%d:%02d%s %s %d  %d", h, t.Minute(), ampm, t.Month().String()[:3], t.Day(), t.Year())
	}
	return fmt.Sprintf("%d:%d%s %s %d, %d", t.Hour()%12, t.Minute(), ampm, t.Month().String()[:3], t.Day(), t.Year())
}

// TimeSetting returns the "* time" setting as a duration: Time seconds, or
// Time milliseconds when Time is 100000 or more (the 2019 Windows client
// writes 900000 for 900 s).
func (b *DarkChessBoard) TimeSetting() time.Duration {
	if b.Time >= 100000 {
		return time.Duration(b.Time) * time.Millisecond
	}
	return time.Duration(b.Time) * time.Second
}

// NewDarkChessBoard returns the board.txt of g, played between the players
// named first and second (the first player is the one who moved first): g's
// start without its deal, the colour of the first player, a copy of the
// plies, and the result if g is over. The caller sets Date, Time and Times.
// It returns nil for a nil g.
func NewDarkChessBoard(g *darkchess.Game, first, second string) *DarkChessBoard {
	if g == nil {
		return nil
	}
	start, _ := g.PositionAt(0)
	b := &DarkChessBoard{
		First:      first,
		Second:     second,
		Start:      start.View(darkchess.NoColor).Position(),
		FirstColor: g.FirstColor(),
		Plies:      g.Plies(),
	}
	if r, over := g.Result(); over {
		b.Result = darkChessResultOf(r, g.FirstColor())
	}
	return b
}

// darkChessResultOf returns the result line of r in a game whose first
// player has colour first.
func darkChessResultOf(r darkchess.Result, first darkchess.Color) *DarkChessResult {
	res := &DarkChessResult{Reason: darkChessReasonWord(r.Reason), Repetitions: r.Repetitions, Cycle: r.Cycle}
	switch {
	case r.Draw:
	case r.Winner == darkchess.NoColor || r.Winner != first:
		res.Winner = 2
	default:
		res.Winner = 1
	}
	return res
}

// darkChessReasonWord returns the 2021 grammar's word for r.
func darkChessReasonWord(r darkchess.Reason) string {
	switch r {
	case darkchess.NoPieces, darkchess.NoLegalPly:
		return "NoMove"
	case darkchess.TimeOut, darkchess.BadMove, darkchess.Resign, darkchess.NoEatFlipDraw, darkchess.PositionRepetitionDraw, darkchess.AgreedDraw:
		return r.String()
	}
	return ""
}

// WriteDarkChessBoard writes b in profile p, as [AppendDarkChessBoard] makes
// it, in one Write.
func WriteDarkChessBoard(w io.Writer, b *DarkChessBoard, p DarkChessProfile) error {
	out, err := AppendDarkChessBoard(nil, b, p)
	if err != nil {
		return err
	}
	_, err = w.Write(out)
	return err
}

// AppendDarkChessBoard appends b, written in profile p, to dst: the banner
// (Server2021 only), "* " and the Date, the players, the start's face-down
// counts and rows, "* first" (2 for an unknown colour), "* time", the move
// lines (two plies each, the last maybe one), the result line (server
// profiles only, when b.Result is set), "* Comment 0 0" and the timestamps.
//
// It checks b first and appends nothing if [ReadDarkChessBoard] would not
// read back the same board: the plies must be legal from the start and every
// flip name its piece; the first flip from an all-face-down start must be of
// FirstColor when that is known; a start with revealed pieces must have
// FirstColor to move; the start's counter must be 0; a result must be
// consistent (a draw reason with no winner) and, in the 2021 grammar, have a
// reason; names and texts must not hold line breaks, and must be writable
// unambiguously (a name with " vs ", or with spaces in a result line, is
// not). Faults of the last kind wrap [errors.ErrUnsupported].
func AppendDarkChessBoard(dst []byte, b *DarkChessBoard, p DarkChessProfile) ([]byte, error) {
	if b == nil {
		return dst, errors.New("record: nil board")
	}
	if p > DarkChessServer2017 {
		return dst, fmt.Errorf("record: unknown board.txt profile %d", uint8(p))
	}
	if err := b.checkStart(); err != nil {
		return dst, err
	}
	if b.Start.Quiet() != 0 {
		return dst, fmt.Errorf("record: the start's no-capture-no-flip counter is %d, and board.txt has no place for it: %w", b.Start.Quiet(), errors.ErrUnsupported)
	}
	if _, err := b.replay(); err != nil {
		return dst, err
	}
	for _, f := range []struct{ name, text string }{{"banner", b.Banner}, {"date", b.Date}, {"first player's name", b.First}, {"second player's name", b.Second}} {
		if strings.ContainsAny(f.text, "\r\n") {
			return dst, fmt.Errorf("record: the %s %q has a line break: %w", f.name, f.text, errors.ErrUnsupported)
		}
	}
	if b.Time < 0 || b.Time > 1<<31-1 {
		return dst, fmt.Errorf("record: time setting %d out of range 0..2147483647", b.Time)
	}
	if len(b.Times) > darkChessMaxTimes {
		return dst, fmt.Errorf("record: %d timestamps, more than %d", len(b.Times), darkChessMaxTimes)
	}
	for i, t := range b.Times {
		if t < 0 {
			return dst, fmt.Errorf("record: timestamp %d is negative (%d)", i, t)
		}
	}
	for _, text := range []string{b.Banner, "* " + b.Date, "* Player1(" + b.First + ") vs Player2(" + b.Second + ")"} {
		if len(text) > MaxLineLength {
			return dst, fmt.Errorf("record: a line of %d bytes, more than %d: %w", len(text), MaxLineLength, errors.ErrUnsupported)
		}
	}
	eol := "\n"
	if p == DarkChessServer2017 {
		eol = "\r\n"
	}
	start := len(dst)
	line := func(parts ...string) {
		for _, s := range parts {
			dst = append(dst, s...)
		}
		dst = append(dst, eol...)
	}

	if p == DarkChessServer2021 {
		banner := b.Banner
		if banner == "" {
			banner = "INITIAL"
		}
		if strings.HasPrefix(banner, "* ") {
			return dst, fmt.Errorf(`record: the banner %q starts with "* ", as the date line does: %w`, banner, errors.ErrUnsupported)
		}
		line(banner)
	}
	line("* ", b.Date)
	players := b.First + " vs " + b.Second
	switch {
	case p == DarkChessReadMode:
		players = "Player1(" + b.First + ") vs Player2(" + b.Second + ")"
	case b.Second == "":
		players = b.First
	}
	if f, s := parseDarkChessPlayers(players); f != b.First || s != b.Second {
		return dst[:start], fmt.Errorf("record: the players %q and %q cannot be told apart in %q: %w", b.First, b.Second, players, errors.ErrUnsupported)
	}
	line("* ", players)
	dst = append(dst, '*')
	for _, pc := range darkChessPieceOrder {
		dst = append(dst, ' ')
		dst = strconv.AppendInt(dst, int64(b.Start.Pool(pc)), 10)
	}
	dst = append(dst, eol...)
	for rank := 7; rank >= 0; rank-- {
		dst = append(dst, '*')
		for file := range 4 {
			dst = append(dst, ' ')
			dst = append(dst, b.Start.At(darkchess.Square(4*rank+file)).String()...)
		}
		dst = append(dst, eol...)
	}
	line("* first ", strconv.Itoa(int(b.FirstColor)))
	line("* time ", strconv.Itoa(b.Time))
	dst = appendNumberedPairs(dst, b.Plies, eol)
	if b.Result != nil && p != DarkChessReadMode {
		text, err := b.resultText(p)
		if err != nil {
			return dst[:start], err
		}
		line("* ", text)
	}
	line("* Comment 0 0")
	for i, t := range b.Times {
		dst = strconv.AppendInt(dst, int64(i), 10)
		dst = append(dst, ". "...)
		dst = strconv.AppendInt(dst, t, 10)
		dst = append(dst, eol...)
	}
	return dst, nil
}

// checkStart checks that Start's side to move and FirstColor agree.
func (b *DarkChessBoard) checkStart() error {
	if b.FirstColor > darkchess.NoColor {
		return fmt.Errorf("record: first player's colour %d is not red, black or unknown", b.FirstColor)
	}
	var board [32]darkchess.Piece
	for sq := range darkchess.Square(32) {
		board[sq] = b.Start.At(sq)
	}
	if want := dcStartTurn(board, b.FirstColor); b.Start.Turn() != want {
		if want == darkchess.NoColor {
			return fmt.Errorf("record: the start has nothing revealed, so the first flip gives the colours, but it has %s to move: %w", b.Start.Turn(), errors.ErrUnsupported)
		}
		return fmt.Errorf("record: the start has %s to move, but the first player's colour is %s", b.Start.Turn(), b.FirstColor)
	}
	return nil
}

// replay plays the plies from Start, without the draw rules, and returns the
// final position. It checks what the reader checks: flips name their piece,
// and the first flip is of FirstColor when that is known.
func (b *DarkChessBoard) replay() (darkchess.Position, error) {
	if len(b.Plies) > darkChessMaxPlies {
		return b.Start, fmt.Errorf("record: %d plies, more than %d", len(b.Plies), darkChessMaxPlies)
	}
	p := b.Start.View(darkchess.NoColor).Position()
	for i, ply := range b.Plies {
		if ply.Move.IsFlip() && !ply.Piece.Valid() {
			return p, fmt.Errorf("record: ply %d %s: a flip must name the piece it revealed", i+1, ply)
		}
		next, err := p.PlayPly(ply)
		if err != nil {
			return p, fmt.Errorf("record: ply %d: %w", i+1, err)
		}
		if p.Turn() == darkchess.NoColor && b.FirstColor != darkchess.NoColor && ply.Piece.Color() != b.FirstColor {
			return p, fmt.Errorf("record: the first flip, %s, is %s, but the first player's colour is %s", ply, ply.Piece.Color(), b.FirstColor)
		}
		p = next
	}
	return p, nil
}

// checkDarkChessResult checks that r is consistent.
func checkDarkChessResult(r *DarkChessResult) error {
	draw := dcIsDrawReason(r.Reason)
	switch {
	case r.Winner < 0 || r.Winner > 2:
		return fmt.Errorf("record: result winner %d, want 0 (draw), 1 or 2", r.Winner)
	case r.Reason != "" && !isDarkChessReason(r.Reason):
		return fmt.Errorf("record: unknown result reason %q", r.Reason)
	case draw && r.Winner != 0:
		return fmt.Errorf("record: result %s with a winner", r.Reason)
	case r.Reason != "" && !draw && r.Winner == 0:
		return fmt.Errorf("record: result %s without a winner", r.Reason)
	case (r.Reason == "PositionRepetitionDraw") != (r.Repetitions != 0 || r.Cycle != 0):
		return fmt.Errorf("record: result %s with count %d and cycle %d", r.Reason, r.Repetitions, r.Cycle)
	case r.Reason == "PositionRepetitionDraw" && (r.Repetitions <= 0 || r.Cycle <= 0 || r.Repetitions > 1<<16 || r.Cycle > 1<<16):
		return fmt.Errorf("record: result %s with count %d and cycle %d", r.Reason, r.Repetitions, r.Cycle)
	}
	return nil
}

// dcSameResult reports whether a and b say the same in the grammar: the
// 2017 one says the winner only.
func dcSameResult(a, b *DarkChessResult, grammar int) bool {
	if grammar == dcGrammar2017 {
		return a.Winner == b.Winner
	}
	return a.Winner == b.Winner && a.Reason == b.Reason && a.Repetitions == b.Repetitions && a.Cycle == b.Cycle
}

// resultText returns the text of b's result line in profile p's grammar.
func (b *DarkChessBoard) resultText(p DarkChessProfile) (string, error) {
	r := b.Result
	if err := checkDarkChessResult(r); err != nil {
		return "", err
	}
	grammar := dcGrammar2021
	if p == DarkChessServer2017 {
		grammar = dcGrammar2017
	}
	if got, _, msg := parseDarkChessResult(r.Text, 2, b.First, b.Second, grammar); msg == "" && dcSameResult(got, r, grammar) {
		return r.Text, nil
	}
	var text string
	names := [3]string{b.First, b.First, b.Second}
	if grammar == dcGrammar2017 {
		text = "Draws"
		if r.Winner != 0 {
			text = names[r.Winner] + " wins"
		}
	} else {
		if r.Reason == "" {
			return "", fmt.Errorf("record: the 2021 result line needs a reason (the 2017 grammar has none): %w", errors.ErrUnsupported)
		}
		reason := r.Reason
		if reason == "PositionRepetitionDraw" {
			reason += "," + strconv.Itoa(r.Repetitions) + "," + strconv.Itoa(r.Cycle)
		}
		word, scores := "Wins", [3]string{"0.500000,0.500000", "1.000000,0.000000", "0.000000,1.000000"}[r.Winner]
		if r.Winner == 0 {
			word = "Draw"
		}
		text = reason + " " + names[r.Winner] + " " + word + " " + scores
	}
	toks := dcTokens(text, 2)
	if got, _, msg := parseDarkChessResult(text, 2, b.First, b.Second, grammar); msg != "" || !dcSameResult(got, r, grammar) || len(text)+2 > MaxLineLength ||
		len(toks) > 0 && dcIsMoveNumber(toks[0].text) {
		return "", fmt.Errorf("record: the result line %q would not read back (names must be single words, told apart): %w", text, errors.ErrUnsupported)
	}
	return text, nil
}

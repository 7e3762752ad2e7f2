package record

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/botarena/botarena/internal/lineio"
	"github.com/botarena/botarena/othello"
)

// OthelloTranscript is a -trans game log of the TUS OthelloServer: the
// nicknames, the start position and the moves.
type OthelloTranscript struct {
	Black, White string           // nicknames from the header
	Start        othello.Position // the start (TUS by default when reading); the zero Position stands for othello.TUS.Start
	Moves        []othello.Move   // the moves in order, forced passes included (inferred on reading from two same-colour lines)
}

// NewOthelloTranscript returns the transcript of g, played between the
// players named black and white: g's start position and a copy of its moves.
// It returns nil for a nil g.
func NewOthelloTranscript(g *othello.Game, black, white string) *OthelloTranscript {
	if g == nil {
		return nil
	}
	start, _ := g.PositionAt(0)
	return &OthelloTranscript{Black: black, White: white, Start: start, Moves: g.Moves()}
}

// transStart returns the position a transcript starts from: start, or the
// TUS start for the zero Position (an empty board, never a real start).
func transStart(start othello.Position) othello.Position {
	if start == (othello.Position{}) {
		return othello.TUS.Start
	}
	return start
}

// othelloRules returns the preset whose start is start, or rules named
// "custom" that start there.
func othelloRules(start othello.Position) othello.Rules {
	for _, r := range []othello.Rules{othello.TUS, othello.Standard, othello.Board6x6} {
		if r.Start == start {
			return r
		}
	}
	return othello.Rules{Name: "custom", Start: start}
}

// Game replays the transcript: the game with every move played; it reports
// whether the final position is terminal through [othello.Game.IsOver] (a
// transcript stops early when a player times out or disconnects). The game's
// rules are the preset whose start is t.Start ([othello.TUS] for the zero
// Position), or rules named "custom". It fails if a move is illegal, a pass
// included.
func (t *OthelloTranscript) Game() (*othello.Game, error) {
	if t == nil {
		return nil, errors.New("record: nil transcript")
	}
	g := othello.NewGame(othelloRules(transStart(t.Start)))
	for i, m := range t.Moves {
		if err := g.Play(m); err != nil {
			return nil, fmt.Errorf("record: move %d: %w", i+1, err)
		}
	}
	return g, nil
}

// ReadOthelloTranscript reads a -trans transcript of a game that started from
// start; the zero Position means the TUS start ([othello.TUS]).
//
// Line 1 is the header "B:<black>,W:<white>", split at the first ",W:".
// Every other line is a move "x,y,color" matching ^[0-7],[0-7],(1|-1)$. A
// line's colour must be the side to move, or the other side only when the
// side to move has no legal move: that side passed, and the pass is put into
// Moves. Lines end in LF or CRLF; the last line may lack its terminator, and
// empty lines may follow the last move (but not come before one). Nothing
// else is accepted: every fault, including a move the rules refuse, a move
// after the game is over and a line longer than [MaxLineLength], is a
// [*ParseError] naming the line. A transcript may stop before the game is
// over; [OthelloTranscript.Game] tells.
func ReadOthelloTranscript(r io.Reader, start othello.Position) (*OthelloTranscript, error) {
	if r == nil {
		return nil, errors.New("record: nil reader")
	}
	start = transStart(start)
	t := &OthelloTranscript{Start: start}
	p := start
	lr := lineio.NewReader(r, MaxLineLength)
	n := 0     // the current line's number
	blank := 0 // the first of a run of empty lines, 0 if none
	for {
		line, err := lr.ReadLine()
		if errors.Is(err, io.EOF) {
			break
		}
		n++
		if err != nil {
			return nil, lineError(n, err)
		}
		if n == 1 {
			black, white, col, msg := parseTransHeader(line)
			if msg != "" {
				return nil, &ParseError{Line: n, Column: col, Msg: msg, Err: ErrSyntax}
			}
			t.Black, t.White = black, white
			continue
		}
		if line == "" {
			if blank == 0 {
				blank = n
			}
			continue
		}
		if blank != 0 {
			return nil, &ParseError{Line: blank, Msg: "empty line before a move", Err: ErrSyntax}
		}
		sq, c, col, msg := parseTransMove(line)
		if msg != "" {
			return nil, &ParseError{Line: n, Column: col, Msg: msg, Err: ErrSyntax}
		}
		next, passed, merr := playTransMove(p, sq, c)
		if merr != nil {
			return nil, &ParseError{Line: n, Msg: fmt.Sprintf("%s at %d,%d (%s): %s", c, sq.X(), sq.Y(), sq, merr.Reason), Err: merr}
		}
		if passed {
			t.Moves = append(t.Moves, othello.Pass)
		}
		t.Moves = append(t.Moves, othello.Place(sq))
		p = next
	}
	if n == 0 {
		return nil, &ParseError{Line: 1, Msg: `no header: the transcript is empty`, Err: ErrSyntax}
	}
	return t, nil
}

// parseTransHeader splits a header line. On a fault it returns the 1-based
// column (0 for the whole line) and a message.
func parseTransHeader(line string) (black, white string, col int, msg string) {
	if !strings.HasPrefix(line, "B:") {
		return "", "", 1, `the header must start with "B:"`
	}
	i := strings.Index(line, ",W:")
	if i < 0 {
		return "", "", 0, `the header must be "B:<black>,W:<white>"`
	}
	if j := strings.IndexByte(line, '\r'); j >= 0 {
		return "", "", j + 1, "carriage return in the header"
	}
	return line[2:i], line[i+3:], 0, ""
}

// parseTransMove parses a move line "x,y,color". On a fault it returns the
// 1-based column and a message.
func parseTransMove(line string) (sq othello.Square, c othello.Color, col int, msg string) {
	digit := func(i int) (int, bool) {
		if i < len(line) && line[i] >= '0' && line[i] <= '7' {
			return int(line[i] - '0'), true
		}
		return 0, false
	}
	x, ok := digit(0)
	if !ok {
		return othello.NoSquare, 0, 1, "x must be a digit 0-7"
	}
	if len(line) < 2 || line[1] != ',' {
		return othello.NoSquare, 0, 2, `expected "," after x`
	}
	y, ok := digit(2)
	if !ok {
		return othello.NoSquare, 0, 3, "y must be a digit 0-7"
	}
	if len(line) < 4 || line[3] != ',' {
		return othello.NoSquare, 0, 4, `expected "," after y`
	}
	switch line[4:] {
	case "1":
		c = othello.Black
	case "-1":
		c = othello.White
	default:
		return othello.NoSquare, 0, 5, "color must be 1 (black) or -1 (white)"
	}
	return othello.SquareAt(x, y), c, 0, ""
}

// playTransMove plays c's disc on sq in p, first passing for the side to move
// if c is the other side and the side to move has no move. It reports whether
// it passed.
func playTransMove(p othello.Position, sq othello.Square, c othello.Color) (othello.Position, bool, *othello.MoveError) {
	m := othello.Place(sq)
	passed := false
	if c != p.Turn() && !p.IsOver() {
		if !p.MustPass() {
			return p, false, &othello.MoveError{Move: m, Turn: c, Err: othello.ErrIllegalMove,
				Reason: "not " + c.String() + "'s turn: " + p.Turn().String() + " has a legal move"}
		}
		p, passed = p.PlayUnchecked(othello.Pass), true
	}
	next, err := p.Play(m)
	if err != nil {
		var merr *othello.MoveError
		if errors.As(err, &merr) {
			return p, false, merr
		}
		return p, false, &othello.MoveError{Move: m, Turn: c, Reason: err.Error(), Err: othello.ErrIllegalMove}
	}
	return next, passed, nil
}

// checkTransNames reports names that the header cannot hold: a line break in
// either, ",W:" in black's (the reader splits the header there) or a header
// longer than MaxLineLength.
func checkTransNames(black, white string) error {
	switch {
	case strings.ContainsAny(black, "\r\n"):
		return fmt.Errorf("record: black nickname %q has a line break: %w", black, errors.ErrUnsupported)
	case strings.ContainsAny(white, "\r\n"):
		return fmt.Errorf("record: white nickname %q has a line break: %w", white, errors.ErrUnsupported)
	case strings.Contains(black, ",W:"):
		return fmt.Errorf(`record: black nickname %q has ",W:", which ends it in the header: %w`, black, errors.ErrUnsupported)
	case len(black)+len(white)+5 > MaxLineLength:
		return fmt.Errorf("record: header longer than %d bytes: %w", MaxLineLength, errors.ErrUnsupported)
	}
	return nil
}

func appendTransHeader(b []byte, black, white string) []byte {
	b = append(b, "B:"...)
	b = append(b, black...)
	b = append(b, ",W:"...)
	b = append(b, white...)
	return append(b, '\n')
}

func appendTransMove(b []byte, sq othello.Square, c othello.Color) []byte {
	b = append(b, byte('0'+sq.X()), ',', byte('0'+sq.Y()), ',')
	if c == othello.White {
		b = append(b, '-')
	}
	return append(b, '1', '\n')
}

// WriteOthelloTranscript writes t in the -trans format, as the TUS server
// does: the header, then one line per placement, every line ending in LF;
// passes are not written. It replays t from its start first, and writes
// nothing if a move is illegal (a forced pass left out of t.Moves is one) or
// the nicknames cannot be written (a line break in either, ",W:" in black's,
// or a header longer than [MaxLineLength]: these wrap [errors.ErrUnsupported]).
// The whole file goes to w in one Write.
func WriteOthelloTranscript(w io.Writer, t *OthelloTranscript) error {
	if t == nil {
		return errors.New("record: nil transcript")
	}
	if err := checkTransNames(t.Black, t.White); err != nil {
		return err
	}
	b := make([]byte, 0, len(t.Black)+len(t.White)+6+7*len(t.Moves))
	b = appendTransHeader(b, t.Black, t.White)
	p := transStart(t.Start)
	for i, m := range t.Moves {
		next, err := p.Play(m)
		if err != nil {
			return fmt.Errorf("record: move %d: %w", i+1, err)
		}
		if m != othello.Pass {
			b = appendTransMove(b, m.Square(), p.Turn())
		}
		p = next
	}
	_, err := w.Write(b)
	return err
}

// OthelloTransWriter writes a -trans transcript as a game goes on, the way a
// live server does: the header when it is created, then one line per move,
// each in one Write and flushed at once (if the writer has a Flush() error
// method, such as a *bufio.Writer), so a game cut short keeps its transcript
// up to the last move. It does not referee: the caller plays the moves on its
// own [othello.Game] and reports only the legal ones. After a write error
// every call returns that error. An OthelloTransWriter is not safe for
// concurrent use.
type OthelloTransWriter struct {
	w   io.Writer
	buf []byte
	err error
}

// NewOthelloTransWriter writes the header "B:<black>,W:<white>\n" to w and
// returns a writer for the moves. It fails, writing nothing, for nicknames
// the header cannot hold (see [WriteOthelloTranscript]).
func NewOthelloTransWriter(w io.Writer, black, white string) (*OthelloTransWriter, error) {
	if w == nil {
		return nil, errors.New("record: nil writer")
	}
	if err := checkTransNames(black, white); err != nil {
		return nil, err
	}
	t := &OthelloTransWriter{w: w, buf: make([]byte, 0, 8)}
	if err := t.write(appendTransHeader(nil, black, white)); err != nil {
		return nil, err
	}
	return t, nil
}

// Move writes the line "x,y,color\n" for a disc of colour c placed on s (x
// and y the server's coordinates, color 1 for black and -1 for white). Passes
// are never written: call Move only for placements. It refuses a value that
// is not a square or a colour.
func (t *OthelloTransWriter) Move(s othello.Square, c othello.Color) error {
	switch {
	case t == nil || t.w == nil:
		return errors.New("record: OthelloTransWriter not made by NewOthelloTransWriter")
	case t.err != nil:
		return t.err
	case !s.Valid():
		return fmt.Errorf("record: transcript move on %d: not a square", s)
	case !c.Valid():
		return fmt.Errorf("record: transcript move of colour %d: not a colour", c)
	}
	t.buf = appendTransMove(t.buf[:0], s, c)
	return t.write(t.buf)
}

func (t *OthelloTransWriter) write(b []byte) error {
	if _, err := t.w.Write(b); err != nil {
		t.err = fmt.Errorf("record: writing transcript: %w", err)
		return t.err
	}
	if f, ok := t.w.(interface{ Flush() error }); ok {
		if err := f.Flush(); err != nil {
			t.err = fmt.Errorf("record: flushing transcript: %w", err)
			return t.err
		}
	}
	return nil
}

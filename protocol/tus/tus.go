package tus

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/botarena/botarena/internal/lineio"
	"github.com/botarena/botarena/othello"
)

// The TUS OthelloServer protocol is line based: one message per line, command
// words in upper case, arguments separated by one space. Readers here accept
// LF or CRLF (one trailing CR is stripped) and ignore trailing spaces and tabs;
// writers end every line with LF and write BOARD with the real server's
// trailing space.

// MaxLine is the longest line, terminator excluded, that the TUS client and
// host accept. A longer line from a client counts as a disconnect.
const MaxLine = 4096

// Errors from the TUS parsers, to test with [errors.Is]. They come wrapped in a
// [*LineError].
var (
	// ErrEmptyLine is a line with nothing on it; the server ignores it.
	ErrEmptyLine = errors.New("tus: empty line")
	// ErrUnknownCommand is a line whose first word is not a message of the
	// protocol (the TUS server answers ERROR 4).
	ErrUnknownCommand = errors.New("tus: unknown command")
	// ErrMalformed is a known message with wrong arguments (the TUS server
	// answers ERROR 1).
	ErrMalformed = errors.New("tus: malformed message")
)

// LineError reports a line that could not be parsed, and where.
type LineError struct {
	Line   string // the line, without its terminator
	Offset int    // byte offset in Line where the problem is
	Msg    string // what is wrong
	Err    error  // ErrEmptyLine, ErrUnknownCommand or ErrMalformed
}

// Error names the problem, its offset and the line.
func (e *LineError) Error() string {
	return fmt.Sprintf("tus: %s at offset %d of %q", e.Msg, e.Offset, e.Line)
}

// Unwrap returns the sentinel error.
func (e *LineError) Unwrap() error { return e.Err }

// CommandKind is the kind of a line a TUS client sends.
type CommandKind uint8

// The client's commands.
const (
	Nick         CommandKind = iota + 1 // NICK <name>
	Put                                 // PUT <x> <y>
	Say                                 // SAY <text>
	BoardRequest                        // BOARD
	Close                               // CLOSE
)

// Command is a line a TUS client sends to the server.
type Command struct {
	Kind CommandKind
	X, Y int    // PUT: the server coordinates; any integer (off-board ones are ERROR 2, not malformed)
	Text string // NICK: the name; SAY: the text
}

// Square returns the square of a PUT, or [othello.NoSquare] if it is off the
// board.
func (c Command) Square() othello.Square { return othello.SquareAt(c.X, c.Y) }

// EventKind is the kind of a line a TUS server sends.
type EventKind uint8

// The server's messages.
const (
	Start       EventKind = iota + 1 // START 1 | START -1
	Board                            // BOARD v0 ... v63 (column-major)
	Turn                             // TURN 1 | TURN -1
	SayRelay                         // SAY <nick>: <text>
	Error                            // ERROR <n>
	End                              // END <result>
	CloseNotice                      // CLOSE
)

// Event is a line a TUS server sends to a client.
type Event struct {
	Kind         EventKind
	Color        othello.Color    // START, TURN
	Black, White othello.Bitboard // BOARD
	Code         int              // ERROR
	Text         string           // SAY: everything after "SAY "; END: everything after "END "
}

// ValidNick reports whether name is acceptable as a nickname: 1 to 64
// bytes of UTF-8 with no white space and none of ':', ',', '[' or ']', which
// would break the END line and the transcript header.
func ValidNick(name string) error {
	switch {
	case name == "":
		return errors.New("empty nickname")
	case len(name) > 64:
		return fmt.Errorf("nickname of %d bytes, over 64", len(name))
	case !utf8.ValidString(name):
		return errors.New("nickname is not UTF-8")
	}
	for i, r := range name {
		if r <= ' ' || r == 0x7F || strings.ContainsRune(":,[]", r) || isSpace(r) {
			return fmt.Errorf("nickname has %q at byte %d", r, i)
		}
	}
	return nil
}

func isSpace(r rune) bool {
	return strings.TrimSpace(string(r)) == ""
}

// ParseCommand reads one line a client sent, with or without its
// terminator. Command words are case-sensitive. A known word with bad
// arguments is [ErrMalformed]; an unknown word [ErrUnknownCommand]; an empty
// line [ErrEmptyLine]. PUT takes two decimal integers; values off the board
// are kept (clamped to -1 if they overflow), for the host to reject as an
// illegal square.
func ParseCommand(line string) (Command, error) {
	line = lineio.TrimLine(strings.TrimSuffix(line, "\n"))
	word, rest, hasArgs := strings.Cut(line, " ")
	bad := func(off int, msg string) (Command, error) {
		return Command{}, &LineError{Line: line, Offset: off, Msg: msg, Err: ErrMalformed}
	}
	switch word {
	case "":
		if line == "" {
			return Command{}, &LineError{Line: line, Msg: "empty line", Err: ErrEmptyLine}
		}
		return Command{}, &LineError{Line: line, Msg: "line starts with a space", Err: ErrUnknownCommand}
	case "NICK":
		name := strings.TrimSpace(rest)
		if err := ValidNick(name); err != nil {
			return bad(len(word)+1, err.Error())
		}
		return Command{Kind: Nick, Text: name}, nil
	case "SAY":
		if rest == "" {
			return bad(len(line), "SAY needs text")
		}
		return Command{Kind: Say, Text: rest}, nil
	case "BOARD", "CLOSE":
		if hasArgs {
			return bad(len(word), word+" takes no arguments")
		}
		if word == "BOARD" {
			return Command{Kind: BoardRequest}, nil
		}
		return Command{Kind: Close}, nil
	case "PUT":
		xs, ys, ok := strings.Cut(rest, " ")
		if !hasArgs || !ok || strings.Contains(ys, " ") {
			return bad(len(word), "PUT needs exactly two numbers: PUT <x> <y>")
		}
		x, okx := parseCoord(xs)
		if !okx {
			return bad(len(word)+1, fmt.Sprintf("x %q is not a decimal integer", xs))
		}
		y, oky := parseCoord(ys)
		if !oky {
			return bad(len(word)+2+len(xs), fmt.Sprintf("y %q is not a decimal integer", ys))
		}
		return Command{Kind: Put, X: x, Y: y}, nil
	}
	return Command{}, &LineError{Line: line, Msg: fmt.Sprintf("unknown command %q", word), Err: ErrUnknownCommand}
}

// parseCoord reads an optionally signed decimal integer; one too large for an
// int reads as -1 (off the board).
func parseCoord(s string) (int, bool) {
	digits := strings.TrimPrefix(s, "-")
	if digits == "" || strings.Trim(digits, "0123456789") != "" {
		return 0, false
	}
	v, err := strconv.Atoi(s)
	if err != nil {
		return -1, true
	}
	return v, true
}

// AppendCommand appends the line for c, LF included, to b.
func AppendCommand(b []byte, c Command) []byte {
	switch c.Kind {
	case Nick:
		b = append(append(b, "NICK "...), c.Text...)
	case Put:
		b = append(b, "PUT "...)
		b = strconv.AppendInt(b, int64(c.X), 10)
		b = append(b, ' ')
		b = strconv.AppendInt(b, int64(c.Y), 10)
	case Say:
		b = append(append(b, "SAY "...), c.Text...)
	case BoardRequest:
		b = append(b, "BOARD"...)
	case Close:
		b = append(b, "CLOSE"...)
	default:
		return b
	}
	return append(b, '\n')
}

// ParseEvent reads one line a server sent, with or without its terminator.
// It is tolerant where clients must be: trailing white space is ignored, and
// the END text is kept whole for [ParseEnd], which never fails. A BOARD
// must hold 64 values of 1, 0 or -1, column by column.
func ParseEvent(line string) (Event, error) {
	line = lineio.TrimLine(strings.TrimSuffix(line, "\n"))
	word, rest, hasArgs := strings.Cut(line, " ")
	bad := func(off int, msg string) (Event, error) {
		return Event{}, &LineError{Line: line, Offset: off, Msg: msg, Err: ErrMalformed}
	}
	switch word {
	case "":
		if line == "" {
			return Event{}, &LineError{Line: line, Msg: "empty line", Err: ErrEmptyLine}
		}
	case "START", "TURN":
		var c othello.Color
		switch rest {
		case "1":
			c = othello.Black
		case "-1":
			c = othello.White
		default:
			return bad(len(word)+1, word+" takes 1 (black) or -1 (white)")
		}
		k := Start
		if word == "TURN" {
			k = Turn
		}
		return Event{Kind: k, Color: c}, nil
	case "BOARD":
		var e Event
		e.Kind = Board
		off := len(word) + 1
		i := 0
		for f := range strings.SplitSeq(rest, " ") {
			if i == 64 {
				return bad(off, "BOARD has more than 64 values")
			}
			sq := othello.SquareAt(i/8, i%8)
			switch f {
			case "1":
				e.Black |= sq.Bit()
			case "-1":
				e.White |= sq.Bit()
			case "0":
			default:
				return bad(off, fmt.Sprintf("BOARD value %d is %q, not 1, 0 or -1", i, f))
			}
			off += len(f) + 1
			i++
		}
		if i != 64 || !hasArgs {
			return bad(len(line), fmt.Sprintf("BOARD has %d values, not 64", i))
		}
		return e, nil
	case "SAY":
		return Event{Kind: SayRelay, Text: rest}, nil
	case "ERROR":
		n, err := strconv.Atoi(rest)
		if err != nil {
			return bad(len(word)+1, "ERROR takes a number")
		}
		return Event{Kind: Error, Code: n}, nil
	case "END":
		return Event{Kind: End, Text: rest}, nil
	case "CLOSE":
		return Event{Kind: CloseNotice}, nil
	}
	return Event{}, &LineError{Line: line, Msg: fmt.Sprintf("unknown message %q", word), Err: ErrUnknownCommand}
}

// AppendEvent appends the line for e, LF included, to b, byte for byte as
// the real server writes it (BOARD with a trailing space).
func AppendEvent(b []byte, e Event) []byte {
	color := func(c othello.Color) string {
		if c == othello.White {
			return "-1"
		}
		return "1"
	}
	switch e.Kind {
	case Start:
		b = append(append(b, "START "...), color(e.Color)...)
	case Turn:
		b = append(append(b, "TURN "...), color(e.Color)...)
	case Board:
		b = append(b, "BOARD "...)
		for i := range 64 {
			sq := othello.SquareAt(i/8, i%8)
			switch {
			case e.Black.Has(sq):
				b = append(b, "1 "...)
			case e.White.Has(sq):
				b = append(b, "-1 "...)
			default:
				b = append(b, "0 "...)
			}
		}
	case SayRelay:
		b = append(append(b, "SAY "...), e.Text...)
	case Error:
		b = strconv.AppendInt(append(b, "ERROR "...), int64(e.Code), 10)
	case End:
		b = append(append(b, "END "...), e.Text...)
	case CloseNotice:
		b = append(b, "CLOSE"...)
	default:
		return b
	}
	return append(b, '\n')
}

// BoardEvent returns the BOARD message for p's discs.
func BoardEvent(p othello.Position) Event {
	return Event{Kind: Board, Black: p.Black(), White: p.White()}
}

// EndResult is what a client can read from an END line. Nothing in it
// is ever fatal: fields it could not read stay zero.
type EndResult struct {
	Text   string      // the whole payload after "END "
	Winner string      // the nickname in Win:[...], if any
	Draw   bool        // a Draw token was present
	Counts []NickCount // each name:count pair, in order
}

// NickCount is one name:count pair of an END line.
type NickCount struct {
	Nick  string
	Discs int
}

// ParseEnd reads an END payload leniently: `Win:[name]` gives the winner;
// a token Draw (any case, optional trailing ':') a draw; each name:int token,
// split at the last ':', a disc count.
func ParseEnd(text string) EndResult {
	r := EndResult{Text: text}
	for tok := range strings.FieldsSeq(text) {
		if name, ok := strings.CutPrefix(tok, "Win:["); ok {
			if i := strings.LastIndexByte(name, ']'); i >= 0 {
				r.Winner = name[:i]
				continue
			}
		}
		if strings.EqualFold(strings.TrimSuffix(tok, ":"), "draw") {
			r.Draw = true
			continue
		}
		if i := strings.LastIndexByte(tok, ':'); i > 0 {
			if n, err := strconv.Atoi(tok[i+1:]); err == nil {
				r.Counts = append(r.Counts, NickCount{Nick: tok[:i], Discs: n})
			}
		}
	}
	return r
}

// FormatEnd returns the END payload our host sends for a finished game
// between the nicknames black and white: `Win:[<winner>]` or
// `Draw`, then both counts, black's first.
func FormatEnd(r othello.Result, black, white string) string {
	var head string
	switch {
	case r.Draw:
		head = "Draw"
	case r.Winner == othello.White:
		head = "Win:[" + white + "]"
	default:
		head = "Win:[" + black + "]"
	}
	return fmt.Sprintf("%s %s:%d %s:%d", head, black, r.Black, white, r.White)
}

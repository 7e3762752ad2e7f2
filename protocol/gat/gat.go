package gat

import (
	"errors"
	"fmt"
	"strings"

	"github.com/botarena/botarena/geister"
	"github.com/botarena/botarena/internal/lineio"
	"github.com/botarena/botarena/protocol/tus"
)

// The Java geister server's protocol is line based: one message per
// line, each ending in CRLF. The parsers here take one line with or without
// its terminator (LF, CRLF, or none); the Append functions write one message
// and its CRLF, byte for byte as the Java server writes it ("OK " and "NG "
// keep their space). Moves and red sets are read by package geister's
// ParseMove and ParseReds; the board string has its own codec,
// [ParseBoard] and [AppendBoard].

// MaxLine is the longest line, terminator excluded, that the Geister
// client and host read. Every real message is at most 52 bytes.
const MaxLine = 1024

// Board is a board string decoded: the 16 triples "xyc" of
// the receiver's ghosts A-H and then the opponent's, each a square in the
// receiver's own frame and a colour. It holds the string's syntax only: two
// ghosts on one square, say, are for [Board.View] and
// [Board.Position] to refuse.
//
// The letter case of a colour is not kept: it follows from the square. The
// Java server writes the receiver's own ghosts on the board in upper case
// (R, B: secret) and every other ghost in lower case (r, b, u), and so does
// [AppendBoard].
type Board struct {
	// Squares[0][g] is where the receiver's ghost g is, Squares[1][g] the
	// opponent's, in the receiver's frame: a board square, geister.Captured
	// ("99") or geister.Escaped ("88").
	Squares [2][8]geister.Square
	// Colors[i][g] is the colour the string shows for that ghost: Red, Blue,
	// or Unknown ('u').
	Colors [2][8]geister.GhostColor
}

// ParseBoard reads a 48-character board string, checking its
// syntax only: each triple is two digits 0-5, "99" or "88", and a colour
// letter R, B, r, b or u. It is lenient in one way: an upper-case U reads as
// u, as the Java server's own parser does. A syntax error is a
// [*geister.SyntaxError].
func ParseBoard(text string) (Board, error) {
	var b Board
	// geister.ParseView checks the syntax before the meaning and reports
	// syntax errors alone, as *geister.SyntaxError.
	if _, err := geister.ParseView(text, geister.First, 0); err != nil {
		var se *geister.SyntaxError
		if errors.As(err, &se) {
			return Board{}, se
		}
	}
	for t := range 16 {
		x, y, c := text[3*t], text[3*t+1], text[3*t+2]|0x20
		sq := geister.Captured
		switch {
		case x == '8':
			sq = geister.Escaped
		case x != '9':
			sq = geister.SquareAt(int(x-'0'), int(y-'0'))
		}
		col := geister.Unknown
		switch c {
		case 'r':
			col = geister.Red
		case 'b':
			col = geister.Blue
		}
		b.Squares[t/8][t%8], b.Colors[t/8][t%8] = sq, col
	}
	return b, nil
}

// AppendBoard appends the 48 characters of b to dst as the Java server
// writes them: the receiver's ghosts on the board with R or B, every other
// ghost with r, b or u. A square that is neither a board square nor
// geister.Escaped is written "99" (captured).
func AppendBoard(dst []byte, b Board) []byte {
	for i := range 2 {
		for g := range 8 {
			sq := b.Squares[i][g]
			switch {
			case sq.Valid():
				dst = append(dst, byte('0'+sq.X()), byte('0'+sq.Y()))
			case sq == geister.Escaped:
				dst = append(dst, '8', '8')
			default:
				dst = append(dst, '9', '9')
			}
			c := byte('u')
			switch b.Colors[i][g] {
			case geister.Red:
				c = 'r'
			case geister.Blue:
				c = 'b'
			}
			if i == 0 && sq.Valid() && c != 'u' {
				c -= 'a' - 'A'
			}
			dst = append(dst, c)
		}
	}
	return dst
}

// String returns the board string of b, as [AppendBoard] writes it.
func (b Board) String() string {
	return string(AppendBoard(make([]byte, 0, geister.BoardLen), b))
}

// View returns what b shows to viewer at the given ply count, as read by
// [geister.ParseView]: b must be a MOV? board (or a result board, whose
// opponent colours on the board are then forgotten).
func (b Board) View(viewer geister.Color, ply int) (geister.View, error) {
	return geister.ParseView(b.String(), viewer, ply)
}

// Position returns the position b shows to receiver at the given ply count,
// as read by [geister.ParseBoard]: every colour must be known, as in the Java
// server's WON:, LST: and DRW: boards and its viewer's strings.
func (b Board) Position(receiver geister.Color, ply int) (geister.Position, error) {
	return geister.ParseBoard(b.String(), receiver, ply)
}

// ViewBoard returns the board of v as its viewer receives it in MOV?:
// the opponent's ghosts on the board are Unknown. Its string is v.String().
func ViewBoard(v geister.View) Board {
	var b Board
	for i, c := range [2]geister.Color{v.Viewer(), v.Viewer().Opponent()} {
		for g := geister.A; g <= geister.H; g++ {
			b.Squares[i][g] = v.Square(c, g)
			b.Colors[i][g] = v.GhostColor(c, g)
		}
	}
	return b
}

// ResultBoard returns the board of p as receiver gets it in the Java
// server's WON:, LST: and DRW: messages: every colour shown, squares in the
// receiver's frame. Its string is p.Board(receiver). The viewer's strings use
// ResultBoard(p, geister.Second).
func ResultBoard(p geister.Position, receiver geister.Color) Board {
	var b Board
	for i, c := range [2]geister.Color{receiver, receiver.Opponent()} {
		for g := geister.A; g <= geister.H; g++ {
			sq := p.Square(c, g)
			if receiver == geister.Second {
				sq = sq.Rotate()
			}
			b.Squares[i][g] = sq
			b.Colors[i][g] = p.GhostColor(c, g)
		}
	}
	return b
}

// geisterSetupBoard returns the start board as receiver would get it when the
// sides that have not set their red ghosts yet (set false) are all blue, the
// Java server's default, which its viewer shows before play.
func geisterSetupBoard(reds [2]geister.Reds, set [2]bool, receiver geister.Color) Board {
	s := geister.StartSetup(reds[0], reds[1])
	var b Board
	for i, c := range [2]geister.Color{receiver, receiver.Opponent()} {
		for g := geister.A; g <= geister.H; g++ {
			sq := s.Ghosts[c][g]
			if receiver == geister.Second {
				sq = sq.Rotate()
			}
			col := geister.Blue
			if set[c] && reds[c].Has(g) {
				col = geister.Red
			}
			b.Squares[i][g], b.Colors[i][g] = sq, col
		}
	}
	return b
}

// CommandKind is the kind of a line a Geister client sends.
type CommandKind uint8

// The client's commands.
const (
	Set  CommandKind = iota + 1 // SET:<four red ghosts>
	Move                        // MOV:<ghost>,<direction>
)

// Command is a line a Geister client sends to the server.
type Command struct {
	Kind CommandKind  // SET or MOV
	Reds geister.Reds // SET: the red ghosts, four of them
	Move geister.Move // MOV: the ghost and the direction, in the sender's frame
}

// ParseCommand reads one line a client sent, with or without its
// terminator, in our host's grammar: "SET:" and four
// distinct letters A-H, or "MOV:", a letter A-H, a comma and a direction
// (NORTH, EAST, WEST, SOUTH or N, E, W, S). Letters and directions may be in
// either case; the prefixes are upper case; nothing may come before or after,
// not even a space. An empty line is [ErrEmptyLine]; a line that is neither
// SET: nor MOV: is [ErrUnknownCommand]; a SET: or MOV: with bad arguments is
// [ErrMalformed]. It checks syntax only: whether the move is legal is the
// position's business.
func ParseCommand(line string) (Command, error) {
	line = strings.TrimSuffix(strings.TrimSuffix(line, "\n"), "\r")
	bad := func(err error, msg string) (Command, error) {
		off := len(line)
		var se *geister.SyntaxError
		if errors.As(err, &se) {
			off, msg = 4+se.Offset, se.Msg
		}
		return Command{}, &tus.LineError{Line: line, Offset: off, Msg: msg, Err: tus.ErrMalformed}
	}
	switch prefix, rest := line[:min(4, len(line))], line[min(4, len(line)):]; {
	case line == "":
		return Command{}, &tus.LineError{Line: line, Msg: "empty line", Err: tus.ErrEmptyLine}
	case prefix == "SET:":
		if len(rest) != 4 {
			return bad(nil, "a red set is 4 letters A-H")
		}
		r, err := geister.ParseReds(rest)
		if err != nil {
			return bad(err, "")
		}
		return Command{Kind: Set, Reds: r}, nil
	case prefix == "MOV:":
		if len(rest) < 2 || rest[1] != ',' {
			// Also keeps geister.ParseMove from reading a second "MOV:".
			return bad(nil, "a move is a letter A-H, a comma and a direction")
		}
		m, err := geister.ParseMove(rest)
		if err != nil {
			return bad(err, "")
		}
		return Command{Kind: Move, Move: m}, nil
	}
	return Command{}, &tus.LineError{Line: line, Msg: "unknown command: want SET: or MOV:", Err: tus.ErrUnknownCommand}
}

// AppendCommand appends the line for c, CRLF included, to b: "SET:"
// and the red letters in ascending order, or "MOV:" and the move with the
// whole direction word ("MOV:A,NORTH"). A command with an invalid red set or
// move, or of an unknown kind, appends nothing.
func AppendCommand(b []byte, c Command) []byte {
	switch c.Kind {
	case Set:
		if !c.Reds.Valid() {
			return b
		}
		b = append(b, "SET:"...)
		b, _ = c.Reds.AppendText(b)
	case Move:
		if !c.Move.Valid() {
			return b
		}
		b = append(b, "MOV:"...)
		b, _ = c.Move.AppendText(b)
	default:
		return b
	}
	return append(b, '\r', '\n')
}

// EventKind is the kind of a line a Geister server sends.
type EventKind uint8

// The server's messages.
const (
	SetRequest  EventKind = iota + 1 // SET?
	OK                               // "OK ", OKR, OKB: a command accepted
	NG                               // "NG ": a command refused
	MoveRequest                      // MOV?<board>: your move
	Won                              // WON:<board>: you won
	Lost                             // LST:<board>: you lost
	Draw                             // DRW:<board>: a draw by the ply limit
	Exit                             // /exit: the NTPU launcher's end of a program's run
)

// String returns the message's name as the wire writes it: "SET?", "OK",
// "NG", "MOV?", "WON", "LST", "DRW" or "/exit".
func (k EventKind) String() string {
	switch k {
	case SetRequest:
		return "SET?"
	case OK:
		return "OK"
	case NG:
		return "NG"
	case MoveRequest:
		return "MOV?"
	case Won:
		return "WON"
	case Lost:
		return "LST"
	case Draw:
		return "DRW"
	case Exit:
		return "/exit"
	}
	return fmt.Sprintf("EventKind(%d)", uint8(k))
}

// IsResult reports whether k is a result: WON, LST or DRW.
func (k EventKind) IsResult() bool {
	return k == Won || k == Lost || k == Draw
}

// Event is a line a Geister server sends to a client.
type Event struct {
	Kind EventKind // which message
	// Capture is what the accepted move captured (OK): geister.Red for
	// OKR, geister.Blue for OKB, geister.Unknown for "OK " (nothing, or a
	// SET). The Java server may ack an escape with OKR or OKB (its defect
	// D7): a client should trust the next board, not the ack.
	Capture geister.GhostColor
	// Board is the board of MOV?, WON:, LST: and DRW:, in the receiver's
	// frame: its own view in MOV?, every colour shown in the results on the
	// Java server (the NTPU platform keeps u there).
	Board Board
}

// ParseEvent reads one line a server sent, with or without its
// terminator. It is tolerant where a client must be: trailing
// spaces and tabs are ignored, so "OK", "OK " and "NG" read as the Java
// server's "OK " and "NG "; "MOV:" and a board reads as MOV? (the NTPU
// manual's spelling); the board is read by [ParseBoard]. An empty line
// is [ErrEmptyLine]; an unknown line [ErrUnknownCommand]; a known message
// with a bad board [ErrMalformed].
func ParseEvent(line string) (Event, error) {
	line = lineio.TrimLine(strings.TrimSuffix(line, "\n"))
	switch line {
	case "":
		return Event{}, &tus.LineError{Line: line, Msg: "empty line", Err: tus.ErrEmptyLine}
	case "SET?":
		return Event{Kind: SetRequest}, nil
	case "OK":
		return Event{Kind: OK}, nil
	case "OKR":
		return Event{Kind: OK, Capture: geister.Red}, nil
	case "OKB":
		return Event{Kind: OK, Capture: geister.Blue}, nil
	case "NG":
		return Event{Kind: NG}, nil
	case "/exit":
		return Event{Kind: Exit}, nil
	}
	var k EventKind
	switch line[:min(4, len(line))] {
	case "MOV?", "MOV:":
		k = MoveRequest
	case "WON:":
		k = Won
	case "LST:":
		k = Lost
	case "DRW:":
		k = Draw
	default:
		return Event{}, &tus.LineError{Line: line, Msg: "unknown message", Err: tus.ErrUnknownCommand}
	}
	b, err := ParseBoard(line[4:])
	if err != nil {
		off := len(line)
		var se *geister.SyntaxError
		if errors.As(err, &se) {
			off = 4 + se.Offset
		}
		return Event{}, &tus.LineError{Line: line, Offset: off, Msg: "bad board: " + err.Error(), Err: tus.ErrMalformed}
	}
	return Event{Kind: k, Board: b}, nil
}

// AppendEvent appends the line for e, CRLF included, to b, byte for
// byte as the Java server writes it: "SET?", "OK " (with its space), "OKR",
// "OKB", "NG " (with its space), "MOV?", "WON:", "LST:" or "DRW:" and the
// board, or "/exit". An unknown kind appends nothing.
func AppendEvent(b []byte, e Event) []byte {
	switch e.Kind {
	case SetRequest:
		b = append(b, "SET?"...)
	case OK:
		switch e.Capture {
		case geister.Red:
			b = append(b, "OKR"...)
		case geister.Blue:
			b = append(b, "OKB"...)
		default:
			b = append(b, "OK "...)
		}
	case NG:
		b = append(b, "NG "...)
	case MoveRequest, Won, Lost, Draw:
		b = append(b, e.Kind.String()...)
		if e.Kind != MoveRequest {
			b = append(b, ':')
		}
		b = AppendBoard(b, e.Board)
	case Exit:
		b = append(b, "/exit"...)
	default:
		return b
	}
	return append(b, '\r', '\n')
}

// ViewerKind is the label of a Geister viewer state string.
type ViewerKind uint8

// The viewer's labels. The zero value is the state before any
// game event, sent as "null".
const (
	ViewerNull    ViewerKind = iota // "null": nothing has happened yet
	ViewerWaiting                   // MOV:: after a SET that does not start play, or after a NG that ends nothing
	ViewerToMove                    // MV0: or MV1:: Side was asked for a move
	ViewerWon                       // WI0: or WI1:: Side won
	ViewerDraw                      // DRW:: a draw by the ply limit
)

// ViewerState is one state string of the Java server's WebSocket
// viewer: a 4-character label and the board as the second player
// sees it with every colour shown, or "null" before any game event.
type ViewerState struct {
	Kind  ViewerKind    // the label
	Side  geister.Color // ToMove: the side to move; Won: the winner
	Board Board         // the second player's global view (none for Null)
}

// ParseViewerState reads a viewer state string: "null", or MOV:, MV0:,
// MV1:, WI0:, WI1: or DRW: and a 48-character board read by
// [ParseBoard]. Nothing may follow. An unknown label is
// [ErrUnknownCommand], a bad board [ErrMalformed].
func ParseViewerState(text string) (ViewerState, error) {
	if text == "null" {
		return ViewerState{}, nil
	}
	var st ViewerState
	switch text[:min(4, len(text))] {
	case "MOV:":
		st.Kind = ViewerWaiting
	case "MV0:", "MV1:":
		st.Kind, st.Side = ViewerToMove, geister.Color(text[2]-'0')
	case "WI0:", "WI1:":
		st.Kind, st.Side = ViewerWon, geister.Color(text[2]-'0')
	case "DRW:":
		st.Kind = ViewerDraw
	default:
		return ViewerState{}, &tus.LineError{Line: text, Msg: "unknown viewer label", Err: tus.ErrUnknownCommand}
	}
	b, err := ParseBoard(text[4:])
	if err != nil {
		off := len(text)
		var se *geister.SyntaxError
		if errors.As(err, &se) {
			off = 4 + se.Offset
		}
		return ViewerState{}, &tus.LineError{Line: text, Offset: off, Msg: "bad board: " + err.Error(), Err: tus.ErrMalformed}
	}
	st.Board = b
	return st, nil
}

// AppendViewerState appends the state string of st to b, without any
// terminator (it travels as one WebSocket text message). A Side that is not a
// valid colour is written as the first player.
func AppendViewerState(b []byte, st ViewerState) []byte {
	side := byte('0')
	if st.Side == geister.Second {
		side = '1'
	}
	switch st.Kind {
	case ViewerWaiting:
		b = append(b, "MOV:"...)
	case ViewerToMove:
		b = append(b, 'M', 'V', side, ':')
	case ViewerWon:
		b = append(b, 'W', 'I', side, ':')
	case ViewerDraw:
		b = append(b, "DRW:"...)
	default:
		return append(b, "null"...)
	}
	return AppendBoard(b, st.Board)
}

// String returns the state string of st.
func (st ViewerState) String() string {
	return string(AppendViewerState(make([]byte, 0, 4+geister.BoardLen), st))
}

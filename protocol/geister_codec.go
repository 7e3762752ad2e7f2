package protocol

import (
	"errors"
	"fmt"
	"strings"

	"github.com/botarena/botarena/geister"
)

// The Java geister server's protocol (spec §4) is line based: one message per
// line, each ending in CRLF. The parsers here take one line with or without
// its terminator (LF, CRLF, or none); the Append functions write one message
// and its CRLF, byte for byte as the Java server writes it ("OK " and "NG "
// keep their space). Moves and red sets are read by package geister's
// ParseMove and ParseReds; the board string has its own codec,
// [ParseGeisterBoard] and [AppendGeisterBoard].

// GeisterMaxLine is the longest line, terminator excluded, that the Geister
// client and host read (spec §8.2). Every real message is at most 52 bytes.
const GeisterMaxLine = 1024

// GeisterBoard is a board string (spec §3) decoded: the 16 triples "xyc" of
// the receiver's ghosts A-H and then the opponent's, each a square in the
// receiver's own frame and a colour. It holds the string's syntax only: two
// ghosts on one square, say, are for [GeisterBoard.View] and
// [GeisterBoard.Position] to refuse.
//
// The letter case of a colour is not kept: it follows from the square. The
// Java server writes the receiver's own ghosts on the board in upper case
// (R, B: secret) and every other ghost in lower case (r, b, u), and so does
// [AppendGeisterBoard].
type GeisterBoard struct {
	// Squares[0][g] is where the receiver's ghost g is, Squares[1][g] the
	// opponent's, in the receiver's frame: a board square, geister.Captured
	// ("99") or geister.Escaped ("88").
	Squares [2][8]geister.Square
	// Colors[i][g] is the colour the string shows for that ghost: Red, Blue,
	// or Unknown ('u').
	Colors [2][8]geister.GhostColor
}

// ParseGeisterBoard reads a 48-character board string (spec §3), checking its
// syntax only: each triple is two digits 0-5, "99" or "88", and a colour
// letter R, B, r, b or u. It is lenient in one way: an upper-case U reads as
// u, as the Java server's own parser does. A syntax error is a
// [*geister.SyntaxError].
func ParseGeisterBoard(text string) (GeisterBoard, error) {
	var b GeisterBoard
	// geister.ParseView checks the syntax before the meaning and reports
	// syntax errors alone, as *geister.SyntaxError.
	if _, err := geister.ParseView(text, geister.First, 0); err != nil {
		var se *geister.SyntaxError
		if errors.As(err, &se) {
			return GeisterBoard{}, se
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

// AppendGeisterBoard appends the 48 characters of b to dst as the Java server
// writes them: the receiver's ghosts on the board with R or B, every other
// ghost with r, b or u. A square that is neither a board square nor
// geister.Escaped is written "99" (captured).
func AppendGeisterBoard(dst []byte, b GeisterBoard) []byte {
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

// String returns the board string of b, as [AppendGeisterBoard] writes it.
func (b GeisterBoard) String() string {
	return string(AppendGeisterBoard(make([]byte, 0, geister.BoardLen), b))
}

// View returns what b shows to viewer at the given ply count, as read by
// [geister.ParseView]: b must be a MOV? board (or a result board, whose
// opponent colours on the board are then forgotten).
func (b GeisterBoard) View(viewer geister.Color, ply int) (geister.View, error) {
	return geister.ParseView(b.String(), viewer, ply)
}

// Position returns the position b shows to receiver at the given ply count,
// as read by [geister.ParseBoard]: every colour must be known, as in the Java
// server's WON:, LST: and DRW: boards and its viewer's strings.
func (b GeisterBoard) Position(receiver geister.Color, ply int) (geister.Position, error) {
	return geister.ParseBoard(b.String(), receiver, ply)
}

// GeisterViewBoard returns the board of v as its viewer receives it in MOV?:
// the opponent's ghosts on the board are Unknown. Its string is v.String().
func GeisterViewBoard(v geister.View) GeisterBoard {
	var b GeisterBoard
	for i, c := range [2]geister.Color{v.Viewer(), v.Viewer().Opponent()} {
		for g := geister.A; g <= geister.H; g++ {
			b.Squares[i][g] = v.Square(c, g)
			b.Colors[i][g] = v.GhostColor(c, g)
		}
	}
	return b
}

// GeisterResultBoard returns the board of p as receiver gets it in the Java
// server's WON:, LST: and DRW: messages: every colour shown, squares in the
// receiver's frame. Its string is p.Board(receiver). The viewer's strings use
// GeisterResultBoard(p, geister.Second).
func GeisterResultBoard(p geister.Position, receiver geister.Color) GeisterBoard {
	var b GeisterBoard
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
func geisterSetupBoard(reds [2]geister.Reds, set [2]bool, receiver geister.Color) GeisterBoard {
	s := geister.StartSetup(reds[0], reds[1])
	var b GeisterBoard
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

// GeisterCommandKind is the kind of a line a Geister client sends.
type GeisterCommandKind uint8

// The client's commands.
const (
	GeisterSet  GeisterCommandKind = iota + 1 // SET:<four red ghosts>
	GeisterMove                               // MOV:<ghost>,<direction>
)

// GeisterCommand is a line a Geister client sends to the server.
type GeisterCommand struct {
	Kind GeisterCommandKind // SET or MOV
	Reds geister.Reds       // SET: the red ghosts, four of them
	Move geister.Move       // MOV: the ghost and the direction, in the sender's frame
}

// ParseGeisterCommand reads one line a client sent, with or without its
// terminator, in our host's grammar (spec §4.3, §4.4): "SET:" and four
// distinct letters A-H, or "MOV:", a letter A-H, a comma and a direction
// (NORTH, EAST, WEST, SOUTH or N, E, W, S). Letters and directions may be in
// either case; the prefixes are upper case; nothing may come before or after,
// not even a space. An empty line is [ErrEmptyLine]; a line that is neither
// SET: nor MOV: is [ErrUnknownCommand]; a SET: or MOV: with bad arguments is
// [ErrMalformed]. It checks syntax only: whether the move is legal is the
// position's business.
func ParseGeisterCommand(line string) (GeisterCommand, error) {
	line = strings.TrimSuffix(strings.TrimSuffix(line, "\n"), "\r")
	bad := func(err error, msg string) (GeisterCommand, error) {
		off := len(line)
		var se *geister.SyntaxError
		if errors.As(err, &se) {
			off, msg = 4+se.Offset, se.Msg
		}
		return GeisterCommand{}, &LineError{Line: line, Offset: off, Msg: msg, Err: ErrMalformed}
	}
	switch prefix, rest := line[:min(4, len(line))], line[min(4, len(line)):]; {
	case line == "":
		return GeisterCommand{}, &LineError{Line: line, Msg: "empty line", Err: ErrEmptyLine}
	case prefix == "SET:":
		if len(rest) != 4 {
			return bad(nil, "a red set is 4 letters A-H")
		}
		r, err := geister.ParseReds(rest)
		if err != nil {
			return bad(err, "")
		}
		return GeisterCommand{Kind: GeisterSet, Reds: r}, nil
	case prefix == "MOV:":
		if len(rest) < 2 || rest[1] != ',' {
			// Also keeps geister.ParseMove from reading a second "MOV:".
			return bad(nil, "a move is a letter A-H, a comma and a direction")
		}
		m, err := geister.ParseMove(rest)
		if err != nil {
			return bad(err, "")
		}
		return GeisterCommand{Kind: GeisterMove, Move: m}, nil
	}
	return GeisterCommand{}, &LineError{Line: line, Msg: "unknown command: want SET: or MOV:", Err: ErrUnknownCommand}
}

// AppendGeisterCommand appends the line for c, CRLF included, to b: "SET:"
// and the red letters in ascending order, or "MOV:" and the move with the
// whole direction word ("MOV:A,NORTH"). A command with an invalid red set or
// move, or of an unknown kind, appends nothing.
func AppendGeisterCommand(b []byte, c GeisterCommand) []byte {
	switch c.Kind {
	case GeisterSet:
		if !c.Reds.Valid() {
			return b
		}
		b = append(b, "SET:"...)
		b, _ = c.Reds.AppendText(b)
	case GeisterMove:
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

// GeisterEventKind is the kind of a line a Geister server sends.
type GeisterEventKind uint8

// The server's messages.
const (
	GeisterSetRequest  GeisterEventKind = iota + 1 // SET?
	GeisterOK                                      // "OK ", OKR, OKB: a command accepted
	GeisterNG                                      // "NG ": a command refused
	GeisterMoveRequest                             // MOV?<board>: your move
	GeisterWon                                     // WON:<board>: you won
	GeisterLost                                    // LST:<board>: you lost
	GeisterDraw                                    // DRW:<board>: a draw by the ply limit
	GeisterExit                                    // /exit: the NTPU launcher's end of a program's run
)

// String returns the message's name as the wire writes it: "SET?", "OK",
// "NG", "MOV?", "WON", "LST", "DRW" or "/exit".
func (k GeisterEventKind) String() string {
	switch k {
	case GeisterSetRequest:
		return "SET?"
	case GeisterOK:
		return "OK"
	case GeisterNG:
		return "NG"
	case GeisterMoveRequest:
		return "MOV?"
	case GeisterWon:
		return "WON"
	case GeisterLost:
		return "LST"
	case GeisterDraw:
		return "DRW"
	case GeisterExit:
		return "/exit"
	}
	return fmt.Sprintf("GeisterEventKind(%d)", uint8(k))
}

// IsResult reports whether k is a result: WON, LST or DRW.
func (k GeisterEventKind) IsResult() bool {
	return k == GeisterWon || k == GeisterLost || k == GeisterDraw
}

// GeisterEvent is a line a Geister server sends to a client.
type GeisterEvent struct {
	Kind GeisterEventKind // which message
	// Capture is what the accepted move captured (OK): geister.Red for
	// OKR, geister.Blue for OKB, geister.Unknown for "OK " (nothing, or a
	// SET). The Java server may ack an escape with OKR or OKB (its defect
	// D7): a client should trust the next board, not the ack.
	Capture geister.GhostColor
	// Board is the board of MOV?, WON:, LST: and DRW:, in the receiver's
	// frame: its own view in MOV?, every colour shown in the results on the
	// Java server (the NTPU platform keeps u there).
	Board GeisterBoard
}

// ParseGeisterEvent reads one line a server sent, with or without its
// terminator. It is tolerant where a client must be (spec §4.13): trailing
// spaces and tabs are ignored, so "OK", "OK " and "NG" read as the Java
// server's "OK " and "NG "; "MOV:" and a board reads as MOV? (the NTPU
// manual's spelling); the board is read by [ParseGeisterBoard]. An empty line
// is [ErrEmptyLine]; an unknown line [ErrUnknownCommand]; a known message
// with a bad board [ErrMalformed].
func ParseGeisterEvent(line string) (GeisterEvent, error) {
	line = trimLine(strings.TrimSuffix(line, "\n"))
	switch line {
	case "":
		return GeisterEvent{}, &LineError{Line: line, Msg: "empty line", Err: ErrEmptyLine}
	case "SET?":
		return GeisterEvent{Kind: GeisterSetRequest}, nil
	case "OK":
		return GeisterEvent{Kind: GeisterOK}, nil
	case "OKR":
		return GeisterEvent{Kind: GeisterOK, Capture: geister.Red}, nil
	case "OKB":
		return GeisterEvent{Kind: GeisterOK, Capture: geister.Blue}, nil
	case "NG":
		return GeisterEvent{Kind: GeisterNG}, nil
	case "/exit":
		return GeisterEvent{Kind: GeisterExit}, nil
	}
	var k GeisterEventKind
	switch line[:min(4, len(line))] {
	case "MOV?", "MOV:":
		k = GeisterMoveRequest
	case "WON:":
		k = GeisterWon
	case "LST:":
		k = GeisterLost
	case "DRW:":
		k = GeisterDraw
	default:
		return GeisterEvent{}, &LineError{Line: line, Msg: "unknown message", Err: ErrUnknownCommand}
	}
	b, err := ParseGeisterBoard(line[4:])
	if err != nil {
		off := len(line)
		var se *geister.SyntaxError
		if errors.As(err, &se) {
			off = 4 + se.Offset
		}
		return GeisterEvent{}, &LineError{Line: line, Offset: off, Msg: "bad board: " + err.Error(), Err: ErrMalformed}
	}
	return GeisterEvent{Kind: k, Board: b}, nil
}

// AppendGeisterEvent appends the line for e, CRLF included, to b, byte for
// byte as the Java server writes it: "SET?", "OK " (with its space), "OKR",
// "OKB", "NG " (with its space), "MOV?", "WON:", "LST:" or "DRW:" and the
// board, or "/exit". An unknown kind appends nothing.
func AppendGeisterEvent(b []byte, e GeisterEvent) []byte {
	switch e.Kind {
	case GeisterSetRequest:
		b = append(b, "SET?"...)
	case GeisterOK:
		switch e.Capture {
		case geister.Red:
			b = append(b, "OKR"...)
		case geister.Blue:
			b = append(b, "OKB"...)
		default:
			b = append(b, "OK "...)
		}
	case GeisterNG:
		b = append(b, "NG "...)
	case GeisterMoveRequest, GeisterWon, GeisterLost, GeisterDraw:
		b = append(b, e.Kind.String()...)
		if e.Kind != GeisterMoveRequest {
			b = append(b, ':')
		}
		b = AppendGeisterBoard(b, e.Board)
	case GeisterExit:
		b = append(b, "/exit"...)
	default:
		return b
	}
	return append(b, '\r', '\n')
}

// GeisterViewerKind is the label of a Geister viewer state string.
type GeisterViewerKind uint8

// The viewer's labels (spec §4.10). The zero value is the state before any
// game event, sent as "null".
const (
	GeisterViewerNull    GeisterViewerKind = iota // "null": nothing has happened yet
	GeisterViewerWaiting                          // MOV:: after a SET that does not start play, or after a NG that ends nothing
	GeisterViewerToMove                           // MV0: or MV1:: Side was asked for a move
	GeisterViewerWon                              // WI0: or WI1:: Side won
	GeisterViewerDraw                             // DRW:: a draw by the ply limit
)

// GeisterViewerState is one state string of the Java server's WebSocket
// viewer (spec §4.10): a 4-character label and the board as the second player
// sees it with every colour shown, or "null" before any game event.
type GeisterViewerState struct {
	Kind  GeisterViewerKind // the label
	Side  geister.Color     // ToMove: the side to move; Won: the winner
	Board GeisterBoard      // the second player's global view (none for Null)
}

// ParseGeisterViewerState reads a viewer state string: "null", or MOV:, MV0:,
// MV1:, WI0:, WI1: or DRW: and a 48-character board read by
// [ParseGeisterBoard]. Nothing may follow. An unknown label is
// [ErrUnknownCommand], a bad board [ErrMalformed].
func ParseGeisterViewerState(text string) (GeisterViewerState, error) {
	if text == "null" {
		return GeisterViewerState{}, nil
	}
	var st GeisterViewerState
	switch text[:min(4, len(text))] {
	case "MOV:":
		st.Kind = GeisterViewerWaiting
	case "MV0:", "MV1:":
		st.Kind, st.Side = GeisterViewerToMove, geister.Color(text[2]-'0')
	case "WI0:", "WI1:":
		st.Kind, st.Side = GeisterViewerWon, geister.Color(text[2]-'0')
	case "DRW:":
		st.Kind = GeisterViewerDraw
	default:
		return GeisterViewerState{}, &LineError{Line: text, Msg: "unknown viewer label", Err: ErrUnknownCommand}
	}
	b, err := ParseGeisterBoard(text[4:])
	if err != nil {
		off := len(text)
		var se *geister.SyntaxError
		if errors.As(err, &se) {
			off = 4 + se.Offset
		}
		return GeisterViewerState{}, &LineError{Line: text, Offset: off, Msg: "bad board: " + err.Error(), Err: ErrMalformed}
	}
	st.Board = b
	return st, nil
}

// AppendGeisterViewerState appends the state string of st to b, without any
// terminator (it travels as one WebSocket text message). A Side that is not a
// valid colour is written as the first player.
func AppendGeisterViewerState(b []byte, st GeisterViewerState) []byte {
	side := byte('0')
	if st.Side == geister.Second {
		side = '1'
	}
	switch st.Kind {
	case GeisterViewerWaiting:
		b = append(b, "MOV:"...)
	case GeisterViewerToMove:
		b = append(b, 'M', 'V', side, ':')
	case GeisterViewerWon:
		b = append(b, 'W', 'I', side, ':')
	case GeisterViewerDraw:
		b = append(b, "DRW:"...)
	default:
		return append(b, "null"...)
	}
	return AppendGeisterBoard(b, st.Board)
}

// String returns the state string of st.
func (st GeisterViewerState) String() string {
	return string(AppendGeisterViewerState(make([]byte, 0, 4+geister.BoardLen), st))
}

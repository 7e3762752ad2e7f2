package cdcsocket

import (
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/botarena/botarena/darkchess"
	"github.com/botarena/botarena/protocol/tus"
)

// The legacy socket protocol of the 2013-2019 dark chess platform:
// the platform (the GUI client, or a host) listens on 127.0.0.1, starts the
// engine as "search 127.0.0.1 <port>", and the two exchange framed messages.
//
// A frame is two length bytes, len%128 then len/128 (a 7-bit little-endian
// length), and the payload: ASCII, no NUL, no terminator. Readers here are
// lenient in these ways only, each documented where it applies: runs of
// spaces or tabs separate fields, blanks around numbers and at the end of a
// payload are ignored, and so is one trailing NUL (a C string sent with its
// terminator). Writers produce the platform's exact bytes.

// FrameMax is the longest payload a legacy socket frame carries:
// 16,383 bytes, both length bytes below 128. Senders refuse longer payloads;
// readers refuse frames whose length bytes are not below 128.
const FrameMax = 16383

// ErrFrame is a frame whose length bytes are not below 128 (a
// length the platform never writes): the stream is garbage from there on.
var ErrFrame = errors.New("cdcsocket: malformed dark chess frame")

// AppendFrame appends payload framed as the legacy socket protocol
// frames it: two length bytes, then the payload. It refuses a payload longer
// than [FrameMax].
func AppendFrame(b, payload []byte) ([]byte, error) {
	if len(payload) > FrameMax {
		return b, fmt.Errorf("cdcsocket: dark chess payload of %d bytes, over %d", len(payload), FrameMax)
	}
	b = append(b, byte(len(payload)%128), byte(len(payload)/128))
	return append(b, payload...), nil
}

// ParseFrame splits the first frame off data: its payload and the
// bytes after it. Incomplete data is [io.ErrUnexpectedEOF] (io.EOF when data
// is empty); length bytes of 128 or more are [ErrFrame].
func ParseFrame(data []byte) (payload, rest []byte, err error) {
	if len(data) == 0 {
		return nil, data, io.EOF
	}
	if len(data) < 2 {
		return nil, data, io.ErrUnexpectedEOF
	}
	n, err := darkChessFrameLen(data[0], data[1])
	if err != nil {
		return nil, data, err
	}
	if len(data)-2 < n {
		return nil, data, io.ErrUnexpectedEOF
	}
	return data[2 : 2+n], data[2+n:], nil
}

func darkChessFrameLen(b0, b1 byte) (int, error) {
	if b0 >= 128 || b1 >= 128 {
		return 0, fmt.Errorf("%w: length bytes %#02x %#02x", ErrFrame, b0, b1)
	}
	return int(b0) + 128*int(b1), nil
}

// ReadFrame reads one frame from r and returns its payload, in buf's
// storage when it has room (pass buf[:0] to reuse it). A stream that ends
// before the first length byte is io.EOF; one that ends inside a frame is
// [io.ErrUnexpectedEOF]; bad length bytes are [ErrFrame].
func ReadFrame(r io.Reader, buf []byte) ([]byte, error) {
	var hdr [2]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil {
		return nil, err
	}
	n, err := darkChessFrameLen(hdr[0], hdr[1])
	if err != nil {
		return nil, err
	}
	if cap(buf) < n {
		buf = make([]byte, n)
	}
	buf = buf[:n]
	if _, err := io.ReadFull(r, buf); err != nil {
		if errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF
		}
		return nil, err
	}
	return buf, nil
}

// MessageKind is the kind of a legacy socket message.
type MessageKind uint8

// The messages. P is the platform, E the engine.
const (
	// StartMsg (P→E) "/start_<fields>" opens a game: the position,
	// the alive counts, the history and the engine's time ([Init]).
	StartMsg MessageKind = iota + 1
	// StartAck (E→P) "/start" acknowledges it.
	StartAck
	// TurnMsg (P→E) "/turn <t> <c>" says whether the engine moves
	// first (t = 1) and its colour (c: 0 red, 1 black, 2 unknown).
	TurnMsg
	// TurnAck (E→P) "/turn" acknowledges it.
	TurnAck
	// PlyMsg (E→P) "/move <sx> <sy> <dx> <dy>" or "/flip <x> <y>"
	// is the engine's ply (x is the file 0..3, y the rank minus one).
	PlyMsg
	// PlyReport (P→E) "/move <sx> <sy> <dx> <dy> <ms>" or
	// "/flip <x> <y> <fin> <ms>" reports a ply of either player (the echo of
	// the engine's own included), a flip with the piece code it revealed,
	// and the receiving engine's remaining time in milliseconds.
	PlyReport
	// AskAction (P→E) "/askAction": your turn, in a client mode
	// the course never used. Hosts here never send it.
	AskAction
	// ColorMsg (P→E) "/color <c>": the engine's colour, in that
	// same mode. Hosts here never send it.
	ColorMsg
)

// String returns the message's name ("start", "start ack", ...).
func (k MessageKind) String() string {
	switch k {
	case StartMsg:
		return "start"
	case StartAck:
		return "start ack"
	case TurnMsg:
		return "turn"
	case TurnAck:
		return "turn ack"
	case PlyMsg:
		return "ply"
	case PlyReport:
		return "ply report"
	case AskAction:
		return "askAction"
	case ColorMsg:
		return "color"
	}
	return fmt.Sprintf("MessageKind(%d)", uint8(k))
}

// Message is one legacy socket message: the payload of a frame.
// Which fields are used depends on Kind.
type Message struct {
	// Kind says which message it is, and so which fields are used.
	Kind MessageKind
	// Init is the content of a StartMsg.
	Init Init
	// First is a TurnMsg's t: the engine moves first.
	First bool
	// Color is the colour of a TurnMsg or ColorMsg
	// (NoColor for the code 2, unknown).
	Color darkchess.Color
	// Move is the ply of a PlyMsg (From == To for a flip).
	Move darkchess.Move
	// Ply is the ply of a PlyReport, a flip with the piece it
	// revealed.
	Ply darkchess.Ply
	// Time is a PlyReport's remaining time of the receiving engine,
	// in whole milliseconds.
	Time time.Duration
}

// Init is the content of "/start_": what the manual's
// init_board fills in.
type Init struct {
	// Board is the current position, indexed by Square (the socket index, a1
	// first): pieces, Hidden for face-down squares, NoPiece for empty ones.
	Board [32]darkchess.Piece
	// Alive counts the pieces of each kind still in the game, revealed or
	// face-down, indexed by Piece (RedKing..BlackPawn; the NoPiece and
	// Hidden entries are 0). The wire order is K G M R N C P k g m r n c p.
	Alive [16]int
	// History holds the plies played so far, oldest first: flips with their
	// piece, moves and captures with none.
	History []darkchess.Ply
	// Time is the receiving engine's remaining time, in whole milliseconds.
	Time time.Duration
}

// darkChessPieceOrder is the wire order of the alive counts.
var darkChessPieceOrder = [14]darkchess.Piece{
	darkchess.RedKing, darkchess.RedGuard, darkchess.RedMinister, darkchess.RedRook,
	darkchess.RedKnight, darkchess.RedCannon, darkchess.RedPawn,
	darkchess.BlackKing, darkchess.BlackGuard, darkchess.BlackMinister, darkchess.BlackRook,
	darkchess.BlackKnight, darkchess.BlackCannon, darkchess.BlackPawn,
}

// darkChessMaxMillis bounds the times read, so that they fit a Duration.
const darkChessMaxMillis = math.MaxInt64 / int64(time.Millisecond)

// ParseMessage reads the payload of one frame. The direction
// follows from the arguments: "/move" with four numbers is an engine's ply
// and with five a report, "/flip" with two an engine's ply and with four a
// report. Besides the leniencies of the package (blanks, one trailing NUL), it
// reads "/turn" by its two numbers as the manual's client does. A payload that
// is not a message of the protocol is [ErrUnknownCommand] (clients ignore
// those), a known one with bad arguments [ErrMalformed], an empty one
// [ErrEmptyLine]; all come wrapped in a [*LineError].
func ParseMessage(payload []byte) (Message, error) {
	s := string(payload)
	s = strings.TrimSuffix(s, "\x00")
	s = strings.TrimRight(s, " \t\r\n")
	bad := func(off int, format string, args ...any) (Message, error) {
		return Message{}, &tus.LineError{Line: s, Offset: off, Msg: fmt.Sprintf(format, args...), Err: tus.ErrMalformed}
	}
	if s == "" {
		return Message{}, &tus.LineError{Line: s, Msg: "empty payload", Err: tus.ErrEmptyLine}
	}
	if rest, ok := strings.CutPrefix(s, "/start_"); ok {
		in, off, msg := parseDarkChessInit(rest)
		if msg != "" {
			return bad(len("/start_")+off, "%s", msg)
		}
		return Message{Kind: StartMsg, Init: in}, nil
	}
	word, rest, _ := strings.Cut(s, " ")
	if i := strings.IndexByte(word, '\t'); i >= 0 {
		word, rest = s[:i], s[i+1:]
	}
	fields, offs := darkChessFields(rest, len(word)+1)
	nums := make([]int64, len(fields))
	for i, f := range fields {
		v, err := strconv.ParseInt(f, 10, 64)
		if err != nil || f[0] == '+' {
			if word == "/move" || word == "/flip" || word == "/turn" || word == "/color" {
				return bad(offs[i], "%s argument %q is not a decimal integer", word, f)
			}
			break
		}
		nums[i] = v
	}
	arity := func(n ...int) bool { return slices.Contains(n, len(fields)) }
	switch word {
	case "/start":
		if len(fields) != 0 {
			return bad(len(word), "/start takes no arguments")
		}
		return Message{Kind: StartAck}, nil
	case "/askAction":
		if len(fields) != 0 {
			return bad(len(word), "/askAction takes no arguments")
		}
		return Message{Kind: AskAction}, nil
	case "/turn":
		switch {
		case len(fields) == 0:
			return Message{Kind: TurnAck}, nil
		case len(fields) != 2:
			return bad(len(word), "/turn takes two numbers: /turn <first 0|1> <colour 0|1|2>")
		case nums[0] != 0 && nums[0] != 1:
			return bad(offs[0], "/turn first %d is not 0 or 1", nums[0])
		case nums[1] < 0 || nums[1] > 2:
			return bad(offs[1], "/turn colour %d is not 0, 1 or 2", nums[1])
		}
		return Message{Kind: TurnMsg, First: nums[0] == 1, Color: darkchess.Color(nums[1])}, nil
	case "/color":
		switch {
		case len(fields) != 1:
			return bad(len(word), "/color takes one number")
		case nums[0] < 0 || nums[0] > 2:
			return bad(offs[0], "/color colour %d is not 0, 1 or 2", nums[0])
		}
		return Message{Kind: ColorMsg, Color: darkchess.Color(nums[0])}, nil
	case "/move", "/flip":
		flip := word == "/flip"
		if flip && !arity(2, 4) || !flip && !arity(4, 5) {
			if flip {
				return bad(len(word), "/flip takes 2 numbers (x y) or 4 (x y fin ms)")
			}
			return bad(len(word), "/move takes 4 numbers (sx sy dx dy) or 5 (sx sy dx dy ms)")
		}
		sq := func(i int) (darkchess.Square, bool) {
			s := darkchess.SquareAt(int(max(min(nums[i], 99), -1)), int(max(min(nums[i+1], 99), -1)))
			return s, s != darkchess.NoSquare
		}
		from, ok := sq(0)
		if !ok {
			return bad(offs[0], "%s square (%d, %d) is off the board", word, nums[0], nums[1])
		}
		to := from
		if !flip {
			if to, ok = sq(2); !ok {
				return bad(offs[2], "/move square (%d, %d) is off the board", nums[2], nums[3])
			}
			if to == from {
				return bad(offs[2], "/move from a square to itself")
			}
		}
		m := darkchess.NewMove(from, to)
		if flip && len(fields) == 2 || !flip && len(fields) == 4 {
			return Message{Kind: PlyMsg, Move: m}, nil
		}
		ply := darkchess.Ply{Move: m}
		if flip {
			ply.Piece = darkchess.Piece(max(min(nums[2], 99), 0))
			if nums[2] < 0 || !ply.Piece.Valid() {
				return bad(offs[2], "/flip piece code %d is not one of 1..7, 9..15", nums[2])
			}
		}
		ms := nums[len(nums)-1]
		if ms > darkChessMaxMillis || ms < -darkChessMaxMillis {
			return bad(offs[len(offs)-1], "time %d ms out of range", ms)
		}
		return Message{Kind: PlyReport, Ply: ply, Time: time.Duration(ms) * time.Millisecond}, nil
	}
	return Message{}, &tus.LineError{Line: s, Msg: fmt.Sprintf("unknown message %q", word), Err: tus.ErrUnknownCommand}
}

// darkChessFields splits s on runs of spaces and tabs, with each field's
// offset (base is s's offset in the payload).
func darkChessFields(s string, base int) ([]string, []int) {
	var fields []string
	var offs []int
	for i := 0; i < len(s); {
		if s[i] == ' ' || s[i] == '\t' {
			i++
			continue
		}
		j := i
		for j < len(s) && s[j] != ' ' && s[j] != '\t' {
			j++
		}
		fields = append(fields, s[i:j])
		offs = append(offs, base+i)
		i = j
	}
	return fields, offs
}

// parseDarkChessInit reads the fields after "/start_". On error it returns
// the offset in s and a message.
func parseDarkChessInit(s string) (in Init, off int, msg string) {
	var fields []string
	var offs []int
	for i := 0; ; {
		j := strings.IndexByte(s[i:], ',')
		if j < 0 {
			fields, offs = append(fields, s[i:]), append(offs, i)
			break
		}
		fields, offs = append(fields, s[i:i+j]), append(offs, i)
		i += j + 1
	}
	num := func(i int, lo, hi int64) (int64, string) {
		f := strings.Trim(fields[i], " \t")
		v, err := strconv.ParseInt(f, 10, 64)
		if err != nil || f == "" || f[0] == '+' {
			return 0, fmt.Sprintf("field %d %q is not a decimal integer", i, fields[i])
		}
		if v < lo || v > hi {
			return 0, fmt.Sprintf("field %d is %d, not in %d..%d", i, v, lo, hi)
		}
		return v, ""
	}
	const head = 32 + 14 + 1 // board, counts, N
	if len(fields) < head+1 {
		return in, len(s), fmt.Sprintf("/start_ has %d fields, want at least %d", len(fields), head+1)
	}
	for i := range 32 {
		v, m := num(i, 0, 15)
		if m != "" {
			return in, offs[i], m
		}
		in.Board[i] = darkchess.Piece(v)
	}
	for j, pc := range darkChessPieceOrder {
		v, m := num(32+j, 0, int64(pc.Kind().InitialCount()))
		if m != "" {
			return in, offs[32+j], m
		}
		in.Alive[pc] = int(v)
	}
	n, m := num(46, 0, int64(len(fields)-head-1))
	if m != "" {
		return in, offs[46], m
	}
	if int(n) != len(fields)-head-1 {
		return in, offs[46], fmt.Sprintf("/start_ says %d history plies but has %d", n, len(fields)-head-1)
	}
	if n > 0 {
		in.History = make([]darkchess.Ply, n)
	}
	for k := range int(n) {
		f := fields[head+k]
		sep := strings.IndexAny(f, "-_")
		if sep < 0 {
			return in, offs[head+k], fmt.Sprintf("history ply %d %q is neither a-b nor s_p", k, f)
		}
		parts := []string{f[:sep], f[sep+1:]}
		var v [2]int64
		for p, part := range parts {
			t := strings.Trim(part, " \t")
			x, err := strconv.ParseInt(t, 10, 64)
			if err != nil || t == "" || t[0] == '+' || t[0] == '-' {
				return in, offs[head+k], fmt.Sprintf("history ply %d %q: %q is not a number", k, f, part)
			}
			v[p] = min(x, 99)
		}
		if v[0] > 31 {
			return in, offs[head+k], fmt.Sprintf("history ply %d %q: square %d is not 0..31", k, f, v[0])
		}
		from := darkchess.Square(v[0])
		if f[sep] == '_' {
			pc := darkchess.Piece(v[1])
			if !pc.Valid() {
				return in, offs[head+k], fmt.Sprintf("history flip %d %q: piece code %d is not 1..7, 9..15", k, f, v[1])
			}
			in.History[k] = darkchess.Ply{Move: darkchess.Flip(from), Piece: pc}
			continue
		}
		if v[1] > 31 || v[1] == v[0] {
			return in, offs[head+k], fmt.Sprintf("history move %d %q: bad destination %d", k, f, v[1])
		}
		in.History[k] = darkchess.Ply{Move: darkchess.NewMove(from, darkchess.Square(v[1]))}
	}
	last := len(fields) - 1
	ms, m := num(last, -darkChessMaxMillis, darkChessMaxMillis)
	if m != "" {
		return in, offs[last], m
	}
	in.Time = time.Duration(ms) * time.Millisecond
	return in, 0, ""
}

// AppendMessage appends m's payload, byte for byte as the platform
// writes it, to b (frame it with [AppendFrame]). It fails, leaving b
// as it was, for a message it cannot write: an unknown kind, a square off the
// board, a flip report without a piece, an invalid colour, a start whose
// board or counts hold codes out of range.
func AppendMessage(b []byte, m Message) ([]byte, error) {
	orig := b
	fail := func(format string, args ...any) ([]byte, error) {
		return orig, fmt.Errorf("cdcsocket: cannot write dark chess %s message: %s", m.Kind, fmt.Sprintf(format, args...))
	}
	xy := func(b []byte, s darkchess.Square) []byte {
		b = strconv.AppendInt(b, int64(s.X()), 10)
		b = append(b, ' ')
		return strconv.AppendInt(b, int64(s.Y()), 10)
	}
	switch m.Kind {
	case StartMsg:
		var err error
		if b, err = appendDarkChessInit(b, m.Init); err != nil {
			return fail("%v", err)
		}
	case StartAck:
		b = append(b, "/start"...)
	case TurnMsg:
		if m.Color > darkchess.NoColor {
			return fail("colour %d", m.Color)
		}
		t := byte('0')
		if m.First {
			t = '1'
		}
		b = append(b, "/turn "...)
		b = append(b, t, ' ', '0'+byte(m.Color))
	case TurnAck:
		b = append(b, "/turn"...)
	case ColorMsg:
		if m.Color > darkchess.NoColor {
			return fail("colour %d", m.Color)
		}
		b = append(b, "/color "...)
		b = append(b, '0'+byte(m.Color))
	case AskAction:
		b = append(b, "/askAction"...)
	case PlyMsg:
		if !m.Move.Valid() {
			return fail("move %v", m.Move)
		}
		if m.Move.IsFlip() {
			b = xy(append(b, "/flip "...), m.Move.From())
		} else {
			b = xy(append(b, "/move "...), m.Move.From())
			b = xy(append(b, ' '), m.Move.To())
		}
	case PlyReport:
		p := m.Ply
		switch {
		case !p.Move.Valid():
			return fail("move %v", p.Move)
		case p.Move.IsFlip() && !p.Piece.Valid():
			return fail("flip of %v without the piece it revealed", p.Move.From())
		case !p.Move.IsFlip() && p.Piece != darkchess.NoPiece:
			return fail("move %v naming a piece", p.Move)
		}
		if p.Move.IsFlip() {
			b = xy(append(b, "/flip "...), p.Move.From())
			b = strconv.AppendInt(append(b, ' '), int64(p.Piece), 10)
		} else {
			b = xy(append(b, "/move "...), p.Move.From())
			b = xy(append(b, ' '), p.Move.To())
		}
		b = strconv.AppendInt(append(b, ' '), m.Time.Milliseconds(), 10)
	default:
		return fail("unknown kind")
	}
	return b, nil
}

// appendDarkChessInit writes "/start_..." as the platform's SendInitBoard
// does: "%d," for the 32 squares and the 14 counts, the count of plies, each
// ply as ",%2d-%2d" or ",%2d_%2d", then ",%d" for the time.
func appendDarkChessInit(b []byte, in Init) ([]byte, error) {
	b = append(b, "/start_"...)
	for i, pc := range in.Board {
		if pc > darkchess.BlackPawn {
			return nil, fmt.Errorf("square %d holds code %d", i, pc)
		}
		b = strconv.AppendInt(b, int64(pc), 10)
		b = append(b, ',')
	}
	for i, n := range in.Alive {
		pc := darkchess.Piece(i)
		if n < 0 || n > pc.Kind().InitialCount() || (!pc.Valid() && n != 0) {
			return nil, fmt.Errorf("%d alive of piece code %d", n, i)
		}
	}
	for _, pc := range darkChessPieceOrder {
		b = strconv.AppendInt(b, int64(in.Alive[pc]), 10)
		b = append(b, ',')
	}
	b = strconv.AppendInt(b, int64(len(in.History)), 10)
	pad := func(b []byte, v int) []byte {
		if v < 10 {
			b = append(b, ' ')
		}
		return strconv.AppendInt(b, int64(v), 10)
	}
	for i, p := range in.History {
		if !p.Valid() {
			return nil, fmt.Errorf("history ply %d %v", i, p)
		}
		b = pad(append(b, ','), int(p.Move.From()))
		if p.Move.IsFlip() {
			b = pad(append(b, '_'), int(p.Piece))
		} else {
			b = pad(append(b, '-'), int(p.Move.To()))
		}
	}
	b = append(b, ',')
	return strconv.AppendInt(b, in.Time.Milliseconds(), 10), nil
}

// NewInit returns the "/start_" content for an engine that is to
// resume the game of v (the position, with v.History the plies that led to
// it from the opening) with the remaining time left.
func NewInit(v darkchess.View, left time.Duration) Init {
	in := Init{History: slices.Clone(v.History), Time: left}
	for s := darkchess.A1; s <= darkchess.D8; s++ {
		pc := v.At(s)
		in.Board[s] = pc
		if pc.Valid() {
			in.Alive[pc]++
		}
	}
	for _, pc := range darkChessPieceOrder {
		in.Alive[pc] += v.Pool(pc)
	}
	return in
}

// View returns the position that in describes, seen by an engine that moves
// first or not, of colour c ([darkchess.NoColor] if unknown), as the SDK
// client rebuilds it:
//
//   - An unknown colour is learnt from the history's first flip, which gives
//     the first player its colour.
//   - The side to move follows from first and the parity of the history: the
//     first player moves after an even number of plies.
//   - When the history replays from the opening to exactly in's board and
//     counts, the view is that replay, with its no-capture-no-flip counter.
//     Otherwise it is built from the board, the face-down pool being the
//     alive counts minus the revealed pieces, with the counter at 0 and the
//     history as given (a mid-game start, whose history does not begin at
//     the opening).
//   - A board that makes no position with the counts (as the manual's resumed
//     example, whose b7 is still face-down after b7-b8) gives way to a
//     replay that agrees with the counts.
//
// The view's TimeLeft holds in.Time for c, when c is known. It fails when
// the board and counts do not make a position.
func (in Init) View(first bool, c darkchess.Color) (darkchess.View, error) {
	if !c.Valid() {
		c = darkchess.NoColor
		for _, p := range in.History {
			if p.Move.IsFlip() && p.Piece.Valid() {
				c = p.Piece.Color()
				if !first {
					c = c.Opponent()
				}
				break
			}
		}
	}
	turn := darkchess.NoColor
	if c.Valid() {
		turn = c
		if (len(in.History)%2 == 0) != first {
			turn = c.Opponent()
		}
	}
	v := darkchess.Opening.View(darkchess.NoColor)
	replayed := true
	for _, p := range in.History {
		var err error
		if v, err = v.Play(p); err != nil {
			replayed = false
			break
		}
	}
	replay := func() darkchess.View {
		w := v.Position().View(c)
		w.History = v.History
		w.TimeLeft = in.timeLeft(c)
		return w
	}
	replayed = replayed && v.Turn() == turn
	boardOK, countsOK := in.matches(v)
	if replayed && boardOK && countsOK {
		return replay(), nil
	}
	var s darkchess.Setup
	s.Board = in.Board
	for _, pc := range darkChessPieceOrder {
		s.Pool[pc] = in.Alive[pc]
	}
	for _, pc := range in.Board {
		if pc.Valid() {
			s.Pool[pc]--
		}
	}
	s.Turn = turn
	p, err := darkchess.NewPosition(s)
	if err != nil {
		if replayed && countsOK {
			return replay(), nil
		}
		return darkchess.View{}, fmt.Errorf("cdcsocket: dark chess /start_ does not describe a position: %w", err)
	}
	w := p.View(c)
	w.History = slices.Clone(in.History)
	w.TimeLeft = in.timeLeft(c)
	return w, nil
}

// matches reports whether v shows in's board, and in's alive counts.
func (in Init) matches(v darkchess.View) (board, counts bool) {
	var alive [16]int
	board = true
	for s := darkchess.A1; s <= darkchess.D8; s++ {
		pc := v.At(s)
		board = board && pc == in.Board[s]
		if pc.Valid() {
			alive[pc]++
		}
	}
	for _, pc := range darkChessPieceOrder {
		alive[pc] += v.Pool(pc)
	}
	return board, alive == in.Alive
}

func (in Init) timeLeft(c darkchess.Color) [2]time.Duration {
	var t [2]time.Duration
	if c.Valid() {
		t[c] = in.Time
	}
	return t
}

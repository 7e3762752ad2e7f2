package mgtp

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/botarena/botarena/darkchess"
)

// MaxLine is the longest line, terminator excluded, that the engine and the
// host read (64 KiB). A longer line from an engine is dropped as
// noise; a longer command is ignored by the engine side.
const MaxLine = 64 << 10

// ID is a command's fixed index, on which engines dispatch.
type ID int

// The commands, by id.
const (
	CmdProtocolVersion ID = 0  // protocol_version: answered 1.1.0
	CmdName            ID = 1  // name: the engine's name
	CmdVersion         ID = 2  // version: the engine's version
	CmdKnownCommand    ID = 3  // known_command <name>: true or false
	CmdListCommands    ID = 4  // list_commands: the names, one per line
	CmdQuit            ID = 5  // quit: answer, then exit
	CmdBoardsize       ID = 6  // boardsize <w> <h>
	CmdResetBoard      ID = 7  // reset_board: a new game, all face-down
	CmdNumRepetition   ID = 8  // num_repetition <R>
	CmdNumMovesToDraw  ID = 9  // num_moves_to_draw <N>
	CmdMove            ID = 10 // move <src> <dst>: a move or capture, by either player
	CmdFlip            ID = 11 // flip <sq> <piece>: a flip and what it revealed
	CmdGenmove         ID = 12 // genmove red|black|unknown: the engine's ply, "<src> <dst>"
	CmdGameOver        ID = 13 // game_over <result>
	CmdReady           ID = 14 // ready
	CmdTimeSetting     ID = 15 // time_setting <ms> (templates: time_settings)
	CmdTimeLeft        ID = 16 // time_left red|black <ms>
	CmdShowboard       ID = 17 // showboard
	CmdInitBoard       ID = 18 // init_board <32 letters, top-first> <14 counts>
)

// NumCommands is the number of commands, ids 0 to NumCommands-1.
const NumCommands = 19

// commandNames are the names the 2021 host writes (time_setting) and, for
// the ids it never sends, the templates' names.
var commandNames = [NumCommands]string{
	"protocol_version", "name", "version", "known_command", "list_commands", "quit",
	"boardsize", "reset_board", "num_repetition", "num_moves_to_draw", "move", "flip",
	"genmove", "game_over", "ready", "time_setting", "time_left", "showboard", "init_board",
}

// String returns the command's name as the 2021 host writes it
// ("time_setting" for 15), or "ID(n)" for an id out of range.
func (id ID) String() string {
	if id >= 0 && id < NumCommands {
		return commandNames[id]
	}
	return "ID(" + strconv.Itoa(int(id)) + ")"
}

// Valid reports whether id is one of the 19 commands.
func (id ID) Valid() bool { return id >= 0 && id < NumCommands }

// Errors of the parsers, to test with [errors.Is]. They come wrapped in a
// [*SyntaxError].
var (
	// ErrSyntax is a line that is not a command or a reply, or a command
	// whose arguments do not fit it.
	ErrSyntax = errors.New("mgtp: syntax error")
	// ErrResign is the answer "a0 a0" to genmove: the engine resigns (the
	// 2024 template's resign move).
	ErrResign = errors.New("mgtp: the engine resigns (a0 a0)")
)

// SyntaxError reports a line, or an argument, that could not be read.
type SyntaxError struct {
	Line   string // the line (or argument text) read
	Offset int    // byte offset in Line where the problem is
	Msg    string // what is wrong
}

// Error names the problem, its offset and the line.
func (e *SyntaxError) Error() string {
	return fmt.Sprintf("mgtp: %s at offset %d of %q", e.Msg, e.Offset, e.Line)
}

// Unwrap returns ErrSyntax.
func (e *SyntaxError) Unwrap() error { return ErrSyntax }

// trimLine strips one LF, one CR before it, and trailing blanks.
func trimLine(line string) string {
	line = strings.TrimSuffix(line, "\n")
	line = strings.TrimSuffix(line, "\r")
	return strings.TrimRight(line, " \t\r")
}

// fields splits s on runs of spaces and tabs, with each field's offset.
func fields(s string) ([]string, []int) {
	var fs []string
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
		fs = append(fs, s[i:j])
		offs = append(offs, i)
		i = j
	}
	return fs, offs
}

// parseID reads a decimal id of at most 9 digits, no sign.
func parseID(s string) (ID, bool) {
	if s == "" || len(s) > 9 || strings.Trim(s, "0123456789") != "" {
		return 0, false
	}
	n, err := strconv.Atoi(s)
	return ID(n), err == nil
}

// Command is one command line: its id, its name as written, and its
// arguments.
type Command struct {
	ID   ID       // the command's index, on which engines dispatch
	Name string   // as sent; engines ignore it
	Args []string // the arguments, split on blanks
}

// NewCommand returns the command id with its canonical name and args.
func NewCommand(id ID, args ...string) Command {
	return Command{ID: id, Name: id.String(), Args: args}
}

// ParseCommand reads one command line, with or without its terminator. The
// id is a decimal number of at most 9 digits without a sign; any id is
// accepted (an engine answers an unknown one with "?<id>"). The name may
// be missing.
func ParseCommand(line string) (Command, error) {
	line = trimLine(line)
	fs, offs := fields(line)
	if len(fs) == 0 {
		return Command{}, &SyntaxError{Line: line, Msg: "empty line"}
	}
	if offs[0] != 0 {
		return Command{}, &SyntaxError{Line: line, Msg: "line starts with a blank"}
	}
	id, ok := parseID(fs[0])
	if !ok {
		return Command{}, &SyntaxError{Line: line, Msg: fmt.Sprintf("command id %q is not a number", fs[0])}
	}
	c := Command{ID: id}
	if len(fs) > 1 {
		c.Name = fs[1]
	}
	if len(fs) > 2 {
		c.Args = fs[2:]
	}
	return c, nil
}

// AppendCommand appends c's line, LF included, to b: the id, the name and
// the arguments separated by single spaces. A command without a name is
// written with the id's canonical name.
func AppendCommand(b []byte, c Command) []byte {
	b = strconv.AppendInt(b, int64(c.ID), 10)
	name := c.Name
	if name == "" {
		name = c.ID.String()
	}
	b = append(append(b, ' '), name...)
	for _, a := range c.Args {
		b = append(append(b, ' '), a...)
	}
	return append(b, '\n')
}

// String returns c's line without its LF.
func (c Command) String() string {
	b := AppendCommand(nil, c)
	return string(b[:len(b)-1])
}

// PlyCommand returns the command that reports ply to an engine: "10 move
// <src> <dst>" or "11 flip <sq> <piece>". A flip must name its piece.
func PlyCommand(p darkchess.Ply) (Command, error) {
	switch {
	case !p.Valid() || p.Move.IsFlip() && !p.Piece.Valid():
		return Command{}, fmt.Errorf("mgtp: cannot report the ply %v", p)
	case p.Move.IsFlip():
		return NewCommand(CmdFlip, p.Move.From().String(), p.Piece.String()), nil
	}
	return NewCommand(CmdMove, p.Move.From().String(), p.Move.To().String()), nil
}

// GenmoveCommand returns "12 genmove <colour>": red, black, or unknown for
// NoColor (the first ply of a fresh game).
func GenmoveCommand(c darkchess.Color) Command {
	return NewCommand(CmdGenmove, c.String())
}

// TimeSettingCommand returns "15 time_setting <ms>".
func TimeSettingCommand(d time.Duration) Command {
	return NewCommand(CmdTimeSetting, strconv.FormatInt(d.Milliseconds(), 10))
}

// TimeLeftCommand returns "16 time_left <colour> <ms>".
func TimeLeftCommand(c darkchess.Color, d time.Duration) Command {
	return NewCommand(CmdTimeLeft, c.String(), strconv.FormatInt(d.Milliseconds(), 10))
}

// InitBoardCommand returns "18 init_board" for a position with no
// history: the 32 squares top-first (a8 b8 c8 d8 a7 ... d1; X face-down, -
// empty), then the 14 alive counts in the 2021 template's order P C N R M
// G K p c n r m g k.
func InitBoardCommand(v darkchess.View) Command {
	args := make([]string, 0, 32+14)
	for i := range 32 {
		args = append(args, v.At(darkchess.Square(i^28)).String())
	}
	for _, pc := range initBoardOrder {
		n := v.Pool(pc)
		for s := darkchess.A1; s <= darkchess.D8; s++ {
			if v.At(s) == pc {
				n++
			}
		}
		args = append(args, strconv.Itoa(n))
	}
	return NewCommand(CmdInitBoard, args...)
}

// initBoardOrder is the 2021 template's order of init_board's counts.
var initBoardOrder = [14]darkchess.Piece{
	darkchess.RedPawn, darkchess.RedCannon, darkchess.RedKnight, darkchess.RedRook,
	darkchess.RedMinister, darkchess.RedGuard, darkchess.RedKing,
	darkchess.BlackPawn, darkchess.BlackCannon, darkchess.BlackKnight, darkchess.BlackRook,
	darkchess.BlackMinister, darkchess.BlackGuard, darkchess.BlackKing,
}

func (c Command) argErr(i int, msg string) error {
	line := c.String()
	off := len(line)
	if i < len(c.Args) {
		off = len(strconv.Itoa(int(c.ID))) + 1 + len(c.Name) + 1
		for _, a := range c.Args[:i] {
			off += len(a) + 1
		}
	}
	return &SyntaxError{Line: line, Offset: off, Msg: msg}
}

// Ply reads the ply of a move or flip command (ids 10 and 11): "move
// <src> <dst>" (a move or capture: the squares must differ) or "flip
// <sq> <piece letter>". Square names may be upper case.
func (c Command) Ply() (darkchess.Ply, error) {
	none := darkchess.Ply{Move: darkchess.NoMove}
	if len(c.Args) != 2 {
		return none, c.argErr(len(c.Args), fmt.Sprintf("%s takes 2 arguments", c.ID))
	}
	from, err := darkchess.ParseSquare(c.Args[0])
	if err != nil {
		return none, c.argErr(0, "not a square")
	}
	switch c.ID {
	case CmdMove:
		to, err := darkchess.ParseSquare(c.Args[1])
		if err != nil {
			return none, c.argErr(1, "not a square")
		}
		if to == from {
			return none, c.argErr(1, "a move to its own square")
		}
		return darkchess.Ply{Move: darkchess.NewMove(from, to)}, nil
	case CmdFlip:
		pc, err := darkchess.ParsePiece(c.Args[1])
		if err != nil || !pc.Valid() {
			return none, c.argErr(1, "not a piece letter")
		}
		return darkchess.Ply{Move: darkchess.Flip(from), Piece: pc}, nil
	}
	return none, c.argErr(0, fmt.Sprintf("%s is not a move or flip command", c.ID))
}

// parseColor reads red, black or unknown, in any case.
func parseColor(s string) (darkchess.Color, bool) {
	switch strings.ToLower(s) {
	case "red":
		return darkchess.Red, true
	case "black":
		return darkchess.Black, true
	case "unknown":
		return darkchess.NoColor, true
	}
	return darkchess.NoColor, false
}

// Color reads genmove's colour: red, black or unknown (NoColor), in any
// case.
func (c Command) Color() (darkchess.Color, error) {
	if len(c.Args) != 1 {
		return darkchess.NoColor, c.argErr(len(c.Args), "want one colour")
	}
	col, ok := parseColor(c.Args[0])
	if !ok {
		return darkchess.NoColor, c.argErr(0, "not red, black or unknown")
	}
	return col, nil
}

// parseMillis reads a non-negative decimal count of milliseconds.
func parseMillis(s string) (time.Duration, bool) {
	if s == "" || strings.Trim(s, "0123456789") != "" {
		return 0, false
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n > math.MaxInt64/int64(time.Millisecond) {
		return 0, false
	}
	return time.Duration(n) * time.Millisecond, true
}

// TimeLeft reads time_left's colour and milliseconds.
func (c Command) TimeLeft() (darkchess.Color, time.Duration, error) {
	if len(c.Args) != 2 {
		return darkchess.NoColor, 0, c.argErr(len(c.Args), "want a colour and a time")
	}
	col, ok := parseColor(c.Args[0])
	if !ok || !col.Valid() {
		return darkchess.NoColor, 0, c.argErr(0, "not red or black")
	}
	d, ok := parseMillis(c.Args[1])
	if !ok {
		return darkchess.NoColor, 0, c.argErr(1, "not a number of milliseconds")
	}
	return col, d, nil
}

// Millis reads time_setting's main time in milliseconds: its first
// argument.
func (c Command) Millis() (time.Duration, error) {
	if len(c.Args) == 0 {
		return 0, c.argErr(0, "want a number of milliseconds")
	}
	d, ok := parseMillis(c.Args[0])
	if !ok {
		return 0, c.argErr(0, "not a number of milliseconds")
	}
	return d, nil
}

// Int reads the first argument that is a decimal integer, as engines read
// num_repetition and num_moves_to_draw.
func (c Command) Int() (int, error) {
	for _, a := range c.Args {
		if n, err := strconv.Atoi(a); err == nil && a[0] != '+' {
			return n, nil
		}
	}
	return 0, c.argErr(len(c.Args), "no integer argument")
}

// InitBoard reads init_board: 32 piece letters top-first, then the 14
// alive counts in the 2021 template's order, and returns the board indexed
// by Square and the alive counts indexed by Piece. The counts may be
// missing; they are then taken from the board (no face-down piece of
// unknown identity can be counted, so the pool is the initial pieces minus
// the revealed ones).
func (c Command) InitBoard() (board [32]darkchess.Piece, alive [16]int, err error) {
	if len(c.Args) != 32 && len(c.Args) != 32+14 {
		return board, alive, c.argErr(len(c.Args), "want 32 squares and 14 counts")
	}
	for i := range 32 {
		pc, perr := darkchess.ParsePiece(c.Args[i])
		if perr != nil {
			return board, alive, c.argErr(i, "not a piece letter, X or -")
		}
		board[i^28] = pc
	}
	if len(c.Args) == 32 {
		for _, pc := range initBoardOrder {
			alive[pc] = pc.Kind().InitialCount()
		}
		return board, alive, nil
	}
	for j, pc := range initBoardOrder {
		a := c.Args[32+j]
		n, aerr := strconv.Atoi(a)
		if aerr != nil || a[0] == '+' || n < 0 || n > pc.Kind().InitialCount() {
			return board, alive, c.argErr(32+j, fmt.Sprintf("not a count of %v", pc))
		}
		alive[pc] = n
	}
	return board, alive, nil
}

// Reply is one reply line.
type Reply struct {
	ID      ID     // the id of the command answered
	OK      bool   // '=' (success) or '?' (failure)
	Payload string // the text after "=<id> ", trailing blanks removed
}

// ParseReply reads one reply line, with or without its terminator:
// "=<id>" or "?<id>", then nothing or a blank and the payload. Trailing
// blanks and a CR are ignored (some engines write "=7 ").
func ParseReply(line string) (Reply, error) {
	line = trimLine(line)
	if line == "" || line[0] != '=' && line[0] != '?' {
		return Reply{}, &SyntaxError{Line: line, Msg: "a reply starts with = or ?"}
	}
	end := 1
	for end < len(line) && line[end] >= '0' && line[end] <= '9' {
		end++
	}
	id, ok := parseID(line[1:end])
	if !ok {
		return Reply{}, &SyntaxError{Line: line, Offset: 1, Msg: "no command id after " + line[:1]}
	}
	r := Reply{ID: id, OK: line[0] == '='}
	if end < len(line) {
		if line[end] != ' ' && line[end] != '\t' {
			return Reply{}, &SyntaxError{Line: line, Offset: end, Msg: "the id is not followed by a blank"}
		}
		r.Payload = strings.TrimLeft(line[end:], " \t")
	}
	return r, nil
}

// AppendReply appends r's line, LF included, to b: "=<id>" or "?<id>", then
// a space and the payload if there is one. A payload of several lines
// (list_commands) is written as it is.
func AppendReply(b []byte, r Reply) []byte {
	if r.OK {
		b = append(b, '=')
	} else {
		b = append(b, '?')
	}
	b = strconv.AppendInt(b, int64(r.ID), 10)
	if r.Payload != "" {
		b = append(append(b, ' '), r.Payload...)
	}
	return append(b, '\n')
}

// String returns r's line without its LF.
func (r Reply) String() string {
	b := AppendReply(nil, r)
	return string(b[:len(b)-1])
}

// Move reads the payload of a genmove reply: "<src> <dst>", a flip being
// the same square twice ("b8 b8"). The resign move "a0 a0" is [ErrResign].
// Square names may be upper case, and may be joined by '-'.
func (r Reply) Move() (darkchess.Move, error) {
	fs, _ := fields(strings.ReplaceAll(r.Payload, "-", " "))
	if len(fs) == 2 && strings.EqualFold(fs[0], "a0") && strings.EqualFold(fs[1], "a0") {
		return darkchess.NoMove, ErrResign
	}
	if len(fs) != 2 {
		return darkchess.NoMove, &SyntaxError{Line: r.Payload, Msg: "want two squares"}
	}
	from, err := darkchess.ParseSquare(fs[0])
	if err != nil {
		return darkchess.NoMove, &SyntaxError{Line: r.Payload, Msg: "first square: " + err.Error()}
	}
	to, err := darkchess.ParseSquare(fs[1])
	if err != nil {
		return darkchess.NoMove, &SyntaxError{Line: r.Payload, Offset: strings.Index(r.Payload, fs[1]), Msg: "second square: " + err.Error()}
	}
	return darkchess.NewMove(from, to), nil
}

// MoveReply returns the genmove reply for m: "=12 <src> <dst>".
func MoveReply(m darkchess.Move) Reply {
	return Reply{ID: CmdGenmove, OK: true, Payload: m.From().String() + " " + m.To().String()}
}

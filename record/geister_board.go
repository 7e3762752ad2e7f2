package record

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/botarena/botarena/geister"
)

// gat.Board is an NTPU platform board.txt record of a Geister game:
// the players, the initial board, the moves, the result, the
// per-ply times and captures. The same file cut at a ply, without a result,
// is the platform's mid-game file (中盤檔案), from which a game can start
// ([gat.Board.MidGame], [gat.Board.StartPosition]).
//
// The initial board carries letters only: a record knows the ghosts'
// colours from its Reds (the SDK's "* red" line), and without them only
// partly, from the capture record and the counts.
type GeisterBoard struct {
	// Date is the start time, to the minute, as line 1 writes it in the
	// writer's local time; the zero Time when the record has no date line.
	// The reader gives it in time.Local.
	Date time.Time
	// First and Second name the players, first player first; both empty when
	// the record has no "X vs Y" line. A name is not empty and holds no
	// white space.
	First, Second string
	// Counts is line 3: the red and blue ghosts of the first player, then
	// the red and blue ghosts of the second player, on the initial board
	// (or, as the reader also accepts, after the moves). Nil when the record
	// has no counts line and the colours do not give them.
	Counts *[4]int
	// Start is where every ghost is on the initial board, in the first
	// player's frame, as in [geister.Setup].Ghosts: a square, or
	// [geister.Captured] for a ghost absent from the board rows. A record
	// without rows starts from the standard start.
	Start [2][8]geister.Square
	// TimeLimit is the time limit of line "time N", in whole seconds; 0 means
	// unlimited (and a record without the line).
	TimeLimit time.Duration
	// Moves are the plies in order, each in its mover's frame; the reader
	// gives every escape in its sideways spelling.
	Moves []geister.Move
	// Result is the result line's outcome; Reason is geister.Unfinished when
	// the record has none (a game in progress, or a mid-game file).
	Result geister.Result
	// Times are the numbered timestamps: Times[0] when the first MOV? was
	// sent, Times[i] when ply i was received; at most len(Moves)+1 of them.
	Times []time.Time
	// Captures is the capture record, one entry per ply from the first, at
	// most len(Moves): the colour of the ghost the ply captured, or
	// geister.Unknown (code 0) for a ply that captured nothing.
	Captures []geister.GhostColor
	// Reds are the red sets of the SDK's "* red" line, first player first;
	// the zero Reds for a side the record does not give ("-", or no line).
	Reds [2]geister.Reds
}

// geisterStartSquares is where the ghosts start, whatever the red sets.
func geisterStartSquares() [2][8]geister.Square {
	return geister.StartSetup(geister.RedsAt(0), geister.RedsAt(0)).Ghosts
}

// NewGeisterBoard returns the record of g between the players named first
// and second (empty names leave the "vs" line out): the initial board, both
// red sets, the counts, the moves, the capture record and, once g is over,
// its result. The date, the time limit and the timestamps are left for the
// caller to fill in. g must start at ply 0: a game started from a mid-game
// file is recorded by appending its moves to that file's.
func NewGeisterBoard(g *geister.Game, first, second string) (*GeisterBoard, error) {
	if g == nil {
		return nil, errors.New("record: nil geister.Game")
	}
	start, ok := g.PositionAt(0)
	if !ok {
		return nil, errors.New("record: a board.txt record needs a game that starts at ply 0")
	}
	b := &GeisterBoard{First: first, Second: second, Moves: g.Moves()}
	s := start.Setup()
	b.Start = s.Ghosts
	b.Reds = s.Reds
	counts := geisterCounts(start)
	b.Counts = &counts
	p := start
	b.Captures = make([]geister.GhostColor, len(b.Moves))
	for i, m := range b.Moves {
		if _, c, ok := p.Captures(m); ok {
			b.Captures[i] = c
		}
		p = p.PlayUnchecked(m)
	}
	if r, over := g.Result(); over {
		b.Result = r
	}
	return b, nil
}

// geisterCounts returns the counts line of p: the red and blue ghosts on
// the board of each side.
func geisterCounts(p geister.Position) [4]int {
	var n [4]int
	for c := range geister.Color(2) {
		for g := geister.A; g <= geister.H; g++ {
			if !p.Square(c, g).Valid() {
				continue
			}
			if p.GhostColor(c, g) == geister.Red {
				n[2*int(c)]++
			} else {
				n[2*int(c)+1]++
			}
		}
	}
	return n
}

// clone returns a deep copy of b.
func (b *GeisterBoard) clone() *GeisterBoard {
	c := *b
	if b.Counts != nil {
		n := *b.Counts
		c.Counts = &n
	}
	c.Moves = append([]geister.Move(nil), b.Moves...)
	c.Times = append([]time.Time(nil), b.Times...)
	c.Captures = append([]geister.GhostColor(nil), b.Captures...)
	return &c
}

// geisterReplay is the outcome of a successful replay of a record.
type geisterReplay struct {
	reds          [2]geister.Reds  // the red sets used (the record's, or the first that fit)
	start, end    geister.Position // the initial position and the one after the moves
	moves         []geister.Move   // the moves, normalised
	countsAtStart bool             // Counts (if any) describe the initial board
}

// geisterFault is why a record does not replay: which part is at fault
// (for the reader to name its line), and what is wrong.
type geisterFault struct {
	part  geisterPart
	index int // the ply (0-based) for partMove and partCapture
	msg   string
	err   error // a *geister.MoveError for a refused move, else nil
}

// geisterPart names a part of a board.txt record.
type geisterPart uint8

const (
	partFile    geisterPart = iota // the record as a whole
	partRows                       // the initial board
	partCounts                     // line 3
	partMove                       // a ply
	partCapture                    // a capture code
	partResult                     // the result line
	partRed                        // the red line
)

// progress orders faults: the later in the replay, the more telling.
func (f *geisterFault) progress() int {
	switch f.part {
	case partMove, partCapture:
		return 1 + f.index
	case partResult, partCounts:
		return 1 << 30
	}
	return 0
}

// replay checks b against the rules: the initial board, every move, the
// capture record, the counts and the result line. Sides whose reds the
// record does not give take, in the order of [geister.RedsAt], the first red
// sets with which everything fits; with extra, a side's unknown reds are
// extra's instead (the players' SET).
func (b *GeisterBoard) replay(extra [2]geister.Reds) (*geisterReplay, *geisterFault) {
	var cands [2][]geister.Reds
	for c := range 2 {
		switch {
		case b.Reds[c] != 0:
			if !b.Reds[c].Valid() {
				return nil, &geisterFault{part: partRed, msg: fmt.Sprintf("the %s player's red set %s does not hold 4 ghosts", geister.Color(c), b.Reds[c])}
			}
			cands[c] = []geister.Reds{b.Reds[c]}
		case extra[c] != 0:
			if !extra[c].Valid() {
				return nil, &geisterFault{part: partRed, msg: fmt.Sprintf("the %s player's red set %s does not hold 4 ghosts", geister.Color(c), extra[c])}
			}
			cands[c] = []geister.Reds{extra[c]}
		default:
			for _, r := range geister.AllReds() {
				cands[c] = append(cands[c], r)
			}
		}
	}
	var best *geisterFault
	for _, r0 := range cands[0] {
		for _, r1 := range cands[1] {
			rp, f := b.replayWith([2]geister.Reds{r0, r1})
			if f == nil {
				return rp, nil
			}
			if best == nil || f.progress() > best.progress() {
				best = f
			}
		}
	}
	if len(cands[0])*len(cands[1]) > 1 {
		best.msg = "no red sets fit the record; at best: " + best.msg
	}
	return nil, best
}

// replayWith replays b with the given red sets.
func (b *GeisterBoard) replayWith(reds [2]geister.Reds) (*geisterReplay, *geisterFault) {
	for c := range geister.Color(2) {
		for g := geister.A; g <= geister.H; g++ {
			if sq := b.Start[c][g]; !sq.Valid() && sq != geister.Captured {
				return nil, &geisterFault{part: partRows, msg: fmt.Sprintf("ghost %s of the %s player is neither on the board nor captured", g, c)}
			}
		}
	}
	start, err := geister.NewPosition(geister.Setup{Ghosts: b.Start, Reds: reds})
	if err != nil {
		return nil, &geisterFault{part: partRows, msg: "the initial board is not a position: " + strings.ReplaceAll(err.Error(), "\n", "; ")}
	}
	rp := &geisterReplay{reds: reds, start: start, moves: make([]geister.Move, len(b.Moves))}
	p := start
	for i, m := range b.Moves {
		n := p.Normalize(m)
		_, col, captures := p.Captures(n)
		next, err := p.Play(n)
		if err != nil {
			return nil, &geisterFault{part: partMove, index: i, msg: fmt.Sprintf("ply %d, the %s player's %s: %v", i+1, p.Turn(), m, geisterMoveReason(err)), err: err}
		}
		if i < len(b.Captures) {
			want := b.Captures[i]
			if !captures {
				col = geister.Unknown
			}
			if want != col {
				return nil, &geisterFault{part: partCapture, index: i, msg: fmt.Sprintf("ply %d captures %s, but the capture record says %s", i+1, geisterCaptureWords(col), geisterCaptureWords(want))}
			}
		}
		rp.moves[i] = n
		p = next
	}
	rp.end = p
	if b.Counts != nil {
		switch *b.Counts {
		case geisterCounts(start):
			rp.countsAtStart = true
		case geisterCounts(p):
		default:
			n := geisterCounts(start)
			return nil, &geisterFault{part: partCounts, msg: fmt.Sprintf("the counts %d %d %d %d match neither the initial board (%d %d %d %d) nor the position after the moves", b.Counts[0], b.Counts[1], b.Counts[2], b.Counts[3], n[0], n[1], n[2], n[3])}
		}
	}
	got := p.Result()
	switch want := b.Result; want.Reason {
	case geister.Unfinished, geister.GamePlyLimitDraw, geister.TimeOut, geister.IllegalMove, geister.Disconnect, geister.Resign, geister.AgreedDraw:
		if got.Reason != geister.Unfinished && want.Reason != geister.Unfinished {
			return nil, &geisterFault{part: partResult, msg: fmt.Sprintf("the result says %s, but the board says %s", want, got)}
		}
	default:
		if got != want {
			return nil, &geisterFault{part: partResult, msg: fmt.Sprintf("the result says %s, but the board says %s", want, got)}
		}
	}
	return rp, nil
}

// geisterMoveReason returns the reason of a refused move, without the
// engine's prefix.
func geisterMoveReason(err error) string {
	var me *geister.MoveError
	if errors.As(err, &me) && me.Reason != "" {
		return me.Reason
	}
	return err.Error()
}

// geisterCaptureWords says what a capture code means.
func geisterCaptureWords(c geister.GhostColor) string {
	switch c {
	case geister.Red:
		return "a red ghost (1)"
	case geister.Blue:
		return "a blue ghost (2)"
	}
	return "nothing (0)"
}

// asError turns a fault found outside the reader into an error.
func (f *geisterFault) asError() error {
	if f.err != nil {
		return fmt.Errorf("record: board.txt: %s: %w", f.msg, f.err)
	}
	return fmt.Errorf("record: board.txt: %s: %w", f.msg, ErrSyntax)
}

// Game replays the record under rules r: the initial board with the record's
// red sets, then every move; a referee ending of the result line (TimeOut,
// IllegalMove, Disconnect, Resign) is applied with [geister.Game.Forfeit],
// a draw by agreement (AgreedDraw) with [geister.Game.AgreeDraw].
// A side whose reds the record does not give gets the first red set (in the
// order of [geister.RedsAt]) with which the record fits, so the colours of
// its ghosts that never left the board are a guess. It fails if
// the record does not replay, if the rules end the game before its last move
// (a lower ply limit) or if the result line says GamePlyLimitDraw where r's
// ply limit does not draw.
func (b *GeisterBoard) Game(r geister.Rules) (*geister.Game, error) {
	if b == nil {
		return nil, errors.New("record: nil GeisterBoard")
	}
	rp, f := b.replay([2]geister.Reds{})
	if f != nil {
		return nil, f.asError()
	}
	g := geister.NewGame(r, rp.start)
	for i, m := range rp.moves {
		if err := g.Play(m); err != nil {
			return nil, fmt.Errorf("record: board.txt: ply %d under the rules %q: %w", i+1, r.Name, err)
		}
	}
	res, over := g.Result()
	switch want := b.Result; want.Reason {
	case geister.Unfinished:
	case geister.GamePlyLimitDraw:
		if res != want {
			return nil, fmt.Errorf("record: board.txt: the record is drawn by the ply limit after %d plies, but the rules %q say %s", len(rp.moves), r.Name, res)
		}
	case geister.TimeOut, geister.IllegalMove, geister.Disconnect, geister.Resign:
		if over {
			return nil, fmt.Errorf("record: board.txt: the record ends by %s, but the rules %q ended the game first: %s", want.Reason, r.Name, res)
		}
		if err := g.Forfeit(want.Winner.Opponent(), want.Reason); err != nil {
			return nil, fmt.Errorf("record: board.txt: %w", err)
		}
	case geister.AgreedDraw:
		if over {
			return nil, fmt.Errorf("record: board.txt: the record ends by %s, but the rules %q ended the game first: %s", want.Reason, r.Name, res)
		}
		if err := g.AgreeDraw(); err != nil {
			return nil, fmt.Errorf("record: board.txt: %w", err)
		}
	}
	return g, nil
}

// View returns what player c knows after the record's moves, the view a
// program reading board.txt before its ply wants. It needs c's red set in the
// record; the opponent's may be unknown, since a view never holds them.
func (b *GeisterBoard) View(c geister.Color) (geister.View, error) {
	if b == nil {
		return geister.View{}, errors.New("record: nil GeisterBoard")
	}
	if !c.Valid() {
		return geister.View{}, fmt.Errorf("record: invalid side %d", c)
	}
	if !b.Reds[c].Valid() {
		return geister.View{}, fmt.Errorf("record: board.txt: the record does not give the %s player's red set", c)
	}
	rp, f := b.replay([2]geister.Reds{})
	if f != nil {
		return geister.View{}, f.asError()
	}
	return rp.end.View(c), nil
}

// MidGame returns the mid-game file (中盤檔案) cut from b at the given ply
// count: the same header, the first ply moves, timestamps and capture codes,
// no result line. Its counts describe its initial board. It
// fails if b does not replay or ply is out of 0..len(b.Moves).
func (b *GeisterBoard) MidGame(ply int) (*GeisterBoard, error) {
	if b == nil {
		return nil, errors.New("record: nil GeisterBoard")
	}
	if ply < 0 || ply > len(b.Moves) {
		return nil, fmt.Errorf("record: mid-game ply %d out of range 0..%d", ply, len(b.Moves))
	}
	rp, f := b.replay([2]geister.Reds{})
	if f != nil {
		return nil, f.asError()
	}
	m := b.clone()
	m.Moves = append(m.Moves[:0], rp.moves[:ply]...)
	m.Captures = m.Captures[:min(len(m.Captures), ply)]
	m.Times = m.Times[:min(len(m.Times), ply+1)]
	m.Result = geister.Result{}
	if m.Counts != nil && !rp.countsAtStart {
		n := geisterCounts(rp.start)
		m.Counts = &n
	}
	return m, nil
}

// StartPosition returns the position a game started from the mid-game file
// b continues from: the initial board, then the k recorded plies,
// checked; the side to move follows from k and the ply count is k, so a ply
// limit counts the recorded plies. The record's red sets are used where it
// gives them; for a side it does not, reds is that player's SET, which must
// agree with the capture record, the counts and the recorded moves (an
// escape needs a blue ghost). The result line, if any, is ignored. It fails
// if a needed red set is missing or does not fit, and for a position the
// board has decided (a ghost escaped, or four of one colour captured).
func (b *GeisterBoard) StartPosition(reds [2]geister.Reds) (geister.Position, error) {
	if b == nil {
		return geister.Position{}, errors.New("record: nil GeisterBoard")
	}
	for c := range geister.Color(2) {
		if b.Reds[c] == 0 && !reds[c].Valid() {
			return geister.Position{}, fmt.Errorf("record: mid-game file: the %s player's red set is needed: the file does not give it", c)
		}
	}
	nb := *b
	nb.Result = geister.Result{}
	rp, f := nb.replay(reds)
	if f != nil {
		return geister.Position{}, f.asError()
	}
	if rp.end.IsOver() {
		return geister.Position{}, fmt.Errorf("record: mid-game file: the position is decided (%s)", rp.end.Result())
	}
	return rp.end, nil
}

// CheckReds reports whether r, as side c's red set, fits the mid-game file
// b: the capture record, the counts and the recorded moves (for some red set
// of the other side, if b does not give it). A host starting a game from b
// answers a player's SET with NG when it does not fit. Where b
// gives c's red set, r must be that set.
func (b *GeisterBoard) CheckReds(c geister.Color, r geister.Reds) error {
	if b == nil {
		return errors.New("record: nil GeisterBoard")
	}
	if !c.Valid() || !r.Valid() {
		return fmt.Errorf("record: invalid side %d or red set %s", c, r)
	}
	if b.Reds[c] != 0 && b.Reds[c] != r {
		return fmt.Errorf("record: mid-game file: the %s player's red set is %s, not %s", c, b.Reds[c], r)
	}
	var extra [2]geister.Reds
	extra[c] = r
	nb := *b
	nb.Result = geister.Result{}
	if _, f := nb.replay(extra); f != nil {
		return f.asError()
	}
	return nil
}

// ColorsKnown reports whether the record gives both red sets, so that
// [gat.Board.Game] rebuilds every colour.
func (b *GeisterBoard) ColorsKnown() bool {
	return b != nil && b.Reds[0].Valid() && b.Reds[1].Valid()
}

// ---- writing ----

// geisterMaxName is the longest player name the writer accepts, so that
// every line it writes stays within MaxLineLength.
const geisterMaxName = 1000

// geisterMaxTimeLimit is the largest time limit the writer accepts.
const geisterMaxTimeLimit = 999999999 * time.Second

// geisterCheckName rejects a name the "vs" line cannot carry.
func geisterCheckName(which, name string) error {
	if name == "" || len(name) > geisterMaxName {
		return fmt.Errorf("record: board.txt: the %s player's name must have 1 to %d bytes", which, geisterMaxName)
	}
	for i := 0; i < len(name); i++ {
		if geisterSpace(name[i]) {
			return fmt.Errorf("record: board.txt: the %s player's name %q holds white space", which, name)
		}
	}
	return nil
}

// check rejects what the writer cannot write so that the reader reads it
// back.
func (b *GeisterBoard) check() error {
	if b.First != "" || b.Second != "" {
		if err := geisterCheckName("first", b.First); err != nil {
			return err
		}
		if err := geisterCheckName("second", b.Second); err != nil {
			return err
		}
	}
	if b.Counts != nil {
		for _, n := range b.Counts {
			if n < 0 || n > 4 {
				return fmt.Errorf("record: board.txt: count %d out of range 0..4", n)
			}
		}
	}
	var on [geister.NumSquares]bool
	for c := range geister.Color(2) {
		for g := geister.A; g <= geister.H; g++ {
			sq := b.Start[c][g]
			switch {
			case sq == geister.Captured:
			case !sq.Valid():
				return fmt.Errorf("record: board.txt: the %s player's ghost %s is on %d, neither a square nor Captured", c, g, sq)
			case on[sq]:
				return fmt.Errorf("record: board.txt: two ghosts on square %s", sq)
			default:
				on[sq] = true
			}
		}
	}
	if b.TimeLimit < 0 || b.TimeLimit > geisterMaxTimeLimit || b.TimeLimit%time.Second != 0 {
		return fmt.Errorf("record: board.txt: time limit %v is not a whole number of seconds in 0..999999999", b.TimeLimit)
	}
	for i, m := range b.Moves {
		if !m.Valid() {
			return fmt.Errorf("record: board.txt: move %d is not a move", i+1)
		}
	}
	r := b.Result
	switch {
	case r.Reason == geister.Unfinished:
	case r.Reason > geister.AgreedDraw:
		return fmt.Errorf("record: board.txt: unknown result reason %d", r.Reason)
	case r.Draw != r.Reason.IsDraw():
		return fmt.Errorf("record: board.txt: result %s: only GamePlyLimitDraw and AgreedDraw are draws", r)
	case !r.Draw && !r.Winner.Valid():
		return fmt.Errorf("record: board.txt: result with an invalid winner %d", r.Winner)
	}
	if len(b.Times) > len(b.Moves)+1 {
		return fmt.Errorf("record: board.txt: %d timestamps for %d plies (at most one more)", len(b.Times), len(b.Moves))
	}
	for i, t := range b.Times {
		if ms := t.UnixMilli(); ms < 0 || ms > 9999999999999 {
			return fmt.Errorf("record: board.txt: timestamp %d (%v) out of range", i, t)
		}
	}
	if len(b.Captures) > len(b.Moves) {
		return fmt.Errorf("record: board.txt: %d capture codes for %d plies", len(b.Captures), len(b.Moves))
	}
	for i, c := range b.Captures {
		if c > geister.Blue {
			return fmt.Errorf("record: board.txt: capture code %d of ply %d out of range 0..2", c, i+1)
		}
	}
	for c, r := range b.Reds {
		if r != 0 && !r.Valid() {
			return fmt.Errorf("record: board.txt: the %s player's red set %s does not hold 4 ghosts", geister.Color(c), r)
		}
	}
	return nil
}

// gat.AppendBoard appends b in the canonical layout, LF line
// ends:
//
//   - 9:05pm November 22, 2026
//   - a1 vs a2
//   - 4 4 4 4
//   - - h g f e -
//   - - d c b a -
//   - - - - - - -
//   - - - - - - -
//   - - A B C D -
//   - - E F G H -
//   - time 600
//   - 1. A,WEST A,NORTH
//   - ChessEscape a1 wins 1,0
//   - Comment 0 0
//     0. 1795352700000
//     1. 1795352700500
//     1. 0 0
//   - red EFGH bcde
//
// A part the record does not have is left out: the date line for a zero
// Date, the "vs" line without names, the counts without Counts, the result
// line for an unfinished game, the timestamps and the capture record when
// empty, the red line when neither red set is known (a side not known is
// "-"). The board rows, the time line and the comment line are always
// written. Timestamps are 13-digit milliseconds; the result names the
// winner by its name ("first" or "second" without names). It fails, writing
// nothing, for a record the reader could not read back: a name that is
// empty or holds white space, two ghosts on one square, an invalid move,
// result or red set, more timestamps than plies plus one, more capture codes
// than plies.
func AppendGeisterBoard(dst []byte, b *GeisterBoard) ([]byte, error) {
	if b == nil {
		return dst, errors.New("record: nil GeisterBoard")
	}
	if err := b.check(); err != nil {
		return dst, err
	}
	if !b.Date.IsZero() {
		dst = append(dst, "* "...)
		dst = b.Date.AppendFormat(dst, "3:04pm January 2, 2006")
		dst = append(dst, '\n')
	}
	if b.First != "" {
		dst = append(dst, "* "...)
		dst = append(dst, b.First...)
		dst = append(dst, " vs "...)
		dst = append(dst, b.Second...)
		dst = append(dst, '\n')
	}
	if b.Counts != nil {
		dst = append(dst, '*')
		for _, n := range b.Counts {
			dst = append(dst, ' ')
			dst = strconv.AppendInt(dst, int64(n), 10)
		}
		dst = append(dst, '\n')
	}
	var cells [geister.NumSquares]byte
	for i := range cells {
		cells[i] = '-'
	}
	for c := range geister.Color(2) {
		for g := geister.A; g <= geister.H; g++ {
			if sq := b.Start[c][g]; sq.Valid() {
				cells[sq] = geisterLetter(c, g)
			}
		}
	}
	for y := range 6 {
		dst = append(dst, '*')
		for x := range 6 {
			dst = append(dst, ' ', cells[6*y+x])
		}
		dst = append(dst, '\n')
	}
	dst = append(dst, "* time "...)
	dst = strconv.AppendInt(dst, int64(b.TimeLimit/time.Second), 10)
	dst = append(dst, '\n')
	dst = appendNumberedPairs(dst, b.Moves, "\n")
	if r := b.Result; r.Reason != geister.Unfinished {
		dst = append(dst, "* "...)
		dst = append(dst, r.Reason.String()...)
		if r.Draw {
			dst = append(dst, " Draw 0.5,0.5\n"...)
		} else {
			name := b.First
			if r.Winner == geister.Second {
				name = b.Second
			}
			if name == "" {
				name = r.Winner.String()
			}
			dst = append(dst, ' ')
			dst = append(dst, name...)
			if r.Winner == geister.First {
				dst = append(dst, " wins 1,0\n"...)
			} else {
				dst = append(dst, " wins 0,1\n"...)
			}
		}
	}
	dst = append(dst, "* Comment 0 0\n"...)
	for i, t := range b.Times {
		dst = strconv.AppendInt(dst, int64(i), 10)
		dst = append(dst, ". "...)
		ms := strconv.FormatInt(t.UnixMilli(), 10)
		for range 13 - len(ms) {
			dst = append(dst, '0')
		}
		dst = append(dst, ms...)
		dst = append(dst, '\n')
	}
	for i := 0; i < len(b.Captures); i += 2 {
		dst = strconv.AppendInt(dst, int64(i/2+1), 10)
		dst = append(dst, ". "...)
		dst = append(dst, '0'+byte(b.Captures[i]))
		if i+1 < len(b.Captures) {
			dst = append(dst, ' ', '0'+byte(b.Captures[i+1]))
		}
		dst = append(dst, '\n')
	}
	if b.Reds[0] != 0 || b.Reds[1] != 0 {
		dst = append(dst, "* red "...)
		dst = append(dst, b.Reds[0].String()...) // "-" for the empty set
		dst = append(dst, ' ')
		dst = append(dst, strings.ToLower(b.Reds[1].String())...)
		dst = append(dst, '\n')
	}
	return dst, nil
}

// WriteGeisterBoard writes b to w as [gat.AppendBoard] does, in one Write.
func WriteGeisterBoard(w io.Writer, b *GeisterBoard) error {
	buf, err := AppendGeisterBoard(nil, b)
	if err != nil {
		return err
	}
	_, err = w.Write(buf)
	return err
}

// geisterLetter is side c's ghost g on the board rows: upper case for the
// first player, lower case for the second.
func geisterLetter(c geister.Color, g geister.Ghost) byte {
	if c == geister.Second {
		return 'a' + byte(g)
	}
	return 'A' + byte(g)
}

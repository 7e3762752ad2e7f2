package main

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/botarena/botarena/geister"
	"github.com/botarena/botarena/protocol/gat"
	"github.com/botarena/botarena/record"
	"github.com/botarena/botarena/timer"
)

// The board picture's geometry, in SVG user units.
const (
	gsCell   = 60                    // a square
	gsLeft   = 36                    // room for the row numbers
	gsTop    = 36                    // room for the column numbers
	gsBoard  = 6 * gsCell            // the board's side
	gsPanelX = gsLeft + gsBoard + 24 // the captured ghosts' panel
	gsWidth  = gsPanelX + 190        // the whole picture
	gsHeight = gsTop + gsBoard + gsTop
)

// The colours of the picture.
const (
	gsBlue    = "#2f6fdf"
	gsRed     = "#d83a3a"
	gsUnknown = "#9a9a9a"
)

// geisterLastMove is the last move for the picture: the square it left and
// the square it reached, both in the first player's frame; to is
// geister.Escaped for an escape.
type geisterLastMove struct {
	from, to geister.Square
	ok       bool
}

// geisterLastMoveOf is move m, played from prev, for the picture.
func geisterLastMoveOf(prev, next geister.Position, m geister.Move) geisterLastMove {
	if m == geister.NoMove {
		return geisterLastMove{}
	}
	mover := prev.Turn()
	return geisterLastMove{from: prev.Square(mover, m.Ghost()), to: next.Square(mover, m.Ghost()), ok: true}
}

// geisterPainter draws Geister boards. It holds the part of the picture
// that never changes (the board, the grid, the exits, the coordinates),
// drawn once: make one per game or replay.
type geisterPainter struct {
	board string
}

// newGeisterPainter draws the unchanging part of the picture.
func newGeisterPainter() geisterPainter {
	var b strings.Builder
	fmt.Fprintf(&b, `<rect width="%d" height="%d" fill="#f5efe2"/>`, gsWidth, gsHeight)
	fmt.Fprintf(&b, `<rect class="board" x="%d" y="%d" width="%d" height="%d" fill="#d8bf8f" stroke="#5b4630" stroke-width="3"/>`, gsLeft, gsTop, gsBoard, gsBoard)
	// The exits: the first player's at the top corners, the second
	// player's at the bottom ones.
	for _, e := range [...]struct {
		x, y int
		who  string
	}{{0, 0, "1st"}, {5, 0, "1st"}, {0, 5, "2nd"}, {5, 5, "2nd"}} {
		x, y := gsLeft+e.x*gsCell, gsTop+e.y*gsCell
		fmt.Fprintf(&b, `<rect class="exit" x="%d" y="%d" width="%d" height="%d" fill="#b9dcb4"/>`, x, y, gsCell, gsCell)
		ty := y + 10
		if e.y == 5 {
			ty = y + gsCell - 3
		}
		fmt.Fprintf(&b, `<text class="exit" x="%d" y="%d" font-size="9" text-anchor="middle" fill="#2e6b2a">%s exit</text>`, x+gsCell/2, ty, e.who)
	}
	for i := 1; i < 6; i++ {
		fmt.Fprintf(&b, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#5b4630" stroke-width="1.2"/>`, gsLeft+i*gsCell, gsTop, gsLeft+i*gsCell, gsTop+gsBoard)
		fmt.Fprintf(&b, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#5b4630" stroke-width="1.2"/>`, gsLeft, gsTop+i*gsCell, gsLeft+gsBoard, gsTop+i*gsCell)
	}
	// Coordinates: x above and below, y on the left, as in "xy".
	for i := range 6 {
		fmt.Fprintf(&b, `<text class="coord" x="%d" y="%d" font-size="15" text-anchor="middle" fill="#3b2f22">%d</text>`, gsLeft+i*gsCell+gsCell/2, gsTop-12, i)
		fmt.Fprintf(&b, `<text class="coord" x="%d" y="%d" font-size="15" text-anchor="middle" fill="#3b2f22">%d</text>`, gsLeft+i*gsCell+gsCell/2, gsTop+gsBoard+24, i)
		fmt.Fprintf(&b, `<text class="coord" x="%d" y="%d" font-size="15" text-anchor="middle" fill="#3b2f22">%d</text>`, gsLeft-16, gsTop+i*gsCell+gsCell/2+5, i)
	}
	return geisterPainter{board: b.String()}
}

// geisterSVG draws one picture with a painter of its own (see
// geisterPainter.svg).
func geisterSVG(p geister.Position, viewer int, known [2]bool, last geisterLastMove) string {
	return newGeisterPainter().svg(p, viewer, known, last)
}

// svg draws p in the first player's frame (the first player's ghosts start
// at the bottom and move up) as viewer sees it: -1 a spectator, who sees
// the colours of the sides whose colours are known (known[c]; a record
// without a side's red set does not know them), 0 or 1 a player, who sees its
// own colours and the colours of the opponent's ghosts off the board only.
// Unknown ghosts are grey with a "?". The ghosts each side captured are
// listed beside the board; the last move is highlighted.
func (pt geisterPainter) svg(p geister.Position, viewer int, known [2]bool, last geisterLastMove) string {
	var b strings.Builder
	b.Grow(len(pt.board) + 6<<10)
	b.WriteString(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 `)
	gsInts(&b, " ", gsWidth, gsHeight)
	b.WriteString(`" font-family="DejaVu Sans, Arial, Helvetica, sans-serif">`)
	b.WriteString(pt.board)
	// The last move: the square it left, pale, and the one it reached.
	if last.ok {
		for _, h := range [...]struct {
			s    geister.Square
			fill string
		}{{last.from, "#f7e48a"}, {last.to, "#f2cf3a"}} {
			if h.s.Valid() {
				b.WriteString(`<rect class="last" x="`)
				gsInts(&b, `" y="`, gsLeft+h.s.X()*gsCell+2, gsTop+h.s.Y()*gsCell+2)
				b.WriteString(`" width="56" height="56" fill="` + h.fill + `"/>`)
			}
		}
	}
	// The ghosts on the board.
	for c := range geister.Color(2) {
		for g := geister.A; g <= geister.H; g++ {
			s := p.Square(c, g)
			if !s.Valid() {
				continue
			}
			col := p.GhostColor(c, g)
			if (viewer < 0 && !known[c]) || (viewer >= 0 && viewer != int(c)) {
				col = geister.Unknown
			}
			geisterGhostSVG(&b, gsLeft+s.X()*gsCell+gsCell/2, gsTop+s.Y()*gsCell+gsCell/2, false, c, g, col)
		}
	}
	// An escape: an arrow off the board from the exit it left.
	if last.ok && last.to == geister.Escaped && last.from.Valid() {
		x := gsLeft + last.from.X()*gsCell + gsCell/2
		y0, y1 := gsTop+2, gsTop-30
		if last.from.Y() == 5 {
			y0, y1 = gsTop+gsBoard-2, gsTop+gsBoard+30
		}
		fmt.Fprintf(&b, `<line class="escape" x1="%d" y1="%d" x2="%d" y2="%d" stroke="#e0a800" stroke-width="5" stroke-linecap="round"/>`, x, y0, x, y1)
	}
	geisterPanelSVG(&b, p)
	b.WriteString(`</svg>`)
	return b.String()
}

// gsInts writes the numbers separated by sep.
func gsInts(b *strings.Builder, sep string, n ...int) {
	var buf [20]byte
	for i, v := range n {
		if i > 0 {
			b.WriteString(sep)
		}
		b.Write(strconv.AppendInt(buf[:0], int64(v), 10))
	}
}

// geisterPanelSVG lists beside the board the ghosts each side captured and
// the ghost that escaped, with their colours, which everyone knows.
func geisterPanelSVG(b *strings.Builder, p geister.Position) {
	y := gsTop + 4
	for c := range geister.Color(2) {
		victim := c.Opponent()
		red, blue := p.Captured(victim)
		fmt.Fprintf(b, `<text class="captured" x="%d" y="%d" font-size="14" fill="#222">%s took %d red, %d blue</text>`, gsPanelX, y+10, c, red, blue)
		i := 0
		for g := geister.A; g <= geister.H; g++ {
			if p.Square(victim, g) != geister.Captured {
				continue
			}
			geisterGhostSVG(b, gsPanelX+14+(i%4)*40, y+40+(i/4)*40, true, victim, g, p.GhostColor(victim, g))
			i++
		}
		y += 40 + 2*40
	}
	if c, g, ok := p.Escaped(); ok {
		fmt.Fprintf(b, `<text class="escaped" x="%d" y="%d" font-size="14" fill="#222">%s escaped:</text>`, gsPanelX, y+10, c)
		geisterGhostSVG(b, gsPanelX+14, y+40, true, c, g, p.GhostColor(c, g))
	}
}

// geisterGhostSVG draws side c's ghost g centred on (cx, cy), small for the
// panel: a ghost's shape in its colour (grey with "?" when unknown), the
// first player's upright with a dark outline, the second player's upside
// down with a light one, the letter on it (lower case for the second
// player).
func geisterGhostSVG(b *strings.Builder, cx, cy int, small bool, c geister.Color, g geister.Ghost, col geister.GhostColor) {
	fill, name := gsUnknown, "unknown"
	switch col {
	case geister.Blue:
		fill, name = gsBlue, "blue"
	case geister.Red:
		fill, name = gsRed, "red"
	}
	side, stroke, rot := "first", "#1a1a1a", ""
	letter := g.String()
	if c == geister.Second {
		side, stroke, rot = "second", "#fdfdfd", ` transform="rotate(180)"`
		letter = strings.ToLower(letter)
	}
	b.WriteString(`<g class="ghost ` + side + " " + name + `" transform="translate(`)
	gsInts(b, " ", cx, cy)
	if small {
		b.WriteString(`) scale(0.6)">`)
	} else {
		b.WriteString(`)">`)
	}
	b.WriteString(`<g` + rot + `><path d="M-19 20 L-19 -3 A19 19 0 0 1 19 -3 L19 20 L13 14 L6.5 20 L0 14 L-6.5 20 L-13 14 Z" fill="` + fill + `" stroke="` + stroke + `" stroke-width="2.5"/>`)
	b.WriteString(`<circle cx="-7" cy="-6" r="3.5" fill="#fff"/><circle cx="7" cy="-6" r="3.5" fill="#fff"/></g>`)
	// The letter goes below the eyes of an upright ghost, above those of
	// an upside-down one; an unknown ghost shows "?" there and its letter
	// small beside it.
	y, sy := "12", "-14"
	if c == geister.Second {
		y, sy = "0", "22"
	}
	if col == geister.Unknown {
		b.WriteString(`<text y="` + y + `" font-size="16" font-weight="bold" text-anchor="middle" fill="#fff">?</text><text x="25" y="` + sy + `" font-size="11" text-anchor="middle" fill="#222">` + letter + `</text>`)
	} else {
		b.WriteString(`<text y="` + y + `" font-size="15" font-weight="bold" text-anchor="middle" fill="#fff">` + letter + `</text>`)
	}
	b.WriteString(`</g>`)
}

// frame is the frame of p: the spectator's board, each player's view, the
// status and the clocks.
func (pt geisterPainter) frame(p geister.Position, known [2]bool, last geisterLastMove, move string, status string, clocks [2]string, over bool) frame {
	f := pt.spectatorFrame(p, known, last, move, status, clocks, over)
	f.Views = map[string]string{"first": pt.svg(p, 0, known, last), "second": pt.svg(p, 1, known, last)}
	return f
}

// spectatorFrame is the frame of p without the players' views.
func (pt geisterPainter) spectatorFrame(p geister.Position, known [2]bool, last geisterLastMove, move string, status string, clocks [2]string, over bool) frame {
	f := frame{
		Ply:    p.Ply(),
		Move:   move,
		Board:  pt.svg(p, -1, known, last),
		Status: status,
		Clocks: clocks,
		ToMove: int(p.Turn()),
	}
	if over {
		f.ToMove = -1
	}
	return f
}

// geisterStatus says who is to move, or how the game ended.
func geisterStatus(p geister.Position, r geister.Result) string {
	switch {
	case r.Reason == geister.Unfinished:
		red0, blue0 := p.Captured(geister.First)
		red1, blue1 := p.Captured(geister.Second)
		return fmt.Sprintf("%s to move (first lost %d red, %d blue; second lost %d red, %d blue)", p.Turn(), red0, blue0, red1, blue1)
	case r.Draw:
		return "draw: " + r.Reason.String()
	}
	return fmt.Sprintf("%s wins: %s", r.Winner, r.Reason)
}

// geisterClocks writes each side's time left from a clock snapshot: the main
// time, then "byo-yomi" and the period's time; "" for no clock.
func geisterClocks(s timer.Snapshot) [2]string {
	var out [2]string
	if s.Control.Unlimited() {
		return out
	}
	for i, ps := range s.Players {
		switch {
		case ps.Out:
			out[i] = "out of time"
		case s.Control.Main > 0 && !ps.Byoyomi:
			out[i] = formatClock(ps.Main)
		case s.Control.Period > 0:
			out[i] = "byo-yomi " + formatClock(ps.Period)
		default:
			out[i] = formatClock(ps.Left) + " a move"
		}
	}
	return out
}

// geisterLive turns a game's ply events into the watcher's frames. Frames
// are drawn only for a watcher that shows them.
//
// While the game goes on, a frame shows what a spectator may see: the
// ghosts on the board without their colours, and no player's view (either
// would show a player the opponent's colours, and anyone may open the
// viewer). Once the game is over, its last frame shows every colour and
// both views. With reveal (the operator's choice), every frame does.
type geisterLive struct {
	w      watcher
	id     string
	draw   bool
	reveal bool
	paint  geisterPainter

	mu     sync.Mutex
	began  bool
	played bool             // a ply event came: prev is the position
	prev   geister.Position // the position of the last ply event
	last   geisterLastMove  // its move, for the picture
	move   string           // its move, in words
	clocks [2]string        // its clocks
	cur    frame
}

// newGeisterLive shows a game to w, the colours hidden while it goes on
// (set reveal before the first event to show them).
func newGeisterLive(w watcher, id string) *geisterLive {
	_, nop := w.(nopWatcher)
	l := &geisterLive{w: w, id: id, draw: !nop}
	if l.draw {
		l.paint = newGeisterPainter()
	}
	return l
}

// begin announces the game while the players set their red ghosts: the
// start with every colour unknown.
func (l *geisterLive) begin(info gameInfo, ctl timer.Control) {
	if !l.draw {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.began = true
	p, _ := geister.Start(geister.RedsAt(0), geister.RedsAt(0))
	var clocks [2]string
	if !ctl.Unlimited() {
		clocks = geisterClocks(timer.NewClock(ctl, nil).Snapshot())
	}
	l.cur = l.paint.spectatorFrame(p, [2]bool{}, geisterLastMove{}, "", "the players set their red ghosts", clocks, false)
	l.w.Begin(info, l.cur)
}

// ply draws the frame of a ply event (the start of play or a move).
func (l *geisterLive) ply(e gat.PlyEvent) {
	if !l.draw {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.last, l.move = geisterLastMove{}, ""
	if e.Move != geister.NoMove && l.played {
		l.last = geisterLastMoveOf(l.prev, e.Position, e.Move)
	}
	if e.Move != geister.NoMove {
		l.move = e.Mover.String() + " " + e.Move.String()
	}
	l.played, l.prev, l.clocks = true, e.Position, geisterClocks(e.Clock)
	over := e.Result.Reason != geister.Unfinished
	l.cur = l.frameLocked(geisterStatus(e.Position, e.Result), over)
	l.w.Update(l.id, l.cur)
}

// frameLocked draws the position of the last ply event: the colours shown
// once the game is over, or with reveal.
func (l *geisterLive) frameLocked(status string, over bool) frame {
	if over || l.reveal {
		return l.paint.frame(l.prev, [2]bool{true, true}, l.last, l.move, status, l.clocks, over)
	}
	return l.paint.spectatorFrame(l.prev, [2]bool{}, l.last, l.move, status, l.clocks, over)
}

// finish ends the game with its result, every colour shown.
func (l *geisterLive) finish(res gameResult, recordFile string) {
	if !l.draw {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.began {
		return
	}
	var text string
	switch res.Winner {
	case 0, 1:
		text = fmt.Sprintf("%s wins: %s", geister.Color(res.Winner), res.Reason)
	case -1:
		text = "draw: " + res.Reason
	default:
		text = "unfinished"
	}
	if res.Detail != "" {
		text += " (" + res.Detail + ")"
	}
	if l.played {
		l.cur = l.frameLocked(text, true)
	}
	l.cur.Status, l.cur.ToMove = text, -1
	l.w.Finish(l.id, l.cur, text, recordFile)
}

// geisterServeLive shows the games of "arena serve geister" to the watcher,
// one after the other, as the host reports them.
type geisterServeLive struct {
	w      watcher
	time   timer.Control
	reveal bool // show the colours while a game goes on (-ws-reveal)

	mu   sync.Mutex
	game int                  // the game being shown
	live map[int]*geisterLive // by game ID, while it is shown
}

// serveGameID is the viewer's id of the server's game number id.
func serveGameID(id int) string { return fmt.Sprintf("serve-%d", id+1) }

// ply passes the host's event to its game, announcing the game at its
// start.
func (s *geisterServeLive) ply(e gat.PlyEvent) {
	s.mu.Lock()
	l := s.live[e.Game]
	if l == nil && e.Move == geister.NoMove {
		if s.live == nil {
			s.live = map[int]*geisterLive{}
		}
		l = newGeisterLive(s.w, serveGameID(e.Game))
		l.reveal = s.reveal
		s.live[e.Game] = l
		s.mu.Unlock()
		l.begin(gameInfo{
			ID:      l.id,
			Game:    "geister",
			Title:   fmt.Sprintf("Game %d: %s (first) vs %s (second)", e.Game+1, e.Players[0], e.Players[1]),
			Players: e.Players,
			Seats:   [2]string{"first", "second"},
		}, s.time)
	} else {
		s.mu.Unlock()
	}
	if l != nil {
		l.ply(e)
	}
}

// end finishes the game of rec in the viewer.
func (s *geisterServeLive) end(rec gat.GameRecord) {
	s.mu.Lock()
	l := s.live[rec.ID]
	delete(s.live, rec.ID)
	s.mu.Unlock()
	if l == nil {
		return
	}
	res := gameResult{Winner: -2, Reason: rec.Result.Reason.String()}
	switch {
	case rec.Result.Reason == geister.Unfinished:
	case rec.Result.Draw:
		res.Winner = -1
	default:
		res.Winner = int(rec.Result.Winner)
	}
	l.finish(res, rec.RecordFile)
}

// geisterMaxReplayPlies is the longest record a replay shows (its moves are
// listed on the page, its positions kept while it is shown): no preset lets
// a game last more than 300 plies.
const geisterMaxReplayPlies = 3000

// replayGeister reads a Geister record for the replay page: an NTPU
// board.txt, or the Java server's per-game log (log-<time>.txt, lines
// "player=N,<command>"), told apart by their content.
func replayGeister(name string, data []byte) (replay, error) {
	var (
		g       *geister.Game
		players [2]string
		known   [2]bool
		clocks  func(ply int) [2]string = func(int) [2]string { return [2]string{} }
		err     error
	)
	if geisterLooksLikeServerLog(data) {
		l, rerr := record.ReadGeisterServerLog(bytes.NewReader(data))
		if rerr != nil {
			return replay{}, fmt.Errorf("%s: a Java geister server log that does not read: %w", name, rerr)
		}
		if g, err = l.Game(); err != nil {
			return replay{}, fmt.Errorf("%s: %w", name, err)
		}
		players = [2]string{"player=0", "player=1"}
		known = [2]bool{true, true}
	} else {
		b, rerr := record.ReadGeisterBoard(bytes.NewReader(data))
		if rerr != nil {
			return replay{}, fmt.Errorf("%s: neither an NTPU board.txt nor a Java geister server log: %w", name, rerr)
		}
		rules := geister.Rules{Name: "record", IllegalMove: geister.Lose}
		if b.Result.Reason == geister.GamePlyLimitDraw {
			rules.PlyLimit = len(b.Moves)
		}
		if g, err = b.Game(rules); err != nil {
			return replay{}, fmt.Errorf("%s: %w", name, err)
		}
		clocks = func(ply int) [2]string { return geisterRecordClocks(b, ply) }
		players = [2]string{b.First, b.Second}
		for c := range players {
			if players[c] == "" {
				players[c] = geister.Color(c).String()
			}
			known[c] = b.Reds[c].Valid()
		}
	}
	moves := g.Moves()
	if len(moves) > geisterMaxReplayPlies {
		return replay{}, fmt.Errorf("%s: %d plies, more than the %d a replay shows (the presets end a game at 300)", name, len(moves), geisterMaxReplayPlies)
	}
	players = [2]string{clipText(players[0], maxNameBytes), clipText(players[1], maxNameBytes)}
	startPly := g.Ply() - len(moves)
	res, over := g.Result()
	texts := make([]string, len(moves))
	out := replay{Game: "geister", Players: players, Moves: texts}
	if over {
		out.Result = res.String()
	}
	prev, ok := g.PositionAt(startPly)
	if !ok {
		return replay{}, fmt.Errorf("%s: %w", name, errors.New("the game has no start position"))
	}
	for i, m := range moves {
		if _, ok := g.PositionAt(startPly + i + 1); !ok {
			return replay{}, fmt.Errorf("%s: no position after ply %d", name, startPly+i+1)
		}
		texts[i] = prev.Turn().String() + " " + m.String()
		prev, _ = g.PositionAt(startPly + i + 1)
	}
	// A referee's ending (a time out, a disconnect, an illegal move) comes
	// after the last ply: the last frame says it.
	refereeEnd := over && len(moves) == 0 || over && res.Reason > geister.GamePlyLimitDraw
	pt := newGeisterPainter()
	out.Frame = func(i int) frame {
		p, _ := g.PositionAt(startPly + i)
		var f frame
		if i == 0 {
			f = pt.frame(p, known, geisterLastMove{}, "", geisterStatus(p, geister.Result{}), clocks(startPly), false)
		} else {
			before, _ := g.PositionAt(startPly + i - 1)
			r := geister.Result{}
			if i == len(moves) && over {
				r = res
			}
			f = pt.frame(p, known, geisterLastMoveOf(before, p, moves[i-1]), texts[i-1], geisterStatus(p, r), clocks(startPly+i), r.Reason != geister.Unfinished)
		}
		if i == len(moves) && refereeEnd {
			f.Status, f.ToMove = geisterStatus(p, res), -1
		}
		return f
	}
	return out, nil
}

// geisterRecordClocks is each side's clock in record b after the given
// number of plies, from its timestamps: the time left of its "time" line, or
// the time used when it has none; "" where the timestamps stop. A ply's
// time is from the timestamp before it (the previous ply's arrival, or the
// first MOV?) to its own.
func geisterRecordClocks(b *record.GeisterBoard, ply int) [2]string {
	var out [2]string
	if ply >= len(b.Times) {
		return out
	}
	var used [2]time.Duration
	for k := 1; k <= ply; k++ {
		used[(k-1)%2] += max(b.Times[k].Sub(b.Times[k-1]), 0)
	}
	for c := range out {
		if b.TimeLimit > 0 {
			out[c] = formatClock(b.TimeLimit - used[c])
		} else {
			out[c] = "used " + formatClock(used[c])
		}
	}
	return out
}

// geisterLooksLikeServerLog reports whether data's first non-blank line is a
// Java server log line ("player=" or "winner=").
func geisterLooksLikeServerLog(data []byte) bool {
	for line := range bytes.Lines(data) {
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			continue
		}
		return bytes.HasPrefix(line, []byte("player=")) || bytes.HasPrefix(line, []byte("winner="))
	}
	return false
}

package main

import (
	"fmt"
	"sync"

	"github.com/botarena/botarena/geister"
	"github.com/botarena/botarena/protocol/gat"
	"github.com/botarena/botarena/timer"
	"github.com/botarena/botarena/viewer"
)

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
			out[i] = viewer.FormatClock(ps.Main)
		case s.Control.Period > 0:
			out[i] = "byo-yomi " + viewer.FormatClock(ps.Period)
		default:
			out[i] = viewer.FormatClock(ps.Left) + " a move"
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
// both views. With reveal (the operator's choice), every frame does. With
// views (a person plays), every frame of play carries both players' views,
// which each person's seat page shows (the viewer gives a seat its own
// view only, and spectators none while the game goes on).
type geisterLive struct {
	w      viewer.Watcher
	id     string
	draw   bool
	reveal bool
	views  bool

	mu     sync.Mutex
	began  bool
	played bool             // a ply event came: prev is the position
	prev   geister.Position // the position of the last ply event
	before geister.Position // the position before it, for the picture
	last   geister.Move     // its move, geister.NoMove for none
	move   string           // its move, in words
	clocks [2]string        // its clocks
	names  [2]string        // the players, first seat first
	cur    viewer.Frame
}

// newGeisterLive shows a game to w, the colours hidden while it goes on
// (set reveal before the first event to show them).
func newGeisterLive(w viewer.Watcher, id string) *geisterLive {
	_, nop := w.(viewer.Discard)
	l := &geisterLive{w: w, id: id, draw: !nop}
	return l
}

// begin announces the game while the players set their red ghosts: the
// start with every colour unknown.
func (l *geisterLive) begin(info viewer.GameInfo, ctl timer.Control) {
	if !l.draw {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.began = true
	l.names = info.Players
	p, _ := geister.Start(geister.RedsAt(0), geister.RedsAt(0))
	var clocks [2]string
	if !ctl.Unlimited() {
		clocks = geisterClocks(timer.NewClock(ctl, nil).Snapshot())
	}
	l.cur = viewer.GeisterFrame(p, viewer.GeisterFrameOptions{Status: "the players set their red ghosts", Clocks: clocks})
	l.w.Begin(info, l.cur)
}

// ply draws the frame of a ply event (the start of play or a move).
func (l *geisterLive) ply(e gat.PlyEvent) {
	if !l.draw {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.last, l.move = geister.NoMove, ""
	if e.Move != geister.NoMove && l.played {
		l.before, l.last = l.prev, e.Move
	}
	if e.Move != geister.NoMove {
		l.move = e.Mover.String() + " " + e.Move.String()
	}
	l.played, l.prev, l.clocks = true, e.Position, geisterClocks(e.Clock)
	over := e.Result.Reason != geister.Unfinished
	l.cur = l.frameLocked(viewer.GeisterStatus(e.Position, e.Result), over)
	l.w.Update(l.id, l.cur)
}

// frameLocked draws the position of the last ply event: the colours shown
// once the game is over, or with reveal.
func (l *geisterLive) frameLocked(status string, over bool) viewer.Frame {
	o := viewer.GeisterFrameOptions{Last: l.last, Before: l.before, Move: l.move, Status: status, Clocks: l.clocks, Over: over}
	if over || l.reveal {
		o.Known, o.Views = [2]bool{true, true}, true
	}
	o.Views = o.Views || l.views
	return viewer.GeisterFrame(l.prev, o)
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
	text := endingStatus(l.names, res)
	if l.played {
		l.cur = l.frameLocked(text, true)
	}
	l.cur.Status, l.cur.ToMove = text, -1
	l.w.Finish(l.id, l.cur, text, recordFile)
}

// geisterServeLive shows the games of "arena serve geister" to the watcher,
// one after the other, as the host reports them.
type geisterServeLive struct {
	w      viewer.Watcher
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
		l.begin(viewer.GameInfo{
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
	res := gameResult{Winner: -2, Reason: rec.Result.Reason.String(), Ending: geisterEnding(rec.Result.Reason)}
	switch {
	case rec.Result.Reason == geister.Unfinished:
	case rec.Result.Draw:
		res.Winner = -1
	default:
		res.Winner = int(rec.Result.Winner)
	}
	l.finish(res, rec.RecordFile)
}

package viewer

import (
	"embed"
	"fmt"
	"html/template"
	"io/fs"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"sync"
	"time"
)

// webUI holds the viewer's pages (webui/*.html, html/template) and its
// static files (webui/static: the style sheet and the scripts). Everything
// the browser loads comes from here: the viewer works offline.
//
//go:embed webui
var webUI embed.FS

// Limits bound what the viewer keeps and accepts, so that its memory
// stays bounded however long it runs and whatever it is sent (see
// store.go for how a replay is kept).
type Limits struct {
	MaxFinished    int           // finished games kept for the index and their live pages (the oldest go first)
	MaxLive        int           // games in progress at once; beyond, the oldest is set aside as finished
	MaxMoves       int           // moves kept per game for the move list; later moves are counted but not listed
	MaxRecordBytes int64         // the largest record file read or uploaded
	MaxPlies       int           // the most plies a replay page lists (each game's Replay has its own cap, lower)
	MaxHeavy       int           // requests that read a record or draw a frame served at once (a semaphore)
	HeavyWait      time.Duration // how long such a request waits for its turn before it gets 503
	MaxUploads     int           // uploaded records kept for their replay pages (the oldest go first)
	MaxUploadBytes int64         // the bytes of the uploaded records kept (the oldest go first)
	MaxParsed      int           // records kept read, for their frames (the least recently used go first)
	MaxListed      int           // record files the index lists (its games) or leaves out as parts of them
	MaxWalk        int           // directory entries looked at when listing record files
	MaxDepth       int           // directory levels below a record directory that are listed
	MaxCheckBytes  int64         // the bytes of record files the index reads, per listing, to check that they replay
	WriteTimeout   time.Duration // a write to an event stream that takes longer drops that client
	IndexInterval  time.Duration // the index's event stream sends at most one message per interval
}

// viewerMaxHeavy is how many requests that read a record or draw a frame
// (a replay page, an upload, a frame, the index's check of the record
// files) the viewer serves at once: each may hold a record of
// MaxRecordBytes and its reading. The others wait their turn for
// viewerHeavyWait, then get 503 (the index lists the files checked before).
const (
	viewerMaxHeavy  = 4
	viewerHeavyWait = 2 * time.Second
)

// maxReplayPageBytes is the most a replay page weighs, whatever the record:
// its moves, and no picture (the pages fetch each ply's frame). The longest
// record of each game's Replay cap fits (tested).
const maxReplayPageBytes = 256 << 10

// DefaultLimits are the limits of a viewer of Options with no Limits:
// 1000 finished games kept, 1000 live at once, records of at most 4 MiB,
// 4 heavy requests at once, 64 uploads (32 MiB) kept, ...
func DefaultLimits() Limits {
	return Limits{
		MaxFinished:    1000,
		MaxLive:        1000,
		MaxMoves:       20000,
		MaxRecordBytes: 4 << 20,
		MaxPlies:       20000,
		MaxHeavy:       viewerMaxHeavy,
		HeavyWait:      viewerHeavyWait,
		MaxUploads:     64,
		MaxUploadBytes: 32 << 20,
		MaxParsed:      16,
		MaxListed:      1000,
		MaxWalk:        50000,
		MaxDepth:       8,
		MaxCheckBytes:  64 << 20,
		WriteTimeout:   15 * time.Second,
		IndexInterval:  250 * time.Millisecond,
	}
}

// A Viewer serves the live and replay pages (see ServeHTTP) of the games it
// is told about (it is a Watcher) and of record files. Make one with New.
// It is safe for concurrent use, never blocks a host on a slow browser,
// and its memory is bounded by its Limits however long it runs.
type Viewer struct {
	limits  Limits
	handler http.Handler
	defs    []*Game  // the games, whose Replay reads their records
	dirs    []string // the record files and directories given
	pages   *template.Template
	static  fs.FS
	store   *replayStore
	heavy   chan struct{} // a semaphore of MaxHeavy: the requests that read a record or draw a frame

	mu       sync.Mutex
	games    map[string]*liveGame // every game kept, live or finished
	live     []*liveGame          // the games in progress, oldest first
	finished []*liveGame          // the games over, oldest first (at most MaxFinished)
	records  map[string]int       // record files the games wrote (resolved paths, how many games name each), readable by the replay page
	version  uint64               // changes with every event, for the index stream
	indexSub map[chan struct{}]struct{}
	seats    map[string]*gameSeats // the seats persons play (seat.go), by game id
}

// liveGame is one game the viewer was told about.
type liveGame struct {
	info     GameInfo
	started  time.Time
	cur      Frame
	moves    []string // the moves of plies 1, 2, ... (at most MaxMoves)
	finished bool
	result   string
	record   string
	// recordReal is the record's path with symbolic links resolved.
	recordReal string
	subs       map[chan struct{}]struct{} // the event streams following it
}

// Options configure a Viewer.
type Options struct {
	// Games are the kinds of game whose records the replay pages read
	// (an upload is tried with each in turn); nil means Games().
	Games []Game
	// Records are record files and directories the index lists and the
	// replay pages read (files under a directory, MaxDepth levels down;
	// symbolic links are followed only within them). None: the replay
	// pages read the uploads and the record files named by Finish alone.
	Records []string
	// Limits bound what the viewer keeps and accepts; the zero Limits
	// means DefaultLimits().
	Limits Limits
}

// New makes a viewer with options o. It fails only if its embedded pages do
// not parse.
func New(o Options) (*Viewer, error) {
	limits, dirs := o.Limits, o.Records
	if limits == (Limits{}) {
		limits = DefaultLimits()
	}
	games := slices.Clone(o.Games)
	if games == nil {
		games = Games()
	}
	defs := make([]*Game, len(games))
	for i := range games {
		defs[i] = &games[i]
	}
	pages, err := template.New("").Funcs(template.FuncMap{
		"replayLink": replayLink,
		"kib":        func(n int64) string { return fmt.Sprintf("%.1f KiB", float64(n)/1024) },
	}).ParseFS(webUI, "webui/*.html")
	if err != nil {
		return nil, fmt.Errorf("web viewer: the embedded pages: %w", err)
	}
	static, err := fs.Sub(webUI, "webui/static")
	if err != nil {
		return nil, fmt.Errorf("web viewer: %w", err)
	}
	v := &Viewer{
		limits:   limits,
		defs:     defs,
		dirs:     dirs,
		pages:    pages,
		static:   static,
		store:    newReplayStore(limits),
		heavy:    make(chan struct{}, max(limits.MaxHeavy, 1)),
		games:    map[string]*liveGame{},
		records:  map[string]int{},
		indexSub: map[chan struct{}]struct{}{},
		seats:    map[string]*gameSeats{},
	}
	v.handler = v.routes()
	return v, nil
}

// ServeHTTP serves the viewer's pages (see routes for the list): the index
// of live and finished games, record files and the upload form; each game's
// live page and event stream; the replay pages of record files and uploads.
func (v *Viewer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	v.handler.ServeHTTP(w, r)
}

// Begin announces a game and its first frame. A game begun again under the
// same id starts afresh. The texts of a game (its title, players, each
// frame's move and status, the result) are shown made valid and cut, as
// a record's are.
func (v *Viewer) Begin(info GameInfo, start Frame) {
	info.Title = clipText(info.Title, maxResultBytes)
	for i := range info.Players {
		info.Players[i] = clipText(info.Players[i], maxNameBytes)
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	if old := v.games[info.ID]; old != nil {
		v.dropLocked(old)
	}
	g := &liveGame{info: info, started: time.Now(), cur: copyFrame(start), subs: map[chan struct{}]struct{}{}}
	v.games[info.ID] = g
	v.live = append(v.live, g)
	if len(v.live) > v.limits.MaxLive {
		old := v.live[0]
		v.finishLocked(old, old.cur, "no result: set aside, too many games at once", "")
	}
	v.changedLocked(g)
}

// Update gives the frame after a ply. A frame of an earlier ply than the
// game's last (a person took moves back) cuts the move list to its ply, and
// the pages following the game drop the moves taken back.
func (v *Viewer) Update(id string, f Frame) {
	v.mu.Lock()
	defer v.mu.Unlock()
	g := v.games[id]
	if g == nil || g.finished {
		return
	}
	if f.Ply >= 0 && f.Ply < len(g.moves) {
		g.moves = g.moves[:f.Ply:f.Ply]
	}
	v.addMovesLocked(g, f)
	g.cur = copyFrame(f)
	v.changedLocked(g)
}

// Finish ends a game with its last frame, the result in words and the
// record file. A game never begun is shown as finished all the same.
func (v *Viewer) Finish(id string, last Frame, result, record string) {
	real := ""
	if record != "" {
		real, _ = resolve(record) // the replay page may read it, wherever it is
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	g := v.games[id]
	if g == nil {
		g = &liveGame{info: GameInfo{ID: id, Title: id}, started: time.Now(), subs: map[chan struct{}]struct{}{}}
		v.games[id] = g
		v.live = append(v.live, g)
	}
	if g.finished {
		return
	}
	result = clipText(result, maxResultBytes)
	g.recordReal = real
	v.finishLocked(g, last, result, record)
}

// addMovesLocked extends g's move list up to f's ply.
func (v *Viewer) addMovesLocked(g *liveGame, f Frame) {
	for ply := len(g.moves) + 1; ply <= f.Ply && len(g.moves) < v.limits.MaxMoves; ply++ {
		m := "…"
		if ply == f.Ply && f.Move != "" {
			m = clipText(f.Move, maxResultBytes)
		}
		g.moves = append(g.moves, m)
	}
}

// finishLocked moves g from the live games to the finished ones.
func (v *Viewer) finishLocked(g *liveGame, last Frame, result, record string) {
	v.addMovesLocked(g, last)
	g.cur = copyFrame(last)
	g.cur.ToMove = -1
	g.finished, g.result, g.record = true, result, record
	if g.recordReal != "" {
		v.records[g.recordReal]++
	}
	v.live = deleteGame(v.live, g)
	v.finished = append(v.finished, g)
	for len(v.finished) > v.limits.MaxFinished {
		v.dropLocked(v.finished[0])
	}
	v.changedLocked(g)
}

// dropLocked forgets g (its followers get nothing more).
func (v *Viewer) dropLocked(g *liveGame) {
	if v.games[g.info.ID] == g {
		delete(v.games, g.info.ID)
	}
	v.live = deleteGame(v.live, g)
	v.finished = deleteGame(v.finished, g)
	if g.recordReal != "" && g.finished {
		if v.records[g.recordReal]--; v.records[g.recordReal] <= 0 {
			delete(v.records, g.recordReal)
		}
	}
	for ch := range g.subs {
		delete(g.subs, ch)
		close(ch)
	}
}

// changedLocked tells g's followers and the index's that something changed.
// A follower that has not taken the last news yet gets nothing more: it
// reads the latest state when it gets to it.
func (v *Viewer) changedLocked(g *liveGame) {
	v.version++
	for ch := range g.subs {
		poke(ch)
	}
	for ch := range v.indexSub {
		poke(ch)
	}
	v.seatStreamsChangedLocked(g.info.ID)
}

// poke sends on a channel of capacity 1 unless it is full.
func poke(ch chan struct{}) {
	select {
	case ch <- struct{}{}:
	default:
	}
}

// deleteGame removes g from list.
func deleteGame(list []*liveGame, g *liveGame) []*liveGame {
	for i, x := range list {
		if x == g {
			return append(list[:i], list[i+1:]...)
		}
	}
	return list
}

// copyFrame copies f's views, so that a caller that reuses its map does not
// change what the viewer shows.
func copyFrame(f Frame) Frame {
	f.Move, f.Status = clipText(f.Move, maxResultBytes), clipText(f.Status, maxResultBytes)
	if f.Views != nil {
		f.Views = maps.Clone(f.Views)
	}
	return f
}

// gameState is one message of a game's event stream: the game, its latest
// frame, and the moves the browser has not been sent yet (from ply From+1).
type gameState struct {
	Info     GameInfo `json:"info"`
	Frame    Frame    `json:"frame"`
	From     int      `json:"from"`
	Moves    []string `json:"moves"`
	Finished bool     `json:"finished"`
	Result   string   `json:"result,omitempty"`
	Record   string   `json:"record,omitempty"`
	Replay   string   `json:"replay,omitempty"` // the replay page of the record
}

// stateLocked is g's state for a browser that was sent the first from moves.
func (g *liveGame) stateLocked(from int) gameState {
	from = min(from, len(g.moves))
	s := gameState{Info: g.info, Frame: g.cur, From: from, Moves: append([]string(nil), g.moves[from:]...),
		Finished: g.finished, Result: g.result, Record: g.record}
	if g.finished && g.record != "" {
		s.Replay = replayLink(g.record, g.info.Game)
	}
	return s
}

// gameSummary is one game on the index.
type gameSummary struct {
	ID       string    `json:"id"`
	Game     string    `json:"game"`
	Title    string    `json:"title"`
	Players  [2]string `json:"players"`
	Seats    [2]string `json:"seats"`
	Ply      int       `json:"ply"`
	Clocks   [2]string `json:"clocks"`
	ToMove   int       `json:"toMove"`
	Status   string    `json:"status"`
	Finished bool      `json:"finished"`
	Result   string    `json:"result,omitempty"`
	Record   string    `json:"record,omitempty"`
	Replay   string    `json:"replay,omitempty"`
	Started  string    `json:"started"`
}

// summaryLocked is g for the index.
func (g *liveGame) summaryLocked() gameSummary {
	s := gameSummary{ID: g.info.ID, Game: g.info.Game, Title: g.info.Title, Players: g.info.Players, Seats: g.info.Seats,
		Ply: g.cur.Ply, Clocks: g.cur.Clocks, ToMove: g.cur.ToMove, Status: g.cur.Status,
		Finished: g.finished, Result: g.result, Record: g.record, Started: g.started.Format("15:04:05")}
	if g.finished && g.record != "" {
		s.Replay = replayLink(g.record, g.info.Game)
	}
	return s
}

// indexState is one message of the index's event stream: the live games and
// the latest finished ones, newest first.
type indexState struct {
	Live      []gameSummary `json:"live"`
	Finished  []gameSummary `json:"finished"`
	NFinished int           `json:"nFinished"`
}

// indexShown is how many finished games the index shows.
const indexShown = 200

// indexStateLocked is the index's state.
func (v *Viewer) indexStateLocked() indexState {
	s := indexState{Live: []gameSummary{}, Finished: []gameSummary{}, NFinished: len(v.finished)}
	for _, g := range v.live {
		s.Live = append(s.Live, g.summaryLocked())
	}
	for i := len(v.finished) - 1; i >= 0 && len(s.Finished) < indexShown; i-- {
		s.Finished = append(s.Finished, v.finished[i].summaryLocked())
	}
	return s
}

// replayLink is the replay page of a record file of game ("" when unknown).
func replayLink(file, game string) string {
	q := url.Values{"file": {file}}
	if game != "" {
		q.Set("game", game)
	}
	return "/replay?" + q.Encode()
}

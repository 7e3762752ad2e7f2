package viewer

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"time"
)

// routes is the viewer's HTTP interface:
//
//	GET  /                 the index: live games, finished games, record files, upload form
//	GET  /events           the index's event stream (SSE): the games, as they change
//	GET  /live/{id}        a game's live page
//	GET  /events/{id}      the game's event stream (SSE): its frames, moves, result
//	GET  /play/{id}?seat=T a seat's page, where a person plays (the live page without a seat's token)
//	GET  /play/{id}/events?seat=T  the seat's event stream (SSE): its view, the question asked
//	POST /play/{id}/act?seat=T     the seat's answer (form: session, n, kind, move)
//	GET  /replay?file=F    the replay page of record file F (under the record directories): its moves
//	GET  /replay?upload=U  the replay page of upload U
//	GET  /replay/frame?file=F&game=G&ply=N[&view=V]   one frame of a replay (JSON), drawn then
//	GET  /replay/frame?upload=U&game=G&ply=N[&view=V]
//	GET  /replay/start?file=F&game=G&ply=N    the start file at ply N, as a download (Replay.Start)
//	GET  /replay/start?upload=U&game=G&ply=N
//	GET  /replay/output?file=F&game=G&ply=N   the programs' output of ply N (JSON), from the record's directory
//	GET  /replay/output?upload=U&game=G&ply=N (an upload has none: the answer says so)
//	POST /replay           an upload (a form's "file", or the body): kept, and 303 to its replay page
//	GET  /static/...       the style sheet and the scripts
//
// No request can make it panic (a panic in a game's Replay is caught), and
// every answer about bad input is a 4xx page saying what was wrong. The
// requests that read a record or draw a frame are served at most MaxHeavy
// at once; past that they get 503.
func (v *Viewer) routes() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", v.serveIndex)
	mux.HandleFunc("GET /events", v.serveIndexEvents)
	mux.HandleFunc("GET /live/{id}", v.serveLive)
	mux.HandleFunc("GET /events/{id}", v.serveGameEvents)
	mux.HandleFunc("GET /play/{id}", v.serveSeat)
	mux.HandleFunc("GET /play/{id}/events", v.serveSeatEvents)
	mux.HandleFunc("POST /play/{id}/act", v.serveSeatAnswer)
	mux.HandleFunc("GET /replay", v.serveReplay)
	mux.HandleFunc("GET /replay/frame", v.serveFrame)
	mux.HandleFunc("GET /replay/start", v.serveStart)
	mux.HandleFunc("GET /replay/output", v.serveOutput)
	mux.HandleFunc("POST /replay", v.serveReplayUpload)
	mux.Handle("GET /static/", http.StripPrefix("/static/", http.FileServerFS(v.static)))
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		v.fail(w, http.StatusNotFound, "Not found", fmt.Sprintf("There is no page %q here: see the index.", r.URL.Path))
	})
	return secure(mux)
}

// secure adds the security headers (the pages load nothing but the
// viewer's own files) and turns a panic into a 500 rather than a dropped
// connection.
func secure(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if p := recover(); p != nil {
				if p == http.ErrAbortHandler {
					panic(p)
				}
				http.Error(w, fmt.Sprintf("internal error: %v", p), http.StatusInternalServerError)
			}
		}()
		hd := w.Header()
		hd.Set("Content-Security-Policy", "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'")
		hd.Set("X-Content-Type-Options", "nosniff")
		hd.Set("Referrer-Policy", "no-referrer")
		h.ServeHTTP(w, r)
	})
}

// page renders template name with data, status code status.
func (v *Viewer) page(w http.ResponseWriter, status int, name string, data any) {
	var b bytes.Buffer
	if err := v.pages.ExecuteTemplate(&b, name, data); err != nil {
		http.Error(w, "web viewer: page "+name+": "+err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	w.Write(b.Bytes())
}

// errorPage is the data of the error page.
type errorPage struct {
	Title   string
	Message string
	Formats []gameFormat
}

// fail answers with the error page.
func (v *Viewer) fail(w http.ResponseWriter, status int, title, message string) {
	v.page(w, status, "error.html", errorPage{Title: title, Message: message})
}

// indexPage is the data of the index.
type indexPage struct {
	State   indexState
	Records []recordGroup
	Listing string // a note on the listing (cut short, unreadable directory)
	Formats []gameFormat
	MaxSize string
}

// serveIndex serves the index.
func (v *Viewer) serveIndex(w http.ResponseWriter, r *http.Request) {
	v.mu.Lock()
	st := v.indexStateLocked()
	v.mu.Unlock()
	// Checking that the record files replay reads them: a heavy request.
	// Without a turn, the files checked before are listed.
	release, check := v.acquire(r.Context())
	if check {
		defer release()
	}
	files, note := v.listRecords(check)
	v.page(w, http.StatusOK, "index.html", indexPage{State: st, Records: files, Listing: note,
		Formats: gameFormats(v.defs), MaxSize: fmt.Sprintf("%d MiB", v.limits.MaxRecordBytes>>20)})
}

// livePage is the data of a game's live page.
type livePage struct {
	ID    string
	Info  GameInfo
	State gameState
}

// serveLive serves a game's live page.
func (v *Viewer) serveLive(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	v.mu.Lock()
	g := v.games[id]
	var st gameState
	if g != nil {
		st = v.spectatorStateLocked(g, 0)
	}
	v.mu.Unlock()
	if g == nil {
		v.fail(w, http.StatusNotFound, "No such game", fmt.Sprintf("The viewer has no game %q: it never began, or it finished long ago (the viewer keeps the last %d).", id, v.limits.MaxFinished))
		return
	}
	v.page(w, http.StatusOK, "live.html", livePage{ID: id, Info: st.Info, State: st})
}

// spectatorStateLocked is g's state for a spectator sent the first from
// moves. While persons play the game (it has seats open), it carries no
// player's view: a view shows one player's hidden information, which the
// other person, on the spectators' page too, must not get. A game of
// programs shows the views its host gives (the host decides what is
// revealed), and a finished game its views, which hide nothing any more.
func (v *Viewer) spectatorStateLocked(g *liveGame, from int) gameState {
	st := g.stateLocked(from)
	if !st.Finished && v.seats[g.info.ID] != nil {
		st.Frame.Views = nil
	}
	return st
}

// startStream writes the headers of an event stream.
func startStream(w http.ResponseWriter) {
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
}

// sendEvent writes one event of an event stream and flushes it, within the
// write timeout: a browser that does not read loses its stream, never
// holding up anything else.
func (v *Viewer) sendEvent(w http.ResponseWriter, event string, data any) error {
	b, err := json.Marshal(data)
	if err != nil {
		return err
	}
	rc := http.NewResponseController(w)
	rc.SetWriteDeadline(time.Now().Add(v.limits.WriteTimeout))
	var buf bytes.Buffer
	buf.Grow(len(b) + 32)
	fmt.Fprintf(&buf, "event: %s\ndata: ", event)
	buf.Write(b) // JSON has no raw line breaks
	buf.WriteString("\n\n")
	if _, err := w.Write(buf.Bytes()); err != nil {
		return err
	}
	return rc.Flush()
}

// keepAlive is how often an idle event stream gets a comment, so that
// nothing between the browser and the viewer closes it.
const keepAlive = 20 * time.Second

// serveGameEvents streams a game: a "state" event with the whole game
// first, then one whenever it changes, with the moves the browser lacks.
// Between two sends it skips the frames it had no time for: the latest
// frame is all a browser needs. The stream ends once the game is over.
func (v *Viewer) serveGameEvents(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	ch := make(chan struct{}, 1)
	v.mu.Lock()
	g := v.games[id]
	if g != nil {
		g.subs[ch] = struct{}{}
	}
	v.mu.Unlock()
	if g == nil {
		http.Error(w, fmt.Sprintf("no game %q", id), http.StatusNotFound)
		return
	}
	defer func() {
		v.mu.Lock()
		delete(g.subs, ch)
		v.mu.Unlock()
	}()
	sent := 0
	v.stream(w, r, ch, func() bool {
		v.mu.Lock()
		st := v.spectatorStateLocked(g, sent)
		v.mu.Unlock()
		if v.sendEvent(w, "state", st) != nil {
			return false
		}
		sent = st.From + len(st.Moves)
		return !st.Finished
	})
}

// stream runs an event stream: send at once, then after every signal on
// changed, with a keep-alive comment when nothing changes for a while,
// until send returns false, changed is closed or the browser leaves.
func (v *Viewer) stream(w http.ResponseWriter, r *http.Request, changed chan struct{}, send func() bool) {
	startStream(w)
	// The first send is made here, not by a signal on changed: a signal
	// sent before this line may already fill it, and the game may already
	// have been dropped (changed closed).
	if !send() {
		return
	}
	tick := time.NewTicker(keepAlive)
	defer tick.Stop()
	for {
		select {
		case <-r.Context().Done():
			return
		case <-tick.C:
			if v.comment(w) != nil {
				return
			}
			continue
		case _, ok := <-changed:
			if !ok {
				return // the game was dropped
			}
		}
		if !send() {
			return
		}
	}
}

// comment writes a keep-alive comment to an event stream.
func (v *Viewer) comment(w http.ResponseWriter) error {
	rc := http.NewResponseController(w)
	rc.SetWriteDeadline(time.Now().Add(v.limits.WriteTimeout))
	if _, err := w.Write([]byte(": ping\n\n")); err != nil {
		return err
	}
	return rc.Flush()
}

// serveIndexEvents streams the index: an "index" event with the live games
// and the latest finished ones, first at once, then after each change, at
// most one per IndexInterval.
func (v *Viewer) serveIndexEvents(w http.ResponseWriter, r *http.Request) {
	ch := make(chan struct{}, 1)
	v.mu.Lock()
	v.indexSub[ch] = struct{}{}
	v.mu.Unlock()
	defer func() {
		v.mu.Lock()
		delete(v.indexSub, ch)
		v.mu.Unlock()
	}()
	v.stream(w, r, ch, func() bool {
		v.mu.Lock()
		st := v.indexStateLocked()
		v.mu.Unlock()
		if v.sendEvent(w, "index", st) != nil {
			return false
		}
		pause := time.NewTimer(v.limits.IndexInterval)
		defer pause.Stop()
		select {
		case <-r.Context().Done():
			return false
		case <-pause.C:
			return true
		}
	})
}

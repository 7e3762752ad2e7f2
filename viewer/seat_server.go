package viewer

import (
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"
)

// seatCookie names the browser a seat page is open in: a random value the
// seat page sets once per browser (for its session), sent back with the
// seat's event stream. A seat is held by one page at a time (the first to
// follow its event stream); a page of the browser that holds it takes it
// over, so that a reload works at once, although the old page's stream
// may not be closed yet (a browser ends it when it gets to it, and a
// proxy may keep it open longer). A page of another browser gets 409 and
// says that the seat is open elsewhere. The cookie gives nothing to
// whoever lacks the seat's token: it only tells two browsers apart.
const seatCookie = "botarena-browser"

// browserOf returns the browser named by r's seatCookie, "" for none or
// one that is not a value seatCookie is given.
func browserOf(r *http.Request) string {
	c, err := r.Cookie(seatCookie)
	if err != nil || len(c.Value) != 2*seatTokenBytes {
		return ""
	}
	if _, err := hex.DecodeString(c.Value); err != nil {
		return ""
	}
	return c.Value
}

// seatPage is the data of a seat's page.
type seatPage struct {
	ID       string
	Info     GameInfo
	State    gameState
	Seat     int
	SeatName string
	Token    string
}

// serveSeat serves a seat's page: the live page for a request without a
// token (a spectator), 403 for a token that is not the seat's.
func (v *Viewer) serveSeat(w http.ResponseWriter, r *http.Request) {
	id, token := r.PathValue("id"), r.URL.Query().Get("seat")
	if token == "" {
		v.serveLive(w, r)
		return
	}
	v.mu.Lock()
	s, i := v.seatLocked(id, token)
	g := v.games[id]
	var st gameState
	if s != nil && g != nil {
		st = seatState(g.stateLocked(0), i)
	}
	v.mu.Unlock()
	switch {
	case s == nil:
		v.fail(w, http.StatusForbidden, "Not your seat", fmt.Sprintf("This link opens no seat of game %q: its token is wrong, or the game is over. Without a token, the game's page is a spectator's.", id))
		return
	case g == nil:
		st = gameState{Info: GameInfo{ID: id, Title: id}, Frame: Frame{ToMove: -1}}
	}
	if browserOf(r) == "" {
		http.SetCookie(w, &http.Cookie{Name: seatCookie, Value: newSession(), Path: "/play/", HttpOnly: true, SameSite: http.SameSiteStrictMode})
	}
	v.page(w, http.StatusOK, "play.html", seatPage{ID: id, Info: st.Info, State: st, Seat: i, SeatName: st.Info.Seats[i], Token: token})
}

// seatState is st as seat i sees it: the frame its view (Frame.Views by
// the seat's name), never another seat's.
func seatState(st gameState, i int) gameState {
	name := st.Info.Seats[i]
	if view, ok := st.Frame.Views[name]; ok {
		st.Frame.Board = view
	}
	st.Frame.Views = nil
	return st
}

// seatEvent is one message of a seat's event stream.
type seatEvent struct {
	Session  string    `json:"session"`  // the page's session, which its answers name
	State    gameState `json:"state"`    // the game as the seat sees it
	N        uint64    `json:"n"`        // the question's number, 0 for none
	Question *Question `json:"question"` // the question asked, nil for none or when Same
	// Same says that question N is asked still and that this stream sent
	// it already: it is not sent again (a PDD seat's first question,
	// every pair of tiles, is most of a megabyte).
	Same bool `json:"same,omitempty"`
	// Left is the time to the question's Deadline when the event was
	// sent, in milliseconds (0 for none or past): the page counts down
	// from it with its own clock, whatever the browser's time of day.
	Left   int64 `json:"left"`
	Closed bool  `json:"closed"` // the seat is closed: the game is over for it
	// Taken says that another page of the same browser took the seat
	// over: this stream ends, and its page no longer answers.
	Taken bool `json:"taken,omitempty"`
}

// serveSeatEvents streams a seat: a "seat" event with the seat's view of
// the game and the question asked, first at once, then whenever either
// changes. The first page to follow a seat holds it until it leaves; a
// page of another browser gets 409, a page of the same browser (by
// seatCookie: a reload, another tab) takes the seat over, and the page
// that held it gets a last event saying so.
func (v *Viewer) serveSeatEvents(w http.ResponseWriter, r *http.Request) {
	id, token := r.PathValue("id"), r.URL.Query().Get("seat")
	browser := browserOf(r)
	session := newSession()
	ch := make(chan struct{}, 1)
	v.mu.Lock()
	s, i := v.seatLocked(id, token)
	busy := s != nil && s.holder != "" && (browser == "" || s.browser != browser)
	if s != nil && !busy {
		if s.holder != "" {
			pokeStreams(s) // the page that held it learns that it is taken
		}
		s.holder, s.browser = session, browser
		s.streams[ch] = struct{}{}
	}
	v.mu.Unlock()
	switch {
	case s == nil:
		http.Error(w, "this link opens no seat of the game", http.StatusForbidden)
		return
	case busy:
		http.Error(w, "this seat is open in another browser: close it there first", http.StatusConflict)
		return
	}
	defer func() {
		v.mu.Lock()
		if s.holder == session {
			s.holder, s.browser = "", ""
		}
		delete(s.streams, ch)
		v.mu.Unlock()
	}()
	sent := 0
	var asked uint64 // the number of the question this stream sent last
	v.stream(w, r, ch, func() bool {
		v.mu.Lock()
		ev := seatEvent{Session: session}
		if s.holder != session {
			v.mu.Unlock()
			ev.Taken = true
			v.sendEvent(w, "seat", ev)
			return false
		}
		cur := v.games[id]
		if cur != nil {
			ev.State = seatState(cur.stateLocked(sent), i)
		} else {
			ev.State = gameState{Info: GameInfo{ID: id, Title: id}, Frame: Frame{ToMove: -1}}
		}
		if s.asked != nil {
			q := s.asked.q
			ev.N = s.asked.n
			if ev.N == asked {
				ev.Same = true
			} else {
				ev.Question = &q
			}
			if !q.Deadline.IsZero() {
				ev.Left = max(time.Until(q.Deadline).Milliseconds(), 0)
			}
		}
		gs := v.seats[id]
		ev.Closed = gs == nil || gs.seat[i] != s
		v.mu.Unlock()
		if v.sendEvent(w, "seat", ev) != nil {
			return false
		}
		sent = ev.State.From + len(ev.State.Moves)
		asked = ev.N
		return !ev.Closed
	})
}

// serveSeatAnswer takes a seat page's answer (a form: session, n, kind,
// move): 204 when it is taken, 403 for a page that does not hold the seat,
// 409 for a question no longer asked, 400 for an answer not allowed, 413
// for a body longer than maxSeatAnswerBytes.
func (v *Viewer) serveSeatAnswer(w http.ResponseWriter, r *http.Request) {
	id, token := r.PathValue("id"), r.URL.Query().Get("seat")
	r.Body = http.MaxBytesReader(w, r.Body, maxSeatAnswerBytes)
	if err := r.ParseForm(); err != nil {
		if _, ok := errors.AsType[*http.MaxBytesError](err); ok {
			http.Error(w, fmt.Sprintf("the answer is longer than %d bytes", maxSeatAnswerBytes), http.StatusRequestEntityTooLarge)
			return
		}
		http.Error(w, "the answer cannot be read: "+err.Error(), http.StatusBadRequest)
		return
	}
	var a Answer
	if err := a.Kind.UnmarshalText([]byte(r.PostForm.Get("kind"))); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	a.Move = r.PostForm.Get("move")
	n, err := strconv.ParseUint(r.PostForm.Get("n"), 10, 64)
	if err != nil {
		http.Error(w, "the answer names no question (n)", http.StatusBadRequest)
		return
	}
	v.mu.Lock()
	s, _ := v.seatLocked(id, token)
	status := http.StatusNoContent
	switch {
	case s == nil:
		status, err = http.StatusForbidden, errors.New("a spectator moves nothing: this request names no seat of the game")
	case s.holder == "" || s.holder != r.PostForm.Get("session"):
		status, err = http.StatusForbidden, errors.New("this seat is held by another page: answer from the page that shows it")
	default:
		status, err = answerLocked(s, n, a)
		if err == nil {
			v.seatChangedLocked(id)
		}
	}
	v.mu.Unlock()
	if err != nil {
		http.Error(w, err.Error(), status)
		return
	}
	w.WriteHeader(status)
}

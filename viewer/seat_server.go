package viewer

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
)

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
	Question *Question `json:"question"` // the question asked, nil for none
	Closed   bool      `json:"closed"`   // the seat is closed: the game is over for it
}

// serveSeatEvents streams a seat: a "seat" event with the seat's view of
// the game and the question asked, first at once, then whenever either
// changes. The first page to follow a seat holds it until it leaves; the
// others get 409.
func (v *Viewer) serveSeatEvents(w http.ResponseWriter, r *http.Request) {
	id, token := r.PathValue("id"), r.URL.Query().Get("seat")
	session := newSession()
	ch := make(chan struct{}, 1)
	v.mu.Lock()
	s, i := v.seatLocked(id, token)
	g := v.games[id]
	busy := s != nil && s.holder != ""
	if s != nil && !busy {
		s.holder = session
		if g != nil {
			g.subs[ch] = struct{}{}
		}
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
			s.holder = ""
		}
		if g != nil {
			delete(g.subs, ch)
		}
		v.mu.Unlock()
	}()
	sent := 0
	v.stream(w, r, ch, func() bool {
		v.mu.Lock()
		ev := seatEvent{Session: session}
		cur := v.games[id]
		if cur != nil {
			ev.State = seatState(cur.stateLocked(sent), i)
		}
		if s.asked != nil {
			q := s.asked.q
			ev.N, ev.Question = s.asked.n, &q
		}
		gs := v.seats[id]
		ev.Closed = gs == nil || gs.seat[i] != s
		v.mu.Unlock()
		if v.sendEvent(w, "seat", ev) != nil {
			return false
		}
		sent = ev.State.From + len(ev.State.Moves)
		return !ev.Closed
	})
}

// serveSeatAnswer takes a seat page's answer (a form: session, n, kind,
// move): 204 when it is taken, 403 for a page that does not hold the seat,
// 409 for a question no longer asked, 400 for an answer not allowed.
func (v *Viewer) serveSeatAnswer(w http.ResponseWriter, r *http.Request) {
	id, token := r.PathValue("id"), r.URL.Query().Get("seat")
	r.Body = http.MaxBytesReader(w, r.Body, maxSeatAnswerBytes)
	if err := r.ParseForm(); err != nil {
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

package viewer

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"time"

	"github.com/botarena/botarena/boardsvg"
)

// A person plays on a seat page (/play/{id}?seat=TOKEN): the host opens
// the seat (OpenSeat), which gives the page's link with its unguessable
// token, then asks the seat for each of its moves (Ask) as it would ask a
// program. The page shows the seat's own view of the game (Frame.Views
// by the seat's name, so that hidden information stays hidden), the
// question's legal moves, highlighted, and takes an answer by clicks on
// the board or by its buttons. Everything a page sends is checked: an
// answer must be one of the question's choices (or, for a Geister setup,
// a setup of the seat's own ghosts), and the host checks the move again
// with the rules, as it does a program's.
//
// A seat's link works from one browser at a time: the first page that
// follows the seat's event stream holds it, and the pages of other
// browsers are told that it is open elsewhere until that page leaves; a
// page of the same browser (a reload) takes the seat over at once (see
// seatCookie). A page without the token is a spectator's (the live page)
// and can send nothing.

// AnswerKind is what a person answers to a question.
type AnswerKind uint8

// The kinds of answer.
const (
	// AnswerMove plays a move: Answer.Move holds its text.
	AnswerMove AnswerKind = iota
	// AnswerResign resigns the game.
	AnswerResign
	// AnswerOfferDraw offers the opponent a draw (person against person).
	AnswerOfferDraw
	// AnswerAcceptDraw accepts the draw the opponent offered.
	AnswerAcceptDraw
	// AnswerDeclineDraw declines it.
	AnswerDeclineDraw
	// AnswerTakeBack takes back the person's last move and the
	// opponent's answer (against a program).
	AnswerTakeBack

	numAnswerKinds
)

// answerKindNames are the kinds' names on the wire (the page's form).
var answerKindNames = [numAnswerKinds]string{"move", "resign", "offer-draw", "accept-draw", "decline-draw", "take-back"}

// String returns the kind's name: "move", "resign", "offer-draw",
// "accept-draw", "decline-draw", "take-back".
func (k AnswerKind) String() string {
	if k < numAnswerKinds {
		return answerKindNames[k]
	}
	return fmt.Sprintf("AnswerKind(%d)", uint8(k))
}

// MarshalText writes the kind's name.
func (k AnswerKind) MarshalText() ([]byte, error) {
	if k >= numAnswerKinds {
		return nil, fmt.Errorf("viewer: no answer kind %d", uint8(k))
	}
	return []byte(k.String()), nil
}

// UnmarshalText reads a kind's name.
func (k *AnswerKind) UnmarshalText(b []byte) error {
	i := slices.Index(answerKindNames[:], string(b))
	if i < 0 {
		return fmt.Errorf("viewer: unknown answer kind %q", clipText(string(b), 40))
	}
	*k = AnswerKind(i)
	return nil
}

// An Answer is what a seat's page answered.
type Answer struct {
	Kind AnswerKind `json:"kind"`
	// Move is the move in the platform's notation (AnswerMove): one of
	// the question's choices, or for a Geister setup the four red
	// ghosts' letters ("ABCD").
	Move string `json:"move,omitempty"`
}

// A Choice is one answer a question allows, and how the page picks it:
// by clicks on the board's areas named by Squares, in order (a move from
// a square to another, or a single square), then, when Label is not
// empty, a button with that text; with no Squares, by its button alone
// (pass, resign, a draw offer, take-back, accept, decline).
type Choice struct {
	Answer  Answer   `json:"answer"`
	Squares []string `json:"squares,omitempty"`
	Label   string   `json:"label,omitempty"`
}

// An Area is a clickable part of a board picture, in the units of the
// picture's viewBox: a square, or a place off the board (a Geister exit).
// Package boardsvg gives each game's (boardsvg.OthelloAreas, ...).
type Area = boardsvg.Area

// A SetupGhost is one of a Geister seat's ghosts at the setup: its letter
// and its square (an Area's name).
type SetupGhost struct {
	Letter string `json:"letter"`
	Square string `json:"square"`
}

// GeisterSetup is a Geister seat's setup question: the page shows its
// eight ghosts, Red the red ones at first; clicking two ghosts of
// different colours swaps their colours, and "Set Finish" answers the four
// red ghosts' letters.
type GeisterSetup struct {
	Ghosts [8]SetupGhost `json:"ghosts"`
	Red    string        `json:"red"` // the letters of the ghosts red at first, "ABCD"
}

// A Question is what a seat is asked: its own view of the game, and the
// answers it may give.
type Question struct {
	// Frame is the game as the seat sees it: Frame.Board is drawn for the
	// seat (nothing it may not know), with its clocks and whose turn. A
	// Frame with no Board leaves the page's picture as it is (a draw
	// offer asked of the other seat).
	Frame Frame `json:"frame"`
	// Areas are the board's clickable areas that Choices name.
	Areas []Area `json:"areas,omitempty"`
	// Prompt says what is asked: "Your turn (black)", "Set your red
	// ghosts", "Your opponent offers a draw".
	Prompt string `json:"prompt"`
	// Choices are the answers allowed: the legal moves, and the other
	// answers (resign, a draw offer, take-back) as buttons.
	Choices []Choice `json:"choices"`
	// Setup is Geister's setup, nil for any other question.
	Setup *GeisterSetup `json:"setup,omitempty"`
	// Deadline is when the seat's time runs out, zero for none.
	Deadline time.Time `json:"deadline,omitzero"`
}

// Errors of the seat methods.
var (
	// ErrNoSeat is the error of Ask for a seat never opened, or closed.
	ErrNoSeat = errors.New("viewer: no such seat open")
	// ErrSeatBusy is the error of Ask while the seat is asked already.
	ErrSeatBusy = errors.New("viewer: the seat is asked already")
)

// maxSeatAnswerBytes bounds the body of a seat page's answer.
const maxSeatAnswerBytes = 4 << 10

// seatTokenBytes is the length of a seat's token, before hex: 128 bits.
const seatTokenBytes = 16

// gameSeats are the seats of one game that persons play.
type gameSeats struct {
	seat [2]*seat
}

// seat is one person's seat of a game.
type seat struct {
	token  string
	holder string // the session of the page that holds the seat, "" for none
	// browser is the browser of the page that holds the seat (its
	// seatCookie), "" for none: a page of that browser may take the seat
	// over (a reload), see serveSeatEvents.
	browser string
	asked   *asked // the question waiting for an answer, nil for none
	n       uint64 // questions asked so far: the number of the latest
	// streams are the seat's event streams: the holder's, and one that
	// was taken over and has yet to say so.
	streams map[chan struct{}]struct{}
}

// asked is a question waiting for its answer.
type asked struct {
	q      Question
	n      uint64
	answer chan Answer // capacity 1
}

// OpenSeat opens seat (0 or 1, as GameInfo.Players) of game id to a
// person and returns its page's path, "/play/{id}?seat=TOKEN", the token
// unguessable. The game need not have begun. A seat opened again gets a
// new token (the old link no longer works). At most Limits.MaxLive games
// have seats open at once.
func (v *Viewer) OpenSeat(id string, seatIndex int) (string, error) {
	if seatIndex != 0 && seatIndex != 1 {
		return "", fmt.Errorf("viewer: no seat %d (0 or 1)", seatIndex)
	}
	var b [seatTokenBytes]byte
	rand.Read(b[:]) // never fails
	token := hex.EncodeToString(b[:])
	v.mu.Lock()
	defer v.mu.Unlock()
	gs := v.seats[id]
	if gs == nil {
		if len(v.seats) >= max(v.limits.MaxLive, 1) {
			return "", fmt.Errorf("viewer: %d games have seats open already", len(v.seats))
		}
		gs = &gameSeats{}
		v.seats[id] = gs
	}
	old := gs.seat[seatIndex]
	if old != nil && old.asked != nil {
		return "", ErrSeatBusy
	}
	if old != nil {
		pokeStreams(old) // its page learns that the seat is closed
	}
	gs.seat[seatIndex] = &seat{token: token, streams: map[chan struct{}]struct{}{}}
	v.seatChangedLocked(id)
	return "/play/" + url.PathEscape(id) + "?seat=" + token, nil
}

// CloseSeats closes the seats of game id: their links no longer work, and
// a question still asked ends with ErrNoSeat. A host calls it when the
// game is over (after Finish, so that the pages show the result).
func (v *Viewer) CloseSeats(id string) {
	v.mu.Lock()
	defer v.mu.Unlock()
	gs := v.seats[id]
	if gs == nil {
		return
	}
	delete(v.seats, id)
	for _, s := range gs.seat {
		if s == nil {
			continue
		}
		if s.asked != nil {
			close(s.asked.answer)
			s.asked = nil
		}
		pokeStreams(s) // its page learns that the seat is closed
	}
	v.seatChangedLocked(id)
}

// Ask asks seat of game id the question q and waits for the answer: one
// of q.Choices (or a setup of q.Setup's ghosts), or ctx's end (then
// ctx's error). The seat's page shows the question at once. A seat is
// asked one question at a time.
func (v *Viewer) Ask(ctx context.Context, id string, seatIndex int, q Question) (Answer, error) {
	if seatIndex != 0 && seatIndex != 1 {
		return Answer{}, fmt.Errorf("viewer: no seat %d (0 or 1)", seatIndex)
	}
	q.Frame = copyFrame(q.Frame)
	q.Prompt = clipText(q.Prompt, maxResultBytes)
	a := &asked{q: q, answer: make(chan Answer, 1)}
	v.mu.Lock()
	gs := v.seats[id]
	var s *seat
	if gs != nil {
		s = gs.seat[seatIndex]
	}
	switch {
	case s == nil:
		v.mu.Unlock()
		return Answer{}, ErrNoSeat
	case s.asked != nil:
		v.mu.Unlock()
		return Answer{}, ErrSeatBusy
	}
	s.n++
	a.n = s.n
	s.asked = a
	v.seatChangedLocked(id)
	v.mu.Unlock()

	select {
	case ans, ok := <-a.answer:
		if !ok {
			return Answer{}, ErrNoSeat
		}
		return ans, nil
	case <-ctx.Done():
		v.mu.Lock()
		if s.asked == a {
			s.asked = nil
			v.seatChangedLocked(id)
		}
		v.mu.Unlock()
		select {
		case ans, ok := <-a.answer: // answered just before the end: taken
			if ok {
				return ans, nil
			}
		default:
		}
		return Answer{}, ctx.Err()
	}
}

// seatChangedLocked tells the pages of game id that its seats changed.
func (v *Viewer) seatChangedLocked(id string) {
	if g := v.games[id]; g != nil {
		v.changedLocked(g) // the seats' streams too
		return
	}
	v.seatStreamsChangedLocked(id)
}

// seatStreamsChangedLocked tells the seat pages of game id that something
// changed. A seat's stream follows the seat, not the liveGame: a seat may
// be opened before the game begins, and outlives a game begun again.
func (v *Viewer) seatStreamsChangedLocked(id string) {
	if gs := v.seats[id]; gs != nil {
		for _, s := range gs.seat {
			if s != nil {
				pokeStreams(s)
			}
		}
	}
}

// pokeStreams tells s's event streams that something changed.
func pokeStreams(s *seat) {
	for ch := range s.streams {
		poke(ch)
	}
}

// seatLocked returns the seat of game id whose token is token, nil for
// none. The token is compared in constant time.
func (v *Viewer) seatLocked(id, token string) (*seat, int) {
	gs := v.seats[id]
	if gs == nil || token == "" {
		return nil, -1
	}
	for i, s := range gs.seat {
		if s != nil && subtle.ConstantTimeCompare([]byte(s.token), []byte(token)) == 1 {
			return s, i
		}
	}
	return nil, -1
}

// answerLocked gives the answer a to question n of seat s, if a is one the
// question allows (204); otherwise it says why not, with the HTTP status:
// 409 for a question no longer asked, 400 for an answer not allowed.
func answerLocked(s *seat, n uint64, a Answer) (int, error) {
	if s.asked == nil || s.asked.n != n {
		return http.StatusConflict, errors.New("that question is no longer asked: it was answered already, or its time ran out")
	}
	q := s.asked.q
	ok := false
	if q.Setup != nil && a.Kind == AnswerMove {
		ok = validSetup(q.Setup, a.Move)
	}
	for _, c := range q.Choices {
		if c.Answer == a {
			ok = true
			break
		}
	}
	if !ok {
		return http.StatusBadRequest, fmt.Errorf("%s %q is not one of the answers allowed now", a.Kind, clipText(a.Move, 40))
	}
	s.asked.answer <- a
	s.asked = nil
	return http.StatusNoContent, nil
}

// validSetup reports whether red names four distinct ghosts of setup.
func validSetup(setup *GeisterSetup, red string) bool {
	if len(red) != 4 {
		return false
	}
	seen := map[byte]bool{}
	for i := range len(red) {
		c := red[i]
		if seen[c] || !slices.ContainsFunc(setup.Ghosts[:], func(g SetupGhost) bool { return g.Letter == string(c) }) {
			return false
		}
		seen[c] = true
	}
	return true
}

// newSession returns a new page session's name.
func newSession() string {
	var b [seatTokenBytes]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

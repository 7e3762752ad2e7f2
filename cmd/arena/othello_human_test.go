package main

import (
	"bytes"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/botarena/botarena/othello"
	"github.com/botarena/botarena/record"
	"github.com/botarena/botarena/viewer"
)

// startOthelloHuman starts game 1 between the seats, a person's seat being
// a playerSpec with Human set, under a per-move limit of a minute, as
// startHumanGame; now, if not nil, is the time of the viewer's clocks.
func startOthelloHuman(t *testing.T, black, white *playerSpec, now func() time.Time) *humanGame {
	t.Helper()
	r, err := newOthelloRunner(&matchConfig{Rules: "tus", Time: "60s/move"})
	if err != nil {
		t.Fatal(err)
	}
	r.(*othelloRunner).now = now
	return startHumanGame(t, r, &gameJob{N: 1, Seats: [2]*playerSpec{black, white}, Seed: 1, Dir: t.TempDir(), ID: "h1", Log: slog.New(slog.DiscardHandler)})
}

// openOthelloSeat opens the page of the next seat link the game prints.
func openOthelloSeat(g *humanGame) *seatPage {
	g.t.Helper()
	return openSeatPage(g.t, g.link().url)
}

// checkOthelloQuestion checks a person's question: their turn in colour,
// the board with 64 areas named as squares, the legal moves as choices
// (each one square, clicked), and a deadline from the per-move limit.
func checkOthelloQuestion(t *testing.T, q *viewer.Question, colour string) {
	t.Helper()
	if q.Prompt != "Your turn ("+colour+")" {
		t.Errorf("prompt %q, want Your turn (%s)", q.Prompt, colour)
	}
	if !strings.Contains(q.Frame.Board, "<svg") || q.Frame.ToMove != map[string]int{"black": 0, "white": 1}[colour] {
		t.Errorf("the question's frame: to move %d, board %.40q", q.Frame.ToMove, q.Frame.Board)
	}
	if !strings.HasPrefix(q.Frame.Clocks[0], "used ") || !strings.HasPrefix(q.Frame.Clocks[1], "used ") {
		t.Errorf("the question's clocks: %q", q.Frame.Clocks)
	}
	if len(q.Areas) != 64 || q.Areas[0].Name != "a1" || q.Areas[63].Name != "h8" {
		t.Errorf("%d areas (%v ...), want the 64 squares a1..h8", len(q.Areas), q.Areas[:min(len(q.Areas), 2)])
	}
	if q.Deadline.IsZero() || time.Until(q.Deadline) > time.Minute {
		t.Errorf("deadline %v, want within the minute of the per-move limit", q.Deadline)
	}
	moves := questionMoves(q)
	if len(moves) == 0 {
		t.Fatalf("a question with no move: %+v", q.Choices)
	}
	for _, c := range moves {
		if len(c.Squares) != 1 || c.Squares[0] != c.Answer.Move {
			t.Errorf("choice %+v: want one click on its square", c)
		}
		// The legal dot of the square is drawn.
		if !strings.Contains(q.Frame.Board, `<circle data-square="`+c.Answer.Move+`"`) {
			t.Errorf("choice %s: the board draws no legal move there", c.Answer.Move)
		}
	}
}

// TestOthelloHumanGame: a person plays a whole game against random on the
// seat page (any legal move each turn), the server refereeing it: every
// question is their turn with the legal moves; a spectator's answer is
// refused (403), as is an answer not among the choices (400); the game
// ends by the discs, recorded with the person's name.
func TestOthelloHumanGame(t *testing.T) {
	g := startOthelloHuman(t, &playerSpec{Name: "alice", Human: true}, &playerSpec{Name: "random", Builtin: "random"}, nil)
	p := openOthelloSeat(g)
	n := 0
	for ev := p.next(); ev != nil; ev = p.next() {
		q := ev.Question
		checkOthelloQuestion(t, q, "black")
		if !questionHas(q, viewer.AnswerResign) || questionHas(q, viewer.AnswerOfferDraw) || questionHas(q, viewer.AnswerTakeBack) != (n > 0) {
			t.Errorf("question %d: choices %+v; want resign, take-back after the first move, no draw offer against a program", n, q.Choices)
		}
		moves := questionMoves(q)
		if n == 0 {
			if code := p.post(false, ev.N, viewer.AnswerMove, moves[0].Answer.Move); code != http.StatusForbidden {
				t.Errorf("a spectator's move: %d, want 403", code)
			}
			if code := p.postAs(strings.Repeat("0", 32), ev.N, viewer.AnswerMove, moves[0].Answer.Move); code != http.StatusForbidden {
				t.Errorf("a move with a wrong token: %d, want 403", code)
			}
			if code := p.post(true, ev.N, viewer.AnswerMove, "h8"); code != http.StatusBadRequest {
				t.Errorf("an illegal move (h8 at the start): %d, want 400", code)
			}
		}
		p.answer(ev, viewer.AnswerMove, moves[n%len(moves)].Answer.Move)
		n++
	}
	res := g.wait()
	if res.Err != nil || res.Faults != [2]fault{} || res.Winner < -1 || res.Ending != endDiscs {
		t.Fatalf("result %+v, want a game played out by the discs", res)
	}
	if !p.last.State.Finished || !strings.Contains(p.last.State.Result, "by discs") {
		t.Errorf("the seat's last state: finished %v, result %q", p.last.State.Finished, p.last.State.Result)
	}
	tr := readOthelloRecord(t, res.Record)
	if tr.Black != "alice" || tr.White != "random" {
		t.Errorf("the transcript names %q and %q, want alice and random", tr.Black, tr.White)
	}
	if gm, err := tr.Game(); err != nil || !gm.IsOver() || gm.Ply() != res.Plies {
		t.Errorf("the transcript's game: %v, over %v, want %d plies", err, err == nil && gm.IsOver(), res.Plies)
	}
}

// readOthelloRecord reads a game's -trans transcript.
func readOthelloRecord(t *testing.T, path string) *record.OthelloTranscript {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := record.ReadOthelloTranscript(bytes.NewReader(data), othello.TUS.Start)
	if err != nil {
		t.Fatalf("%s: %v\n%s", path, err, data)
	}
	return tr
}

// TestOthelloHumanResign: a person (white) resigns at their first turn:
// random wins by resignation, nobody's fault; the transcript holds the
// move played and names the person.
func TestOthelloHumanResign(t *testing.T) {
	g := startOthelloHuman(t, &playerSpec{Name: "random", Builtin: "random"}, &playerSpec{Name: "bob", Human: true}, nil)
	p := openOthelloSeat(g)
	ev := p.next()
	if ev == nil {
		t.Fatal("the seat closed before bob's turn")
	}
	checkOthelloQuestion(t, ev.Question, "white")
	if questionHas(ev.Question, viewer.AnswerTakeBack) {
		t.Errorf("take-back offered before bob moved: %+v", ev.Question.Choices)
	}
	p.answer(ev, viewer.AnswerResign, "")
	if ev := p.next(); ev != nil {
		t.Fatalf("asked again after resigning: %+v", ev.Question)
	}
	res := g.wait()
	if res.Err != nil || res.Winner != 0 || res.Ending != endResign || res.Faults != [2]fault{} || res.Plies != 1 {
		t.Fatalf("result %+v, want random (black) winning by resignation after 1 ply, no fault", res)
	}
	if s := endingStatus([2]string{"random", "bob"}, res); !strings.HasPrefix(s, "random wins by resignation") {
		t.Errorf("status %q", s)
	}
	if !strings.Contains(p.last.State.Result, "random wins by resignation") {
		t.Errorf("the seat's last state says %q", p.last.State.Result)
	}
	tr := readOthelloRecord(t, res.Record)
	if tr.White != "bob" || len(tr.Moves) != 1 {
		t.Errorf("transcript: white %q, %d moves; want bob, 1", tr.White, len(tr.Moves))
	}
}

// TestOthelloHumanTakeBack: a person plays three moves against random,
// takes back the third: the board goes back two plies (the person's move
// and random's answer), the clocks go on, and the person plays another
// move there; then the game is played out. The records hold the game as
// finally played, from the start, in one transcript naming the person.
func TestOthelloHumanTakeBack(t *testing.T) {
	var tick atomic.Int64 // the viewer's clocks: each look at the time is a second later
	now := func() time.Time { return time.Unix(1e9+tick.Add(1), 0) }
	g := startOthelloHuman(t, &playerSpec{Name: "alice", Human: true}, &playerSpec{Name: "random", Builtin: "random"}, now)
	p := openOthelloSeat(g)
	var boards []string // the question's board at each of alice's turns
	var plies []int
	var ev *seatEvent
	for range 3 {
		if ev = p.next(); ev == nil {
			t.Fatal("the game ended within three moves")
		}
		q := ev.Question
		boards, plies = append(boards, q.Frame.Board), append(plies, q.Frame.Ply)
		p.answer(ev, viewer.AnswerMove, questionMoves(q)[0].Answer.Move)
	}
	if ev = p.next(); ev == nil {
		t.Fatal("the game ended within three moves")
	}
	before := ev.Question.Frame
	if !questionHas(ev.Question, viewer.AnswerTakeBack) {
		t.Fatalf("no take-back offered: %+v", ev.Question.Choices)
	}
	p.answer(ev, viewer.AnswerTakeBack, "")
	if ev = p.next(); ev == nil {
		t.Fatal("the game ended at the take-back")
	}
	q := ev.Question
	checkOthelloQuestion(t, q, "black")
	if q.Frame.Ply != plies[2] || q.Frame.Board != boards[2] {
		t.Fatalf("after the take-back: ply %d, want %d (from %d), the board of then", q.Frame.Ply, plies[2], before.Ply)
	}
	if q.Frame.Ply != before.Ply-2 {
		t.Errorf("the take-back went from ply %d to %d, want two plies back", before.Ply, q.Frame.Ply)
	}
	if len(p.last.State.Moves)+p.last.State.From != q.Frame.Ply {
		t.Errorf("the seat's move list holds %d moves, want %d", len(p.last.State.Moves)+p.last.State.From, q.Frame.Ply)
	}
	if !(clockOf(t, q.Frame.Clocks[0]) > clockOf(t, before.Clocks[0])) || clockOf(t, q.Frame.Clocks[1]) < clockOf(t, before.Clocks[1]) {
		t.Errorf("the clocks went from %q to %q: they must go on", before.Clocks, q.Frame.Clocks)
	}
	// Another move where the third was, then the game played out.
	moves := questionMoves(q)
	third := moves[len(moves)-1].Answer.Move
	p.answer(ev, viewer.AnswerMove, third)
	for ev = p.next(); ev != nil; ev = p.next() {
		p.answer(ev, viewer.AnswerMove, questionMoves(ev.Question)[0].Answer.Move)
	}
	res := g.wait()
	if res.Err != nil || res.Faults != [2]fault{} || res.Ending != endDiscs {
		t.Fatalf("result %+v, want a game played out", res)
	}
	tr := readOthelloRecord(t, res.Record)
	gm, err := tr.Game()
	if err != nil || !gm.IsOver() || gm.Ply() != res.Plies || tr.Black != "alice" {
		t.Fatalf("the transcript: %v; over %v, %d plies of %d; black %q", err, err == nil && gm.IsOver(), len(tr.Moves), res.Plies, tr.Black)
	}
	if m := gm.Moves()[plies[2]]; m.String() != third {
		t.Errorf("the record's move %d is %s, want %s, played after the take-back", plies[2]+1, m, third)
	}
	if files, _ := filepath.Glob(filepath.Join(g.job.Dir, "gamelog_arena*")); len(files) != 1 {
		t.Errorf("transcripts %v, want one", files)
	}
	list, err := os.ReadFile(filepath.Join(g.job.Dir, "moves.txt"))
	if err != nil {
		t.Fatal(err)
	}
	lg, err := record.ParseOthelloMoveList(strings.TrimSpace(string(list)))
	if err != nil || lg.Ply() != gm.Ply() {
		t.Errorf("moves.txt: %v, %d plies, want %d", err, lg.Ply(), gm.Ply())
	}
}

// clockOf reads a "used M:SS.s" clock in tenths of a second.
func clockOf(t *testing.T, s string) int {
	t.Helper()
	var m, sec, tenth int
	if _, err := fmt.Sscanf(s, "used %d:%d.%d", &m, &sec, &tenth); err != nil {
		t.Fatalf("clock %q: %v", s, err)
	}
	return (m*60+sec)*10 + tenth
}

// TestOthelloHumanDraw: two persons; black offers a draw, white declines
// (black is asked again, without the offer); white offers one, black
// accepts: a draw by agreement, nobody's fault, and no take-back offered
// between persons.
func TestOthelloHumanDraw(t *testing.T) {
	g := startOthelloHuman(t, &playerSpec{Name: "alice", Human: true}, &playerSpec{Name: "bob", Human: true}, nil)
	alice := openOthelloSeat(g)
	bob := openOthelloSeat(g)
	ev := alice.next()
	if ev == nil {
		t.Fatal("no question for alice")
	}
	if !questionHas(ev.Question, viewer.AnswerOfferDraw) || questionHas(ev.Question, viewer.AnswerTakeBack) {
		t.Fatalf("alice's choices %+v: want a draw offer, no take-back", ev.Question.Choices)
	}
	alice.answer(ev, viewer.AnswerOfferDraw, "")
	if ev = bob.next(); ev == nil || !strings.Contains(ev.Question.Prompt, "alice offers a draw") {
		t.Fatalf("bob's question: %+v", ev)
	}
	bob.answer(ev, viewer.AnswerDeclineDraw, "")
	if ev = alice.next(); ev == nil || !strings.Contains(ev.Question.Prompt, "declined") {
		t.Fatalf("alice's question after the refusal: %+v", ev)
	}
	if questionHas(ev.Question, viewer.AnswerOfferDraw) {
		t.Errorf("the draw offered again in the same turn: %+v", ev.Question.Choices)
	}
	alice.answer(ev, viewer.AnswerMove, questionMoves(ev.Question)[0].Answer.Move)
	if ev = bob.next(); ev == nil {
		t.Fatal("no question for bob")
	}
	checkOthelloQuestion(t, ev.Question, "white")
	if questionHas(ev.Question, viewer.AnswerTakeBack) {
		t.Errorf("take-back offered between two persons: %+v", ev.Question.Choices)
	}
	bob.answer(ev, viewer.AnswerOfferDraw, "")
	if ev = alice.next(); ev == nil || !strings.Contains(ev.Question.Prompt, "bob offers a draw") {
		t.Fatalf("alice's question: %+v", ev)
	}
	alice.answer(ev, viewer.AnswerAcceptDraw, "")
	res := g.wait()
	if res.Err != nil || res.Winner != -1 || res.Ending != endAgreed || res.Faults != [2]fault{} || res.Plies != 1 {
		t.Fatalf("result %+v, want a draw by agreement after 1 ply", res)
	}
	if bob.next() != nil || !strings.Contains(bob.last.State.Result, "draw by agreed draw") {
		t.Errorf("bob's page after the draw: %q", bob.last.State.Result)
	}
	if tr := readOthelloRecord(t, res.Record); tr.Black != "alice" || tr.White != "bob" || len(tr.Moves) != 1 {
		t.Errorf("transcript: %q vs %q, %d moves", tr.Black, tr.White, len(tr.Moves))
	}
}

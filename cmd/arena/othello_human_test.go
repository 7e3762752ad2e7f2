package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/botarena/botarena/internal/browsertest"
	"github.com/botarena/botarena/othello"
	"github.com/botarena/botarena/record"
	"github.com/botarena/botarena/viewer"
)

// linkLines collects the seat links that openHumans prints, one a line.
type linkLines struct {
	mu    sync.Mutex
	buf   bytes.Buffer
	links chan string // the seat pages' paths, in the order printed
}

var seatLinkRE = regexp.MustCompile(`plays seat \d at http://[^/\s]+(/play/\S+)`)

func (w *linkLines) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf.Write(p)
	for {
		line, err := w.buf.ReadString('\n')
		if err != nil {
			w.buf.WriteString(line) // not a whole line yet
			break
		}
		if m := seatLinkRE.FindStringSubmatch(line); m != nil {
			w.links <- m[1]
		}
	}
	return len(p), nil
}

// othelloHumanGame is an Othello game with persons in it, played by
// othelloRunner.Play on a real viewer served over HTTP.
type othelloHumanGame struct {
	t      *testing.T
	srv    *httptest.Server
	job    *gameJob
	result chan gameResult
	links  *linkLines
}

// startOthelloHuman starts game 1 between the seats, a person's seat being
// a playerSpec with Human set, under a per-move limit of a minute; now, if
// not nil, is the time of the viewer's clocks.
func startOthelloHuman(t *testing.T, black, white *playerSpec, now func() time.Time) *othelloHumanGame {
	t.Helper()
	v, err := viewer.New(viewer.Options{Games: viewer.Games()})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(v)
	t.Cleanup(srv.Close)
	links := &linkLines{links: make(chan string, 2)}
	job := &gameJob{N: 1, Seats: [2]*playerSpec{black, white}, Seed: 1, Dir: t.TempDir(), ID: "h1",
		Watch: v, Log: slog.New(slog.DiscardHandler), Web: &webSeats{host: v, url: srv.URL + "/", out: links}}
	r, err := newOthelloRunner(&matchConfig{Rules: "tus", Time: "60s/move"})
	if err != nil {
		t.Fatal(err)
	}
	r.(*othelloRunner).now = now
	g := &othelloHumanGame{t: t, srv: srv, job: job, result: make(chan gameResult, 1), links: links}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(func() {
		cancel()
		<-g.result
	})
	go func() {
		res := r.Play(ctx, job)
		g.result <- res
		g.result <- res // for the cleanup
	}()
	return g
}

// seatPage is a person's page in a test: the seat's event stream, read
// as the seat page reads it, and its answers posted as the page posts them.
type seatPage struct {
	t        *testing.T
	base     string // the viewer's address
	path     string // the seat page's path, /play/{id}?seat=TOKEN
	er       *browsertest.EventStream
	session  string
	answered uint64
	last     seatEvent
}

// openSeat opens the next seat link the game prints.
func (g *othelloHumanGame) openSeat() *seatPage {
	g.t.Helper()
	var path string
	select {
	case path = <-g.links.links:
	case res := <-g.result:
		g.t.Fatalf("the game ended before it printed a seat link: %+v", res)
	}
	er, done := browsertest.OpenEvents(g.t, g.srv.URL+strings.Replace(path, "?", "/events?", 1))
	g.t.Cleanup(done)
	return &seatPage{t: g.t, base: g.srv.URL, path: path, er: er}
}

// next reads the seat's events up to its next question, nil when the seat
// closes first (the game is over).
func (p *seatPage) next() *viewer.Question {
	p.t.Helper()
	for {
		ev, data, ok := p.er.Next()
		if !ok {
			p.t.Fatalf("the seat's event stream ended before it closed")
		}
		if ev != "seat" {
			continue
		}
		var e seatEvent
		if err := json.Unmarshal(data, &e); err != nil {
			p.t.Fatal(err)
		}
		p.session, p.last = e.Session, e
		if e.Closed {
			return nil
		}
		if e.Question != nil && e.N > p.answered {
			return e.Question
		}
	}
}

// post posts an answer to the question last read, as the seat page does
// but with token for the seat's token ("" for none: a spectator's), and
// returns the status.
func (p *seatPage) post(token string, kind viewer.AnswerKind, move string) int {
	p.t.Helper()
	page, _, _ := strings.Cut(p.path, "?")
	u := p.base + page + "/act"
	if token != "" {
		u += "?seat=" + url.QueryEscape(token)
	}
	resp, err := http.PostForm(u, url.Values{"session": {p.session}, "n": {fmt.Sprint(p.last.N)}, "kind": {kind.String()}, "move": {move}})
	if err != nil {
		p.t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode
}

// answer answers the question last read from the seat's own page.
func (p *seatPage) answer(kind viewer.AnswerKind, move string) {
	p.t.Helper()
	u := p.base + strings.Replace(p.path, "?", "/act?", 1)
	resp, err := http.PostForm(u, url.Values{"session": {p.session}, "n": {fmt.Sprint(p.last.N)}, "kind": {kind.String()}, "move": {move}})
	if err != nil {
		p.t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusNoContent {
		p.t.Fatalf("answer %s %q: %s %s", kind, move, resp.Status, body)
	}
	p.answered = p.last.N
}

// moveChoices are q's moves (the clickable choices), and whether q has a
// button of each other kind.
func moveChoices(q *viewer.Question) (moves []viewer.Choice, buttons map[viewer.AnswerKind]bool) {
	buttons = map[viewer.AnswerKind]bool{}
	for _, c := range q.Choices {
		if c.Answer.Kind == viewer.AnswerMove {
			moves = append(moves, c)
		} else {
			buttons[c.Answer.Kind] = true
		}
	}
	return moves, buttons
}

// wait returns the game's result.
func (g *othelloHumanGame) wait() gameResult {
	return <-g.result
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
	moves, _ := moveChoices(q)
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
	p := g.openSeat()
	n := 0
	for q := p.next(); q != nil; q = p.next() {
		checkOthelloQuestion(t, q, "black")
		moves, buttons := moveChoices(q)
		if !buttons[viewer.AnswerResign] || buttons[viewer.AnswerOfferDraw] || buttons[viewer.AnswerTakeBack] != (n > 0) {
			t.Errorf("question %d: buttons %v; want resign, take-back after the first move, no draw offer against a program", n, buttons)
		}
		if n == 0 {
			if code := p.post("", viewer.AnswerMove, moves[0].Answer.Move); code != http.StatusForbidden {
				t.Errorf("a spectator's move: %d, want 403", code)
			}
			if code := p.post(strings.Repeat("0", 32), viewer.AnswerMove, moves[0].Answer.Move); code != http.StatusForbidden {
				t.Errorf("a move with a wrong token: %d, want 403", code)
			}
			_, token, _ := strings.Cut(p.path, "?seat=")
			if code := p.post(token, viewer.AnswerMove, "h8"); code != http.StatusBadRequest {
				t.Errorf("an illegal move (h8 at the start): %d, want 400", code)
			}
		}
		p.answer(viewer.AnswerMove, moves[n%len(moves)].Answer.Move)
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
	p := g.openSeat()
	q := p.next()
	if q == nil {
		t.Fatal("the seat closed before bob's turn")
	}
	checkOthelloQuestion(t, q, "white")
	if _, buttons := moveChoices(q); buttons[viewer.AnswerTakeBack] {
		t.Errorf("take-back offered before bob moved: %v", buttons)
	}
	p.answer(viewer.AnswerResign, "")
	if q := p.next(); q != nil {
		t.Fatalf("asked again after resigning: %+v", q)
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
	p := g.openSeat()
	var boards []string // the question's board at each of alice's turns
	var plies []int
	var q *viewer.Question
	for range 3 {
		if q = p.next(); q == nil {
			t.Fatal("the game ended within three moves")
		}
		boards, plies = append(boards, q.Frame.Board), append(plies, q.Frame.Ply)
		moves, _ := moveChoices(q)
		p.answer(viewer.AnswerMove, moves[0].Answer.Move)
	}
	if q = p.next(); q == nil {
		t.Fatal("the game ended within three moves")
	}
	before := q.Frame
	moves, buttons := moveChoices(q)
	if !buttons[viewer.AnswerTakeBack] {
		t.Fatalf("no take-back offered: %v", buttons)
	}
	p.answer(viewer.AnswerTakeBack, "")
	q = p.next()
	if q == nil {
		t.Fatal("the game ended at the take-back")
	}
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
	moves, _ = moveChoices(q)
	third := moves[len(moves)-1].Answer.Move
	p.answer(viewer.AnswerMove, third)
	for q = p.next(); q != nil; q = p.next() {
		moves, _ := moveChoices(q)
		p.answer(viewer.AnswerMove, moves[0].Answer.Move)
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
	alice := g.openSeat()
	bob := g.openSeat()
	q := alice.next()
	if q == nil {
		t.Fatal("no question for alice")
	}
	if _, buttons := moveChoices(q); !buttons[viewer.AnswerOfferDraw] || buttons[viewer.AnswerTakeBack] {
		t.Fatalf("alice's buttons %v: want a draw offer, no take-back", buttons)
	}
	alice.answer(viewer.AnswerOfferDraw, "")
	if q := bob.next(); q == nil || !strings.Contains(q.Prompt, "alice offers a draw") {
		t.Fatalf("bob's question: %+v", q)
	}
	bob.answer(viewer.AnswerDeclineDraw, "")
	q = alice.next()
	if q == nil || !strings.Contains(q.Prompt, "declined") {
		t.Fatalf("alice's question after the refusal: %+v", q)
	}
	moves, buttons := moveChoices(q)
	if buttons[viewer.AnswerOfferDraw] {
		t.Errorf("the draw offered again in the same turn: %v", buttons)
	}
	alice.answer(viewer.AnswerMove, moves[0].Answer.Move)
	q = bob.next()
	if q == nil {
		t.Fatal("no question for bob")
	}
	checkOthelloQuestion(t, q, "white")
	if _, buttons := moveChoices(q); buttons[viewer.AnswerTakeBack] {
		t.Errorf("take-back offered between two persons: %v", buttons)
	}
	bob.answer(viewer.AnswerOfferDraw, "")
	if q := alice.next(); q == nil || !strings.Contains(q.Prompt, "bob offers a draw") {
		t.Fatalf("alice's question: %+v", q)
	}
	alice.answer(viewer.AnswerAcceptDraw, "")
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

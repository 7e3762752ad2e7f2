package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/botarena/botarena/darkchess"
	"github.com/botarena/botarena/record"
	"github.com/botarena/botarena/viewer"
)

// dcSeatPage is a seat page driven by a test through the viewer's HTTP
// interface: it follows the seat's event stream and posts answers.
type dcSeatPage struct {
	t       *testing.T
	base    string // the server's address, "http://127.0.0.1:1234"
	path    string // "/play/ID", without the token
	token   string
	events  chan seatEvent
	session string
	asked   uint64 // the number of the last question taken
}

// dcOpenSeatPage opens the seat page of link (as arena prints it) and
// follows its event stream until the test ends.
func dcOpenSeatPage(t *testing.T, link string) *dcSeatPage {
	t.Helper()
	u, err := url.Parse(link)
	if err != nil {
		t.Fatal(err)
	}
	p := &dcSeatPage{t: t, base: u.Scheme + "://" + u.Host, path: u.Path, token: u.Query().Get("seat"), events: make(chan seatEvent, 64)}
	resp := dcGet(t, p.base+p.path+"/events?seat="+p.token)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("seat events: %s", resp.Status)
	}
	go func() {
		defer resp.Body.Close()
		defer close(p.events)
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(make([]byte, 0, 1<<16), 4<<20)
		for sc.Scan() {
			data, ok := strings.CutPrefix(sc.Text(), "data: ")
			if !ok {
				continue
			}
			var ev seatEvent
			if err := json.Unmarshal([]byte(data), &ev); err != nil {
				if t.Context().Err() == nil { // not a stream cut at the test's end
					t.Errorf("seat event: %v", err)
				}
				return
			}
			select {
			case p.events <- ev:
			case <-t.Context().Done():
				return
			}
		}
	}()
	return p
}

// dcGet sends a GET request that ends with the test.
func dcGet(t *testing.T, u string) *http.Response {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, u, nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

// next returns the next question asked of the seat, or the event that
// closed it (Question nil).
func (p *dcSeatPage) next() seatEvent {
	p.t.Helper()
	deadline := time.NewTimer(2 * time.Minute) // a guard: the game is seconds long
	defer deadline.Stop()
	for {
		select {
		case ev, ok := <-p.events:
			if !ok {
				p.t.Fatal("the seat's event stream ended")
			}
			p.session = ev.Session
			if ev.Closed {
				ev.Question = nil
				return ev
			}
			if ev.Question != nil && ev.N > p.asked {
				p.asked = ev.N
				return ev
			}
		case <-deadline.C:
			p.t.Fatal("no question in two minutes")
		}
	}
}

// post posts an answer to question n as the page does, with the page's
// session and token (token "" for a spectator), and returns the status.
func (p *dcSeatPage) post(token string, n uint64, kind viewer.AnswerKind, move string) int {
	p.t.Helper()
	form := url.Values{"session": {p.session}, "n": {strconv.FormatUint(n, 10)}, "kind": {kind.String()}, "move": {move}}
	target := p.base + p.path + "/act"
	if token != "" {
		target += "?seat=" + token
	}
	req, err := http.NewRequestWithContext(p.t.Context(), http.MethodPost, target, strings.NewReader(form.Encode()))
	if err != nil {
		p.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		p.t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// answer answers question ev with the choice c and checks it is taken.
func (p *dcSeatPage) answer(ev seatEvent, c viewer.Choice) {
	p.t.Helper()
	if st := p.post(p.token, ev.N, c.Answer.Kind, c.Answer.Move); st != http.StatusNoContent {
		p.t.Fatalf("answer %s %q: status %d", c.Answer.Kind, c.Answer.Move, st)
	}
}

// dcChoice returns the first choice of q whose answer is of kind.
func dcChoice(t *testing.T, q *viewer.Question, kind viewer.AnswerKind) (viewer.Choice, bool) {
	t.Helper()
	for _, c := range q.Choices {
		if c.Answer.Kind == kind {
			return c, true
		}
	}
	return viewer.Choice{}, false
}

// dcMoves returns q's move choices.
func dcMoves(q *viewer.Question) []viewer.Choice {
	var out []viewer.Choice
	for _, c := range q.Choices {
		if c.Answer.Kind == viewer.AnswerMove {
			out = append(out, c)
		}
	}
	return out
}

// dcLinks collects the seat links a run prints ("Game 1: alice plays seat
// 1 at URL").
type dcLinks struct {
	mu    sync.Mutex
	links chan string
}

func (l *dcLinks) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, m := range regexp.MustCompile(`plays seat \d at (\S+)`).FindAllSubmatch(b, -1) {
		l.links <- string(m[1])
	}
	return len(b), nil
}

// fakeClock is a time source that moves only when told.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// dcHumanGame starts a game of r between first and second, persons among
// them, on a viewer served by httptest, and returns the seat pages of the
// persons (by seat) and a channel with the result.
func dcHumanGame(t *testing.T, r runner, first, second *playerSpec) ([2]*dcSeatPage, <-chan gameResult, string) {
	t.Helper()
	links, done, dir := dcStartHumanGame(t, r, first, second)
	var pages [2]*dcSeatPage
	for i, link := range links {
		if link != "" {
			pages[i] = dcOpenSeatPage(t, link)
		}
	}
	return pages, done, dir
}

// dcStartHumanGame starts a game of r between first and second, persons
// among them, on a viewer served by httptest, and returns the links of
// the persons' seats (by seat), a channel with the result and the game's
// directory.
func dcStartHumanGame(t *testing.T, r runner, first, second *playerSpec) ([2]string, <-chan gameResult, string) {
	t.Helper()
	v, err := viewer.New(viewer.Options{Games: viewer.Games()})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(v)
	t.Cleanup(srv.Close)
	links := &dcLinks{links: make(chan string, 2)}
	dir := t.TempDir()
	job := &gameJob{N: 1, Seats: [2]*playerSpec{first, second}, Seed: 5, Dir: dir, ID: "dc1", Watch: v, Log: slog.New(slog.DiscardHandler),
		Web: &webSeats{host: v, url: srv.URL + "/", out: links}}
	done := make(chan gameResult, 1)
	over := make(chan struct{})
	ctx, cancel := context.WithCancel(t.Context())
	t.Cleanup(func() {
		cancel()
		<-over
	})
	go func() {
		defer close(over)
		done <- r.Play(ctx, job)
	}()
	var seatLinks [2]string
	for i, p := range job.Seats {
		if !p.Human {
			continue
		}
		link := <-links.links
		if !strings.Contains(link, "/play/dc1?seat=") {
			t.Fatalf("link %q", link)
		}
		seatLinks[i] = link
	}
	return seatLinks, done, dir
}

// dcHumanSpec is a person's player spec, as parsePlayer makes it.
func dcHumanSpec(name string) *playerSpec {
	return &playerSpec{Spec: name + "=human", Name: name, Human: true}
}

// dcReadRecord reads the game's board.txt and replays it under NTU2021,
// with the no-capture-no-flip limit n (0: the preset's).
func dcReadRecord(t *testing.T, path string, n int) (*record.DarkChessBoard, *darkchess.Game, string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	b, err := record.ReadDarkChessBoard(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	rules := darkchess.NTU2021
	if n > 0 {
		rules.NoProgressPlies = n
	}
	g, err := b.Game(rules, nil)
	if err != nil {
		t.Fatalf("the record does not replay: %v\n%s", err, data)
	}
	return b, g, string(data)
}

// TestDarkchessHumanGame: a person plays a whole game against random on
// the seat page, by the page's answers: each question shows the board as
// the seat sees it (at the start, 32 face-down pieces and no piece
// revealed), its 32 squares as areas, and the legal plies as choices (a
// flip by one square, a move by two); a spectator's answer is refused
// (403), as is an answer not among the choices (400) and a second browser
// on the seat (409); the record names the person.
func TestDarkchessHumanGame(t *testing.T) {
	r := dcRunner(t, matchConfig{Time: "300s", MaxPlies: 12}, dcHumanSpec("alice"), dcPlayer(t, "random", ""))
	pages, done, dir := dcHumanGame(t, r, dcHumanSpec("alice"), dcPlayer(t, "random", ""))
	page := pages[0]
	rng := rand.New(rand.NewPCG(7, 7))
	first := true
	plies := 0
	var last seatEvent
	for {
		ev := page.next()
		if ev.Question == nil {
			last = ev
			break
		}
		q := ev.Question
		if len(q.Areas) != 32 || q.Areas[0].Name != "a1" || q.Areas[31].Name != "d8" {
			t.Fatalf("areas %v", q.Areas)
		}
		moves := dcMoves(q)
		if len(moves) == 0 {
			t.Fatalf("question %q with no move", q.Prompt)
		}
		for _, c := range moves {
			m, err := darkchess.ParseMove(c.Answer.Move)
			if err != nil || (m.IsFlip() && !slices.Equal(c.Squares, []string{m.From().String()})) ||
				(!m.IsFlip() && !slices.Equal(c.Squares, []string{m.From().String(), m.To().String()})) {
				t.Fatalf("choice %+v", c)
			}
		}
		if _, ok := dcChoice(t, q, viewer.AnswerResign); !ok {
			t.Error("no Resign button")
		}
		if _, ok := dcChoice(t, q, viewer.AnswerOfferDraw); ok {
			t.Error("a draw offered to a program")
		}
		if q.Deadline.IsZero() || !strings.HasPrefix(q.Prompt, "Your turn") {
			t.Errorf("deadline %v, prompt %q", q.Deadline, q.Prompt)
		}
		if first {
			first = false
			board := q.Frame.Board
			if n := strings.Count(board, `class="facedown"`); n != 32 || strings.Contains(board, "data-piece") || len(moves) != 32 {
				t.Errorf("the first question's board shows %d face-down pieces (and revealed ones: %v), %d flips", n, strings.Contains(board, "data-piece"), len(moves))
			}
			if q.Prompt != "Your turn: flip a piece (its colour becomes yours)" {
				t.Errorf("prompt %q", q.Prompt)
			}
			if _, ok := dcChoice(t, q, viewer.AnswerTakeBack); ok {
				t.Error("take-back offered before any ply")
			}
			// A spectator moves nothing; an answer not among the
			// choices is refused; the seat holds one browser.
			if st := page.post("", ev.N, viewer.AnswerMove, moves[0].Answer.Move); st != http.StatusForbidden {
				t.Errorf("a spectator's answer: status %d, want 403", st)
			}
			if st := page.post(page.token, ev.N, viewer.AnswerMove, "a1-a8"); st != http.StatusBadRequest {
				t.Errorf("an answer not among the choices: status %d, want 400", st)
			}
			resp := dcGet(t, page.base+page.path+"/events?seat="+page.token)
			resp.Body.Close()
			if resp.StatusCode != http.StatusConflict {
				t.Errorf("a second browser on the seat: %s, want 409", resp.Status)
			}
		}
		page.answer(ev, moves[rng.IntN(len(moves))])
		plies++
	}
	res := <-done
	if res.Err != nil || res.Winner < -1 || res.Faults[0].Kind != noFault || res.Faults[1].Kind != noFault {
		t.Fatalf("result %+v", res)
	}
	if !last.State.Finished || last.State.Result == "" {
		t.Errorf("the seat's last state: finished %v, result %q", last.State.Finished, last.State.Result)
	}
	b, g, _ := dcReadRecord(t, filepath.Join(dir, "board.txt"), 12)
	if b.First != "alice" || b.Second != "random" || g.Ply() != res.Plies || (g.Ply()+1)/2 != plies {
		t.Errorf("record: %q vs %q, %d plies; the person played %d, the result says %d", b.First, b.Second, g.Ply(), plies, res.Plies)
	}
	t.Logf("%d plies: %s", res.Plies, res.Detail)
}

// TestDarkchessHumanResign: a person resigns against random: the person
// loses by resignation, and the record says "Resign" with the winner.
func TestDarkchessHumanResign(t *testing.T) {
	r := dcRunner(t, matchConfig{Time: "300s"}, dcHumanSpec("alice"), dcPlayer(t, "random", ""))
	pages, done, dir := dcHumanGame(t, r, dcPlayer(t, "random", ""), dcHumanSpec("alice"))
	page := pages[1]
	ev := page.next()
	page.answer(ev, dcMoves(ev.Question)[0])
	ev = page.next()
	resign, ok := dcChoice(t, ev.Question, viewer.AnswerResign)
	if !ok {
		t.Fatal("no Resign button")
	}
	page.answer(ev, resign)
	res := <-done
	if res.Err != nil || res.Winner != 0 || res.Ending != endResign || res.Faults[1].Kind != noFault || res.Plies != 3 {
		t.Fatalf("result %+v, want the first player's win by resignation after 3 plies", res)
	}
	if !strings.Contains(res.Detail, "alice lost by Resign") {
		t.Errorf("detail %q", res.Detail)
	}
	_, g, data := dcReadRecord(t, filepath.Join(dir, "board.txt"), 0)
	if rr, _ := g.Result(); rr.Reason != darkchess.Resign || !strings.Contains(data, "\n* Resign random Wins 1.000000,0.000000\n") {
		t.Errorf("record result %v:\n%s", rr, data)
	}
	if ev := page.next(); ev.Question != nil || !ev.State.Finished {
		t.Errorf("after the end: %+v", ev)
	}
}

// TestDarkchessHumanTakeBack: a person takes back a ply against random:
// the game goes on from two plies back, the program started again, with
// the clocks as they were at the take-back (the person's time spent on the
// plies taken back stays spent); the record holds the game as finally
// played, from the start, with the person's name. Take-back is not offered
// before the person has played.
func TestDarkchessHumanTakeBack(t *testing.T) {
	clk := &fakeClock{t: time.Unix(1.7e9, 0)}
	r := dcRunner(t, matchConfig{Time: "60s"}, dcHumanSpec("alice"), dcPlayer(t, "random", ""))
	r.(*darkchessRunner).now = clk.now
	pages, done, dir := dcHumanGame(t, r, dcHumanSpec("alice"), dcPlayer(t, "random", ""))
	page := pages[0]
	flip := func(ev seatEvent, sq string) {
		t.Helper()
		for _, c := range dcMoves(ev.Question) {
			if slices.Equal(c.Squares, []string{sq}) {
				page.answer(ev, c)
				return
			}
		}
		t.Fatalf("no flip of %s among %v", sq, ev.Question.Choices)
	}
	// Each of the person's plies takes 5 s of the fake clock.
	ev := page.next()
	if _, ok := dcChoice(t, ev.Question, viewer.AnswerTakeBack); ok {
		t.Error("take-back offered before the person played")
	}
	clk.add(5 * time.Second)
	flip(ev, "a1")
	ev = page.next()
	if ev.Question.Frame.Ply != 2 {
		t.Fatalf("second question at ply %d", ev.Question.Frame.Ply)
	}
	takeBack, ok := dcChoice(t, ev.Question, viewer.AnswerTakeBack)
	if !ok {
		t.Fatal("no Take back button")
	}
	clk.add(5 * time.Second)
	page.answer(ev, takeBack)
	// Back at the start, with 50 s left.
	ev = page.next()
	if f := ev.Question.Frame; f.Ply != 0 || f.Clocks[0] != viewer.FormatClock(50*time.Second) || f.Clocks[1] != viewer.FormatClock(60*time.Second) {
		t.Fatalf("after the take-back: ply %d, clocks %q", f.Ply, f.Clocks)
	}
	if n := len(dcMoves(ev.Question)); n != 32 {
		t.Fatalf("after the take-back: %d plies, want the 32 flips of the start", n)
	}
	clk.add(5 * time.Second)
	flip(ev, "d8")
	ev = page.next()
	if f := ev.Question.Frame; f.Ply != 2 || f.Clocks[0] != viewer.FormatClock(45*time.Second) {
		t.Fatalf("after the take-back and a ply: ply %d, clocks %q", f.Ply, f.Clocks)
	}
	resign, _ := dcChoice(t, ev.Question, viewer.AnswerResign)
	page.answer(ev, resign)
	res := <-done
	if res.Err != nil || res.Winner != 1 || res.Ending != endResign || res.Plies != 2 {
		t.Fatalf("result %+v", res)
	}
	b, g, data := dcReadRecord(t, filepath.Join(dir, "board.txt"), 0)
	plies := g.Plies()
	if b.First != "alice" || len(plies) != 2 || plies[0].Move != darkchess.Flip(darkchess.D8) || len(b.Times) != 3 {
		t.Errorf("record: %q, plies %v, times %v:\n%s", b.First, plies, b.Times, data)
	}
	// The program was started twice: two handshakes in its transcript.
	tr, err := os.ReadFile(filepath.Join(dir, "second.command"))
	if err != nil {
		t.Fatal(err)
	}
	if n := len(regexp.MustCompile(`(?m)^\d+ name\r?$`).FindAll(tr, -1)); n != 2 {
		t.Errorf("the program's transcript has %d handshakes, want 2:\n%s", n, tr)
	}
}

// TestDarkchessHumanDraw: two persons, on two pages: a draw offer declined
// (the game goes on, the offer not made again that turn), then one
// accepted, which ends the game drawn by agreement, recorded as a draw.
// No take-back between two persons.
func TestDarkchessHumanDraw(t *testing.T) {
	r := dcRunner(t, matchConfig{Time: "300s"}, dcHumanSpec("alice"), dcHumanSpec("bob"))
	pages, done, dir := dcHumanGame(t, r, dcHumanSpec("alice"), dcHumanSpec("bob"))
	alice, bob := pages[0], pages[1]
	ev := alice.next()
	if _, ok := dcChoice(t, ev.Question, viewer.AnswerOfferDraw); !ok {
		t.Error("no draw offer between two persons")
	}
	alice.answer(ev, dcMoves(ev.Question)[0])
	ev = bob.next()
	if _, ok := dcChoice(t, ev.Question, viewer.AnswerTakeBack); ok {
		t.Error("take-back offered between two persons")
	}
	offer, _ := dcChoice(t, ev.Question, viewer.AnswerOfferDraw)
	bob.answer(ev, offer)
	// Alice declines.
	aev := alice.next()
	decline, ok := dcChoice(t, aev.Question, viewer.AnswerDeclineDraw)
	if !ok || !strings.Contains(aev.Question.Prompt, "bob offers a draw") {
		t.Fatalf("alice asked %q, %v", aev.Question.Prompt, aev.Question.Choices)
	}
	alice.answer(aev, decline)
	ev = bob.next()
	if _, ok := dcChoice(t, ev.Question, viewer.AnswerOfferDraw); ok || !strings.Contains(ev.Question.Prompt, "declined") {
		t.Errorf("after the refusal: %q, %v", ev.Question.Prompt, ev.Question.Choices)
	}
	bob.answer(ev, dcMoves(ev.Question)[0])
	// Alice offers; bob accepts.
	ev = alice.next()
	offer, _ = dcChoice(t, ev.Question, viewer.AnswerOfferDraw)
	alice.answer(ev, offer)
	bev := bob.next()
	accept, ok := dcChoice(t, bev.Question, viewer.AnswerAcceptDraw)
	if !ok {
		t.Fatalf("bob asked %q, %v", bev.Question.Prompt, bev.Question.Choices)
	}
	bob.answer(bev, accept)
	res := <-done
	if res.Err != nil || res.Winner != -1 || res.Ending != endAgreed || res.Plies != 2 {
		t.Fatalf("result %+v, want a draw by agreement after 2 plies", res)
	}
	_, g, data := dcReadRecord(t, filepath.Join(dir, "board.txt"), 0)
	if rr, _ := g.Result(); rr.Reason != darkchess.AgreedDraw || !strings.Contains(data, "\n* AgreedDraw alice Draw 0.500000,0.500000\n") {
		t.Errorf("record result %v:\n%s", rr, data)
	}
}

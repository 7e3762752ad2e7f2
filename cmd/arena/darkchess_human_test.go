package main

import (
	"bytes"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/botarena/botarena/darkchess"
	"github.com/botarena/botarena/record"
	"github.com/botarena/botarena/viewer"
)

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
// them, as dcStartHumanGame, and opens the persons' seat pages.
func dcHumanGame(t *testing.T, r runner, first, second *playerSpec) (*humanGame, [2]*seatPage) {
	t.Helper()
	g := dcStartHumanGame(t, r, first, second)
	return g, g.openSeats()
}

// dcStartHumanGame starts game 1 of r between first and second, persons
// among them, as startHumanGame.
func dcStartHumanGame(t *testing.T, r runner, first, second *playerSpec) *humanGame {
	t.Helper()
	return startHumanGame(t, r, &gameJob{N: 1, Seats: [2]*playerSpec{first, second}, Seed: 5, Dir: t.TempDir(), ID: "dc1", Log: slog.New(slog.DiscardHandler)})
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
	g, pages := dcHumanGame(t, r, dcHumanSpec("alice"), dcPlayer(t, "random", ""))
	page := pages[0]
	rng := rand.New(rand.NewPCG(7, 7))
	first := true
	plies := 0
	var last seatEvent
	for {
		ev := page.next()
		if ev == nil {
			last = page.last
			break
		}
		q := ev.Question
		if len(q.Areas) != 32 || q.Areas[0].Name != "a1" || q.Areas[31].Name != "d8" {
			t.Fatalf("areas %v", q.Areas)
		}
		moves := questionMoves(q)
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
		if !questionHas(q, viewer.AnswerResign) {
			t.Error("no Resign button")
		}
		if questionHas(q, viewer.AnswerOfferDraw) {
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
			if questionHas(q, viewer.AnswerTakeBack) {
				t.Error("take-back offered before any ply")
			}
			// A spectator moves nothing; an answer not among the
			// choices is refused; the seat holds one browser.
			if st := page.post(false, ev.N, viewer.AnswerMove, moves[0].Answer.Move); st != http.StatusForbidden {
				t.Errorf("a spectator's answer: status %d, want 403", st)
			}
			if st := page.post(true, ev.N, viewer.AnswerMove, "a1-a8"); st != http.StatusBadRequest {
				t.Errorf("an answer not among the choices: status %d, want 400", st)
			}
			events := *page.page
			events.Path += "/events"
			resp, err := http.Get(events.String())
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusConflict {
				t.Errorf("a second browser on the seat: %s, want 409", resp.Status)
			}
		}
		page.choose(ev, moves[rng.IntN(len(moves))])
		plies++
	}
	res := g.wait()
	if res.Err != nil || res.Winner < -1 || res.Faults[0].Kind != noFault || res.Faults[1].Kind != noFault {
		t.Fatalf("result %+v", res)
	}
	if !last.State.Finished || last.State.Result == "" {
		t.Errorf("the seat's last state: finished %v, result %q", last.State.Finished, last.State.Result)
	}
	b, gm, _ := dcReadRecord(t, filepath.Join(g.job.Dir, "board.txt"), 12)
	if b.First != "alice" || b.Second != "random" || gm.Ply() != res.Plies || (gm.Ply()+1)/2 != plies {
		t.Errorf("record: %q vs %q, %d plies; the person played %d, the result says %d", b.First, b.Second, gm.Ply(), plies, res.Plies)
	}
	t.Logf("%d plies: %s", res.Plies, res.Detail)
}

// TestDarkchessHumanResign: a person resigns against random: the person
// loses by resignation, and the record says "Resign" with the winner.
func TestDarkchessHumanResign(t *testing.T) {
	r := dcRunner(t, matchConfig{Time: "300s"}, dcHumanSpec("alice"), dcPlayer(t, "random", ""))
	g, pages := dcHumanGame(t, r, dcPlayer(t, "random", ""), dcHumanSpec("alice"))
	page := pages[1]
	ev := page.next()
	page.choose(ev, questionMoves(ev.Question)[0])
	ev = page.next()
	if !questionHas(ev.Question, viewer.AnswerResign) {
		t.Fatal("no Resign button")
	}
	page.answer(ev, viewer.AnswerResign, "")
	res := g.wait()
	if res.Err != nil || res.Winner != 0 || res.Ending != endResign || res.Faults[1].Kind != noFault || res.Plies != 3 {
		t.Fatalf("result %+v, want the first player's win by resignation after 3 plies", res)
	}
	if !strings.Contains(res.Detail, "alice lost by Resign") {
		t.Errorf("detail %q", res.Detail)
	}
	_, gm, data := dcReadRecord(t, filepath.Join(g.job.Dir, "board.txt"), 0)
	if rr, _ := gm.Result(); rr.Reason != darkchess.Resign || !strings.Contains(data, "\n* Resign random Wins 1.000000,0.000000\n") {
		t.Errorf("record result %v:\n%s", rr, data)
	}
	if ev := page.next(); ev != nil || !page.last.State.Finished {
		t.Errorf("after the end: %+v, the last state %+v", ev, page.last.State)
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
	g, pages := dcHumanGame(t, r, dcHumanSpec("alice"), dcPlayer(t, "random", ""))
	page := pages[0]
	flip := func(ev *seatEvent, sq string) {
		t.Helper()
		for _, c := range questionMoves(ev.Question) {
			if slices.Equal(c.Squares, []string{sq}) {
				page.choose(ev, c)
				return
			}
		}
		t.Fatalf("no flip of %s among %v", sq, ev.Question.Choices)
	}
	// Each of the person's plies takes 5 s of the fake clock.
	ev := page.next()
	if questionHas(ev.Question, viewer.AnswerTakeBack) {
		t.Error("take-back offered before the person played")
	}
	clk.add(5 * time.Second)
	flip(ev, "a1")
	ev = page.next()
	if ev.Question.Frame.Ply != 2 {
		t.Fatalf("second question at ply %d", ev.Question.Frame.Ply)
	}
	if !questionHas(ev.Question, viewer.AnswerTakeBack) {
		t.Fatal("no Take back button")
	}
	clk.add(5 * time.Second)
	page.answer(ev, viewer.AnswerTakeBack, "")
	// Back at the start, with 50 s left.
	ev = page.next()
	if f := ev.Question.Frame; f.Ply != 0 || f.Clocks[0] != viewer.FormatClock(50*time.Second) || f.Clocks[1] != viewer.FormatClock(60*time.Second) {
		t.Fatalf("after the take-back: ply %d, clocks %q", f.Ply, f.Clocks)
	}
	if n := len(questionMoves(ev.Question)); n != 32 {
		t.Fatalf("after the take-back: %d plies, want the 32 flips of the start", n)
	}
	clk.add(5 * time.Second)
	flip(ev, "d8")
	ev = page.next()
	if f := ev.Question.Frame; f.Ply != 2 || f.Clocks[0] != viewer.FormatClock(45*time.Second) {
		t.Fatalf("after the take-back and a ply: ply %d, clocks %q", f.Ply, f.Clocks)
	}
	page.answer(ev, viewer.AnswerResign, "")
	res := g.wait()
	if res.Err != nil || res.Winner != 1 || res.Ending != endResign || res.Plies != 2 {
		t.Fatalf("result %+v", res)
	}
	b, gm, data := dcReadRecord(t, filepath.Join(g.job.Dir, "board.txt"), 0)
	plies := gm.Plies()
	if b.First != "alice" || len(plies) != 2 || plies[0].Move != darkchess.Flip(darkchess.D8) || len(b.Times) != 3 {
		t.Errorf("record: %q, plies %v, times %v:\n%s", b.First, plies, b.Times, data)
	}
	// The program was started twice: two handshakes in its transcript.
	tr, err := os.ReadFile(filepath.Join(g.job.Dir, "second.command"))
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
	g, pages := dcHumanGame(t, r, dcHumanSpec("alice"), dcHumanSpec("bob"))
	alice, bob := pages[0], pages[1]
	ev := alice.next()
	if !questionHas(ev.Question, viewer.AnswerOfferDraw) {
		t.Error("no draw offer between two persons")
	}
	alice.choose(ev, questionMoves(ev.Question)[0])
	ev = bob.next()
	if questionHas(ev.Question, viewer.AnswerTakeBack) {
		t.Error("take-back offered between two persons")
	}
	bob.answer(ev, viewer.AnswerOfferDraw, "")
	// Alice declines.
	aev := alice.next()
	if !questionHas(aev.Question, viewer.AnswerDeclineDraw) || !strings.Contains(aev.Question.Prompt, "bob offers a draw") {
		t.Fatalf("alice asked %q, %v", aev.Question.Prompt, aev.Question.Choices)
	}
	alice.answer(aev, viewer.AnswerDeclineDraw, "")
	ev = bob.next()
	if questionHas(ev.Question, viewer.AnswerOfferDraw) || !strings.Contains(ev.Question.Prompt, "declined") {
		t.Errorf("after the refusal: %q, %v", ev.Question.Prompt, ev.Question.Choices)
	}
	bob.choose(ev, questionMoves(ev.Question)[0])
	// Alice offers; bob accepts.
	ev = alice.next()
	alice.answer(ev, viewer.AnswerOfferDraw, "")
	bev := bob.next()
	if !questionHas(bev.Question, viewer.AnswerAcceptDraw) {
		t.Fatalf("bob asked %q, %v", bev.Question.Prompt, bev.Question.Choices)
	}
	bob.answer(bev, viewer.AnswerAcceptDraw, "")
	res := g.wait()
	if res.Err != nil || res.Winner != -1 || res.Ending != endAgreed || res.Plies != 2 {
		t.Fatalf("result %+v, want a draw by agreement after 2 plies", res)
	}
	_, gm, data := dcReadRecord(t, filepath.Join(g.job.Dir, "board.txt"), 0)
	if rr, _ := gm.Result(); rr.Reason != darkchess.AgreedDraw || !strings.Contains(data, "\n* AgreedDraw alice Draw 0.500000,0.500000\n") {
		t.Errorf("record result %v:\n%s", rr, data)
	}
}

package main

import (
	"bytes"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"os"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/botarena/botarena/geister"
	"github.com/botarena/botarena/record"
	"github.com/botarena/botarena/timer"
	"github.com/botarena/botarena/viewer"
)

// gsHumanSpec is the player spec "NAME=human".
func gsHumanSpec(name string) *playerSpec {
	return &playerSpec{Spec: name + "=human", Name: name, Human: true}
}

// gsHumanTable is a Geister game with persons in it, and the links of
// their seats (by seat; "" for a program's).
type gsHumanTable struct {
	*humanGame
	links [2]string
}

// gsHumanGame starts r's game between a and b, as startHumanGame, and
// waits for the persons' seat links.
func gsHumanGame(t *testing.T, r runner, a, b *playerSpec) *gsHumanTable {
	t.Helper()
	g := startHumanGame(t, r, &gameJob{N: 1, Seats: [2]*playerSpec{a, b}, Seed: 7, Dir: t.TempDir(), ID: "g1", Log: slog.New(slog.DiscardHandler)})
	return &gsHumanTable{humanGame: g, links: g.seatLinks()}
}

// seat opens seat i's page.
func (tb *gsHumanTable) seat(i int) *seatPage {
	tb.t.Helper()
	return openSeatPage(tb.t, tb.links[i])
}

// end waits for the game's result, and checks that its record reads.
func (tb *gsHumanTable) end() (gameResult, *record.GeisterBoard, []byte) {
	tb.t.Helper()
	res := tb.wait()
	if res.Err != nil {
		tb.t.Fatalf("arena error: %v", res.Err)
	}
	data, err := os.ReadFile(res.Record)
	if err != nil {
		tb.t.Fatal(err)
	}
	rb, err := record.ReadGeisterBoard(bytes.NewReader(data))
	if err != nil {
		tb.t.Fatalf("the record does not read: %v\n%s", err, data)
	}
	if _, err := viewer.ReplayGeister("board.txt", data); err != nil {
		tb.t.Fatalf("the record does not replay: %v\n%s", err, data)
	}
	return res, rb, data
}

// gsAreas are the names of q's areas.
func gsAreas(q *viewer.Question) map[string]bool {
	out := map[string]bool{}
	for _, a := range q.Areas {
		out[a.Name] = true
	}
	return out
}

// gsHumanRunner is a runner for games with persons in them: a minute each,
// at most 60 plies.
func gsHumanRunner(t *testing.T, players ...*playerSpec) runner {
	return gsRunner(t, matchConfig{Time: "60s", MaxPlies: 60}, players...)
}

// TestGeisterHumanGame: a person plays a whole game against random through
// the seat page's HTTP interface: the setup by the red letters, then any
// legal move, each a click on the ghost and one on where it goes. The seat
// sees its own colours and never the opponent's; a spectator's answer and
// an answer not among the choices are refused; the record names the
// person, with the red ghosts they set.
func TestGeisterHumanGame(t *testing.T) {
	t.Parallel()
	alice, bot := gsHumanSpec("alice"), gsPlayer("random", "")
	tb := gsHumanGame(t, gsHumanRunner(t, alice, bot), alice, bot)
	s := tb.seat(0)
	ev := s.next()
	if ev == nil || ev.Question.Setup == nil {
		t.Fatalf("first question %+v, want the setup", ev)
	}
	q := ev.Question
	if q.Setup.Red != "ABCD" || q.Setup.Ghosts[0] != (viewer.SetupGhost{Letter: "A", Square: "14"}) || q.Deadline.IsZero() {
		t.Errorf("setup %+v, deadline %v", q.Setup, q.Deadline)
	}
	if code := s.post(true, ev.N, viewer.AnswerMove, "ABCZ"); code != http.StatusBadRequest {
		t.Errorf("a setup of ghosts the seat has not: status %d, want 400", code)
	}
	s.answer(ev, viewer.AnswerMove, "BDEG") // B and D kept red, A and C swapped with E and G
	rng := rand.New(rand.NewPCG(1, 2))
	moves := 0
	for ev = s.next(); ev != nil; ev = s.next() {
		q := ev.Question
		if moves == 0 {
			board := q.Frame.Board
			if n := strings.Count(board, `class="ghost first red"`); n != 4 {
				t.Errorf("the seat sees %d of its red ghosts, want 4", n)
			}
			if regexp.MustCompile(`class="ghost second (red|blue)"`).MatchString(board) {
				t.Errorf("the seat sees the opponent's colours:\n%s", board)
			}
			if !strings.HasPrefix(q.Prompt, "Your turn (first)") || q.Deadline.IsZero() || q.Frame.Clocks[0] == "" {
				t.Errorf("prompt %q, deadline %v, clocks %q", q.Prompt, q.Deadline, q.Frame.Clocks)
			}
			if questionHas(q, viewer.AnswerTakeBack) || questionHas(q, viewer.AnswerOfferDraw) || !questionHas(q, viewer.AnswerResign) {
				t.Errorf("the first move's buttons: %+v", q.Choices)
			}
			// A spectator's answer and a move not offered are refused.
			if code := s.post(false, ev.N, viewer.AnswerMove, questionMoves(q)[0].Answer.Move); code != http.StatusForbidden {
				t.Errorf("a spectator's move: status %d, want 403", code)
			}
			if code := s.post(true, ev.N, viewer.AnswerMove, "H,SOUTH"); code != http.StatusBadRequest {
				t.Errorf("a move not offered: status %d, want 400", code)
			}
		}
		if q.Setup != nil {
			t.Fatalf("a second setup question at move %d", moves)
		}
		ms := questionMoves(q)
		if len(ms) == 0 {
			t.Fatalf("no legal move offered: %+v", q)
		}
		areas := gsAreas(q)
		for _, c := range ms {
			if len(c.Squares) != 2 || !areas[c.Squares[0]] || !areas[c.Squares[1]] {
				t.Fatalf("move %q is clicked on %q, not two of the picture's areas", c.Answer.Move, c.Squares)
			}
		}
		if moves > 0 && !questionHas(q, viewer.AnswerTakeBack) {
			t.Errorf("no take-back against a program at move %d", moves)
		}
		s.answer(ev, viewer.AnswerMove, ms[rng.IntN(len(ms))].Answer.Move)
		moves++
	}
	res, rb, data := tb.end()
	if rb.First != "alice" || rb.Second != "random" {
		t.Errorf("record players %q vs %q, want alice vs random", rb.First, rb.Second)
	}
	if rb.Reds[0].String() != "BDEG" {
		t.Errorf("record red set of alice %s, want BDEG", rb.Reds[0])
	}
	if res.Winner < -1 || res.Ending == endNone || res.Faults != [2]fault{} {
		t.Errorf("result %+v, want one by the rules", res)
	}
	if want := (len(rb.Moves) + 1) / 2; moves != want {
		t.Errorf("alice answered %d moves, the record has %d of hers:\n%s", moves, want, data)
	}
}

// TestGeisterHumanResign: a person who resigns loses by resignation, and
// the record says Resign.
func TestGeisterHumanResign(t *testing.T) {
	t.Parallel()
	bot, bob := gsPlayer("random", ""), gsHumanSpec("bob")
	tb := gsHumanGame(t, gsHumanRunner(t, bot, bob), bot, bob)
	s := tb.seat(1)
	s.answer(s.next(), viewer.AnswerMove, "ABCD")
	ev := s.next()
	if ev == nil || !strings.HasPrefix(ev.Question.Prompt, "Your turn (second)") {
		t.Fatalf("question %+v, want bob's first move", ev)
	}
	// The second player's picture is the first player's frame: its ghosts
	// start at the top, their moves named so.
	for _, c := range questionMoves(ev.Question) {
		if y := c.Squares[0][1]; y != '0' && y != '1' {
			t.Errorf("move %q from %s: the second player's ghosts start on rows 0 and 1 of the picture", c.Answer.Move, c.Squares[0])
		}
	}
	s.answer(ev, viewer.AnswerMove, questionMoves(ev.Question)[0].Answer.Move)
	ev = s.next()
	s.answer(ev, viewer.AnswerResign, "")
	if ev := s.next(); ev != nil {
		t.Errorf("a question after the resignation: %+v", ev.Question)
	}
	res, rb, data := tb.end()
	if res.Winner != 0 || res.Ending != endResign || res.Faults != [2]fault{} {
		t.Errorf("result %+v, want random wins by resignation", res)
	}
	if rb.Result != (geister.Result{Reason: geister.Resign, Winner: geister.First}) || !bytes.Contains(data, []byte("* Resign random wins 1,0")) {
		t.Errorf("record result %v:\n%s", rb.Result, data)
	}
	if len(rb.Moves) != 3 || rb.Second != "bob" {
		t.Errorf("record of %d plies, second %q; want 3 plies, bob", len(rb.Moves), rb.Second)
	}
}

// TestGeisterHumanTakeBack: a person takes back a move against random: the
// game goes on from two plies back, the clocks as they were (the time used
// stays used), the program started again; the record holds the game as
// finally played, from the true start.
func TestGeisterHumanTakeBack(t *testing.T) {
	t.Parallel()
	alice, bot := gsHumanSpec("alice"), gsPlayer("random", "")
	r := gsHumanRunner(t, alice, bot).(*geisterRunner)
	var taken []*[2]timer.PlayerState
	var mu sync.Mutex
	r.onTakeBack = func(_ *record.GeisterBoard, clocks *[2]timer.PlayerState) {
		mu.Lock()
		taken = append(taken, clocks)
		mu.Unlock()
	}
	tb := gsHumanGame(t, r, alice, bot)
	s := tb.seat(0)
	s.answer(s.next(), viewer.AnswerMove, "ABCD")
	ev := s.next()
	first := questionMoves(ev.Question)
	s.answer(ev, viewer.AnswerMove, first[0].Answer.Move) // ply 1
	ev = s.next()
	if ev.Question.Frame.Ply != 2 || !questionHas(ev.Question, viewer.AnswerTakeBack) {
		t.Fatalf("ply %d, choices %+v: want ply 2 with a take-back", ev.Question.Frame.Ply, ev.Question.Choices)
	}
	// Alice thinks a little before she takes back: the clock charges
	// whole milliseconds, and an instant answer may cost none.
	time.Sleep(10 * time.Millisecond)
	s.answer(ev, viewer.AnswerTakeBack, "")
	ev = s.next()
	if ev == nil || ev.Question.Setup != nil || ev.Question.Frame.Ply != 0 {
		t.Fatalf("after the take-back: %+v, want alice's first move again", ev)
	}
	if questionHas(ev.Question, viewer.AnswerTakeBack) {
		t.Errorf("a take-back offered at the start")
	}
	again := first[len(first)-1].Answer.Move
	s.answer(ev, viewer.AnswerMove, again)
	ev = s.next()
	if ev.Question.Frame.Ply != 2 {
		t.Fatalf("ply %d, want 2", ev.Question.Frame.Ply)
	}
	s.answer(ev, viewer.AnswerMove, questionMoves(ev.Question)[0].Answer.Move)
	ev = s.next()
	s.answer(ev, viewer.AnswerResign, "")
	res, rb, data := tb.end()
	if res.Winner != 1 || res.Ending != endResign {
		t.Errorf("result %+v, want random wins by resignation", res)
	}
	if len(rb.Moves) != 4 || rb.Moves[0].String() != again || rb.First != "alice" {
		t.Errorf("record: %d plies, first %v (want 4, %s), first player %q:\n%s", len(rb.Moves), rb.Moves[0], again, rb.First, data)
	}
	if len(rb.Times) != len(rb.Moves)+1 || len(rb.Captures) != len(rb.Moves) {
		t.Errorf("record: %d timestamps, %d captures for %d plies", len(rb.Times), len(rb.Captures), len(rb.Moves))
	}
	mu.Lock()
	defer mu.Unlock()
	if len(taken) != 1 {
		t.Fatalf("%d take-backs, want 1", len(taken))
	}
	// Alice was thinking when she took back: that time stays used. Each
	// side gets back the ply it no longer played.
	if p := taken[0][0]; p.Used <= 0 || p.Main >= time.Minute || p.Plies != 0 {
		t.Errorf("alice goes on with %+v: want the time she used gone from her minute, her ply given back", p)
	}
	if p := taken[0][1]; p.Plies != 0 || p.Granted != time.Minute {
		t.Errorf("random goes on with %+v: want its ply given back", p)
	}
}

// TestGeisterHumanDraw: two persons, two seats: a draw offer declined goes
// back to the offering person's move; one accepted ends the game as an
// agreed draw, recorded as AgreedDraw (the SDK's word: no platform's
// board.txt has one), which reads back. Against a program no draw is
// offered.
func TestGeisterHumanDraw(t *testing.T) {
	t.Parallel()
	alice, bob := gsHumanSpec("alice"), gsHumanSpec("bob")
	tb := gsHumanGame(t, gsHumanRunner(t, alice, bob), alice, bob)
	a, b := tb.seat(0), tb.seat(1)
	// Both set up (the host asks both at once).
	a.answer(a.next(), viewer.AnswerMove, "ABCD")
	b.answer(b.next(), viewer.AnswerMove, "EFGH")
	ev := a.next()
	if !questionHas(ev.Question, viewer.AnswerOfferDraw) || questionHas(ev.Question, viewer.AnswerTakeBack) {
		t.Fatalf("alice's choices %+v: want a draw offer and no take-back", ev.Question.Choices)
	}
	a.answer(ev, viewer.AnswerOfferDraw, "")
	offer := b.next()
	if !strings.Contains(offer.Question.Prompt, "alice offers a draw") || !questionHas(offer.Question, viewer.AnswerAcceptDraw) {
		t.Fatalf("bob is asked %q", offer.Question.Prompt)
	}
	b.answer(offer, viewer.AnswerDeclineDraw, "")
	ev = a.next()
	if !strings.Contains(ev.Question.Prompt, "declined") || questionHas(ev.Question, viewer.AnswerOfferDraw) {
		t.Errorf("after the refusal alice is asked %q, %+v", ev.Question.Prompt, ev.Question.Choices)
	}
	a.answer(ev, viewer.AnswerMove, questionMoves(ev.Question)[0].Answer.Move)
	ev = b.next()
	if !strings.HasPrefix(ev.Question.Prompt, "Your turn (second)") {
		t.Fatalf("bob is asked %q", ev.Question.Prompt)
	}
	b.answer(ev, viewer.AnswerOfferDraw, "")
	offer = a.next()
	a.answer(offer, viewer.AnswerAcceptDraw, "")
	res, rb, data := tb.end()
	if res.Winner != -1 || res.Ending != endAgreed {
		t.Errorf("result %+v, want an agreed draw", res)
	}
	if rb.Result != (geister.Result{Reason: geister.AgreedDraw, Draw: true}) || len(rb.Moves) != 1 || rb.First != "alice" || rb.Second != "bob" || rb.Reds[1].String() != "EFGH" {
		t.Errorf("record: result %v, %d plies, %q vs %q, reds %v:\n%s", rb.Result, len(rb.Moves), rb.First, rb.Second, rb.Reds, data)
	}
}

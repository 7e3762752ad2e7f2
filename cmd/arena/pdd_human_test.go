package main

import (
	"bytes"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/botarena/botarena/pdd"
	"github.com/botarena/botarena/protocol/permove"
	"github.com/botarena/botarena/record"
	"github.com/botarena/botarena/viewer"
)

// startPDDHumanGame starts game 1 between white and black, persons among
// them, under cfg, as startHumanGame.
func startPDDHumanGame(t *testing.T, cfg matchConfig, white, black *playerSpec) *humanGame {
	t.Helper()
	return startHumanGame(t, pddTestRunner(t, cfg, white, black), pddJob(t, 1, white, black, nil))
}

// readPDDResult reads a game's result.json.
func readPDDResult(t *testing.T, dir string) permove.ResultFile {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, pddResultName))
	if err != nil {
		t.Fatal(err)
	}
	f, err := permove.ReadResultFile(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// A person plays a whole game against random through the seat page's HTTP
// interface: each question has the board, the 100 squares' areas, every
// legal action as a choice (a pair of squares in both orders), and no
// take-back before the person has moved; a spectator's answer is refused
// (403), and so is one not among the choices (400). The game ends by the
// score, and the record names the person.
func TestPDDHumanWholeGame(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 1))
	g := startPDDHumanGame(t, matchConfig{Time: "none"}, &playerSpec{Spec: "alice=human", Name: "alice", Human: true}, pddPlayer("random", ""))
	seat := openSeatPage(t, g.seatLinks()[0])
	asked := 0
	for ev := seat.next(); ev != nil; ev = seat.next() {
		q := ev.Question
		moves := questionMoves(q)
		if asked == 0 {
			if len(q.Areas) != 100 || q.Areas[23].Name != "3,2" || q.Frame.Board == "" || !strings.HasPrefix(q.Prompt, "Your turn (white)") {
				t.Errorf("the first question: %d areas (the 24th %+v), prompt %q", len(q.Areas), q.Areas[23], q.Prompt)
			}
			if len(moves) != 2*4950 || questionHas(q, viewer.AnswerTakeBack) || !questionHas(q, viewer.AnswerResign) || questionHas(q, viewer.AnswerOfferDraw) {
				t.Errorf("the first question has %d moves (want both orders of 4950 pairs), take-back %v, resign %v, draw offer %v",
					len(moves), questionHas(q, viewer.AnswerTakeBack), questionHas(q, viewer.AnswerResign), questionHas(q, viewer.AnswerOfferDraw))
			}
			if code := seat.post(false, ev.N, viewer.AnswerMove, moves[0].Answer.Move); code != http.StatusForbidden {
				t.Errorf("a spectator's move: status %d, want 403", code)
			}
			if code := seat.post(true, ev.N, viewer.AnswerMove, "Change"); code != http.StatusBadRequest {
				t.Errorf("an answer not among the choices: status %d, want 400", code)
			}
		} else if !questionHas(q, viewer.AnswerTakeBack) {
			t.Errorf("question %d offers no take-back", asked+1)
		}
		asked++
		seat.answer(ev, viewer.AnswerMove, moves[rng.IntN(len(moves))].Answer.Move)
	}
	res := g.wait()
	if res.Err != nil || res.Winner < -1 || !slices.Contains([]ending{endScore, endIslands, endBridges}, res.Ending) || res.Faults != [2]fault{} {
		t.Fatalf("result %+v", res)
	}
	f := readPDDResult(t, g.job.Dir)
	if f.Programs.W != "alice" || f.Programs.B != "random" || f.Plies != res.Plies || asked == 0 {
		t.Errorf("result.json names %q and %q, %d plies (%d); the person was asked %d times", f.Programs.W, f.Programs.B, f.Plies, res.Plies, asked)
	}
	for _, m := range f.Moves {
		if m.Color == "W" && m.Fallback {
			t.Errorf("turn %d: a fallback move for the person", m.Turn)
		}
	}
}

// A person resigns: they lose by resignation, the record says "resignation" and
// names them, and stepLog.txt holds the actions played.
func TestPDDHumanResign(t *testing.T) {
	g := startPDDHumanGame(t, matchConfig{Time: "600s"}, pddPlayer("random", ""), &playerSpec{Spec: "bob=human", Name: "bob", Human: true})
	seat := openSeatPage(t, g.seatLinks()[1])
	ev := seat.next()
	if ev == nil || !strings.HasPrefix(ev.Question.Prompt, "Your turn (black)") {
		t.Fatalf("question %+v", ev)
	}
	if !slices.ContainsFunc(ev.Question.Choices, func(c viewer.Choice) bool { return c.Label == "Change" && c.Answer.Move == "Change" }) || !questionHas(ev.Question, viewer.AnswerResign) {
		t.Errorf("Black's first question offers no Change button, or no resignation")
	}
	seat.answer(ev, viewer.AnswerResign, "")
	if ev := seat.next(); ev != nil {
		t.Fatalf("asked again after resigning: %+v", ev)
	}
	res := g.wait()
	if res.Err != nil || res.Winner != 0 || res.Ending != endResign || res.Reason != "resignation" || res.Plies != 1 || res.Faults != [2]fault{} {
		t.Fatalf("result %+v", res)
	}
	f := readPDDResult(t, g.job.Dir)
	if f.Reason != "resignation" || f.Winner != "W" || f.Programs.B != "bob" || f.Plies != 1 {
		t.Errorf("result.json %+v", f)
	}
}

// A person takes back against a program: not before their first action;
// then their action and the program's answer are undone, the clocks going
// on (the person's clock is not set back to the full time), and the record
// holds the game as finally played.
func TestPDDHumanTakeBack(t *testing.T) {
	g := startPDDHumanGame(t, matchConfig{Time: "600s"}, &playerSpec{Spec: "alice=human", Name: "alice", Human: true}, pddPlayer("random", ""))
	seat := openSeatPage(t, g.seatLinks()[0])
	ev := seat.next()
	if questionHas(ev.Question, viewer.AnswerTakeBack) {
		t.Error("take-back offered before the person's first action")
	}
	full := ev.Question.Frame.Clocks[0]
	seat.answer(ev, viewer.AnswerMove, "Chess_0,0_1,0")
	ev = seat.next()
	if !questionHas(ev.Question, viewer.AnswerTakeBack) || ev.Question.Frame.Ply != 2 {
		t.Fatalf("the second question: ply %d, take-back offered %v", ev.Question.Frame.Ply, questionHas(ev.Question, viewer.AnswerTakeBack))
	}
	seat.answer(ev, viewer.AnswerTakeBack, "")
	ev = seat.next()
	f := ev.Question.Frame
	if f.Ply != 0 || questionHas(ev.Question, viewer.AnswerTakeBack) || strings.Contains(f.Board, `class="tile`) {
		t.Errorf("after the take-back: ply %d, take-back offered %v; want the empty board again", f.Ply, questionHas(ev.Question, viewer.AnswerTakeBack))
	}
	if f.Clocks[0] == full || f.Clocks[0] == "" {
		t.Errorf("after the take-back the person's clock shows %q, as at the start (%q): it did not go on", f.Clocks[0], full)
	}
	seat.answer(ev, viewer.AnswerMove, "Chess_5,5_6,5")
	ev = seat.next()
	seat.answer(ev, viewer.AnswerResign, "")
	res := g.wait()
	if res.Err != nil || res.Winner != 1 || res.Ending != endResign || res.Plies != 2 {
		t.Fatalf("result %+v", res)
	}
	rf := readPDDResult(t, g.job.Dir)
	if rf.Plies != 2 || rf.Moves[0].P1 != "5,5" || rf.Moves[0].P2 != "6,5" || rf.Moves[0].Color != "W" || rf.Moves[1].Color != "B" || rf.Programs.W != "alice" {
		t.Errorf("result.json: %+v", rf)
	}
	steps, err := os.ReadFile(filepath.Join(g.job.Dir, "stepLog.txt"))
	if err != nil || !strings.HasPrefix(string(steps), "W_1_Chess_5,5_6,5\nB_2_") || strings.Count(string(steps), "\n") != 2 {
		t.Errorf("stepLog.txt %q (%v)", steps, err)
	}
}

// Two persons: a draw offer declined goes on (the offer is not made again
// on that turn), one accepted ends the game drawn by agreement. Neither
// may take back.
func TestPDDHumanDrawOffer(t *testing.T) {
	g := startPDDHumanGame(t, matchConfig{Time: "none"},
		&playerSpec{Spec: "alice=human", Name: "alice", Human: true}, &playerSpec{Spec: "bob=human", Name: "bob", Human: true})
	pages := g.openSeats()
	white, black := pages[0], pages[1]

	ev := white.next()
	if !questionHas(ev.Question, viewer.AnswerOfferDraw) || questionHas(ev.Question, viewer.AnswerTakeBack) {
		t.Fatalf("White's first question: draw offer %v, take-back %v", questionHas(ev.Question, viewer.AnswerOfferDraw), questionHas(ev.Question, viewer.AnswerTakeBack))
	}
	white.answer(ev, viewer.AnswerOfferDraw, "")
	offer := black.next()
	if offer.Question.Prompt != "alice offers a draw" {
		t.Fatalf("Black is asked %q", offer.Question.Prompt)
	}
	black.answer(offer, viewer.AnswerDeclineDraw, "")
	ev = white.next()
	if questionHas(ev.Question, viewer.AnswerOfferDraw) || !strings.Contains(ev.Question.Prompt, "declined") {
		t.Errorf("after the declined offer White is asked %q, draw offer %v", ev.Question.Prompt, questionHas(ev.Question, viewer.AnswerOfferDraw))
	}
	white.answer(ev, viewer.AnswerMove, "Chess_0,0_1,0")
	ev = black.next()
	if questionHas(ev.Question, viewer.AnswerTakeBack) || !questionHas(ev.Question, viewer.AnswerOfferDraw) {
		t.Errorf("Black's question: take-back %v, draw offer %v", questionHas(ev.Question, viewer.AnswerTakeBack), questionHas(ev.Question, viewer.AnswerOfferDraw))
	}
	black.answer(ev, viewer.AnswerOfferDraw, "")
	offer = white.next()
	white.answer(offer, viewer.AnswerAcceptDraw, "")
	res := g.wait()
	if res.Err != nil || res.Winner != -1 || res.Ending != endAgreed || res.Plies != 1 {
		t.Fatalf("result %+v", res)
	}
	f := readPDDResult(t, g.job.Dir)
	if f.Reason != "agreement" || f.Winner != "none" || f.Programs.W != "alice" || f.Programs.B != "bob" {
		t.Errorf("result.json %+v", f)
	}
	for _, s := range []*seatPage{white, black} {
		if ev := s.next(); ev != nil {
			t.Errorf("a seat is asked after the draw: %+v", ev.Question)
		}
	}
}

// A person's seat without -web cannot start: that seat loses by a start
// failure, and nothing waits for a page.
func TestPDDHumanWithoutWeb(t *testing.T) {
	r := pddTestRunner(t, matchConfig{}, &playerSpec{Spec: "human", Name: "human", Human: true}, pddPlayer("random", ""))
	w := &testWatcher{}
	res := r.Play(t.Context(), pddJob(t, 1, r.cfg.Players[0], r.cfg.Players[1], w))
	if res.Winner != 1 || res.Faults[0].Kind != faultStart || !strings.Contains(res.Faults[0].Reason, "-web") {
		t.Errorf("result %+v", res)
	}
}

// A person who does not move in time loses by time, as a program would:
// no move is played in their place.
func TestPDDHumanTimeout(t *testing.T) {
	g := startPDDHumanGame(t, matchConfig{Time: "1s/move"}, &playerSpec{Spec: "alice=human", Name: "alice", Human: true}, pddPlayer("random", ""))
	g.seatLinks() // the link is printed; nobody opens it
	res := g.wait()
	if res.Err != nil || res.Winner != 1 || res.Ending != endTime || res.Faults[0].Kind != faultTimeout || res.Plies != 0 {
		t.Fatalf("result %+v", res)
	}
}

// pddLive follows the referee's events: actions, and a take-back that
// leaves some of them; take-back is open to a side with an action after
// the start's.
func TestPDDLive(t *testing.T) {
	start, err := record.ReadPDDStepLog(strings.NewReader("W_1_Chess_0,0_1,0\n"), record.PDDLenient)
	if err != nil {
		t.Fatal(err)
	}
	l := &pddLive{steps: start.Steps, startSteps: 1}
	step := func(line string) record.PDDStep {
		s, err := record.ParsePDDStep(line, record.PDDLenient)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	if l.canTakeBack(pdd.White) || l.canTakeBack(pdd.Black) {
		t.Error("take-back open before any action after the start's")
	}
	for i, line := range []string{"B_2_Chess_9,9_8,9", "W_3_Chess_5,5_6,5", "B_4_Chess_0,9_1,9", "W_5_Chess_3,3_3,4"} {
		l.moved(permove.MoveEvent{Ply: i + 2, Move: permove.MoveRecord{Step: step(line)}}, viewer.Frame{Ply: i + 2})
	}
	if !l.canTakeBack(pdd.White) || !l.canTakeBack(pdd.Black) || len(l.steps) != 5 {
		t.Fatalf("after 4 actions: %d steps", len(l.steps))
	}
	// Black takes back B_4 (and W_5): 3 actions are left.
	l.moved(permove.MoveEvent{Ply: 3, Move: permove.MoveRecord{Step: step("W_3_Chess_5,5_6,5")}, TakeBack: true}, viewer.Frame{Ply: 3})
	if len(l.steps) != 3 || l.steps[2].String() != "W_3_Chess_5,5_6,5" || l.frame.Ply != 3 {
		t.Fatalf("after the take-back: %v", l.steps)
	}
	// White takes back W_3: 2 actions are left, B_2 the last.
	l.moved(permove.MoveEvent{Ply: 2, TakeBack: true}, viewer.Frame{Ply: 2})
	if len(l.steps) != 2 || l.canTakeBack(pdd.White) || !l.canTakeBack(pdd.Black) {
		t.Errorf("after White's take-back: %v", l.steps)
	}
}

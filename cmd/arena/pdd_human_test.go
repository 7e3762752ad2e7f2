package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
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
	"testing"
	"time"

	"github.com/botarena/botarena/pdd"
	"github.com/botarena/botarena/protocol/permove"
	"github.com/botarena/botarena/record"
	"github.com/botarena/botarena/viewer"
)

// linkWriter sends each line written to it (a seat's link, as openHumans
// prints it) to lines.
type linkWriter struct{ lines chan string }

func (w linkWriter) Write(b []byte) (int, error) {
	for line := range strings.Lines(string(b)) {
		w.lines <- strings.TrimSpace(line)
	}
	return len(b), nil
}

// pddHumanGame plays one game of the players on a viewer served by
// httptest, as arena match -web does: it returns the game's result, the
// job, the viewer's address and the seats' links (by seat) as they are
// printed, and the result on done.
type pddHumanGame struct {
	srv   *httptest.Server
	job   *gameJob
	links chan string
	done  chan gameResult
}

func startPDDHumanGame(t *testing.T, cfg matchConfig, white, black *playerSpec) *pddHumanGame {
	t.Helper()
	v, err := viewer.New(viewer.Options{})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(v)
	t.Cleanup(srv.Close)
	r := pddTestRunner(t, cfg, white, black)
	job := pddJob(t, 1, white, black, v)
	g := &pddHumanGame{srv: srv, job: job, links: make(chan string, 2), done: make(chan gameResult, 1)}
	job.Web = &webSeats{host: v, url: srv.URL + "/", out: linkWriter{g.links}}
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	t.Cleanup(cancel)
	go func() { g.done <- r.Play(ctx, job) }()
	return g
}

// seat returns the path of seat i's page from the links printed, which
// name the seat ("plays seat 1" is seat 0).
func (g *pddHumanGame) seats(t *testing.T, n int) [2]string {
	t.Helper()
	var paths [2]string
	re := regexp.MustCompile(`plays seat (\d) at (\S+)$`)
	for range n {
		line := <-g.links
		m := re.FindStringSubmatch(line)
		if m == nil {
			t.Fatalf("link line %q", line)
		}
		i, _ := strconv.Atoi(m[1])
		u, err := url.Parse(m[2])
		if err != nil || !strings.HasPrefix(m[2], g.srv.URL+"/play/") {
			t.Fatalf("link %q is not the viewer's seat page", m[2])
		}
		paths[i-1] = u.RequestURI()
	}
	return paths
}

// pddSeat follows a seat's event stream.
type pddSeat struct {
	t      *testing.T
	base   string // the server
	page   string // the seat page's path, "/play/ID?seat=TOKEN"
	events chan seatEvent
	last   uint64 // the last question answered
}

func followSeat(t *testing.T, base, page string) *pddSeat {
	t.Helper()
	path, query, _ := strings.Cut(page, "?")
	resp, err := http.Get(base + path + "/events?" + query)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("seat events: %s", resp.Status)
	}
	s := &pddSeat{t: t, base: base, page: page, events: make(chan seatEvent, 16)}
	go func() {
		defer resp.Body.Close()
		defer close(s.events)
		r := bufio.NewReader(resp.Body)
		for {
			line, err := r.ReadString('\n')
			if err != nil {
				return
			}
			data, ok := strings.CutPrefix(line, "data: ")
			if !ok {
				continue
			}
			var ev seatEvent
			if err := json.Unmarshal([]byte(data), &ev); err != nil {
				t.Errorf("seat event: %v", err)
				return
			}
			s.events <- ev
			if ev.Closed {
				return
			}
		}
	}()
	t.Cleanup(func() { resp.Body.Close() })
	return s
}

// next returns the next question the seat is asked, or nil once the seat
// is closed (the game is over).
func (s *pddSeat) next() *seatEvent {
	for ev := range s.events {
		if ev.Closed {
			return nil
		}
		if ev.Question != nil && ev.N > s.last {
			s.last = ev.N
			return &ev
		}
	}
	return nil
}

// post sends an answer to question ev as the seat's page does (token
// true) or as a page without the seat's token; it returns the status.
func (s *pddSeat) post(ev *seatEvent, token bool, kind, move string) int {
	s.t.Helper()
	path, query, _ := strings.Cut(s.page, "?")
	u := s.base + path + "/act"
	if token {
		u += "?" + query
	}
	form := url.Values{"session": {ev.Session}, "n": {strconv.FormatUint(ev.N, 10)}, "kind": {kind}, "move": {move}}
	resp, err := http.PostForm(u, form)
	if err != nil {
		s.t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode
}

// answer posts the answer, which must be taken.
func (s *pddSeat) answer(ev *seatEvent, kind, move string) {
	s.t.Helper()
	if code := s.post(ev, true, kind, move); code != http.StatusNoContent {
		s.t.Fatalf("answer %s %q to %q: status %d", kind, move, ev.Question.Prompt, code)
	}
}

// pddQuestionChoices returns the moves among q's choices, and whether q offers
// an answer of kind.
func pddQuestionChoices(q *viewer.Question) (moves []viewer.Choice, has func(viewer.AnswerKind) bool) {
	for _, c := range q.Choices {
		if c.Answer.Kind == viewer.AnswerMove {
			moves = append(moves, c)
		}
	}
	return moves, func(k viewer.AnswerKind) bool {
		return slices.ContainsFunc(q.Choices, func(c viewer.Choice) bool { return c.Answer.Kind == k })
	}
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
	seat := followSeat(t, g.srv.URL, g.seats(t, 1)[0])
	asked := 0
	for ev := seat.next(); ev != nil; ev = seat.next() {
		q := ev.Question
		moves, has := pddQuestionChoices(q)
		if asked == 0 {
			if len(q.Areas) != 100 || q.Areas[23].Name != "3,2" || q.Frame.Board == "" || !strings.HasPrefix(q.Prompt, "Your turn (white)") {
				t.Errorf("the first question: %d areas (the 24th %+v), prompt %q", len(q.Areas), q.Areas[23], q.Prompt)
			}
			if len(moves) != 2*4950 || has(viewer.AnswerTakeBack) || !has(viewer.AnswerResign) || has(viewer.AnswerOfferDraw) {
				t.Errorf("the first question has %d moves (want both orders of 4950 pairs), take-back %v, resign %v, draw offer %v",
					len(moves), has(viewer.AnswerTakeBack), has(viewer.AnswerResign), has(viewer.AnswerOfferDraw))
			}
			if code := seat.post(ev, false, "move", moves[0].Answer.Move); code != http.StatusForbidden {
				t.Errorf("a spectator's move: status %d, want 403", code)
			}
			if code := seat.post(ev, true, "move", "Change"); code != http.StatusBadRequest {
				t.Errorf("an answer not among the choices: status %d, want 400", code)
			}
		} else if !has(viewer.AnswerTakeBack) {
			t.Errorf("question %d offers no take-back", asked+1)
		}
		asked++
		seat.answer(ev, "move", moves[rng.IntN(len(moves))].Answer.Move)
	}
	res := <-g.done
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
	seat := followSeat(t, g.srv.URL, g.seats(t, 1)[1])
	ev := seat.next()
	if ev == nil || !strings.HasPrefix(ev.Question.Prompt, "Your turn (black)") {
		t.Fatalf("question %+v", ev)
	}
	if _, has := pddQuestionChoices(ev.Question); !slices.ContainsFunc(ev.Question.Choices, func(c viewer.Choice) bool { return c.Label == "Change" && c.Answer.Move == "Change" }) || !has(viewer.AnswerResign) {
		t.Errorf("Black's first question offers no Change button, or no resignation")
	}
	seat.answer(ev, "resign", "")
	if ev := seat.next(); ev != nil {
		t.Fatalf("asked again after resigning: %+v", ev)
	}
	res := <-g.done
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
	seat := followSeat(t, g.srv.URL, g.seats(t, 1)[0])
	ev := seat.next()
	if _, has := pddQuestionChoices(ev.Question); has(viewer.AnswerTakeBack) {
		t.Error("take-back offered before the person's first action")
	}
	full := ev.Question.Frame.Clocks[0]
	seat.answer(ev, "move", "Chess_0,0_1,0")
	ev = seat.next()
	if _, has := pddQuestionChoices(ev.Question); !has(viewer.AnswerTakeBack) || ev.Question.Frame.Ply != 2 {
		t.Fatalf("the second question: ply %d, take-back offered %v", ev.Question.Frame.Ply, has(viewer.AnswerTakeBack))
	}
	seat.answer(ev, "take-back", "")
	ev = seat.next()
	f := ev.Question.Frame
	if _, has := pddQuestionChoices(ev.Question); f.Ply != 0 || has(viewer.AnswerTakeBack) || strings.Contains(f.Board, `class="tile`) {
		t.Errorf("after the take-back: ply %d, take-back offered %v; want the empty board again", f.Ply, has(viewer.AnswerTakeBack))
	}
	if f.Clocks[0] == full || f.Clocks[0] == "" {
		t.Errorf("after the take-back the person's clock shows %q, as at the start (%q): it did not go on", f.Clocks[0], full)
	}
	seat.answer(ev, "move", "Chess_5,5_6,5")
	ev = seat.next()
	seat.answer(ev, "resign", "")
	res := <-g.done
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
	pages := g.seats(t, 2)
	white, black := followSeat(t, g.srv.URL, pages[0]), followSeat(t, g.srv.URL, pages[1])

	ev := white.next()
	if _, has := pddQuestionChoices(ev.Question); !has(viewer.AnswerOfferDraw) || has(viewer.AnswerTakeBack) {
		t.Fatalf("White's first question: draw offer %v, take-back %v", has(viewer.AnswerOfferDraw), has(viewer.AnswerTakeBack))
	}
	white.answer(ev, "offer-draw", "")
	offer := black.next()
	if offer.Question.Prompt != "alice offers a draw" {
		t.Fatalf("Black is asked %q", offer.Question.Prompt)
	}
	black.answer(offer, "decline-draw", "")
	ev = white.next()
	if _, has := pddQuestionChoices(ev.Question); has(viewer.AnswerOfferDraw) || !strings.Contains(ev.Question.Prompt, "declined") {
		t.Errorf("after the declined offer White is asked %q, draw offer %v", ev.Question.Prompt, has(viewer.AnswerOfferDraw))
	}
	white.answer(ev, "move", "Chess_0,0_1,0")
	ev = black.next()
	if _, has := pddQuestionChoices(ev.Question); has(viewer.AnswerTakeBack) || !has(viewer.AnswerOfferDraw) {
		t.Errorf("Black's question: take-back %v, draw offer %v", has(viewer.AnswerTakeBack), has(viewer.AnswerOfferDraw))
	}
	black.answer(ev, "offer-draw", "")
	offer = white.next()
	white.answer(offer, "accept-draw", "")
	res := <-g.done
	if res.Err != nil || res.Winner != -1 || res.Ending != endAgreed || res.Plies != 1 {
		t.Fatalf("result %+v", res)
	}
	f := readPDDResult(t, g.job.Dir)
	if f.Reason != "agreement" || f.Winner != "none" || f.Programs.W != "alice" || f.Programs.B != "bob" {
		t.Errorf("result.json %+v", f)
	}
	for _, s := range []*pddSeat{white, black} {
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
	g.seats(t, 1) // the link is printed; nobody opens it
	res := <-g.done
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

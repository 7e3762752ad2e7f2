package viewer

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/botarena/botarena/geister"
	"github.com/botarena/botarena/internal/browsertest"
	"github.com/botarena/botarena/othello"
)

// othelloAreas are the 64 squares of boardsvg's Othello picture, a1
// top-left: squares of 50 units inside a frame of 30.
func othelloAreas() []Area {
	areas := make([]Area, 64)
	for s := range othello.Square(64) {
		areas[s] = Area{Name: s.String(), X: float64(30 + 50*s.X()), Y: float64(30 + 50*s.Y()), W: 50, H: 50}
	}
	return areas
}

// geisterAreas are the 36 squares of boardsvg's Geister picture: squares
// of 60 units, 36 from the left and the top.
func geisterAreas() []Area {
	var areas []Area
	for y := range 6 {
		for x := range 6 {
			s := geister.SquareAt(x, y)
			areas = append(areas, Area{Name: s.String(), X: float64(36 + 60*x), Y: float64(36 + 60*y), W: 60, H: 60})
		}
	}
	return areas
}

// areaNamed returns the area of areas named name.
func areaNamed(t *testing.T, areas []Area, name string) Area {
	t.Helper()
	i := slices.IndexFunc(areas, func(a Area) bool { return a.Name == name })
	if i < 0 {
		t.Fatalf("no area %q", name)
	}
	return areas[i]
}

// seatAsk is one Ask of a browser test, under way.
type seatAsk struct {
	cancel context.CancelFunc
	done   chan struct{}
	ans    Answer
	err    error
}

// ask asks seat 0 of game id q in the background.
func ask(v *Viewer, id string, q Question) *seatAsk {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	a := &seatAsk{cancel: cancel, done: make(chan struct{})}
	go func() {
		defer close(a.done)
		defer cancel()
		a.ans, a.err = v.Ask(ctx, id, 0, q)
	}()
	return a
}

// wait waits for the answer.
func (a *seatAsk) wait(t *testing.T) Answer {
	t.Helper()
	<-a.done
	if a.err != nil {
		t.Fatalf("Ask: %v", a.err)
	}
	return a.ans
}

// seatShown is what the seat page shows, as its script reads it.
type seatShown struct {
	Prompt  string
	Turn    string
	Hot     []string // the areas highlighted
	Clicked []string // the areas clicked so far
	Ghosts  []string // a setup's ghosts: "A red", "E blue*" (* picked)
	Buttons []string
	Refused string
	Notice  string
	Clock   [2]string
	Result  string
	Replay  string
}

// readSeat reads the page, once cond (a script expression over s, the
// page as read) holds, or after 20 s.
const readSeat = `
const cond = new Function("s", "return " + arguments[0]), done = arguments[arguments.length - 1], t0 = performance.now();
const txt = id => { const e = document.getElementById(id); return e && !e.hidden ? e.textContent : ""; };
function read() {
  const areas = cls => Array.from(document.querySelectorAll("#overlay:not([hidden]) .area." + cls)).map(e => e.dataset.area).sort();
  const a = document.getElementById("replay-link");
  return {prompt: txt("prompt"), turn: txt("turn"), hot: areas("hot"),
    clicked: Array.from(document.querySelectorAll("#overlay:not([hidden]) .area.clicked")).map(e => e.dataset.area),
    ghosts: Array.from(document.querySelectorAll("#overlay:not([hidden]) .area.ghost")).map(e =>
      e.dataset.letter + " " + (e.classList.contains("red") ? "red" : "blue") + (e.classList.contains("picked") ? "*" : "")),
    buttons: Array.from(document.querySelectorAll("#choices button:not(:disabled)")).map(b => b.textContent),
    refused: txt("refused"), notice: txt("notice"), clock: [txt("clock0"), txt("clock1")],
    result: txt("result"), replay: a ? a.getAttribute("href") : ""};
}
(function check() {
  const s = read();
  if (cond(s) || performance.now() - t0 > 20000) done(s); else setTimeout(check, 10);
})();`

// TestBrowserSeat plays on the seat page in a real headless chromium, the
// game fed by the test: an Othello question answered by a click on a
// square (the legal squares highlighted), moves of two clicks (the
// highlight following the clicks, Escape, a choice with a button), a
// resignation confirmed then refused by the viewer as stale, a Geister
// setup (ghosts swapped, Set Finish), a page refused because the seat is
// open elsewhere and a reload that takes it, and the result at the end.
func TestBrowserSeat(t *testing.T) {
	b := browsertest.Start(t, 1280, 860)
	shots := browsertest.ShotDir(t)
	v, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	// staleNext, when set, makes the next answer stale: the Ask is ended
	// (by cancelStale) before the viewer reads the answer.
	var staleNext atomic.Pointer[seatAsk]
	// otherDone is closed when the one event stream followed without a
	// browser's cookie (the test's own, below) has ended.
	otherDone := make(chan struct{})
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/events") && r.Header.Get("Cookie") == "" {
			defer close(otherDone)
		}
		if r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/act") {
			if a := staleNext.Swap(nil); a != nil {
				a.cancel()
				<-a.done
			}
		}
		v.ServeHTTP(w, r)
	})
	ctx, cancel := context.WithCancel(context.Background())
	srv := httptest.NewUnstartedServer(h)
	srv.Config.BaseContext = func(net.Listener) context.Context { return ctx }
	srv.Start()
	defer srv.Close()
	defer cancel()
	t.Logf("screenshots in %s", shots)

	read := func(cond string) seatShown {
		t.Helper()
		var s seatShown
		b.Await(readSeat, &s, cond)
		return s
	}

	t.Run("othello", func(t *testing.T) {
		b.T = t
		const id = "seat-othello"
		info := GameInfo{ID: id, Game: "othello", Title: "Game 1: you vs bot", Players: [2]string{"you", "bot"}, Seats: [2]string{"black", "white"}}
		p := othello.TUS.Start
		v.Begin(info, OthelloFrame(p, 0, othello.NoMove, "", [2]string{"5:00.0", "5:00.0"}))
		path, err := v.OpenSeat(id, 0)
		if err != nil {
			t.Fatal(err)
		}
		// Another browser holds the seat: the page says so.
		other, closeOther := browsertest.OpenEvents(t, srv.URL+strings.Replace(path, "?", "/events?", 1))
		other.Next()
		b.Open(srv.URL + path)
		if s := read(`s.notice !== ""`); !strings.Contains(s.Notice, "open in another browser") {
			t.Errorf("a page refused the seat says %q", s.Notice)
		}
		closeOther()
		<-otherDone

		areas := othelloAreas()
		var legal []string
		var cs []Choice
		for _, m := range p.AppendLegalMoves(nil) {
			legal = append(legal, m.String())
			cs = append(cs, Choice{Answer: Answer{Kind: AnswerMove, Move: m.String()}, Squares: []string{m.String()}})
		}
		slices.Sort(legal)
		cs = append(cs, Choice{Answer: Answer{Kind: AnswerResign}, Label: "Resign"})
		q := Question{Frame: OthelloFrame(p, 0, othello.NoMove, "", [2]string{"5:00.0", "5:00.0"}), Areas: areas,
			Prompt: "Your move", Choices: cs, Deadline: time.Now().Add(10 * time.Minute)}
		a := ask(v, id, q)
		// The seat is free again (the other stream was closed): a reload takes it.
		b.Open(srv.URL + path)
		s := read(`s.prompt !== "" && s.hot.length > 0`)
		browsertest.SaveShot(t, shots, "seat-othello", b.Screenshot())
		if s.Notice != "" || s.Prompt != "Your move" || s.Turn != "Your turn (black)" {
			t.Errorf("page: notice %q, prompt %q, turn %q", s.Notice, s.Prompt, s.Turn)
		}
		if !slices.Equal(s.Hot, legal) {
			t.Errorf("highlighted %v, want the legal squares %v", s.Hot, legal)
		}
		if !slices.Equal(s.Buttons, []string{"Resign"}) {
			t.Errorf("buttons %v, want [Resign]", s.Buttons)
		}
		if !regexp.MustCompile(`^[0-9]:[0-5][0-9]\.[0-9]$`).MatchString(s.Clock[0]) || s.Clock[0] == "0:00.0" || s.Clock[1] != "5:00.0" {
			t.Errorf("clocks %q: want the seat's counting down from 10:00.0, the other's 5:00.0", s.Clock)
		}
		first := s.Clock[0]
		if s = read(`s.clock[0] !== ` + jsString(first)); s.Clock[0] >= first {
			t.Errorf("the seat's clock does not count down: %q then %q", first, s.Clock[0])
		}
		// An event while the question is asked (here the game's frame
		// gets a move) brings the question's number alone, not its
		// choices again: the page keeps the question.
		m0, _ := othello.ParseMove(legal[len(legal)-1])
		p1, _ := p.Play(m0)
		v.Update(id, OthelloFrame(p1, 1, m0, "", [2]string{"5:00.0", "5:00.0"}))
		if s = read(`document.getElementById("moves").children.length === 1`); s.Prompt != "Your move" || !slices.Equal(s.Hot, legal) || s.Turn != "Your turn (black)" {
			t.Errorf("after an event while asked: prompt %q, highlighted %v, turn %q", s.Prompt, s.Hot, s.Turn)
		}
		// A square that is no move: nothing happens.
		a1 := areaNamed(t, areas, "a1")
		b.ClickPicture(a1.X+a1.W/2, a1.Y+a1.H/2)
		if s = read(`true`); len(s.Clicked) != 0 || !slices.Equal(s.Hot, legal) {
			t.Errorf("after a1: clicked %v, highlighted %v", s.Clicked, s.Hot)
		}
		want := legal[len(legal)-1]
		sq := areaNamed(t, areas, want)
		b.ClickPicture(sq.X+sq.W/2, sq.Y+sq.H/2)
		if got := a.wait(t); got != (Answer{Kind: AnswerMove, Move: want}) {
			t.Fatalf("clicking %s answered %+v", want, got)
		}
		m, _ := othello.ParseMove(want)
		p2, err := p.Play(m)
		if err != nil {
			t.Fatal(err)
		}
		v.Update(id, OthelloFrame(p2, 1, m, "", [2]string{"4:58.0", "5:00.0"}))
		if s = read(`s.prompt === "" && s.turn.startsWith("Waiting")`); s.Turn != "Waiting for bot" {
			t.Errorf("once answered, the turn says %q", s.Turn)
		}

		// Moves of two clicks, on the same board (the page knows no game).
		two := func(from, to string) Choice {
			return Choice{Answer: Answer{Kind: AnswerMove, Move: from + "-" + to}, Squares: []string{from, to}}
		}
		promote := two("e6", "e7")
		promote.Label = "Promote"
		q.Choices = []Choice{two("c3", "d4"), two("c3", "e5"), promote, {Answer: Answer{Kind: AnswerOfferDraw}, Label: "Offer a draw"}}
		q.Deadline = time.Time{}
		a = ask(v, id, q)
		if s = read(`s.hot.length === 2`); !slices.Equal(s.Hot, []string{"c3", "e6"}) {
			t.Fatalf("highlighted %v, want the first squares c3, e6", s.Hot)
		}
		c3 := areaNamed(t, areas, "c3")
		b.ClickPicture(c3.X+c3.W/2, c3.Y+c3.H/2)
		if s = read(`s.clicked.length === 1`); !slices.Equal(s.Hot, []string{"d4", "e5"}) || !slices.Equal(s.Clicked, []string{"c3"}) {
			t.Errorf("after c3: highlighted %v, clicked %v; want d4 e5, c3", s.Hot, s.Clicked)
		}
		browsertest.SaveShot(t, shots, "seat-othello-c3", b.Screenshot())
		b.Press(browsertest.KeyEscape)
		if s = read(`s.clicked.length === 0`); !slices.Equal(s.Hot, []string{"c3", "e6"}) || len(s.Clicked) != 0 {
			t.Errorf("after Escape: highlighted %v, clicked %v", s.Hot, s.Clicked)
		}
		// c3, then e6, which does not continue c3 but begins a move.
		e6 := areaNamed(t, areas, "e6")
		b.ClickPicture(c3.X+c3.W/2, c3.Y+c3.H/2)
		read(`s.clicked.length === 1`)
		b.ClickPicture(e6.X+e6.W/2, e6.Y+e6.H/2)
		if s = read(`s.clicked[0] === "e6"`); !slices.Equal(s.Hot, []string{"e7"}) || !slices.Equal(s.Clicked, []string{"e6"}) {
			t.Errorf("after c3 e6: highlighted %v, clicked %v; want e7, e6", s.Hot, s.Clicked)
		}
		b.ClickArea("e7") // where the page highlights it
		if s = read(`s.buttons.includes("Promote")`); !slices.Equal(s.Buttons, []string{"Promote", "Offer a draw"}) || !slices.Equal(s.Clicked, []string{"e6", "e7"}) {
			t.Errorf("after e6 e7: buttons %v, clicked %v; want the labelled move's button", s.Buttons, s.Clicked)
		}
		select {
		case <-a.done:
			t.Fatalf("a choice with a label was answered without its button: %+v", a.ans)
		default:
		}
		b.Click(b.Element(`#choices button[data-move="e6-e7"]`))
		if got := a.wait(t); got != promote.Answer {
			t.Errorf("the Promote button answered %+v", got)
		}

		// Resign asks for confirmation; the viewer then finds the
		// question stale (the test ended it) and the page says so.
		q.Choices = []Choice{{Answer: Answer{Kind: AnswerResign}, Label: "Resign"}}
		a = ask(v, id, q)
		read(`s.buttons.length === 1`)
		b.Click(b.Element(`#choices button[data-kind="resign"]`))
		if s = read(`s.buttons.length === 2`); !slices.Equal(s.Buttons, []string{"Yes, resign", "No"}) {
			t.Fatalf("after Resign, buttons %v", s.Buttons)
		}
		select {
		case <-a.done:
			t.Fatalf("Resign answered without confirmation: %+v", a.ans)
		default:
		}
		staleNext.Store(a)
		b.Click(b.Element(`#choices button.danger`))
		if s = read(`s.refused !== ""`); !strings.Contains(s.Refused, "no longer asked") {
			t.Errorf("a stale answer: the page says %q", s.Refused)
		}
		browsertest.SaveShot(t, shots, "seat-othello-refused", b.Screenshot())
		if <-a.done; a.err == nil {
			t.Errorf("the stale question was answered: %+v", a.ans)
		}

		// The end: the result, with a link to the replay.
		v.Finish(id, OthelloFrame(p, 0, othello.NoMove, "stopped", [2]string{}), "white wins (black resigned)", "/tmp/nowhere/game.txt")
		v.CloseSeats(id)
		if s = read(`s.result !== ""`); !strings.Contains(s.Result, "white wins (black resigned)") || !strings.HasPrefix(s.Replay, "/replay?") || s.Turn != "Game over" {
			t.Errorf("at the end: result %q, replay link %q, turn %q", s.Result, s.Replay, s.Turn)
		}
	})

	t.Run("geister-setup", func(t *testing.T) {
		b.T = t
		const id = "seat-geister"
		reds, err := geister.ParseReds("ABCD")
		if err != nil {
			t.Fatal(err)
		}
		p, err := geister.Start(reds, reds)
		if err != nil {
			t.Fatal(err)
		}
		f := GeisterFrame(p, GeisterFrameOptions{Status: "setting up"})
		v.Begin(GameInfo{ID: id, Game: "geister", Title: "Game 2", Players: [2]string{"you", "bot"}, Seats: [2]string{"first", "second"}}, f)
		path, err := v.OpenSeat(id, 0)
		if err != nil {
			t.Fatal(err)
		}
		setup := &GeisterSetup{Red: "ABCD"}
		for g := range 8 {
			setup.Ghosts[g] = SetupGhost{Letter: string(rune('A' + g)), Square: p.Square(geister.First, geister.Ghost(g)).String()}
		}
		areas := geisterAreas()
		a := ask(v, id, Question{Frame: f, Areas: areas, Prompt: "Set your red ghosts", Setup: setup,
			Choices: []Choice{{Answer: Answer{Kind: AnswerResign}, Label: "Resign"}}})
		b.Open(srv.URL + path)
		s := read(`s.ghosts.length === 8`)
		if want := []string{"A red", "B red", "C red", "D red", "E blue", "F blue", "G blue", "H blue"}; !slices.Equal(s.Ghosts, want) {
			t.Fatalf("ghosts %v, want %v", s.Ghosts, want)
		}
		// A reload shows the question again at once: the browser that
		// held the seat takes it over, whether or not its old page's
		// stream has ended yet.
		b.Open(srv.URL + path)
		if s = read(`s.ghosts.length === 8 || s.notice !== ""`); s.Notice != "" || len(s.Ghosts) != 8 {
			t.Fatalf("after a reload: notice %q, ghosts %v", s.Notice, s.Ghosts)
		}
		click := func(letter string) {
			t.Helper()
			g := setup.Ghosts[letter[0]-'A']
			sq := areaNamed(t, areas, g.Square)
			b.ClickPicture(sq.X+sq.W/2, sq.Y+sq.H/2)
		}
		click("A")
		if s = read(`s.ghosts[0] === "A red*"`); s.Ghosts[0] != "A red*" {
			t.Errorf("A clicked: %v", s.Ghosts)
		}
		click("E")
		if s = read(`s.ghosts[0] === "A blue"`); s.Ghosts[0] != "A blue" || s.Ghosts[4] != "E red" {
			t.Errorf("A and E clicked: %v, want them swapped", s.Ghosts)
		}
		// Two of one colour: the second is picked instead, nothing swaps.
		click("B")
		read(`s.ghosts[1] === "B red*"`)
		click("C")
		if s = read(`s.ghosts[2] === "C red*"`); s.Ghosts[1] != "B red" || s.Ghosts[2] != "C red*" {
			t.Errorf("B and C clicked: %v", s.Ghosts)
		}
		browsertest.SaveShot(t, shots, "seat-geister-setup", b.Screenshot())
		b.Click(b.Element(`#set-finish`))
		if got := a.wait(t); got != (Answer{Kind: AnswerMove, Move: "BCDE"}) {
			t.Errorf("Set Finish answered %+v, want BCDE", got)
		}
		v.CloseSeats(id)
	})
}

// jsString quotes s for a script.
func jsString(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}

package main

import (
	"slices"
	"strings"
	"testing"

	"github.com/botarena/botarena/boardsvg"
	"github.com/botarena/botarena/internal/browsertest"
	"github.com/botarena/botarena/internal/longtest"
)

// othelloSeatShown is what an Othello seat page shows.
type othelloSeatShown struct {
	Ply     string
	Prompt  string
	Hot     []string // the squares highlighted: the legal moves
	Buttons []string
	Board   string // the picture's src
	Result  string
}

// readOthelloSeat reads the seat page once cond (an expression over s, the
// page as read) holds, or after 30 s.
const readOthelloSeat = `
const cond = new Function("s", "return " + arguments[0]), done = arguments[arguments.length - 1], t0 = performance.now();
const txt = id => { const e = document.getElementById(id); return e && !e.hidden ? e.textContent : ""; };
function read() {
  return {ply: txt("ply"), prompt: txt("prompt"),
    hot: Array.from(document.querySelectorAll("#overlay:not([hidden]) .area.hot")).map(e => e.dataset.area).sort(),
    buttons: Array.from(document.querySelectorAll("#choices button:not(:disabled)")).map(b => b.textContent),
    board: document.getElementById("board").getAttribute("src") || "", result: txt("result")};
}
(function check() {
  const s = read();
  if (cond(s) || performance.now() - t0 > 30000) done(s); else setTimeout(check, 10);
})();`

// TestBrowserOthelloHuman plays Othello by clicks on the seat page in a
// real headless chromium, against random: a whole game (a click on a
// highlighted square each turn, the highlighted squares being the legal
// moves), with a take-back by its button after three moves (the board
// goes back two plies); then, in another game, a resignation by its button.
func TestBrowserOthelloHuman(t *testing.T) {
	longtest.Skip(t, "a whole game by clicks in chromium: the quick tier plays the seat page in chromium (viewer's TestBrowserSeat) and every game's seat through HTTP")
	if testing.Short() {
		t.Skip("-short: no game")
	}
	b := browsertest.Start(t, 1280, 860)
	shots := browsertest.ShotDir(t)
	read := func(cond string) othelloSeatShown {
		t.Helper()
		var s othelloSeatShown
		b.Await(readOthelloSeat, &s, cond)
		return s
	}
	click := func(square string) {
		t.Helper()
		a, ok := boardsvg.AreaNamed(boardsvg.OthelloAreas(), square)
		if !ok {
			t.Fatalf("no square %q", square)
		}
		b.ClickPicture(a.Center())
	}
	// asked is the condition of the person's turn after ply (or the end).
	asked := func(ply string) string {
		return `(s.hot.length > 0 && s.ply !== ` + jsQuote(ply) + `) || s.result !== ""`
	}

	t.Run("game", func(t *testing.T) {
		b.T = t
		g := startOthelloHuman(t, &playerSpec{Name: "alice", Human: true}, &playerSpec{Name: "random", Builtin: "random"}, nil)
		b.Open(g.link().url)
		s := read(asked(""))
		var boards, plies []string
		for n := 0; s.Result == ""; n++ {
			if !strings.HasPrefix(s.Prompt, "Your turn (black)") || !slices.Contains(s.Buttons, "Resign") || slices.Contains(s.Buttons, "Take back") != (n > 0) {
				t.Fatalf("turn %d: prompt %q, buttons %v", n, s.Prompt, s.Buttons)
			}
			if n == 0 {
				browsertest.SaveShot(t, shots, "othello-human-first", b.Screenshot())
			}
			boards, plies = append(boards, s.Board), append(plies, s.Ply)
			if n == 3 {
				// Take back the third move: the board goes back two plies.
				b.Click(b.Element(`#choices button[data-kind="take-back"]`))
				s = read(`s.ply === ` + jsQuote(plies[2]) + ` && s.hot.length > 0`)
				if s.Ply != plies[2] || s.Board != boards[2] {
					t.Fatalf("after the take-back: ply %s, want %s, the board of then (same: %v)", s.Ply, plies[2], s.Board == boards[2])
				}
				if atoi(t, plies[3])-atoi(t, s.Ply) != 2 {
					t.Errorf("the take-back went from ply %s to %s", plies[3], s.Ply)
				}
				browsertest.SaveShot(t, shots, "othello-human-takeback", b.Screenshot())
			}
			click(s.Hot[len(s.Hot)/2])
			s = read(asked(s.Ply))
		}
		res := g.wait()
		if res.Err != nil || res.Ending != endDiscs || res.Faults != [2]fault{} {
			t.Fatalf("result %+v", res)
		}
		browsertest.SaveShot(t, shots, "othello-human-end", b.Screenshot())
		if !strings.Contains(s.Result, "by discs") {
			t.Errorf("the page's result %q", s.Result)
		}
		if gm, err := readOthelloRecord(t, res.Record).Game(); err != nil || !gm.IsOver() || gm.Ply() != res.Plies {
			t.Errorf("the record: %v", err)
		}
	})

	t.Run("resign", func(t *testing.T) {
		b.T = t
		g := startOthelloHuman(t, &playerSpec{Name: "random", Builtin: "random"}, &playerSpec{Name: "bob", Human: true}, nil)
		b.Open(g.link().url)
		s := read(asked(""))
		if s.Result != "" || !strings.HasPrefix(s.Prompt, "Your turn (white)") {
			t.Fatalf("bob's page: %+v", s)
		}
		b.Click(b.Element(`#choices button[data-kind="resign"]`))
		read(`s.buttons.includes("Yes, resign")`)
		b.Click(b.Element(`#choices button.danger`))
		s = read(`s.result !== ""`)
		if !strings.Contains(s.Result, "random wins by resignation") {
			t.Errorf("the page's result %q", s.Result)
		}
		if res := g.wait(); res.Winner != 0 || res.Ending != endResign {
			t.Errorf("result %+v", res)
		}
	})
}

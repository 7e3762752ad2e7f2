package main

import (
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/botarena/botarena/boardsvg"
	"github.com/botarena/botarena/internal/browsertest"
	"github.com/botarena/botarena/internal/longtest"
)

// pddPageState is what a PDD seat page shows, as the test reads it.
type pddPageState struct {
	Ply     int
	Hot     []string // the squares highlighted
	Buttons []string // the buttons' texts
	Result  string
	Board   string // the picture shown
	Turn    string
}

// readPDDPage waits until the seat page is asked a question drawn after
// ply (its squares highlighted, or a button to press) or shows the
// result, for at most 30 s, and reads it.
const readPDDPage = `
const after = arguments[0], done = arguments[arguments.length - 1], t0 = performance.now();
const txt = id => { const e = document.getElementById(id); return e && !e.hidden ? e.textContent : ""; };
function read() {
  const img = document.getElementById("board");
  return {ply: Number(document.getElementById("ply").textContent),
    hot: Array.from(document.querySelectorAll("#overlay:not([hidden]) .area.hot")).map(e => e.dataset.area),
    buttons: Array.from(document.querySelectorAll("#choices button:not(:disabled)")).map(b => b.textContent),
    result: txt("result"), turn: txt("turn"),
    board: decodeURIComponent((img.getAttribute("src") || "").split(",").slice(1).join(","))};
}
(function check() {
  const s = read();
  const asked = s.ply > after && s.buttons.includes("Resign") && s.turn.startsWith("Your turn");
  if (asked || s.result || performance.now() - t0 > 30000) done(s); else setTimeout(check, 10);
})();`

// clickPDDSquare clicks the centre of square name ("x,y") on the page's
// board picture.
func clickPDDSquare(t *testing.T, b *browsertest.Browser, name string) {
	t.Helper()
	a, ok := boardsvg.AreaNamed(boardsvg.PDDAreas(), name)
	if !ok {
		t.Fatalf("no square %q", name)
	}
	b.ClickPicture(a.Center())
}

// TestBrowserPDDHuman plays PDD on the seat page in a real chromium: a
// whole game by clicks as Black against random (the Change by its button
// first, then two tiles or a bridge by clicking their squares, a bridge
// whenever one is offered), then a game resigned by the Resign button and
// its confirmation. Skipped where chromium is missing.
func TestBrowserPDDHuman(t *testing.T) {
	longtest.Skip(t, "a whole game by clicks in chromium: the quick tier plays the seat page in chromium (viewer's TestBrowserSeat) and every game's seat through HTTP")
	b := browsertest.Start(t, 1280, 860)
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 2))

	g := startPDDHumanGame(t, matchConfig{Time: "none"}, pddPlayer("random", ""), &playerSpec{Spec: "bob=human", Name: "bob", Human: true})
	b.Open(g.seatLinks()[1])
	var s pddPageState
	b.Await(readPDDPage, &s, 0)
	if !slices.Contains(s.Buttons, "Change") || len(s.Hot) == 0 {
		t.Fatalf("Black's first question: buttons %q, %d squares highlighted", s.Buttons, len(s.Hot))
	}
	b.Click(b.Element(`#choices button[data-move="Change"]`))
	own := regexp.MustCompile(`class="tile black[^"]*" data-square="(\d,\d)"`)
	turns, bridges := 1, 0
	for {
		b.Await(readPDDPage, &s, s.Ply)
		if s.Result != "" {
			break
		}
		if !strings.HasPrefix(s.Turn, "Your turn") || len(s.Hot) == 0 {
			t.Fatalf("turn %d: the page shows %+v", turns+1, s)
		}
		var mine []string
		for _, m := range own.FindAllStringSubmatch(s.Board, -1) {
			mine = append(mine, m[1])
		}
		// A bridge starts on an own tile; two tiles on free squares.
		first := s.Hot[rng.IntN(len(s.Hot))]
		bridge := false
		for _, h := range s.Hot {
			if slices.Contains(mine, h) {
				first, bridge = h, true
				break
			}
		}
		clickPDDSquare(t, b, first)
		var next pddPageState
		b.Run(`return {hot: Array.from(document.querySelectorAll("#overlay:not([hidden]) .area.hot")).map(e => e.dataset.area)};`, &next)
		if len(next.Hot) == 0 {
			t.Fatalf("turn %d: nothing highlighted after a click on %s", turns+1, first)
		}
		clickPDDSquare(t, b, next.Hot[rng.IntN(len(next.Hot))])
		if bridge {
			bridges++
		}
		turns++
	}
	res := g.wait()
	if res.Err != nil || res.Faults != [2]fault{} || !slices.Contains([]ending{endScore, endIslands, endBridges}, res.Ending) {
		t.Fatalf("the game by clicks: %+v", res)
	}
	f := readPDDResult(t, g.job.Dir)
	var played, bridged int
	for _, m := range f.Moves {
		if m.Color == "B" {
			played++
			if m.Action == "Bridge" {
				bridged++
			}
		}
	}
	if f.Moves[1].Action != "Change" || played != turns || bridged != bridges || bridges == 0 || f.Programs.B != "bob" {
		t.Errorf("result.json: Black's %d actions (%d bridges; the second action %s), the page played %d (%d bridges); Black is %q",
			played, bridged, f.Moves[1].Action, turns, bridges, f.Programs.B)
	}
	if !strings.Contains(s.Result, "by") {
		t.Errorf("the page's result: %q", s.Result)
	}

	// Resign: the button, then its confirmation.
	g = startPDDHumanGame(t, matchConfig{Time: "600s"}, &playerSpec{Spec: "alice=human", Name: "alice", Human: true}, pddPlayer("random", ""))
	b.Open(g.seatLinks()[0])
	b.Await(readPDDPage, &s, -1)
	if !slices.Contains(s.Buttons, "Resign") {
		t.Fatalf("no Resign button: %q", s.Buttons)
	}
	b.Click(b.Element(`#choices button[data-kind="resign"]`))
	b.Click(b.Element(`#choices button.danger`))
	b.Await(readPDDPage, &s, 1<<30)
	res = g.wait()
	if res.Winner != 1 || res.Ending != endResign || !strings.Contains(s.Result, "resignation") {
		t.Errorf("after resigning: result %+v, the page says %q", res, s.Result)
	}
	if f := readPDDResult(t, g.job.Dir); f.Reason != "resignation" || f.Programs.W != "alice" {
		t.Errorf("result.json after resigning: %+v", f)
	}
}

package main

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/botarena/botarena/boardsvg"
	"github.com/botarena/botarena/internal/browsertest"
	"github.com/botarena/botarena/internal/longtest"
)

// gsShown is what a seat page shows, as its script reads it.
type gsShown struct {
	Prompt  string
	Turn    string
	Hot     []string // the areas highlighted
	Clicked []string // the areas clicked so far
	Ghosts  []string // a setup's ghosts: "A red", "E blue*" (* picked)
	Buttons []string // the enabled buttons' kinds
	Result  string
	Ply     int // the ply counter
}

// gsReadSeat reads a seat page once cond (a script expression over s, the
// page as read) holds, or after 20 s.
const gsReadSeat = `
const cond = new Function("s", "return " + arguments[0]), done = arguments[arguments.length - 1], t0 = performance.now();
const txt = id => { const e = document.getElementById(id); return e && !e.hidden ? e.textContent : ""; };
function read() {
  return {prompt: txt("prompt"), turn: txt("turn"),
    hot: Array.from(document.querySelectorAll("#overlay:not([hidden]) .area.hot")).map(e => e.dataset.area).sort(),
    clicked: Array.from(document.querySelectorAll("#overlay:not([hidden]) .area.clicked")).map(e => e.dataset.area),
    ghosts: Array.from(document.querySelectorAll("#overlay:not([hidden]) .area.ghost")).map(e =>
      e.dataset.letter + " " + (e.classList.contains("red") ? "red" : "blue") + (e.classList.contains("picked") ? "*" : "")),
    buttons: Array.from(document.querySelectorAll("#choices button:not(:disabled)")).map(b => b.dataset.kind || b.id),
    result: txt("result"), ply: Number(txt("ply"))};
}
(function check() {
  const s = read();
  if (cond(s) || performance.now() - t0 > 20000) done(s); else setTimeout(check, 20);
})();`

// gsPage is a browser showing a Geister seat page, of the second player
// (its board rotated half a turn) when second.
type gsPage struct {
	t      *testing.T
	b      *browsertest.Browser
	second bool
}

// read reads the page once cond holds.
func (p gsPage) read(cond string) gsShown {
	p.t.Helper()
	var s gsShown
	p.b.Await(gsReadSeat, &s, cond)
	return s
}

// click clicks the middle of the picture's area name.
func (p gsPage) click(name string) {
	p.t.Helper()
	areas := boardsvg.GeisterAreas()
	if p.second {
		areas = boardsvg.GeisterFlippedAreas()
	}
	a, ok := boardsvg.AreaNamed(areas, name)
	if !ok {
		p.t.Fatalf("no area %q", name)
	}
	p.b.ClickPicture(a.Center())
}

// setup plays the setup: the ghosts clicked in pairs to swap their
// colours, then Set Finish.
func (p gsPage) setup(swaps ...[2]string) {
	p.t.Helper()
	p.read(`s.ghosts.length === 8`)
	for _, sw := range swaps {
		for _, letter := range sw {
			sq := ""
			for _, g := range "ABCDEFGH" {
				if string(g) == letter {
					// The first player's ghosts: A-D on row 4, E-H on row 5, x 1-4.
					i := int(g - 'A')
					sq = string(rune('1'+i%4)) + string(rune('4'+i/4))
				}
			}
			p.click(sq)
			p.read(`s.ghosts.some(g => g.endsWith("*")) === ` + map[bool]string{true: "true", false: "false"}[letter == sw[0]])
		}
	}
	p.b.Click(p.b.Element(`#set-finish`))
	p.read(`!s.prompt.startsWith("Set your")`)
}

// playByClicks plays the seat's moves until the game ends, each by clicks
// on the highlighted squares (a ghost, then where it goes), and returns
// how many it played. The games stop at 20 plies.
func (p gsPage) playByClicks() int {
	p.t.Helper()
	moves := 0
	for {
		s := p.read(`s.result !== "" || (s.prompt.startsWith("Your turn") && s.hot.length > 0)`)
		if s.Result != "" {
			return moves
		}
		if moves > 30 {
			p.t.Fatalf("still playing after %d moves (the game stops at 20 plies)", moves)
		}
		from := s.Hot[moves%len(s.Hot)]
		p.click(from)
		s = p.read(`s.clicked.length === 1`)
		if len(s.Hot) == 0 || !slices.Equal(s.Clicked, []string{from}) {
			browsertest.SaveShot(p.t, browsertest.ShotDir(p.t), "geister-human-click", p.b.Screenshot())
			p.t.Fatalf("after a click on %s: %+v", from, s)
		}
		p.click(s.Hot[0])
		// The move is played once the ply counter passes it (the bot's
		// answer may come before the page shows the wait).
		p.read(fmt.Sprintf(`s.ply > %d || s.result !== ""`, s.Ply))
		moves++
	}
}

// TestBrowserGeisterHuman plays Geister on the seat page in a real
// headless chromium: the setup by swapping two ghosts' colours and Set
// Finish, then a whole game against random by clicks on the highlighted
// squares (a ghost, then where it goes), as the first player and as the
// second, whose board is rotated; then two persons on two browsers,
// one offering a draw that the other accepts, while a spectator's page
// (no token) has its move refused.
func TestBrowserGeisterHuman(t *testing.T) {
	longtest.Skip(t, "a whole game by clicks in chromium: the quick tier plays the seat page in chromium (viewer's TestBrowserSeat) and every game's seat through HTTP")
	b := browsertest.Start(t, 1100, 900)

	t.Run("game", func(t *testing.T) {
		b.T = t
		alice, bot := gsHumanSpec("alice"), gsPlayer("random", "")
		tb := gsHumanGame(t, gsRunner(t, matchConfig{Time: "300s", MaxPlies: 20}, alice, bot), alice, bot)
		p := gsPage{t: t, b: b}
		b.Open(tb.links[0])
		p.setup([2]string{"A", "E"})
		moves := p.playByClicks()
		res, rb, _ := tb.end()
		if rb.Reds[0].String() != "BCDE" || rb.First != "alice" {
			t.Errorf("record: alice's reds %s (want BCDE: A and E swapped), first player %q", rb.Reds[0], rb.First)
		}
		if res.Winner < -1 || res.Ending == endNone {
			t.Errorf("result %+v", res)
		}
		if moves != (len(rb.Moves)+1)/2 {
			t.Errorf("%d moves clicked, the record has %d plies", moves, len(rb.Moves))
		}
	})

	t.Run("second", func(t *testing.T) {
		// The second player's board is rotated half a turn: its clicks
		// land where GeisterFlippedAreas put the squares.
		b.T = t
		bot, alice := gsPlayer("random", ""), gsHumanSpec("alice")
		tb := gsHumanGame(t, gsRunner(t, matchConfig{Time: "300s", MaxPlies: 20}, bot, alice), bot, alice)
		p := gsPage{t: t, b: b, second: true}
		b.Open(tb.links[1])
		p.setup()
		moves := p.playByClicks()
		res, rb, _ := tb.end()
		if res.Winner < -1 || res.Ending == endNone || moves != len(rb.Moves)/2 || rb.Second != "alice" {
			t.Errorf("result %+v; %d moves clicked, the record has %d plies, second player %q", res, moves, len(rb.Moves), rb.Second)
		}
	})

	t.Run("draw", func(t *testing.T) {
		b.T = t
		b2 := browsertest.Start(t, 1100, 900)
		alice, bob := gsHumanSpec("alice"), gsHumanSpec("bob")
		tb := gsHumanGame(t, gsRunner(t, matchConfig{Time: "300s"}, alice, bob), alice, bob)
		pa, pb := gsPage{t: t, b: b}, gsPage{t: t, b: b2, second: true}
		b.Open(tb.links[0])
		b2.Open(tb.links[1])
		pa.setup()
		pb.setup()
		s := pa.read(`s.buttons.includes("offer-draw")`)
		if !strings.HasPrefix(s.Prompt, "Your turn (first)") || slices.Contains(s.Buttons, "take-back") {
			t.Errorf("alice's page: prompt %q, buttons %v", s.Prompt, s.Buttons)
		}
		// A spectator's page (the seat's link without its token) moves
		// nothing: the viewer refuses its answer.
		link := tb.links[0]
		b2.Open(link[:strings.Index(link, "?")])
		var status int
		b2.Await(`const done = arguments[arguments.length - 1];
fetch(location.pathname + "/act", {method: "POST", body: new URLSearchParams({session: "x", n: "1", kind: "move", move: "A,NORTH"})}).then(r => done(r.status));`, &status)
		if status != 403 {
			t.Errorf("a spectator's move: status %d, want 403", status)
		}
		b2.Open(tb.links[1])
		b.Click(b.Element(`#choices button[data-kind="offer-draw"]`))
		s = pb.read(`s.buttons.includes("accept-draw")`)
		if !strings.Contains(s.Prompt, "alice offers a draw") {
			t.Errorf("bob's page: prompt %q, buttons %v", s.Prompt, s.Buttons)
		}
		b2.Click(b2.Element(`#choices button[data-kind="accept-draw"]`))
		for _, p := range []gsPage{pa, pb} {
			if s := p.read(`s.result !== ""`); !strings.Contains(s.Result, "agreed draw") {
				t.Errorf("result shown %q", s.Result)
			}
		}
		res, rb, data := tb.end()
		if res.Winner != -1 || res.Ending != endAgreed || len(rb.Moves) != 0 || bytes.Contains(data, []byte("wins")) {
			t.Errorf("result %+v, record:\n%s", res, data)
		}
	})
}

// jsQuote quotes s for a script.
func jsQuote(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}

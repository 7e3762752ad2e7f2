package main

import (
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/botarena/botarena/boardsvg"
	"github.com/botarena/botarena/darkchess"
	"github.com/botarena/botarena/internal/browsertest"
	"github.com/botarena/botarena/internal/longtest"
)

// dcPageState is what the dark chess seat page shows, as its script reads
// it.
type dcPageState struct {
	Ply     int
	Prompt  string
	Hot     []string // the squares highlighted
	Clicked []string // the squares clicked so far
	Buttons []string
	Result  string
}

// dcReadPage reads the seat page once cond (a script expression over s,
// the page as read) holds, or after 30 s.
const dcReadPage = `
const cond = new Function("s", "return " + arguments[0]), done = arguments[arguments.length - 1], t0 = performance.now();
const txt = id => { const e = document.getElementById(id); return e && !e.hidden ? e.textContent : ""; };
function read() {
  const areas = cls => Array.from(document.querySelectorAll("#overlay:not([hidden]) .area." + cls)).map(e => e.dataset.area);
  return {ply: Number(txt("ply")), prompt: txt("prompt"), hot: areas("hot").sort(), clicked: areas("clicked"),
    buttons: Array.from(document.querySelectorAll("#choices button:not(:disabled)")).map(b => b.textContent),
    result: txt("result")};
}
(function check() {
  const s = read();
  if (cond(s) || performance.now() - t0 > 30000) done(s); else setTimeout(check, 10);
})();`

// dcReadSeat reads the page once cond holds, failing if it does not.
func dcReadSeat(t *testing.T, b *browsertest.Browser, cond string) dcPageState {
	t.Helper()
	var s dcPageState
	b.Await(dcReadPage, &s, cond)
	return s
}

// dcClickSquare clicks the centre of square name on the board picture.
func dcClickSquare(t *testing.T, b *browsertest.Browser, name string) {
	t.Helper()
	a, ok := boardsvg.AreaNamed(boardsvg.DarkChessAreas(), name)
	if !ok {
		t.Fatalf("no square %q", name)
	}
	b.ClickPicture(a.Center())
}

// dcAskedAt waits until the page asks for the ply after ply plies (or
// shows the result) and returns what it shows.
func dcAskedAt(t *testing.T, b *browsertest.Browser, ply int) dcPageState {
	t.Helper()
	return dcReadSeat(t, b, `s.result !== "" || (s.ply === `+strconv.Itoa(ply)+` && s.hot.length > 0 && s.clicked.length === 0 && s.prompt.startsWith("Your turn"))`)
}

// dcClickPly plays one of the page's plies by clicks: a highlighted
// square, then, if it is a piece to move, one of its highlighted targets.
// It reports whether it was a move of two clicks.
func dcClickPly(t *testing.T, b *browsertest.Browser, s dcPageState, rng *rand.Rand) bool {
	t.Helper()
	from := s.Hot[rng.IntN(len(s.Hot))]
	dcClickSquare(t, b, from)
	// A flip is answered at once (the question closes); a piece shows
	// its targets.
	// (The program may answer a flip at once: the page is then at a
	// later ply.)
	ply := s.Ply
	s = dcReadSeat(t, b, `s.result !== "" || s.ply !== `+strconv.Itoa(ply)+` || s.hot.length === 0 || (s.clicked.length === 1 && s.clicked[0] === "`+from+`")`)
	if s.Ply == ply && len(s.Clicked) == 1 && len(s.Hot) > 0 {
		dcClickSquare(t, b, s.Hot[rng.IntN(len(s.Hot))])
		return true
	}
	return false
}

// TestBrowserDarkchessByHand plays dark chess by clicks in a real headless
// chromium against random: a whole game (flips and moves, the
// no-capture-no-flip limit short), a take-back by its button, and a
// resignation.
func TestBrowserDarkchessByHand(t *testing.T) {
	longtest.Skip(t, "a whole game by clicks in chromium: the quick tier plays the seat page in chromium (viewer's TestBrowserSeat) and every game's seat through HTTP")
	if testing.Short() {
		t.Skip("-short: no game")
	}
	b := browsertest.Start(t, 1280, 860)
	t.Run("game", func(t *testing.T) {
		b.T = t
		r := dcRunner(t, matchConfig{Time: "300s", MaxPlies: 6}, dcHumanSpec("alice"), dcPlayer(t, "random", ""))
		hg := dcStartHumanGame(t, r, dcHumanSpec("alice"), dcPlayer(t, "random", ""))
		b.Open(hg.seatLinks()[0])
		rng := rand.New(rand.NewPCG(3, 3))
		moved, clickedMoves := false, 0
		for ply := 0; ; ply += 2 {
			s := dcAskedAt(t, b, ply)
			if s.Result != "" {
				break
			}
			if ply == 0 && len(s.Hot) != 32 {
				t.Fatalf("the first question highlights %d squares, want the 32 face-down pieces", len(s.Hot))
			}
			if dcClickPly(t, b, s, rng) {
				clickedMoves++
			}
			if ply > 300 {
				t.Fatal("no end after 300 plies")
			}
		}
		res := hg.wait()
		if res.Err != nil || res.Winner < -1 {
			t.Fatalf("result %+v", res)
		}
		_, g, _ := dcReadRecord(t, filepath.Join(hg.job.Dir, "board.txt"), 6)
		for _, p := range g.Plies() {
			moved = moved || !p.Move.IsFlip()
		}
		if clickedMoves == 0 || !moved {
			t.Errorf("the person played no move of two clicks (%d), the record has none (%v): only flips", clickedMoves, moved)
		}
		t.Logf("%d plies, %d of the person's moves by two clicks: %s", res.Plies, clickedMoves, res.Detail)
	})
	t.Run("take-back and resign", func(t *testing.T) {
		b.T = t
		r := dcRunner(t, matchConfig{Time: "300s"}, dcHumanSpec("alice"), dcPlayer(t, "random", ""))
		hg := dcStartHumanGame(t, r, dcHumanSpec("alice"), dcPlayer(t, "random", ""))
		b.Open(hg.seatLinks()[0])
		s := dcAskedAt(t, b, 0)
		if slices.Contains(s.Buttons, "Take back") {
			t.Errorf("buttons %v before the person played", s.Buttons)
		}
		dcClickSquare(t, b, "a1")
		s = dcAskedAt(t, b, 2)
		if !slices.Contains(s.Buttons, "Take back") {
			t.Fatalf("buttons %v: no Take back", s.Buttons)
		}
		b.Click(b.Element(`#choices button[data-kind="take-back"]`))
		s = dcAskedAt(t, b, 0)
		if len(s.Hot) != 32 {
			t.Fatalf("after the take-back: %d squares highlighted at ply %d, want 32", len(s.Hot), s.Ply)
		}
		dcClickSquare(t, b, "d8")
		dcAskedAt(t, b, 2)
		b.Click(b.Element(`#choices button[data-kind="resign"]`))
		// The page asks for a confirmation.
		dcReadSeat(t, b, `s.buttons.includes("Yes, resign")`)
		b.Click(b.Element(`#choices button.danger`))
		res := hg.wait()
		if res.Err != nil || res.Winner != 1 || res.Ending != endResign || res.Plies != 2 {
			t.Fatalf("result %+v", res)
		}
		if s := dcReadSeat(t, b, `s.result !== ""`); !strings.Contains(s.Result, "random wins by resignation") {
			t.Errorf("the page shows %q at the end", s.Result)
		}
		_, g, _ := dcReadRecord(t, filepath.Join(hg.job.Dir, "board.txt"), 0)
		if p := g.Plies(); len(p) != 2 || p[0].Move != darkchess.Flip(darkchess.D8) {
			t.Errorf("record plies %v", p)
		}
	})
}

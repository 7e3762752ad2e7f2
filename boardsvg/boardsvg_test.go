package boardsvg

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/botarena/botarena/darkchess"
	"github.com/botarena/botarena/geister"
	"github.com/botarena/botarena/internal/browsertest"
	"github.com/botarena/botarena/othello"
	"github.com/botarena/botarena/pdd"
	"github.com/botarena/botarena/record"
)

// TestOthello checks the picture's key elements: the board, the labels in
// the TUS orientation, the discs, the legal moves and the last move.
func TestOthello(t *testing.T) {
	p := othello.TUS.Start
	s := Othello(p, OthelloOptions{})
	browsertest.CheckSVG(t, s)
	for _, want := range []string{
		`xmlns="http://www.w3.org/2000/svg"`, `viewBox="0 0 460 460"`, `fill="` + othelloGreen + `"`,
		`<text x="55" y="15">a</text>`, `<text x="405" y="15">h</text>`, `<text x="15" y="55">1</text>`, `<text x="15" y="405">8</text>`,
		`class="disc black" data-square="d4" cx="205" cy="205"`, `class="disc black" data-square="e5"`,
		`class="disc white" data-square="e4" cx="255" cy="205"`, `class="disc white" data-square="d5"`,
		`<circle data-square="e3" cx="255" cy="155" r="6"/>`,
	} {
		if !strings.Contains(s, want) {
			t.Errorf("board lacks %s", want)
		}
	}
	if strings.Contains(s, `class="last"`) {
		t.Errorf("the start marks a last move")
	}
	if n := strings.Count(s, "<circle data-square="); n != 4 {
		t.Errorf("%d legal moves drawn, want 4", n)
	}
	e3, _ := othello.ParseMove("e3")
	q, err := p.Play(e3)
	if err != nil {
		t.Fatal(err)
	}
	after := Othello(q, OthelloOptions{Last: e3})
	if !strings.Contains(after, `class="last" data-square="e3"`) {
		t.Errorf("after e3: no last move marked")
	}
	if Othello(q, OthelloOptions{Last: e3}) != after {
		t.Errorf("the picture is not deterministic")
	}
	// The 6x6 board greys its rim.
	if n := strings.Count(Othello(othello.Board6x6.Start, OthelloOptions{}), `fill="`+othelloOffC+`"`); n != 28 {
		t.Errorf("6x6 board: %d squares greyed, want 28", n)
	}
}

// TestGeister checks the picture's key elements: the board, the grid, the
// coordinates, the exits, the ghosts as each viewer may see them, the
// captured ghosts, the last move.
func TestGeister(t *testing.T) {
	p, _ := geister.Start(geister.RedsAt(0), geister.RedsAt(69)) // first: ABCD red; second: EFGH red
	prev := p
	m, _ := geister.ParseMove("A,NORTH")
	for range 2 {
		prev = p
		var err error
		if p, err = p.Play(m); err != nil {
			t.Fatal(err)
		}
	}
	spectator := Geister(p, GeisterOptions{Last: m, Before: prev})
	first := Geister(p, GeisterOptions{Last: m, Before: prev, Hide: [2]bool{false, true}})
	second := Geister(p, GeisterOptions{Last: m, Before: prev, Hide: [2]bool{true, false}})
	for _, s := range []string{spectator, first, second} {
		browsertest.CheckSVG(t, s)
		for _, want := range []string{`class="board"`, `<line `, `class="coord"`, `1st exit`, `2nd exit`, `first took 0 red, 0 blue`, `#f2cf3a`, `#f7e48a`} {
			if !strings.Contains(s, want) {
				t.Errorf("svg lacks %q", want)
			}
		}
	}
	count := func(s, class string) int { return strings.Count(s, `class="ghost `+class+`"`) }
	if count(spectator, "first red") != 4 || count(spectator, "first blue") != 4 || count(spectator, "second red") != 4 || count(spectator, "second blue") != 4 {
		t.Errorf("the spectator does not see every colour")
	}
	if count(first, "first red") != 4 || count(first, "second unknown") != 8 || strings.Count(first, ">?<") != 8 {
		t.Errorf("the first player's view")
	}
	if count(second, "second blue") != 4 || count(second, "first unknown") != 8 {
		t.Errorf("the second player's view")
	}
	if Geister(p, GeisterOptions{Last: m, Before: prev}) != spectator {
		t.Error("the picture is not deterministic")
	}
	if count(Geister(p, GeisterOptions{Last: m, Before: prev, Hide: [2]bool{false, true}}), "second unknown") != 8 {
		t.Error("a hidden side is shown")
	}
	if strings.Contains(Geister(p, GeisterOptions{}), `class="last"`) {
		t.Error("no last move, but one is marked")
	}
}

// TestGeisterFlip: with Flip, the board is drawn rotated half a turn for
// the second player: its ghosts at the bottom and upright, the first
// player's at the top and upside down, the coordinates from 5 down to 0,
// its exits at the top. Without, the other way round.
func TestGeisterFlip(t *testing.T) {
	p, _ := geister.Start(geister.RedsAt(0), geister.RedsAt(0))
	ghost := regexp.MustCompile(`<g class="ghost (first|second) [a-z]+" transform="translate\((\d+) (\d+)\)">(<g transform="rotate\(180\)">)?`)
	coord := regexp.MustCompile(`<text class="coord"[^>]*>(\d)</text>`)
	exit := regexp.MustCompile(`<text class="exit" x="\d+" y="(\d+)"[^>]*>(1st|2nd) exit</text>`)
	for _, flip := range []bool{false, true} {
		s := Geister(p, GeisterOptions{Flip: flip})
		browsertest.CheckSVG(t, s)
		bottom := "first"
		if flip {
			bottom = "second"
		}
		gs := ghost.FindAllStringSubmatch(s, -1)
		if len(gs) != 16 {
			t.Fatalf("flip %v: %d ghosts drawn, want 16", flip, len(gs))
		}
		for _, m := range gs {
			low := atof(t, m[3]) > gsTop+gsBoard/2
			if low != (m[1] == bottom) || (m[4] == "") != (m[1] == bottom) {
				t.Errorf("flip %v: a %s ghost at y %s, upside down %v; want the %s player's at the bottom and upright, the other's at the top and upside down", flip, m[1], m[3], m[4] != "", bottom)
			}
		}
		if c := coord.FindStringSubmatch(s); c == nil || (c[1] == "5") != flip {
			t.Errorf("flip %v: the first coordinate is %v", flip, c)
		}
		for _, e := range exit.FindAllStringSubmatch(s, -1) {
			top := atof(t, e[1]) < gsTop+gsBoard/2
			if top != ((e[2] == "2nd") == flip) {
				t.Errorf("flip %v: the %s exit label at y %s", flip, e[2], e[1])
			}
		}
	}
}

// TestGeisterEscape: an escape is drawn as an arrow off the board from the
// exit the ghost left.
func TestGeisterEscape(t *testing.T) {
	start, _ := geister.Start(geister.RedsAt(0), geister.RedsAt(0))
	// Walk ghost E (blue) to the first player's exit (0,0), the second
	// player shuffling ghost A back and forth.
	q := start
	for i := 0; q.Square(geister.First, geister.E) != geister.SquareAt(0, 0); i++ {
		if i > 20 {
			t.Fatalf("ghost E does not reach (0,0): at %v", q.Square(geister.First, geister.E))
		}
		d := geister.North
		if q.Square(geister.First, geister.E).X() > 0 {
			d = geister.West
		}
		var err error
		if q, err = q.Play(geister.NewMove(geister.E, d)); err != nil {
			t.Fatalf("E step %d: %v", i, err)
		}
		back := geister.North
		if i%2 == 1 {
			back = geister.South
		}
		if q, err = q.Play(geister.NewMove(geister.A, back)); err != nil {
			t.Fatalf("A step %d: %v", i, err)
		}
	}
	esc := geister.NewMove(geister.E, geister.West)
	after, err := q.Play(esc)
	if err != nil {
		t.Fatalf("escape: %v", err)
	}
	s := Geister(after, GeisterOptions{Last: esc, Before: q})
	browsertest.CheckSVG(t, s)
	if !strings.Contains(s, `class="escape"`) || !strings.Contains(s, "escaped:") {
		t.Errorf("the escape is not drawn:\n%s", s)
	}
}

// TestDarkChess: the drawing has the board, labels, face-down and revealed
// pieces with their characters and letters, the last ply, the captured
// pieces, the clocks and the status.
func TestDarkChess(t *testing.T) {
	pos, err := darkchess.ParsePosition("PgXP/-g-G/-X-M/XNXm/N-Xc/--PK/X---/Pm-P b 01020101000001 0")
	if err != nil {
		t.Fatal(err)
	}
	mv, _ := darkchess.ParseMove("b7-c7")
	o := DarkChessOptions{Last: mv, Players: [2]string{"alice", "bob<1>"},
		Colors: [2]darkchess.Color{darkchess.Red, darkchess.Black}, Status: "black, second player (bob<1>) to move", Clocks: [2]string{"14:59.0", "0:03.2"}}
	s := DarkChess(pos, o)
	browsertest.CheckSVG(t, s)
	for _, want := range []string{`class="facedown"`, `class="last"`, "帥", "象", "士", "兵", "包", `data-piece="K"`, `data-piece="m"`,
		">a<", ">d<", ">1<", ">8<", "Captured", "14:59.0", "0:03.2", "bob&lt;1&gt;", "alice (red)"} {
		if !strings.Contains(s, want) {
			t.Errorf("the drawing has no %q", want)
		}
	}
	if n := strings.Count(s, `class="facedown"`); n != 6 {
		t.Errorf("%d face-down discs, want 6", n)
	}
	if s != DarkChess(pos, o) {
		t.Error("the drawing is not deterministic")
	}
	if strings.Contains(DarkChess(pos, DarkChessOptions{Last: darkchess.NoMove}), `class="last"`) {
		t.Error("no last ply, but one is marked")
	}
}

// pddFixture reads a PDD golden fixture (chess.txt and bridge.txt).
func pddFixture(t testing.TB, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "pdd", "testdata", "fixtures", filepath.FromSlash(name)))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestPDD: the board is drawn with the platform's coordinates, both
// colours, the islands, the bridges in their owners' colours and the last
// move.
func TestPDD(t *testing.T) {
	l, err := record.ReadPDDStepLog(strings.NewReader(pddFixture(t, "seed-stepLog.txt")), record.PDDLenient)
	if err != nil {
		t.Fatal(err)
	}
	g, err := record.ReplayPDDStepLog(l, pdd.Course)
	if err != nil {
		t.Fatal(err)
	}
	last := l.Steps[len(l.Steps)-1] // W_5_Chess_8,8_9,9
	svg := PDD(g.Position(), PDDOptions{Last: last.Move})
	browsertest.CheckSVG(t, svg)
	for _, want := range []string{
		`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 436 436"`,
		`class="lagoon"`,
		`>0</text>`, `>9</text>`,
		`class="tile black" data-square="2,0"`, `class="tile black" data-square="2,2"`,
		`class="tile white" data-square="0,2"`, `class="tile white" data-square="8,8"`,
		`class="bridge black" data-bridge="1"`,
		`class="under"`,
		`class="last" data-square="8,8"`, `class="last" data-square="9,9"`,
	} {
		if !strings.Contains(svg, want) {
			t.Errorf("the board lacks %s", want)
		}
	}
	if svg != PDD(g.Position(), PDDOptions{Last: last.Move}) {
		t.Error("the board is not deterministic")
	}
	// Change marks the two opening tiles, as the stepLog line names them.
	for i, s := range l.Steps {
		if s.Move != pdd.Change {
			continue
		}
		after, _ := g.PositionAt(i + 1)
		a, b := s.Points()
		c := PDD(after, PDDOptions{Last: pdd.Change})
		for _, sq := range []pdd.Square{a, b} {
			if !strings.Contains(c, `class="last" data-square="`+sq.String()+`"`) {
				t.Errorf("Change: %s not marked", sq)
			}
		}
	}
	// An island gets its rim.
	p, err := pdd.ParsePosition("WW......../WW......../........../........../........../........../........../........../........../.......... B course")
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(PDD(p, PDDOptions{}), `class="tile white island"`); n != 4 {
		t.Errorf("%d island tiles drawn, want 4", n)
	}
}

// TestSize: Size gives the picture a width in pixels and the height in
// proportion; without it the picture has no fixed size.
func TestSize(t *testing.T) {
	og := othello.TUS.Start
	gp, _ := geister.Start(geister.RedsAt(0), geister.RedsAt(0))
	dp := darkchess.NewGame(darkchess.NTU2021, nil).Position()
	pp := pdd.NewGame(pdd.Course).Position()
	size := regexp.MustCompile(`^<svg [^>]*viewBox="0 0 (\d+) (\d+)" width="(\d+)" height="(\d+)"`)
	for name, pics := range map[string][2]string{
		"othello":   {Othello(og, OthelloOptions{}), Othello(og, OthelloOptions{Size: 400})},
		"geister":   {Geister(gp, GeisterOptions{}), Geister(gp, GeisterOptions{Size: 400})},
		"darkchess": {DarkChess(dp, DarkChessOptions{}), DarkChess(dp, DarkChessOptions{Size: 400})},
		"pdd":       {PDD(pp, PDDOptions{}), PDD(pp, PDDOptions{Size: 400})},
	} {
		browsertest.CheckSVG(t, pics[0])
		m := size.FindStringSubmatch(pics[1])
		if m == nil || m[3] != "400" {
			t.Errorf("%s with Size 400: %.200s", name, pics[1])
			continue
		}
		w, h, ph := atoi(m[1]), atoi(m[2]), atoi(m[4])
		if d := ph*w - 400*h; d < -w || d > w {
			t.Errorf("%s: %sx%s drawn 400x%d, not in proportion", name, m[1], m[2], ph)
		}
		if strings.Replace(pics[1], ` width="400" height="`+m[4]+`"`, "", 1) != pics[0] {
			t.Errorf("%s: Size changes more than the size", name)
		}
	}
}

func atoi(s string) int {
	n := 0
	for _, c := range s {
		n = 10*n + int(c-'0')
	}
	return n
}

// TestGeisterAreas: every ghost drawn lies in the area of its square, the
// squares' areas tile the board without overlap, and the place beyond each
// exit holds the arrow of an escape from it and touches the exit's square;
// in either frame (GeisterAreas and GeisterFlippedAreas).
func TestGeisterAreas(t *testing.T) {
	t.Run("first", func(t *testing.T) { checkGeisterAreas(t, GeisterAreas(), false) })
	t.Run("flipped", func(t *testing.T) { checkGeisterAreas(t, GeisterFlippedAreas(), true) })
}

// checkGeisterAreas checks the areas of the pictures drawn with Flip set
// to flip.
func checkGeisterAreas(t *testing.T, areas []Area, flip bool) {
	if len(areas) != 40 {
		t.Fatalf("%d areas, want 36 squares and 4 exits", len(areas))
	}
	byName := map[string]Area{}
	for _, a := range areas {
		if _, dup := byName[a.Name]; dup {
			t.Errorf("two areas named %q", a.Name)
		}
		if a.X < 0 || a.Y < 0 || a.X+a.W > gsWidth || a.Y+a.H > gsHeight || a.W <= 0 || a.H <= 0 {
			t.Errorf("area %+v leaves the picture (%dx%d)", a, gsWidth, gsHeight)
		}
		byName[a.Name] = a
	}
	in := func(a Area, x, y float64) bool { return x > a.X && x < a.X+a.W && y > a.Y && y < a.Y+a.H }
	ghost := regexp.MustCompile(`<g class="ghost (first|second) [a-z]+" transform="translate\((\d+) (\d+)\)">`)
	p, _ := geister.Start(geister.RedsAt(0), geister.RedsAt(5))
	// Move ghosts over every row, so that every square gets one in some
	// position: the first player's A walks up column 1, the second's A
	// down column 4, and so on, one picture per position.
	seen := map[string]bool{}
	for range 40 {
		s := Geister(p, GeisterOptions{Flip: flip})
		for _, m := range ghost.FindAllStringSubmatch(s, -1) {
			x, y := atof(t, m[2]), atof(t, m[3])
			hit := ""
			for _, a := range areas {
				if in(a, x, y) {
					if hit != "" {
						t.Fatalf("a ghost at (%v, %v) lies in two areas, %s and %s", x, y, hit, a.Name)
					}
					hit = a.Name
				}
			}
			if hit == "" || strings.HasPrefix(hit, "out") {
				t.Fatalf("a ghost at (%v, %v) lies in no square's area (%q)", x, y, hit)
			}
			seen[hit] = true
		}
		for c := range geister.Color(2) {
			for g := geister.A; g <= geister.H; g++ {
				sq := p.Square(c, g)
				if !sq.Valid() {
					continue
				}
				a := byName[sq.String()]
				cx, cy := gsAt(sq, flip)
				x, y := float64(gsLeft+cx*gsCell+gsCell/2), float64(gsTop+cy*gsCell+gsCell/2)
				if !in(a, x, y) {
					t.Fatalf("the %s player's %s on %s is drawn at (%v, %v), outside its area %+v", c, g, sq, x, y, a)
				}
			}
		}
		moves := p.AppendLegalMoves(nil)
		next := geister.NoMove
		for _, m := range moves {
			if t2 := p.Target(m); t2.Valid() && !seen[t2.String()] {
				if _, _, cap := p.Captures(m); !cap {
					next = m
					break
				}
			}
		}
		if next == geister.NoMove {
			break
		}
		p, _ = p.Play(next)
	}
	if len(seen) < 30 {
		t.Errorf("the ghosts reached only %d squares: the test covers too little", len(seen))
	}
	// The exits: the place beyond each corner holds the escape's arrow.
	arrow := regexp.MustCompile(`<line class="escape" x1="(\d+)" y1="(-?\d+)" x2="(\d+)" y2="(-?\d+)"`)
	for _, corner := range []string{"00", "50", "05", "55"} {
		sq, _ := geister.ParseSquare(corner)
		mover := geister.First
		if sq.Y() == 5 {
			mover = geister.Second
		}
		s := geister.StartSetup(geister.RedsAt(0), geister.RedsAt(0))
		// A blue ghost (E, blue in RedsAt(0)) of the mover on the corner.
		s.Ghosts[mover][geister.E] = sq
		if mover == geister.Second {
			s.Ply = 1
		}
		before, err := geister.NewPosition(s)
		if err != nil {
			t.Fatalf("corner %s: %v", corner, err)
		}
		var esc geister.Move
		for _, m := range before.AppendLegalMoves(nil) {
			if before.IsEscape(m) {
				esc = m
			}
		}
		after, err := before.Play(esc)
		if err != nil {
			t.Fatalf("corner %s: escape %v: %v", corner, esc, err)
		}
		m := arrow.FindStringSubmatch(Geister(after, GeisterOptions{Last: esc, Before: before, Flip: flip}))
		if m == nil {
			t.Fatalf("corner %s: no escape arrow", corner)
		}
		a := byName["out"+corner]
		if x, y := atof(t, m[3]), atof(t, m[4]); !in(a, x, y) {
			t.Errorf("corner %s: the arrow ends at (%v, %v), outside %+v", corner, x, y, a)
		}
		c := byName[corner]
		if a.X != c.X || a.W != c.W || (a.Y+a.H != c.Y && c.Y+c.H != a.Y) {
			t.Errorf("the place beyond %s, %+v, does not touch its square %+v", corner, a, c)
		}
	}
}

// atof reads a number of the picture.
func atof(t *testing.T, s string) float64 {
	t.Helper()
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

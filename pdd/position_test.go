package pdd_test

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/botarena/botarena/pdd"
	"github.com/botarena/botarena/pdd/pddtest"
	"pgregory.net/rapid"
)

func TestSquaresAndMoves(t *testing.T) {
	if s := pdd.SquareAt(1, 3); s != 31 || s.String() != "1,3" || s.X() != 1 || s.Y() != 3 {
		t.Errorf("SquareAt(1, 3) = %v", s)
	}
	for _, bad := range [][2]int{{-1, 0}, {10, 0}, {0, 10}, {0, -1}} {
		if s := pdd.SquareAt(bad[0], bad[1]); s != pdd.NoSquare || s.Valid() || s.String() != "-" {
			t.Errorf("SquareAt(%v) = %v", bad, s)
		}
	}
	for s := range pdd.Square(pdd.NumSquares) {
		if got, err := pdd.ParseSquare(s.String()); err != nil || got != s {
			t.Errorf("ParseSquare(%q) = %v, %v", s, got, err)
		}
		if !s.Bit().Has(s) || s.Bit().Count() != 1 {
			t.Errorf("%s.Bit()", s)
		}
	}
	for _, in := range []string{"", "1", "1,", "a,1", "1,a", "1;1", "10,1", "1,10", "1,1 "} {
		var se *pdd.SyntaxError
		if _, err := pdd.ParseSquare(in); !errors.As(err, &se) {
			t.Errorf("ParseSquare(%q) error = %v", in, err)
		}
	}
	for _, tt := range []struct {
		in, want string
		action   pdd.Action
	}{
		{"Chess_2,0_2,2", "Chess_2,0_2,2", pdd.ChessAction},
		{"Chess_2,2_2,0", "Chess_2,0_2,2", pdd.ChessAction},
		{"chess_9,9_0,0", "Chess_0,0_9,9", pdd.ChessAction},
		{"Bridge_2,0_2,2", "Bridge_2,0_2,2", pdd.BridgeAction},
		{"BRIDGE_3,3_3,3", "Bridge_3,3_3,3", pdd.BridgeAction},
		{"Bridge_0,0_3,0", "Bridge_0,0_3,0", pdd.BridgeAction},
		{"Change", "Change", pdd.ChangeAction},
		{"Change_2,0_2,2", "Change", pdd.ChangeAction},
		{"Pass", "Pass", pdd.PassAction},
	} {
		m, err := pdd.ParseMove(tt.in)
		if err != nil || m.String() != tt.want || m.Action() != tt.action || !m.Valid() {
			t.Errorf("ParseMove(%q) = %v (%v), %v; want %s", tt.in, m, m.Action(), err, tt.want)
		}
	}
	for _, tt := range []struct {
		in     string
		offset int
	}{
		{"", 0}, {"Move_1,1_2,2", 0}, {"Chess", 5}, {"Chess_", 6}, {"Chess_1,1", 9}, {"Chess_1,1_", 10},
		{"Chess_1,1-2,2", 9}, {"Chess_1,1_2,2_", 13}, {"Chess_1,1_1,1", 10}, {"Pass_1,1_2,2", 4},
		{"Bridge_a,1_2,2", 7}, {"Bridge_1,x_2,2", 9}, {"Change_1,1", 10},
	} {
		var se *pdd.SyntaxError
		m, err := pdd.ParseMove(tt.in)
		if !errors.As(err, &se) || se.Offset != tt.offset || m != pdd.NoMove {
			t.Errorf("ParseMove(%q) = %v, %v; want offset %d", tt.in, m, err, tt.offset)
		}
	}
	if pdd.NoMove.Valid() || pdd.NoMove.String() != "none" || pdd.NoMove.Action() != pdd.NoAction {
		t.Error("NoMove")
	}
	if pdd.Chess(3, 3) != pdd.NoMove || pdd.Chess(3, 100) != pdd.NoMove || pdd.Bridge(pdd.NoSquare, 3) != pdd.NoMove {
		t.Error("constructors accept bad squares")
	}
	if a, b := pdd.Change.Squares(); a != pdd.NoSquare || b != pdd.NoSquare {
		t.Error("Change has squares")
	}
	if _, err := pdd.NoMove.MarshalText(); err == nil {
		t.Error("NoMove.MarshalText succeeded")
	}
	var m pdd.Move
	if err := m.UnmarshalText([]byte("Bridge_2,2_2,0")); err != nil || m != pdd.Bridge(pdd.SquareAt(2, 0), pdd.SquareAt(2, 2)) {
		t.Errorf("UnmarshalText: %v %v", m, err)
	}
	if text, err := m.MarshalText(); err != nil || string(text) != "Bridge_2,0_2,2" {
		t.Errorf("MarshalText: %s %v", text, err)
	}
	for c, want := range map[pdd.Color]string{pdd.White: "white", pdd.Black: "black", pdd.NoColor: "none", 7: "none"} {
		if c.String() != want {
			t.Errorf("Color(%d) = %q", c, c)
		}
	}
	b := pdd.SquareAt(0, 0).Bit().With(pdd.SquareAt(9, 9)).With(pdd.SquareAt(3, 1))
	if got := b.String(); got != "x.........\n...x......\n"+strings.Repeat("..........\n", 7)+".........x\n" || b.Count() != 3 {
		t.Errorf("Bitboard.String:\n%s", got)
	}
	if pdd.White.Opponent() != pdd.Black || pdd.Black.Opponent() != pdd.White || pdd.NoColor.Opponent() != pdd.NoColor {
		t.Error("Opponent")
	}
}

func TestRules(t *testing.T) {
	if pdd.Course != 0 || pdd.Course.TileSupply() != 0 || pdd.Course.BridgeSupply() != 0 || !pdd.Course.SharedSquareConflicts() {
		t.Error("Course")
	}
	if pdd.Official.TileSupply() != 40 || pdd.Official.BridgeSupply() != 15 || pdd.Official.SharedSquareConflicts() {
		t.Error("Official")
	}
	for _, in := range []string{"course", "COURSE", "official", "Official"} {
		r, err := pdd.ParseRules(in)
		if err != nil || r.String() != strings.ToLower(in) {
			t.Errorf("ParseRules(%q) = %v, %v", in, r, err)
		}
	}
	var r pdd.Rules
	if err := r.UnmarshalText([]byte("bogus")); err == nil {
		t.Error("UnmarshalText(bogus)")
	}
	if err := r.UnmarshalText([]byte("official")); err != nil || r != pdd.Official {
		t.Error("UnmarshalText(official)")
	}
	if _, err := pdd.Rules(9).MarshalText(); err == nil || pdd.Rules(9).Valid() {
		t.Error("Rules(9)")
	}
	if pdd.Course.Start() != (pdd.Position{}) {
		t.Error("the zero Position is not the Course start")
	}
}

func TestPositionText(t *testing.T) {
	start := pdd.Course.Start()
	want := strings.TrimSuffix(strings.Repeat("........../", 10), "/") + " W course"
	if start.String() != want {
		t.Errorf("start = %q", start)
	}
	p := fromFiles(t, pdd.Official, pdd.White, m1Chess, m1Bridge)
	for _, in := range []string{
		p.String(),
		strings.ToLower(p.String()),
		strings.ReplaceAll(strings.ReplaceAll(strings.ReplaceAll(m1Chess, ",", ""), "\n", "\r\n"), "0", ".") + "\n\tW   OFFICIAL " + strings.SplitN(p.String(), "official ", 2)[1],
	} {
		q, err := pdd.ParsePosition(in)
		if err != nil || q != p {
			t.Errorf("ParsePosition(%q) = %v, %v", in, q, err)
		}
	}
	if !strings.Contains(p.String(), " W official bridges=1,6-3,7;8,2-7,4;") {
		t.Errorf("M1 = %q", p)
	}
	changed := start.PlayUnchecked(mv(t, "Chess_2,0_2,2"))
	if got := changed.String(); !strings.HasSuffix(got, " B course change") {
		t.Errorf("after the opening: %q", got)
	}
	if got := changed.PlayUnchecked(pdd.Change).String(); !strings.HasSuffix(got, " W course first=B") {
		t.Errorf("after Change: %q", got)
	}
	board := strings.Repeat(".", 100)
	for _, tt := range []struct {
		in     string
		offset int
		msg    string
	}{
		{"", 0, "100 cells"},
		{board[:50] + "x" + board[51:] + " W course", 50, "a cell is"},
		{board + ". W course", 100, "want a space"},
		{board + " W", 102, "want the side"},
		{board + " X course", 101, "side to move"},
		{board + " W checkers", 103, "rules must be"},
		{board + " W course change change", 117, "twice"},
		{board + " W course bogus", 110, "unknown field"},
		{board + " W course first=X", 116, "first must be"},
		{board + " W course bridges=1,1-1,3;2,2", 129, "a bridge is"},
		{board + " W course bridges=1,1_1,3", 121, "a bridge is"},
	} {
		_, err := pdd.ParsePosition(tt.in)
		var se *pdd.SyntaxError
		if !errors.As(err, &se) || se.Offset != tt.offset || !strings.Contains(se.Msg, tt.msg) {
			t.Errorf("ParsePosition(%q) = %v; want offset %d and %q", tt.in, err, tt.offset, tt.msg)
		}
	}
	// A well-formed string of an invalid position fails in NewPosition.
	_, err := pdd.ParsePosition(strings.Repeat("W", 5) + board[5:] + " W course")
	if !errors.Is(err, pdd.ErrGroupTooLarge) || !errors.Is(err, pdd.ErrInvalidSetup) {
		t.Errorf("five in a row: %v", err)
	}
}

func TestDiagram(t *testing.T) {
	p := build(t, pdd.Course, pdd.Black, "2,0 2,2", "0,2 1,3", "2,0-2,2")
	want := `  0 1 2 3 4 5 6 7 8 9
0 . . W . . . . . . .
1 . . - . . . . . . .
2 B . W . . . . . . .
3 . B . . . . . . . .
4 . . . . . . . . . .
5 . . . . . . . . . .
6 . . . . . . . . . .
7 . . . . . . . . . .
8 . . . . . . . . . .
9 . . . . . . . . . .
black to move, course
bridge 1 2,0-2,2 white
`
	if got := p.Diagram(); got != want {
		t.Errorf("Diagram:\n%s\nwant\n%s", got, want)
	}
}

// TestSetupErrors: NewPosition reports every problem, each a *SetupError
// with the rule's sentinel where there is one.
func TestSetupErrors(t *testing.T) {
	s := pdd.Setup{Rules: 5, Turn: 9, FirstPlayer: 4, ChangeAvailable: true, FinalTurn: true, Ended: true}
	for _, w := range []string{"0,0", "1,0", "2,0", "3,0", "4,0", "9,9", "8,9"} {
		s.Cells[sq(t, w)] = pdd.White
	}
	s.Cells[sq(t, "5,5")] = 3
	s.Bridges = [][2]pdd.Square{{sq(t, "9,9"), sq(t, "9,7")}, {sq(t, "8,9"), sq(t, "9,9")}, {pdd.NoSquare, 0}}
	_, err := pdd.NewPosition(s)
	if err == nil {
		t.Fatal("no error")
	}
	for _, part := range []string{"setup Rules", "setup Turn", "setup FirstPlayer", "setup Cells: 3 on 5,5",
		"group 0,0 1,0 2,0 3,0 4,0 has 5 tiles", "Bridges[0]: bridge 9,9-9,7 is not between", "Bridges[1]: 8,9-9,9 is not at a bridge offset",
		"Bridges[2]: endpoint", "setup ChangeAvailable", "setup FinalTurn/Ended"} {
		if !strings.Contains(err.Error(), part) {
			t.Errorf("error does not mention %q:\n%v", part, err)
		}
	}
	for _, sentinel := range []error{pdd.ErrInvalidSetup, pdd.ErrGroupTooLarge, pdd.ErrBridgeNotOwn, pdd.ErrBridgeShape, pdd.ErrBridgeEnds} {
		if !errors.Is(err, sentinel) {
			t.Errorf("error does not match %v", sentinel)
		}
	}
	var se *pdd.SetupError
	if !errors.As(err, &se) {
		t.Error("no *SetupError")
	}
	for _, tt := range []struct {
		name     string
		setup    pdd.Setup
		sentinel error
	}{
		{"island touches", setupOf(t, pdd.Course, pdd.White, "1,1 2,1 1,2 2,2 3,3", "", ""), pdd.ErrIslandTouches},
		{"tile under", setupOf(t, pdd.Course, pdd.White, "2,0 2,1 2,2", "", "2,0-2,2"), pdd.ErrBridgeBlocked},
		{"two bridges on a tile", setupOf(t, pdd.Course, pdd.White, "2,0 2,2 4,0", "", "2,0-2,2 2,0-4,0"), pdd.ErrBridgeEnds},
		{"crossing", setupOf(t, pdd.Official, pdd.White, "4,4 6,6", "3,6 5,4", "4,4-6,6 3,6-5,4"), pdd.ErrBridgeCrossing},
		{"mixed colours", setupOf(t, pdd.Course, pdd.White, "2,0", "2,2", "2,0-2,2"), pdd.ErrBridgeNotOwn},
	} {
		if _, err := pdd.NewPosition(tt.setup); !errors.Is(err, tt.sentinel) {
			t.Errorf("%s: %v, want %v", tt.name, err, tt.sentinel)
		}
	}
	// Official supplies.
	many := pdd.Setup{Rules: pdd.Official, Turn: pdd.White}
	for i := range 45 {
		many.Cells[(i*2)%100+(i*2/10)%2] = pdd.White // a checkerboard of single tiles
	}
	if _, err := pdd.NewPosition(many); !errors.Is(err, pdd.ErrSupply) {
		t.Errorf("45 white tiles under Official: %v", err)
	}
	many.Rules = pdd.Course
	if _, err := pdd.NewPosition(many); err != nil {
		t.Errorf("45 white tiles under Course: %v", err)
	}
	// Change needs White's opening alone.
	if _, err := pdd.NewPosition(setupOf(t, pdd.Course, pdd.Black, "2,0 2,2", "", "")); err != nil {
		t.Error(err)
	}
	ok := setupOf(t, pdd.Course, pdd.Black, "2,0 2,2", "", "")
	ok.ChangeAvailable = true
	if p, err := pdd.NewPosition(ok); err != nil || !p.ChangeAvailable() {
		t.Errorf("Change setup: %v", err)
	}
}

// TestChange checks the opening and the pie rule: Change only on Black's
// first turn, White's tiles become Black's with their bridges, White moves.
func TestChange(t *testing.T) {
	for _, rules := range []pdd.Rules{pdd.Course, pdd.Official} {
		g := pdd.NewGame(rules)
		if err := g.Play(pdd.Change); !errors.Is(err, pdd.ErrUnknownAction) {
			t.Errorf("%s: Change on move 1: %v", rules, err)
		}
		// The course's example stepLog, then F2.
		for _, text := range []string{"Chess_2,0_2,2", "Change", "Chess_0,2_1,3", "Bridge_2,0_2,2", "Chess_8,8_9,9"} {
			if err := g.Play(mv(t, text)); err != nil {
				t.Fatalf("%s: %s: %v", rules, text, err)
			}
		}
		if want := fromFiles(t, rules, pdd.Black, f2Chess, f2Bridge); g.Position().Setup().Cells != want.Setup().Cells || g.Position().BridgeAt(1) != want.BridgeAt(1) {
			t.Errorf("%s: the course's example stepLog gives\n%s", rules, g.Position().Diagram())
		}
		if g.Position().FirstPlayer() != pdd.Black || g.Turn() != pdd.Black || g.Ply() != 5 {
			t.Errorf("%s: first %s, turn %s", rules, g.Position().FirstPlayer(), g.Turn())
		}
		if err := g.Play(pdd.Change); !errors.Is(err, pdd.ErrUnknownAction) || g.Ply() != 5 {
			t.Errorf("%s: late Change: %v", rules, err)
		}
	}
	// Black may also decline: any other move clears the flag.
	p := pdd.Course.Start().PlayUnchecked(mv(t, "Chess_2,0_2,2"))
	if q := p.PlayUnchecked(mv(t, "Chess_5,5_7,7")); q.ChangeAvailable() || q.IsLegal(pdd.Change) {
		t.Error("Change still available after Black's Chess")
	}
}

// TestCourseSkip finds a forced Pass in seeded random Course games: the
// skipped side's list is Pass alone, Pass is legal, any other move is
// refused, and the game goes on to its end with the other side alone.
func TestCourseSkip(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 5))
	found := 0
	for range 20 {
		g := pdd.NewGame(pdd.Course)
		for !g.IsOver() {
			p := g.Position()
			moves := p.AppendLegalMoves(nil)
			if p.MustPass() {
				found++
				if len(moves) != 1 || moves[0] != pdd.Pass {
					t.Fatalf("%s: MustPass with %v", p, moves)
				}
				free := p.Free()
				if free.Count() >= 2 {
					a := firstOf(free)
					b := firstOf(free.Without(a.Bit()))
					if err := g.Play(pdd.Chess(a, b)); err == nil || errors.Is(err, pdd.ErrGameOver) {
						t.Fatalf("%s: a skipped side played %s: %v", p, pdd.Chess(a, b), err)
					}
				}
				if err := g.Play(pdd.Bridge(0, 0)); errors.Is(err, pdd.ErrGameOver) {
					t.Fatal(err)
				}
			} else if err := g.Play(pdd.Pass); !errors.Is(err, pdd.ErrUnknownAction) && !errors.Is(err, pdd.ErrGameOver) {
				t.Fatalf("%s: voluntary pass: %v", p, err)
			}
			if err := g.Play(moves[r.IntN(len(moves))]); err != nil {
				t.Fatal(err)
			}
		}
		res, _ := g.Result()
		p := g.Position()
		if res != p.Outcome() || p.NumLegalMoves() != 0 || len(p.AppendLegalMoves(nil)) != 0 {
			t.Fatalf("result %v for %s", res, p)
		}
		if err := g.Play(pdd.Pass); !errors.Is(err, pdd.ErrGameOver) {
			t.Errorf("move after the end: %v", err)
		}
	}
	if found == 0 {
		t.Error("no skip in 20 games")
	}
}

func firstOf(b pdd.Bitboard) pdd.Square {
	for s := range b.Squares() {
		return s
	}
	return pdd.NoSquare
}

// thirtyNine returns a Setup with 39 tiles of c in sandbanks (so c has no
// Chess move left under Official), bridgeable in columns.
func thirtyNine(c pdd.Color) pdd.Setup {
	s := pdd.Setup{Rules: pdd.Official}
	n := 0
	for y := 0; y < 10; y += 2 {
		for _, x := range []int{0, 1, 2, 4, 5, 6, 8, 9} {
			if n < 39 && !(x == 9 && y == 8) {
				s.Cells[pdd.SquareAt(x, y)] = c
				n++
			}
		}
	}
	return s
}

// TestOfficialEnd checks the Official end rule: a pass only without a legal
// Chess move; the first player's pass gives the second one last turn; the
// second player's pass ends the game at once.
func TestOfficialEnd(t *testing.T) {
	// F = White passes; Black plays one last turn; the game is over.
	s := thirtyNine(pdd.White)
	s.Turn = pdd.White
	p, err := pdd.NewPosition(s)
	if err != nil {
		t.Fatal(err)
	}
	if p.TilesLeft(pdd.White) != 1 || p.TilesLeft(pdd.Black) != 40 || p.BridgesLeft() != 15 {
		t.Fatalf("supplies %d %d %d", p.TilesLeft(pdd.White), p.TilesLeft(pdd.Black), p.BridgesLeft())
	}
	moves := p.AppendLegalMoves(nil)
	if k := countKinds(p); k[pdd.ChessAction] != 0 || k[pdd.BridgeAction] == 0 || moves[len(moves)-1] != pdd.Pass {
		t.Fatalf("White's moves %v", k)
	}
	if _, err := p.Play(mv(t, "Chess_3,1_7,1")); !errors.Is(err, pdd.ErrSupply) {
		t.Errorf("Chess with 1 tile left: %v", err)
	}
	g := pdd.NewGameFrom(p)
	if err := g.Play(pdd.Pass); err != nil {
		t.Fatal(err)
	}
	q := g.Position()
	if !q.FinalTurn() || q.Turn() != pdd.Black || g.IsOver() {
		t.Fatalf("after F's pass: final %v, %s to move", q.FinalTurn(), q.Turn())
	}
	if err := g.Play(pdd.Pass); !errors.Is(err, pdd.ErrUnknownAction) {
		t.Errorf("S passes with Chess moves: %v", err)
	}
	if err := g.Play(mv(t, "Chess_3,1_7,1")); err != nil {
		t.Fatal(err)
	}
	if !g.IsOver() || !g.Position().IsOver() || g.Position().NumLegalMoves() != 0 {
		t.Error("the game goes on after S's last turn")
	}
	res, _ := g.Result()
	if res.Reason != pdd.Draw || !res.Draw {
		t.Errorf("result %v", res)
	}
	if err := g.Play(pdd.Pass); !errors.Is(err, pdd.ErrGameOver) {
		t.Errorf("after the end: %v", err)
	}

	// S = Black passes: the game is over at once.
	s = thirtyNine(pdd.Black)
	s.Turn = pdd.Black
	s.Cells[pdd.SquareAt(3, 9)] = pdd.White
	p, err = pdd.NewPosition(s)
	if err != nil {
		t.Fatal(err)
	}
	next, err := p.Play(pdd.Pass)
	if err != nil || !next.IsOver() || next.FinalTurn() {
		t.Errorf("S's pass: %v, over %v", err, next.IsOver())
	}
	if r := pdd.NewGameFrom(next); !r.IsOver() {
		t.Error("a game from an ended position is not over")
	} else if res, _ := r.Result(); res.String() != "draw 0/0/0 to 0/0/0 (draw)" {
		t.Errorf("result %v", res)
	}
	// The text form keeps the end state.
	for _, q := range []pdd.Position{g.Position(), next, q} {
		if r, err := pdd.ParsePosition(q.String()); err != nil || r != q {
			t.Errorf("ParsePosition(%q) = %v", q, err)
		}
	}
}

// TestGame checks the referee: refused moves leave it unchanged, history,
// Forfeit.
func TestGame(t *testing.T) {
	g := pdd.NewGame(pdd.Course)
	if g.IsOver() || g.Ply() != 0 || g.Turn() != pdd.White || g.Rules() != pdd.Course {
		t.Fatal("new game")
	}
	if err := g.Play(pdd.Pass); !errors.Is(err, pdd.ErrUnknownAction) || g.Ply() != 0 {
		t.Fatalf("pass at the start: %v", err)
	}
	if err := g.Play(mv(t, "Chess_2,0_2,2")); err != nil {
		t.Fatal(err)
	}
	if err := g.Play(mv(t, "Chess_2,0_5,5")); !errors.Is(err, pdd.ErrOccupied) || g.Ply() != 1 {
		t.Fatalf("occupied: %v", err)
	}
	if p, ok := g.PositionAt(0); !ok || p != pdd.Course.Start() {
		t.Error("PositionAt(0)")
	}
	if _, ok := g.PositionAt(2); ok {
		t.Error("PositionAt(2) exists")
	}
	moves := g.Moves()
	moves[0] = pdd.Pass
	if g.Moves()[0] != mv(t, "Chess_2,0_2,2") {
		t.Error("Moves is not a copy")
	}
	if err := g.Forfeit(pdd.NoColor); err == nil {
		t.Error("forfeit by no side accepted")
	}
	if err := g.Forfeit(pdd.Black); err != nil {
		t.Fatal(err)
	}
	r, over := g.Result()
	if !over || r.Reason != pdd.Violation || r.Winner != pdd.White || r.String() != "white wins 0/0/0 to 0/0/0 (violation)" {
		t.Errorf("result %v", r)
	}
	if err := g.Play(mv(t, "Chess_5,5_7,7")); !errors.Is(err, pdd.ErrGameOver) {
		t.Errorf("move after forfeit: %v", err)
	}
	if err := g.Forfeit(pdd.White); !errors.Is(err, pdd.ErrGameOver) {
		t.Errorf("second forfeit: %v", err)
	}
	if (pdd.Result{}).String() != "unfinished" || pdd.Reason(99).String() != "invalid reason" {
		t.Error("unfinished result")
	}
}

// TestGameResignAgree checks Resign and AgreeDraw: the result whatever the
// scores, the scores kept, and no second ending.
func TestGameResignAgree(t *testing.T) {
	g := pdd.NewGame(pdd.Course)
	if err := g.Play(mv(t, "Chess_2,0_2,1")); err != nil {
		t.Fatal(err)
	}
	if err := g.Resign(pdd.NoColor); err == nil || g.IsOver() {
		t.Error("resignation by no side accepted")
	}
	if err := g.Resign(pdd.White); err != nil {
		t.Fatal(err)
	}
	r, over := g.Result()
	if !over || r.Reason != pdd.Resign || r.Draw || r.Winner != pdd.Black || r.String() != "black wins 0/0/0 to 0/0/0 (resignation)" {
		t.Errorf("result after resignation %v", r)
	}
	if err := g.AgreeDraw(); !errors.Is(err, pdd.ErrGameOver) {
		t.Errorf("draw after resignation: %v", err)
	}
	if err := g.Resign(pdd.Black); !errors.Is(err, pdd.ErrGameOver) {
		t.Errorf("second resignation: %v", err)
	}

	g = pdd.NewGame(pdd.Course)
	if err := g.AgreeDraw(); err != nil {
		t.Fatal(err)
	}
	r, over = g.Result()
	if !over || r.Reason != pdd.AgreedDraw || !r.Draw || r.Winner != pdd.NoColor || r.String() != "draw 0/0/0 to 0/0/0 (agreement)" {
		t.Errorf("result after an agreed draw %v", r)
	}
	if err := g.Play(mv(t, "Chess_5,5_7,7")); !errors.Is(err, pdd.ErrGameOver) {
		t.Errorf("move after the draw: %v", err)
	}
}

// TestGamesEnd plays generated games to the end: the result is the outcome
// of the final position, and the game refuses further moves.
func TestGamesEnd(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		rules := rapid.SampledFrom([]pdd.Rules{pdd.Course, pdd.Official}).Draw(t, "rules")
		g := pddtest.CompactGame(rules).Draw(t, "g")
		var buf [pdd.MaxMoves]pdd.Move
		for !g.IsOver() {
			moves := g.Position().AppendLegalMoves(buf[:0])
			if err := g.Play(moves[len(moves)/2]); err != nil {
				t.Fatal(err)
			}
		}
		r, _ := g.Result()
		p := g.Position()
		if !p.IsOver() || r != p.Outcome() {
			t.Fatalf("result %v for %s", r, p)
		}
		w, b := r.White.Compare(r.Black), r.Black.Compare(r.White)
		if w != -b || r.Draw != (w == 0) || (!r.Draw && (r.Winner == pdd.White) != (w > 0)) {
			t.Fatalf("winner wrong in %v", r)
		}
	})
}

// TestRoundTrips: text, Setup and Marshal round trips of generated
// positions, and of every legal move's text.
func TestRoundTrips(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := pddtest.Position().Draw(t, "p")
		if q, err := pdd.ParsePosition(p.String()); err != nil || q != p {
			t.Fatalf("ParsePosition(%q) = %v", p, err)
		}
		if q, err := pdd.NewPosition(p.Setup()); err != nil || q != p {
			t.Fatalf("NewPosition(Setup(%s)) = %v", p, err)
		}
		text, _ := p.MarshalText()
		var u pdd.Position
		if err := u.UnmarshalText(text); err != nil || u != p {
			t.Fatalf("UnmarshalText(%q) = %v", text, err)
		}
		for _, m := range p.AppendLegalMoves(nil) {
			if q, err := pdd.ParseMove(m.String()); err != nil || q != m {
				t.Fatalf("ParseMove(%q) = %v, %v", m, q, err)
			}
		}
	})
}

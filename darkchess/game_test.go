package darkchess_test

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/botarena/botarena/darkchess"
	"github.com/botarena/botarena/darkchess/darkchesstest"
	"pgregory.net/rapid"
)

// play plays the space-separated plies on g, failing on the first refusal.
func play(t testing.TB, g *darkchess.Game, plies string) {
	t.Helper()
	for _, text := range strings.Fields(plies) {
		ply, err := darkchess.ParsePly(text)
		if err != nil {
			t.Fatal(err)
		}
		if err := g.PlayPly(ply); err != nil {
			t.Fatalf("ply %d %s: %v", g.Ply()+1, text, err)
		}
	}
}

func repeat(s string, n int) string { return strings.TrimSpace(strings.Repeat(s+" ", n)) }

// TestRepetition plays the examples of the platform's manual under
// both timings: the draw comes right after the 3k-th quiet ply of the window
// (NTU2021, ICGA) or right after the (3k+1)-th (Classic).
func TestRepetition(t *testing.T) {
	// (b) 走閒步: black's king a1, red's cannon d7; 4-ply cycle.
	idle := "----/---C/----/----/----/----/----/k--- b 00000000000000 0"
	// (a) 追棋: red's guard b2 chases black's minister a1.
	chase := "----/----/----/----/----/----/-G--/m--- r 00000000000000 0"
	// The same chase, opened by a capture (G takes p on b1).
	capture := "----/----/----/----/----/----/-G--/mp-- r 00000000000000 0"
	cycle4 := "a1-a2 d7-d8 a2-a1 d8-d7"
	chase4 := "b2-b1 a1-a2 b1-b2 a2-a1"
	chase8 := "b2-b1 a1-a2 b1-b2 a2-a3 b2-b3 a3-a2 b3-b2 a2-a1"
	for _, tt := range []struct {
		name   string
		rules  darkchess.Rules
		start  string
		plies  string
		end    int // the ply after which the draw is declared
		cycle  int
		quiet0 int // the counter of the start position
	}{
		{"manual (b) Classic: on the 13th ply", darkchess.Classic, idle, repeat(cycle4, 4), 13, 4, 0},
		{"manual (b) NTU2021: on the 12th ply", darkchess.NTU2021, idle, repeat(cycle4, 4), 12, 4, 0},
		{"manual (b) ICGA", darkchess.ICGA, idle, repeat(cycle4, 4), 12, 4, 0},
		{"manual (a) chase, 4 plies", darkchess.NTU2021, chase, repeat(chase4, 4), 12, 4, 0},
		{"manual (a) chase, 8 plies, NTU2021", darkchess.NTU2021, chase, repeat(chase8, 4), 24, 8, 0},
		{"manual (a) chase, 8 plies, Classic", darkchess.Classic, chase, repeat(chase8, 4), 25, 8, 0},
		// A capture in the window breaks it: the first b2-b1 takes b1, so
		// the window starts one ply later.
		{"capture breaks the window, NTU2021", darkchess.NTU2021, capture, repeat(chase4, 4), 13, 4, 0},
		{"capture breaks the window, Classic", darkchess.Classic, capture, repeat(chase4, 4), 14, 4, 0},
		// When the counter reaches N on the ply that completes the cycles,
		// the repetition rule comes first.
		{"repetition before the counter", darkchess.NTU2021, strings.TrimSuffix(idle, " 0") + " 48", repeat(cycle4, 4), 12, 4, 48},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p := mustParse(t, tt.start)
			if p.Quiet() != tt.quiet0 {
				t.Fatalf("start counter %d", p.Quiet())
			}
			g := darkchess.NewGameFrom(tt.rules, p, nil)
			plies := strings.Fields(tt.plies)
			play(t, g, strings.Join(plies[:tt.end-1], " "))
			if g.IsOver() {
				t.Fatalf("over after %d plies: %v", g.Ply(), must(g.Result()))
			}
			play(t, g, plies[tt.end-1])
			r, over := g.Result()
			want := darkchess.Result{Reason: darkchess.PositionRepetitionDraw, Draw: true, Repetitions: 3, Cycle: tt.cycle}
			if !over || r != want {
				t.Fatalf("after %d plies: %v, want %v", g.Ply(), r, want)
			}
			if !strings.Contains(r.String(), ",3,") {
				t.Errorf("result text %q", r)
			}
			if err := g.PlayPly(darkchess.Ply{Move: must(darkchess.ParseMove(plies[tt.end]))}); !errors.Is(err, darkchess.ErrGameOver) {
				t.Errorf("ply after the draw: %v", err)
			}
		})
	}
}

func must[T any](v T, _ any) T { return v }

// TestNoProgressDraw: the counter draw comes right after the ply that makes N
// quiet plies, and not with the rules off.
func TestNoProgressDraw(t *testing.T) {
	// A cannon and a king wander without repeating: a 28-ply tour.
	start := mustParse(t, "----/----/----/----/----/----/---C/k--- b 00000000000000 0")
	tour := "a1-a2 d2-d3 a2-a3 d3-d4 a3-a4 d4-d5 a4-a5 d5-d6 a5-a6 d6-d7 a6-a7 d7-d8 a7-a8 d8-c8 a8-b8 c8-c7 b8-b7 c7-c6 b7-b6 c6-c5 b6-b5 c5-c4 b5-b4 c4-c3 b4-b3 c3-c2 b3-b2 c2-c1"
	for _, tt := range []struct {
		rules darkchess.Rules
		n     int
	}{{darkchess.Rules{NoProgressPlies: 20}, 20}, {darkchess.Rules{NoProgressPlies: 27, RepetitionCycles: 3}, 27}} {
		g := darkchess.NewGameFrom(tt.rules, start, nil)
		plies := strings.Fields(tour)
		play(t, g, strings.Join(plies[:tt.n-1], " "))
		if g.IsOver() {
			t.Fatalf("N=%d: over after %d plies", tt.n, g.Ply())
		}
		play(t, g, plies[tt.n-1])
		if r, over := g.Result(); !over || r != (darkchess.Result{Reason: darkchess.NoEatFlipDraw, Draw: true}) || r.String() != "draw (NoEatFlipDraw)" {
			t.Errorf("N=%d: %v after %d plies", tt.n, r, g.Ply())
		}
	}
	// With both rules off, the game goes on.
	g := darkchess.NewGameFrom(darkchess.Rules{}, start, nil)
	play(t, g, tour+" b2-b1")
	if g.IsOver() || g.Position().Quiet() != 29 {
		t.Errorf("rules off: over %v, counter %d", g.IsOver(), g.Position().Quiet())
	}
	// A start whose counter has reached N is already drawn.
	if r, _ := darkchess.NewGameFrom(darkchess.NTU2021, mustParse(t, "----/----/----/----/----/----/---C/k--- b 00000000000000 60"), nil).Result(); r.Reason != darkchess.NoEatFlipDraw {
		t.Errorf("start at the limit: %v", r)
	}
}

// TestLossRules: the opponent with no pieces (even with a flip left for it)
// or no legal ply loses, right after the ply.
func TestLossRules(t *testing.T) {
	for _, tt := range []struct {
		name, start, plies string
		want               darkchess.Result
	}{
		{"no pieces, a flip left", "----/----/----/----/----/-p--/-R--/---X r 00000010000000 0", "b2-b3",
			darkchess.Result{Reason: darkchess.NoPieces, Winner: darkchess.Red}},
		{"no pieces by a cannon", "-k--/----/----/----/-X--/----/----/-C-- r 00000100000000 0", "b1-b8",
			darkchess.Result{Reason: darkchess.NoPieces, Winner: darkchess.Red}},
		{"blocked", "---r/----/----/----/----/----/g---/Pg-- b 00000000000000 0", "d8-d7",
			darkchess.Result{Reason: darkchess.NoLegalPly, Winner: darkchess.Black}},
	} {
		g := darkchess.NewGameFrom(darkchess.DefaultRules, mustParse(t, tt.start), nil)
		play(t, g, tt.plies)
		if r, over := g.Result(); !over || r != tt.want {
			t.Errorf("%s: %v, want %v", tt.name, r, tt.want)
		}
	}
	if got := (darkchess.Result{Reason: darkchess.NoPieces, Winner: darkchess.Red}).String(); got != "red wins (NoPieces)" {
		t.Errorf("result text %q", got)
	}
}

func TestGame(t *testing.T) {
	g := darkchess.NewGame(darkchess.DefaultRules, rand.New(rand.NewPCG(3, 4)))
	start, _ := g.PositionAt(0)
	if g.IsOver() || g.Ply() != 0 || !start.Dealt() || g.Turn() != darkchess.NoColor || g.FirstColor() != darkchess.NoColor {
		t.Fatal("new game")
	}
	if g.Rules() != darkchess.NTU2021 {
		t.Error("rules")
	}
	// A refused ply leaves the game as it was.
	before := g.Position()
	for _, m := range []darkchess.Move{darkchess.NewMove(darkchess.A1, darkchess.A2), darkchess.NoMove} {
		if err := g.Play(m); !errors.Is(err, darkchess.ErrIllegalMove) || g.Ply() != 0 || g.Position() != before {
			t.Fatalf("illegal %s: %v", m, err)
		}
	}
	wrong := darkchess.Ply{Move: darkchess.Flip(darkchess.B8), Piece: darkchess.RedKing}
	if start.DealAt(darkchess.B8) == darkchess.RedKing {
		wrong.Piece = darkchess.BlackKing
	}
	if err := g.PlayPly(wrong); !errors.Is(err, darkchess.ErrIllegalMove) || g.Ply() != 0 {
		t.Fatalf("flip against the deal: %v", err)
	}
	if err := g.Play(darkchess.Flip(darkchess.B8)); err != nil {
		t.Fatal(err)
	}
	first := start.DealAt(darkchess.B8)
	if g.FirstColor() != first.Color() || g.Turn() != first.Color().Opponent() {
		t.Errorf("first flip %s: first colour %s, turn %s", first, g.FirstColor(), g.Turn())
	}
	plies := g.Plies()
	if len(plies) != 1 || plies[0] != (darkchess.Ply{Move: darkchess.Flip(darkchess.B8), Piece: first}) {
		t.Errorf("plies %v", plies)
	}
	plies[0].Piece = darkchess.NoPiece
	if g.Plies()[0].Piece != first {
		t.Error("Plies is not a copy")
	}
	v := g.View(darkchess.Black)
	if v.Viewer() != darkchess.Black || len(v.History) != 1 || v.Rules != darkchess.NTU2021 || v.Position().Dealt() || v.At(darkchess.B8) != first {
		t.Errorf("view %s", v)
	}
	if _, ok := g.PositionAt(2); ok {
		t.Error("PositionAt(2) exists")
	}
	// Forfeits: only the listed reasons, by the side named.
	if err := g.Forfeit(darkchess.Red, darkchess.NoPieces); err == nil {
		t.Error("forfeit by NoPieces accepted")
	}
	if err := g.Forfeit(darkchess.NoColor, darkchess.TimeOut); err == nil {
		t.Error("forfeit by NoColor after the first flip accepted")
	}
	loser := g.Turn()
	if err := g.Forfeit(loser, darkchess.TimeOut); err != nil {
		t.Fatal(err)
	}
	r, over := g.Result()
	if !over || r != (darkchess.Result{Reason: darkchess.TimeOut, Winner: loser.Opponent()}) || r.String() != loser.Opponent().String()+" wins (TimeOut)" {
		t.Errorf("result %v", r)
	}
	if err := g.Play(darkchess.Flip(darkchess.A1)); !errors.Is(err, darkchess.ErrGameOver) {
		t.Errorf("ply after the forfeit: %v", err)
	}
	if err := g.Forfeit(loser, darkchess.Resign); !errors.Is(err, darkchess.ErrGameOver) {
		t.Errorf("second forfeit: %v", err)
	}
	// Before the first flip only the first player, NoColor, can forfeit.
	g2 := darkchess.NewGame(darkchess.Classic, nil)
	if err := g2.Forfeit(darkchess.Red, darkchess.BadMove); err == nil {
		t.Error("forfeit by red before the first flip accepted")
	}
	if err := g2.Forfeit(darkchess.NoColor, darkchess.BadMove); err != nil {
		t.Fatal(err)
	}
	if r, _ := g2.Result(); r.String() != "second player wins (MoveError)" {
		t.Errorf("result %v", r)
	}
	if err := g2.AgreeDraw(); !errors.Is(err, darkchess.ErrGameOver) {
		t.Errorf("draw agreed after a forfeit: %v", err)
	}
}

// TestAgreeDraw: the players' agreement ends a game in play drawn, and
// nothing is played after it.
func TestAgreeDraw(t *testing.T) {
	g := darkchess.NewGame(darkchess.NTU2021, nil)
	play(t, g, "b8(C) c8(C)")
	if err := g.AgreeDraw(); err != nil {
		t.Fatal(err)
	}
	r, over := g.Result()
	if !over || r != (darkchess.Result{Reason: darkchess.AgreedDraw, Draw: true}) || r.String() != "draw (AgreedDraw)" {
		t.Errorf("result %v, over %v", r, over)
	}
	if err := g.PlayPly(darkchess.Ply{Move: darkchess.Flip(darkchess.A1), Piece: darkchess.RedKing}); !errors.Is(err, darkchess.ErrGameOver) {
		t.Errorf("ply after the draw: %v", err)
	}
	if err := g.AgreeDraw(); !errors.Is(err, darkchess.ErrGameOver) {
		t.Errorf("second draw: %v", err)
	}
}

// TestGameWithoutDeal: a game started without a deal plays flips only as
// plies naming their piece, as when replaying a record.
func TestGameWithoutDeal(t *testing.T) {
	g := darkchess.NewGame(darkchess.DefaultRules, nil)
	if err := g.Play(darkchess.Flip(darkchess.B8)); !errors.Is(err, darkchess.ErrNoDeal) || g.Ply() != 0 {
		t.Fatalf("bare flip: %v", err)
	}
	play(t, g, "b8(C) c8(C) c6(p) c7(G) c8-c6")
	if g.FirstColor() != darkchess.Red || g.Position().At(darkchess.C6) != darkchess.RedCannon || g.Position().Pool(darkchess.BlackPawn) != 4 {
		t.Errorf("after 5 plies: %s", g.Position())
	}
	if err := g.PlayPly(darkchess.Ply{Move: darkchess.Flip(darkchess.A1), Piece: darkchess.RedKing}); err != nil {
		t.Fatal(err)
	}
	if err := g.PlayPly(darkchess.Ply{Move: darkchess.Flip(darkchess.A2), Piece: darkchess.RedKing}); !errors.Is(err, darkchess.ErrIllegalMove) {
		t.Errorf("a second red king: %v", err)
	}
}

// TestGamesEnd plays random games to the end under each preset: the result
// agrees with the final position and rules, and no ply is accepted after.
func TestGamesEnd(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		rules := rapid.SampledFrom([]darkchess.Rules{darkchess.NTU2021, darkchess.Classic, darkchess.ICGA}).Draw(t, "rules")
		g := darkchesstest.Game(rules).Draw(t, "g")
		rng := rand.New(rand.NewPCG(rapid.Uint64().Draw(t, "seed"), 0))
		var buf [darkchess.MaxMoves]darkchess.Move
		for !g.IsOver() {
			moves := g.Position().AppendLegalMoves(buf[:0])
			if err := g.Play(moves[rng.IntN(len(moves))]); err != nil {
				t.Fatal(err)
			}
		}
		r, _ := g.Result()
		p := g.Position()
		switch r.Reason {
		case darkchess.NoPieces:
			if p.Count(p.Turn()) != 0 || r.Winner != p.Turn().Opponent() {
				t.Fatalf("%v at %s", r, p)
			}
		case darkchess.NoLegalPly:
			if p.Count(p.Turn()) == 0 || !p.IsOver() || p.FaceDown() != 0 || r.Winner != p.Turn().Opponent() {
				t.Fatalf("%v at %s", r, p)
			}
		case darkchess.NoEatFlipDraw:
			if p.Quiet() != rules.NoProgressPlies || p.IsOver() {
				t.Fatalf("%v at %s", r, p)
			}
		case darkchess.PositionRepetitionDraw:
			if r.Cycle%4 != 0 || p.Quiet() < 3*r.Cycle {
				t.Fatalf("%v at %s after %d quiet plies", r, p, p.Quiet())
			}
		default:
			t.Fatalf("result %v", r)
		}
		// Every piece is accounted for: on the board, face-down, or taken by
		// a capture of the history.
		taken := 0
		for i, ply := range g.Plies() {
			q, _ := g.PositionAt(i)
			if q.IsCapture(ply.Move) {
				taken++
			}
		}
		if p.Count(darkchess.Red)+p.Count(darkchess.Black)+taken != 32 {
			t.Fatalf("%d pieces left and %d taken", p.Count(darkchess.Red)+p.Count(darkchess.Black), taken)
		}
		checkInvariants(t, p)
		var moves [darkchess.MaxMoves]darkchess.Move
		if ms := p.AppendLegalMoves(moves[:0]); len(ms) > 0 {
			if err := g.Play(ms[0]); !errors.Is(err, darkchess.ErrGameOver) {
				t.Fatalf("ply after the end: %v", err)
			}
		}
	})
}

// TestView: a view shows the public position, plays plies on a copy of its
// history, and its accessors agree with the position's.
func TestView(t *testing.T) {
	p := mustParse(t, "PgXP/-g-G/-X-M/XNXm/N-Xc/--PK/X---/Pm-P b 01020101000001 7 ..R./..../.k../R.p./..G./..../C.../....")
	v := p.View(darkchess.Black)
	if v.Turn() != darkchess.Black || v.Pool(darkchess.RedRook) != 2 || v.Quiet() != 7 || v.IsOver() ||
		v.At(darkchess.C8) != darkchess.Hidden || !v.IsLegal(darkchess.Flip(darkchess.C8)) || v.IsLegal(darkchess.Flip(darkchess.D8)) {
		t.Fatalf("view accessors of %s", v)
	}
	v.History = []darkchess.Ply{{Move: darkchess.Flip(darkchess.A1), Piece: darkchess.RedPawn}}
	next, err := v.Play(darkchess.Ply{Move: darkchess.Flip(darkchess.C8), Piece: darkchess.RedRook})
	if err != nil || len(next.History) != 2 || len(v.History) != 1 || next.At(darkchess.C8) != darkchess.RedRook {
		t.Fatalf("View.Play: %s, %v", next, err)
	}
	next.History[0].Piece = darkchess.BlackPawn
	if v.History[0].Piece != darkchess.RedPawn {
		t.Error("View.Play shares the history")
	}
	if _, err := v.Play(darkchess.Ply{Move: darkchess.Flip(darkchess.C8), Piece: darkchess.BlackGuard}); !errors.Is(err, darkchess.ErrIllegalMove) {
		t.Errorf("flip of a piece not in the pool: %v", err)
	}
	if p.Revealed(darkchess.NoColor) != 0 || p.Count(darkchess.NoColor) != 0 || p.Pieces(40) != 0 || p.Pool(darkchess.Hidden) != 0 {
		t.Error("accessors of invalid values")
	}
}

func TestReasons(t *testing.T) {
	var names []string
	for r := darkchess.Unfinished; r <= darkchess.AgreedDraw+1; r++ {
		names = append(names, r.String())
		if r.IsDraw() != (r == darkchess.NoEatFlipDraw || r == darkchess.PositionRepetitionDraw || r == darkchess.AgreedDraw) {
			t.Errorf("%s.IsDraw() = %v", r, r.IsDraw())
		}
	}
	if got := strings.Join(names, " "); got != "Unfinished NoPieces NoLegalPly TimeOut MoveError Resign NoEatFlipDraw PositionRepetitionDraw AgreedDraw invalid reason" {
		t.Errorf("reason names %q", got)
	}
	if got := (darkchess.Result{}).String(); got != "unfinished" {
		t.Errorf("unfinished result %q", got)
	}
}

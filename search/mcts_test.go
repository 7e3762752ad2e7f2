package search_test

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/botarena/botarena/darkchess"
	"github.com/botarena/botarena/geister"
	"github.com/botarena/botarena/internal/longtest"
	"github.com/botarena/botarena/othello"
	"github.com/botarena/botarena/pdd"
	"github.com/botarena/botarena/search"
	"github.com/google/go-cmp/cmp"
)

// negamax returns the exact value of s for the player to move (chance-free
// games only), by full search: the reference for the forced-win tests.
func negamax[S any, M comparable, G search.Game[S, M]](g G, s S) float64 {
	moves := g.AppendMoves(s, nil)
	if len(moves) == 0 {
		return g.Result(s, g.ToMove(s))
	}
	best := -2.0
	for _, m := range moves {
		t := g.Play(s, m)
		v := negamax(g, t)
		if g.ToMove(t) != g.ToMove(s) {
			v = -v
		}
		best = max(best, v)
	}
	return best
}

// othelloWinPosition returns a position from a seeded random game, with at
// most 7 empty squares, where the side to move has both winning and losing
// moves, and the set of its winning moves.
func othelloWinPosition(t *testing.T, seed uint64) (othello.Position, map[othello.Move]bool) {
	var g search.Othello
	r := rand.New(rand.NewPCG(seed, 0))
	for range 1000 {
		p := othello.Standard.Start
		for p.Empty().Count() > 7 && !p.IsOver() {
			moves := p.AppendLegalMoves(nil)
			p = p.PlayUnchecked(moves[r.IntN(len(moves))])
		}
		if p.IsOver() {
			continue
		}
		wins, losses := map[othello.Move]bool{}, 0
		for _, m := range p.AppendLegalMoves(nil) {
			q := g.Play(p, m)
			v := negamax(g, q)
			if g.ToMove(q) != g.ToMove(p) {
				v = -v
			}
			switch {
			case v > 0:
				wins[m] = true
			case v < 0:
				losses++
			}
		}
		if len(wins) > 0 && losses > 0 {
			return p, wins
		}
	}
	t.Fatal("no position with winning and losing moves")
	return othello.Position{}, nil
}

// TestMCTSOthelloForcedWin: in endgames with winning and losing moves, MCTS
// with 20,000 playouts chooses a winning one.
func TestMCTSOthelloForcedWin(t *testing.T) {
	t.Parallel()
	for seed := range uint64(5) {
		p, wins := othelloWinPosition(t, seed)
		m := search.NewMCTS(search.Othello{}, search.Options{Playouts: 20000, Seed: seed})
		res, err := m.Search(context.Background(), p)
		if err != nil {
			t.Fatal(err)
		}
		if !wins[res.Move] {
			t.Errorf("%s: MCTS chose %s (value %.2f), winning moves %v", p, res.Move, res.Value, wins)
		}
	}
}

// geisterEscape returns a position where the first player, to move, has a
// blue ghost on its exit (0,0) and the second player a blue ghost on its own
// exit: whoever escapes first wins.
func geisterEscape(t *testing.T) geister.Position {
	var s geister.Setup
	s.Reds = [2]geister.Reds{geister.RedsOf(geister.E, geister.F, geister.G, geister.H), geister.RedsOf(geister.A, geister.B, geister.C, geister.D)}
	first := []geister.Square{geister.SquareAt(0, 0), geister.SquareAt(2, 5), geister.SquareAt(3, 5), geister.SquareAt(4, 5),
		geister.SquareAt(1, 4), geister.SquareAt(2, 4), geister.SquareAt(3, 4), geister.SquareAt(4, 4)}
	// The second player's ghosts in its own frame: E (blue) on its exit
	// (5,0), the others at home.
	second := []geister.Square{geister.SquareAt(1, 4), geister.SquareAt(2, 4), geister.SquareAt(3, 4), geister.SquareAt(4, 4),
		geister.SquareAt(5, 0), geister.SquareAt(2, 5), geister.SquareAt(3, 5), geister.SquareAt(4, 5)}
	for g := range 8 {
		s.Ghosts[geister.First][g] = first[g]
		s.Ghosts[geister.Second][g] = second[g].Rotate()
	}
	p, err := geister.NewPosition(s)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestISMCTSGeisterEscape: from the first player's view, IS-MCTS escapes
// (and MCTS on the full position too).
func TestISMCTSGeisterEscape(t *testing.T) {
	t.Parallel()
	p := geisterEscape(t)
	v := p.View(geister.First)
	m := search.NewISMCTS(search.Geister{}, search.Options{Playouts: 3000, Seed: 1})
	res, err := m.Search(context.Background(), v)
	if err != nil {
		t.Fatal(err)
	}
	if !v.IsEscape(res.Move) {
		t.Errorf("IS-MCTS chose %s (value %.2f), not the escape", res.Move, res.Value)
	}
	full, err := search.NewMCTS(search.Geister{}, search.Options{Playouts: 3000, Seed: 1}).Search(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	if p.Target(full.Move) != geister.Escaped {
		t.Errorf("MCTS chose %s (value %.2f), not the escape", full.Move, full.Value)
	}
}

// TestMCTSDarkChessWin: red can take black's last piece (a win), or let
// black's cannon take its rook; MCTS (chance nodes for the flips) takes.
func TestMCTSDarkChessWin(t *testing.T) {
	t.Parallel()
	var s darkchess.Setup
	s.Board[darkchess.SquareAt(1, 1)] = darkchess.RedRook
	s.Board[darkchess.SquareAt(1, 2)] = darkchess.BlackPawn
	s.Board[darkchess.SquareAt(3, 7)] = darkchess.RedKing
	s.Board[darkchess.SquareAt(0, 7)] = darkchess.Hidden
	s.Board[darkchess.SquareAt(2, 5)] = darkchess.Hidden
	s.Pool[darkchess.RedPawn] = 2
	s.Turn = darkchess.Red
	p, err := darkchess.NewPosition(s)
	if err != nil {
		t.Fatal(err)
	}
	win := darkchess.NewMove(darkchess.SquareAt(1, 1), darkchess.SquareAt(1, 2))
	m := search.NewMCTS(search.DarkChess{}, search.Options{Playouts: 2000, Seed: 2})
	res, err := m.Search(context.Background(), search.NewDarkChessState(p))
	if err != nil {
		t.Fatal(err)
	}
	if res.Move.Move != win || res.Value != 1 {
		t.Errorf("MCTS chose %v (value %.2f), want %s", res.Move, res.Value, win)
	}
}

// TestMCTSPDDForcedWin: in late positions of seeded random PDD games where
// the side to move has winning and losing moves (found by full search),
// MCTS chooses a winning move. The quick tier checks the first such
// position; the long tier (BOTARENA_LONG=1) the first three.
func TestMCTSPDDForcedWin(t *testing.T) {
	t.Parallel()
	var g search.PDD
	r := rand.New(rand.NewPCG(3, 0))
	found, want := 0, longtest.Pick(1, 3)
	for try := 0; try < 200 && found < want; try++ {
		// Play a random game, then go back to the last position with at
		// least 3 moves whose game tree is small enough to solve.
		var line []pdd.Position
		p := pdd.Course.Start()
		for moves := p.AppendLegalMoves(nil); len(moves) > 0; moves = p.AppendLegalMoves(nil) {
			line = append(line, p)
			p = p.PlayUnchecked(moves[r.IntN(len(moves))])
		}
		for i := len(line) - 1; i >= 0 && i >= len(line)-6; i-- {
			p := line[i]
			if pdd.Perft(p, 3) > 200000 {
				break
			}
			wins, losses := map[pdd.Move]bool{}, 0
			for _, m := range p.AppendLegalMoves(nil) {
				q := g.Play(p, m)
				v := negamax(g, q)
				if g.ToMove(q) != g.ToMove(p) {
					v = -v
				}
				switch {
				case v > 0:
					wins[m] = true
				case v < 0:
					losses++
				}
			}
			if len(wins) == 0 || losses == 0 {
				continue
			}
			found++
			res, err := search.NewMCTS(g, search.Options{Playouts: 5000, Seed: uint64(try)}).Search(context.Background(), p)
			if err != nil {
				t.Fatal(err)
			}
			if !wins[res.Move] {
				t.Errorf("%s: MCTS chose %s (value %.2f), winning moves %v", p, res.Move, res.Value, wins)
			}
			break
		}
	}
	t.Logf("%d positions", found)
	if found == 0 {
		t.Fatal("no PDD position with winning and losing moves found")
	}
}

// TestMCTSDeterministic: the same seed and playout budget give the same
// search, with one worker or several, and a different seed may differ.
func TestMCTSDeterministic(t *testing.T) {
	t.Parallel()
	for _, workers := range []int{1, 3} {
		o := search.Options{Playouts: 3000, Seed: 42, Workers: workers}
		p := othello.Standard.Start.PlayUnchecked(othello.Place(othello.D3))
		a, err := search.NewMCTS(search.Othello{}, o).Search(context.Background(), p)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := search.NewMCTS(search.Othello{}, o).Search(context.Background(), p)
		if d := cmp.Diff(a, b); d != "" {
			t.Errorf("othello, %d workers: searches differ:\n%s", workers, d)
		}
		if a.Playouts != 3000 {
			t.Errorf("othello: %d playouts, want 3000", a.Playouts)
		}

		v := geisterStart.View(geister.First)
		c, _ := search.NewISMCTS(search.Geister{}, o).Search(context.Background(), v)
		d, _ := search.NewISMCTS(search.Geister{}, o).Search(context.Background(), v)
		if diff := cmp.Diff(c, d); diff != "" {
			t.Errorf("geister, %d workers: searches differ:\n%s", workers, diff)
		}

		s := search.NewDarkChessState(darkchess.Opening)
		e, _ := search.NewMCTS(search.DarkChess{}, o).Search(context.Background(), s)
		f, _ := search.NewMCTS(search.DarkChess{}, o).Search(context.Background(), s)
		if diff := cmp.Diff(e, f); diff != "" {
			t.Errorf("dark chess, %d workers: searches differ:\n%s", workers, diff)
		}
	}
}

// TestMCTSTreeReuse: after a search, the move chosen and a reply, the next
// search starts from the subtree it already holds (its root has visits), and
// still chooses a legal move.
func TestMCTSTreeReuse(t *testing.T) {
	t.Parallel()
	m := search.NewMCTS(search.Othello{}, search.Options{Playouts: 2000, Seed: 7})
	p := othello.Standard.Start
	res, err := m.Search(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	p = p.PlayUnchecked(res.Move)
	p = p.PlayUnchecked(p.AppendLegalMoves(nil)[0])
	// A fresh tree's root children have as many visits as playouts; a
	// reused one had some before.
	next, err := m.Search(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	for _, s := range next.Moves {
		total += s.Visits
	}
	if total <= next.Playouts {
		t.Errorf("root visits %d after %d playouts: the tree was not reused", total, next.Playouts)
	}
	if !p.IsLegal(next.Move) {
		t.Errorf("illegal move %s", next.Move)
	}
}

// TestMCTSContext: a search stops when its context is done, and still
// returns a legal move, even with no playout done.
func TestMCTSContext(t *testing.T) {
	t.Parallel()
	p := othello.Standard.Start
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res, err := search.NewMCTS(search.Othello{}, search.Options{Seed: 1}).Search(ctx, p)
	if err != nil || res.Playouts != 0 || !p.IsLegal(res.Move) {
		t.Errorf("cancelled search: %+v, %v; want a legal move and no playout", res, err)
	}
	ctx, cancel = context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	res, err = search.NewMCTS(search.Othello{}, search.Options{Workers: 2}).Search(ctx, p)
	if err != nil || !p.IsLegal(res.Move) {
		t.Errorf("search to a deadline: %+v, %v", res, err)
	}
	if _, err := search.NewMCTS(search.Othello{}, search.Options{}).Search(ctx, othello.Position{}); !errors.Is(err, search.ErrNoMoves) {
		t.Errorf("search of a finished game: %v, want ErrNoMoves", err)
	}
	s := (search.DarkChess{}).Play(search.NewDarkChessState(darkchess.Opening), darkchess.Ply{Move: darkchess.Flip(darkchess.A1)})
	if _, err := search.NewMCTS(search.DarkChess{}, search.Options{}).Search(ctx, s); !errors.Is(err, search.ErrChanceRoot) {
		t.Errorf("search of a chance node: %v, want ErrChanceRoot", err)
	}
}

// TestMCTSPlayoutDepth: with an Eval and Options.PlayoutDepth, every playout
// is cut off and scored by the Eval (clamped to MaxEval), in MCTS and in
// IS-MCTS; without PlayoutDepth the Eval is never called.
func TestMCTSPlayoutDepth(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		eval  float64
		depth int
		want  float64 // the value of every root move for the player to move
		calls bool
	}{
		{"cut", 0.25, 1, 0.25, true},
		{"clamped", 5, 3, search.MaxEval, true},
		{"no depth", 0.25, 0, 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			calls := 0
			eval := func(_ othello.Position, player int) float64 {
				calls++
				if player == 0 {
					return tc.eval
				}
				return -tc.eval
			}
			m := search.NewMCTS(search.Othello{}, search.Options{Playouts: 300, Seed: 1, PlayoutDepth: tc.depth})
			m.Eval = eval
			res, err := m.Search(context.Background(), othello.Standard.Start)
			if err != nil {
				t.Fatal(err)
			}
			if !tc.calls {
				if calls != 0 {
					t.Errorf("Eval called %d times without PlayoutDepth, want 0", calls)
				}
				return
			}
			if calls != res.Playouts {
				t.Errorf("Eval called %d times in %d playouts, want one a playout", calls, res.Playouts)
			}
			for _, ms := range res.Moves {
				if math.Abs(ms.Value-tc.want) > 1e-9 {
					t.Errorf("move %s: value %v, want %v", ms.Move, ms.Value, tc.want)
				}
			}
		})
	}
	t.Run("ismcts", func(t *testing.T) {
		p, _ := geister.Start(geister.RedsAt(0), geister.RedsAt(69))
		m := search.NewISMCTS(search.Geister{}, search.Options{Playouts: 200, Seed: 1, PlayoutDepth: 2})
		calls := 0
		m.Eval = func(geister.Position, int) float64 { calls++; return -0.5 }
		res, err := m.Search(context.Background(), p.View(geister.First))
		if err != nil {
			t.Fatal(err)
		}
		if calls != res.Playouts {
			t.Errorf("Eval called %d times in %d playouts, want one a playout", calls, res.Playouts)
		}
		for _, ms := range res.Moves {
			if math.Abs(ms.Value+0.5) > 1e-9 {
				t.Errorf("move %s: value %v, want -0.5", ms.Move, ms.Value)
			}
		}
	})
}

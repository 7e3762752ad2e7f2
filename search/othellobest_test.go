package search

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/botarena/botarena/othello"
)

// othelloWLD returns the result of p for its player to move under perfect
// play: 1, 0 or -1.
func othelloWLD(p othello.Position) float64 {
	moves := p.AppendLegalMoves(nil)
	if len(moves) == 0 {
		return result(p)
	}
	best := -2.0
	for _, m := range moves {
		best = max(best, -othelloWLD(p.PlayUnchecked(m)))
		if best == 1 {
			break
		}
	}
	return best
}

// TestOthelloBestSolves: from 9 empty squares the search solves the
// position, and its value and move agree with a plain search of every
// line.
func TestOthelloBestSolves(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(4, 4))
	s := newOthelloSearch(OthelloPatternEval, DepthOptions{})
	tried := 0
	for tried < 12 {
		p := randomOthello(rng, 51)
		if p.IsOver() || p.Empty().Count() != 9 {
			continue
		}
		tried++
		want := othelloWLD(p)
		res, err := s.Search(context.Background(), p)
		if err != nil {
			t.Fatal(err)
		}
		if !res.Exact || res.Value != want {
			t.Fatalf("%v: value %v (exact %v), want %v", p, res.Value, res.Exact, want)
		}
		if got := -othelloWLD(p.PlayUnchecked(res.Move)); got != want {
			t.Fatalf("%v: the move %v is worth %v, the position %v", p, res.Move, got, want)
		}
	}
}

// TestOthelloBestPlays: the player plays legal moves to the end of a game
// against random moves, under a node budget, and its search allocates
// nothing once its buffers have grown.
func TestOthelloBestPlays(t *testing.T) {
	pl := OthelloBestPlayer(DepthOptions{Nodes: 3000})
	rng := rand.New(rand.NewPCG(2, 2))
	p := othello.Standard.Start
	var buf []othello.Move
	for !p.IsOver() {
		var m othello.Move
		if p.Turn() == othello.Black {
			var err error
			if m, err = pl.Play(context.Background(), p); err != nil {
				t.Fatal(err)
			}
			if !p.IsLegal(m) {
				t.Fatalf("%v: illegal move %v", p, m)
			}
		} else {
			buf = p.AppendLegalMoves(buf[:0])
			m = buf[rng.IntN(len(buf))]
		}
		p = p.PlayUnchecked(m)
	}
	if p.Count(othello.Black) <= p.Count(othello.White) {
		t.Errorf("the best player lost to random moves: %d-%d", p.Count(othello.Black), p.Count(othello.White))
	}
	s := newOthelloSearch(OthelloPatternEval, DepthOptions{Nodes: 2000})
	q := randomOthello(rng, 20)
	s.Search(context.Background(), q)
	if a := testing.AllocsPerRun(5, func() { s.Search(context.Background(), q) }); a != 0 {
		t.Errorf("a search allocates %v times", a)
	}
}

// TestOthelloBestBeatsAlphaBeta: at the same node budget, the pattern
// search beats OthelloAlphaBetaPlayer (AlphaBeta with OthelloEval).
func TestOthelloBestBeatsAlphaBeta(t *testing.T) {
	t.Parallel() // on budgets, not the clock: load changes nothing
	const games = 8
	rng := rand.New(rand.NewPCG(9, 9))
	pts := 0.0
	for g := range games {
		best, ab := OthelloBestPlayer(DepthOptions{Nodes: 4000}), OthelloAlphaBetaPlayer(DepthOptions{Nodes: 4000})
		p := randomOthello(rng, 4)
		bestColor := othello.Color(g % 2)
		for !p.IsOver() {
			pl := ab
			if p.Turn() == bestColor {
				pl = best
			}
			m, err := pl.Play(context.Background(), p)
			if err != nil {
				t.Fatal(err)
			}
			p = p.PlayUnchecked(m)
		}
		switch d := p.Count(bestColor) - p.Count(bestColor.Opponent()); {
		case d > 0:
			pts++
		case d == 0:
			pts += 0.5
		}
	}
	if pts < 6 {
		t.Errorf("the best player scored %v of %d against alpha-beta with OthelloEval", pts, games)
	}
}

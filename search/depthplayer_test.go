package search_test

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/botarena/botarena/darkchess"
	"github.com/botarena/botarena/othello"
	"github.com/botarena/botarena/search"
)

// The matches below pit a depth-first search player against a uniform
// random one, seats alternating, with fixed seeds and node budgets (never
// time), so each outcome is the same on every machine. Each requires a
// margin of wins that leaves room for draws and a few losses.

// TestOthelloAlphaBetaPlayerBeatsRandom: 10 games at 3,000 nodes a move
// (and the exact solve from 14 empty squares); at least 9 wins.
func TestOthelloAlphaBetaPlayerBeatsRandom(t *testing.T) {
	ctx := context.Background()
	r := rand.New(rand.NewPCG(21, 0))
	wins := 0
	for game := range 10 {
		bot := search.OthelloAlphaBetaPlayer(search.DepthOptions{Nodes: 3000, TableSize: 1 << 14})
		me := othello.Color(game & 1)
		g := othello.NewGame(othello.Standard)
		for !g.IsOver() {
			p := g.Position()
			moves := p.AppendLegalMoves(nil)
			m := moves[r.IntN(len(moves))]
			if p.Turn() == me {
				var err error
				if m, err = bot.Play(ctx, p); err != nil {
					t.Fatal(err)
				}
			}
			if err := g.Play(m); err != nil {
				t.Fatal(err)
			}
		}
		if res, _ := g.Result(); !res.Draw && res.Winner == me {
			wins++
		}
	}
	t.Logf("%d wins of 10", wins)
	if wins < 9 {
		t.Errorf("alpha-beta won %d of 10 games against random, want at least 9", wins)
	}
}

// TestDarkChessExpectimaxPlayerBeatsRandom: 10 games at 5,000 nodes a ply,
// the first player alternating; at least 8 wins.
func TestDarkChessExpectimaxPlayerBeatsRandom(t *testing.T) {
	ctx := context.Background()
	r := rand.New(rand.NewPCG(23, 0))
	wins := 0
	for game := range 10 {
		bot := search.DarkChessExpectimaxPlayer(search.DepthOptions{Nodes: 5000})
		g := darkchess.NewGame(darkchess.NTU2021, rand.New(rand.NewPCG(uint64(game), 1)))
		botFirst := game&1 == 0
		var botColor darkchess.Color
		for ply := 0; !g.IsOver(); ply++ {
			p := g.Position()
			moves := p.AppendLegalMoves(nil)
			m := moves[r.IntN(len(moves))]
			if (ply == 0 && botFirst) || (ply > 0 && p.Turn() == botColor) {
				var err error
				if m, err = bot.Play(ctx, g.View(p.Turn())); err != nil {
					t.Fatal(err)
				}
			}
			if err := g.Play(m); err != nil {
				t.Fatal(err)
			}
			if ply == 0 {
				botColor = g.FirstColor()
				if !botFirst {
					botColor = botColor.Opponent()
				}
			}
		}
		res, _ := g.Result()
		t.Logf("game %d: %v", game, res)
		if !res.Draw && res.Winner == botColor {
			wins++
		}
	}
	t.Logf("%d wins of 10", wins)
	if wins < 8 {
		t.Errorf("expectimax won %d of 10 games against random, want at least 8", wins)
	}
}

// TestDepthPlayersAnswerByDeadline: with no node budget, a player searches
// until shortly before its context's deadline and answers a legal move. (How
// close to the deadline it answers depends on the machine's load, so it is
// not asserted.)
func TestDepthPlayersAnswerByDeadline(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	p := othello.Standard.Start
	m, err := search.OthelloAlphaBetaPlayer(search.DepthOptions{TableSize: 1 << 12}).Play(ctx, p)
	if err != nil || !p.IsLegal(m) {
		t.Errorf("othello: %s, %v; want a legal move", m, err)
	}
	ctx, cancel = context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	v := darkchess.Opening.View(darkchess.Red)
	dm, err := search.DarkChessExpectimaxPlayer(search.DepthOptions{}).Play(ctx, v)
	if err != nil || !v.IsLegal(dm) {
		t.Errorf("dark chess: %s, %v; want a legal move", dm, err)
	}
}

package search_test

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/botarena/botarena/darkchess"
	"github.com/botarena/botarena/geister"
	"github.com/botarena/botarena/othello"
	"github.com/botarena/botarena/pdd"
	"github.com/botarena/botarena/search"
)

// The matches below pit a search player against a uniform random one, seats
// alternating, with fixed seeds and playout budgets (never time), so each
// outcome is the same on every machine. Each requires a margin of wins that
// leaves room for draws and a few losses.

// TestOthelloPlayerBeatsRandom: 10 games at 500 playouts a move; at least
// 8 wins.
func TestOthelloPlayerBeatsRandom(t *testing.T) {
	wins := othelloWins(t, 10, 11, true, func(game int) othello.Player {
		return search.OthelloPlayer(search.Options{Playouts: 500, Seed: uint64(game)})
	})
	if wins < 8 {
		t.Errorf("MCTS won %d of 10 games against random, want at least 8", wins)
	}
}

// TestGeisterPlayerBeatsRandom: 10 games at 300 playouts a move (IS-MCTS,
// the opponent's colours unknown); at least 7 wins.
func TestGeisterPlayerBeatsRandom(t *testing.T) {
	ctx := context.Background()
	r := rand.New(rand.NewPCG(12, 0))
	wins := 0
	for game := range 10 {
		bot := search.GeisterPlayer(search.Options{Playouts: 300, Seed: uint64(game)}, 0)
		me := geister.Color(game & 1)
		mine, err := bot.Setup(ctx)
		if err != nil {
			t.Fatal(err)
		}
		reds := [2]geister.Reds{geister.RedsAt(r.IntN(geister.NumReds)), geister.RedsAt(r.IntN(geister.NumReds))}
		reds[me] = mine
		start, err := geister.Start(reds[0], reds[1])
		if err != nil {
			t.Fatal(err)
		}
		g := geister.NewGame(geister.GAT, start)
		for !g.IsOver() {
			p := g.Position()
			moves := p.AppendLegalMoves(nil)
			m := moves[r.IntN(len(moves))]
			if p.Turn() == me {
				if m, err = bot.Play(ctx, g.View(me)); err != nil {
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
	if wins < 7 {
		t.Errorf("IS-MCTS won %d of 10 games against random, want at least 7", wins)
	}
}

// TestDarkChessPlayerBeatsRandom: 6 games at 300 playouts a ply, the first
// player alternating; at least 4 wins.
func TestDarkChessPlayerBeatsRandom(t *testing.T) {
	wins := darkChessWins(t, 6, 13, func(game int) darkchess.Player {
		return search.DarkChessPlayer(search.Options{Playouts: 300, Seed: uint64(game)})
	})
	if wins < 4 {
		t.Errorf("MCTS won %d of 6 games against random, want at least 4", wins)
	}
}

// TestPDDPlayerBeatsRandom: 4 games at 40 playouts a move; at least 3 wins.
func TestPDDPlayerBeatsRandom(t *testing.T) {
	if testing.Short() {
		t.Skip("PDD playouts are slow")
	}
	ctx := context.Background()
	r := rand.New(rand.NewPCG(14, 0))
	wins := 0
	for game := range 4 {
		bot := search.PDDPlayer(search.Options{Playouts: 40, Seed: uint64(game)})
		me := pdd.White
		if game&1 == 1 {
			me = pdd.Black
		}
		g := pdd.NewGame(pdd.Course)
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
	t.Logf("%d wins of 4", wins)
	if wins < 3 {
		t.Errorf("MCTS won %d of 4 games against random, want at least 3", wins)
	}
}

package search_test

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/botarena/botarena/darkchess"
	"github.com/botarena/botarena/geister"
	"github.com/botarena/botarena/internal/longtest"
	"github.com/botarena/botarena/othello"
	"github.com/botarena/botarena/pdd"
	"github.com/botarena/botarena/search"
)

// The matches below pit a search player against a uniform random one, seats
// alternating, with fixed seeds and playout budgets (never time), so each
// outcome is the same on every machine. Each requires a margin of wins that
// leaves room for draws and a few losses.
//
// The quick tier plays the first pair of games of each match (the seats
// swapped) and wants the bot to win at least one: that checks the wiring
// (the bot plays legal moves for its own side to the end of a game) and
// fails a bot that loses both, as one that searches for the wrong side
// does. (Each wins both today.) The long tier (BOTARENA_LONG=1) plays the
// whole match with its margin.

// TestOthelloPlayerBeatsRandom: 10 games at 500 playouts a move; at least
// 8 wins (quick tier: 2 games, at least 1 win).
func TestOthelloPlayerBeatsRandom(t *testing.T) {
	t.Parallel() // on budgets, not the clock: load changes nothing
	games, atLeast := longtest.Pick(2, 10), longtest.Pick(1, 8)
	wins := othelloWins(t, games, 11, true, func(game int) othello.Player {
		return search.OthelloPlayer(search.Options{Playouts: 500, Seed: uint64(game)})
	})
	if wins < atLeast {
		t.Errorf("MCTS won %d of %d games against random, want at least %d", wins, games, atLeast)
	}
}

// TestGeisterPlayerBeatsRandom: 10 games at 300 playouts a move (IS-MCTS,
// the opponent's colours unknown); at least 7 wins (quick tier: 2 games, at
// least 1 win).
func TestGeisterPlayerBeatsRandom(t *testing.T) {
	t.Parallel() // on budgets, not the clock: load changes nothing
	games, atLeast := longtest.Pick(2, 10), longtest.Pick(1, 7)
	ctx := context.Background()
	r := rand.New(rand.NewPCG(12, 0))
	wins := 0
	for game := range games {
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
	t.Logf("%d wins of %d", wins, games)
	if wins < atLeast {
		t.Errorf("IS-MCTS won %d of %d games against random, want at least %d", wins, games, atLeast)
	}
}

// TestDarkChessPlayerBeatsRandom: 6 games at 300 playouts a ply, the first
// player alternating; at least 4 wins (quick tier: 2 games, at least 1
// win).
func TestDarkChessPlayerBeatsRandom(t *testing.T) {
	t.Parallel() // on budgets, not the clock: load changes nothing
	games, atLeast := longtest.Pick(2, 6), longtest.Pick(1, 4)
	wins := darkChessWins(t, games, 13, func(game int) darkchess.Player {
		return search.DarkChessPlayer(search.Options{Playouts: 300, Seed: uint64(game)})
	})
	if wins < atLeast {
		t.Errorf("MCTS won %d of %d games against random, want at least %d", wins, games, atLeast)
	}
}

// TestPDDPlayerBeatsRandom: 4 games at 40 playouts a move; at least 3 wins
// (quick tier: 2 games, at least 1 win).
func TestPDDPlayerBeatsRandom(t *testing.T) {
	t.Parallel() // on budgets, not the clock: load changes nothing
	if testing.Short() {
		t.Skip("PDD playouts are slow")
	}
	games, atLeast := longtest.Pick(2, 4), longtest.Pick(1, 3)
	ctx := context.Background()
	r := rand.New(rand.NewPCG(14, 0))
	wins := 0
	for game := range games {
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
	t.Logf("%d wins of %d", wins, games)
	if wins < atLeast {
		t.Errorf("MCTS won %d of %d games against random, want at least %d", wins, games, atLeast)
	}
}

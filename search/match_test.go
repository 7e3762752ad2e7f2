package search_test

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/botarena/botarena/darkchess"
	"github.com/botarena/botarena/othello"
)

// othelloWins plays games between a bot (newBot(game), made afresh for each
// game) and a uniform random player drawing from a PCG seeded with seed, the
// bot black in even games, and returns the bot's wins. The bot is asked on
// each of its turns, a forced pass included unless skipPass.
func othelloWins(t *testing.T, games int, seed uint64, skipPass bool, newBot func(game int) othello.Player) int {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, 0))
	wins := 0
	for game := range games {
		bot := newBot(game)
		me := othello.Color(game & 1)
		g := othello.NewGame(othello.Standard)
		for !g.IsOver() {
			p := g.Position()
			moves := p.AppendLegalMoves(nil)
			m := moves[r.IntN(len(moves))]
			if p.Turn() == me && !(skipPass && moves[0] == othello.Pass) {
				var err error
				if m, err = bot.Play(context.Background(), p); err != nil {
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
	return wins
}

// darkChessWins plays games between a bot (newBot(game)) and a uniform
// random player drawing from a PCG seeded with seed, the deal of game i
// from PCG(i, 1), the bot first in even games, and returns the bot's wins.
func darkChessWins(t *testing.T, games int, seed uint64, newBot func(game int) darkchess.Player) int {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, 0))
	wins := 0
	for game := range games {
		bot := newBot(game)
		g := darkchess.NewGame(darkchess.NTU2021, rand.New(rand.NewPCG(uint64(game), 1)))
		botFirst := game&1 == 0
		var botColor darkchess.Color
		for ply := 0; !g.IsOver(); ply++ {
			p := g.Position()
			moves := p.AppendLegalMoves(nil)
			m := moves[r.IntN(len(moves))]
			if (ply == 0 && botFirst) || (ply > 0 && p.Turn() == botColor) {
				var err error
				if m, err = bot.Play(context.Background(), g.View(p.Turn())); err != nil {
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
	t.Logf("%d wins of %d", wins, games)
	return wins
}

package search_test

import (
	"context"
	"testing"
	"time"

	"github.com/botarena/botarena/darkchess"
	"github.com/botarena/botarena/internal/longtest"
	"github.com/botarena/botarena/othello"
	"github.com/botarena/botarena/search"
)

// The matches below pit a depth-first search player against a uniform
// random one, seats alternating, with fixed seeds and node budgets (never
// time), so each outcome is the same on every machine. Each requires a
// margin of wins that leaves room for draws and a few losses. As with the
// MCTS players' matches, the quick tier plays the first pair of games (the
// seats swapped) and wants at least one win; the long tier
// (BOTARENA_LONG=1) plays the whole match with its margin.

// TestOthelloAlphaBetaPlayerBeatsRandom: 10 games at 3,000 nodes a move
// (and the exact solve from 14 empty squares); at least 9 wins (quick tier:
// 2 games, at least 1 win).
func TestOthelloAlphaBetaPlayerBeatsRandom(t *testing.T) {
	t.Parallel()
	games, atLeast := longtest.Pick(2, 10), longtest.Pick(1, 9)
	wins := othelloWins(t, games, 21, false, func(int) othello.Player {
		return search.OthelloAlphaBetaPlayer(search.DepthOptions{Nodes: 3000, TableSize: 1 << 14})
	})
	if wins < atLeast {
		t.Errorf("alpha-beta won %d of %d games against random, want at least %d", wins, games, atLeast)
	}
}

// TestDarkChessExpectimaxPlayerBeatsRandom: 10 games at 5,000 nodes a ply,
// the first player alternating; at least 8 wins (quick tier: 2 games, at
// least 1 win).
func TestDarkChessExpectimaxPlayerBeatsRandom(t *testing.T) {
	t.Parallel()
	games, atLeast := longtest.Pick(2, 10), longtest.Pick(1, 8)
	wins := darkChessWins(t, games, 23, func(int) darkchess.Player {
		return search.DarkChessExpectimaxPlayer(search.DepthOptions{Nodes: 5000})
	})
	if wins < atLeast {
		t.Errorf("expectimax won %d of %d games against random, want at least %d", wins, games, atLeast)
	}
}

// TestDepthPlayersAnswerByDeadline: with no node budget, a player searches
// until shortly before its context's deadline and answers a legal move. (How
// close to the deadline it answers depends on the machine's load, so it is
// not asserted.)
func TestDepthPlayersAnswerByDeadline(t *testing.T) {
	t.Parallel()
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

// TestDarkChessExpectimaxPlayerAvoidsRepetition: in a position where every
// ply is worth the same to a shallow search, the player (and
// DarkChessBestPlayer) plays the first; back in that position a few quiet
// plies later, it plays another, the position after its first ply being
// now a repetition of its game.
func TestDarkChessExpectimaxPlayerAvoidsRepetition(t *testing.T) {
	t.Parallel()
	at := func(quiet int) darkchess.View {
		var st darkchess.Setup
		st.Board[darkchess.B2], st.Board[darkchess.D8] = darkchess.RedGuard, darkchess.BlackPawn
		st.Turn, st.Quiet = darkchess.Red, quiet
		p, err := darkchess.NewPosition(st)
		if err != nil {
			t.Fatal(err)
		}
		return p.View(darkchess.Red)
	}
	for _, c := range []struct {
		name   string
		player func() darkchess.Player
	}{
		{"expectimax", func() darkchess.Player { return search.DarkChessExpectimaxPlayer(search.DepthOptions{Depth: 2}) }},
		{"best", func() darkchess.Player { return search.DarkChessBestPlayer(search.DepthOptions{Depth: 4}) }},
	} {
		player := c.player()
		first, err := player.Play(context.Background(), at(5))
		if err != nil {
			t.Fatal(err)
		}
		again, err := player.Play(context.Background(), at(9))
		if err != nil {
			t.Fatal(err)
		}
		if again == first {
			t.Errorf("%s: back in the position, the player plays %s again, into a repetition", c.name, first)
		}
		// A fresh player, with no history, plays the first ply there too.
		if fresh, err := c.player().Play(context.Background(), at(9)); err != nil || fresh != first {
			t.Errorf("%s: a fresh player plays %s (%v), want %s", c.name, fresh, err, first)
		}
	}
}

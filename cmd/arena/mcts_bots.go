package main

import (
	"context"
	"math"
	"math/rand/v2"

	"github.com/botarena/botarena/darkchess"
	"github.com/botarena/botarena/geister"
	"github.com/botarena/botarena/othello"
	"github.com/botarena/botarena/search"
	"github.com/botarena/botarena/timer"
)

// The built-in "mcts" bots are package search's players (Monte Carlo tree
// search; information-set MCTS for Geister), one search tree a game, seeded
// by the bot's seed. Each move is searched for the time the time manager
// gives it from the match's time control (a keeper, think.go, tells the
// player the control); under a control with no limit (-time none) each move
// is searched for a fixed number of playouts instead, so that the games
// replay from the match's seed.
const (
	othelloMCTSPlayouts   = 1000 // about 10 ms a move
	geisterMCTSPlayouts   = 1000 // about 20 ms a move
	darkchessMCTSPlayouts = 300  // about 20 ms a ply
	pddMCTSPlayouts       = 60   // about 50 ms a move

	// darkchessMovesToGo is the number of own plies a dark chess bot
	// shares its time left among under a game clock: its games run long.
	darkchessMovesToGo = 50

	// darkchessPlayoutDepth is where a dark chess playout stops and
	// darkchessPlayoutEval scores it: long enough for the exchanges under
	// way to play out, short enough for several times the playouts of
	// games played to the end (and for less noise from the random plies).
	darkchessPlayoutDepth = 12
	// darkchessEvalGain stretches search.DarkChessEval (material over 160)
	// toward the payoffs of a won and a lost game: a rook ahead then counts
	// for about a seventh of a win.
	darkchessEvalGain = 4
	// darkchessExploration is the dark chess mcts's UCB constant, half the
	// default: the evaluated playouts are less noisy than played-out games,
	// and their values, mostly material, lie closer together.
	darkchessExploration = 0.35
)

// mctsOptions returns the options of a built-in mcts bot: one worker (arena
// plays several games at once with -j), the seed, and the playout budget
// under a control with no limit.
func mctsOptions(seed uint64, ctl timer.Control, playouts int) search.Options {
	o := search.Options{Seed: seed, Workers: 1}
	if ctl.Unlimited() {
		o.Playouts = playouts
	}
	return o
}

// newOthelloMCTS returns the Othello mcts bot, for one game at a time.
func newOthelloMCTS(seed uint64, ctl timer.Control) othello.Player {
	k := &keeper{ctl: ctl}
	p := search.OthelloPlayer(mctsOptions(seed, ctl, othelloMCTSPlayouts))
	return othello.PlayerFunc(func(ctx context.Context, pos othello.Position) (othello.Move, error) {
		return p.Play(k.withStatus(ctx), pos)
	})
}

// newGeisterMCTS returns the Geister mcts bot, for one game at a time:
// IS-MCTS over its views, under the ply limit plyLimit (0: the GAT's).
func newGeisterMCTS(seed uint64, ctl timer.Control, plyLimit int) geister.Player {
	return &geisterMCTS{k: keeper{ctl: ctl}, p: search.GeisterPlayer(mctsOptions(seed, ctl, geisterMCTSPlayouts), plyLimit)}
}

// geisterMCTS is package search's Geister player, told the match's control
// by a keeper.
type geisterMCTS struct {
	k keeper
	p geister.Player
}

// Setup draws a red set uniformly.
func (b *geisterMCTS) Setup(ctx context.Context) (geister.Reds, error) { return b.p.Setup(ctx) }

// Play searches v.
func (b *geisterMCTS) Play(ctx context.Context, v geister.View) (geister.Move, error) {
	return b.p.Play(b.k.withStatus(ctx), v)
}

// newDarkchessMCTS returns the dark chess mcts bot, for one game at a
// time: MCTS over the view's position, each flip a chance node, with
// darkchessPlayout's playouts cut off at darkchessPlayoutDepth plies and
// scored by darkchessPlayoutEval; its keeper budgets each ply from the
// match's control and the time left the protocol tells it.
func newDarkchessMCTS(seed uint64, ctl timer.Control) darkchess.Player {
	o := mctsOptions(seed, ctl, darkchessMCTSPlayouts)
	o.PlayoutDepth = darkchessPlayoutDepth
	o.Exploration = darkchessExploration
	return &darkchessMCTS{k: keeper{ctl: ctl, movesToGo: darkchessMovesToGo}, o: o}
}

// darkchessPlayoutEval scores a dark chess playout cut off at
// darkchessPlayoutDepth: search.DarkChessEval's material balance, stretched
// by darkchessEvalGain and kept inside (-1, 1).
func darkchessPlayoutEval(s search.DarkChessState, player int) float64 {
	return math.Tanh(darkchessEvalGain * search.DarkChessEval(s, player))
}

// darkchessMCTS is package search's MCTS over search.DarkChess with a
// playout policy of its own.
type darkchessMCTS struct {
	k keeper
	o search.Options
	g search.DarkChess // the rules m was made with
	m *search.MCTS[search.DarkChessState, darkchess.Ply, search.DarkChess]
}

// Play searches v's position.
func (b *darkchessMCTS) Play(ctx context.Context, v darkchess.View) (darkchess.Move, error) {
	if g := (search.DarkChess{NoProgressPlies: v.Rules.NoProgressPlies}); b.m == nil || g != b.g {
		b.g, b.m = g, search.NewMCTS(g, b.o)
		b.m.Policy, b.m.Eval = darkchessPlayout, darkchessPlayoutEval
	}
	return keep(&b.k, ctx, func(ctx context.Context) (darkchess.Move, error) {
		res, err := b.m.Search(ctx, b.g.Determinize(v, nil))
		return res.Move.Move, err
	})
}

// darkchessPlayout is the playout policy of the dark chess mcts: the
// capture of the most valuable piece when there is one, nine times in ten,
// else a ply at random. Uniform playouts let pieces stand en prise; these
// play out exchanges as players do, and end in captures rather than in the
// no-progress draw.
func darkchessPlayout(s search.DarkChessState, plies []darkchess.Ply, r *rand.Rand) darkchess.Ply {
	if _, pending := s.Pending(); !pending && r.IntN(10) != 0 {
		p := s.Position()
		best, bestV := -1, 0
		for i, ply := range plies {
			if m := ply.Move; !m.IsFlip() && p.IsCapture(m) {
				if v := darkchessValue[p.At(m.To()).Kind()]; v > bestV {
					best, bestV = i, v
				}
			}
		}
		if best >= 0 {
			return plies[best]
		}
	}
	return plies[r.IntN(len(plies))]
}

package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"

	"github.com/botarena/botarena/othello"
	"github.com/botarena/botarena/timer"
)

// othelloBotNames lists the built-in Othello players. Each is written with the
// public API only, as a user would.
func othelloBotNames() []string { return []string{"random", "greedy", "alphabeta", "best", "mcts"} }

// newOthelloBot returns the built-in player called name, seeded by seed,
// for one game at a time under the time control ctl.
func newOthelloBot(name string, seed uint64, ctl timer.Control) (othello.Player, error) {
	rng := rand.New(rand.NewPCG(seed, seed^0x9E3779B97F4A7C15))
	switch name {
	case "random":
		return othello.PlayerFunc(func(_ context.Context, p othello.Position) (othello.Move, error) {
			moves := p.AppendLegalMoves(nil)
			if len(moves) == 0 {
				return othello.NoMove, fmt.Errorf("no legal move in %s", p)
			}
			return moves[rng.IntN(len(moves))], nil
		}), nil
	case "greedy":
		return othello.PlayerFunc(func(_ context.Context, p othello.Position) (othello.Move, error) {
			me := p.Turn()
			moves := p.AppendLegalMoves(nil)
			if len(moves) == 0 {
				return othello.NoMove, fmt.Errorf("no legal move in %s", p)
			}
			// The move that leaves the most discs; ties broken at random
			// (one pass, each tied move kept with chance 1/ties).
			best, bestN, ties := moves[0], -1, 0
			for _, m := range moves {
				switch n := p.PlayUnchecked(m).Count(me); {
				case n > bestN:
					best, bestN, ties = m, n, 1
				case n == bestN:
					if ties++; rng.IntN(ties) == 0 {
						best = m
					}
				}
			}
			return best, nil
		}), nil
	case "alphabeta":
		a, k := &alphaBeta{depth: 5, rng: rng}, &keeper{ctl: ctl}
		return othello.PlayerFunc(func(ctx context.Context, p othello.Position) (othello.Move, error) {
			return keep(k, ctx, func(ctx context.Context) (othello.Move, error) { return a.Play(ctx, p) })
		}), nil
	case "mcts":
		return newOthelloMCTS(seed, ctl), nil
	case "best":
		return newOthelloBest(ctl), nil
	}
	return nil, fmt.Errorf("unknown othello player %q (built-in players: %s)", name, strings.Join(othelloBotNames(), ", "))
}

// alphaBeta is a fixed-depth negamax search with alpha-beta pruning over a
// positional table, mobility and corners; it solves the last 10 empties
// exactly. It stops early when ctx is done and plays the best move found.
type alphaBeta struct {
	depth int
	rng   *rand.Rand
}

// squareWeights values squares for the side owning them: corners high, the
// squares next to empty corners low.
var squareWeights = [64]int{
	100, -20, 10, 5, 5, 10, -20, 100,
	-20, -50, -2, -2, -2, -2, -50, -20,
	10, -2, 1, 1, 1, 1, -2, 10,
	5, -2, 1, 0, 0, 1, -2, 5,
	5, -2, 1, 0, 0, 1, -2, 5,
	10, -2, 1, 1, 1, 1, -2, 10,
	-20, -50, -2, -2, -2, -2, -50, -20,
	100, -20, 10, 5, 5, 10, -20, 100,
}

const win = 1 << 20

func (a *alphaBeta) Play(ctx context.Context, p othello.Position) (othello.Move, error) {
	moves := p.AppendLegalMoves(nil)
	if len(moves) == 0 {
		return othello.NoMove, fmt.Errorf("no legal move in %s", p)
	}
	a.rng.Shuffle(len(moves), func(i, j int) { moves[i], moves[j] = moves[j], moves[i] })
	depth := a.depth
	if p.Empty().Count() <= 10 {
		depth = 64 // solve the end exactly
	}
	// Order moves by a shallow search so the deep one prunes well.
	scores := make(map[othello.Move]int, len(moves))
	for _, m := range moves {
		scores[m] = -a.search(ctx, p.PlayUnchecked(m), 1, -win-1, win+1)
	}
	sort.SliceStable(moves, func(i, j int) bool { return scores[moves[i]] > scores[moves[j]] })
	best, alpha := moves[0], -win-1
	for _, m := range moves {
		if ctx.Err() != nil {
			break
		}
		v := -a.search(ctx, p.PlayUnchecked(m), depth-1, -win-1, -alpha)
		if v > alpha {
			best, alpha = m, v
		}
	}
	return best, nil
}

func (a *alphaBeta) search(ctx context.Context, p othello.Position, depth, alpha, beta int) int {
	if p.IsOver() {
		d := p.Count(p.Turn()) - p.Count(p.Turn().Opponent())
		switch {
		case d > 0:
			return win + d
		case d < 0:
			return -win + d
		}
		return 0
	}
	if depth <= 0 || ctx.Err() != nil {
		return evaluate(p)
	}
	var buf [64]othello.Move
	for _, m := range p.AppendLegalMoves(buf[:0]) {
		v := -a.search(ctx, p.PlayUnchecked(m), depth-1, -beta, -alpha)
		if v >= beta {
			return v
		}
		alpha = max(alpha, v)
	}
	return alpha
}

// evaluate scores p for the side to move.
func evaluate(p othello.Position) int {
	me, opp := p.Discs(p.Turn()), p.Discs(p.Turn().Opponent())
	score := 0
	for s := range me.Squares() {
		score += squareWeights[s]
	}
	for s := range opp.Squares() {
		score -= squareWeights[s]
	}
	mobility := p.LegalSquares().Count() - p.PlayUnchecked(othello.Pass).LegalSquares().Count()
	return score + 8*mobility
}

package main

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/botarena/botarena/geister"
	"github.com/botarena/botarena/search"
	"github.com/botarena/botarena/timer"
)

// geisterBotNames lists the built-in Geister players, "random" first. Each is
// written with the public API only, as a user would.
func geisterBotNames() []string { return []string{"random", "greedy", "rush", "mcts", "best"} }

// newGeisterBot returns the built-in player called name, seeded by seed,
// for one game at a time under the time control ctl and the ply limit
// plyLimit (0: the GAT's).
func newGeisterBot(name string, seed uint64, ctl timer.Control, plyLimit int) (geister.Player, error) {
	rng := rand.New(rand.NewPCG(seed, seed^0x9E3779B97F4A7C15))
	switch name {
	case "random":
		return &geisterRandom{rng: rng}, nil
	case "greedy":
		return &geisterGreedy{rng: rng}, nil
	case "rush":
		return search.GeisterRushPlayer(seed), nil
	case "mcts":
		return newGeisterMCTS(seed, ctl, plyLimit), nil
	case "best":
		return newGeisterBest(seed, ctl, plyLimit), nil
	}
	return nil, fmt.Errorf("unknown geister player %q (built-in players: %s)", name, strings.Join(geisterBotNames(), ", "))
}

// errGeisterNoMove is a Play call with no legal move: the host never makes one.
var errGeisterNoMove = errors.New("no legal move")

// geisterRandom sets a random red set and plays uniformly random moves.
type geisterRandom struct{ rng *rand.Rand }

// Setup draws one of the 70 red sets.
func (b *geisterRandom) Setup(context.Context) (geister.Reds, error) {
	return geister.RedsAt(b.rng.IntN(geister.NumReds)), nil
}

// Play draws one of the legal moves.
func (b *geisterRandom) Play(_ context.Context, v geister.View) (geister.Move, error) {
	var buf [32]geister.Move
	moves := v.AppendLegalMoves(buf[:0])
	if len(moves) == 0 {
		return geister.NoMove, fmt.Errorf("%w in %s", errGeisterNoMove, v)
	}
	return moves[b.rng.IntN(len(moves))], nil
}

// geisterGreedy plays by rules of thumb on what it sees, one move ahead: it
// escapes when it can, takes an opponent ghost on its own back corners (which
// could escape next), captures when the odds say the ghost is blue and the
// capture cannot lose the game, walks its blue ghosts toward the exits while
// keeping them out of reach, and offers its red ghosts as bait. It sets its
// red ghosts in one of a few setups (geisterGreedySetups). Ties are broken at
// random.
type geisterGreedy struct{ rng *rand.Rand }

// geisterGreedySetups are the red sets the greedy bot picks from (the front
// row is A-D, the back row E-H, from left to right): reds in the middle of
// both rows, the whole front row, the front middle with the back corners, or
// the front corners with the back middle; several, so that an opponent
// cannot learn one fixed set.
var geisterGreedySetups = [...]geister.Reds{
	geister.RedsOf(geister.B, geister.C, geister.F, geister.G),
	geister.RedsOf(geister.A, geister.B, geister.C, geister.D),
	geister.RedsOf(geister.B, geister.C, geister.E, geister.H),
	geister.RedsOf(geister.A, geister.D, geister.F, geister.G),
}

// Setup picks one of geisterGreedySetups.
func (b *geisterGreedy) Setup(context.Context) (geister.Reds, error) {
	return geisterGreedySetups[b.rng.IntN(len(geisterGreedySetups))], nil
}

// Play scores every legal move and plays one of the best.
func (b *geisterGreedy) Play(_ context.Context, v geister.View) (geister.Move, error) {
	var buf [32]geister.Move
	moves := v.AppendLegalMoves(buf[:0])
	if len(moves) == 0 {
		return geister.NoMove, fmt.Errorf("%w in %s", errGeisterNoMove, v)
	}
	best, bestScore, ties := geister.NoMove, 0, 0
	for _, m := range moves {
		s := geisterGreedyScore(v, m)
		switch {
		case best == geister.NoMove || s > bestScore:
			best, bestScore, ties = m, s, 1
		case s == bestScore:
			ties++
			if b.rng.IntN(ties) == 0 {
				best = m
			}
		}
	}
	return best, nil
}

// geisterStep returns the square one step from s in direction d, in the viewer's
// frame, and false off the board.
func geisterStep(s geister.Square, d geister.Direction) (geister.Square, bool) {
	x, y := s.X(), s.Y()
	switch d {
	case geister.North:
		y--
	case geister.South:
		y++
	case geister.East:
		x++
	case geister.West:
		x--
	}
	t := geister.SquareAt(x, y)
	return t, t != geister.NoSquare
}

// geisterExitDistance is the number of steps from s to the nearer of the viewer's
// exits, (0,0) and (5,0), plus the step off the board.
func geisterExitDistance(s geister.Square) int {
	return s.Y() + min(s.X(), 5-s.X()) + 1
}

// geisterThreats counts the opponent ghosts next to s, except the one on skip.
func geisterThreats(v geister.View, opp geister.Color, s, skip geister.Square) int {
	n := 0
	for d := geister.North; d <= geister.South; d++ {
		if t, ok := geisterStep(s, d); ok && t != skip {
			if c, _, ok := v.At(t); ok && c == opp {
				n++
			}
		}
	}
	return n
}

// geisterGreedyScore rates move m of the viewer in v: higher is better.
func geisterGreedyScore(v geister.View, m geister.Move) int {
	me := v.Viewer()
	opp := me.Opponent()
	from := v.Square(me, m.Ghost())
	blue := v.GhostColor(me, m.Ghost()) == geister.Blue
	to, onBoard := geisterStep(from, m.Direction())
	if !onBoard {
		return 1 << 20 // an escape wins at once
	}
	myRedLost, myBlueLost := v.Captured(me)
	oppRedLost, oppBlueLost := v.Captured(opp)
	score := 0

	// A capture: the ghost is blue with the odds of the colours left.
	if c, _, ok := v.At(to); ok && c == opp {
		blues, reds := 4-oppBlueLost, 4-oppRedLost // on the board (none escaped: that ends the game)
		pBlue := float64(blues) / float64(max(blues+reds, 1))
		corner := to.Y() == 5 && (to.X() == 0 || to.X() == 5) // an opponent exit: it may leave next
		switch {
		case reds == 1 && pBlue < 1:
			score -= 5000 // taking the last red ghost would lose
		case blues == 1 && pBlue > 0:
			score += int(3000 * pBlue) // it may be the last blue: a win
		default:
			score += int(300*pBlue) - int(120*(1-pBlue))
		}
		if corner {
			score += 1500
		}
		if to.Y() >= 4 {
			score += 100 // a ghost deep in our half is heading for our exits
		}
	}

	// Where the ghost ends up.
	exposed := geisterThreats(v, opp, to, geister.NoSquare)
	if blue {
		score += 40 * (geisterExitDistance(from) - geisterExitDistance(to))
		if exposed > 0 {
			score -= 250
			if myBlueLost == 3 {
				score -= 5000 // the last blue ghost
			}
		}
		if geisterThreats(v, opp, from, geister.NoSquare) > 0 && exposed == 0 {
			score += 120 // out of reach
		}
		if geisterExitDistance(to) == 1 && exposed == 0 {
			score += 400 // on an exit, safe: it leaves next ply
		}
	} else {
		score += 30 * exposed // bait
		if myRedLost == 3 && exposed > 0 {
			score += 200 // one more red taken wins
		}
		if to.Y() < from.Y() {
			score += 10 // toward the opponent, to meet it
		}
	}

	// Guard the back corners: an opponent ghost next to one of our
	// corners may be a blue about to leave.
	for _, corner := range [...]geister.Square{geister.SquareAt(0, 5), geister.SquareAt(5, 5)} {
		if c, _, ok := v.At(corner); ok && c == opp && to != corner {
			score -= 200 // it leaves next ply unless taken
		}
		if from.Y() >= 4 && geisterDistance(from, corner) <= 1 && geisterDistance(to, corner) > 1 && geisterThreats(v, opp, corner, geister.NoSquare) > 0 {
			score -= 80 // do not leave a threatened corner unguarded
		}
	}
	return score
}

// geisterDistance is the number of steps between two squares.
func geisterDistance(a, b geister.Square) int {
	dx, dy := a.X()-b.X(), a.Y()-b.Y()
	return max(dx, -dx) + max(dy, -dy)
}

// newGeisterBest returns the Geister best bot, for one game at a time:
// package search's strongest Geister player, under the ply limit plyLimit
// (0: the GAT's), told the match's control by a keeper as mcts is.
func newGeisterBest(seed uint64, ctl timer.Control, plyLimit int) geister.Player {
	return &geisterMCTS{k: keeper{ctl: ctl}, p: search.GeisterBestPlayer(mctsOptions(seed, ctl, geisterMCTSPlayouts), plyLimit)}
}

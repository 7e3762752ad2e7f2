package search

import (
	"context"
	"errors"
	"math/rand/v2"
	"sync"

	"github.com/botarena/botarena/geister"
)

// GeisterRushPlayer returns a [geister.Player] that races one blue ghost to
// an exit, the plan of the simplest bots: each turn its blue ghost nearest
// to one of its exits, (0,0) and (5,0) in its own frame, by the shortest
// path over the board that steps around its own ghosts (an opponent ghost
// on the way is taken), steps along such a path, or escapes when it stands
// on an exit. When no blue ghost has a path, it plays a random legal move.
// Ties, among ghosts as near and among equally short steps, and its red
// set are drawn from a source seeded by seed. It does not search and
// answers at once; it is a sparring partner that punishes a bot which
// leaves its back corners unguarded.
func GeisterRushPlayer(seed uint64) geister.Player {
	return &geisterRush{rng: rand.New(rand.NewPCG(seed, 0x2A5B))}
}

type geisterRush struct {
	mu  sync.Mutex
	rng *rand.Rand
}

// errGeisterNoMove is a Play on a view with no legal move for the viewer.
var errGeisterNoMove = errors.New("search: no legal move for the viewer")

// Setup draws a red set uniformly.
func (p *geisterRush) Setup(context.Context) (geister.Reds, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return geister.RedsAt(p.rng.IntN(geister.NumReds)), nil
}

// Play steps the blue ghost nearest to an exit toward it.
func (p *geisterRush) Play(_ context.Context, v geister.View) (geister.Move, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	var buf [32]geister.Move
	moves := v.AppendLegalMoves(buf[:0])
	if len(moves) == 0 {
		return geister.NoMove, errGeisterNoMove
	}
	if m, ok := geisterRushMove(v, moves, p.rng); ok {
		return m, nil
	}
	return moves[p.rng.IntN(len(moves))], nil
}

// geisterUnreached is a distance geisterExitDistances gives a square with
// no path to an exit.
const geisterUnreached = 1 << 10

// geisterExitDistances returns, for every square of the viewer's frame
// that none of the viewer's ghosts stands on, the number of moves a ghost
// there needs to leave by one of the viewer's exits, (0,0) and (5,0): the
// steps of the shortest path over squares free of the viewer's ghosts,
// plus the escape. Squares with no path, and the viewer's own squares, get
// geisterUnreached.
func geisterExitDistances(v geister.View) [geister.NumSquares]int {
	var dist [geister.NumSquares]int
	for i := range dist {
		dist[i] = geisterUnreached
	}
	own := v.Ghosts(v.Viewer())
	var queue [geister.NumSquares]geister.Square
	n := 0
	for _, e := range [...]geister.Square{geister.SquareAt(0, 0), geister.SquareAt(5, 0)} {
		if !own.Has(e) {
			dist[e] = 1
			queue[n] = e
			n++
		}
	}
	for i := 0; i < n; i++ {
		s := queue[i]
		for _, t := range geisterNeighbours(s) {
			if t.Valid() && !own.Has(t) && dist[t] == geisterUnreached {
				dist[t] = dist[s] + 1
				queue[n] = t
				n++
			}
		}
	}
	return dist
}

// geisterRushMove returns the rush's move in v among the legal moves: the
// escape of a blue ghost on an exit, else a step of the blue ghost nearest
// to an exit onto a square one move nearer, ties broken by r; false if no
// blue ghost has a path to an exit.
func geisterRushMove(v geister.View, moves []geister.Move, r *rand.Rand) (geister.Move, bool) {
	for _, m := range moves {
		if v.IsEscape(m) {
			return m, true
		}
	}
	dist := geisterExitDistances(v)
	me := v.Viewer()
	best, bestD, ties := geister.NoMove, geisterUnreached, 0
	for _, m := range moves {
		if v.GhostColor(me, m.Ghost()) != geister.Blue {
			continue
		}
		to := v.Target(m)
		if !to.Valid() {
			continue
		}
		switch d := dist[to]; {
		case d < bestD:
			best, bestD, ties = m, d, 1
		case d == bestD && d < geisterUnreached:
			ties++
			if r.IntN(ties) == 0 {
				best = m
			}
		}
	}
	return best, best != geister.NoMove
}

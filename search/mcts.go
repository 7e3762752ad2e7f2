package search

import (
	"context"
	"errors"
	"math"
	"sync"
	"time"
)

// Errors of the searches.
var (
	// ErrNoMoves is returned for a state that is terminal or has no legal
	// move: there is nothing to choose.
	ErrNoMoves = errors.New("search: no legal move")
	// ErrChanceRoot is returned when asked to choose a move at a chance
	// node, where no player chooses.
	ErrChanceRoot = errors.New("search: the root is a chance node")
)

// Defaults of [Options].
const (
	// DefaultPlayouts is the budget of a search whose context has no
	// deadline and whose Options set no Playouts.
	DefaultPlayouts = 10000
	// DefaultMaxNodes bounds each tree when Options.MaxNodes is 0: about
	// 12 MB of nodes for a one-byte move.
	DefaultMaxNodes = 1 << 18
	// DefaultExploration is the UCB exploration constant when
	// Options.Exploration is 0, for payoffs scaled to [0, 1].
	DefaultExploration = 0.7
	// rerootDepth is how many plies below the old root a reused tree is
	// searched for the new one: a move, its chance outcome, the reply and
	// its outcome.
	rerootDepth = 4
	// checkEvery is how many playouts run between two looks at the
	// context's Err (the clock is read before every playout).
	checkEvery = 32
)

// Options configure [MCTS] and [ISMCTS]. The zero value is usable.
type Options struct {
	// Playouts is the budget of one search, over all workers: it stops
	// after that many playouts, or at the context's deadline, whichever
	// comes first. 0 means no budget: the deadline alone, or
	// [DefaultPlayouts] if the context has none.
	Playouts int
	// Seed seeds the random sources (math/rand/v2's PCG, one stream per
	// worker). With a playout budget and no deadline, the same seed gives
	// the same search.
	Seed uint64
	// Workers is the number of trees searched in parallel (root
	// parallelism), each by its own goroutine; their root statistics are
	// summed. 0 or 1 means one tree, searched by the caller's goroutine.
	Workers int
	// Exploration is the UCB constant c in q + c*sqrt(ln N / n), payoffs
	// being scaled to [0, 1]; 0 means [DefaultExploration].
	Exploration float64
	// MaxNodes bounds each tree; once full, iterations play out from its
	// leaves. 0 means [DefaultMaxNodes].
	MaxNodes int
	// NoReuse throws the tree away between searches, instead of keeping the
	// subtree of the new root when it is a few plies below the old one.
	NoReuse bool
	// PlayoutDepth, with an Eval set on the search ([MCTS].Eval,
	// [ISMCTS].Eval), cuts each playout off after that many plies (a chance
	// outcome not counting) and scores the state it reached by the Eval
	// instead of playing on to the end. 0, or no Eval, plays every playout
	// out to the end.
	PlayoutDepth int
}

func (o Options) exploration() float64 {
	if o.Exploration > 0 {
		return o.Exploration
	}
	return DefaultExploration
}

func (o Options) maxNodes() int {
	if o.MaxNodes > 0 {
		return min(o.MaxNodes, math.MaxInt32)
	}
	return DefaultMaxNodes
}

func (o Options) workers() int { return max(1, o.Workers) }

// Result is the outcome of a search.
type Result[M comparable] struct {
	Move     M       // the best move: the root's most visited child
	Visits   int     // the visits of Move, over all trees
	Value    float64 // the mean payoff of Move for the player to move, in [-1, 1]
	Playouts int     // the playouts of this search, over all trees
	Moves    []MoveStat[M]
}

// MoveStat is the statistics of one root move, summed over the trees.
type MoveStat[M comparable] struct {
	Move   M
	Visits int
	Value  float64 // the mean payoff for the player to move, in [-1, 1]
}

// MCTS is Monte Carlo tree search with UCT selection over a [Game] (with
// chance nodes if it is a [ChanceGame]): each playout descends the tree by
// the upper confidence bound, expands one node, and plays out to the end
// with the [Policy]. Between searches it keeps the subtree of the new root
// when that is the position a few plies after the old one (the move chosen
// and the opponent's reply), so a player's tree carries over.
//
// An MCTS is not safe for concurrent use; each search runs Options.Workers
// goroutines of its own.
type MCTS[S comparable, M comparable, G Game[S, M]] struct {
	// Policy plays the playouts; nil is uniform random. Set it before a
	// search.
	Policy Policy[S, M]
	// Eval, with Options.PlayoutDepth, scores the playouts cut off at that
	// depth; nil plays every playout to the end. Set it before a search.
	Eval Eval[S]

	g     G
	opts  Options
	trees []*tree[S, M, G]
	root  S
	valid bool // root holds the state the trees were searched from
}

// NewMCTS returns a search over game g.
func NewMCTS[S comparable, M comparable, G Game[S, M]](g G, o Options) *MCTS[S, M, G] {
	m := &MCTS[S, M, G]{g: g, opts: o}
	for i := range o.workers() {
		m.trees = append(m.trees, newTree[S, M](g, o, o.Seed, i))
	}
	return m
}

// Reset forgets the tree, so that the next search starts afresh.
func (m *MCTS[S, M, G]) Reset() {
	for _, t := range m.trees {
		t.reset()
	}
	m.valid = false
}

// Search searches from s until the playout budget is spent or ctx is done,
// and returns the best move. It fails with [ErrNoMoves] if s is terminal and
// [ErrChanceRoot] at a chance node; a search that ctx stops before its first
// playout still returns a legal move.
func (m *MCTS[S, M, G]) Search(ctx context.Context, s S) (Result[M], error) {
	if err := checkRoot(m.g, s); err != nil {
		return Result[M]{}, err
	}
	for _, t := range m.trees {
		t.policy, t.eval = m.Policy, m.Eval
		if m.opts.NoReuse || !m.valid || !t.reroot(m.root, s, rerootDepth, eqComparable[S]) {
			t.reset()
		}
	}
	m.root, m.valid = s, true
	return run(ctx, m.g, m.trees, m.opts, func(*tree[S, M, G]) S { return s })
}

func eqComparable[S comparable](a, b S) bool { return a == b }

// checkRoot returns the error of a root without a choice.
func checkRoot[S any, M comparable, G Game[S, M]](g G, s S) error {
	switch {
	case g.IsTerminal(s):
		return ErrNoMoves
	case g.ToMove(s) == Chance:
		return ErrChanceRoot
	}
	return nil
}

// run runs the trees from the states state gives them (s, or a fresh
// determinization per iteration) and sums their root statistics.
func run[S any, M comparable, G Game[S, M]](ctx context.Context, g G, trees []*tree[S, M, G], o Options, state func(*tree[S, M, G]) S) (Result[M], error) {
	budget := o.Playouts
	if _, ok := ctx.Deadline(); !ok && budget <= 0 {
		budget = DefaultPlayouts
	}
	// The clock is read before every playout (a PDD playout from the
	// opening takes most of a millisecond: 32 of them would overrun the
	// hard limit by 20 ms); the context, for a cancellation, every
	// checkEvery playouts.
	stopAt := softOf(ctx)
	if d, ok := ctx.Deadline(); ok && (stopAt.IsZero() || d.Before(stopAt)) {
		stopAt = d
	}
	timed := !stopAt.IsZero()
	done := make([]int, len(trees))
	work := func(i int) {
		t := trees[i]
		quota := -1
		if budget > 0 {
			quota = budget / len(trees)
			if i < budget%len(trees) {
				quota++
			}
		}
		for n := 0; n != quota; n++ {
			if n%checkEvery == 0 && ctx.Err() != nil || n > 0 && timed && !time.Now().Before(stopAt) {
				break
			}
			t.iterate(state(t))
			done[i]++
		}
	}
	if len(trees) == 1 {
		work(0)
	} else {
		var wg sync.WaitGroup
		for i := range trees {
			wg.Go(func() { work(i) })
		}
		wg.Wait()
	}
	res := Result[M]{}
	for _, n := range done {
		res.Playouts += n
	}
	index := map[M]int{}
	var sums []float64
	for _, t := range trees {
		for c := t.nodes[0].child; c != noNode; c = t.nodes[c].sibling {
			nd := &t.nodes[c]
			i, ok := index[nd.move]
			if !ok {
				i = len(res.Moves)
				index[nd.move] = i
				res.Moves = append(res.Moves, MoveStat[M]{Move: nd.move})
				sums = append(sums, 0)
			}
			res.Moves[i].Visits += int(nd.visits)
			sums[i] += nd.sum
		}
	}
	best := -1
	for i := range res.Moves {
		if v := res.Moves[i].Visits; v > 0 {
			res.Moves[i].Value = sums[i] / float64(v)
		}
		if best < 0 || res.Moves[i].Visits > res.Moves[best].Visits ||
			res.Moves[i].Visits == res.Moves[best].Visits && res.Moves[i].Value > res.Moves[best].Value {
			best = i
		}
	}
	if best < 0 {
		// No playout reached a child: take the first legal move.
		moves := g.AppendMoves(state(trees[0]), nil)
		if len(moves) == 0 {
			return res, ErrNoMoves
		}
		res.Move = moves[0]
		return res, nil
	}
	res.Move, res.Visits, res.Value = res.Moves[best].Move, res.Moves[best].Visits, res.Moves[best].Value
	return res, nil
}

// ISMCTS is single-observer information-set Monte Carlo tree search over a
// game played from views (Cowling, Powley and Whitehouse, 2012): one tree
// whose nodes are the searching player's information sets, reached by
// public moves; each iteration draws a determinization of the root view and
// descends only through the moves legal in it, a child's availability
// replacing its parent's visits in the upper confidence bound. The searches
// start afresh at every call.
//
// An ISMCTS is not safe for concurrent use; each search runs Options.Workers
// goroutines of its own.
type ISMCTS[V any, S any, M comparable, G InfoSetGame[V, S, M]] struct {
	// Policy plays the playouts; nil is uniform random.
	Policy Policy[S, M]
	// Eval, with Options.PlayoutDepth, scores the playouts cut off at that
	// depth, as in [MCTS]; nil plays every playout to the end.
	Eval Eval[S]

	g     G
	opts  Options
	trees []*tree[S, M, G]
}

// NewISMCTS returns an information-set search over game g.
func NewISMCTS[V any, S any, M comparable, G InfoSetGame[V, S, M]](g G, o Options) *ISMCTS[V, S, M, G] {
	m := &ISMCTS[V, S, M, G]{g: g, opts: o}
	for i := range o.workers() {
		t := newTree[S, M](g, o, o.Seed, i)
		t.is = true
		m.trees = append(m.trees, t)
	}
	return m
}

// Search searches from the view v until the playout budget is spent or ctx
// is done, and returns the best move for the viewer, who must be to move.
func (m *ISMCTS[V, S, M, G]) Search(ctx context.Context, v V) (Result[M], error) {
	if err := checkRoot(m.g, m.g.Determinize(v, m.trees[0].rng)); err != nil {
		return Result[M]{}, err
	}
	for _, t := range m.trees {
		t.policy, t.eval = m.Policy, m.Eval
		t.reset()
	}
	return run(ctx, m.g, m.trees, m.opts, func(t *tree[S, M, G]) S { return m.g.Determinize(v, t.rng) })
}

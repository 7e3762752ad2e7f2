package search

import (
	"context"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/botarena/botarena/darkchess"
	"github.com/botarena/botarena/geister"
	"github.com/botarena/botarena/othello"
	"github.com/botarena/botarena/pdd"
)

// MaxMargin bounds the time a player keeps back from its context's deadline
// to send its move: a tenth of the time left, at most MaxMargin.
const MaxMargin = 50 * time.Millisecond

// withMargin returns ctx with its deadline, if any, brought forward by the
// margin that leaves a player time to answer.
func withMargin(ctx context.Context) (context.Context, context.CancelFunc) {
	d, ok := ctx.Deadline()
	if !ok {
		return ctx, func() {}
	}
	margin := min(time.Until(d)/10, MaxMargin)
	return context.WithDeadline(ctx, d.Add(-margin))
}

// searchPlayer runs an MCTS for a player, one search at a time.
type searchPlayer[S comparable, M comparable, G Game[S, M]] struct {
	mu sync.Mutex
	m  *MCTS[S, M, G]
}

func (p *searchPlayer[S, M, G]) search(ctx context.Context, s S) (M, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	ctx, cancel := withMargin(ctx)
	defer cancel()
	res, err := p.m.Search(ctx, s)
	return res.Move, err
}

// OthelloPlayer returns an [othello.Player] that chooses its moves by
// [MCTS] with the options o, searching until o's playout budget is spent or
// shortly before the deadline of Play's context (see [MaxMargin]). It keeps
// its tree from one move to the next.
func OthelloPlayer(o Options) othello.Player {
	p := &searchPlayer[othello.Position, othello.Move, Othello]{m: NewMCTS(Othello{}, o)}
	return othello.PlayerFunc(p.search)
}

// PDDPlayer returns a [pdd.Player] that chooses its moves by [MCTS], as
// [OthelloPlayer] does.
func PDDPlayer(o Options) pdd.Player {
	p := &searchPlayer[pdd.Position, pdd.Move, PDD]{m: NewMCTS(PDD{}, o)}
	return pdd.PlayerFunc(p.search)
}

// DarkChessPlayer returns a [darkchess.Player] that chooses its plies by
// [MCTS] over the view's position, each flip a chance node (for dark chess
// this is information-set search: the view hides only the deal). It takes
// the no-capture-no-flip limit from the view's rules when they give one, and
// keeps its tree from one ply to the next; otherwise it behaves as
// [OthelloPlayer].
func DarkChessPlayer(o Options) darkchess.Player {
	var mu sync.Mutex
	var p *searchPlayer[DarkChessState, darkchess.Ply, DarkChess]
	return darkchess.PlayerFunc(func(ctx context.Context, v darkchess.View) (darkchess.Move, error) {
		mu.Lock()
		g := DarkChess{NoProgressPlies: v.Rules.NoProgressPlies}
		if p == nil || p.m.g != g {
			p = &searchPlayer[DarkChessState, darkchess.Ply, DarkChess]{m: NewMCTS(g, o)}
		}
		sp := p
		mu.Unlock()
		ply, err := sp.search(ctx, g.Determinize(v, nil))
		return ply.Move, err
	})
}

// GeisterPlayer returns a [geister.Player] that chooses its moves by
// [ISMCTS] over its views, the opponent's colours determinized afresh in
// every iteration, until o's playout budget is spent or shortly before the
// deadline of Play's context (see [MaxMargin]). It draws the colours by what
// it has seen the opponent's ghosts do in the game: a ghost moved next to
// one of its own, where it can be taken, is likelier red; one that stepped
// out of reach toward its exits, likelier blue. Its playouts escape when
// they can, take the opponent's ghosts on the exits and walk blue ghosts
// toward them out of the opponent's reach, with randomness. Its red set is drawn uniformly from a source
// seeded by o.Seed. plyLimit is the game's ply limit ([geister.Rules]); 0
// means the GAT's.
func GeisterPlayer(o Options, plyLimit int) geister.Player {
	b := &geisterBelief{}
	b.reset()
	m := NewISMCTS(geisterBeliefGame{Geister: Geister{PlyLimit: plyLimit}, b: b}, o)
	m.Policy = geisterPlayout
	return &geisterPlayer{m: m, b: b, rng: rand.New(rand.NewPCG(o.Seed, 0x5E7))}
}

type geisterPlayer struct {
	mu  sync.Mutex
	m   *ISMCTS[geister.View, geister.Position, geister.Move, geisterBeliefGame]
	b   *geisterBelief // m's determinizer, written between searches
	rng *rand.Rand
}

// Setup draws a red set uniformly, and forgets the previous game.
func (p *geisterPlayer) Setup(context.Context) (geister.Reds, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.b.reset()
	return geister.RedsAt(p.rng.IntN(geister.NumReds)), nil
}

// Play reads the opponent's last move into the belief and searches v.
func (p *geisterPlayer) Play(ctx context.Context, v geister.View) (geister.Move, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.b.observe(v)
	ctx, cancel := withMargin(ctx)
	defer cancel()
	res, err := p.m.Search(ctx, v)
	return res.Move, err
}

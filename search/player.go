package search

import (
	"context"
	"math/rand/v2"
	"sync"

	"github.com/botarena/botarena/darkchess"
	"github.com/botarena/botarena/geister"
	"github.com/botarena/botarena/othello"
	"github.com/botarena/botarena/pdd"
)

// searchPlayer runs an MCTS for a player, one search at a time, each ply
// budgeted by its clock from the plan plan gives the ply's state.
type searchPlayer[S comparable, M comparable, G Game[S, M]] struct {
	mu    sync.Mutex
	m     *MCTS[S, M, G]
	clock plyClock
	plan  func(s S, last int) plyPlan
}

func (p *searchPlayer[S, M, G]) search(ctx context.Context, s S) (M, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	ctx, done := p.clock.start(ctx, p.plan(s, p.clock.progress))
	defer done()
	res, err := p.m.Search(ctx, s)
	return res.Move, err
}

// othelloPlan is the plan of an Othello ply from p: its discs only grow
// within a game, and each side has at most as many moves left as there
// are empty squares, about half of them its own.
func othelloPlan(p othello.Position, last int) plyPlan {
	discs := p.Board().Count()
	empty := p.Empty().Count()
	return plyPlan{newGame: discs <= 5 || discs <= last, progress: discs, movesToGo: max((empty+1)/2, 1), maxLeft: max(empty, 1)}
}

// pddPlan is the plan of a PDD ply from p: its tiles and bridges only grow
// within a game.
func pddPlan(p pdd.Position, last int) plyPlan {
	n := p.Tiles(pdd.White).Count() + p.Tiles(pdd.Black).Count() + p.NumBridges()
	return plyPlan{newGame: n == 0 || n <= last, progress: n}
}

// darkChessPlan is the plan of a dark chess ply from p: its flips and
// captures only grow within a game, and a game opens with at most one
// piece face up and none taken.
func darkChessPlan(p darkchess.Position, last int) plyPlan {
	down, empty := p.FaceDown().Count(), p.Empty().Count()
	progress := empty - down
	return plyPlan{newGame: empty == 0 && down >= 31 || progress < last, progress: progress, movesToGo: darkChessMovesToGo}
}

// darkChessMovesToGo is the number of own plies a dark chess player shares
// its time left among: its games run long.
const darkChessMovesToGo = 50

// OthelloPlayer returns an [othello.Player] that chooses its moves by
// [MCTS] with the options o. It keeps its tree from one move to the next.
//
// It keeps time by itself, with a [timer.Manager] for each game (a new
// game is one whose position has fewer discs than the last it played, or
// an opening one): each move gets a budget from the [timer.Status] on
// Play's context, which the protocols attach, the time left shared among
// the moves still to come (about half the empty squares, with the latency
// of every later one kept back). Without a Status, a deadline on the
// context is the caller's own budget for the move: the search runs to it,
// less [MaxMargin] at most. The search
// stops at the budget's soft target, checked every few playouts, and
// answers at its hard limit at the latest, with the best move so far; o's
// playout budget still stops it sooner. With no time limit at all (no
// control told and no deadline), it plays o's playout budget
// ([DefaultPlayouts] when o sets none), as before.
//
// Use one player for one game at a time: its time manager and tree
// follow one game. A bot with another time policy changes the Status
// before Play reads it ([timer.StatusFrom], then [timer.WithStatus]: a
// per-move cap on top of the clock, say), passes a context with its own
// deadline and no Status, or one with neither and a playout budget in o;
// one that runs [MCTS] itself uses [WithBudget].
func OthelloPlayer(o Options) othello.Player {
	p := &searchPlayer[othello.Position, othello.Move, Othello]{m: NewMCTS(Othello{}, o), plan: othelloPlan}
	return othello.PlayerFunc(p.search)
}

// PDDPlayer returns a [pdd.Player] that chooses its moves by [MCTS], as
// [OthelloPlayer] does, keeping time as it does: a new game is one with
// fewer tiles and bridges than the last position it played, and the time
// left is shared among [timer.DefaultMovesToGo] moves. Under the PDD
// platform's per-move limit each move gets that limit, less the latency
// margin.
func PDDPlayer(o Options) pdd.Player {
	p := &searchPlayer[pdd.Position, pdd.Move, PDD]{m: NewMCTS(PDD{}, o), plan: pddPlan}
	return pdd.PlayerFunc(p.search)
}

// DarkChessPlayer returns a [darkchess.Player] that chooses its plies by
// [MCTS] over the view's position, each flip a chance node (for dark chess
// this is information-set search: the view hides only the deal). It takes
// the no-capture-no-flip limit from the view's rules when they give one, and
// keeps its tree from one ply to the next; otherwise it behaves as
// [OthelloPlayer], keeping time as it does: a new game is an opening
// position (no piece taken, at most one face up) or one with fewer flips
// and captures than the last it played, and the time left is shared among
// 50 plies, as dark chess games run long.
func DarkChessPlayer(o Options) darkchess.Player {
	var mu sync.Mutex
	var p *searchPlayer[DarkChessState, darkchess.Ply, DarkChess]
	plan := func(s DarkChessState, last int) plyPlan { return darkChessPlan(s.Position(), last) }
	return darkchess.PlayerFunc(func(ctx context.Context, v darkchess.View) (darkchess.Move, error) {
		mu.Lock()
		g := DarkChess{NoProgressPlies: v.Rules.NoProgressPlies}
		if p == nil || p.m.g != g {
			p = &searchPlayer[DarkChessState, darkchess.Ply, DarkChess]{m: NewMCTS(g, o), plan: plan}
		}
		sp := p
		mu.Unlock()
		ply, err := sp.search(ctx, g.Determinize(v, nil))
		return ply.Move, err
	})
}

// GeisterPlayer returns a [geister.Player] that chooses its moves by
// [ISMCTS] over its views, the opponent's colours determinized afresh in
// every iteration. It keeps time as [OthelloPlayer] does: a new game starts
// at Setup, or with a view of another side or not past the last one it
// played, and the time left is shared among at most the moves the ply
// limit leaves it. It draws the colours by what
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
	mu    sync.Mutex
	m     *ISMCTS[geister.View, geister.Position, geister.Move, geisterBeliefGame]
	b     *geisterBelief // m's determinizer, written between searches
	rng   *rand.Rand
	clock plyClock
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
	b := p.b
	newGame := !b.have || v.Ply() <= b.prev.Ply() || v.Viewer() != b.prev.Viewer()
	left := (p.m.g.limit() - v.Ply() + 1) / 2
	ctx, done := p.clock.start(ctx, plyPlan{newGame: newGame, progress: v.Ply(), maxLeft: max(left, 1)})
	defer done()
	b.observe(v)
	res, err := p.m.Search(ctx, v)
	return res.Move, err
}

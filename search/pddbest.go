package search

import (
	"cmp"
	"context"
	"math"
	"slices"
	"sync"

	"github.com/botarena/botarena/pdd"
)

// Parameters of [PDDBestPlayer].
const (
	// pddBeam is the number of moves searched in each position.
	pddBeam = 8
	// pddCheckEvery is how many moves a scan scores between two looks at
	// the search's deadline.
	pddCheckEvery = 64
	// pddEvalGain maps the difference of two sides' pddBestValue (100 a
	// point) into (-1, 1): a point ahead is worth about a third of a win.
	pddEvalGain = 0.3
	// pddReachWeight is what a point a side could reach ([pddReach]) adds
	// to its pddBestValue, in hundredths of a point.
	pddReachWeight = 40
	// The share of an island that a group of 3, 2 and 1 tiles with room
	// to grow counts for in [pddReach].
	pddReach3, pddReach2, pddReach1 = 0.6, 0.35, 0.15
)

// PDDBestPlayer returns the strongest [pdd.Player] of this package, the
// one arena plays as its built-in "best" (and "alphabeta"): [AlphaBeta]
// with the options o over a selective PDD, each position's moves cut to
// the 8 best by the difference of the two sides' values one ply ahead, the
// leaves scored by that difference squashed into (-1, 1) (a point ahead is
// about a third of a win). A side's value is its [PDDValue] plus 0.4 for
// each point it could reach: its groups joined into networks by its
// bridges and by the bridges it could still build, each group counted as
// an island or, when it can still grow, as a share of one by its size.
// Games between these bots are decided by how many islands end up in one
// network (n islands of a network score n(n+1)/2), which a score of the
// board as it stands does not see coming. PDD positions have hundreds of
// moves (up to [pdd.MaxMoves]), too many for playouts to tell apart within
// a second; a look at the opponent's best answers to one's best moves is
// what a greedy player lacks. A position's moves are scored until the
// search's time is up, the best of those scored kept. (PDD is neither a
// [Hasher] nor a [Remainer]: o's TableSize and Solve change nothing.)
//
// It keeps time as [PDDPlayer] does, with a [timer.Manager] for each game
// (a new game is one with fewer tiles and bridges than the last position
// it played): each move's budget comes from the [timer.Status] on Play's
// context, which the per-move runner of the PDD platform attaches (its
// budget for the move), its iterative deepening beginning no new depth
// past the soft target and answering by the hard limit with the best move
// so far; a bare deadline is the caller's budget for the move. With no time
// limit at all it searches to o.Depth ([DefaultMaxDepth] when 0) within
// o's node budget ([DefaultNodes] when o sets none): with a Depth, its
// moves depend only on the position. Use one player for one game at a
// time.
func PDDBestPlayer(o DepthOptions) pdd.Player {
	var mu sync.Mutex
	var clock plyClock
	g := newPDDSelective(nil, pddBeam)
	a := NewAlphaBeta(g, pddBestEval, o)
	return pdd.PlayerFunc(func(ctx context.Context, p pdd.Position) (pdd.Move, error) {
		mu.Lock()
		defer mu.Unlock()
		ctx, done := clock.start(ctx, pddPlan(p, clock.progress))
		defer done()
		g.scratch.ctx = ctx
		defer func() { g.scratch.ctx = nil }()
		res, err := a.Search(ctx, p)
		return res.Move, err
	})
}

// PDDValue is what arena's greedy player counts c's side of p worth, and
// the board part of [PDDBestPlayer]'s value, in hundredths of a point: its
// score (a point 100, an island 30, a bridge 2), plus what its groups may
// still become: 14 for a group of 3 tiles and 5 for a group of 2 that can
// still grow into an island, 1 for a lone tile with room. A group with no
// free square next to it counts for nothing more. It sees only the board
// as it stands, not the networks a side could still build; it is a start
// for one's own evaluation.
func PDDValue(p pdd.Position, c pdd.Color) float64 {
	s := p.Score(c)
	v := 100*float64(s.Points) + 30*float64(s.Islands) + 2*float64(s.Bridges)
	tiles := p.Tiles(c)
	free := p.Free()
	for rest := tiles; !rest.IsEmpty(); {
		group := tiles.Group(firstSquare(rest))
		rest = rest.Without(group)
		if group.Neighbors().Intersect(free).IsEmpty() {
			continue // dead weight: it cannot grow
		}
		switch group.Count() {
		case 4:
		case 3:
			v += 14
		case 2:
			v += 5
		default:
			v++
		}
	}
	return v
}

// firstSquare returns the lowest square of the non-empty b.
func firstSquare(b pdd.Bitboard) pdd.Square {
	for s := range b.Squares() {
		return s
	}
	return 0
}

// pddBestValue is [PDDBestPlayer]'s value of c's side of p, in
// hundredths of a point: its [PDDValue] plus pddReachWeight for each point
// it could reach ([pddReach]).
func pddBestValue(p pdd.Position, c pdd.Color) float64 {
	board, reach := pddSide(p, c)
	return board + pddReachWeight*reach
}

// pddBestEval scores a leaf of [PDDBestPlayer]'s search for player: the
// difference of the two sides' pddBestValue, squashed into (-1, 1) by
// pddEvalGain.
func pddBestEval(q pdd.Position, player int) float64 {
	me := pdd.White
	if player == 1 {
		me = pdd.Black
	}
	return math.Tanh(pddEvalGain * (pddBestValue(q, me) - pddBestValue(q, me.Opponent())) / 100)
}

// pddSelective is [PDD] with each position's moves cut to the beam best
// by the difference of the two sides' pddBestValue one ply ahead, best first. Its scratch
// is reused from one call to the next: one search at a time.
type pddSelective struct {
	PDD
	beam    int
	scratch *pddScratch
}

type pddScratch struct {
	// ctx ends the search: a position's moves are scored until it is done
	// (a PDD position has up to pdd.MaxMoves), the best of those scored
	// kept, and the search stops at its next node. nil: never.
	ctx    context.Context
	moves  []pdd.Move
	scored []pddScored
}

type pddScored struct {
	m pdd.Move
	v float64
}

// newPDDSelective returns the selective PDD of beam moves a position, its
// scans cut short when ctx (nil: none) is done.
func newPDDSelective(ctx context.Context, beam int) pddSelective {
	return pddSelective{beam: beam, scratch: &pddScratch{ctx: ctx, moves: make([]pdd.Move, 0, pdd.MaxMoves)}}
}

// AppendMoves appends the beam best moves of p by the difference of the
// two sides' pddBestValue one ply ahead, best first (ties in move order), of those it
// scored before its context ended.
func (g pddSelective) AppendMoves(p pdd.Position, dst []pdd.Move) []pdd.Move {
	sc := g.scratch
	sc.moves = p.AppendLegalMoves(sc.moves[:0])
	if sc.ctx != nil && sc.ctx.Err() != nil && len(sc.moves) > 0 {
		// Out of time: the search stops at its next look at the clock.
		return append(dst, sc.moves[0])
	}
	me := p.Turn()
	opp := me.Opponent()
	sc.scored = sc.scored[:0]
	for i, m := range sc.moves {
		if i%pddCheckEvery == pddCheckEvery-1 && sc.ctx != nil && sc.ctx.Err() != nil {
			break
		}
		q := p.PlayUnchecked(m)
		sc.scored = append(sc.scored, pddScored{m, pddBestValue(q, me) - pddBestValue(q, opp)})
	}
	slices.SortStableFunc(sc.scored, func(a, b pddScored) int { return cmp.Compare(b.v, a.v) })
	for _, s := range sc.scored[:min(g.beam, len(sc.scored))] {
		dst = append(dst, s.m)
	}
	return dst
}

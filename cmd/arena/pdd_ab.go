package main

import (
	"cmp"
	"context"
	"math"
	"slices"

	"github.com/botarena/botarena/pdd"
	"github.com/botarena/botarena/search"
)

// The PDD alphabeta bot is package search's αβ over a selective PDD: each
// position's moves cut to the pddBeam best by pddEval one ply ahead, the
// leaves scored by pddEval's difference. PDD positions have hundreds of
// moves (up to pdd.MaxMoves), too many for playouts to tell apart within a
// second; a look at the opponent's best answers to one's best moves is what
// greedy lacks.
const (
	// pddBeam is the number of moves searched in each position.
	pddBeam = 8
	// pddABDepth is the depth of the search under a control with no limit
	// (-time none), so that games replay from the seed; under a limit it
	// deepens until the time is up.
	pddABDepth = 2
	// pddCheckEvery is how many moves a scan scores between two looks at
	// the search's deadline.
	pddCheckEvery = 64
	// pddEvalGain maps pddEval's difference (100 a point) into (-1, 1):
	// a point ahead is worth about a third of a win.
	pddEvalGain = 0.3
)

// pddSelective is search.PDD with each position's moves cut to the beam
// best by pddEval one ply ahead, best first. Its scratch is reused from
// one call to the next: one search at a time.
type pddSelective struct {
	search.PDD
	beam    int
	scratch *pddScratch
}

type pddScratch struct {
	// ctx ends the search: a position's moves are scored until it is done
	// (a PDD position has up to pdd.MaxMoves), the best of those scored
	// kept, and the search stops at its next node.
	ctx    context.Context
	moves  []pdd.Move
	scored []pddScored
	groups []pddGroupBonus
}

type pddScored struct {
	m pdd.Move
	v float64
}

// pddGroupBonus is a group's bonus in pddEval and the free squares it may
// grow into: it loses the bonus when they are all taken.
type pddGroupBonus struct {
	room  pdd.Bitboard
	bonus float64
}

// newPDDSelective returns the selective PDD of beam moves a position, its
// scans cut short when ctx is done.
func newPDDSelective(ctx context.Context, beam int) pddSelective {
	return pddSelective{beam: beam, scratch: &pddScratch{ctx: ctx, moves: make([]pdd.Move, 0, pdd.MaxMoves)}}
}

// AppendMoves appends the beam best moves of p by pddEval's difference one
// ply ahead, best first (ties in move order), of those it scored before
// its context ended.
func (g pddSelective) AppendMoves(p pdd.Position, dst []pdd.Move) []pdd.Move {
	sc := g.scratch
	sc.moves = p.AppendLegalMoves(sc.moves[:0])
	if sc.ctx != nil && sc.ctx.Err() != nil && len(sc.moves) > 0 {
		// Out of time: the search stops at its next look at the clock.
		return append(dst, sc.moves[0])
	}
	me := p.Turn()
	opp := me.Opponent()
	// The opponent's tiles and score stay as they are after most moves:
	// only the room of its groups shrinks.
	oppBase := pddEval(p, opp)
	sc.groups = pddBonuses(p, opp, sc.groups[:0])
	oppTiles, free := p.Tiles(opp), p.Free()
	sc.scored = sc.scored[:0]
	for i, m := range sc.moves {
		if i%pddCheckEvery == pddCheckEvery-1 && sc.ctx != nil && sc.ctx.Err() != nil {
			break
		}
		q := p.PlayUnchecked(m)
		var oppV float64
		if q.Tiles(opp) == oppTiles {
			oppV = oppBase
			taken := free.Without(q.Free())
			for _, gr := range sc.groups {
				if gr.room.Without(taken).IsEmpty() {
					oppV -= gr.bonus
				}
			}
		} else {
			oppV = pddEval(q, opp)
		}
		sc.scored = append(sc.scored, pddScored{m, pddEval(q, me) - oppV})
	}
	slices.SortStableFunc(sc.scored, func(a, b pddScored) int { return cmp.Compare(b.v, a.v) })
	for _, s := range sc.scored[:min(g.beam, len(sc.scored))] {
		dst = append(dst, s.m)
	}
	return dst
}

// pddABEval scores a leaf of the alphabeta search for player: pddEval's
// difference, squashed into (-1, 1) by pddEvalGain.
func pddABEval(q pdd.Position, player int) float64 {
	me := pdd.White
	if player == 1 {
		me = pdd.Black
	}
	return math.Tanh(pddEvalGain * (pddEval(q, me) - pddEval(q, me.Opponent())) / 100)
}

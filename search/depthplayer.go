package search

import (
	"context"
	"sync"

	"github.com/botarena/botarena/darkchess"
	"github.com/botarena/botarena/othello"
)

// OthelloAlphaBetaPlayer returns an [othello.Player] that chooses its moves
// by [AlphaBeta] with [OthelloEval] and the options o, searching until o's
// node budget is spent or shortly before the deadline of Play's context (see
// [MaxMargin]), and solving the endgame exactly from o.Solve empty squares
// ([DefaultSolve]). It keeps its transposition table from one move to the
// next. A forced move (a pass, or a single placement) is played at once.
func OthelloAlphaBetaPlayer(o DepthOptions) othello.Player {
	var mu sync.Mutex
	a := NewAlphaBeta(Othello{}, OthelloEval, o)
	return othello.PlayerFunc(func(ctx context.Context, p othello.Position) (othello.Move, error) {
		if p.NumLegalMoves() == 1 {
			var buf [1]othello.Move
			return p.AppendLegalMoves(buf[:0])[0], nil
		}
		mu.Lock()
		defer mu.Unlock()
		ctx, cancel := withMargin(ctx)
		defer cancel()
		res, err := a.Search(ctx, p)
		return res.Move, err
	})
}

// DarkChessExpectimaxPlayer returns a [darkchess.Player] that chooses its
// plies by [Expectimax] with [DarkChessEval] and the options o over the
// view's position, each flip a chance node, its moves ordered
// ([DarkChess].Ordered), searching until o's node budget is spent or
// shortly before the deadline of Play's context (see [MaxMargin]). It
// remembers the positions of its game ([DarkChessRepeats], with
// [DefaultContempt]), so that it does not walk into the repetition draw
// when ahead: use one player for one game at a time (a new game, starting
// with a flip, empties its memory). It takes the no-capture-no-flip limit
// from the view's rules when they give one. A forced ply is played at
// once.
func DarkChessExpectimaxPlayer(o DepthOptions) darkchess.Player {
	var mu sync.Mutex
	var seen DarkChessHistory
	var x *Expectimax[DarkChessState, darkchess.Ply, DarkChessRepeats]
	return darkchess.PlayerFunc(func(ctx context.Context, v darkchess.View) (darkchess.Move, error) {
		mu.Lock()
		defer mu.Unlock()
		g := DarkChess{NoProgressPlies: v.Rules.NoProgressPlies, Ordered: true}
		s := g.Determinize(v, nil)
		seen.Searching(s)
		if v.NumLegalMoves() == 1 {
			var buf [1]darkchess.Move
			m := v.AppendLegalMoves(buf[:0])[0]
			seen.Played(m)
			return m, nil
		}
		if x == nil || x.g.DarkChess != g {
			x = NewExpectimax(DarkChessRepeats{DarkChess: g, History: &seen, Contempt: DefaultContempt}, DarkChessEval, o)
		}
		ctx, cancel := withMargin(ctx)
		defer cancel()
		res, err := x.Search(ctx, s)
		if err == nil {
			seen.Played(res.Move.Move)
		}
		return res.Move.Move, err
	})
}

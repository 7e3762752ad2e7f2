package search

import (
	"context"
	"sync"

	"github.com/botarena/botarena/darkchess"
	"github.com/botarena/botarena/othello"
)

// OthelloAlphaBetaPlayer returns an [othello.Player] that chooses its moves
// by [AlphaBeta] with [OthelloEval] and the options o, solving the endgame
// exactly from o.Solve empty squares ([DefaultSolve]). It keeps its
// transposition table from one move to the next. A forced move (a pass, or
// a single placement) is played at once.
//
// It keeps time as [OthelloPlayer] does, with a [timer.Manager] for each
// game: it begins no iteration of its iterative deepening once the
// move's soft target has passed, and answers at the hard limit at the
// latest with the best move so far; o's node budget still stops it
// sooner. With no time limit at all (no control told and no deadline),
// it searches o's node budget ([DefaultNodes] when o sets none), as
// before. Use one player for one game at a time. A bot with another time
// policy changes the Status before Play reads it, passes a context with
// its own deadline and no Status, or one with neither and a node budget
// in o (see [OthelloPlayer]).
func OthelloAlphaBetaPlayer(o DepthOptions) othello.Player {
	a := NewAlphaBeta(Othello{}, OthelloEval, o)
	return othelloDepthPlayer(func(ctx context.Context, p othello.Position) (othello.Move, error) {
		res, err := a.Search(ctx, p)
		return res.Move, err
	})
}

// othelloDepthPlayer makes an Othello player of a depth-first search: a
// forced move is played at once; otherwise search runs, one call at a
// time, on ctx with the move's budget from a plyClock of the player's own.
func othelloDepthPlayer(search func(context.Context, othello.Position) (othello.Move, error)) othello.Player {
	var mu sync.Mutex
	var clock plyClock
	return othello.PlayerFunc(func(ctx context.Context, p othello.Position) (othello.Move, error) {
		if p.NumLegalMoves() == 1 {
			var buf [1]othello.Move
			return p.AppendLegalMoves(buf[:0])[0], nil
		}
		mu.Lock()
		defer mu.Unlock()
		ctx, done := clock.start(ctx, othelloPlan(p, clock.progress))
		defer done()
		return search(ctx, p)
	})
}

// DarkChessExpectimaxPlayer returns a [darkchess.Player] that chooses its
// plies by [Expectimax] with [DarkChessEval] and the options o over the
// view's position, each flip a chance node, its moves ordered
// ([DarkChess].Ordered). It
// remembers the positions of its game ([DarkChessRepeats], with
// [DefaultContempt]), so that it does not walk into the repetition draw
// when ahead: use one player for one game at a time (a new game, starting
// with a flip, empties its memory). It takes the no-capture-no-flip limit
// from the view's rules when they give one. A forced ply is played at
// once. It is the plain search over the package's evaluation, for a bot
// to build on or compare with; to play, use [DarkChessBestPlayer], the
// same search with a stronger evaluation.
//
// It keeps time as [OthelloAlphaBetaPlayer] does, with a [timer.Manager]
// for each game (a new game is an opening position, no piece taken and at
// most one face up, or one with fewer flips and captures than the last it
// played), the time left shared among 50 plies, as dark chess games run
// long. With the clock of a sudden-death game on its context (MGTP's
// time_left, as a [timer.Status]), it spends a share of the time left on
// each ply rather than all of it on one; a bare deadline is the caller's
// budget for the ply, as for every player.
func DarkChessExpectimaxPlayer(o DepthOptions) darkchess.Player {
	return darkChessExpectimaxPlayer(o, DefaultContempt, func(int) Eval[DarkChessState] { return DarkChessEval })
}

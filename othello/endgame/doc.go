// Package endgame solves Othello endgames exactly: the final disc
// difference with perfect play by both sides ([Solver.Solve]), or only
// whether the side to move wins, draws or loses ([Solver.WLD], faster), and
// a move that achieves it.
//
// Scores follow the convention of the FFO endgame problems and of Edax:
// the disc difference at the end of the game for the side to move, the
// empty squares counted for the winner, so every score on the 8x8 board is
// even, from -64 to 64.
//
// A [Solver] keeps a transposition table of fixed size (the default one
// grows once, before the first solve of [BigEmpties] or more empty
// squares), and a small one of at most 256 KiB for the positions of 10 or
// fewer empty squares, which stays in the processor's cache; it allocates
// nothing while it searches. The search is a principal-variation search of
// null-window searches: the win/draw/loss search is one with the window
// around 0, and the exact solve runs it first, then null-window searches
// from the bound it found until one returns its window's score (MTD(f)).
// Moves are ordered by the table's move first, then fastest first (the
// fewest replies for the opponent, corners weighing double), then by the
// stable discs at the corners and the parity of the empty squares of each
// quadrant. Given an evaluation ([Options].Eval, such as package search's
// learned one), the solver also orders the moves of positions with 16 or
// more empty squares by shallow searches with it, deeper the more squares
// are empty: that halves the time of solves of 20 or more. Enhanced
// transposition cut-offs, a cut-off by the opponent's stable discs, and
// special code for the last four empty squares save the rest. A solve
// stops when its context ends, with the context's error and no answer.
//
//	s := endgame.New(endgame.Options{})
//	r, err := s.Solve(ctx, pos) // r.Score, r.Best
package endgame

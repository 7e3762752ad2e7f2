package search_test

import (
	"context"
	"fmt"

	"github.com/botarena/botarena/darkchess"
	"github.com/botarena/botarena/othello"
	"github.com/botarena/botarena/search"
)

// Alpha-beta over Othello with the package's evaluation: iterative
// deepening until the node budget is spent, which makes the search the same
// on every machine.
func ExampleNewAlphaBeta() {
	a := search.NewAlphaBeta(search.Othello{}, search.OthelloEval, search.DepthOptions{Nodes: 20000})
	res, err := a.Search(context.Background(), othello.Standard.Start)
	if err != nil {
		panic(err)
	}
	fmt.Println(res.Move, res.Depth, res.Nodes)
	// Output: d3 9 20000
}

// An endgame with few empty squares is solved exactly: every line searched
// to the end, the value a proven win (1), draw (0) or loss (-1).
func ExampleAlphaBeta_solve() {
	p, err := othello.ParsePosition("-OXXX-XOOOOOXXO-OOXXXX--OXOXOXX--XXOOXX-OXOXXOXX-OX-XX-OOXXXXXX- X")
	if err != nil {
		panic(err)
	}
	a := search.NewAlphaBeta(search.Othello{}, search.OthelloEval, search.DepthOptions{Solve: 14})
	res, err := a.Search(context.Background(), p)
	if err != nil {
		panic(err)
	}
	fmt.Println(p.Empty().Count(), "empty:", res.Move, res.Value, res.Exact)
	// Output: 12 empty: h8 1 true
}

// Expectimax over dark chess: a flip is a chance node whose outcomes are
// the pieces still face-down, weighed by their share of the pool; Star1
// prunes them with the bounds of every value, -1 and 1. Here red's king
// takes the guard beside it.
func ExampleNewExpectimax() {
	p, err := darkchess.ParsePosition("----/----/-c--/-Kg-/-XX-/--X-/----/---- r 00000010000011 0")
	if err != nil {
		panic(err)
	}
	x := search.NewExpectimax(search.DarkChess{}, search.DarkChessEval, search.DepthOptions{Nodes: 50000})
	res, err := x.Search(context.Background(), search.NewDarkChessState(p))
	if err != nil {
		panic(err)
	}
	fmt.Println(res.Move, res.Value, res.Depth, res.Nodes)
	// Output: b5-c5 0.075 5 50000
}

// A depth-first search as a game's Player: it searches until its node
// budget is spent or shortly before ctx's deadline.
func ExampleOthelloAlphaBetaPlayer() {
	bot := search.OthelloAlphaBetaPlayer(search.DepthOptions{Nodes: 5000})
	m, err := bot.Play(context.Background(), othello.Standard.Start)
	if err != nil {
		panic(err)
	}
	fmt.Println(othello.Standard.Start.IsLegal(m))
	// Output: true
}

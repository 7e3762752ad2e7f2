package search_test

import (
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/botarena/botarena/darkchess"
	"github.com/botarena/botarena/geister"
	"github.com/botarena/botarena/othello"
	"github.com/botarena/botarena/search"
)

// MCTS over Othello: a playout budget and a seed make the search
// reproducible.
func ExampleNewMCTS() {
	m := search.NewMCTS(search.Othello{}, search.Options{Playouts: 5000, Seed: 1})
	res, err := m.Search(context.Background(), othello.Standard.Start)
	if err != nil {
		panic(err)
	}
	fmt.Println(res.Move, res.Playouts)
	// Output: d3 5000
}

// A playout policy: prefer corners, else play uniformly. It must not
// allocate.
func ExampleMCTS_policy() {
	corners := othello.A1.Bit() | othello.H1.Bit() | othello.A8.Bit() | othello.H8.Bit()
	m := search.NewMCTS(search.Othello{}, search.Options{Playouts: 2000, Seed: 1})
	m.Policy = func(p othello.Position, moves []othello.Move, r *rand.Rand) othello.Move {
		for _, mv := range moves {
			if mv != othello.Pass && corners.Has(mv.Square()) {
				return mv
			}
		}
		return moves[r.IntN(len(moves))]
	}
	p, err := othello.ParsePosition("---------O-------XO-------XOOO-----XX-------X------------------- X")
	if err != nil {
		panic(err)
	}
	res, _ := m.Search(context.Background(), p)
	fmt.Println(res.Move)
	// Output: d3
}

// Information-set MCTS from a Geister view: the opponent's colours are
// drawn afresh for every playout. Here the first player's blue ghost A is
// on its exit and escapes.
func ExampleNewISMCTS() {
	var s geister.Setup
	s.Reds = [2]geister.Reds{geister.RedsOf(geister.E, geister.F, geister.G, geister.H), geister.RedsOf(geister.A, geister.B, geister.C, geister.D)}
	start, _ := geister.Start(s.Reds[0], s.Reds[1])
	s = start.Setup()
	s.Ghosts[geister.First][geister.A] = geister.SquareAt(0, 0)
	p, _ := geister.NewPosition(s)

	m := search.NewISMCTS(search.Geister{}, search.Options{Playouts: 2000, Seed: 1})
	res, err := m.Search(context.Background(), p.View(geister.First))
	if err != nil {
		panic(err)
	}
	fmt.Println(res.Move, res.Value)
	// Output: A,WEST 1
}

// A dark chess flip is a chance node: its outcomes are the pieces still
// face-down, each with its share of the pool.
func ExampleDarkChess() {
	var g search.DarkChess
	s := search.NewDarkChessState(darkchess.Opening)
	s = g.Play(s, darkchess.Ply{Move: darkchess.Flip(darkchess.B2)}) // choose to flip b2
	for _, o := range g.AppendOutcomes(s, nil)[:3] {
		fmt.Printf("%s %.4f\n", o.Move, o.Prob)
	}
	// Output:
	// b2(K) 0.0312
	// b2(G) 0.0625
	// b2(M) 0.0625
}

// A search as a game's Player, ready for any protocol package of the game:
// it searches until its budget is spent or shortly before ctx's deadline.
func ExampleOthelloPlayer() {
	bot := search.OthelloPlayer(search.Options{Playouts: 2000, Seed: 1})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	m, err := bot.Play(ctx, othello.Standard.Start)
	if err != nil {
		panic(err)
	}
	fmt.Println(othello.Standard.Start.IsLegal(m))
	// Output: true
}

// The rush sparring bot races its blue ghost nearest to an exit: here the
// first player's blue A stands next to its exit (0,0) and steps onto it;
// from there it escapes.
func ExampleGeisterRushPlayer() {
	blues := geister.RedsOf(geister.E, geister.F, geister.G, geister.H) // A-D blue
	s := geister.StartSetup(blues, geister.RedsAt(0))
	s.Ghosts[geister.First][geister.A] = geister.SquareAt(0, 1)
	s.Ghosts[geister.Second][geister.D] = geister.SquareAt(3, 2) // out of the way
	s.Ply = 10
	p, err := geister.NewPosition(s)
	if err != nil {
		panic(err)
	}
	rush := search.GeisterRushPlayer(1)
	m, _ := rush.Play(context.Background(), p.View(geister.First))
	fmt.Println(m)
	p, _ = p.Play(m)
	if p, err = p.Play(geister.NewMove(geister.H, geister.North)); err != nil { // the second player's reply
		panic(err)
	}
	m, _ = rush.Play(context.Background(), p.View(geister.First))
	fmt.Println(m, p.IsEscape(m))
	// Output:
	// A,NORTH
	// A,WEST true
}

package search

import (
	"bytes"
	"context"
	"math/rand/v2"
	"testing"

	"github.com/botarena/botarena/ntuple"
	"github.com/botarena/botarena/othello"
)

// playOthello1Ply plays a game between two 1-ply players, each choosing
// the move whose position after it is best for it by its eval (nil: a
// random move); the first randomPlies plies are random. It returns black's
// disc difference.
func playOthello1Ply(black, white Eval[othello.Position], rng *rand.Rand, randomPlies int) int {
	p := othello.Standard.Start
	var buf []othello.Move
	for ply := 0; !p.IsOver(); ply++ {
		buf = p.AppendLegalMoves(buf[:0])
		me := p.Turn()
		eval := black
		if me == othello.White {
			eval = white
		}
		m := buf[0]
		if ply < randomPlies || eval == nil {
			m = buf[rng.IntN(len(buf))]
		} else {
			bestV := -2.0
			for _, x := range buf {
				c := p.PlayUnchecked(x)
				v := 0.0
				if c.IsOver() {
					v = Othello{}.Result(c, int(me))
				} else {
					v = eval(c, int(me))
				}
				if v > bestV {
					m, bestV = x, v
				}
			}
		}
		p = p.PlayUnchecked(m)
	}
	return p.Count(othello.Black) - p.Count(othello.White)
}

// netEval returns the Eval of the network n, as OthelloPatternEval makes
// of the embedded one.
func netEval(n *ntuple.Network) Eval[othello.Position] {
	return func(p othello.Position, player int) float64 {
		v := othelloValue(n, p)
		if int(p.Turn()) != player {
			v = -v
		}
		return v
	}
}

// score1Ply returns a's points (1 a win, 1/2 a draw) in games of 1-ply
// players against b, the colours alternating.
func score1Ply(a, b Eval[othello.Position], games int, seed uint64, randomPlies int) float64 {
	rng := rand.New(rand.NewPCG(seed, 7))
	pts := 0.0
	for g := range games {
		var d int
		if g%2 == 0 {
			d = playOthello1Ply(a, b, rng, randomPlies)
		} else {
			d = -playOthello1Ply(b, a, rng, randomPlies)
		}
		switch {
		case d > 0:
			pts++
		case d == 0:
			pts += 0.5
		}
	}
	return pts
}

// TestTrainOthelloLearns: a network trained on 1500 self-play games plays
// far better than random moves. Trained with seeds 1 to 5, it scored 36
// to 39.5 of 40 against the random player, where the untrained network
// (which values every position 0, and so plays the first move) scored 20
// to 28; against the untrained network itself (after 4 random plies), it
// scored 35 to 39.5 of 40 with seeds 1 to 6. It runs seed 1 here (the
// others, at hand, by editing the list); training and games are seeded, so
// the result does not vary from run to run.
func TestTrainOthelloLearns(t *testing.T) {
	t.Parallel() // on budgets, not the clock: load changes nothing
	for _, seed := range []uint64{1} {
		o := DefaultOthelloTrain()
		o.Games, o.Seed, o.Workers = 1500, seed, 2
		n, err := TrainOthello(context.Background(), o)
		if err != nil {
			t.Fatal(err)
		}
		if pts := score1Ply(netEval(n), nil, 40, seed, 0); pts < 32 {
			t.Errorf("seed %d: the trained network scored %v of 40 against random moves", seed, pts)
		}
		// Against the untrained network itself, after 4 random plies
		// so that its games differ.
		o.Games = 0
		untrained, err := TrainOthello(context.Background(), o)
		if err != nil {
			t.Fatal(err)
		}
		pts := score1Ply(netEval(n), netEval(untrained), 40, seed, 4)
		t.Logf("seed %d: the trained network scored %v of 40 against the untrained one", seed, pts)
		if pts < 30 {
			t.Errorf("seed %d: the trained network scored %v of 40 against the untrained one", seed, pts)
		}
	}
}

// TestTrainOthelloReproducible: the same options give the same weights,
// byte for byte, whatever the number of workers; another seed, others.
func TestTrainOthelloReproducible(t *testing.T) {
	t.Parallel()
	file := func(seed uint64, workers int) []byte {
		o := DefaultOthelloTrain()
		o.Games, o.Seed, o.Workers = 100, seed, workers
		done := 0
		o.Progress = func(d int) { done = d }
		n, err := TrainOthello(context.Background(), o)
		if err != nil {
			t.Fatal(err)
		}
		if done != 100 {
			t.Errorf("Progress was last told %d games, want 100", done)
		}
		b, err := n.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	a, b, c := file(5, 1), file(5, 3), file(6, 2)
	if !bytes.Equal(a, b) {
		t.Error("1 and 3 workers trained different weights from the same seed")
	}
	if bytes.Equal(a, c) {
		t.Error("seeds 5 and 6 trained the same weights")
	}
}

func TestTrainOthelloStops(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	o := DefaultOthelloTrain()
	o.Games = 1 << 30
	o.Progress = func(int) { cancel() }
	n, err := TrainOthello(ctx, o)
	if err != context.Canceled || n == nil {
		t.Errorf("cancelled: %v, %v; want the network so far and context.Canceled", n != nil, err)
	}
	bad, _ := ntuple.New(ntuple.Config{Cells: 10, States: 3, Tuples: [][]int{{0}}})
	o = DefaultOthelloTrain()
	o.Net = bad
	if _, err := TrainOthello(context.Background(), o); err == nil {
		t.Error("a network of 10 cells trained")
	}
}

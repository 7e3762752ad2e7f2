package search

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"

	"github.com/botarena/botarena/ntuple"
	"github.com/botarena/botarena/othello"
)

// OthelloTrainOptions configure [TrainOthello]. The zero value trains
// nothing; [DefaultOthelloTrain] gives the defaults of the shipped weights.
type OthelloTrainOptions struct {
	// Seed seeds the games' random choices: the same options give the
	// same network, whatever Workers.
	Seed uint64
	// Games is the number of self-play games.
	Games int
	// Workers is the number of games played at once; below 1, one.
	Workers int
	// Epsilon is the chance that a player makes a random move rather than
	// its best by the network (exploration).
	Epsilon float64
	// Lambda is the λ of TD(λ) ([ntuple.Network.Learn]).
	Lambda float64
	// Rate is the learning rate at the start and at the end of the games,
	// falling linearly between ([ntuple.Schedule]; its Steps are Games).
	RateStart, RateEnd float64
	// Net is the network to train further; nil trains a new one of the
	// shape [OthelloPatternConfig] from zero weights. It must have 64
	// cells and 3 states, and its stages are [OthelloStage]'s.
	Net *ntuple.Network
	// Progress, if not nil, is told the games done after each batch of
	// games, from the goroutine of TrainOthello.
	Progress func(done int)
}

// DefaultOthelloTrain returns the options of the shipped weights of
// [OthelloPatternEval], but for the seed: 1000000 games, ε 0.1, λ 0.5, the
// rate falling from 1 to 0.1.
func DefaultOthelloTrain() OthelloTrainOptions {
	return OthelloTrainOptions{Games: 1000000, Workers: 1, Epsilon: 0.1, Lambda: 0.5, RateStart: 1, RateEnd: 0.1}
}

// othelloTrainBatch is the number of games played with the same weights,
// then learned from in order: the batches keep training reproducible
// whatever the number of workers.
const othelloTrainBatch = 64

// othelloGame is the record of one self-play game: the positions where
// the player to move had a choice, and the final position.
type othelloGame struct {
	pos []othello.Position
	end othello.Position
}

// TrainOthello trains a network for Othello by self-play with TD(λ): each
// game is played by two ε-greedy players that choose the move after which
// the network's value is best (1 ply), and the network learns from its
// positions toward the result (for each player, half its sign and half
// the disc difference over 64). Games are played in batches of 64 with the
// same weights, over o.Workers goroutines, and learned from in order, so
// that the result depends on o and not on the scheduling. It stops early,
// with the network so far and ctx's error, when ctx is done.
func TrainOthello(ctx context.Context, o OthelloTrainOptions) (*ntuple.Network, error) {
	n := o.Net
	if n == nil {
		var err error
		if n, err = ntuple.New(OthelloPatternConfig()); err != nil {
			return nil, err
		}
	}
	if c := n.Config(); c.Cells != 64 || c.States != 3 {
		return nil, fmt.Errorf("search: train othello: the network has %d cells of %d states, not 64 of 3", c.Cells, c.States)
	}
	workers := max(o.Workers, 1)
	rate := ntuple.Schedule{Start: o.RateStart, End: o.RateEnd, Steps: o.Games}
	games := make([]othelloGame, othelloTrainBatch)
	steps := make([]ntuple.Step, 0, 64)
	var cells [64][64]uint8
	for done := 0; done < o.Games; {
		if err := ctx.Err(); err != nil {
			return n, err
		}
		batch := min(othelloTrainBatch, o.Games-done)
		var wg sync.WaitGroup
		for w := range min(workers, batch) {
			wg.Go(func() {
				buf := make([]othello.Move, 0, 32)
				for i := w; i < batch; i += workers {
					g := &games[i]
					rng := rand.New(rand.NewPCG(o.Seed, uint64(done+i)))
					g.pos, g.end = playOthelloTrainGame(n, rng, o.Epsilon, g.pos[:0], buf)
				}
			})
		}
		wg.Wait()
		for i := range batch {
			g := &games[i]
			steps = steps[:0]
			for j, p := range g.pos {
				othelloCells(p, p.Turn(), &cells[j])
				sign := 1.0
				if p.Turn() != othello.Black {
					sign = -1
				}
				steps = append(steps, ntuple.Step{Stage: OthelloStage(p), Cells: cells[j][:], Sign: sign})
			}
			n.Learn(steps, othelloOutcome(g.end, othello.Black), rate.At(done+i), o.Lambda)
		}
		done += batch
		if o.Progress != nil {
			o.Progress(done)
		}
	}
	return n, nil
}

// othelloOutcome is the training target of the final position p for
// player c: half the sign of c's disc difference, plus half the
// difference over 64.
func othelloOutcome(p othello.Position, c othello.Color) float64 {
	d := p.Count(c) - p.Count(c.Opponent())
	s := 0.0
	switch {
	case d > 0:
		s = 0.5
	case d < 0:
		s = -0.5
	}
	return s + float64(d)/128
}

// playOthelloTrainGame plays one ε-greedy self-play game from the
// standard start with the network n, and returns the positions where the
// player to move had more than one move (appended to pos), and the final
// position.
func playOthelloTrainGame(n *ntuple.Network, rng *rand.Rand, eps float64, pos []othello.Position, buf []othello.Move) ([]othello.Position, othello.Position) {
	p := othello.Standard.Start
	for !p.IsOver() {
		buf = p.AppendLegalMoves(buf[:0])
		if len(buf) == 1 {
			p = p.PlayUnchecked(buf[0])
			continue
		}
		pos = append(pos, p)
		var m othello.Move
		if rng.Float64() < eps {
			m = buf[rng.IntN(len(buf))]
		} else {
			m = othelloGreedy(n, p, buf)
		}
		p = p.PlayUnchecked(m)
	}
	return pos, p
}

// othelloGreedy returns the move of moves (p's legal moves) after which
// the network's value is best for p's player to move, the first of equals.
func othelloGreedy(n *ntuple.Network, p othello.Position, moves []othello.Move) othello.Move {
	me := p.Turn()
	best, bestV := moves[0], -2.0
	for _, m := range moves {
		c := p.PlayUnchecked(m)
		var v float64
		switch {
		case c.IsOver():
			v = Othello{}.Result(c, int(me))
		case c.Turn() == me:
			v = othelloValue(n, c)
		default:
			v = -othelloValue(n, c)
		}
		if v > bestV {
			best, bestV = m, v
		}
	}
	return best
}

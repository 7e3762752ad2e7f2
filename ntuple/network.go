package ntuple

import (
	"fmt"
	"math"
)

// Bounds of a [Config], which [New] and [Read] enforce, so that a weights
// file read from anywhere never makes the reader allocate more than about
// 4·MaxWeights bytes.
const (
	// MaxWeights bounds the number of weights of a network, all stages
	// and tuples together: 2^24, 64 MiB of float32.
	MaxWeights = 1 << 24
	// MaxCells bounds Config.Cells.
	MaxCells = 1 << 12
	// MaxStates bounds Config.States.
	MaxStates = 16
	// MaxStages bounds Config.Stages.
	MaxStages = 256
	// MaxTuples bounds the number of tuples of a Config.
	MaxTuples = 1 << 10
	// MaxSymmetries bounds the number of symmetries of a Config.
	MaxSymmetries = 64
	// MaxTupleLen bounds the cells of one tuple.
	MaxTupleLen = 16
)

// Config is the shape of a network: the board, the tuples and the
// symmetries. It is unvalidated; [New] checks it.
type Config struct {
	// Cells is the number of cells of the board, numbered from 0.
	Cells int
	// States is the number of states a cell can be in, numbered from 0
	// (for Othello 3: empty, the player's, the opponent's).
	States int
	// Stages is the number of weight sets: a game chooses one for each
	// position (for example by how far the game has come). 0 means 1.
	Stages int
	// Tuples lists each tuple's cells, in order: the index of a tuple in
	// its weight table is the sum of state(cell i)·States^i.
	Tuples [][]int
	// Symmetries lists permutations of the cells (Symmetries[s][c] is the
	// image of cell c), under which the value of a position does not
	// change. Each tuple is looked up under each symmetry, its images
	// sharing its weights; images with the same cells in the same order
	// are looked up once. None means the identity alone.
	Symmetries [][]int
}

// Network is an n-tuple network: the value of a position is tanh of the sum
// of one weight per tuple image, each read at the index the image's cells
// spell. Build one with [New] or [Read]. Its methods that read weights
// ([Network.Value], [Network.Sum]) allocate nothing and may run
// concurrently; those that change them ([Network.Fit], [Network.Learn])
// must not run with any other method.
type Network struct {
	cfg    Config
	tsize  []int     // the weight table size of each tuple, States^len
	toff   []int     // the offset of each tuple's table within a stage
	stage  int       // the weights of one stage
	images [][]int32 // the cells of each image, in order
	itup   []int     // the tuple of each image
	w      []float32 // all weights: stage, then tuple, then index
	// The images flattened for Sum: image i's cells are
	// flat[first[i]:first[i+1]], each with its power of States, and its
	// table starts at ioff[i].
	flat  []int32
	pow   []int32
	first []int32
	ioff  []int32
}

// New returns a network of shape c with every weight 0, or an error naming
// what is wrong with c.
func New(c Config) (*Network, error) {
	if err := c.check(); err != nil {
		return nil, err
	}
	c = c.clone()
	if c.Stages == 0 {
		c.Stages = 1
	}
	n := &Network{cfg: c}
	for _, t := range c.Tuples {
		n.toff = append(n.toff, n.stage)
		size := 1
		for range t {
			size *= c.States
		}
		n.tsize = append(n.tsize, size)
		n.stage += size
	}
	n.w = make([]float32, n.stage*c.Stages)
	syms := c.Symmetries
	if len(syms) == 0 {
		id := make([]int, c.Cells)
		for i := range id {
			id[i] = i
		}
		syms = [][]int{id}
	}
	for ti, t := range c.Tuples {
		var seen [][]int32
	next:
		for _, s := range syms {
			img := make([]int32, len(t))
			for i, cell := range t {
				img[i] = int32(s[cell])
			}
			for _, o := range seen {
				if equal(o, img) {
					continue next
				}
			}
			seen = append(seen, img)
			n.images = append(n.images, img)
			n.itup = append(n.itup, ti)
		}
	}
	for i, img := range n.images {
		n.first = append(n.first, int32(len(n.flat)))
		n.ioff = append(n.ioff, int32(n.toff[n.itup[i]]))
		p := int32(1)
		for _, cell := range img {
			n.flat = append(n.flat, cell)
			n.pow = append(n.pow, p)
			p *= int32(c.States)
		}
	}
	n.first = append(n.first, int32(len(n.flat)))
	return n, nil
}

func equal(a, b []int32) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return len(a) == len(b)
}

// check reports what is wrong with c, if anything.
func (c Config) check() error {
	switch {
	case c.Cells < 1 || c.Cells > MaxCells:
		return fmt.Errorf("ntuple: %d cells, not within 1..%d", c.Cells, MaxCells)
	case c.States < 2 || c.States > MaxStates:
		return fmt.Errorf("ntuple: %d states, not within 2..%d", c.States, MaxStates)
	case c.Stages < 0 || c.Stages > MaxStages:
		return fmt.Errorf("ntuple: %d stages, not within 1..%d", c.Stages, MaxStages)
	case len(c.Tuples) == 0 || len(c.Tuples) > MaxTuples:
		return fmt.Errorf("ntuple: %d tuples, not within 1..%d", len(c.Tuples), MaxTuples)
	case len(c.Symmetries) > MaxSymmetries:
		return fmt.Errorf("ntuple: %d symmetries, more than %d", len(c.Symmetries), MaxSymmetries)
	}
	total := 0
	for i, t := range c.Tuples {
		if len(t) == 0 || len(t) > MaxTupleLen {
			return fmt.Errorf("ntuple: tuple %d has %d cells, not within 1..%d", i, len(t), MaxTupleLen)
		}
		size := 1
		for j, cell := range t {
			if cell < 0 || cell >= c.Cells {
				return fmt.Errorf("ntuple: tuple %d: cell %d is %d, off the board of %d cells", i, j, cell, c.Cells)
			}
			for _, o := range t[:j] {
				if o == cell {
					return fmt.Errorf("ntuple: tuple %d: cell %d appears twice", i, cell)
				}
			}
			size *= c.States
			if size > MaxWeights {
				return fmt.Errorf("ntuple: tuple %d has more than %d weights", i, MaxWeights)
			}
		}
		total += size
		if total > MaxWeights/max(c.Stages, 1) {
			return fmt.Errorf("ntuple: more than %d weights in all", MaxWeights)
		}
	}
	for i, s := range c.Symmetries {
		if len(s) != c.Cells {
			return fmt.Errorf("ntuple: symmetry %d maps %d cells, not %d", i, len(s), c.Cells)
		}
		hit := make([]bool, c.Cells)
		for cell, img := range s {
			if img < 0 || img >= c.Cells || hit[img] {
				return fmt.Errorf("ntuple: symmetry %d is not a permutation of the cells (cell %d maps to %d)", i, cell, img)
			}
			hit[img] = true
		}
	}
	return nil
}

func (c Config) clone() Config {
	d := c
	d.Tuples = make([][]int, len(c.Tuples))
	for i, t := range c.Tuples {
		d.Tuples[i] = append([]int(nil), t...)
	}
	d.Symmetries = nil
	for _, s := range c.Symmetries {
		d.Symmetries = append(d.Symmetries, append([]int(nil), s...))
	}
	return d
}

// Config returns a copy of the network's shape.
func (n *Network) Config() Config { return n.cfg.clone() }

// NumWeights returns the number of weights, all stages together.
func (n *Network) NumWeights() int { return len(n.w) }

// NumImages returns the number of tuple images looked up for one position:
// the weights that make its sum.
func (n *Network) NumImages() int { return len(n.images) }

// Image returns image i (0 <= i < [Network.NumImages]) in the order the sum
// adds them: its tuple's index in the Config, and its cells, in the
// tuple's order (cell j of the image reads as the tuple's cell j). For an
// i out of that range it returns -1 and no cells.
func (n *Network) Image(i int) (tuple int, cells []int) {
	if i < 0 || i >= len(n.images) {
		return -1, nil
	}
	cells = make([]int, len(n.images[i]))
	for j, c := range n.images[i] {
		cells[j] = int(c)
	}
	return n.itup[i], cells
}

// Weights returns the weights of the network, stage by stage, each stage
// tuple by tuple in the order of the Config, each tuple's table by index.
// The slice is the network's own: changing it changes the network.
func (n *Network) Weights() []float32 { return n.w }

// stageWeights returns the weights of stage, clamped to the stages there
// are.
func (n *Network) stageWeights(stage int) []float32 {
	stage = min(max(stage, 0), n.cfg.Stages-1)
	return n.w[stage*n.stage : (stage+1)*n.stage]
}

// index returns image i's index within the stage's weights, reading the
// cells' states (states out of range read as 0).
func (n *Network) index(i int, cells []uint8) int {
	states := n.cfg.States
	x := 0
	img := n.images[i]
	for k := len(img) - 1; k >= 0; k-- {
		s := 0
		if c := int(img[k]); c < len(cells) {
			s = int(cells[c])
			if s >= states {
				s = 0
			}
		}
		x = x*states + s
	}
	return n.toff[n.itup[i]] + x
}

// Sum returns the sum of the weights of the position whose cells' states
// are cells (cells[c] is the state of cell c), in the weight set of stage
// (clamped to the stages there are). A cell missing from cells, or whose
// state is out of range, reads as state 0. It allocates nothing.
func (n *Network) Sum(stage int, cells []uint8) float64 {
	w := n.stageWeights(stage)
	var sum float32
	if len(cells) < n.cfg.Cells {
		for i := range n.images {
			sum += w[n.index(i, cells)]
		}
		return float64(sum)
	}
	states := uint8(n.cfg.States)
	flat, pow := n.flat, n.pow[:len(n.flat)]
	for i, off := range n.ioff {
		x := off
		for k := n.first[i]; k < n.first[i+1]; k++ {
			if s := cells[flat[k]]; s < states {
				x += pow[k] * int32(s)
			}
		}
		sum += w[x]
	}
	return float64(sum)
}

// Value returns tanh of [Network.Sum]: the value of the position, in
// (-1, 1) (for a game, for the side whose states the cells call the
// player's). It allocates nothing.
func (n *Network) Value(stage int, cells []uint8) float64 {
	return math.Tanh(n.Sum(stage, cells))
}

// Fit moves the network's value of the position toward target (in [-1,
// 1]) by one step of gradient descent on the squared error, at the rate
// rate: each weight looked up moves by rate·(target − v)·(1 − v²)/k, for
// value v and k images, so that rate is the step of the sum. It returns v,
// the value before the step.
func (n *Network) Fit(stage int, cells []uint8, target, rate float64) float64 {
	v := n.Value(stage, cells)
	n.add(stage, cells, rate*(target-v)*(1-v*v)/float64(len(n.images)))
	return v
}

// add adds d to each weight the position looks up.
func (n *Network) add(stage int, cells []uint8, d float64) {
	w := n.stageWeights(stage)
	for i := range n.images {
		w[n.index(i, cells)] += float32(d)
	}
}

// Step is one position of an episode for [Network.Learn].
type Step struct {
	// Stage is the position's weight set.
	Stage int
	// Cells are the position's cells, as [Network.Value] reads them:
	// from the side of the player who is to move.
	Cells []uint8
	// Sign is +1 when the player to move is the episode's first player
	// (whose outcome [Network.Learn] is told), -1 for the other.
	Sign float64
}

// Learn carries out temporal-difference learning, TD(λ), on the episode
// steps (the positions of one game, in order) ending with outcome, the
// result in [-1, 1] for the player of the steps whose Sign is +1. Going
// back from the end, the target of each step is its λ-return for its
// player to move: the outcome for the last, then (1 − λ)·(the next step's
// value before its update) + λ·(the next step's target), each toward its own
// player's sign. Each step is fitted as [Network.Fit] does, at rate. With
// λ = 0 each position learns the value of the next (TD(0)); with λ = 1
// the outcome (Monte Carlo). Learn allocates nothing.
func (n *Network) Learn(steps []Step, outcome, rate, lambda float64) {
	g := outcome // the target, for the player of Sign +1
	for i := len(steps) - 1; i >= 0; i-- {
		s := &steps[i]
		sign := s.Sign
		if sign == 0 {
			sign = 1
		}
		v := n.Fit(s.Stage, s.Cells, sign*g, rate)
		g = (1-lambda)*sign*v + lambda*g
	}
}

// Schedule is a learning rate that falls linearly from Start to End over
// Steps steps, and stays at End after them.
type Schedule struct {
	Start, End float64
	Steps      int
}

// At returns the rate at step i (from 0).
func (s Schedule) At(i int) float64 {
	if s.Steps <= 0 || i >= s.Steps {
		return s.End
	}
	if i <= 0 {
		return s.Start
	}
	f := float64(i) / float64(s.Steps)
	return s.Start + (s.End-s.Start)*f
}

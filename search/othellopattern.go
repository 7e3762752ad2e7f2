package search

import (
	"bytes"
	_ "embed"
	"math"
	"math/bits"
	"sync"

	"github.com/botarena/botarena/ntuple"
	"github.com/botarena/botarena/othello"
)

// othelloWeightsFile is the network of [OthelloPatternEval]: the shape of
// [OthelloPatternConfig], trained by TrainOthello (see
// othello-weights.md beside it for the command and seed).
//
//go:embed othello-weights.ntp
var othelloWeightsFile []byte

// othelloNet reads the embedded network once.
var othelloNet = sync.OnceValues(func() (*ntuple.Network, error) {
	return ntuple.Read(bytes.NewReader(othelloWeightsFile))
})

// othelloFastNet is othelloNet's sum from bitboards (nil if the network
// is not of the shape it reads).
var othelloFastNet = sync.OnceValue(func() *othelloFast {
	n, err := othelloNet()
	if err != nil {
		return nil
	}
	return newOthelloFast(n)
})

// OthelloStages is the number of weight sets of [OthelloPatternConfig]:
// one for each twelve plies of the game ([OthelloStage]).
const OthelloStages = 5

// OthelloStage returns the weight set of [OthelloPatternConfig] for p:
// by its discs, 0 for 4 to 15 discs, 1 for 16 to 27, and so on, 4 from
// 52 discs.
func OthelloStage(p othello.Position) int {
	return min(max(p.Board().Count()-p.Empty().Count()-4, 0)/12, OthelloStages-1)
}

// othelloTuples are the tuples of [OthelloPatternConfig], as squares.
var othelloTuples = [][]othello.Square{
	// an edge and its two X-squares
	{othello.A1, othello.B1, othello.C1, othello.D1, othello.E1, othello.F1, othello.G1, othello.H1, othello.B2, othello.G2},
	// a corner's 2x5 block
	{othello.A1, othello.B1, othello.C1, othello.D1, othello.E1, othello.A2, othello.B2, othello.C2, othello.D2, othello.E2},
	// a corner's 3x3 block
	{othello.A1, othello.B1, othello.C1, othello.A2, othello.B2, othello.C2, othello.A3, othello.B3, othello.C3},
	// the second, third and fourth rows
	{othello.A2, othello.B2, othello.C2, othello.D2, othello.E2, othello.F2, othello.G2, othello.H2},
	{othello.A3, othello.B3, othello.C3, othello.D3, othello.E3, othello.F3, othello.G3, othello.H3},
	{othello.A4, othello.B4, othello.C4, othello.D4, othello.E4, othello.F4, othello.G4, othello.H4},
	// the diagonals of 8 to 4 squares
	{othello.A1, othello.B2, othello.C3, othello.D4, othello.E5, othello.F6, othello.G7, othello.H8},
	{othello.G1, othello.F2, othello.E3, othello.D4, othello.C5, othello.B6, othello.A7},
	{othello.F1, othello.E2, othello.D3, othello.C4, othello.B5, othello.A6},
	{othello.E1, othello.D2, othello.C3, othello.B4, othello.A5},
	{othello.D1, othello.C2, othello.B3, othello.A4},
}

// OthelloPatternConfig returns the shape of the network of
// [OthelloPatternEval], over the 64 squares of the 8x8 board (cell x+8y,
// as [othello.Square]), each empty (0), the player's (1) or the
// opponent's (2): the classic tuples (each edge with its two X-squares,
// the 2x5 and 3x3 blocks of each corner, the second to fourth rows and
// columns from each side, the diagonals of 4 to 8 squares), each looked up
// under the 8 symmetries of the board, with [OthelloStages] weight sets
// ([OthelloStage]).
func OthelloPatternConfig() ntuple.Config {
	c := ntuple.Config{Cells: 64, States: 3, Stages: OthelloStages}
	for _, t := range othelloTuples {
		cells := make([]int, len(t))
		for i, s := range t {
			cells[i] = int(s)
		}
		c.Tuples = append(c.Tuples, cells)
	}
	for s := range othello.Symmetries() {
		perm := make([]int, 64)
		for i := range perm {
			perm[i] = int(s.Square(othello.Square(i)))
		}
		c.Symmetries = append(c.Symmetries, perm)
	}
	return c
}

// othelloCells sets cells to the squares of p seen by the player me: 0
// empty, 1 me's, 2 the opponent's.
func othelloCells(p othello.Position, me othello.Color, cells *[64]uint8) {
	mine, theirs := uint64(p.Discs(me)), uint64(p.Discs(me.Opponent()))
	for i := range cells {
		cells[i] = uint8(mine>>i&1 | theirs>>i&1<<1)
	}
}

// othelloValue returns the value of p for its player to move by the
// network n.
func othelloValue(n *ntuple.Network, p othello.Position) float64 {
	var cells [64]uint8
	othelloCells(p, p.Turn(), &cells)
	return n.Value(OthelloStage(p), cells[:])
}

// OthelloPatternEval is an [Eval] for [Othello] learned by self-play: the
// value, for player, of an n-tuple network of the shape
// [OthelloPatternConfig], trained by temporal-difference learning and
// embedded in the package. The network values the position for the side
// to move; for the other side the value is negated. On the 6x6 board,
// which the network does not cover, it is [OthelloEval]. It allocates
// nothing, and is in (-1, 1).
func OthelloPatternEval(p othello.Position, player int) float64 {
	n, err := othelloNet()
	if err != nil || p.Size() != 8 {
		return OthelloEval(p, player)
	}
	var v float64
	if f := othelloFastNet(); f != nil {
		v = math.Tanh(f.sum(OthelloStage(p), uint64(p.Discs(p.Turn())), uint64(p.Discs(p.Turn().Opponent()))))
	} else {
		v = othelloValue(n, p)
	}
	if int(p.Turn()) != player&1 {
		v = -v
	}
	return clampEval(math.Max(-MaxEval, math.Min(MaxEval, v)))
}

// OthelloPatternScore is the network of [OthelloPatternEval] as an
// estimate of the final disc difference, for the endgame solver's move
// order ([endgame.Options.Eval]): the value of the 8x8 position whose
// discs are player (to move) and opponent, as bitboards (bit x+8y for the
// square in column x and row y), for the player, scaled to -64..64. It
// allocates nothing.
func OthelloPatternScore(player, opponent uint64) int {
	n, err := othelloNet()
	if err != nil {
		return 0
	}
	stage := min(max(bits.OnesCount64(player|opponent)-4, 0)/12, OthelloStages-1)
	if f := othelloFastNet(); f != nil {
		return int(math.Round(64 * math.Tanh(f.sum(stage, player, opponent))))
	}
	var cells [64]uint8
	for i := range cells {
		cells[i] = uint8(player>>i&1 | opponent>>i&1<<1)
	}
	return int(math.Round(64 * n.Value(stage, cells[:])))
}

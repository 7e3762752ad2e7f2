package search

import (
	"math/bits"
	"slices"

	"github.com/botarena/botarena/ntuple"
	"github.com/botarena/botarena/othello"
)

// othelloFast sums the weights of a network of the shape of
// [OthelloPatternConfig] straight from the two bitboards, as
// [ntuple.Network.Sum] does from 64 cells, to the same float32 sum (the
// same weights added in the same order), three times as fast: a search
// spends much of its time in its evaluation. It turns the board
// once for each symmetry of the network (a view), in which each tuple's
// images are the tuple's own squares, and reads a tuple's discs there with
// a few shifts and masks (othelloGather) and a table that gives them their
// powers of 3.
type othelloFast struct {
	w     []float32 // the weights, stage after stage
	stage int       // the number of weights of a stage
	// The images of tuple t in the network's order: the view in which its
	// squares are the tuple's.
	views [][]uint8
	off   []int32   // the start of each tuple's table within a stage
	tab   [][]int32 // for each tuple, its discs as othelloGather reads them -> their index
}

// newOthelloFast returns the bitboard sum of n, or nil when n does not
// have the shape it reads (the tuples of othelloTuples, in order, on 64
// cells of 3 states, under symmetries of the board).
func newOthelloFast(n *ntuple.Network) *othelloFast {
	c := n.Config()
	if c.Cells != 64 || c.States != 3 || len(c.Tuples) != len(othelloTuples) {
		return nil
	}
	f := &othelloFast{w: n.Weights(), views: make([][]uint8, len(c.Tuples)), tab: make([][]int32, len(c.Tuples))}
	for t, cells := range c.Tuples {
		if len(cells) != len(othelloTuples[t]) {
			return nil
		}
		// Where othelloGather puts each square of the tuple: one bit each,
		// none shared, nothing from any other square.
		var all, got uint64
		pos := make([]int, len(cells))
		for j, x := range cells {
			if x != int(othelloTuples[t][j]) {
				return nil
			}
			all |= uint64(1) << uint(x)
			g := othelloGather(uint8(t), uint64(1)<<uint(x))
			if bits.OnesCount64(g) != 1 || g&got != 0 || g >= 1<<10 {
				return nil
			}
			got |= g
			pos[j] = bits.TrailingZeros64(g)
		}
		if othelloGather(uint8(t), ^all) != 0 {
			return nil
		}
		tab := make([]int32, 1<<bits.Len64(got))
		for m := range tab {
			p := int32(1)
			for j := range cells {
				if m>>pos[j]&1 != 0 {
					tab[m] += p
				}
				p *= 3
			}
		}
		f.tab[t] = tab
		f.off = append(f.off, int32(f.stage))
		size := 1
		for range cells {
			size *= 3
		}
		f.stage += size
	}
	// The network's images, in the order its sum adds them: each is its
	// tuple's squares in one of the views, the one that brings the image's
	// cell j to the tuple's square j.
	last := -1
	for i := range n.NumImages() {
		t, img := n.Image(i)
		if t < last {
			return nil // the sum below adds the images tuple by tuple
		}
		last = t
		var vs [8]uint64
		ok := [8]bool{true, true, true, true, true, true, true, true}
		for j, x := range img {
			othelloViews(uint64(1)<<uint(x&63), &vs)
			for v := range vs {
				ok[v] = ok[v] && vs[v] == uint64(1)<<uint(c.Tuples[t][j])
			}
		}
		v := slices.Index(ok[:], true)
		if v < 0 {
			return nil
		}
		f.views[t] = append(f.views[t], uint8(v))
	}
	if len(f.w) != f.stage*max(c.Stages, 1) {
		return nil
	}
	return f
}

// othelloViews sets v to the eight views of b: the board itself, turned
// left to right (FlipX), top to bottom (FlipY) and both, then the same
// after transposing it.
func othelloViews(b uint64, v *[8]uint64) {
	t := uint64(othello.Transpose.Bitboard(othello.Bitboard(b)))
	v[0], v[4] = b, t
	v[1] = uint64(othello.FlipX.Bitboard(othello.Bitboard(b)))
	v[5] = uint64(othello.FlipX.Bitboard(othello.Bitboard(t)))
	for i := 0; i < 8; i += 4 {
		v[i+2], v[i+3] = bits.ReverseBytes64(v[i]), bits.ReverseBytes64(v[i+1])
	}
}

// othelloGather reads the squares of tuple t (of othelloTuples) from b
// into the low bits of the result: rows and blocks by shifts and masks,
// diagonals by a multiplication that adds the board's eight rows into its
// top row (a diagonal has one square a column, so no two bits meet).
func othelloGather(t uint8, b uint64) uint64 {
	var v, g [8]uint64
	v[0] = b
	gatherViews(t, &v, &g)
	return g[0]
}

// gatherViews sets g[i] to othelloGather(t, views[i]) for each of the
// eight views.
func gatherViews(t uint8, views, g *[8]uint64) {
	const rows = 0x0101010101010101
	switch t {
	case 0: // A1-H1, B2, G2
		for i, b := range views {
			g[i] = b&0xFF | b>>1&0x100 | b>>5&0x200
		}
	case 1: // A1-E1, A2-E2
		for i, b := range views {
			g[i] = b&0x1F | b>>3&0x3E0
		}
	case 2: // A1-C1, A2-C2, A3-C3
		for i, b := range views {
			g[i] = b&7 | b>>5&0x38 | b>>10&0x1C0
		}
	case 3, 4, 5: // the second, third and fourth rows
		for i, b := range views {
			g[i] = b >> (8 * (t - 2)) & 0xFF
		}
	case 6, 7, 8, 9, 10: // A1-H8, G1-A7, F1-A6, E1-A5, D1-A4
		var m uint64
		switch t {
		case 6:
			m = 0x8040201008040201
		case 7:
			m = 0x0001020408102040
		case 8:
			m = 0x0000010204081020
		case 9:
			m = 0x0000000102040810
		default:
			m = 0x0000000001020408
		}
		for i, b := range views {
			g[i] = (b & m) * rows >> 56
		}
	default:
		*g = [8]uint64{}
	}
}

// sum returns the network's sum for the position whose discs are player
// (to move) and opponent, in the weights of stage: [ntuple.Network.Sum] of
// the cells othelloCells would give. A square in both reads as empty, as
// its state, 3, does in Sum.
func (f *othelloFast) sum(stage int, player, opponent uint64) float64 {
	both := player & opponent
	player, opponent = player&^both, opponent&^both
	nstages := len(f.w) / f.stage
	stage = min(max(stage, 0), nstages-1)
	w := f.w[stage*f.stage : (stage+1)*f.stage]
	var vp, vo, gp, gop [8]uint64
	othelloViews(player, &vp)
	othelloViews(opponent, &vo)
	var s float32
	for t, views := range f.views {
		gatherViews(uint8(t), &vp, &gp)
		gatherViews(uint8(t), &vo, &gop)
		tab, off := f.tab[t], f.off[t]
		for _, v := range views {
			s += w[off+tab[gp[v&7]]+2*tab[gop[v&7]]]
		}
	}
	return float64(s)
}

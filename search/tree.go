package search

import (
	"math"
	"math/rand/v2"
)

// Policy chooses a move of a playout: given the state and its legal moves
// (never empty), it returns one of them, drawing any randomness from r. It is
// called for every ply of every playout, so it must not allocate. The nil
// Policy is uniform: moves[r.IntN(len(moves))].
type Policy[S any, M comparable] func(s S, moves []M, r *rand.Rand) M

// noNode is the index of no node.
const noNode = -1

// expandStride orders the expansion of a node's moves: the k-th child
// expanded is move (offset + k*expandStride) mod n, which visits every move
// once when n is not a multiple of this prime.
const expandStride = 7919

// node is a node of a search tree, stored in a slice and linked by index.
// Its statistics are those of the move that leads to it, from the point of
// view of mover, the player who chose it.
type node[M comparable] struct {
	move    M
	parent  int32
	child   int32 // first child, or noNode
	sibling int32 // next sibling, or noNode
	nmoves  int32 // number of legal moves (MCTS), -1 until known
	nexp    int32 // children expanded (MCTS)
	offset  int32 // start of the expansion order (MCTS)
	stamp   uint32
	avail   uint32 // iterations in which the move was legal (IS-MCTS)
	visits  uint32
	sum     float64 // sum of the payoffs for mover
	mover   int8    // the player who chose move, or Chance
}

// tree is one worker's search tree with its random source and buffers: all
// that an iteration touches, so that iterations allocate nothing once the
// buffers have grown.
type tree[S any, M comparable, G Game[S, M]] struct {
	g        G
	chance   ChanceGame[S, M] // g, if it has chance nodes
	policy   Policy[S, M]
	eval     Eval[S] // scores a playout cut off at depth plies; nil: none
	depth    int     // the plies of a playout before eval scores it; 0: none
	rng      *rand.Rand
	c        float64 // exploration constant
	maxNodes int
	is       bool // information-set mode: the legal moves of a node vary
	nodes    []node[M]
	spare    []node[M] // the other buffer for re-rooting
	path     []int32
	moves    []M
	pmoves   []M
	iter     uint32
}

func newTree[S any, M comparable, G Game[S, M]](g G, o Options, seed uint64, worker int) *tree[S, M, G] {
	t := &tree[S, M, G]{g: g, rng: rand.New(rand.NewPCG(seed, uint64(worker)+0x9E3779B97F4A7C15)), c: o.exploration(), maxNodes: o.maxNodes(), depth: max(o.PlayoutDepth, 0)}
	t.chance, _ = any(g).(ChanceGame[S, M])
	t.reset()
	return t
}

// reset empties the tree: the root alone.
func (t *tree[S, M, G]) reset() {
	t.nodes = append(t.nodes[:0], node[M]{parent: noNode, child: noNode, sibling: noNode, nmoves: -1, mover: Chance})
}

// add appends a child of parent for move m, chosen by mover, and returns its
// index, or noNode when the tree is full.
func (t *tree[S, M, G]) add(parent int32, m M, mover int) int32 {
	if len(t.nodes) >= t.maxNodes {
		return noNode
	}
	i := int32(len(t.nodes))
	t.nodes = append(t.nodes, node[M]{
		move: m, parent: parent, child: noNode, sibling: t.nodes[parent].child,
		nmoves: -1, offset: int32(t.rng.Uint32() >> 1), mover: int8(mover),
	})
	t.nodes[parent].child = i
	return i
}

// findChild returns the child of n for move m, or noNode.
func (t *tree[S, M, G]) findChild(n int32, m M) int32 {
	for c := t.nodes[n].child; c != noNode; c = t.nodes[c].sibling {
		if t.nodes[c].move == m {
			return c
		}
	}
	return noNode
}

// ucb returns the child of n with the highest upper confidence bound; in
// information-set mode only the children stamped legal in this iteration
// count, and their availability replaces the parent's visits.
func (t *tree[S, M, G]) ucb(n int32) int32 {
	best, bestV := int32(noNode), math.Inf(-1)
	logN := math.Log(float64(t.nodes[n].visits) + 1)
	for c := t.nodes[n].child; c != noNode; c = t.nodes[c].sibling {
		nd := &t.nodes[c]
		if t.is {
			if nd.stamp != t.iter {
				continue
			}
			logN = math.Log(float64(nd.avail))
		}
		v := math.Inf(1)
		if nd.visits > 0 {
			k := float64(nd.visits)
			v = (nd.sum/k+1)/2 + t.c*math.Sqrt(logN/k)
		}
		if v > bestV {
			best, bestV = c, v
		}
	}
	return best
}

// iterate runs one iteration from the root state s: selection, expansion of
// one node, a playout, and the update of the path.
func (t *tree[S, M, G]) iterate(s S) {
	t.iter++
	n := int32(0)
	t.path = append(t.path[:0], 0)
descend:
	for !t.g.IsTerminal(s) {
		mover := t.g.ToMove(s)
		if mover == Chance {
			m := t.chance.SampleOutcome(s, t.rng)
			s = t.g.Play(s, m)
			c := t.findChild(n, m)
			if c == noNode {
				if c = t.add(n, m, Chance); c != noNode {
					t.path = append(t.path, c)
				}
				break
			}
			n = c
			t.path = append(t.path, c)
			continue
		}
		var next int32
		if t.is {
			next = t.selectIS(n, s, mover)
		} else {
			next = t.selectMCTS(n, s, mover)
		}
		switch {
		case next == noNode: // the tree is full: play out from here
			break descend
		case next < 0: // a new child, ~next
			n = ^next
			s = t.g.Play(s, t.nodes[n].move)
			t.path = append(t.path, n)
			break descend
		}
		n = next
		s = t.g.Play(s, t.nodes[n].move)
		t.path = append(t.path, n)
	}
	r0 := t.playout(s)
	for _, i := range t.path {
		nd := &t.nodes[i]
		nd.visits++
		switch nd.mover {
		case 0:
			nd.sum += r0
		case 1:
			nd.sum -= r0
		}
	}
}

// selectMCTS picks the next node below the decision node n (state s): a new
// child, returned complemented, while some move has none; else the best
// child by UCB. It returns noNode if the tree is full and n has no child.
func (t *tree[S, M, G]) selectMCTS(n int32, s S, mover int) int32 {
	nd := &t.nodes[n]
	if nd.nmoves < 0 {
		t.moves = t.g.AppendMoves(s, t.moves[:0])
		nd.nmoves = int32(len(t.moves))
		if nd.nmoves == 0 {
			return noNode
		}
	} else if nd.nexp < nd.nmoves && len(t.nodes) < t.maxNodes {
		t.moves = t.g.AppendMoves(s, t.moves[:0])
	}
	if nd.nexp < nd.nmoves && len(t.nodes) < t.maxNodes && len(t.moves) == int(nd.nmoves) {
		k := uint64(nd.offset) + uint64(nd.nexp)*expandStride
		if nd.nmoves%expandStride == 0 {
			k = uint64(nd.offset) + uint64(nd.nexp)
		}
		m := t.moves[k%uint64(nd.nmoves)]
		nd.nexp++
		return ^t.add(n, m, mover)
	}
	if t.nodes[n].child == noNode {
		return noNode
	}
	return t.ucb(n)
}

// selectIS is selectMCTS in information-set mode: the children legal in s
// are stamped and their availability counted; a legal move without a child,
// drawn uniformly among them, is expanded first.
func (t *tree[S, M, G]) selectIS(n int32, s S, mover int) int32 {
	t.moves = t.g.AppendMoves(s, t.moves[:0])
	untried, pick, legal := 0, -1, 0
	for i, m := range t.moves {
		if c := t.findChild(n, m); c != noNode {
			t.nodes[c].stamp = t.iter
			t.nodes[c].avail++
			legal++
			continue
		}
		untried++
		if t.rng.IntN(untried) == 0 {
			pick = i
		}
	}
	if pick >= 0 && len(t.nodes) < t.maxNodes {
		return ^t.add(n, t.moves[pick], mover)
	}
	if legal == 0 {
		return noNode
	}
	return t.ucb(n)
}

// playout plays s out to the end with the policy, or for depth plies
// when there is an eval, and returns player 0's payoff (the eval's, clamped
// to [-MaxEval, MaxEval], for a playout cut off). It allocates nothing once
// the move buffer has grown.
func (t *tree[S, M, G]) playout(s S) float64 {
	for ply := 0; ; ply++ {
		if t.chance != nil && t.g.ToMove(s) == Chance {
			s = t.g.Play(s, t.chance.SampleOutcome(s, t.rng))
			ply--
			continue
		}
		t.pmoves = t.g.AppendMoves(s, t.pmoves[:0])
		if len(t.pmoves) == 0 {
			return t.g.Result(s, 0)
		}
		if t.eval != nil && t.depth > 0 && ply >= t.depth {
			return min(max(t.eval(s, 0), -MaxEval), MaxEval)
		}
		var m M
		if t.policy == nil {
			m = t.pmoves[t.rng.IntN(len(t.pmoves))]
		} else {
			m = t.policy(s, t.pmoves, t.rng)
		}
		s = t.g.Play(s, m)
	}
}

// reroot makes the node that old's tree reaches in state s, at most depth
// plies below the root, the new root, and reports whether it found one.
func (t *tree[S, M, G]) reroot(old, s S, depth int, eq func(a, b S) bool) bool {
	if eq(old, s) {
		return true
	}
	n := t.find(0, old, s, depth, eq)
	if n == noNode {
		return false
	}
	// Copy the subtree of n into the spare buffer, breadth first.
	sp := append(t.spare[:0], t.nodes[n])
	sp[0].parent, sp[0].sibling, sp[0].mover = noNode, noNode, Chance
	for i := 0; i < len(sp); i++ {
		first := int32(noNode)
		for c := sp[i].child; c != noNode; c = t.nodes[c].sibling {
			cp := t.nodes[c]
			cp.parent, cp.sibling = int32(i), first
			first = int32(len(sp))
			sp = append(sp, cp)
		}
		sp[i].child = first
	}
	t.nodes, t.spare = sp, t.nodes
	return true
}

// find returns the node below n (state st), at most depth plies down,
// whose state equals target, or noNode.
func (t *tree[S, M, G]) find(n int32, st, target S, depth int, eq func(a, b S) bool) int32 {
	for c := t.nodes[n].child; c != noNode; c = t.nodes[c].sibling {
		cs := t.g.Play(st, t.nodes[c].move)
		if eq(cs, target) {
			return c
		}
		if depth > 1 {
			if r := t.find(c, cs, target, depth-1, eq); r != noNode {
				return r
			}
		}
	}
	return noNode
}

package pdd_test

import (
	"errors"
	"fmt"

	"github.com/botarena/botarena/pdd"
)

// The naive reference: the obviously-correct rules engine the
// bitboard one is tested against. Cells are a 10x10 array, bridges a list of
// endpoint pairs; every question is answered by placing the tiles and
// flood-filling the whole board, or by looping over every square pair. It
// shares no code with the engine beyond Square, Move and Setup.

type naive struct {
	cells   [10][10]int8 // [y][x]: 0 empty, 1 white, 2 black
	bridges [][2]pt      // in build order
	turn    int8         // 1 white, 2 black
	course  bool         // Course, or Official
	change  bool         // Black may Change
	first   int8         // owner of the opening tiles
	final   bool         // Official: the second player's last turn
	ended   bool         // Official: the game has ended

	under [10][10]bool // squares under a bridge, recomputed from bridges
}

// refresh recomputes the squares under the bridges from scratch.
func (n *naive) refresh() *naive {
	n.under = [10][10]bool{}
	for _, b := range n.bridges {
		for _, u := range underOf(b[0], b[1]) {
			n.under[u.y][u.x] = true
		}
	}
	return n
}

type pt struct{ x, y int }

func ptOf(s pdd.Square) pt  { return pt{s.X(), s.Y()} }
func (p pt) sq() pdd.Square { return pdd.SquareAt(p.x, p.y) }
func (p pt) in() bool       { return p.x >= 0 && p.x < 10 && p.y >= 0 && p.y < 10 }

func toNaive(p pdd.Position) *naive {
	s := p.Setup()
	n := &naive{turn: int8(s.Turn), course: s.Rules == pdd.Course, change: s.ChangeAvailable,
		first: int8(s.FirstPlayer), final: s.FinalTurn, ended: s.Ended}
	for i, c := range s.Cells {
		n.cells[i/10][i%10] = int8(c)
	}
	for _, b := range s.Bridges {
		n.bridges = append(n.bridges, [2]pt{ptOf(b[0]), ptOf(b[1])})
	}
	return n.refresh()
}

func (n *naive) clone() *naive {
	c := *n
	c.bridges = append([][2]pt(nil), n.bridges...)
	return &c
}

func abs(v int) int { return max(v, -v) }

// isShape: the 8 bridge shapes, straight from the figure.
func isShape(a, b pt) bool {
	dx, dy := abs(b.x-a.x), abs(b.y-a.y)
	return dx == 2 && dy == 0 || dx == 0 && dy == 2 || dx == 2 && dy == 2 || dx == 2 && dy == 1 || dx == 1 && dy == 2
}

// underOf lists the squares under a bridge, by geometry: the squares other
// than the endpoints whose open unit cell the segment between the endpoint
// centres passes through. (The segment is sampled at 1/16 steps, exact in
// integers; where it enters a cell, it stays for a quarter of its length.)
func underOf(a, b pt) []pt {
	var out []pt
	const N = 16
	for y := min(a.y, b.y); y <= max(a.y, b.y); y++ {
		for x := min(a.x, b.x); x <= max(a.x, b.x); x++ {
			if (pt{x, y}) == a || (pt{x, y}) == b {
				continue
			}
			for k := 0; k <= N; k++ {
				// The point a + k/N (b-a), times 2N: inside the open cell
				// (2x-1, 2x+1) x (2y-1, 2y+1), times N.
				px := 2*a.x*N + 2*k*(b.x-a.x)
				py := 2*a.y*N + 2*k*(b.y-a.y)
				if (2*x-1)*N < px && px < (2*x+1)*N && (2*y-1)*N < py && py < (2*y+1)*N {
					out = append(out, pt{x, y})
					break
				}
			}
		}
	}
	return out
}

func cross(o, a, b pt) int {
	v := (a.x-o.x)*(b.y-o.y) - (a.y-o.y)*(b.x-o.x)
	switch {
	case v > 0:
		return 1
	case v < 0:
		return -1
	}
	return 0
}

func within(a, b, c pt) bool { // c on the box of a-b
	return min(a.x, b.x) <= c.x && c.x <= max(a.x, b.x) && min(a.y, b.y) <= c.y && c.y <= max(a.y, b.y)
}

// segmentsCross: exact closed-segment intersection.
func segmentsCross(p1, p2, q1, q2 pt) bool {
	d1, d2 := cross(q1, q2, p1), cross(q1, q2, p2)
	d3, d4 := cross(p1, p2, q1), cross(p1, p2, q2)
	if d1*d2 < 0 && d3*d4 < 0 {
		return true
	}
	return d1 == 0 && within(q1, q2, p1) || d2 == 0 && within(q1, q2, p2) ||
		d3 == 0 && within(p1, p2, q1) || d4 == 0 && within(p1, p2, q2)
}

func (n *naive) underAny(p pt) bool { return n.under[p.y][p.x] }

func (n *naive) hasBridge(p pt) bool {
	for _, b := range n.bridges {
		if b[0] == p || b[1] == p {
			return true
		}
	}
	return false
}

func (n *naive) count(c int8) int {
	k := 0
	for y := range 10 {
		for x := range 10 {
			if n.cells[y][x] == c {
				k++
			}
		}
	}
	return k
}

// groups flood-fills every group of colour c.
func (n *naive) groups(c int8) [][]pt {
	var seen [10][10]bool
	var out [][]pt
	for y := range 10 {
		for x := range 10 {
			if n.cells[y][x] != c || seen[y][x] {
				continue
			}
			g := []pt{{x, y}}
			seen[y][x] = true
			for i := 0; i < len(g); i++ {
				for _, d := range []pt{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
					q := pt{g[i].x + d.x, g[i].y + d.y}
					if q.in() && n.cells[q.y][q.x] == c && !seen[q.y][q.x] {
						seen[q.y][q.x] = true
						g = append(g, q)
					}
				}
			}
			out = append(out, g)
		}
	}
	return out
}

// groupRules returns the I1 or I2 sentinel colour c breaks, or nil: it
// flood-fills every group of c, checks its size, and checks the 8
// neighbours of every tile of every island.
func (n *naive) groupRules(c int8) error {
	var seen [10][10]bool
	var group [100]pt
	var islandTouches bool
	for y := range 10 {
		for x := range 10 {
			if n.cells[y][x] != c || seen[y][x] {
				continue
			}
			g := group[:1]
			g[0] = pt{x, y}
			seen[y][x] = true
			for i := 0; i < len(g); i++ {
				for _, d := range [4]pt{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
					q := pt{g[i].x + d.x, g[i].y + d.y}
					if q.in() && n.cells[q.y][q.x] == c && !seen[q.y][q.x] {
						seen[q.y][q.x] = true
						g = append(g, q)
					}
				}
			}
			if len(g) > 4 {
				return pdd.ErrGroupTooLarge
			}
			if len(g) == 4 && n.touchesOther(g, c) {
				islandTouches = true // reported after every group's size
			}
		}
	}
	if islandTouches {
		return pdd.ErrIslandTouches
	}
	return nil
}

// touchesOther reports whether a tile of c outside g is a king's step from g.
func (n *naive) touchesOther(g []pt, c int8) bool {
	for _, t := range g {
		for dy := -1; dy <= 1; dy++ {
			for dx := -1; dx <= 1; dx++ {
				q := pt{t.x + dx, t.y + dy}
				if !q.in() || n.cells[q.y][q.x] != c {
					continue
				}
				inside := false
				for _, u := range g {
					inside = inside || u == q
				}
				if !inside {
					return true
				}
			}
		}
	}
	return false
}

// checkChess classifies Chess a, b for the side to move (in the order the rules are checked).
func (n *naive) checkChess(a, b pt) error {
	c := n.turn
	if !n.course && 40-n.count(c) < 2 {
		return pdd.ErrSupply
	}
	if n.cells[a.y][a.x] != 0 || n.cells[b.y][b.x] != 0 {
		return pdd.ErrOccupied
	}
	if n.underAny(a) || n.underAny(b) {
		return pdd.ErrUnderBridge
	}
	n.cells[a.y][a.x], n.cells[b.y][b.x] = c, c
	err := n.groupRules(c)
	n.cells[a.y][a.x], n.cells[b.y][b.x] = 0, 0
	return err
}

// checkBridge classifies Bridge a, b for the side to move (in the order the rules are checked).
func (n *naive) checkBridge(a, b pt) error {
	c := n.turn
	if !n.course && len(n.bridges) >= 15 {
		return pdd.ErrSupply
	}
	if n.cells[a.y][a.x] != c || n.cells[b.y][b.x] != c {
		return pdd.ErrBridgeNotOwn
	}
	if !isShape(a, b) {
		return pdd.ErrBridgeShape
	}
	if n.hasBridge(a) || n.hasBridge(b) {
		return pdd.ErrBridgeEnds
	}
	for _, u := range underOf(a, b) {
		if n.cells[u.y][u.x] != 0 || n.course && n.underAny(u) {
			return pdd.ErrBridgeBlocked
		}
	}
	for _, o := range n.bridges {
		if segmentsCross(a, b, o[0], o[1]) {
			return pdd.ErrBridgeCrossing
		}
	}
	return nil
}

// chessAndBridges lists the legal Chess moves and Bridges of the side to move.
func (n *naive) chessAndBridges() (chess, bridges []pdd.Move) {
	for a := range pdd.Square(100) {
		for b := a + 1; b < 100; b++ {
			if n.checkChess(ptOf(a), ptOf(b)) == nil {
				chess = append(chess, pdd.Chess(a, b))
			}
		}
	}
	for a := range pdd.Square(100) {
		for b := a + 1; b < 100; b++ {
			if isShape(ptOf(a), ptOf(b)) && n.checkBridge(ptOf(a), ptOf(b)) == nil {
				bridges = append(bridges, pdd.Bridge(a, b))
			}
		}
	}
	return chess, bridges
}

// canMove reports whether the side to move has a legal Chess or Bridge.
func (n *naive) canMove() bool {
	for a := range pdd.Square(100) {
		for b := a + 1; b < 100; b++ {
			if n.checkChess(ptOf(a), ptOf(b)) == nil || isShape(ptOf(a), ptOf(b)) && n.checkBridge(ptOf(a), ptOf(b)) == nil {
				return true
			}
		}
	}
	return false
}

func (n *naive) other() *naive {
	m := n.clone()
	m.turn = 3 - n.turn
	m.change = false
	return m
}

// moves lists the legal moves in canonical order.
func (n *naive) moves() []pdd.Move {
	if n.ended {
		return nil
	}
	chess, bridges := n.chessAndBridges()
	out := append(chess, bridges...)
	if n.change {
		out = append(out, pdd.Change)
	}
	if !n.course && len(chess) == 0 || n.course && len(out) == 0 && n.other().canMove() {
		out = append(out, pdd.Pass)
	}
	return out
}

func (n *naive) over() bool {
	if !n.course {
		return n.ended
	}
	return !n.canMove() && !n.other().canMove()
}

// check classifies any move.
func (n *naive) check(m pdd.Move) error {
	if n.over() {
		return pdd.ErrGameOver
	}
	a, b := m.Squares()
	switch m.Action() {
	case pdd.ChessAction:
		return n.checkChess(ptOf(a), ptOf(b))
	case pdd.BridgeAction:
		return n.checkBridge(ptOf(a), ptOf(b))
	}
	for _, l := range n.moves() {
		if l == m {
			return nil
		}
	}
	return pdd.ErrUnknownAction
}

// play applies a legal move.
func (n *naive) play(m pdd.Move) *naive {
	r := n.clone()
	a, b := m.Squares()
	wasFinal := n.final
	switch m.Action() {
	case pdd.ChessAction:
		empty := n.count(1)+n.count(2) == 0 && len(n.bridges) == 0
		r.cells[a.Y()][a.X()], r.cells[b.Y()][b.X()] = n.turn, n.turn
		r.change = empty && n.turn == 1
	case pdd.BridgeAction:
		r.bridges = append(r.bridges, [2]pt{ptOf(a), ptOf(b)})
		r.change = false
	case pdd.ChangeAction:
		for y := range 10 {
			for x := range 10 {
				if r.cells[y][x] == 1 {
					r.cells[y][x] = 2
				}
			}
		}
		r.first, r.change = 2, false
	case pdd.PassAction:
		if !n.course && !wasFinal {
			if n.turn == n.first {
				r.final = true
			} else {
				r.ended = true
			}
		}
	}
	if wasFinal {
		r.final, r.ended = false, true
	}
	r.turn = 3 - n.turn
	return r.refresh()
}

// score: flood fill, then union-find over the colour's bridges.
func (n *naive) score(c int8) pdd.Score {
	gs := n.groups(c)
	groupOf := map[pt]int{}
	for i, g := range gs {
		for _, t := range g {
			groupOf[t] = i
		}
	}
	parent := make([]int, len(gs))
	for i := range parent {
		parent[i] = i
	}
	var find func(int) int
	find = func(i int) int {
		if parent[i] != i {
			parent[i] = find(parent[i])
		}
		return parent[i]
	}
	var s pdd.Score
	for _, b := range n.bridges {
		if n.cells[b[0].y][b[0].x] != c {
			continue
		}
		s.Bridges++
		parent[find(groupOf[b[0]])] = find(groupOf[b[1]])
	}
	islands := map[int]int{}
	for i, g := range gs {
		if len(g) == 4 {
			islands[find(i)]++
			s.Islands++
		}
	}
	for _, k := range islands {
		s.Points += k * (k + 1) / 2
	}
	return s
}

func (n *naive) perft(depth int) uint64 {
	if depth == 0 {
		return 1
	}
	var sum uint64
	for _, m := range n.moves() {
		sum += n.play(m).perft(depth - 1)
	}
	return sum
}

// sentinelOf returns the pdd sentinel err wraps, for comparing errors.
func sentinelOf(err error) error {
	if err == nil {
		return nil
	}
	for _, s := range []error{pdd.ErrGameOver, pdd.ErrSupply, pdd.ErrOccupied, pdd.ErrUnderBridge, pdd.ErrGroupTooLarge,
		pdd.ErrIslandTouches, pdd.ErrBridgeNotOwn, pdd.ErrBridgeShape, pdd.ErrBridgeEnds, pdd.ErrBridgeBlocked,
		pdd.ErrBridgeCrossing, pdd.ErrUnknownAction} {
		if errors.Is(err, s) {
			return s
		}
	}
	return fmt.Errorf("no sentinel in %w", err)
}

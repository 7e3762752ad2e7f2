package search

import (
	"math/rand/v2"

	"github.com/botarena/botarena/geister"
)

// What [GeisterPlayer] reads into the opponent's moves: the likelihood
// ratios, blue against red, of what a moved ghost did. A player keeps its
// blue ghosts out of reach and sends them toward the exits; it offers its
// red ghosts to be taken.
const (
	// geisterExposedOdds divides the odds that a ghost is blue when its
	// owner moved it next to one of the viewer's ghosts, where it can be
	// taken.
	geisterExposedOdds = 3.0
	// geisterTowardExitOdds multiplies the odds that a ghost is blue when
	// it stepped nearer its exits and out of the viewer's reach.
	geisterTowardExitOdds = 2.0
	// geisterMaxOdds bounds the odds either way, so that no run of moves
	// makes a colour certain.
	geisterMaxOdds = 16.0
)

// geisterBelief is what a Geister player has seen of the opponent's moves
// in the current game: for each opponent ghost, the odds that it is blue
// rather than red. From these it draws the determinizations of a search:
// each red set consistent with the view, with probability proportional to
// the product of the odds its colours get. It is written between searches
// and only read during one.
type geisterBelief struct {
	blueOdds [8]float64
	prev     geister.View // the view of the previous Play, if have
	have     bool

	// red marks the opponent ghosts known red though not yet taken: one
	// that stood on its exit and did not leave by it (a blue one would
	// have won at once).
	red [8]bool

	// The red sets of the current search and their cumulative weights.
	sets [geister.NumReds]geister.Reds
	cum  [geister.NumReds]float64
	n    int
}

// reset forgets the game: every opponent ghost as likely blue as red.
func (b *geisterBelief) reset() {
	for i := range b.blueOdds {
		b.blueOdds[i] = 1
	}
	b.red = [8]bool{}
	b.have = false
}

// observe reads the opponent's move between the previous view and v, and
// prepares the red sets that determinize v.
func (b *geisterBelief) observe(v geister.View) {
	if !b.have || v.Ply() <= b.prev.Ply() || v.Viewer() != b.prev.Viewer() {
		b.reset()
	}
	me := v.Viewer()
	opp := me.Opponent()
	if b.have {
		for g := geister.A; g <= geister.H; g++ {
			from, to := b.prev.Square(opp, g), v.Square(opp, g)
			if from.Valid() && to.Valid() && geisterExitDistance(opp, from, true) == 1 {
				b.red[g] = true // it could have escaped, and did not
			}
			if from == to || !to.Valid() || !from.Valid() {
				continue
			}
			exposed := false
			for _, n := range geisterNeighbours(to) {
				if c, _, ok := v.At(n); ok && c == me {
					exposed = true
				}
			}
			switch {
			case exposed:
				b.blueOdds[g] /= geisterExposedOdds
			case geisterExitDistance(opp, to, true) < geisterExitDistance(opp, from, true):
				b.blueOdds[g] *= geisterTowardExitOdds
			}
			b.blueOdds[g] = min(max(b.blueOdds[g], 1/geisterMaxOdds), geisterMaxOdds)
		}
	}
	b.prev, b.have = v, true
	b.prepare(v)
	if b.n == 0 && b.red != [8]bool{} {
		// More ghosts known red than the opponent has: it did not play to
		// win, and the marks mean nothing.
		b.red = [8]bool{}
		b.prepare(v)
	}
}

// prepare sets the red sets that determinize v and their weights.
func (b *geisterBelief) prepare(v geister.View) {
	opp := v.Viewer().Opponent()
	b.n = 0
	total := 0.0
	for i := range geister.NumReds {
		reds := geister.RedsAt(i)
		w := 1.0
		ok := true
		for g := geister.A; g <= geister.H; g++ {
			red := reds.Has(g)
			switch v.GhostColor(opp, g) {
			case geister.Red:
				ok = ok && red
			case geister.Blue:
				ok = ok && !red
			default:
				if !red {
					w *= b.blueOdds[g]
					ok = ok && !b.red[g]
				}
			}
		}
		if !ok {
			continue
		}
		total += w
		b.sets[b.n], b.cum[b.n] = reds, total
		b.n++
	}
}

// sample draws a red set for the opponent from the prepared ones, and a
// position of v with it; uniform ([geister.Determinize]) if none is ready.
func (b *geisterBelief) sample(v geister.View, r *rand.Rand) geister.Position {
	if b.n == 0 {
		return geister.Determinize(v, r)
	}
	x := r.Float64() * b.cum[b.n-1]
	lo, hi := 0, b.n-1
	for lo < hi {
		mid := (lo + hi) / 2
		if b.cum[mid] > x {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	p, err := v.Position(b.sets[lo])
	if err != nil {
		return geister.Determinize(v, r)
	}
	return p
}

// geisterBeliefGame is [Geister] determinizing by a belief.
type geisterBeliefGame struct {
	Geister
	b *geisterBelief
	// hurry, in [0, 1), makes a decided game worth less the later it
	// ends: a win at ply n pays 1-hurry*n/limit, a loss the negative, so
	// that the search prefers the quicker of two wins and the slower of two
	// losses. 0 pays 1 and -1 whenever the game ends.
	hurry float64
}

// Result is [Geister.Result], scaled down by the ply of the end as hurry
// says.
func (g geisterBeliefGame) Result(p geister.Position, player int) float64 {
	r := g.Geister.Result(p, player)
	if r == 0 || g.hurry == 0 {
		return r
	}
	return r * (1 - g.hurry*float64(min(p.Ply(), g.limit()))/float64(g.limit()))
}

// Determinize draws the opponent's colours by the belief.
func (g geisterBeliefGame) Determinize(v geister.View, r *rand.Rand) geister.Position {
	return g.b.sample(v, r)
}

// geisterNeighbours returns the squares next to s, NoSquare off the board.
func geisterNeighbours(s geister.Square) [4]geister.Square {
	x, y := s.X(), s.Y()
	return [4]geister.Square{geister.SquareAt(x, y-1), geister.SquareAt(x, y+1), geister.SquareAt(x-1, y), geister.SquareAt(x+1, y)}
}

// geisterExitDistance is the number of steps from s to the nearer exit of
// side c, plus the step off the board: in the first player's frame, or,
// if view, in the viewer's frame, c being the viewer's opponent (whose exits
// are on row 5). It is large for a square off the board.
func geisterExitDistance(c geister.Color, s geister.Square, view bool) int {
	if !s.Valid() || s >= geister.NumSquares {
		return 100
	}
	x, y := s.X(), s.Y()
	if view || c != geister.First { // the exits on row 5
		y = 5 - y
	}
	return y + min(x, 5-x) + 1
}

// Weights of geisterPlayout's scores.
const (
	geisterGuardScore   = 100 // taking a ghost on one of the mover's own back corners (the opponent's exits)
	geisterCaptureScore = 6   // taking a ghost
	geisterAdvanceScore = 5   // a blue ghost's step nearer its exits
	geisterExposeScore  = 8   // a blue ghost's step next to an opponent ghost (a penalty)
	geisterNoise        = 12  // the random part of every score
)

// geisterPlayout is the playout policy of [GeisterPlayer]: an escape when
// there is one, else the move with the best score, the sum of a random part
// and rules of thumb: take an opponent ghost standing on an exit it could
// leave by, take ghosts (whatever their colour, which the mover would not
// know), walk blue ghosts toward the exits and out of the opponent's reach
// (as [GeisterPlayer] expects its opponent to). Uniform playouts let blue ghosts
// stand next to an exit unguarded and unused; these play the race to the
// exits that decides most games.
func geisterPlayout(p geister.Position, moves []geister.Move, r *rand.Rand) geister.Move {
	best, bestScore := 0, -1<<30
	for i, m := range moves {
		if p.IsEscape(m) {
			return m
		}
		if score := geisterPlayoutScore(p, m) + r.IntN(geisterNoise); score > bestScore {
			best, bestScore = i, score
		}
	}
	return moves[best]
}

// geisterPlayoutScore is the score geisterPlayout gives m in p, but for its
// random part; m is not an escape.
func geisterPlayoutScore(p geister.Position, m geister.Move) int {
	c := p.Turn()
	opp := c.Opponent()
	to := p.Target(m)
	score := 0
	if _, _, ok := p.Captures(m); ok {
		score += geisterCaptureScore
		if geisterExitDistance(opp, to, false) == 1 {
			score += geisterGuardScore
		}
	}
	if p.GhostColor(c, m.Ghost()) == geister.Blue {
		from := p.Square(c, m.Ghost())
		score += geisterAdvanceScore * (geisterExitDistance(c, from, false) - geisterExitDistance(c, to, false))
		for _, n := range geisterNeighbours(to) {
			if oc, _, ok := p.At(n); ok && oc == opp {
				score -= geisterExposeScore
				break
			}
		}
	}
	return score
}

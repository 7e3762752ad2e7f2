package search

import (
	"context"
	"math/rand/v2"
	"time"

	"github.com/botarena/botarena/geister"
	"github.com/botarena/botarena/timer"
)

// geisterThreatDepth is the number of the opponent's moves within which
// [GeisterBestPlayer] looks for an escape it cannot stop: the opponent's
// ghost on an exit, or one step from it with no guard able to take it
// there, and so on.
const geisterThreatDepth = 3

// geisterRiskSlack is how much more risk than the safest root move's a
// move may carry and still be played: the risks are estimates, which
// should not split hairs; but a ghost the belief holds for red may still
// be the blue one that escapes.
const geisterRiskSlack = 0.005

// geisterRiskMinOdds is the least odds, blue against red, that the root
// check gives an opponent ghost, whatever the belief says: a player may
// walk a blue ghost past the viewer's ghosts to an exit (the belief reads
// that as red), and letting it escape costs the game, while taking a red
// ghost costs little.
const geisterRiskMinOdds = 0.5

// geisterThreatNodes bounds the positions one threat search visits, so
// that a crowded position cannot eat the move's time.
const geisterThreatNodes = 20000

// geisterCapReserve is what [GeisterBestPlayer] keeps back of a per-move
// cap beyond its time manager's latency margin, at most a quarter of the
// cap: on a loaded machine the answer of a bot that has used its share of
// the processor to search waits longer for the processor than that of a
// bot idling on its input, and at 100 ms a move the margin alone lost a
// third of the games on time. The root check, not the length of the
// search, makes most of its strength.
const geisterCapReserve = 25 * time.Millisecond

// GeisterBestPlayer returns package search's strongest Geister player: the
// [GeisterPlayer]'s search (IS-MCTS over determinizations drawn by what
// the opponent's ghosts have done; a ghost that stood on its exit and did
// not leave is red), with playouts in which a player takes
// the ghosts within its reach, but not when the ghost may be its owner's
// last red one, and in which a win counts for less the later it comes;
// and at the root a tactical check that sees escapes coming. For every legal move it weighs,
// over the red sets the view allows (weighted by the same belief, but
// every ghost given odds of at least 1 to 2 of being blue), the
// chance that the opponent then has an escape it cannot be stopped from
// within three of its moves (a ghost on an exit, one that reaches an exit
// where no ghost can take it, ...) or that the move loses at once, and it
// plays the search's favourite among the moves whose chance is (nearly)
// the least: it takes or blocks a ghost that threatens to escape rather
// than race it. It escapes at once when it can, and among the safest moves
// plays without a search one that forces its own escape within three moves
// (the quickest) in nearly all the determinizations. It keeps time as
// [GeisterPlayer] does, but under a per-move cap it keeps back 25 ms more
// (at most a quarter of the cap) for a loaded machine; its red set is
// drawn uniformly from a source seeded by o.Seed; plyLimit is the game's
// ply limit, 0 meaning the GAT's.
func GeisterBestPlayer(o Options, plyLimit int) geister.Player {
	b := &geisterBelief{}
	b.reset()
	m := NewISMCTS(geisterBeliefGame{Geister: Geister{PlyLimit: plyLimit}, b: b, hurry: geisterHurry}, o)
	m.Policy = geisterBestPlayout
	return &geisterBest{geisterPlayer: geisterPlayer{m: m, b: b, rng: rand.New(rand.NewPCG(o.Seed, 0x5E7))}}
}

// geisterHurry is the hurry of [GeisterBestPlayer]'s search (see
// geisterBeliefGame): a win at the ply limit is worth half a win at once.
const geisterHurry = 0.5

// geisterLastRedScore is what [geisterBestPlayout] takes off a capture
// when the ghost's owner has a single red ghost left on the board: the
// capture may be that ghost, which wins the game for its owner. A player
// who can count, as most can, shies away from it, and so a side down to
// its last red ghost can walk its blue ghosts past the opponent's; the
// capture of a ghost on an exit still outweighs it.
const geisterLastRedScore = 40

// geisterBestCaptureScore is what [geisterBestPlayout] adds to any other
// capture: with it, a capture outweighs the random part of the score, as
// it does for the many players who take every ghost within reach, and
// the search learns to keep its blue ghosts out of reach.
const geisterBestCaptureScore = 10

// geisterBestPlayout is the playout policy of [GeisterBestPlayer]:
// [geisterPlayout]'s, but a capture that may be the last red ghost of its
// owner scores geisterLastRedScore less.
func geisterBestPlayout(p geister.Position, moves []geister.Move, r *rand.Rand) geister.Move {
	opp := p.Turn().Opponent()
	oppReds, _ := p.Captured(opp)
	best, bestScore := 0, -1<<30
	for i, m := range moves {
		if p.IsEscape(m) {
			return m
		}
		score := geisterPlayoutScore(p, m) + r.IntN(geisterNoise)
		if _, _, ok := p.Captures(m); ok {
			if oppReds == 3 {
				score -= geisterLastRedScore
			} else {
				score += geisterBestCaptureScore
			}
		}
		if score > bestScore {
			best, bestScore = i, score
		}
	}
	return moves[best]
}

type geisterBest struct {
	geisterPlayer
	risk   [32]float64 // the risk of each legal move, by index
	warmed bool        // Setup has run the warm-up search
}

// geisterWarmPlayouts is the size of the search [GeisterBestPlayer] runs
// at its first Setup, on a start position of its own, away from its game's
// search and random source: the program's first moves then find the
// search's code and memory ready. On a loaded machine at 100 ms a move,
// the first moves of a game were those most often lost on time.
const geisterWarmPlayouts = 2000

// Setup draws a red set uniformly, forgets the previous game and, the
// first time, warms the search up.
func (p *geisterBest) Setup(ctx context.Context) (geister.Reds, error) {
	reds, err := p.geisterPlayer.Setup(ctx)
	p.mu.Lock()
	defer p.mu.Unlock()
	if err == nil && !p.warmed {
		p.warmed = true
		if start, serr := geister.Start(reds, reds); serr == nil {
			w := NewISMCTS(Geister{}, Options{Playouts: geisterWarmPlayouts, Seed: 1, Workers: p.m.opts.Workers})
			w.Policy = geisterPlayout
			_, _ = w.Search(ctx, start.View(geister.First)) // for its side effects only
		}
	}
	return reds, err
}

// Play reads the opponent's last move into the belief, weighs the risk of
// every legal move and searches v.
func (p *geisterBest) Play(ctx context.Context, v geister.View) (geister.Move, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	b := p.b
	newGame := !b.have || v.Ply() <= b.prev.Ply() || v.Viewer() != b.prev.Viewer()
	left := (p.m.g.limit() - v.Ply() + 1) / 2
	if st, ok := timer.StatusFrom(ctx); ok && st.Control.MoveCap > 0 {
		st.Control.MoveCap -= min(geisterCapReserve, st.Control.MoveCap/4)
		ctx = timer.WithStatus(ctx, st)
	}
	outer := ctx
	ctx, done := p.clock.start(ctx, plyPlan{newGame: newGame, progress: v.Ply(), maxLeft: max(left, 1)})
	defer done()
	b.observe(v)

	var buf [32]geister.Move
	moves := v.AppendLegalMoves(buf[:0])
	for _, m := range moves {
		if v.IsEscape(m) {
			return m, nil
		}
	}
	if len(moves) == 0 {
		res, err := p.m.Search(ctx, v)
		return res.Move, err
	}
	risk := p.risk[:len(moves)]
	// The check is what keeps the game: it may run into the reserve kept
	// back under a per-move cap, past the search's deadline (on a loaded
	// machine the deadline may have passed before it starts).
	cctx := ctx
	if dl, ok := ctx.Deadline(); ok {
		var cancel context.CancelFunc
		cctx, cancel = context.WithDeadline(outer, dl.Add(geisterCapReserve))
		defer cancel()
	}
	least := geisterRisks(cctx, v, b, moves, risk)
	safe := 0
	for _, r := range risk {
		if r <= least+geisterRiskSlack {
			safe++
		}
	}
	if safe == 1 || ctx.Err() != nil {
		return geisterLeastRisk(moves, risk, least), nil
	}
	if m, ok := geisterForcedWin(cctx, v, b, moves, risk, least+geisterRiskSlack); ok {
		return m, nil
	}
	res, err := p.m.Search(ctx, v)
	if err != nil {
		return res.Move, err
	}
	if safe == len(moves) && v.IsLegal(res.Move) {
		return res.Move, nil
	}
	best, visits := geister.NoMove, 0 // a search stopped before its first playout has none
	for _, st := range res.Moves {
		for i, m := range moves {
			if m == st.Move && risk[i] <= least+geisterRiskSlack && st.Visits > visits {
				best, visits = m, st.Visits
			}
		}
	}
	if best == geister.NoMove {
		best = geisterLeastRisk(moves, risk, least)
	}
	return best, nil
}

// geisterLeastRisk returns the first of moves with the least risk.
func geisterLeastRisk(moves []geister.Move, risk []float64, least float64) geister.Move {
	for i, m := range moves {
		if risk[i] <= least {
			return m
		}
	}
	return moves[0]
}

// geisterRisks sets risk[i] to the chance, over the determinizations b
// draws from v (each ghost's odds of being blue at least
// geisterRiskMinOdds), that the viewer's move moves[i] lets the opponent
// force an escape within geisterThreatDepth of its moves (or loses the game at
// once); it returns the least of them. It stops early, with the risks of
// the determinizations searched so far, once ctx is done. The chance that
// a move loses at once (it takes the opponent's last red ghost) is weighed
// by the belief itself, without the least odds: a ghost that walked into
// the viewer's reach again and again is likely the red one the opponent
// offers, and the viewer had better let it be than take it.
//
// The threat searches of one move give the same answer for all the
// determinizations that colour alike the opponent's ghosts near enough to
// their exits to leave within the depth and those the move may take, as
// long as the captures of the replies within it cannot end the game by the
// count of colours taken: each is searched once.
func geisterRisks(ctx context.Context, v geister.View, b *geisterBelief, moves []geister.Move, risk []float64) float64 {
	return geisterRisksMemo(ctx, v, b, moves, risk, true)
}

// geisterRisksMemo is geisterRisks, searching each determinization afresh
// unless memo.
func geisterRisksMemo(ctx context.Context, v geister.View, b *geisterBelief, moves []geister.Move, risk []float64, memo bool) float64 {
	for i := range risk {
		risk[i] = 0
	}
	opp := v.Viewer().Opponent()
	var near [8]bool
	for g := geister.A; g <= geister.H; g++ {
		near[g] = geisterExitDistance(opp, v.Square(opp, g), true) <= geisterThreatDepth
	}
	for _, m := range moves {
		if g, _, ok := v.Captures(m); ok {
			near[g] = true // its colour decides what taking it does
		}
	}
	redsTaken, bluesTaken := v.Captured(opp)
	// Our replies within the depth take at most geisterThreatDepth-1 ghosts
	// besides the one the move may take.
	memoOK := redsTaken+geisterThreatDepth-1 < 4 && bluesTaken+geisterThreatDepth-1 < 4
	memoOK = memoOK && memo
	var seen [32][256]int8 // by move and the near ghosts' colours: 0 unknown, 1 safe, 2 forced
	var atOnce [32]float64 // by move: the belief's weight of the determinizations it loses at once
	total, totalAtOnce := 0.0, 0.0
	var s geisterThreatSearch
	for k := 0; k < b.n; k++ {
		if ctx.Err() != nil { // a determinization's searches may take a few ms late in a game
			break
		}
		w, wb := 1.0, 1.0
		for g := geister.A; g <= geister.H; g++ {
			if v.GhostColor(opp, g) == geister.Unknown && !b.sets[k].Has(g) {
				w *= max(b.blueOdds[g], geisterRiskMinOdds)
				wb *= b.blueOdds[g]
			}
		}
		p, err := v.Position(b.sets[k])
		if err != nil || w <= 0 {
			continue
		}
		key := 0
		for g := geister.A; g <= geister.H; g++ {
			if near[g] && b.sets[k].Has(g) {
				key |= 1 << g
			}
		}
		// This determinization's share, added once all its moves are
		// weighed: a search stopped between two moves leaves it out.
		var forced [32]bool
		var lose [32]bool
		me := p.Turn()
		stopped := false
		for i, m := range moves {
			if i >= len(forced) {
				break
			}
			if i&3 == 3 && ctx.Err() != nil { // up to geisterThreatNodes each
				stopped = true
				break
			}
			q := p.PlayUnchecked(m)
			if q.IsOver() {
				lose[i] = q.Result().Winner != me
				continue
			}
			if memoOK && seen[i][key] != 0 {
				forced[i] = seen[i][key] == 2
				continue
			}
			s.nodes = 0
			forced[i] = s.forces(q, geisterThreatDepth)
			if memoOK {
				seen[i][key] = 1
				if forced[i] {
					seen[i][key] = 2
				}
			}
		}
		if stopped {
			break
		}
		total += w
		totalAtOnce += wb
		for i := range min(len(moves), len(forced)) {
			if forced[i] {
				risk[i] += w
			}
			if lose[i] {
				atOnce[i] += wb
			}
		}
	}
	least := 1.0
	for i := range risk {
		if total > 0 {
			risk[i] /= total
		}
		if i < len(atOnce) && totalAtOnce > 0 {
			risk[i] += atOnce[i] / totalAtOnce
		}
		least = min(least, risk[i])
	}
	return least
}

// geisterWinShare is the least share of the determinizations in which a
// move must force the viewer's escape for [GeisterBestPlayer] to play it
// without a search.
const geisterWinShare = 0.98

// geisterForcedWin returns a move among moves whose risk is at most
// maxRisk after which the viewer escapes within geisterThreatDepth of its
// moves whatever the opponent plays, in at least geisterWinShare of the
// determinizations b draws from v; false if there is none, or ctx is done
// first.
func geisterForcedWin(ctx context.Context, v geister.View, b *geisterBelief, moves []geister.Move, risk []float64, maxRisk float64) (geister.Move, bool) {
	me := v.Viewer()
	near := false
	for g := geister.A; g <= geister.H; g++ {
		// The viewer's exits are on row 0 of its frame, as the first player's.
		near = near || v.GhostColor(me, g) == geister.Blue && geisterExitDistance(geister.First, v.Square(me, g), false) <= geisterThreatDepth+1
	}
	if !near || b.n == 0 {
		return geister.NoMove, false
	}
	var s geisterThreatSearch
	var rbuf [32]geister.Move
	total := b.cum[b.n-1]
	for n := 1; n <= geisterThreatDepth; n++ { // the quickest win first
		for i, m := range moves {
			if risk[i] > maxRisk {
				continue
			}
			if geisterWinsWithin(ctx, v, b, m, n, &s, rbuf[:0]) >= geisterWinShare*total {
				return m, true
			}
			if ctx.Err() != nil {
				return geister.NoMove, false
			}
		}
	}
	return geister.NoMove, false
}

// geisterWinsWithin returns the weight of the determinizations b draws from
// v in which, after the viewer's move m, the viewer escapes within n of
// its moves whatever the opponent plays; it stops counting once more than
// 1-geisterWinShare of the weight is lost.
func geisterWinsWithin(ctx context.Context, v geister.View, b *geisterBelief, m geister.Move, n int, s *geisterThreatSearch, rbuf []geister.Move) float64 {
	me := v.Viewer()
	total := b.cum[b.n-1]
	lost := 0.0 // the weight of the determinizations m does not win
	for k := 0; k < b.n && lost <= (1-geisterWinShare)*total; k++ {
		if ctx.Err() != nil {
			return 0
		}
		w := b.cum[k]
		if k > 0 {
			w -= b.cum[k-1]
		}
		p, err := v.Position(b.sets[k])
		if err != nil {
			lost += w
			continue
		}
		q := p.PlayUnchecked(m)
		if q.IsOver() {
			if q.Result().Winner != me {
				lost += w
			}
			continue
		}
		for _, r := range q.AppendLegalMoves(rbuf) {
			t := q.PlayUnchecked(r)
			s.nodes = 0
			if t.IsOver() && t.Result().Winner != me || !t.IsOver() && !s.forces(t, n) {
				lost += w
				break
			}
		}
	}
	return total - lost
}

// geisterThreatSearch is an AND-OR search for a forced escape in a
// position whose colours are all known.
type geisterThreatSearch struct {
	nodes int
}

// forces reports whether the side to move in p can escape within n of its
// moves whatever the other side plays: an escape now, or a move after
// which every reply leaves a forced escape within n-1 (a reply that loses
// the game at once counts for the mover). Only the moves of blue ghosts
// that can still reach an exit in time are tried. Past the search's node
// budget it answers false.
func (s *geisterThreatSearch) forces(p geister.Position, n int) bool {
	if n <= 0 {
		return false
	}
	s.nodes++
	c := p.Turn()
	if !geisterRunnerWithin(p, c, n) {
		return false
	}
	var buf [32]geister.Move
	moves := p.AppendLegalMoves(buf[:0])
	for _, m := range moves {
		if p.IsEscape(m) {
			return true
		}
	}
	if n == 1 || s.nodes > geisterThreatNodes {
		return false
	}
	var rbuf [32]geister.Move
	for _, m := range moves {
		g := m.Ghost()
		if p.GhostColor(c, g) != geister.Blue {
			continue
		}
		to := p.Target(m)
		if geisterExitDistance(c, to, false) > n-1 {
			continue
		}
		q := p.PlayUnchecked(m)
		if q.IsOver() {
			if q.Result().Winner == c {
				return true
			}
			continue
		}
		all := true
		for _, r := range q.AppendLegalMoves(rbuf[:0]) {
			t := q.PlayUnchecked(r)
			if t.IsOver() {
				if t.Result().Winner == c {
					continue
				}
				all = false
				break
			}
			if !s.forces(t, n-1) {
				all = false
				break
			}
		}
		if all {
			return true
		}
	}
	return false
}

// geisterRunnerWithin reports whether side c has a blue ghost within n
// moves of leaving by one of its exits, the board's walls aside.
func geisterRunnerWithin(p geister.Position, c geister.Color, n int) bool {
	for g := geister.A; g <= geister.H; g++ {
		if p.GhostColor(c, g) == geister.Blue && geisterExitDistance(c, p.Square(c, g), false) <= n {
			return true
		}
	}
	return false
}

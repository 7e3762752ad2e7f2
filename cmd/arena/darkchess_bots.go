package main

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/botarena/botarena/darkchess"
	"github.com/botarena/botarena/search"
	"github.com/botarena/botarena/timer"
)

// darkchessBotNames lists the built-in dark chess players, "random" first.
// Each is written with the public API only, as a user would; "best" is the
// strongest, the same as expecti.
func darkchessBotNames() []string { return []string{"random", "greedy", "expecti", "mcts", "best"} }

// newDarkchessBot returns the built-in dark chess player called name, its
// choices drawn from a source seeded by seed, for one game at a time under
// the time control ctl.
func newDarkchessBot(name string, seed uint64, ctl timer.Control) (darkchess.Player, error) {
	rng := rand.New(rand.NewPCG(seed, seed^0x9E3779B97F4A7C15))
	switch name {
	case "random":
		return darkchess.PlayerFunc(func(_ context.Context, v darkchess.View) (darkchess.Move, error) {
			moves := v.AppendLegalMoves(nil)
			if len(moves) == 0 {
				return darkchess.NoMove, fmt.Errorf("no legal ply in %s", v)
			}
			return moves[rng.IntN(len(moves))], nil
		}), nil
	case "greedy":
		return &darkchessGreedy{rng: rng}, nil
	case "expecti", "best":
		return newDarkchessBest(ctl), nil
	case "mcts":
		return newDarkchessMCTS(seed, ctl), nil
	}
	return nil, fmt.Errorf("unknown dark chess player %q (built-in players: %s)", name, strings.Join(darkchessBotNames(), ", "))
}

// darkchessBestDepth is the depth of the best (and expecti) bot's search
// under a control with no limit (-time none), so that games replay from
// the seed; under a limit it deepens until the time is up.
const darkchessBestDepth = 4

// newDarkchessBest returns the dark chess best bot, also called expecti,
// for one game at a time: search.DarkChessBestPlayer (expectimax over the
// view, each flip a chance node), told the match's control by a keeper,
// which it shares out among its plies by itself; to darkchessBestDepth
// under -time none.
func newDarkchessBest(ctl timer.Control) darkchess.Player {
	o := search.DepthOptions{}
	if ctl.Unlimited() {
		o.Depth = darkchessBestDepth
	}
	k := &keeper{ctl: ctl}
	p := search.DarkChessBestPlayer(o)
	return darkchess.PlayerFunc(func(ctx context.Context, v darkchess.View) (darkchess.Move, error) {
		return p.Play(k.searchContext(ctx), v)
	})
}

// darkchessBotMargin is the margin of a built-in's MGTP engine
// (mgtp.Engine.Margin): its deadline is its clock less this. The mcts bot
// keeps its own margin (its time manager's), which a second one would only
// shorten.
const darkchessBotMargin = 10 * time.Millisecond

// darkchessValue is what a piece of each kind is worth to the greedy player,
// indexed by darkchess.Kind. The king is worth most but a pawn can take it;
// a cannon, which captures from afar, is worth more than its rank says.
var darkchessValue = [8]int{darkchess.King: 600, darkchess.Guard: 300, darkchess.Minister: 150,
	darkchess.Rook: 80, darkchess.Knight: 50, darkchess.Cannon: 160, darkchess.Pawn: 30}

// darkchessGreedy is a one-ply player with a look at the reply: it plays
// the ply that leaves it the most material, counted over the revealed and
// the face-down pieces alike, less what the opponent's best capture would
// win back (net of an immediate recapture). A flip is valued as the average
// over the pieces it may reveal, weighted by the pool. Among steps of equal
// worth it prefers those that bring a piece nearer to an enemy it can take,
// so that games end in captures rather than in the no-progress draw; ties
// are broken at random.
type darkchessGreedy struct {
	rng *rand.Rand
}

// Play chooses the ply; it is quick enough to ignore ctx.
func (g *darkchessGreedy) Play(_ context.Context, v darkchess.View) (darkchess.Move, error) {
	moves := v.AppendLegalMoves(nil)
	if len(moves) == 0 {
		return darkchess.NoMove, fmt.Errorf("no legal ply in %s", v)
	}
	me := v.Turn()
	if !me.Valid() {
		// The first ply of a game: every ply is a flip, none better.
		return moves[g.rng.IntN(len(moves))], nil
	}
	p := v.Position()
	best, bestScore, ties := darkchess.NoMove, 0, 0
	for _, m := range moves {
		score := g.score(p, m, me)
		switch {
		case best == darkchess.NoMove || score > bestScore:
			best, bestScore, ties = m, score, 1
		case score == bestScore:
			// Reservoir sampling among equals.
			ties++
			if g.rng.IntN(ties) == 0 {
				best = m
			}
		}
	}
	if best == darkchess.NoMove {
		return darkchess.NoMove, errors.New("greedy: no ply chosen")
	}
	return best, nil
}

// score values m, played by me in p, in hundredths of the material scale.
func (g *darkchessGreedy) score(p darkchess.Position, m darkchess.Move, me darkchess.Color) int {
	if m.IsFlip() {
		total, sum := 0, 0
		for pc := darkchess.RedKing; pc <= darkchess.BlackPawn; pc++ {
			n := p.Pool(pc)
			if n == 0 || !pc.Valid() {
				continue
			}
			after := p.PlayPlyUnchecked(darkchess.Ply{Move: m, Piece: pc})
			sum += n * darkchessEval(after, me)
			total += n
		}
		if total == 0 {
			return 0
		}
		return 100 * sum / total
	}
	after := p.PlayPlyUnchecked(darkchess.Ply{Move: m})
	score := 100 * darkchessEval(after, me)
	if !p.IsCapture(m) {
		score += darkchessApproach(p, m, me)
	}
	return score
}

// darkchessEval values p, the opponent of me to move: me's material less the
// opponent's, less the best the opponent can win by a capture now.
func darkchessEval(p darkchess.Position, me darkchess.Color) int {
	if p.Count(me.Opponent()) == 0 {
		return 1 << 20 // a win
	}
	score := darkchessMaterial(p, me) - darkchessMaterial(p, me.Opponent())
	var buf [darkchess.MaxMoves]darkchess.Move
	threat := 0
	for _, m := range p.AppendLegalMoves(buf[:0]) {
		if m.IsFlip() || !p.IsCapture(m) {
			continue
		}
		gain := darkchessValue[p.At(m.To()).Kind()]
		if gain <= threat {
			continue
		}
		// Can me take the capturer back on its new square?
		after := p.PlayPlyUnchecked(darkchess.Ply{Move: m})
		var buf2 [darkchess.MaxMoves]darkchess.Move
		for _, r := range after.AppendLegalMoves(buf2[:0]) {
			if r.To() == m.To() && !r.IsFlip() && after.IsCapture(r) {
				gain -= darkchessValue[after.At(m.To()).Kind()]
				break
			}
		}
		threat = max(threat, gain)
	}
	return score - threat
}

// darkchessMaterial sums the value of c's pieces, revealed and face-down.
func darkchessMaterial(p darkchess.Position, c darkchess.Color) int {
	sum := 0
	for k := darkchess.King; k <= darkchess.Pawn; k++ {
		pc := darkchess.MakePiece(c, k)
		sum += (p.Pool(pc) + p.Pieces(pc).Count()) * darkchessValue[k]
	}
	return sum
}

// darkchessApproach is a small bonus for a step that brings its piece nearer
// to the nearest revealed enemy it could take (a cannon: any enemy).
func darkchessApproach(p darkchess.Position, m darkchess.Move, me darkchess.Color) int {
	k := p.At(m.From()).Kind()
	nearest := func(from darkchess.Square) int {
		d := 1 << 10
		for s := darkchess.Square(0); s < 32; s++ {
			pc := p.At(s)
			if !pc.Valid() || pc.Color() == me || (k != darkchess.Cannon && !k.Takes(pc.Kind())) {
				continue
			}
			d = min(d, darkchessDistance(from, s))
		}
		return d
	}
	before, after := nearest(m.From()), nearest(m.To())
	if before >= 1<<10 {
		return 0
	}
	return before - after // +1 nearer, -1 farther
}

// darkchessDistance is the number of steps between two squares.
func darkchessDistance(a, b darkchess.Square) int {
	ax, ay, bx, by := int(a)%4, int(a)/4, int(b)%4, int(b)/4
	return max(ax-bx, bx-ax) + max(ay-by, by-ay)
}

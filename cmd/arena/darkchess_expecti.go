package main

import (
	"context"
	"math"
	"time"

	"github.com/botarena/botarena/darkchess"
	"github.com/botarena/botarena/search"
	"github.com/botarena/botarena/timer"
)

// darkchessExpectiDepth is the depth of the expecti bot's search under a
// control with no limit (-time none), so that games replay from the seed;
// under a limit it deepens until the time is up.
const darkchessExpectiDepth = 4

// darkchessContempt is what a repetition costs the expecti bot (in the
// search's units, a win being 1): about a minister (tanh(4*10/160)), so
// that it plays on, a piece down if need be, rather than walk a chased
// piece back and forth into the draw by repetition. (At 0.1, about a
// knight, a third of its games against greedy ended so; at 0.25, a fifth.)
const darkchessContempt = 0.25

// darkchessRepeats is search.DarkChess that scores a return to a position
// of the game so far as a draw, as engines score repetitions: a side ahead
// looks for progress instead of walking back and forth into the
// repetition draw (the adapter itself knows no history).
type darkchessRepeats struct {
	search.DarkChess
	seen *darkchessHistory
}

// repeat reports whether s, not a chance node, is a position of the game
// so far (the same pieces on the same squares, the same side to move).
func (g darkchessRepeats) repeat(s search.DarkChessState) bool {
	_, pending := s.Pending()
	p := s.Position()
	return !pending && p.Quiet() > 0 && p != g.seen.root && g.seen.has(p)
}

// IsTerminal reports the end of the game, or a repetition.
func (g darkchessRepeats) IsTerminal(s search.DarkChessState) bool {
	return g.DarkChess.IsTerminal(s) || g.repeat(s)
}

// Result scores a repetition as a draw, less darkchessContempt for the
// player searching.
func (g darkchessRepeats) Result(s search.DarkChessState, player int) float64 {
	if !g.DarkChess.IsTerminal(s) {
		if player == g.seen.me {
			return -darkchessContempt
		}
		return darkchessContempt
	}
	return g.DarkChess.Result(s, player)
}

// AppendMoves appends nothing at a repetition.
func (g darkchessRepeats) AppendMoves(s search.DarkChessState, dst []darkchess.Ply) []darkchess.Ply {
	if g.repeat(s) {
		return dst
	}
	return g.DarkChess.AppendMoves(s, dst)
}

// darkchessHistory is the set of positions of a game, the no-progress
// counter aside.
type darkchessHistory struct {
	byOccupancy map[darkchessOccupancy][]darkchess.Position
	root        darkchess.Position // the position searched, never a repetition of itself
	me          int                // the player searching
}

// darkchessOccupancy is where a position's pieces stand and who moves: a
// quick key, two positions with one occupancy compared square by square.
type darkchessOccupancy struct {
	red, black, down darkchess.Bitboard
	turn             darkchess.Color
}

func occupancyOf(p darkchess.Position) darkchessOccupancy {
	return darkchessOccupancy{p.Revealed(darkchess.Red), p.Revealed(darkchess.Black), p.FaceDown(), p.Turn()}
}

func (h *darkchessHistory) add(p darkchess.Position) {
	if h.has(p) {
		return
	}
	if h.byOccupancy == nil {
		h.byOccupancy = map[darkchessOccupancy][]darkchess.Position{}
	}
	k := occupancyOf(p)
	h.byOccupancy[k] = append(h.byOccupancy[k], p)
}

func (h *darkchessHistory) has(p darkchess.Position) bool {
	for _, q := range h.byOccupancy[occupancyOf(p)] {
		same := true
		for s := darkchess.Square(0); s < 32 && same; s++ {
			same = p.At(s) == q.At(s)
		}
		if same {
			return true
		}
	}
	return false
}

// darkchessExpectiEval returns the expecti bot's evaluation under a
// no-progress limit of limit plies (0: the rules' default):
// search.DarkChessEval's material balance, stretched by darkchessEvalGain
// into (-1, 1) as the mcts bot's playouts are scored, and shrunk toward the
// draw as the no-progress counter runs toward the limit, so that a side
// ahead prefers the lines that capture or flip to those that wait.
func darkchessExpectiEval(limit int) search.Eval[search.DarkChessState] {
	if limit <= 0 {
		limit = darkchess.DefaultRules.NoProgressPlies
	}
	return func(s search.DarkChessState, player int) float64 {
		left := max(0, 1-float64(s.Position().Quiet())/float64(limit))
		return left * math.Tanh(darkchessEvalGain*search.DarkChessEval(s, player))
	}
}

// darkchessExpecti is the dark chess expecti bot: package search's
// Expectimax (Star1) over the view's position, each flip a chance node,
// with darkchessExpectiEval at the leaves and the game's positions so far
// scored as draws (darkchessRepeats). It deepens until the time its
// thinker gives it is up, or to darkchessExpectiDepth under -time none.
type darkchessExpecti struct {
	t    thinker
	o    search.DepthOptions
	g    search.DarkChess // the rules x was made with
	seen darkchessHistory
	x    *search.Expectimax[search.DarkChessState, darkchess.Ply, darkchessRepeats]
}

// newDarkchessExpecti returns the dark chess expecti bot, for one game at a
// time.
func newDarkchessExpecti(ctl timer.Control) *darkchessExpecti {
	o := search.DepthOptions{}
	if ctl.Unlimited() {
		o.Depth = darkchessExpectiDepth
	}
	return &darkchessExpecti{t: thinker{ctl: ctl}, o: o}
}

// Play searches v's position.
func (b *darkchessExpecti) Play(ctx context.Context, v darkchess.View) (darkchess.Move, error) {
	if g := (search.DarkChess{NoProgressPlies: v.Rules.NoProgressPlies, Ordered: true}); b.x == nil || g != b.g {
		b.g = g
		b.x = search.NewExpectimax(darkchessRepeats{g, &b.seen}, darkchessExpectiEval(g.NoProgressPlies), b.o)
	}
	var left time.Duration // unknown before the first flip gives the colours
	if c := v.Viewer(); c.Valid() {
		left = v.TimeLeft[c]
	}
	s := b.g.Determinize(v, nil)
	b.seen.root, b.seen.me = s.Position(), b.g.ToMove(s)
	m, err := think(&b.t, ctx, left, func(ctx context.Context) (darkchess.Move, error) {
		res, err := b.x.Search(ctx, s)
		return res.Move.Move, err
	})
	if err == nil {
		b.seen.add(s.Position())
		if !m.IsFlip() {
			b.seen.add(s.Position().PlayUnchecked(m))
		}
	}
	return m, err
}

package search

import "github.com/botarena/botarena/darkchess"

// DarkChessRepeats is the [DarkChess] adapter with the game's history: a
// decision state whose position is one of History's (the same pieces on
// the same squares, the same side to move, the no-progress counter aside),
// other than the position being searched, is terminal, scored as a draw
// less Contempt for the player searching. A return to a position starts
// the rules' repetition draw; scored so, as chess engines score
// repetitions, a side ahead looks for progress instead of walking a chased
// piece back and forth into the draw, and a side behind takes it when all
// else is worse than the contempt. [DarkChessExpectimaxPlayer] searches it.
type DarkChessRepeats struct {
	DarkChess
	// History holds the positions of the game; nil holds none.
	History *DarkChessHistory
	// Contempt is what a repetition costs the player searching, in the
	// scale of the results and evaluations (a win 1): [DefaultContempt] is
	// a minister by [DarkChessEval].
	Contempt float64
}

// DefaultContempt is the contempt of [DarkChessRepeats] searched with
// [DarkChessEval]: a minister, 10/160. Enough that a side plays on a piece
// down rather than into the draw; an evaluation on another scale needs its
// own (arena's expecti bot, whose evaluation stretches material by tanh,
// counts a minister at tanh(4*10/160), about 0.25).
const DefaultContempt = 10.0 / darkChessScale

// MaxDarkChessHistory bounds a [DarkChessHistory]: a history that holds
// this many positions forgets them all before it takes another.
const MaxDarkChessHistory = 4096

// DarkChessHistory is the set of positions of a dark chess game (the
// no-progress counter aside) for [DarkChessRepeats], and the state being
// searched. The zero value is an empty history. It is not safe for
// concurrent use.
type DarkChessHistory struct {
	byOccupancy map[darkChessOccupancy][]darkchess.Position
	n           int
	root        darkchess.Position // the position searched, never a repetition of itself
	rooted      bool
	me          int // the player searching
}

// darkChessOccupancy is where a position's pieces stand and who moves: a
// quick key, two positions with one occupancy compared square by square.
type darkChessOccupancy struct {
	red, black, down darkchess.Bitboard
	turn             darkchess.Color
}

func occupancyOf(p darkchess.Position) darkChessOccupancy {
	return darkChessOccupancy{p.Revealed(darkchess.Red), p.Revealed(darkchess.Black), p.FaceDown(), p.Turn()}
}

// Add records p, a public position (see [NewDarkChessState]).
func (h *DarkChessHistory) Add(p darkchess.Position) {
	if h.Has(p) {
		return
	}
	if h.byOccupancy == nil || h.n >= MaxDarkChessHistory {
		h.byOccupancy, h.n = map[darkChessOccupancy][]darkchess.Position{}, 0
	}
	k := occupancyOf(p)
	h.byOccupancy[k] = append(h.byOccupancy[k], p)
	h.n++
}

// Has reports whether p, the no-progress counter aside, is in the history.
func (h *DarkChessHistory) Has(p darkchess.Position) bool {
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

// Len returns the number of positions in the history.
func (h *DarkChessHistory) Len() int { return h.n }

// Reset empties the history, for a new game.
func (h *DarkChessHistory) Reset() {
	clear(h.byOccupancy)
	h.n, h.rooted = 0, false
}

// Searching tells h the decision state about to be searched, whose player
// to move the contempt counts against. A state right after a capture or a
// flip (no-progress counter 0) empties the history first: no position
// before it can come again.
func (h *DarkChessHistory) Searching(s DarkChessState) {
	p := s.Position()
	if p.Quiet() == 0 {
		h.Reset()
	}
	h.root, h.rooted, h.me = p, true, DarkChess{}.ToMove(s)
}

// Played records the position last searched and the one after m, played
// there, unless m is a flip (whose piece is not known yet; no position
// after a flip can repeat one before).
func (h *DarkChessHistory) Played(m darkchess.Move) {
	if !h.rooted {
		return
	}
	h.Add(h.root)
	if !m.IsFlip() {
		h.Add(h.root.PlayUnchecked(m))
	}
}

// repeat reports whether s, not a chance node, is a position of the game
// so far other than the one searched.
func (g DarkChessRepeats) repeat(s DarkChessState) bool {
	h := g.History
	return h != nil && s.flip == darkchess.NoSquare && s.pos.Quiet() > 0 &&
		!(h.rooted && s.pos == h.root) && h.Has(s.pos)
}

// IsTerminal reports the end of the game, or a repetition.
func (g DarkChessRepeats) IsTerminal(s DarkChessState) bool {
	return g.DarkChess.IsTerminal(s) || g.repeat(s)
}

// Result scores a repetition as a draw, less Contempt for the player
// searching; the end of the game as [DarkChess.Result].
func (g DarkChessRepeats) Result(s DarkChessState, player int) float64 {
	if g.DarkChess.IsTerminal(s) || g.History == nil {
		return g.DarkChess.Result(s, player)
	}
	if player&1 == g.History.me {
		return -g.Contempt
	}
	return g.Contempt
}

// AppendMoves appends nothing at a repetition, else [DarkChess.AppendMoves].
func (g DarkChessRepeats) AppendMoves(s DarkChessState, dst []darkchess.Ply) []darkchess.Ply {
	if g.repeat(s) {
		return dst
	}
	return g.DarkChess.AppendMoves(s, dst)
}

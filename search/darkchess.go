package search

import (
	"math/rand/v2"

	"github.com/botarena/botarena/darkchess"
)

// DarkChess is the [ChanceGame] adapter of package darkchess. Its state is a
// [DarkChessState]: a public position (no deal) and, between a flip and its
// outcome, the square being flipped. Its moves are [darkchess.Ply] values: a
// player's step or capture, or its choice of a flip (a Ply naming no piece),
// which leads to a chance node; the chance node's outcomes are the flips
// naming each piece still face-down, with probability its count in the pool
// over the number of face-down pieces.
//
// The players are seats: before the first flip (colours unassigned) player 0
// is the side to move, and the first flip gives it the colour it reveals;
// with colours assigned from the start, player 0 is [darkchess.Red] and 1
// [darkchess.Black]. [DarkChessState.Player] maps a colour to its player.
//
// A side to move with no pieces or no legal ply loses; a game reaching the
// no-capture-no-flip limit is drawn. The repetition draw, which needs the
// game's history, is not modelled.
//
// It is also a [Determinizer]: a [darkchess.View] hides only the deal, which
// the chance nodes model, so a view's determinization is its position.
type DarkChess struct {
	// NoProgressPlies draws the game after that many plies without capture
	// or flip; 0 means [darkchess.DefaultRules]'s (60). Search needs a
	// limit: two lone pieces may otherwise chase each other for ever.
	NoProgressPlies int
	// Ordered lists a decision state's moves in the order that prunes the
	// depth-first searches most: the captures as AppendNoisyMoves gives
	// them, then the steps, then the flips, whose chance nodes cost most to
	// search. Unordered, they come in [darkchess.Position.AppendLegalMoves]'
	// order, which is quicker to list: what playouts want.
	Ordered bool
}

// DarkChessState is a state of [DarkChess]: a public position, and the flip
// waiting for chance to reveal its piece, if any. It is a small comparable
// value. Build one with [NewDarkChessState].
type DarkChessState struct {
	pos  darkchess.Position
	flip darkchess.Square // the square a flip turns over, awaiting its piece; NoSquare if none
	swap uint8            // player = colour ^ swap (1 when the first player turned out black)
}

// NewDarkChessState returns the decision state of p, without p's deal if it
// has one: search never looks under a face-down piece.
func NewDarkChessState(p darkchess.Position) DarkChessState {
	return DarkChessState{pos: p.View(p.Turn()).Position(), flip: darkchess.NoSquare}
}

// Position returns the public position. At a chance node it is the position
// before the flip.
func (s DarkChessState) Position() darkchess.Position { return s.pos }

// Pending returns the square a flip is turning over and true at a chance
// node, and false at a decision node.
func (s DarkChessState) Pending() (darkchess.Square, bool) {
	return s.flip, s.flip != darkchess.NoSquare
}

// Player returns the player (0 or 1) who plays colour c, or -1 while the
// colours are unassigned or for a value that is not a colour.
func (s DarkChessState) Player(c darkchess.Color) int {
	if !c.Valid() || s.pos.Turn() == darkchess.NoColor {
		return -1
	}
	return int(uint8(c) ^ s.swap)
}

func (g DarkChess) limit() int {
	if g.NoProgressPlies > 0 {
		return g.NoProgressPlies
	}
	return darkchess.DefaultRules.NoProgressPlies
}

// pieceOrder is the order of outcomes: K G M R N C P k g m r n c p.
var pieceOrder = [14]darkchess.Piece{
	darkchess.RedKing, darkchess.RedGuard, darkchess.RedMinister, darkchess.RedRook,
	darkchess.RedKnight, darkchess.RedCannon, darkchess.RedPawn,
	darkchess.BlackKing, darkchess.BlackGuard, darkchess.BlackMinister, darkchess.BlackRook,
	darkchess.BlackKnight, darkchess.BlackCannon, darkchess.BlackPawn,
}

// ToMove returns the player to move, or [Chance] while a flip awaits its
// piece.
func (DarkChess) ToMove(s DarkChessState) int {
	if s.flip != darkchess.NoSquare {
		return Chance
	}
	t := s.pos.Turn()
	if t == darkchess.NoColor {
		return 0
	}
	return int(uint8(t) ^ s.swap)
}

// AppendMoves appends the legal plies of the side to move (flips naming no
// piece), in the order Ordered says, or at a chance node the flips naming
// each face-down piece, in the order K G M R N C P k g m r n c p; nothing
// once the game is over.
func (g DarkChess) AppendMoves(s DarkChessState, dst []darkchess.Ply) []darkchess.Ply {
	if s.flip != darkchess.NoSquare {
		m := darkchess.Flip(s.flip)
		for _, pc := range pieceOrder {
			if s.pos.Pool(pc) > 0 {
				dst = append(dst, darkchess.Ply{Move: m, Piece: pc})
			}
		}
		return dst
	}
	if s.pos.Quiet() >= g.limit() {
		return dst
	}
	var buf [darkchess.MaxMoves]darkchess.Move
	moves := s.pos.AppendLegalMoves(buf[:0])
	if !g.Ordered {
		for _, m := range moves {
			dst = append(dst, darkchess.Ply{Move: m})
		}
		return dst
	}
	n := len(dst)
	for _, m := range moves {
		if s.pos.IsCapture(m) {
			dst = append(dst, darkchess.Ply{Move: m})
		}
	}
	sortCaptures(s.pos, dst[n:])
	for _, m := range moves {
		if !m.IsFlip() && !s.pos.IsCapture(m) {
			dst = append(dst, darkchess.Ply{Move: m})
		}
	}
	for _, m := range moves {
		if m.IsFlip() {
			dst = append(dst, darkchess.Ply{Move: m})
		}
	}
	return dst
}

// Play returns the state after ply: a flip naming no piece leads to the
// chance node, an outcome reveals its piece.
func (DarkChess) Play(s DarkChessState, ply darkchess.Ply) DarkChessState {
	if s.flip != darkchess.NoSquare {
		if s.pos.Turn() == darkchess.NoColor {
			s.swap = uint8(ply.Piece.Color()) & 1
		}
		s.pos = s.pos.PlayPlyUnchecked(ply)
		s.flip = darkchess.NoSquare
		return s
	}
	if ply.Move.IsFlip() {
		s.flip = ply.Move.From()
		return s
	}
	s.pos = s.pos.PlayUnchecked(ply.Move)
	return s
}

// IsTerminal reports whether the side to move has lost (no pieces, no legal
// ply) or the no-capture-no-flip limit is reached.
func (g DarkChess) IsTerminal(s DarkChessState) bool {
	return s.flip == darkchess.NoSquare && (s.pos.Quiet() >= g.limit() || s.pos.IsOver())
}

// Result returns 1 if player won, -1 if it lost, 0 for a draw.
func (g DarkChess) Result(s DarkChessState, player int) float64 {
	if s.pos.Quiet() >= g.limit() && !s.pos.IsOver() {
		return 0
	}
	if g.ToMove(s) == player&1 {
		return -1
	}
	return 1
}

// AppendOutcomes appends the outcomes of the chance node s: the flip naming
// each face-down piece, with probability its pool count over the number of
// face-down pieces.
func (DarkChess) AppendOutcomes(s DarkChessState, dst []Outcome[darkchess.Ply]) []Outcome[darkchess.Ply] {
	total := float64(s.pos.FaceDown().Count())
	m := darkchess.Flip(s.flip)
	for _, pc := range pieceOrder {
		if n := s.pos.Pool(pc); n > 0 {
			dst = append(dst, Outcome[darkchess.Ply]{Move: darkchess.Ply{Move: m, Piece: pc}, Prob: float64(n) / total})
		}
	}
	return dst
}

// SampleOutcome draws the piece the pending flip reveals, each face-down
// piece equally likely (so a piece with probability its pool count over the
// face-down count).
func (DarkChess) SampleOutcome(s DarkChessState, r *rand.Rand) darkchess.Ply {
	k := r.IntN(max(1, s.pos.FaceDown().Count()))
	for _, pc := range pieceOrder {
		if k -= s.pos.Pool(pc); k < 0 {
			return darkchess.Ply{Move: darkchess.Flip(s.flip), Piece: pc}
		}
	}
	return darkchess.Ply{Move: darkchess.Flip(s.flip)}
}

// Determinize returns the state of v's position: the view hides only the
// deal, which the chance nodes model. r is not used.
func (DarkChess) Determinize(v darkchess.View, _ *rand.Rand) DarkChessState {
	return NewDarkChessState(v.Position())
}

// AppendNoisyMoves appends the captures of the side to move in the decision
// state s, the most valuable victim first (by [DarkChessEval]'s values),
// then the least valuable capturer, so that [Expectimax] follows them past
// its horizon ([Quiescer]); nothing at a chance node.
func (DarkChess) AppendNoisyMoves(s DarkChessState, dst []darkchess.Ply) []darkchess.Ply {
	if s.flip != darkchess.NoSquare {
		return dst
	}
	var buf [darkchess.MaxMoves]darkchess.Move
	n := len(dst)
	for _, m := range s.pos.AppendCaptures(buf[:0]) {
		dst = append(dst, darkchess.Ply{Move: m})
	}
	sortCaptures(s.pos, dst[n:])
	return dst
}

// sortCaptures sorts the captures of p, the most valuable victim first (by
// [DarkChessEval]'s values), then the least valuable capturer, keeping the
// order of equals: an insertion sort, as a position has a handful.
func sortCaptures(p darkchess.Position, captures []darkchess.Ply) {
	order := func(m darkchess.Move) int {
		return 64*darkChessValues[p.At(m.To()).Kind()] - darkChessValues[p.At(m.From()).Kind()]
	}
	for i := 1; i < len(captures); i++ {
		for j := i; j > 0 && order(captures[j].Move) > order(captures[j-1].Move); j-- {
			captures[j], captures[j-1] = captures[j-1], captures[j]
		}
	}
}

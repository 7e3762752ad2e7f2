package geister

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
)

// View is what one player knows of a position: where every ghost is, the
// colours of its own ghosts, the colours of the opponent's ghosts that have
// left the board (captured, or escaped), the side to move and the ply count.
// It never holds the colour of an opponent ghost on the board. Its squares
// are in the viewer's own frame (the coordinates of the MOV? board it
// receives), so a bot is written once for both seats: its ghosts start on
// rows 4 and 5 and move North toward row 0, its exits are (0,0) and (5,0).
// Moves need no conversion (see [Move]).
//
// A View is a small comparable value. Get one from [Position.View] (a
// referee) or [ParseView] (a client reading its MOV? board). The zero value is
// not a real view.
type View struct {
	at      [2]uint64 // packed ghost squares: [0] the viewer's, [1] the opponent's
	occ     [2]uint64 // the squares of [0] the viewer's and [1] the opponent's ghosts
	reds    uint8     // the viewer's red ghosts
	oppRed  uint8     // opponent ghosts known to be red (off the board)
	oppBlue uint8     // opponent ghosts known to be blue (off the board)
	viewer  Color
	ply     uint32
}

// View returns what player c knows of p. Squares are turned into c's own
// frame (a no-op for the first player).
func (p Position) View(c Color) View {
	c &= 1
	i, o := p.side(c), p.side(c^1)
	v := View{
		at:     [2]uint64{p.at[i], p.at[o]},
		occ:    [2]uint64{p.occ[i], p.occ[o]},
		reds:   p.reds[i],
		viewer: c,
		ply:    p.ply,
	}
	if c == Second {
		v.at[0], v.at[1] = rotatePacked(v.at[0]), rotatePacked(v.at[1])
		v.occ[0] = uint64(Bitboard(v.occ[0]).Rotate())
		v.occ[1] = uint64(Bitboard(v.occ[1]).Rotate())
	}
	off := p.gone[o] | goneMask(p.at[o], escaped)
	v.oppRed = off & p.reds[o]
	v.oppBlue = off &^ p.reds[o]
	return v
}

// Viewer returns the player whose view this is.
func (v View) Viewer() Color { return v.viewer }

// Turn returns the side to move: [First] at even plies, [Second] at odd ones.
func (v View) Turn() Color { return Color(v.ply & 1) }

// Ply returns the number of plies played.
func (v View) Ply() int { return int(v.ply) }

// side returns the index of c in v's arrays: 0 for the viewer, 1 for the
// opponent.
func (v View) side(c Color) int {
	if c&1 == v.viewer {
		return 0
	}
	return 1
}

// Square returns where side c's ghost g is, in the viewer's frame: a board
// square, or [Captured], or [Escaped]; [NoSquare] for an invalid side or
// ghost.
func (v View) Square(c Color, g Ghost) Square {
	if !c.Valid() || !g.Valid() {
		return NoSquare
	}
	return Square(int8(uint8(v.at[v.side(c)] >> (8 * uint(g)))))
}

// GhostColor returns the colour of side c's ghost g as the viewer knows it:
// always [Red] or [Blue] for its own ghosts, [Unknown] for an opponent ghost
// on the board.
func (v View) GhostColor(c Color, g Ghost) GhostColor {
	if !c.Valid() || !g.Valid() {
		return Unknown
	}
	if v.side(c) == 0 {
		if v.reds>>g&1 != 0 {
			return Red
		}
		return Blue
	}
	switch {
	case v.oppRed>>g&1 != 0:
		return Red
	case v.oppBlue>>g&1 != 0:
		return Blue
	}
	return Unknown
}

// Reds returns the viewer's red set.
func (v View) Reds() Reds { return Reds(v.reds) }

// Ghosts returns the squares side c's ghosts are on, in the viewer's frame.
func (v View) Ghosts(c Color) Bitboard { return Bitboard(v.occ[v.side(c)]) }

// Occupied returns the squares with a ghost on them, in the viewer's frame.
func (v View) Occupied() Bitboard { return Bitboard(v.occ[0] | v.occ[1]) }

// At returns the side and the ghost on s (in the viewer's frame), and false
// if s is empty or not a square.
func (v View) At(s Square) (Color, Ghost, bool) {
	if !s.Valid() {
		return First, 0, false
	}
	for i := range 2 {
		if v.occ[i]>>uint(s)&1 != 0 {
			if g := findByte(v.at[i], uint8(s)); g < 8 {
				return v.viewer ^ Color(i), Ghost(g), true
			}
		}
	}
	return First, 0, false
}

// Captured returns how many of side c's red and blue ghosts have been
// captured: public knowledge.
func (v View) Captured(c Color) (red, blue int) {
	i := v.side(c)
	gone := goneMask(v.at[i], captured)
	if i == 0 {
		return bits.OnesCount8(gone & v.reds), bits.OnesCount8(gone &^ v.reds)
	}
	return bits.OnesCount8(gone & v.oppRed), bits.OnesCount8(gone & v.oppBlue)
}

// Escaped returns the side and the ghost that escaped, and false if none did.
func (v View) Escaped() (Color, Ghost, bool) {
	for i := range 2 {
		if g := findByte(v.at[i], escaped); g < 8 {
			return v.viewer ^ Color(i), Ghost(g), true
		}
	}
	return First, 0, false
}

// Result returns the board result, which depends only on public knowledge
// and the viewer's own colours; see [Position.Result].
func (v View) Result() Result {
	var esc [2]bool
	var lostRed, lostBlue [2]int
	for c := range Color(2) {
		esc[c] = findByte(v.at[v.side(c)], escaped) < 8
		lostRed[c], lostBlue[c] = v.Captured(c)
	}
	if end := judge(esc, lostRed, lostBlue); end != 0 {
		return Result{Reason: Reason(end >> 1), Winner: Color(end & 1)}
	}
	return Result{}
}

// IsOver reports whether the board decides the game (see [Position.IsOver]).
func (v View) IsOver() bool { return v.Result().Reason != Unfinished }

// AppendLegalMoves appends the viewer's legal moves to dst, in the order of
// [Position.AppendLegalMoves], and returns the result. It appends nothing
// when it is not the viewer's turn or the game is over. It does not allocate
// when dst has room.
func (v View) AppendLegalMoves(dst []Move) []Move {
	if v.Turn() != v.viewer || v.IsOver() {
		return dst
	}
	return appendMoves(dst, v.at[0], v.occ[0], v.reds, aliveMask(v.at[0]), First)
}

// NumLegalMoves returns the number of the viewer's legal moves,
// len(AppendLegalMoves), without listing them: 0 when it is not the viewer's
// turn or the game is over. It does not allocate.
func (v View) NumLegalMoves() int {
	if v.Turn() != v.viewer || v.IsOver() {
		return 0
	}
	return countMoves(v.at[0], v.occ[0], v.reds, First)
}

// IsLegal reports whether m is a legal move of the viewer, accepting North
// for an escape.
func (v View) IsLegal(m Move) bool {
	if v.Turn() != v.viewer || v.IsOver() || !m.Valid() {
		return false
	}
	from, to := v.step(m)
	return from < NumSquares && ^blockedFor(v.occ[0], v.reds, uint(m.Ghost()))>>to&1 != 0
}

// step returns the square of the valid move m's ghost and the table target of
// m (a square, escapeStep or offBoard) in the viewer's frame, an escape
// written North taken as the sideways one.
func (v View) step(m Move) (from, to uint8) {
	g := uint(m.Ghost())
	from = uint8(v.at[0] >> (8 * g))
	if from >= NumSquares {
		return from, offBoard
	}
	d := m.Direction()
	if d == North && v.reds>>g&1 == 0 && exitDir[First][from] != 0 {
		d = Direction(exitDir[First][from] - 1)
	}
	return from, steps[First][from][d&3]
}

// Target returns where the legal move m takes its ghost, in the viewer's
// frame: a board square, or [Escaped] for an escape (in either spelling). It
// returns [NoSquare] if m is not legal.
func (v View) Target(m Move) Square {
	if !v.IsLegal(m) {
		return NoSquare
	}
	return targetSquare(v.step(m))
}

// IsEscape reports whether m is a legal escape of the viewer, in either
// spelling: it takes a blue ghost off the board through an exit.
func (v View) IsEscape(m Move) bool { return v.Target(m) == Escaped }

// Captures returns the opponent ghost that the legal move m captures, by
// landing on it, and its colour as the viewer knows it: always [Unknown],
// since the view never holds the colour of an opponent ghost on the board
// (the result is [Position.Captures]'s, without the colour). It returns false
// if m captures nothing or is not legal.
func (v View) Captures(m Move) (Ghost, GhostColor, bool) {
	to := v.Target(m)
	if !to.Valid() || v.occ[1]>>uint(to)&1 == 0 {
		return 0, Unknown, false
	}
	return Ghost(findByte(v.at[1], uint8(to))), Unknown, true
}

// Position returns the position v shows, the opponent's red set being
// opponent. It fails with a [*SetupError] if opponent does not hold four
// ghosts or contradicts the colours the view knows.
func (v View) Position(opponent Reds) (Position, error) {
	switch {
	case !opponent.Valid():
		return Position{}, &SetupError{"Reds", fmt.Sprintf("the opponent's red set %s has %d ghosts, want 4", opponent, opponent.Count())}
	case v.oppRed&^uint8(opponent) != 0:
		return Position{}, &SetupError{"Reds", fmt.Sprintf("the opponent's red set %s lacks %s, known to be red", opponent, Reds(v.oppRed&^uint8(opponent)))}
	case v.oppBlue&uint8(opponent) != 0:
		return Position{}, &SetupError{"Reds", fmt.Sprintf("the opponent's red set %s holds %s, known to be blue", opponent, Reds(v.oppBlue&uint8(opponent)))}
	}
	return v.position(uint8(opponent)), nil
}

// position builds the position v shows with the opponent's reds oppReds,
// unchecked.
func (v View) position(oppReds uint8) Position {
	p := Position{ply: v.ply}
	c, o := p.side(v.viewer), p.side(v.viewer^1) // indexes in p
	p.at[c], p.at[o] = v.at[0], v.at[1]
	p.occ[c], p.occ[o] = v.occ[0], v.occ[1]
	if v.viewer&1 == Second {
		p.at[c], p.at[o] = rotatePacked(p.at[c]), rotatePacked(p.at[o])
		p.occ[c] = uint64(Bitboard(p.occ[c]).Rotate())
		p.occ[o] = uint64(Bitboard(p.occ[o]).Rotate())
	}
	p.reds[c], p.reds[o] = v.reds, oppReds
	var esc [2]bool
	var lostRed, lostBlue [2]int
	for s := range Color(2) {
		i := p.side(s)
		p.gone[i] = goneMask(p.at[i], captured)
		esc[s] = goneMask(p.at[i], escaped) != 0
		lostRed[s] = bits.OnesCount8(p.gone[i] & p.reds[i])
		lostBlue[s] = bits.OnesCount8(p.gone[i] &^ p.reds[i])
	}
	p.end = judge(esc, lostRed, lostBlue)
	return p
}

// Determinize returns a position consistent with v, for search bots that
// sample the hidden information: the opponent's ghosts on the board whose
// colours v does not know are coloured uniformly at random among the
// assignments that give the opponent four red and four blue ghosts in all.
// Everything v knows is kept: squares, the viewer's colours, the colours of
// ghosts off the board, the ply count. rng supplies the randomness; nil means
// math/rand/v2's global source. It does not allocate.
func Determinize(v View, rng *rand.Rand) Position {
	unknown := ^(v.oppRed | v.oppBlue)
	need := 4 - bits.OnesCount8(v.oppRed)
	left := bits.OnesCount8(unknown)
	reds := v.oppRed
	for g := uint(0); g < 8 && need > 0; g++ {
		if unknown>>g&1 == 0 {
			continue
		}
		// Selection sampling (Knuth's algorithm S): take g with
		// probability need/left, which makes every need-subset of the
		// unknown ghosts equally likely.
		var r int
		if rng != nil {
			r = rng.IntN(left)
		} else {
			r = rand.IntN(left)
		}
		if r < need {
			reds |= 1 << g
			need--
		}
		left--
	}
	return v.position(reds)
}

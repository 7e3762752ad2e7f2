package geister

import (
	"errors"
	"fmt"
	"math"
	"math/bits"
)

// Position is the referee's full game state: where every ghost is (in the
// first player's frame), both sides' colours, and the number of plies played,
// which also gives the side to move (the first player at even plies). It is a
// small comparable value, usable as a map key; the board result (an escape, or
// four ghosts of one colour captured) is part of it, the ply limit is not (see
// [Rules.Result]).
//
// The zero value is not a game position. Build positions with [Start],
// [NewPosition], [ParsePosition] or [ParseBoard], and get later ones with
// [Position.Play].
type Position struct {
	// The arrays hold [0] the side to move's and [1] the other side's
	// data, so the hot paths index them with constants (see side).
	at   [2]uint64 // byte g: square of ghost g, or 99 captured, 88 escaped
	occ  [2]uint64 // the squares the side's ghosts are on
	reds [2]uint8  // the side's red ghosts
	gone [2]uint8  // the side's captured ghosts
	end  uint8     // the board result: 0, or reason<<1 | winner
	ply  uint32
}

// side returns the index of side c in p's arrays: 0 if c is to move.
func (p *Position) side(c Color) int { return int((c ^ Color(p.ply)) & 1) }

// Setup describes a position field by field, unvalidated, for [NewPosition].
type Setup struct {
	// Ghosts[c][g] is where side c's ghost g is, in the first player's
	// frame: a board square, or Captured, or Escaped.
	Ghosts [2][8]Square
	// Reds[c] is side c's red set (exactly 4 ghosts); the others are blue.
	Reds [2]Reds
	// Ply is the number of plies played; the first player moves at even
	// plies.
	Ply int
}

// startSquares[g] is ghost g's start square in its owner's frame:
// A-D on row 4, E-H on row 5, columns 1 to 4.
var startSquares = [8]Square{25, 26, 27, 28, 31, 32, 33, 34}

// StartSetup returns the [Setup] of the start position with the given red
// sets, the first player to move. [NewPosition] checks it.
func StartSetup(first, second Reds) Setup {
	s := Setup{Reds: [2]Reds{first, second}}
	for g, sq := range startSquares {
		s.Ghosts[First][g] = sq
		s.Ghosts[Second][g] = sq.Rotate()
	}
	return s
}

// Start returns the start position with the first player's red
// set first and the second player's second. It fails only if a set does not
// hold exactly four ghosts.
func Start(first, second Reds) (Position, error) {
	return NewPosition(StartSetup(first, second))
}

// NewPosition checks s and returns the position it describes. The error joins
// one [*SetupError] per problem (wrapping [ErrInvalidSetup]): a ghost on a
// value that is neither a square nor Captured nor Escaped, two ghosts on one
// square, a red set without exactly four ghosts, more than one escaped ghost,
// an escaped red ghost, a ply count out of range. A position whose game is
// decided (an escape, four ghosts of one colour captured) is accepted.
func NewPosition(s Setup) (Position, error) {
	var errs []error
	var p Position
	var on [NumSquares]uint8 // 1 + 8*side + ghost of the ghost on each square
	var esc [2]bool
	var lostRed, lostBlue [2]int
	nEsc := 0
	p.ply = uint32(s.Ply)
	for c := range Color(2) {
		i := p.side(c)
		if !s.Reds[c].Valid() {
			errs = append(errs, &SetupError{"Reds", fmt.Sprintf("the %s player's red set %s has %d ghosts, want 4", c, s.Reds[c], s.Reds[c].Count())})
		}
		p.reds[i] = uint8(s.Reds[c])
		for g := A; g <= H; g++ {
			sq := s.Ghosts[c][g]
			red := s.Reds[c].Has(g)
			switch {
			case sq.Valid():
				if prev := on[sq]; prev != 0 {
					errs = append(errs, &SetupError{"Ghosts", fmt.Sprintf("%s and %s both on %s", ghostName(Color(prev-1)/8, Ghost(prev-1)%8), ghostName(c, g), sq)})
				}
				on[sq] = 1 + 8*uint8(c) + uint8(g)
				p.occ[i] |= 1 << uint(sq)
			case sq == Captured:
				p.gone[i] |= 1 << g
				if red {
					lostRed[c]++
				} else {
					lostBlue[c]++
				}
			case sq == Escaped:
				esc[c] = true
				if nEsc++; nEsc == 2 {
					errs = append(errs, &SetupError{"Ghosts", "more than one escaped ghost"})
				}
				if red && s.Reds[c].Valid() {
					errs = append(errs, &SetupError{"Ghosts", fmt.Sprintf("%s escaped but is red", ghostName(c, g))})
				}
			default:
				errs = append(errs, &SetupError{"Ghosts", fmt.Sprintf("%s on %d, which is neither a square, Captured (99) nor Escaped (88)", ghostName(c, g), sq)})
			}
			p.at[i] |= uint64(uint8(sq)) << (8 * uint(g))
		}
	}
	if s.Ply < 0 || int64(s.Ply) > math.MaxUint32 {
		errs = append(errs, &SetupError{"Ply", fmt.Sprintf("%d is out of range", s.Ply)})
	}
	if len(errs) > 0 {
		return Position{}, errors.Join(errs...)
	}
	p.end = judge(esc, lostRed, lostBlue)
	return p, nil
}

// ghostName names side c's ghost g as the board diagrams do: upper case for
// the first player, lower case for the second.
func ghostName(c Color, g Ghost) string {
	if c == Second {
		return string(rune('a' + g&7))
	}
	return string(rune('A' + g&7))
}

// Setup returns the description of p, which [NewPosition] turns back into p.
func (p Position) Setup() Setup {
	s := Setup{Reds: [2]Reds{p.Reds(First), p.Reds(Second)}, Ply: int(p.ply)}
	for c := range Color(2) {
		for g := A; g <= H; g++ {
			s.Ghosts[c][g] = p.Square(c, g)
		}
	}
	return s
}

// Turn returns the side to move: [First] at even plies, [Second] at odd ones.
func (p Position) Turn() Color { return Color(p.ply & 1) }

// Ply returns the number of plies played.
func (p Position) Ply() int { return int(p.ply) }

// Square returns where side c's ghost g is, in the first player's frame: a
// board square, or [Captured], or [Escaped]. It returns [NoSquare] for an
// invalid side or ghost.
func (p Position) Square(c Color, g Ghost) Square {
	if !c.Valid() || !g.Valid() {
		return NoSquare
	}
	return Square(int8(uint8(p.at[p.side(c)] >> (8 * uint(g)))))
}

// Reds returns side c's red set.
func (p Position) Reds(c Color) Reds { return Reds(p.reds[p.side(c)]) }

// GhostColor returns the colour of side c's ghost g, [Red] or [Blue]
// ([Unknown] for an invalid side or ghost).
func (p Position) GhostColor(c Color, g Ghost) GhostColor {
	switch {
	case !c.Valid() || !g.Valid():
		return Unknown
	case p.Reds(c).Has(g):
		return Red
	}
	return Blue
}

// Ghosts returns the squares side c's ghosts are on.
func (p Position) Ghosts(c Color) Bitboard { return Bitboard(p.occ[p.side(c)]) }

// Occupied returns the squares with a ghost on them.
func (p Position) Occupied() Bitboard { return Bitboard(p.occ[0] | p.occ[1]) }

// At returns the side and the ghost on s, and false if s is empty or not a
// square.
func (p Position) At(s Square) (Color, Ghost, bool) {
	if !s.Valid() {
		return First, 0, false
	}
	for c := range Color(2) {
		if i := p.side(c); p.occ[i]>>uint(s)&1 != 0 {
			if g := findByte(p.at[i], uint8(s)); g < 8 {
				return c, Ghost(g), true
			}
		}
	}
	return First, 0, false
}

// Captured returns how many of side c's red and blue ghosts the opponent has
// captured.
func (p Position) Captured(c Color) (red, blue int) {
	i := p.side(c)
	return bits.OnesCount8(p.gone[i] & p.reds[i]), bits.OnesCount8(p.gone[i] &^ p.reds[i])
}

// Escaped returns the side and the ghost that escaped, and false if none did.
func (p Position) Escaped() (Color, Ghost, bool) {
	for c := range Color(2) {
		if g := findByte(p.at[p.side(c)], escaped); g < 8 {
			return c, Ghost(g), true
		}
	}
	return First, 0, false
}

// IsOver reports whether the board decides the game: a ghost escaped, or a
// side lost four ghosts of one colour. The ply limit is not the position's
// business (see [Rules.Result]).
func (p Position) IsOver() bool { return p.end != 0 }

// Result returns the board result in the Java server's order:
// [ChessEscape], [NoBlueGhost] or [NoRedGhost] with the winner, or a result
// with reason [Unfinished] while the game goes on. The ply limit is ignored.
func (p Position) Result() Result {
	if p.end == 0 {
		return Result{}
	}
	return Result{Reason: Reason(p.end >> 1), Winner: Color(p.end & 1)}
}

// AppendLegalMoves appends the legal moves of the side to move to dst and
// returns the result: ghosts A to H, each North, East, West, South, an escape
// in the slot of its sideways direction; nothing once the game is over. It
// does not allocate when dst has room (32 moves are always enough).
func (p Position) AppendLegalMoves(dst []Move) []Move {
	if p.end != 0 {
		return dst
	}
	c := p.Turn()
	return appendMoves(dst, p.at[0], p.occ[0], p.reds[0], ^p.gone[0], c)
}

// NumLegalMoves returns the number of legal moves, len(AppendLegalMoves),
// without listing them. It does not allocate.
func (p Position) NumLegalMoves() int {
	if p.end != 0 {
		return 0
	}
	c := p.Turn()
	return countMoves(p.at[0], p.occ[0], p.reds[0], c)
}

// step returns the square of m's ghost and the table target of m (a square,
// escapeStep or offBoard), for the side to move.
func (p Position) step(m Move) (from, to uint8) {
	c := p.Turn()
	from = uint8(p.at[0] >> (8 * uint(m.Ghost())))
	return from, steps[c][from][m.Direction()&3]
}

// Normalize returns m in the move generator's spelling: an escape written
// North (as the Java server allows) becomes the sideways escape, West from the
// mover's (0,0) and East from (5,0). Any other move comes back unchanged.
func (p Position) Normalize(m Move) Move {
	if !m.Valid() || m.Direction() != North || p.end != 0 {
		return m
	}
	c := p.Turn()
	from, _ := p.step(m)
	if from >= NumSquares || p.reds[0]>>m.Ghost()&1 != 0 {
		return m
	}
	if d := exitDir[c][from]; d != 0 {
		return NewMove(m.Ghost(), Direction(d-1))
	}
	return m
}

// IsLegal reports whether m is legal in p, accepting North for an escape.
func (p Position) IsLegal(m Move) bool {
	if !m.Valid() || p.end != 0 {
		return false
	}
	m = p.Normalize(m)
	from, to := p.step(m)
	return from < NumSquares && ^blockedFor(p.occ[0], p.reds[0], uint(m.Ghost()))>>to&1 != 0
}

// Target returns where the legal move m takes its ghost, in the first
// player's frame: a board square, or [Escaped] for an escape (in either
// spelling). It returns [NoSquare] if m is not legal.
func (p Position) Target(m Move) Square {
	if !p.IsLegal(m) {
		return NoSquare
	}
	return targetSquare(p.step(p.Normalize(m)))
}

// targetSquare turns a step's table target into a Square: Escaped for
// escapeStep, NoSquare off the board.
func targetSquare(_, to uint8) Square {
	switch {
	case to < NumSquares:
		return Square(to)
	case to == escapeStep:
		return Escaped
	}
	return NoSquare
}

// IsEscape reports whether m is a legal escape in p, in either spelling: it
// takes a blue ghost off the board through an exit.
func (p Position) IsEscape(m Move) bool { return p.Target(m) == Escaped }

// Captures returns the opponent ghost that the legal move m captures, by
// landing on it, and its colour (the ack's R or B), and false if m captures
// nothing or is not legal.
func (p Position) Captures(m Move) (Ghost, GhostColor, bool) {
	to := p.Target(m)
	if !to.Valid() || p.occ[1]>>uint(to)&1 == 0 {
		return 0, Unknown, false
	}
	g := Ghost(findByte(p.at[1], uint8(to)))
	return g, p.GhostColor(p.Turn().Opponent(), g), true
}

// Play returns the position after m, accepting North for an escape. It fails
// with a [*MoveError] wrapping [ErrIllegalMove] (or [ErrGameOver] once the
// board has decided the game), and p is unchanged, being a value.
func (p Position) Play(m Move) (Position, error) {
	if p.IsLegal(m) {
		return p.PlayUnchecked(p.Normalize(m)), nil
	}
	return p, p.moveError(m)
}

// moveError explains why m is not legal in p.
func (p Position) moveError(m Move) *MoveError {
	c := p.Turn()
	e := &MoveError{Move: m, Turn: c, Err: ErrIllegalMove}
	if p.end != 0 {
		e.Reason, e.Err = "the game is over ("+p.Result().String()+")", ErrGameOver
		return e
	}
	if !m.Valid() {
		e.Reason = "not a move"
		return e
	}
	g := m.Ghost()
	from, to := p.step(m)
	switch {
	case from == captured:
		e.Reason = "ghost " + g.String() + " was captured"
	case from >= NumSquares:
		e.Reason = "ghost " + g.String() + " is not on the board"
	case to == escapeStep || (to == offBoard && m.Direction() == North && exitDir[c][from] != 0):
		e.Reason = "a red ghost cannot escape"
	case to == offBoard:
		e.Reason = "the step leaves the board"
	default:
		h := Ghost(findByte(p.at[0], to))
		e.Reason = "own ghost " + h.String() + " is on the target square"
	}
	return e
}

// PlayUnchecked returns the position after m without checking that m is
// legal. It is the hot path for search: m must come from
// [Position.AppendLegalMoves] or be normalised and have passed
// [Position.IsLegal]; anything else gives a meaningless position (a step off
// the board counts as an escape). It does not allocate.
func (p Position) PlayUnchecked(m Move) Position {
	c := p.Turn()
	g := uint(m-1) >> 2 & 7
	at, own, oppAt, opp := p.at[0], p.occ[0], p.at[1], p.occ[1]
	from := uint8(at >> (8 * g))
	to := steps[c][from][(m-1)&3]
	own &^= 1 << (from & 63)
	// The side that moved becomes index 1.
	p.reds[0], p.reds[1] = p.reds[1], p.reds[0]
	p.gone[0], p.gone[1] = p.gone[1], p.gone[0]
	p.ply++
	if to >= NumSquares {
		p.at[0], p.at[1] = oppAt, setByte(at, g, escaped)
		p.occ[0], p.occ[1] = opp, own
		p.end = endCode(ChessEscape, c)
		return p
	}
	bit := uint64(1) << (to & 63)
	p.at[1], p.occ[1] = setByte(at, g, to), own|bit
	if opp&bit == 0 {
		p.at[0], p.occ[0] = oppAt, opp
		return p
	}
	h := findByte(oppAt, to)
	gone := p.gone[0] | 1<<h
	p.at[0], p.occ[0], p.gone[0] = setByte(oppAt, h, captured), opp&^bit, gone
	switch {
	case bits.OnesCount8(gone&^p.reds[0]) == 4:
		p.end = endCode(NoBlueGhost, c)
	case bits.OnesCount8(gone&p.reds[0]) == 4:
		p.end = endCode(NoRedGhost, c^1)
	}
	return p
}

package othello

import (
	"errors"
	"fmt"
	"math/bits"
	"strings"
)

// Position is a full game state: the discs, the side to move, and the board
// (8x8, or 6x6 for [Board6x6]). It is a small comparable value, usable as a
// map key. The zero value is the empty 8x8 board with black to move, a
// finished game. Build positions with [NewPosition], [ParsePosition] or from
// the [Rules] presets.
type Position struct {
	black, white Bitboard
	turn         Color
	small        bool // the 6x6 board b2..g7
}

// Setup describes a position field by field, unvalidated, for [NewPosition].
type Setup struct {
	Black, White Bitboard // the discs of each side
	Turn         Color    // the side to move
	Size         int      // 8 (or 0, the same) for 8x8; 6 for the 6x6 board b2..g7
}

// NewPosition checks s and returns the position it describes. The error joins
// one [*SetupError] per problem (wrapping [ErrInvalidSetup]): an unknown size
// or side, a square holding both colours, a disc off the board.
func NewPosition(s Setup) (Position, error) {
	var errs []error
	area := Bitboard(mask8x8)
	switch s.Size {
	case 0, 8:
	case 6:
		area = mask6x6
	default:
		errs = append(errs, &SetupError{"Size", fmt.Sprintf("%d is neither 8 nor 6", s.Size)})
	}
	if !s.Turn.Valid() {
		errs = append(errs, &SetupError{"Turn", fmt.Sprintf("%d is neither Black nor White", s.Turn)})
	}
	if both := s.Black & s.White; both != 0 {
		errs = append(errs, &SetupError{"Black/White", "both colours on " + squareList(both)})
	}
	if off := (s.Black | s.White) &^ area; off != 0 {
		errs = append(errs, &SetupError{"Black/White", "discs off the 6x6 board on " + squareList(off)})
	}
	if len(errs) > 0 {
		return Position{}, errors.Join(errs...)
	}
	return Position{black: s.Black, white: s.White, turn: s.Turn, small: s.Size == 6}, nil
}

func squareList(b Bitboard) string {
	var names []string
	for s := range b.Squares() {
		names = append(names, s.String())
	}
	return strings.Join(names, " ")
}

// Setup returns the description of p, which [NewPosition] turns back into p.
func (p Position) Setup() Setup {
	return Setup{Black: p.black, White: p.white, Turn: p.turn, Size: p.Size()}
}

// Size returns the board's width: 8, or 6 for the 6x6 board.
func (p Position) Size() int {
	if p.small {
		return 6
	}
	return 8
}

// Board returns the squares that make up p's board: all 64, or b2..g7.
func (p Position) Board() Bitboard { return Bitboard(p.area()) }

func (p Position) area() uint64 {
	if p.small {
		return mask6x6
	}
	return mask8x8
}

// Turn returns the side to move.
func (p Position) Turn() Color { return p.turn }

// Black returns the black discs.
func (p Position) Black() Bitboard { return p.black }

// White returns the white discs.
func (p Position) White() Bitboard { return p.white }

// Discs returns the discs of c.
func (p Position) Discs(c Color) Bitboard {
	if c == White {
		return p.white
	}
	return p.black
}

// Empty returns the empty squares of the board.
func (p Position) Empty() Bitboard { return Bitboard(p.area()) &^ (p.black | p.white) }

// Count returns the number of discs of c.
func (p Position) Count(c Color) int { return p.Discs(c).Count() }

// At returns the colour of the disc on s, and false if s is empty or not a
// square.
func (p Position) At(s Square) (Color, bool) {
	switch {
	case p.black.Has(s):
		return Black, true
	case p.white.Has(s):
		return White, true
	}
	return Black, false
}

// players returns the mover's and the opponent's discs.
func (p Position) players() (P, O uint64) {
	if p.turn == White {
		return uint64(p.white), uint64(p.black)
	}
	return uint64(p.black), uint64(p.white)
}

// with returns the position after the mover ends with P and the opponent with
// O, the opponent to move.
func (p Position) with(P, O uint64) Position {
	if p.turn == White {
		return Position{black: Bitboard(O), white: Bitboard(P), turn: Black, small: p.small}
	}
	return Position{black: Bitboard(P), white: Bitboard(O), turn: White, small: p.small}
}

// LegalSquares returns the squares where the side to move may place a disc.
func (p Position) LegalSquares() Bitboard {
	P, O := p.players()
	return Bitboard(legalMoves(P, O) & p.area())
}

// opponentCanMove reports whether the side not to move has a placement.
func (p Position) opponentCanMove() bool {
	P, O := p.players()
	return legalMoves(O, P)&p.area() != 0
}

// MustPass reports whether the side to move has no placement but the opponent
// has one, so the only legal move is [Pass].
func (p Position) MustPass() bool { return p.LegalSquares() == 0 && p.opponentCanMove() }

// IsOver reports whether neither side can move: the game is over.
func (p Position) IsOver() bool { return p.LegalSquares() == 0 && !p.opponentCanMove() }

// AppendLegalMoves appends the legal moves to dst and returns the result: the
// placements from a1 to h8, or [Pass] alone when it is forced, or nothing when
// the game is over. It does not allocate when dst has room.
func (p Position) AppendLegalMoves(dst []Move) []Move {
	m := p.LegalSquares()
	if m == 0 {
		if p.opponentCanMove() {
			dst = append(dst, Pass)
		}
		return dst
	}
	for m != 0 {
		dst = append(dst, Move(bits.TrailingZeros64(uint64(m))+1))
		m &= m - 1
	}
	return dst
}

// NumLegalMoves returns the number of legal moves, len(AppendLegalMoves),
// without listing them: the placements, or 1 for a forced [Pass], or 0 when
// the game is over. It does not allocate.
func (p Position) NumLegalMoves() int {
	if m := p.LegalSquares(); m != 0 {
		return m.Count()
	}
	if p.opponentCanMove() {
		return 1
	}
	return 0
}

// Flips returns the discs that turn over when the side to move places a disc
// on s: empty when the placement is illegal.
func (p Position) Flips(s Square) Bitboard {
	if !p.Empty().Has(s) {
		return 0
	}
	P, O := p.players()
	return Bitboard(flips(int(s), P, O))
}

// IsLegal reports whether m is legal in p.
func (p Position) IsLegal(m Move) bool {
	if m == Pass {
		return p.MustPass()
	}
	return m.Valid() && p.LegalSquares().Has(m.Square())
}

// Play returns the position after m. It fails with a [*MoveError] wrapping
// [ErrIllegalMove] (or [ErrGameOver] once neither side can move), and p is
// unchanged, being a value.
func (p Position) Play(m Move) (Position, error) {
	if p.IsLegal(m) {
		return p.PlayUnchecked(m), nil
	}
	e := &MoveError{Move: m, Turn: p.turn, Err: ErrIllegalMove}
	switch {
	case p.IsOver():
		e.Reason, e.Err = "the game is over", ErrGameOver
	case !m.Valid():
		e.Reason = "not a move"
	case m == Pass:
		e.Reason = "a pass is allowed only when no placement is"
	case !p.Board().Has(m.Square()):
		e.Reason = "square off the board"
	case !p.Empty().Has(m.Square()):
		e.Reason = "square occupied"
	case p.MustPass():
		e.Reason = "no placement is legal: the move must be a pass"
	default:
		e.Reason = "flips no disc"
	}
	return p, e
}

// PlayUnchecked returns the position after m without checking that m is legal.
// It is the hot path for search: m must come from [Position.AppendLegalMoves]
// or have passed [Position.IsLegal]; anything else gives a meaningless
// position. [Pass] always hands the move to the other side, which search code
// may use as a null move.
func (p Position) PlayUnchecked(m Move) Position {
	P, O := p.players()
	if m == Pass {
		p.turn ^= 1
		return p
	}
	sq := int(m-1) & 63
	f := flips(sq, P, O)
	return p.with(P|f|1<<uint(sq), O^f)
}

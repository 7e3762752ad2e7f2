package darkchess

import (
	"errors"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"strings"
)

// Position is a full game state: the revealed pieces, the face-down squares,
// the face-down pool (how many of each piece are still face-down, a multiset
// that the whole table knows), the side to move and the no-capture-no-flip
// counter. A referee's position also holds the deal, the real piece under
// every face-down square; a public position (what a [View] shows) does not.
//
// It is a small comparable value, usable as a map key. The zero value is the
// empty board with red to move, a lost game. Build positions with
// [NewPosition], [ParsePosition], or from [Opening] and [Position.Deal].
type Position struct {
	// Four words, so that the compiler keeps a Position in registers (a
	// struct of at most four scalars is SSA-able; one holding arrays is
	// copied through memory on every call of a value method). Each word
	// holds two 32-square planes, or counters. The planes give every known
	// piece, revealed or dealt face-down: its colour (the red or the black
	// plane) and its kind (kind bits 0..2, the Kind value). An empty square,
	// or a face-down one without a deal, is in none of them.
	sides  uint64 // red plane (bits 0-31), black plane (32-63)
	downK0 uint64 // face-down squares (0-31), kind bit 0 (32-63)
	kinds  uint64 // kind bit 1 (0-31), kind bit 2 (32-63)
	misc   uint64 // pool: 3 bits per piece in the order K..P k..p (0-41); turn (42-43); quiet counter (44-59)
}

const (
	turnShift  = 42
	quietShift = 44
	quietMax   = 0xFFFF
	redPool    = 1<<21 - 1 // the pool bits of red's pieces; black's follow
)

// poolShift returns the bit offset of the valid piece pc's pool count.
func poolShift(pc Piece) uint { return 3 * (7*uint(pc>>3&1) + uint(pc&7) - 1) }

// poolCount returns the face-down count of the valid piece pc.
func (p *Position) poolCount(pc Piece) int { return int(p.misc >> poolShift(pc) & 7) }

func (p *Position) down() uint32 { return uint32(p.downK0) }
func (p *Position) turn() Color  { return Color(p.misc >> turnShift & 3) }

// known returns the squares whose piece is known: revealed or dealt.
func (p *Position) known() uint32 { return uint32(p.sides) | uint32(p.sides>>32) }

// identity returns the piece on s, revealed or dealt face-down, or NoPiece.
func (p *Position) identity(s int) Piece {
	s &= 31
	k := Piece(p.downK0>>(32+s)&1 | (p.kinds>>s&1)<<1 | (p.kinds>>(32+s)&1)<<2)
	if k == 0 {
		return NoPiece
	}
	return k | Piece(p.sides>>(32+s)&1)<<3
}

// setIdentity makes s hold pc in the planes (NoPiece clears it). It leaves the
// face-down plane alone.
func (p *Position) setIdentity(s int, pc Piece) {
	s &= 31
	both := uint64(1)<<s | uint64(1)<<(32+s)
	p.sides &^= both
	p.downK0 &^= uint64(1) << (32 + s)
	p.kinds &^= both
	if !pc.Valid() {
		return
	}
	p.sides |= uint64(1) << (s + 32*int(pc>>3&1))
	p.downK0 |= uint64(pc&1) << (32 + s)
	p.kinds |= uint64(pc>>1&1)<<s | uint64(pc>>2&1)<<(32+s)
}

// kindMask returns the squares whose known piece is of kind k (1..7), revealed
// or dealt face-down.
func (p *Position) kindMask(k Kind) uint32 {
	k0, k1, k2 := uint32(p.downK0>>32), uint32(p.kinds), uint32(p.kinds>>32)
	if k&1 == 0 {
		k0 = ^k0
	}
	if k&2 == 0 {
		k1 = ^k1
	}
	if k&4 == 0 {
		k2 = ^k2
	}
	return k0 & k1 & k2
}

// Opening is the start of every game: all 32 pieces face-down, colours not yet
// assigned, no deal. [NewGame] deals it. Treat it as a constant.
var Opening = func() Position {
	p := Position{downK0: 0xFFFFFFFF, misc: uint64(NoColor) << turnShift}
	for _, pc := range pieceOrder {
		p.misc += uint64(pc.Kind().InitialCount()) << poolShift(pc)
	}
	return p
}()

// pieceOrder is the order of the 14 pieces in counts and pools: K G M R N C
// P k g m r n c p.
var pieceOrder = [14]Piece{RedKing, RedGuard, RedMinister, RedRook, RedKnight, RedCannon, RedPawn,
	BlackKing, BlackGuard, BlackMinister, BlackRook, BlackKnight, BlackCannon, BlackPawn}

// Setup describes a position field by field, unvalidated, for [NewPosition].
type Setup struct {
	// Board is what each square shows, indexed by Square: a piece, Hidden
	// (face-down) or NoPiece (empty).
	Board [32]Piece
	// Deal is, for a referee, the piece under each Hidden square of Board,
	// and NoPiece elsewhere. All NoPiece: the deal is unknown.
	Deal [32]Piece
	// Pool counts the face-down pieces, indexed by Piece (RedKing ..
	// BlackPawn; the NoPiece and Hidden entries must be 0). With a Deal,
	// all zero means "count them from the Deal".
	Pool [16]int
	// Turn is the side to move, or NoColor before the first flip.
	Turn Color
	// Quiet is the no-capture-no-flip counter: plies since the last capture
	// or flip.
	Quiet int
}

// NewPosition checks s and returns the position it describes. The error joins
// one [*SetupError] per problem (wrapping [ErrInvalidSetup]): a value that is
// not a piece, a deal that does not cover exactly the face-down squares or
// disagrees with the pool, a pool that does not count the face-down squares,
// more pieces of a kind than a side starts with, colours unassigned while
// pieces are revealed or nothing is face-down, a counter out of range.
func NewPosition(s Setup) (Position, error) {
	var errs []error
	bad := func(field, format string, args ...any) {
		errs = append(errs, &SetupError{field, fmt.Sprintf(format, args...)})
	}
	if s.Turn > NoColor {
		bad("Turn", "%d is not Red, Black or NoColor", s.Turn)
	}
	var hidden, revealed, badBoard, badDeal, notDown, undealt Bitboard
	var dealCount [16]int
	hasDeal := false
	for sq := range Square(32) {
		switch pc := s.Board[sq]; {
		case pc == Hidden:
			hidden |= sq.Bit()
		case pc.Valid():
			revealed |= sq.Bit()
		case pc != NoPiece:
			badBoard |= sq.Bit()
		}
		if d := s.Deal[sq]; d != NoPiece {
			hasDeal = true
			if d.Valid() {
				dealCount[d]++
			} else {
				badDeal |= sq.Bit()
			}
			if s.Board[sq] != Hidden {
				notDown |= sq.Bit()
			}
		} else if s.Board[sq] == Hidden {
			undealt |= sq.Bit()
		}
	}
	if badBoard != 0 {
		bad("Board", "not a piece on %s", squareList(badBoard))
	}
	if badDeal != 0 {
		bad("Deal", "not a piece on %s", squareList(badDeal))
	}
	if hasDeal && notDown != 0 {
		bad("Deal", "a piece under %s, which is not face-down", squareList(notDown))
	}
	if hasDeal && undealt != 0 {
		bad("Deal", "nothing under face-down %s (a deal names every face-down piece or none)", squareList(undealt))
	}
	pool := s.Pool
	if hasDeal && pool == [16]int{} {
		pool = dealCount
	}
	total, poolOK := 0, true
	for pc, n := range pool {
		switch {
		case n < 0:
			bad("Pool", "negative count %d for %s", n, Piece(pc))
			poolOK = false
		case n > 0 && !Piece(pc).Valid():
			bad("Pool", "count %d at index %d, which is not a piece", n, pc)
			poolOK = false
		}
		total += n
	}
	if poolOK && total != hidden.Count() {
		bad("Pool", "counts sum to %d but %d squares are face-down", total, hidden.Count())
		poolOK = false
	}
	if poolOK && hasDeal && badDeal == 0 && pool != dealCount {
		bad("Pool", "does not count the pieces of the deal")
	}
	for c := range Color(2) {
		for k := King; k <= Pawn; k++ {
			pc := MakePiece(c, k)
			n := pool[pc]
			for sq := range revealed.Squares() {
				if s.Board[sq] == pc {
					n++
				}
			}
			if n > k.InitialCount() {
				bad("Board", "%d %s %ss (%s), revealed or face-down, but a side has %d", n, c, k, pc, k.InitialCount())
			}
		}
	}
	if s.Turn == NoColor && revealed != 0 {
		bad("Turn", "colours are unassigned but pieces are revealed on %s", squareList(revealed))
	}
	if s.Turn == NoColor && hidden == 0 {
		bad("Turn", "colours are unassigned but nothing is face-down")
	}
	if s.Quiet < 0 || s.Quiet > 0xFFFF {
		bad("Quiet", "%d is outside 0..65535", s.Quiet)
	}
	if len(errs) > 0 {
		return Position{}, errors.Join(errs...)
	}
	var p Position
	for sq := range 32 {
		switch pc := s.Board[sq]; {
		case pc == Hidden:
			p.downK0 |= 1 << sq
			p.setIdentity(sq, s.Deal[sq])
		case pc.Valid():
			p.setIdentity(sq, pc)
		}
	}
	for pc, n := range pool {
		if n > 0 {
			p.misc += uint64(n) << poolShift(Piece(pc))
		}
	}
	p.misc |= uint64(s.Turn)<<turnShift | uint64(s.Quiet)<<quietShift
	return p, nil
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
	var s Setup
	for sq := range Square(32) {
		s.Board[sq] = p.At(sq)
		s.Deal[sq] = p.DealAt(sq)
	}
	for _, pc := range pieceOrder {
		s.Pool[pc] = p.poolCount(pc)
	}
	s.Turn, s.Quiet = p.Turn(), p.Quiet()
	return s
}

// Turn returns the side to move, [NoColor] before the first flip.
func (p Position) Turn() Color { return p.turn() }

// At returns what s shows: a revealed piece, [Hidden] or [NoPiece] (also for
// a value that is not a square).
func (p Position) At(s Square) Piece {
	if !s.Valid() {
		return NoPiece
	}
	if p.down()>>s&1 != 0 {
		return Hidden
	}
	return p.identity(int(s))
}

// Pieces returns the squares showing pc: the revealed pieces pc, the
// face-down squares for [Hidden], the empty squares for [NoPiece].
func (p Position) Pieces(pc Piece) Bitboard {
	switch {
	case pc == Hidden:
		return Bitboard(p.down())
	case pc == NoPiece:
		return p.Empty()
	case pc.Valid():
		return Bitboard(p.kindMask(pc.Kind()) & uint32(p.sides>>(32*(pc>>3))) &^ p.down())
	}
	return 0
}

// Revealed returns the revealed pieces of colour c.
func (p Position) Revealed(c Color) Bitboard {
	if !c.Valid() {
		return 0
	}
	return Bitboard(uint32(p.sides>>(32*c)) &^ p.down())
}

// FaceDown returns the face-down squares.
func (p Position) FaceDown() Bitboard { return Bitboard(p.down()) }

// Empty returns the empty squares.
func (p Position) Empty() Bitboard { return Bitboard(^(p.known() | p.down())) }

// Pool returns how many pieces pc are face-down (0 for a value that is not
// one of the 14 pieces).
func (p Position) Pool(pc Piece) int {
	if !pc.Valid() {
		return 0
	}
	return p.poolCount(pc)
}

// Count returns how many pieces c has left, revealed or face-down.
func (p Position) Count(c Color) int {
	if !c.Valid() {
		return 0
	}
	n := bits.OnesCount32(uint32(p.sides>>(32*c)) &^ p.down())
	for k := King; k <= Pawn; k++ {
		n += p.poolCount(MakePiece(c, k))
	}
	return n
}

// Quiet returns the no-capture-no-flip counter: the plies since the last
// capture or flip (or since the setup), as the draw rule of [Rules] counts
// them.
func (p Position) Quiet() int { return int(p.misc >> quietShift & quietMax) }

// Dealt reports whether p knows the piece under every face-down square (as a
// referee's position does), so that a flip can be played as a bare [Move].
// A position with nothing face-down is dealt.
func (p Position) Dealt() bool { return p.down()&^p.known() == 0 }

// DealAt returns the piece under the face-down square s, or [NoPiece] if s is
// not face-down or p has no deal.
func (p Position) DealAt(s Square) Piece {
	if !s.Valid() || p.down()>>s&1 == 0 {
		return NoPiece
	}
	return p.identity(int(s))
}

// Deal returns p with its face-down pieces dealt afresh from r, by the
// referee's procedure: list the pool in the order K G M R N C P
// k g m r n c p with multiplicity; for i from n-1 down to 1, swap element i
// with element r.IntN(i+1); put element i under the i-th face-down square in
// ascending order. A nil r returns p unchanged. It does not allocate.
func (p Position) Deal(r *rand.Rand) Position {
	if r == nil {
		return p
	}
	var list [32]Piece
	n := 0
	for _, pc := range pieceOrder {
		for range p.poolCount(pc) {
			if n < len(list) {
				list[n] = pc
				n++
			}
		}
	}
	for i := n - 1; i >= 1; i-- {
		j := r.IntN(i + 1)
		list[i], list[j] = list[j], list[i]
	}
	i := 0
	for d := p.down(); d != 0 && i < n; d &= d - 1 {
		p.setIdentity(bits.TrailingZeros32(d), list[i])
		i++
	}
	return p
}

// public returns p without its deal.
func (p Position) public() Position {
	for d := p.down() & p.known(); d != 0; d &= d - 1 {
		p.setIdentity(bits.TrailingZeros32(d), NoPiece)
	}
	return p
}

// AppendLegalMoves appends the legal moves to dst and returns the result, in
// ascending From, then To, by Square value (a1, b1, c1, d1, a2, ...; a flip
// of s sorts as s-s), so that [Divide] is stable. A side with no pieces
// left (revealed or face-down) has none. Before the first flip the moves are
// the 32 flips. Generating moves never needs the deal. It does not allocate
// when dst has room for [MaxMoves] more; it may then scribble on up to 3
// elements of dst's spare capacity past the moves it appends.
func (p Position) AppendLegalMoves(dst []Move) []Move { return p.appendMoves(dst) }

// AppendCaptures appends the legal captures of p to dst and returns the
// result: the moves of [Position.AppendLegalMoves] that [Position.IsCapture]
// reports, in the same order. A search's quiescence follows them at its
// horizon. It does not allocate when dst has room.
func (p Position) AppendCaptures(dst []Move) []Move { return p.appendCaptures(dst) }

// NumLegalMoves returns the number of legal moves, len(AppendLegalMoves),
// without listing them. It does not allocate.
func (p Position) NumLegalMoves() int {
	n, _ := p.countMoves()
	return n
}

// IsLegal reports whether m is legal in p.
func (p Position) IsLegal(m Move) bool { return p.isLegal(m) }

// IsCapture reports whether m, played in p, would capture: it moves a piece
// onto a revealed piece. It does not check legality.
func (p Position) IsCapture(m Move) bool {
	return m.Valid() && !m.IsFlip() && (p.known()&^p.down())>>m.to()&1 != 0
}

// IsOver reports whether the side to move has lost: it has no pieces left,
// revealed or face-down, or no legal ply. The draw rules are the [Game]'s.
func (p Position) IsOver() bool { return !p.hasMoves() }

// Play returns the position after m. A flip reveals the piece of the deal; on a
// position without one it fails with [ErrNoDeal] (play the flip as a [Ply]
// with [Position.PlayPly]). Other failures wrap [ErrIllegalMove], or
// [ErrGameOver] once the side to move has lost. p is unchanged, being a value.
func (p Position) Play(m Move) (Position, error) {
	if !p.isLegal(m) {
		return p, p.illegal(Ply{Move: m})
	}
	if m.IsFlip() && p.known()>>m.from()&1 == 0 {
		return p, &MoveError{Ply: Ply{Move: m}, Turn: p.turn(), Reason: "the piece under " + m.From().String() + " is unknown", Err: ErrNoDeal}
	}
	return p.PlayUnchecked(m), nil
}

// PlayPly returns the position after ply. A step or capture must name no
// piece. A flip names the piece it reveals, which must be in the pool and, on
// a position with a deal, be the deal's piece; a flip naming no piece is
// played as [Position.Play] plays it. Failures are [*MoveError]s as for
// Play, and p is unchanged.
func (p Position) PlayPly(ply Ply) (Position, error) {
	m := ply.Move
	if !m.IsFlip() || ply.Piece == NoPiece {
		if ply.Piece != NoPiece {
			return p, &MoveError{Ply: ply, Turn: p.turn(), Reason: "a step or capture reveals no piece", Err: ErrIllegalMove}
		}
		return p.Play(m)
	}
	if !p.isLegal(m) {
		return p, p.illegal(ply)
	}
	pc := ply.Piece
	var reason string
	switch {
	case !pc.Valid():
		reason = "a flip reveals one of the 14 pieces"
	case p.poolCount(pc) == 0:
		reason = "no " + pc.String() + " is face-down"
	case p.known()>>m.from()&1 != 0 && p.identity(int(m.from())) != pc:
		reason = "the deal has another piece under " + m.From().String()
	default:
		return p.PlayPlyUnchecked(ply), nil
	}
	return p, &MoveError{Ply: ply, Turn: p.turn(), Reason: reason, Err: ErrIllegalMove}
}

// PlayUnchecked returns the position after m without checking that m is
// legal. It is the hot path for search: m must come from
// [Position.AppendLegalMoves] or have passed [Position.IsLegal], and a flip
// needs the deal; anything else gives a meaningless position.
func (p Position) PlayUnchecked(m Move) Position {
	p.play(m, NoPiece)
	return p
}

// PlayPlyUnchecked returns the position after ply without checking it: the hot
// path for searching a public position, where each flip is played once per
// piece it may reveal (with [Position.Pool] above 0). A flip naming no piece
// reveals the deal's. Anything illegal gives a meaningless position.
func (p Position) PlayPlyUnchecked(ply Ply) Position {
	p.play(ply.Move, ply.Piece)
	return p
}

// play applies the move m to p; for a flip, pc is the piece revealed, or
// NoPiece for the deal's. A value that is not a move plays as some move.
func (p *Position) play(m Move, pc Piece) {
	f, t := uint(m.from()), m.to()
	if f == t {
		if pc == NoPiece {
			pc = p.identity(int(f))
		}
		if !pc.Valid() || p.downK0>>f&1 == 0 {
			return
		}
		p.setIdentity(int(f), pc)
		p.downK0 &^= 1 << f
		turn := p.misc >> turnShift & 3
		if turn > 1 {
			turn = uint64(pc >> 3 & 1)
		}
		p.misc = (p.misc-1<<poolShift(pc))&(1<<turnShift-1) | (turn^1)<<turnShift
		return
	}
	// Move the bits of square f to t in every plane: the piece on t, if
	// any, is captured. Both squares are revealed or empty, so the
	// face-down plane is 0 on both.
	const lo = 1 | 1<<32
	clear := uint64(lo)<<f | uint64(lo)<<t
	captured := p.sides>>t&lo != 0
	p.sides = p.sides&^clear | (p.sides>>f&lo)<<t
	p.downK0 = p.downK0&^clear | (p.downK0>>f&lo)<<t
	p.kinds = p.kinds&^clear | (p.kinds>>f&lo)<<t
	misc := p.misc ^ 1<<turnShift
	if captured {
		misc &^= quietMax << quietShift
	} else if misc>>quietShift&quietMax < quietMax {
		misc += 1 << quietShift
	}
	p.misc = misc
}

// illegal explains why ply (whose move is not legal in p) is refused.
func (p Position) illegal(ply Ply) *MoveError {
	m := ply.Move
	turn := p.turn()
	e := &MoveError{Ply: ply, Turn: turn, Err: ErrIllegalMove}
	from, to := p.At(m.From()), p.At(m.To())
	dx, dy := m.To().X()-m.From().X(), m.To().Y()-m.From().Y()
	switch {
	case p.IsOver():
		e.Reason, e.Err = "the side to move has lost", ErrGameOver
	case !m.Valid():
		e.Reason = "not a move"
	case m.IsFlip():
		e.Reason = "nothing face-down on " + m.From().String()
	case turn == NoColor:
		e.Reason = "the first ply must be a flip"
	case from == NoPiece:
		e.Reason = "no piece on " + m.From().String()
	case from == Hidden:
		e.Reason = "the piece on " + m.From().String() + " is face-down and cannot move"
	case from.Color() != turn:
		e.Reason = "the piece on " + m.From().String() + " is not yours"
	case dx != 0 && dy != 0:
		e.Reason = "pieces move along ranks and files only"
	case to == Hidden:
		e.Reason = "a face-down piece cannot be captured"
	case to != NoPiece && to.Color() == turn:
		e.Reason = "your own piece is on " + m.To().String()
	case from.Kind() == Cannon && to == NoPiece:
		e.Reason = "a cannon moves one step to an empty square"
	case from.Kind() == Cannon:
		e.Reason = "a cannon captures by jumping over exactly one piece"
	case dx*dx+dy*dy != 1:
		e.Reason = "a piece moves one step"
	default:
		e.Reason = fmt.Sprintf("a %s may not take a %s", from.Kind(), to.Kind())
	}
	return e
}

// View returns what the player of colour c sees of p: everything but the
// deal. Every flip is public, so the view is the same for both players; it
// only records the viewer.
func (p Position) View(c Color) View { return View{pos: p.public(), viewer: c} }

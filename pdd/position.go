package pdd

import (
	"errors"
	"fmt"
)

// Position is a full game state: the tiles, the bridges in build order, the
// side to move, the rule profile, and the state of the opening and (under
// [Official]) of the end. It is a small comparable value, usable as a map
// key. The zero value is the [Course] start: the empty board, White to move.
// Build positions with [Rules.Start], [NewPosition] or [ParsePosition].
type Position struct {
	tiles   [2]Bitboard        // White's and Black's tiles
	under   Bitboard           // squares under any bridge
	ends    Bitboard           // tiles that carry a bridge
	bridges [maxBridges]uint16 // placement ids, in build order
	nb      uint8              // number of bridges
	turn    uint8              // side to move: 0 White, 1 Black
	first   uint8              // first player F, owner of the opening tiles: 0 White, 1 Black
	state   uint8              // flagChange, flagFinal, flagEnded
	rules   Rules
}

const (
	flagChange = 1 << iota // Black may play Change
	flagFinal              // Official: F has passed; S plays its last turn
	flagEnded              // Official: the game has ended
)

// Setup describes a position field by field, unvalidated, for [NewPosition].
type Setup struct {
	Rules Rules
	// Cells holds the colour of the tile on each square, NoColor if none,
	// indexed by Square (10*y+x) as chess.txt lists them.
	Cells [NumSquares]Color
	// Bridges holds the endpoints of each bridge in build order: bridge
	// number k of bridge.txt is Bridges[k-1]. Endpoints may come in either
	// order.
	Bridges [][2]Square
	// Turn is the side to move.
	Turn Color
	// ChangeAvailable lets Black play Change: Black must be to move, with
	// White's 2 opening tiles alone on the board.
	ChangeAvailable bool
	// FirstPlayer is the owner of the opening tiles: White, or Black after
	// Change. NoColor means White. Only the Official end rule uses it.
	FirstPlayer Color
	// FinalTurn (Official): the first player has passed, and the second
	// player, to move, plays one last turn.
	FinalTurn bool
	// Ended (Official): the game has ended by a pass.
	Ended bool
}

// NewPosition checks s and returns the position it describes. The error joins
// one [*SetupError] per problem (each wraps [ErrInvalidSetup], and the rule's
// sentinel when a rule is broken): an unknown profile or
// side, a cell that is not a colour, a group of 5 or more tiles, an island
// touching another own tile, a bridge that is not between two tiles of one
// colour at a bridge offset, a second bridge on a tile, a tile under a
// bridge, conflicting bridges, supplies exceeded, or flags that do not fit
// the position.
func NewPosition(s Setup) (Position, error) {
	var errs []error
	fail := func(field string, sentinel error, format string, args ...any) {
		errs = append(errs, &SetupError{Field: field, Msg: fmt.Sprintf(format, args...), Err: sentinel})
	}
	p := Position{rules: s.Rules}
	if !s.Rules.Valid() {
		fail("Rules", nil, "%d is neither Course nor Official", s.Rules)
	}
	if !s.Turn.Valid() {
		fail("Turn", nil, "%d is neither White nor Black", s.Turn)
	}
	p.turn = uint8(s.Turn.index())
	switch s.FirstPlayer {
	case NoColor, White:
	case Black:
		p.first = 1
	default:
		fail("FirstPlayer", nil, "%d is not a side", s.FirstPlayer)
	}
	for i, c := range s.Cells {
		switch c {
		case NoColor:
		case White, Black:
			p.tiles[c.index()] = p.tiles[c.index()].With(Square(i))
		default:
			fail("Cells", nil, "%d on %s is not a colour", c, Square(i))
		}
	}
	for ci := range 2 {
		c := colorOf(uint8(ci))
		P := p.tiles[ci]
		for rest := P; !rest.IsEmpty(); {
			g := fullGroup(P, firstSquare(rest))
			rest = rest.Without(g)
			switch n := g.Count(); {
			case n > 4:
				fail("Cells", ErrGroupTooLarge, "%s group %s has %d tiles", c, squareList(g), n)
			case n == 4:
				if t := n8(g).Intersect(P).Without(g); !t.IsEmpty() {
					fail("Cells", ErrIslandTouches, "%s island %s touches %s", c, squareList(g), squareList(t))
				}
			}
		}
		if sup := s.Rules.TileSupply(); sup > 0 && P.Count() > sup {
			fail("Cells", ErrSupply, "%s has %d tiles, more than %d", c, P.Count(), sup)
		}
	}
	if sup := s.Rules.BridgeSupply(); sup > 0 && len(s.Bridges) > sup {
		fail("Bridges", ErrSupply, "%d bridges, more than %d", len(s.Bridges), sup)
	}
	if len(s.Bridges) > maxBridges {
		fail("Bridges", ErrBridgeBlocked, "%d bridges, more than fit on the board (%d)", len(s.Bridges), maxBridges)
	} else {
		for i, br := range s.Bridges {
			field := fmt.Sprintf("Bridges[%d]", i)
			a, b := br[0], br[1]
			if !a.Valid() || !b.Valid() {
				fail(field, ErrBridgeEnds, "endpoint %d or %d is not a square", a, b)
				continue
			}
			ca, cb := s.Cells[a], s.Cells[b]
			if !ca.Valid() || ca != cb {
				fail(field, ErrBridgeNotOwn, "bridge %s-%s is not between two tiles of one colour", a, b)
				continue
			}
			id := placementOf(a, b)
			if id < 0 {
				fail(field, ErrBridgeShape, "%s-%s is not at a bridge offset", a, b)
				continue
			}
			if ab := a.Bit().With(b); !p.ends.Intersect(ab).IsEmpty() {
				fail(field, ErrBridgeEnds, "%s already carries a bridge", squareList(p.ends.Intersect(ab)))
				continue
			}
			pl := &bridges.p[id]
			if t := pl.under.Intersect(p.tiles[0].Union(p.tiles[1])); !t.IsEmpty() {
				fail(field, ErrBridgeBlocked, "tile under bridge %s-%s on %s", a, b, squareList(t))
				continue
			}
			if s.Rules == Course && !pl.under.Intersect(p.under).IsEmpty() {
				fail(field, ErrBridgeBlocked, "bridge %s-%s shares %s with another bridge", a, b, squareList(pl.under.Intersect(p.under)))
				continue
			}
			built := p.builtSet()
			if bridges.conflict[s.Rules&1][id].meets(&built) {
				fail(field, ErrBridgeCrossing, "bridge %s-%s crosses another bridge", a, b)
				continue
			}
			p.bridges[p.nb] = uint16(id)
			p.nb++
			p.under = p.under.Union(pl.under)
			p.ends = p.ends.Union(pl.a.Bit()).With(pl.b)
		}
	}
	if s.ChangeAvailable {
		p.state |= flagChange
		if s.Turn != Black || p.tiles[0].Count() != 2 || !p.tiles[1].IsEmpty() || len(s.Bridges) > 0 {
			fail("ChangeAvailable", nil, "Change needs Black to move with White's 2 opening tiles alone on the board")
		}
		if s.FirstPlayer == Black {
			fail("ChangeAvailable", nil, "Change is available only while White is the first player")
		}
	}
	if s.FinalTurn || s.Ended {
		if s.Rules != Official {
			fail("FinalTurn/Ended", nil, "only the Official profile has a final turn or an end by passing")
		}
		if s.FinalTurn && s.Ended {
			fail("FinalTurn/Ended", nil, "a game in its final turn has not ended")
		}
		if s.FinalTurn {
			p.state |= flagFinal
			if p.turn == p.first {
				fail("FinalTurn", nil, "the final turn belongs to the second player, not %s", colorOf(p.first))
			}
		}
		if s.Ended {
			p.state |= flagEnded
		}
	}
	if len(errs) > 0 {
		return Position{}, errors.Join(errs...)
	}
	return p, nil
}

// Setup returns the description of p, which [NewPosition] turns back into p.
func (p Position) Setup() Setup {
	s := Setup{
		Rules:           p.rules,
		Turn:            p.Turn(),
		ChangeAvailable: p.state&flagChange != 0,
		FirstPlayer:     p.FirstPlayer(),
		FinalTurn:       p.state&flagFinal != 0,
		Ended:           p.state&flagEnded != 0,
	}
	for i := range Square(NumSquares) {
		s.Cells[i] = p.At(i)
	}
	for k := 1; k <= p.NumBridges(); k++ {
		s.Bridges = append(s.Bridges, p.BridgeAt(k))
	}
	return s
}

// Rules returns the rule profile.
func (p Position) Rules() Rules { return p.rules }

// Turn returns the side to move.
func (p Position) Turn() Color { return colorOf(p.turn) }

// FirstPlayer returns the owner of the opening tiles: White, or Black after
// Change.
func (p Position) FirstPlayer() Color { return colorOf(p.first) }

// ChangeAvailable reports whether the side to move (Black) may play Change.
func (p Position) ChangeAvailable() bool { return p.state&flagChange != 0 }

// FinalTurn reports whether, under [Official], the first player has passed
// and the side to move plays the last turn of the game.
func (p Position) FinalTurn() bool { return p.state&flagFinal != 0 }

// Tiles returns the tiles of c.
func (p Position) Tiles(c Color) Bitboard {
	if !c.Valid() {
		return Bitboard{}
	}
	return p.tiles[c.index()]
}

// Under returns the squares under a bridge.
func (p Position) Under() Bitboard { return p.under }

// Free returns the squares that can take a tile: empty and not under a bridge.
func (p Position) Free() Bitboard {
	return board.Without(p.tiles[0]).Without(p.tiles[1]).Without(p.under)
}

// At returns the colour of the tile on s, or [NoColor].
func (p Position) At(s Square) Color {
	switch {
	case p.tiles[0].Has(s):
		return White
	case p.tiles[1].Has(s):
		return Black
	}
	return NoColor
}

// NumBridges returns the number of bridges on the board, both colours.
func (p Position) NumBridges() int { return int(p.nb) }

// BridgeAt returns the endpoints (lower square first) of bridge number k,
// 1..[Position.NumBridges], the k-th built, as bridge.txt numbers it. It
// returns [NoSquare] twice for another k. The bridge belongs to the colour of
// its endpoints.
func (p Position) BridgeAt(k int) [2]Square {
	if k < 1 || k > int(p.nb) {
		return [2]Square{NoSquare, NoSquare}
	}
	pl := &bridges.p[p.bridges[k-1]%NumPlacements]
	return [2]Square{pl.a, pl.b}
}

// TilesLeft returns the tiles c may still place: its supply less its tiles
// on the board under [Official], or -1 (unlimited) under [Course].
func (p Position) TilesLeft(c Color) int {
	if p.rules != Official {
		return -1
	}
	return max(0, Official.TileSupply()-p.Tiles(c).Count())
}

// BridgesLeft returns the bridges either side may still build under
// [Official], or -1 (unlimited) under [Course].
func (p Position) BridgesLeft() int {
	if p.rules != Official {
		return -1
	}
	return max(0, Official.BridgeSupply()-int(p.nb))
}

// canChess reports whether side ci has the supply for a Chess move.
func (p *Position) canChess(ci uint8) bool {
	return p.rules != Official || p.tiles[ci&1].Count() <= Official.TileSupply()-2
}

// sideScan runs the chess and bridge scans for side ci.
func (p *Position) sideScan(ci uint8, mode int, dst []Move) ([]Move, int) {
	P := p.tiles[ci&1]
	n := 0
	if p.canChess(ci) {
		dst, n = chessScan(P, p.Free(), mode, dst)
		if mode == scanExists && n > 0 {
			return dst, n
		}
	}
	dst, nb := p.bridgeScan(P, mode, dst)
	return dst, n + nb
}

// hasChess reports whether side ci has a legal Chess move.
func (p *Position) hasChess(ci uint8) bool {
	if !p.canChess(ci) {
		return false
	}
	_, n := chessScan(p.tiles[ci&1], p.Free(), scanExists, nil)
	return n > 0
}

// hasMove reports whether side ci has a legal Chess or Bridge move.
func (p *Position) hasMove(ci uint8) bool {
	_, n := p.sideScan(ci, scanExists, nil)
	return n > 0
}

// AppendLegalMoves appends the legal moves to dst and returns the result, in
// canonical order: Chess moves by (a, b), then Bridges by placement id, then
// Change, then Pass. Under [Course], a side without a move has [Pass] alone
// (a forced skip) while the opponent can move, and nothing once neither can:
// the game is over. Under [Official], Pass comes with the bridges when the
// side has no legal 2-tile placement, and nothing comes once the game has
// ended. It does not allocate when dst has room; [MaxMoves] is always enough.
func (p Position) AppendLegalMoves(dst []Move) []Move {
	if p.state&flagEnded != 0 {
		return dst
	}
	n0 := len(dst)
	P := p.tiles[p.turn&1]
	if p.canChess(p.turn) {
		dst, _ = chessScan(P, p.Free(), scanAppend, dst)
	}
	nc := len(dst) - n0
	dst, _ = p.bridgeScan(P, scanAppend, dst)
	if p.state&flagChange != 0 {
		dst = append(dst, Change)
	}
	if p.rules == Official {
		if nc == 0 {
			dst = append(dst, Pass)
		}
	} else if len(dst) == n0 && p.hasMove(p.turn^1) {
		dst = append(dst, Pass)
	}
	return dst
}

// NumLegalMoves returns the number of legal moves, len(AppendLegalMoves),
// without listing them. It does not allocate.
func (p Position) NumLegalMoves() int {
	if p.state&flagEnded != 0 {
		return 0
	}
	P := p.tiles[p.turn&1]
	nc := 0
	if p.canChess(p.turn) {
		_, nc = chessScan(P, p.Free(), scanCount, nil)
	}
	_, nb := p.bridgeScan(P, scanCount, nil)
	n := nc + nb
	if p.state&flagChange != 0 {
		n++
	}
	if p.rules == Official {
		if nc == 0 {
			n++
		}
	} else if n == 0 && p.hasMove(p.turn^1) {
		n++
	}
	return n
}

// IsOver reports whether the game is over: under [Course], neither side has a
// legal move; under [Official], a pass has ended it.
func (p Position) IsOver() bool {
	if p.rules == Official {
		return p.state&flagEnded != 0
	}
	return !p.hasMove(p.turn) && !p.hasMove(p.turn^1)
}

// MustPass reports whether [Pass] is the only legal move: under [Course], the
// side to move is skipped.
func (p Position) MustPass() bool {
	if p.state&flagEnded != 0 || p.hasMove(p.turn) || p.state&flagChange != 0 {
		return false
	}
	return p.rules == Official || p.hasMove(p.turn^1)
}

// IsLegal reports whether m is legal in p.
func (p Position) IsLegal(m Move) bool {
	_, err := p.check(m)
	return err == nil
}

// Play returns the position after m. It fails with a [*MoveError] wrapping
// the sentinel of the first rule m breaks, in the check order
// of [Position.Play]'s errors (and [ErrIllegalMove]), or [ErrGameOver] once the game is over;
// p is unchanged, being a value.
func (p Position) Play(m Move) (Position, error) {
	reason, err := p.check(m)
	if err == nil {
		return p.PlayUnchecked(m), nil
	}
	if p.IsOver() {
		reason, err = "the game is over", ErrGameOver
	}
	return p, &MoveError{Move: m, Turn: p.Turn(), Reason: reason, Err: err}
}

// check returns the sentinel of the first rule m breaks in p and the detail,
// or nil.
func (p *Position) check(m Move) (reason string, err error) {
	if p.state&flagEnded != 0 {
		return "the game is over", ErrGameOver
	}
	c := p.Turn()
	P := p.tiles[p.turn&1]
	occ := p.tiles[0].Union(p.tiles[1])
	switch {
	case !m.Valid():
		return "not a move", ErrUnknownAction
	case m == Change:
		if p.state&flagChange == 0 {
			return "Change is available only to Black on its first turn, right after White's opening", ErrUnknownAction
		}
		return "", nil
	case m == Pass:
		if p.rules == Official {
			if p.hasChess(p.turn) {
				return "a pass is allowed only without a legal 2-tile placement", ErrUnknownAction
			}
			return "", nil
		}
		if p.hasMove(p.turn) || p.state&flagChange != 0 {
			return "a side with a legal move must play it", ErrUnknownAction
		}
		if !p.hasMove(p.turn ^ 1) {
			return "neither side can move", ErrGameOver
		}
		return "", nil
	case m.Action() == ChessAction:
		a, b := m.Squares()
		ab := a.Bit().With(b)
		if !p.canChess(p.turn) {
			return fmt.Sprintf("%s has %d tiles left", c, p.TilesLeft(c)), ErrSupply
		}
		if t := ab.Intersect(occ); !t.IsEmpty() {
			return squareList(t) + " holds a tile", ErrOccupied
		}
		if t := ab.Intersect(p.under); !t.IsEmpty() {
			return squareList(t) + " is under a bridge", ErrUnderBridge
		}
		return checkGroups(P.Union(ab), a, b)
	}
	// A bridge.
	a, b := m.Squares()
	if p.rules == Official && int(p.nb) >= Official.BridgeSupply() {
		return fmt.Sprintf("all %d bridges are built", Official.BridgeSupply()), ErrSupply
	}
	if t := a.Bit().With(b).Without(P); !t.IsEmpty() {
		return fmt.Sprintf("%s is not a %s tile", squareList(t), c), ErrBridgeNotOwn
	}
	id := placementOf(a, b)
	if id < 0 {
		return fmt.Sprintf("%s-%s is not at a bridge offset", a, b), ErrBridgeShape
	}
	if t := a.Bit().With(b).Intersect(p.ends); !t.IsEmpty() {
		return squareList(t) + " already carries a bridge", ErrBridgeEnds
	}
	if p.nb >= maxBridges {
		return "no room for another bridge", ErrBridgeBlocked
	}
	pl := &bridges.p[id]
	if t := pl.under.Intersect(occ); !t.IsEmpty() {
		return squareList(t) + " under the bridge holds a tile", ErrBridgeBlocked
	}
	if p.rules != Official {
		if t := pl.under.Intersect(p.under); !t.IsEmpty() {
			return squareList(t) + " under the bridge is under another bridge", ErrBridgeBlocked
		}
	}
	built := p.builtSet()
	if bridges.conflict[p.rules&1][id].meets(&built) {
		for k, oid := range p.bridges[:p.nb] {
			if bridges.conflict[p.rules&1][id].has(int(oid) % NumPlacements) {
				o := &bridges.p[oid%NumPlacements]
				return fmt.Sprintf("%s-%s crosses bridge %d %s-%s", a, b, k+1, o.a, o.b), ErrBridgeCrossing
			}
		}
	}
	return "", nil
}

// checkGroups checks I1 and I2 on the tiles P after a and b joined them.
func checkGroups(P Bitboard, a, b Square) (reason string, err error) {
	ga := group(P, a)
	gb := ga
	if !ga.Has(b) {
		gb = group(P, b)
	}
	for _, g := range [2]Bitboard{ga, gb} {
		if n := g.Count(); n > 4 {
			return fmt.Sprintf("group %s has more than 4 tiles", squareList(g)), ErrGroupTooLarge
		}
	}
	// The new groups, if islands, and the existing islands next to a or b.
	for _, g := range [2]Bitboard{ga, gb} {
		if g.Count() == 4 {
			if t := n8(g).Intersect(P).Without(g); !t.IsEmpty() {
				return fmt.Sprintf("island %s touches %s", squareList(g), squareList(t)), ErrIslandTouches
			}
		}
	}
	near := n8(a.Bit().With(b)).Intersect(P).Without(ga).Without(gb)
	for !near.IsEmpty() {
		g := fullGroup(P, firstSquare(near))
		near = near.Without(g)
		if g.Count() == 4 {
			t := n8(g).Intersect(a.Bit().With(b))
			return fmt.Sprintf("island %s touches %s", squareList(g), squareList(t)), ErrIslandTouches
		}
	}
	return "", nil
}

// PlayUnchecked returns the position after m without checking that m is
// legal. It is the hot path for search: m must come from
// [Position.AppendLegalMoves] or have passed [Position.IsLegal]; anything
// else gives a meaningless position (but never a panic). Under [Course],
// [Pass] only hands the move to the other side, which search code may use as
// a null move; under [Official] it applies the end rule.
func (p Position) PlayUnchecked(m Move) Position {
	final := p.state&flagFinal != 0
	switch {
	case m == Change:
		p.tiles[1] = p.tiles[1].Union(p.tiles[0])
		p.tiles[0] = Bitboard{}
		p.first = 1
	case m == Pass:
		if p.rules == Official && !final {
			if p.turn == p.first {
				p.state |= flagFinal
			} else {
				p.state |= flagEnded
			}
		}
	case m&kindMask == kindChess:
		a, b := Square(m>>7&127), Square(m&127)
		opening := p.turn == 0 && p.tiles[0].IsEmpty() && p.tiles[1].IsEmpty() && p.nb == 0
		p.tiles[p.turn&1] = p.tiles[p.turn&1].Union(a.Bit()).Union(b.Bit())
		p.state &^= flagChange
		if opening {
			p.state |= flagChange
		}
		p.turn ^= 1
		return p.endFinal(final)
	case m&kindMask == kindBridge:
		a, b := Square(m>>7&127), Square(m&127)
		id := placementOf(a, b)
		if id < 0 || p.nb >= maxBridges {
			return p
		}
		p.bridges[p.nb] = uint16(id)
		p.nb++
		p.under = p.under.Union(bridges.p[id].under)
		p.ends = p.ends.Union(a.Bit()).With(b)
	}
	p.state &^= flagChange
	p.turn ^= 1
	return p.endFinal(final)
}

// endFinal ends an Official game after the last turn.
func (p Position) endFinal(final bool) Position {
	if final {
		p.state = p.state&^flagFinal | flagEnded
	}
	return p
}

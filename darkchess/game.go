package darkchess

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
)

// Reason says why a game ended. Its String is the platforms' word.
type Reason uint8

// The reasons a game ends. The zero value, [Unfinished], is a game still in
// play.
const (
	Unfinished             Reason = iota // the game goes on
	NoPieces                             // the loser has no pieces left, face-down ones included ("NoMove" in records)
	NoLegalPly                           // the loser, to move, has no legal ply ("NoMove" in records)
	TimeOut                              // the loser's clock ran out, or its engine died or stopped answering
	BadMove                              // the loser sent a malformed or illegal ply ("MoveError")
	Resign                               // the loser resigned (MGTP "a0 a0")
	NoEatFlipDraw                        // draw: Rules.NoProgressPlies plies without capture or flip
	PositionRepetitionDraw               // draw: Rules.RepetitionCycles identical cycles of quiet plies
	AgreedDraw                           // draw: the players agreed to it (two persons, [Game.AgreeDraw])
)

// String returns the reason's name as the platforms write it: "NoPieces",
// "NoLegalPly", "TimeOut", "MoveError" (for [BadMove]), "Resign",
// "NoEatFlipDraw", "PositionRepetitionDraw", "AgreedDraw", or "Unfinished".
// (The 2021 records write both NoPieces and NoLegalPly as "NoMove"; no
// platform's record has a draw by agreement, and the SDK writes
// "AgreedDraw".)
func (r Reason) String() string {
	names := [...]string{"Unfinished", "NoPieces", "NoLegalPly", "TimeOut", "MoveError", "Resign", "NoEatFlipDraw", "PositionRepetitionDraw", "AgreedDraw"}
	if int(r) < len(names) {
		return names[r]
	}
	return "invalid reason"
}

// IsDraw reports whether r ends the game drawn: one of the two draw rules,
// or a draw the players agreed.
func (r Reason) IsDraw() bool {
	return r == NoEatFlipDraw || r == PositionRepetitionDraw || r == AgreedDraw
}

// Result is the outcome of a finished game: the winner (or a draw) and why.
type Result struct {
	Reason Reason
	Draw   bool // neither side won; Winner is then meaningless
	// Winner is the side that won, when not Draw. It is NoColor only for a
	// forfeit by the first player before its first flip gave it a colour: the
	// second player won.
	Winner Color
	// Repetitions and Cycle are, for PositionRepetitionDraw, the count R and
	// the cycle length k in plies (the record's "PositionRepetitionDraw,3,4").
	Repetitions, Cycle int
}

// String describes r: "red wins (NoPieces)", "draw (NoEatFlipDraw)", "draw
// (PositionRepetitionDraw,3,4)", "second player wins (TimeOut)" or
// "unfinished".
func (r Result) String() string {
	why := r.Reason.String()
	if r.Reason == PositionRepetitionDraw {
		why += "," + strconv.Itoa(r.Repetitions) + "," + strconv.Itoa(r.Cycle)
	}
	switch {
	case r.Reason == Unfinished:
		return "unfinished"
	case r.Draw:
		return "draw (" + why + ")"
	case r.Winner == NoColor:
		return "second player wins (" + why + ")"
	}
	return r.Winner.String() + " wins (" + why + ")"
}

// Game is a referee: a position (with its deal), the plies that led to it and,
// once it ends, the [Result]. After every ply it applies the end rules in
// order: the opponent has no pieces left (face-down ones included),
// the opponent has no legal ply, the repetition draw, the no-capture-no-flip
// draw. Play rejects illegal plies and leaves the game unchanged. The zero
// Game is not usable; start one with [NewGame] or [NewGameFrom].
type Game struct {
	rules     Rules
	positions []Position // positions[i] is the position before plies[i]; the last is the current one
	plies     []Ply
	result    Result
	first     Color // the first player's colour, NoColor until known
}

// NewGame starts a game from [Opening] under r, dealing the face-down pieces
// from rng (see [Position.Deal]). Every flip then reveals the deal's piece, and
// the game replays from its record (every flip in it names its piece) or from
// the start position, which holds the deal. A nil rng deals nothing: every
// flip must then be played with [Game.PlayPly], naming its piece, as when
// replaying a record.
func NewGame(r Rules, rng *rand.Rand) *Game { return NewGameFrom(r, Opening, rng) }

// NewGameFrom starts a game from any position under r: a mid-game start, or a
// position with a deal given explicitly (paired games, a replayed sidecar). A
// start without a deal is dealt from rng, unless rng is nil. A side to move
// that has no pieces or no legal ply in start has already lost, and a start
// whose counter has reached the draw limit is already a draw.
func NewGameFrom(r Rules, start Position, rng *rand.Rand) *Game {
	if !start.Dealt() && rng != nil {
		start = start.Deal(rng)
	}
	g := &Game{rules: r, positions: []Position{start}, first: start.Turn()}
	if start.IsOver() {
		g.result = Result{Reason: NoLegalPly, Winner: start.Turn().Opponent()}
		if start.Count(start.Turn()) == 0 {
			g.result.Reason = NoPieces
		}
	} else if n := r.NoProgressPlies; n > 0 && start.Quiet() >= n {
		g.result = Result{Reason: NoEatFlipDraw, Draw: true}
	}
	return g
}

// Rules returns the rules the game was started with.
func (g *Game) Rules() Rules { return g.rules }

// Position returns the current position, with the deal.
func (g *Game) Position() Position { return g.positions[len(g.positions)-1] }

// View returns what the player of colour c sees: the current position without
// the deal, with the game's history and rules.
func (g *Game) View(c Color) View {
	v := g.Position().View(c)
	v.History = g.Plies()
	v.Rules = g.rules
	return v
}

// Turn returns the side to move, [NoColor] before the first flip.
func (g *Game) Turn() Color { return g.Position().Turn() }

// FirstColor returns the colour of the player who moved first: the colour of
// the piece it first revealed, or the side to move of a start that had
// colours. It is [NoColor] until known.
func (g *Game) FirstColor() Color { return g.first }

// Ply returns the number of plies played.
func (g *Game) Ply() int { return len(g.plies) }

// Plies returns a copy of the plies played, flips with the pieces they
// revealed.
func (g *Game) Plies() []Ply { return slices.Clone(g.plies) }

// PositionAt returns the position before the given ply (0 is the start, which
// holds the deal); ply == [Game.Ply] gives the current position. It reports
// false for a ply out of range.
func (g *Game) PositionAt(ply int) (Position, bool) {
	if ply < 0 || ply >= len(g.positions) {
		return Position{}, false
	}
	return g.positions[ply], true
}

// IsOver reports whether the game has ended.
func (g *Game) IsOver() bool { return g.result.Reason != Unfinished }

// Result returns the result, and false while the game goes on.
func (g *Game) Result() (Result, bool) { return g.result, g.IsOver() }

// Play plays m for the side to move; a flip reveals the deal's piece. An
// illegal move, a flip in a game without a deal ([ErrNoDeal]), or any move
// once the game is over ([ErrGameOver]) is refused with a [*MoveError], and
// the game is unchanged.
func (g *Game) Play(m Move) error { return g.PlayPly(Ply{Move: m}) }

// PlayPly plays ply for the side to move: a flip names the piece it reveals
// (it must be in the pool, and be the deal's piece if the game has a deal) or
// no piece (the deal's). This is how a record is replayed. Errors are as
// [Game.Play]'s, and leave the game unchanged.
func (g *Game) PlayPly(ply Ply) error {
	p := g.Position()
	if g.IsOver() {
		return &MoveError{Ply: ply, Turn: p.Turn(), Reason: "the game is over (" + g.result.String() + ")", Err: ErrGameOver}
	}
	next, err := p.PlayPly(ply)
	if err != nil {
		return err
	}
	if ply.Move.IsFlip() {
		ply.Piece = next.At(ply.Move.From())
		if g.first == NoColor {
			g.first = ply.Piece.Color()
		}
	}
	g.plies = append(g.plies, ply)
	g.positions = append(g.positions, next)
	g.judge()
	return nil
}

// judge applies the end rules after a ply.
func (g *Game) judge() {
	p := g.Position()
	mover := p.Turn().Opponent()
	switch {
	case p.Count(p.Turn()) == 0:
		g.result = Result{Reason: NoPieces, Winner: mover}
	case p.IsOver():
		g.result = Result{Reason: NoLegalPly, Winner: mover}
	default:
		if k := g.repetition(); k > 0 {
			g.result = Result{Reason: PositionRepetitionDraw, Draw: true, Repetitions: g.rules.RepetitionCycles, Cycle: k}
		} else if n := g.rules.NoProgressPlies; n > 0 && p.Quiet() >= n {
			g.result = Result{Reason: NoEatFlipDraw, Draw: true}
		}
	}
}

// repetition returns the smallest cycle length k for which the last R*k (or
// R*k+1) plies, all quiet, are R copies of one k-ply sequence, or
// 0 if there is none.
func (g *Game) repetition() int {
	r := g.rules.RepetitionCycles
	if r <= 0 {
		return 0
	}
	e := 0
	if g.rules.RepetitionOnNextPly {
		e = 1
	}
	h := g.plies
	t := len(h) - 1
	quiet := min(g.Position().Quiet(), len(h)) // the trailing run of quiet plies
	for k := 1; r*k+e <= quiet; k++ {
		w := r*k + e
		j := 0
		for j < w-k && h[t-j].Move == h[t-j-k].Move {
			j++
		}
		if j == w-k {
			return k
		}
	}
	return 0
}

// Forfeit ends the game with loser losing for reason: [TimeOut], [BadMove] or
// [Resign]. Before the first flip has given the players colours, the first
// player (the side to move) is named by [NoColor]; the second player cannot
// forfeit then (a host records its fault after the first flip). It fails with
// [ErrGameOver] if the game has already ended, and refuses other reasons and
// losers.
func (g *Game) Forfeit(loser Color, reason Reason) error {
	if g.IsOver() {
		return fmt.Errorf("%w: cannot forfeit after %s", ErrGameOver, g.result)
	}
	if reason != TimeOut && reason != BadMove && reason != Resign {
		return fmt.Errorf("darkchess: forfeit by %s: not a forfeit", reason)
	}
	if unassigned := g.Turn() == NoColor; unassigned != (loser == NoColor) || loser > NoColor {
		return fmt.Errorf("darkchess: forfeit of %s while the side to move is %s", loser, g.Turn())
	}
	g.result = Result{Reason: reason, Winner: loser.Opponent()}
	return nil
}

// AgreeDraw ends the game drawn by the players' agreement ([AgreedDraw]): a
// person's draw offer that the other person accepted. No rule of the game
// makes such a draw; a host decides who may agree. It fails with
// [ErrGameOver] if the game has already ended.
func (g *Game) AgreeDraw() error {
	if g.IsOver() {
		return fmt.Errorf("%w: cannot agree to a draw after %s", ErrGameOver, g.result)
	}
	g.result = Result{Reason: AgreedDraw, Draw: true}
	return nil
}

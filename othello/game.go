package othello

import (
	"fmt"
	"slices"
)

// Reason says why a game ended.
type Reason uint8

// The reasons a game ends. The zero value, [Unfinished], is a game still in
// play.
const (
	Unfinished    Reason = iota // the game goes on
	Discs                       // neither side can move: the disc counts decide
	Timeout                     // the loser ran out of time
	Disconnect                  // the loser left or lost its connection
	TooManyErrors               // the loser sent too many rejected commands
	Resign                      // the loser resigned (a person's choice, which the TUS server has no word for)
	AgreedDraw                  // the players agreed to a draw ([Game.AgreeDraw])
)

// String returns the reason in the TUS server's words: "discs", "timeout",
// "disconnect", "errors", or "unfinished"; and "resignation" and
// "agreement", which the server never gives.
func (r Reason) String() string {
	switch r {
	case Unfinished:
		return "unfinished"
	case Discs:
		return "discs"
	case Timeout:
		return "timeout"
	case Disconnect:
		return "disconnect"
	case TooManyErrors:
		return "errors"
	case Resign:
		return "resignation"
	case AgreedDraw:
		return "agreement"
	}
	return "invalid reason"
}

// Result is the outcome of a finished game: the winner (or a draw), the raw
// disc counts of the final position (empty squares go to nobody), and why the
// game ended. A forfeit ([Timeout], [Disconnect], [TooManyErrors], [Resign])
// loses, and an [AgreedDraw] draws, whatever the counts.
type Result struct {
	Reason       Reason
	Draw         bool  // neither side won; Winner is then meaningless
	Winner       Color // the side that won, when not Draw
	Black, White int   // disc counts at the end
}

// String describes r, for example "black wins 37-27 (discs)" or
// "draw 32-32 (discs)"; counts are black's first.
func (r Result) String() string {
	if r.Reason == Unfinished {
		return "unfinished"
	}
	if r.Draw {
		return fmt.Sprintf("draw %d-%d (%s)", r.Black, r.White, r.Reason)
	}
	return fmt.Sprintf("%s wins %d-%d (%s)", r.Winner, r.Black, r.White, r.Reason)
}

// discResult returns the result of p decided on disc counts.
func discResult(p Position) Result {
	r := Result{Reason: Discs, Black: p.Count(Black), White: p.Count(White)}
	switch {
	case r.Black > r.White:
		r.Winner = Black
	case r.White > r.Black:
		r.Winner = White
	default:
		r.Draw = true
	}
	return r
}

// Game is a referee: a position, the moves that led to it (passes included)
// and, once it ends, the [Result]. Play rejects illegal moves and leaves the
// game unchanged. The zero Game is not usable; start one with [NewGame].
type Game struct {
	rules     Rules
	positions []Position // positions[i] is the position before moves[i]; the last is the current one
	moves     []Move
	result    Result
}

// NewGame starts a game from the rules' start position. A start in which
// neither side can move is a game already over.
func NewGame(r Rules) *Game {
	g := &Game{rules: r, positions: []Position{r.Start}}
	if r.Start.IsOver() {
		g.result = discResult(r.Start)
	}
	return g
}

// Rules returns the rules the game was started with.
func (g *Game) Rules() Rules { return g.rules }

// Position returns the current position.
func (g *Game) Position() Position { return g.positions[len(g.positions)-1] }

// Turn returns the side to move.
func (g *Game) Turn() Color { return g.Position().Turn() }

// Ply returns the number of moves played, passes included.
func (g *Game) Ply() int { return len(g.moves) }

// Moves returns a copy of the moves played, passes included.
func (g *Game) Moves() []Move { return slices.Clone(g.moves) }

// PositionAt returns the position before the move of the given ply (0 is the
// start); ply == [Game.Ply] gives the current position. It reports false for
// a ply out of range.
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

// Play plays m for the side to move. An illegal move, or any move once the
// game is over, is refused with a [*MoveError] wrapping [ErrIllegalMove] or
// [ErrGameOver], and the game is unchanged. After a move that leaves neither
// side a move, the game is over with a [Discs] result.
func (g *Game) Play(m Move) error {
	if g.IsOver() {
		return &MoveError{Move: m, Turn: g.Turn(), Reason: "the game is over (" + g.result.String() + ")", Err: ErrGameOver}
	}
	next, err := g.Position().Play(m)
	if err != nil {
		return err
	}
	g.moves = append(g.moves, m)
	g.positions = append(g.positions, next)
	if next.IsOver() {
		g.result = discResult(next)
	}
	return nil
}

// Forfeit ends the game with loser losing for reason: [Timeout],
// [Disconnect], [TooManyErrors] or [Resign], whatever the discs; the result
// keeps the current counts. It fails with [ErrGameOver] if the game has
// already ended, and refuses any other reason.
func (g *Game) Forfeit(loser Color, reason Reason) error {
	if g.IsOver() {
		return fmt.Errorf("%w: cannot forfeit after %s", ErrGameOver, g.result)
	}
	if !loser.Valid() || reason < Timeout || reason > Resign {
		return fmt.Errorf("othello: forfeit of %s by %s: not a forfeit", loser, reason)
	}
	p := g.Position()
	g.result = Result{Reason: reason, Winner: loser.Opponent(), Black: p.Count(Black), White: p.Count(White)}
	return nil
}

// AgreeDraw ends the game as a draw the players agreed to ([AgreedDraw]),
// whatever the discs: no rule makes this draw, a host decides who may agree
// (arena lets two persons). The result keeps the current counts. It fails
// with [ErrGameOver] if the game has already ended.
func (g *Game) AgreeDraw() error {
	if g.IsOver() {
		return fmt.Errorf("%w: cannot agree to a draw after %s", ErrGameOver, g.result)
	}
	p := g.Position()
	g.result = Result{Reason: AgreedDraw, Draw: true, Black: p.Count(Black), White: p.Count(White)}
	return nil
}

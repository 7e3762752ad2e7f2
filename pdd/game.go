package pdd

import (
	"fmt"
	"slices"
)

// Reason says why a game ended.
type Reason uint8

// The reasons a game ends, in the words of the referee's result.
// The zero value, [Unfinished], is a game still in play.
const (
	Unfinished Reason = iota // the game goes on
	Points                   // more points won
	Islands                  // points tied: more islands won
	Bridges                  // points and islands tied: more bridges won
	Draw                     // points, islands and bridges all tied
	Violation                // the loser broke a rule or the interface (forfeit)
	Resign                   // the loser resigned ([Game.Resign]; a person's choice, which no platform file records)
	AgreedDraw               // the players agreed to a draw ([Game.AgreeDraw])
)

// String returns "unfinished", "score", "islands", "bridges", "draw",
// "violation", "resignation" or "agreement".
func (r Reason) String() string {
	switch r {
	case Unfinished:
		return "unfinished"
	case Points:
		return "score"
	case Islands:
		return "islands"
	case Bridges:
		return "bridges"
	case Draw:
		return "draw"
	case Violation:
		return "violation"
	case Resign:
		return "resignation"
	case AgreedDraw:
		return "agreement"
	}
	return "invalid reason"
}

// Result is the outcome of a game: the winner (or a draw), both scores, and
// why it ended. A [Violation] or a [Resign] loses, and an [AgreedDraw] is
// drawn, whatever the scores, which are then for information only.
type Result struct {
	Reason       Reason
	Draw         bool  // neither side won; Winner is then NoColor
	Winner       Color // the side that won
	White, Black Score // the scores at the end
}

// String describes r, White's score first: "white wins 7/4/3 to 6/4/2
// (score)", "draw 3/2/1 to 3/2/1 (draw)", each score as
// points/islands/bridges.
func (r Result) String() string {
	if r.Reason == Unfinished {
		return "unfinished"
	}
	scores := fmt.Sprintf("%d/%d/%d to %d/%d/%d (%s)", r.White.Points, r.White.Islands, r.White.Bridges,
		r.Black.Points, r.Black.Islands, r.Black.Bridges, r.Reason)
	if r.Draw {
		return "draw " + scores
	}
	return fmt.Sprintf("%s wins %s", r.Winner, scores)
}

// Outcome returns the result the scores of p decide, whether or
// not the game is over: points, then islands, then bridges, else a draw.
func (p Position) Outcome() Result {
	r := Result{White: p.Score(White), Black: p.Score(Black)}
	w, b := r.White, r.Black
	switch {
	case w.Points != b.Points:
		r.Reason = Points
	case w.Islands != b.Islands:
		r.Reason = Islands
	case w.Bridges != b.Bridges:
		r.Reason = Bridges
	default:
		r.Reason, r.Draw = Draw, true
		return r
	}
	r.Winner = Black
	if w.Compare(b) > 0 {
		r.Winner = White
	}
	return r
}

// Game is a referee: a position, the moves that led to it (passes included)
// and, once it ends, the [Result]. Play rejects illegal moves and leaves the
// game unchanged. The zero Game is not usable; start one with [NewGame].
type Game struct {
	positions []Position // positions[i] is the position before moves[i]; the last is the current one
	moves     []Move
	result    Result
}

// NewGame starts a game from the empty board under r, White to move.
func NewGame(r Rules) *Game { return NewGameFrom(r.Start()) }

// NewGameFrom starts a game from any position, such as one read from a
// platform's files. A position where the game is over gives a game already
// over.
func NewGameFrom(start Position) *Game {
	g := &Game{positions: []Position{start}}
	if start.IsOver() {
		g.result = start.Outcome()
	}
	return g
}

// Rules returns the rule profile of the game.
func (g *Game) Rules() Rules { return g.positions[0].Rules() }

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
// game is over, is refused with a [*MoveError] wrapping the rule's sentinel
// (see [Position.Play]) or [ErrGameOver], and the game is unchanged. After a
// move that ends the game, the scores decide the result ([Position.Outcome]).
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
		g.result = next.Outcome()
	}
	return nil
}

// Forfeit ends the game with loser losing by [Violation], whatever the
// scores; the result keeps the current scores for information. It fails with
// [ErrGameOver] if the game has already ended, and refuses a loser that is
// not a side.
func (g *Game) Forfeit(loser Color) error {
	if g.IsOver() {
		return fmt.Errorf("%w: cannot forfeit after %s", ErrGameOver, g.result)
	}
	if !loser.Valid() {
		return fmt.Errorf("pdd: forfeit by %s: not a side", loser)
	}
	p := g.Position()
	g.result = Result{Reason: Violation, Winner: loser.Opponent(), White: p.Score(White), Black: p.Score(Black)}
	return nil
}

// Resign ends the game with loser losing by [Resign], whatever the scores;
// the result keeps the current scores for information. It fails with
// [ErrGameOver] if the game has already ended, and refuses a loser that is
// not a side.
func (g *Game) Resign(loser Color) error {
	if g.IsOver() {
		return fmt.Errorf("%w: cannot resign after %s", ErrGameOver, g.result)
	}
	if !loser.Valid() {
		return fmt.Errorf("pdd: resignation by %s: not a side", loser)
	}
	p := g.Position()
	g.result = Result{Reason: Resign, Winner: loser.Opponent(), White: p.Score(White), Black: p.Score(Black)}
	return nil
}

// AgreeDraw ends the game as a draw the players agreed to ([AgreedDraw]),
// whatever the scores; the result keeps the current scores for
// information. It fails with [ErrGameOver] if the game has already ended.
func (g *Game) AgreeDraw() error {
	if g.IsOver() {
		return fmt.Errorf("%w: cannot agree to a draw after %s", ErrGameOver, g.result)
	}
	p := g.Position()
	g.result = Result{Reason: AgreedDraw, Draw: true, White: p.Score(White), Black: p.Score(Black)}
	return nil
}

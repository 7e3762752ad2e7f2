package geister

import (
	"fmt"
	"slices"
)

// Reason says why a game ended, in the platforms' words.
type Reason uint8

// The reasons a game ends. The zero value, [Unfinished], is
// a game still in play. The board decides [ChessEscape], [NoBlueGhost] and
// [NoRedGhost]; the ply limit [GamePlyLimitDraw]; a referee the forfeits
// [TimeOut], [IllegalMove], [Disconnect] and [Resign], and a draw the two
// players agreed on, [AgreedDraw].
const (
	Unfinished       Reason = iota // the game goes on
	ChessEscape                    // the winner's blue ghost escaped
	NoBlueGhost                    // the winner captured the loser's four blue ghosts
	NoRedGhost                     // the loser captured the winner's four red ghosts
	GamePlyLimitDraw               // the ply limit was reached: a draw
	TimeOut                        // the loser ran out of time
	IllegalMove                    // the loser sent a malformed or illegal move under the Lose policy
	Disconnect                     // the loser's connection closed or its program exited
	Resign                         // the loser resigned
	// AgreedDraw is a draw the players agreed on (two persons, see
	// [Game.AgreeDraw]); no platform's record has it: the SDK's word, as
	// Resign is.
	AgreedDraw
)

var reasonNames = [...]string{
	Unfinished:       "Unfinished",
	ChessEscape:      "ChessEscape",
	NoBlueGhost:      "NoBlueGhost",
	NoRedGhost:       "NoRedGhost",
	GamePlyLimitDraw: "GamePlyLimitDraw",
	TimeOut:          "TimeOut",
	IllegalMove:      "IllegalMove",
	Disconnect:       "Disconnect",
	Resign:           "Resign",
	AgreedDraw:       "AgreedDraw",
}

// String returns the reason's word as the NTPU records write it:
// "ChessEscape", "NoBlueGhost", "NoRedGhost", "GamePlyLimitDraw", "TimeOut",
// "IllegalMove", "Disconnect", "Resign", "AgreedDraw", or "Unfinished".
func (r Reason) String() string {
	if int(r) < len(reasonNames) {
		return reasonNames[r]
	}
	return "invalid reason"
}

// ParseReason reads a reason word as [Reason.String] writes it, in any
// letter case.
func ParseReason(text string) (Reason, error) {
	for r, name := range reasonNames {
		if len(text) == len(name) && hasPrefixFold(text, upper(name)) {
			return Reason(r), nil
		}
	}
	return Unfinished, &SyntaxError{Input: text, Offset: 0, Msg: "unknown reason"}
}

// upper returns the ASCII upper case of s.
func upper(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'a' <= c && c <= 'z' {
			b[i] = c - ('a' - 'A')
		}
	}
	return string(b)
}

// isForfeit reports whether r is a referee ending.
func (r Reason) isForfeit() bool { return r >= TimeOut && r <= Resign }

// Result is the outcome of a game: the winner (or a draw) and why the game
// ended. The zero value is an unfinished game.
type Result struct {
	Reason Reason
	Draw   bool  // neither side won; Winner is then meaningless
	Winner Color // the side that won, when not Draw
}

// String describes r, for example "first wins (ChessEscape)" or "draw
// (GamePlyLimitDraw)", or "unfinished".
func (r Result) String() string {
	switch {
	case r.Reason == Unfinished:
		return "unfinished"
	case r.Draw:
		return "draw (" + r.Reason.String() + ")"
	}
	return fmt.Sprintf("%s wins (%s)", r.Winner, r.Reason)
}

// Score returns the points of the first and the second player as the NTPU
// records write them: 1 and 0 for a win, 0.5 each for a draw, 0 each while
// the game goes on.
func (r Result) Score() (first, second float64) {
	switch {
	case r.Reason == Unfinished:
		return 0, 0
	case r.Draw:
		return 0.5, 0.5
	case r.Winner == First:
		return 1, 0
	}
	return 0, 1
}

// Game is a referee: a position, the moves that led to it and, once it ends,
// the [Result]. Play rejects illegal moves and leaves the game unchanged. The
// zero Game refuses every move; start one with [NewGame].
type Game struct {
	rules     Rules
	positions []Position // positions[i] is the position before moves[i]; the last is the current one
	moves     []Move
	result    Result
}

// NewGame starts a game under r from start, normally [Start] with the two
// players' red sets; a mid-game start (the NTPU mid-game file) keeps its ply
// count, which the ply limit counts. A start the board has decided, or one at
// or past the ply limit, is a game already over.
func NewGame(r Rules, start Position) *Game {
	return &Game{rules: r, positions: []Position{start}, result: r.Result(start)}
}

// Rules returns the rules the game was started with.
func (g *Game) Rules() Rules { return g.rules }

// Position returns the current position (the zero Position for a zero Game).
func (g *Game) Position() Position {
	if len(g.positions) == 0 {
		return Position{}
	}
	return g.positions[len(g.positions)-1]
}

// View returns what player c knows of the current position.
func (g *Game) View(c Color) View { return g.Position().View(c) }

// Turn returns the side to move.
func (g *Game) Turn() Color { return g.Position().Turn() }

// Ply returns the ply count of the current position: the start's count plus
// the moves played.
func (g *Game) Ply() int { return g.Position().Ply() }

// Moves returns a copy of the moves played since the start, each in the move
// generator's spelling (an escape written sideways).
func (g *Game) Moves() []Move { return slices.Clone(g.moves) }

// PositionAt returns the position at the given ply count, from the start's
// count to [Game.Ply], and false for a ply out of that range.
func (g *Game) PositionAt(ply int) (Position, bool) {
	if len(g.positions) == 0 {
		return Position{}, false
	}
	i := ply - g.positions[0].Ply()
	if i < 0 || i >= len(g.positions) {
		return Position{}, false
	}
	return g.positions[i], true
}

// IsOver reports whether the game has ended.
func (g *Game) IsOver() bool { return g.result.Reason != Unfinished }

// Result returns the result, and false while the game goes on.
func (g *Game) Result() (Result, bool) { return g.result, g.IsOver() }

// Play plays m for the side to move, accepting North for an escape. An
// illegal move, or any move once the game is over, is refused with a
// [*MoveError] wrapping [ErrIllegalMove] or [ErrGameOver], and the game is
// unchanged whatever the policy: a host then calls [Game.Reject]. After an
// accepted move the game ends as the board or the ply limit says
// ([Rules.Result]).
func (g *Game) Play(m Move) error {
	if g.IsOver() {
		return &MoveError{Move: m, Turn: g.Turn(), Reason: "the game is over (" + g.result.String() + ")", Err: ErrGameOver}
	}
	if len(g.positions) == 0 {
		return &MoveError{Move: m, Reason: "the game has not started (use NewGame)", Err: ErrGameOver}
	}
	p := g.Position()
	next, err := p.Play(m)
	if err != nil {
		return err
	}
	g.moves = append(g.moves, p.Normalize(m))
	g.positions = append(g.positions, next)
	g.result = g.rules.Result(next)
	return nil
}

// Reject applies the rules' illegal-move policy after the side to move sent
// a move that was malformed or that [Game.Play] refused: under [Lose] the game
// ends, that side losing with [IllegalMove]; under [Retry] nothing changes and
// the same side must send another move. It reports whether the game is over.
func (g *Game) Reject() bool {
	if !g.IsOver() && g.rules.IllegalMove != Retry {
		g.result = Result{Reason: IllegalMove, Winner: g.Turn().Opponent()}
	}
	return g.IsOver()
}

// Forfeit ends the game with loser losing for reason: [TimeOut],
// [IllegalMove], [Disconnect] or [Resign], whatever the board. It fails with
// [ErrGameOver] if the game has already ended, and refuses any other reason.
func (g *Game) Forfeit(loser Color, reason Reason) error {
	if g.IsOver() {
		return fmt.Errorf("%w: cannot forfeit after %s", ErrGameOver, g.result)
	}
	if !loser.Valid() || !reason.isForfeit() {
		return fmt.Errorf("geister: forfeit of the %s player by %s: not a forfeit", loser, reason)
	}
	g.result = Result{Reason: reason, Winner: loser.Opponent()}
	return nil
}

// AgreeDraw ends the game drawn by the players' agreement ([AgreedDraw]),
// whatever the board: no rule makes this draw, a host decides who may
// agree (arena lets two persons). It fails with [ErrGameOver] if the game
// has already ended.
func (g *Game) AgreeDraw() error {
	if g.IsOver() {
		return fmt.Errorf("%w: cannot agree to a draw after %s", ErrGameOver, g.result)
	}
	g.result = Result{Reason: AgreedDraw, Draw: true}
	return nil
}

// IsDraw reports whether r ends a game drawn: [GamePlyLimitDraw] or
// [AgreedDraw].
func (r Reason) IsDraw() bool { return r == GamePlyLimitDraw || r == AgreedDraw }

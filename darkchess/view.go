package darkchess

import (
	"slices"
	"time"
)

// View is what one player may see: the position without the deal (the pieces
// under the face-down squares; their multiset, the pool, is public), and the
// context a protocol can supply. Every flip is public, so a view is the same
// for both players; it only records the viewer. A bot only ever receives a
// View; the referee keeps the [Position].
//
// Build views with [Position.View] or [Game.View]. The zero View is the
// empty board seen by red.
type View struct {
	pos    Position // without the deal
	viewer Color

	// History holds the plies that led to the position, oldest first, when
	// known (repetition-aware engines need it). [View.Play] appends to a
	// copy.
	History []Ply
	// Rules are the game's rules, when known; the zero Rules when not.
	Rules Rules
	// TimeLeft is each colour's remaining time, indexed by Color, when the
	// protocol tells it; zero when not.
	TimeLeft [2]time.Duration
}

// Viewer returns the colour of the player the view is for ([NoColor] before
// the first flip).
func (v View) Viewer() Color { return v.viewer }

// Position returns the public position: p without its deal. It is what a
// searching engine plays on, with [Position.PlayPlyUnchecked] for flips.
func (v View) Position() Position { return v.pos }

// Turn returns the side to move.
func (v View) Turn() Color { return v.pos.Turn() }

// At returns what s shows, as [Position.At].
func (v View) At(s Square) Piece { return v.pos.At(s) }

// Pool returns how many pieces pc are face-down, as [Position.Pool].
func (v View) Pool(pc Piece) int { return v.pos.Pool(pc) }

// Quiet returns the no-capture-no-flip counter, as [Position.Quiet].
func (v View) Quiet() int { return v.pos.Quiet() }

// AppendLegalMoves appends the legal moves, exactly as
// [Position.AppendLegalMoves] does on the referee's position.
func (v View) AppendLegalMoves(dst []Move) []Move { return v.pos.appendMoves(dst) }

// NumLegalMoves returns the number of legal moves of the side to move,
// len(AppendLegalMoves), without listing them. It does not allocate.
func (v View) NumLegalMoves() int {
	n, _ := v.pos.countMoves()
	return n
}

// IsLegal reports whether m is legal, as [Position.IsLegal].
func (v View) IsLegal(m Move) bool { return v.pos.isLegal(m) }

// IsOver reports whether the side to move has lost, as [Position.IsOver].
func (v View) IsOver() bool { return v.pos.IsOver() }

// Play returns the view after ply, with ply appended to a copy of the
// History. A flip must name the piece it revealed: a bare flip fails with
// [ErrNoDeal]. Other failures are as [Position.PlayPly]'s, and v is
// unchanged.
func (v View) Play(ply Ply) (View, error) {
	next, err := v.pos.PlayPly(ply)
	if err != nil {
		return v, err
	}
	v.pos = next
	v.History = append(slices.Clip(v.History), ply)
	return v, nil
}

// String returns the public position string, as [Position.String] writes it
// (with no deal).
func (v View) String() string { return v.pos.String() }

package geister

// Policy says what an illegal or malformed move from the side to move costs.
type Policy uint8

// The illegal-move policies.
const (
	// Lose ends the game: the offender loses with [IllegalMove]. The Java
	// server's default.
	Lose Policy = iota
	// Retry refuses the move and lets the same player send another for the
	// same position, on the same clock (the Java server's
	// --no_ng_terminate).
	Retry
)

// String returns "lose" or "retry".
func (p Policy) String() string {
	switch p {
	case Lose:
		return "lose"
	case Retry:
		return "retry"
	}
	return "invalid policy"
}

// Rules are the parameters of a game: the ply limit and the illegal-move
// policy. Time controls are the timer package's business.
type Rules struct {
	Name string // the preset's name, for records and messages
	// PlyLimit is the number of plies (moves of both players together) after
	// which a game the board has not decided is drawn with
	// [GamePlyLimitDraw]; 0 means no limit.
	PlyLimit int
	// IllegalMove is what an illegal move from the side to move costs.
	IllegalMove Policy
}

// The presets. Treat them as constants: copy one and change the
// copy to make other rules.
var (
	// GAT is the Java geister server's, used by the GAT tournaments: a draw
	// after 300 plies, and an illegal move loses.
	GAT = Rules{Name: "gat", PlyLimit: 300, IllegalMove: Lose}
	// NTPU is the NTPU platform launcher's default: a draw after 200 plies
	// (its "Max Move Number"), and an illegal move loses.
	NTPU = Rules{Name: "ntpu", PlyLimit: 200, IllegalMove: Lose}
)

// Result returns the result of p under r: the board result if the board
// decides the game (a win on the last allowed ply beats the draw), else a
// [GamePlyLimitDraw] draw once p's ply count has reached the limit, else a
// result with reason [Unfinished]. Search code uses it to end playouts as a
// referee would.
func (r Rules) Result(p Position) Result {
	if p.end != 0 {
		return p.Result()
	}
	if r.PlyLimit > 0 && int64(p.ply) >= int64(r.PlyLimit) {
		return Result{Reason: GamePlyLimitDraw, Draw: true}
	}
	return Result{}
}

// IsOver reports whether the game at p is over under r: decided by the board
// or at the ply limit.
func (r Rules) IsOver(p Position) bool {
	return p.end != 0 || (r.PlyLimit > 0 && int64(p.ply) >= int64(r.PlyLimit))
}

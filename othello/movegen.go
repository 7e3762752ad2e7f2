package othello

import "github.com/botarena/botarena/othello/internal/movegen"

// The board masks. Squares off the 6x6 board (b2..g7) are never playable there;
// runs of discs stop at them because they are always empty.
const (
	mask8x8   = 0xFFFFFFFFFFFFFFFF
	mask6x6   = 0x007E7E7E7E7E7E00
	innerCols = movegen.InnerCols // columns b..g: stops wrap-around on horizontal shifts
)

// legalMoves returns the squares where P may place a disc against O on the
// 8x8 board: package movegen's move generator, which the endgame solver
// shares.
func legalMoves(P, O uint64) uint64 { return movegen.Legal(P, O) }

// flips is [movegen.Flips]: the discs of O that turn when P places a disc
// on sq, zero exactly when the placement flips nothing.
func flips(sq int, P, O uint64) uint64 { return movegen.Flips(sq, P, O) }

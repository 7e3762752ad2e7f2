package search

import (
	"github.com/botarena/botarena/darkchess"
	"github.com/botarena/botarena/othello"
)

// Weights of [OthelloEval], in units of 1/othelloScale.
const (
	othelloCorner   = 25  // a corner
	othelloXSquare  = 8   // a square diagonally next to an empty corner (a penalty)
	othelloMobility = 3   // a legal placement
	othelloDisc     = 2   // a disc, once at most othelloEndgame squares are empty
	othelloEndgame  = 16  // the empty squares at which the discs start to count
	othelloScale    = 512 // more than the largest total (100 + 180 + 32, or 100 + 48 + 32 + 128)
)

// The corners of each board and the squares diagonally next to them, in
// the same order.
var (
	othelloCorners8  = [4]othello.Square{othello.A1, othello.H1, othello.A8, othello.H8}
	othelloXSquares8 = [4]othello.Square{othello.B2, othello.G2, othello.B7, othello.G7}
	othelloCorners6  = [4]othello.Square{othello.B2, othello.G2, othello.B7, othello.G7}
	othelloXSquares6 = [4]othello.Square{othello.C3, othello.F3, othello.C6, othello.F6}
)

// OthelloEval is a simple, fast [Eval] for [Othello], a start for one's own:
// for player, 25 a corner held, 3 a legal placement (mobility, the
// opponent's counted as if it were to move), -8 a disc diagonally next to an
// empty corner, and, once at most 16 squares are empty, 2 a disc (parity in
// the endgame); each counted as the difference between player and the
// opponent, the sum divided by 512 (so always inside (-1, 1)). It works on
// both board sizes and allocates nothing.
func OthelloEval(p othello.Position, player int) float64 {
	me := othello.Color(player & 1)
	mine, theirs := p.Discs(me), p.Discs(me.Opponent())
	mob := p.LegalSquares().Count() - p.PlayUnchecked(othello.Pass).LegalSquares().Count()
	if p.Turn() != me {
		mob = -mob
	}
	score := othelloMobility * mob
	corners, xs := &othelloCorners8, &othelloXSquares8
	if p.Size() == 6 {
		corners, xs = &othelloCorners6, &othelloXSquares6
	}
	for i, c := range corners {
		switch {
		case mine.Has(c):
			score += othelloCorner
		case theirs.Has(c):
			score -= othelloCorner
		case mine.Has(xs[i]):
			score -= othelloXSquare
		case theirs.Has(xs[i]):
			score += othelloXSquare
		}
	}
	if p.Empty().Count() <= othelloEndgame {
		score += othelloDisc * (mine.Count() - theirs.Count())
	}
	return float64(score) / othelloScale
}

// darkChessValues is the material value of each kind for [DarkChessEval].
var darkChessValues = [darkchess.Pawn + 1]int{
	darkchess.King:     30,
	darkchess.Guard:    20,
	darkchess.Minister: 10,
	darkchess.Rook:     6,
	darkchess.Knight:   4,
	darkchess.Cannon:   9,
	darkchess.Pawn:     3,
}

// darkChessScale is more than a side's whole material: 30 + 2*(20 + 10 + 6 +
// 4 + 9) + 5*3 = 143.
const darkChessScale = 160

// DarkChessEval is a material [Eval] for [DarkChess], a start for one's own:
// for player, the value of its pieces, revealed or face-down (the pool says
// which are left), less the opponent's, divided by 160 (so always inside
// (-1, 1)). The values are king 30, guard 20, minister 10, rook 6, knight 4,
// cannon 9, pawn 3 (the pawn, which takes the king, above the knight). It is
// 0 while the colours are unassigned, and allocates nothing.
func DarkChessEval(s DarkChessState, player int) float64 {
	p := s.Position()
	if p.Turn() == darkchess.NoColor {
		return 0
	}
	var material [2]int
	for c := darkchess.Red; c <= darkchess.Black; c++ {
		for k := darkchess.King; k <= darkchess.Pawn; k++ {
			pc := darkchess.MakePiece(c, k)
			material[c] += darkChessValues[k] * (p.Pieces(pc).Count() + p.Pool(pc))
		}
	}
	d := material[darkchess.Red] - material[darkchess.Black]
	if s.Player(darkchess.Red) != player&1 {
		d = -d
	}
	return float64(d) / darkChessScale
}

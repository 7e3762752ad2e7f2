package othello_test

import (
	"testing"

	"github.com/botarena/botarena/othello"
	"pgregory.net/rapid"
)

// TestSymmetryNaive checks every symmetry's square map against its formula
// and its bitboard map against the square map.
func TestSymmetryNaive(t *testing.T) {
	formula := map[othello.Symmetry]func(x, y int) (int, int){
		othello.Identity:      func(x, y int) (int, int) { return x, y },
		othello.FlipX:         func(x, y int) (int, int) { return 7 - x, y },
		othello.FlipY:         func(x, y int) (int, int) { return x, 7 - y },
		othello.Rotate180:     func(x, y int) (int, int) { return 7 - x, 7 - y },
		othello.Transpose:     func(x, y int) (int, int) { return y, x },
		othello.Rotate90:      func(x, y int) (int, int) { return 7 - y, x },
		othello.Rotate270:     func(x, y int) (int, int) { return y, 7 - x },
		othello.AntiTranspose: func(x, y int) (int, int) { return 7 - y, 7 - x },
	}
	n := 0
	for s := range othello.Symmetries() {
		n++
		f := formula[s]
		for sq := range othello.Square(64) {
			x, y := f(sq.X(), sq.Y())
			if got := s.Square(sq); got != othello.SquareAt(x, y) {
				t.Errorf("%s(%s) = %s", s, sq, got)
			}
			if got := s.Bitboard(sq.Bit()); got != othello.SquareAt(x, y).Bit() {
				t.Errorf("%s bitboard of %s = %#x", s, sq, uint64(got))
			}
			if s.Inverse().Square(s.Square(sq)) != sq {
				t.Errorf("%s.Inverse() does not undo %s on %s", s.Inverse(), s, sq)
			}
		}
	}
	if n != 8 {
		t.Errorf("%d symmetries", n)
	}
	if othello.FlipX.Position(othello.Standard.Start) != othello.TUS.Start {
		t.Error("FlipX does not map the standard start onto the TUS start")
	}
}

// TestSymmetryProperty: a symmetry maps legal moves onto legal moves and
// preserves perft.
func TestSymmetryProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := anyPosition().Draw(t, "p")
		s := othello.Symmetry(rapid.IntRange(0, 7).Draw(t, "s"))
		q := s.Position(p)
		if got, want := q.LegalSquares(), s.Bitboard(p.LegalSquares()); got != want {
			t.Fatalf("%s of %s: legal %v, want %v", s, p, got, want)
		}
		for _, m := range p.AppendLegalMoves(nil) {
			if s.Position(p.PlayUnchecked(m)) != q.PlayUnchecked(s.Move(m)) {
				t.Fatalf("%s does not commute with %s on %s", s, m, p)
			}
		}
		if othello.Perft(p, 3) != othello.Perft(q, 3) || othello.PerftBik(p, 3) != othello.PerftBik(q, 3) {
			t.Fatalf("%s changes perft of %s", s, p)
		}
	})
}

package darkchess_test

import (
	"errors"
	"testing"

	"github.com/botarena/botarena/darkchess"
	"github.com/botarena/botarena/darkchess/darkchesstest"
	"pgregory.net/rapid"
)

// TestZeroMoveIsNoMove: the zero Move is NoMove, is not a move, names no
// square and is legal in no position and no view.
func TestZeroMoveIsNoMove(t *testing.T) {
	var zero darkchess.Move
	if zero != darkchess.NoMove || zero.Valid() || zero.IsFlip() || zero.String() != "none" ||
		zero.From() != darkchess.NoSquare || zero.To() != darkchess.NoSquare {
		t.Fatalf("zero Move %v: Valid %v IsFlip %v From %v To %v", zero, zero.Valid(), zero.IsFlip(), zero.From(), zero.To())
	}
	if darkchess.Flip(darkchess.A1) == darkchess.NoMove || darkchess.NewMove(darkchess.NoSquare, darkchess.A1) != darkchess.NoMove ||
		darkchess.Flip(32) != darkchess.NoMove {
		t.Fatal("Flip(a1) is NoMove, or a move off the board is not")
	}
	rapid.Check(t, func(t *rapid.T) {
		p := anyPosition().Draw(t, "p")
		if p.IsLegal(darkchess.NoMove) || p.View(darkchess.Red).IsLegal(darkchess.NoMove) || p.IsCapture(darkchess.NoMove) {
			t.Fatalf("%s: NoMove is legal", p)
		}
		next, err := p.Play(darkchess.NoMove)
		if next != p || !errors.Is(err, darkchess.ErrIllegalMove) && !errors.Is(err, darkchess.ErrGameOver) {
			t.Fatalf("%s: Play(NoMove) = %s, %v", p, next, err)
		}
		for _, m := range p.AppendLegalMoves(nil) {
			if m == darkchess.NoMove {
				t.Fatalf("%s: NoMove among the legal moves", p)
			}
		}
	})
}

// TestMoveAccessors: NewMove and Flip keep their squares, and the squares of
// any value that is not a move are NoSquare.
func TestMoveAccessors(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		from := darkchess.Square(rapid.IntRange(-2, 33).Draw(t, "from"))
		to := darkchess.Square(rapid.IntRange(-2, 33).Draw(t, "to"))
		m := darkchess.NewMove(from, to)
		if !from.Valid() || !to.Valid() {
			if m != darkchess.NoMove {
				t.Fatalf("NewMove(%d, %d) = %v", from, to, m)
			}
			return
		}
		if !m.Valid() || m.From() != from || m.To() != to || m.IsFlip() != (from == to) || (from == to) != (m == darkchess.Flip(from)) {
			t.Fatalf("NewMove(%s, %s) = %v: From %v To %v IsFlip %v", from, to, m, m.From(), m.To(), m.IsFlip())
		}
		raw := darkchess.Move(rapid.Uint16().Draw(t, "raw"))
		if raw.Valid() && raw != darkchess.NewMove(raw.From(), raw.To()) {
			t.Fatalf("Move(%d): Valid %v, From %v To %v", uint16(raw), raw.Valid(), raw.From(), raw.To())
		}
		if !raw.Valid() && (raw.From() != darkchess.NoSquare || raw.To() != darkchess.NoSquare || raw.String() != "none" || raw.IsFlip()) {
			t.Fatalf("Move(%d) is not a move but reads %v %v-%v", uint16(raw), raw, raw.From(), raw.To())
		}
	})
}

// TestNumLegalMoves: NumLegalMoves is len(AppendLegalMoves), for a Position
// and its View, and does not allocate.
func TestNumLegalMoves(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := anyPosition().Draw(t, "p")
		if n, want := p.NumLegalMoves(), len(p.AppendLegalMoves(nil)); n != want {
			t.Fatalf("%s: NumLegalMoves %d, %d moves", p, n, want)
		}
		v := p.View(p.Turn())
		if n, want := v.NumLegalMoves(), len(v.AppendLegalMoves(nil)); n != want {
			t.Fatalf("%s: view: NumLegalMoves %d, %d moves", p, n, want)
		}
	})
	rapid.Check(t, func(t *rapid.T) {
		v := darkchesstest.View().Draw(t, "v")
		if n, want := v.NumLegalMoves(), len(v.AppendLegalMoves(nil)); n != want {
			t.Fatalf("%s: NumLegalMoves %d, %d moves", v, n, want)
		}
	})
	p := darkchess.Opening
	if n := testing.AllocsPerRun(100, func() { p.NumLegalMoves() }); n != 0 {
		t.Errorf("NumLegalMoves allocates %v times", n)
	}
}

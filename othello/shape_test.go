package othello_test

import (
	"errors"
	"testing"

	"github.com/botarena/botarena/othello"
	"pgregory.net/rapid"
)

// TestZeroMoveIsNoMove: the zero Move is NoMove, is not a move and is legal
// in no position.
func TestZeroMoveIsNoMove(t *testing.T) {
	var zero othello.Move
	if zero != othello.NoMove || zero.Valid() || zero.String() != "none" || zero.Square() != othello.NoSquare {
		t.Fatalf("zero Move %v: Valid %v", zero, zero.Valid())
	}
	rapid.Check(t, func(t *rapid.T) {
		p := anyPosition().Draw(t, "p")
		if p.IsLegal(othello.NoMove) {
			t.Fatalf("%s: NoMove is legal", p)
		}
		if next, err := p.Play(othello.NoMove); next != p || !errors.Is(err, othello.ErrIllegalMove) && !errors.Is(err, othello.ErrGameOver) {
			t.Fatalf("%s: Play(NoMove) = %s, %v", p, next, err)
		}
		for _, m := range p.AppendLegalMoves(nil) {
			if m == othello.NoMove {
				t.Fatalf("%s: NoMove among the legal moves", p)
			}
		}
	})
}

// TestNumLegalMoves: NumLegalMoves is len(AppendLegalMoves) and does not
// allocate.
func TestNumLegalMoves(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := anyPosition().Draw(t, "p")
		if n, want := p.NumLegalMoves(), len(p.AppendLegalMoves(nil)); n != want {
			t.Fatalf("%s: NumLegalMoves %d, %d moves", p, n, want)
		}
	})
	p := othello.Standard.Start
	if n := testing.AllocsPerRun(100, func() { p.NumLegalMoves() }); n != 0 {
		t.Errorf("NumLegalMoves allocates %v times", n)
	}
}

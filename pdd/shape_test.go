package pdd_test

import (
	"errors"
	"testing"

	"github.com/botarena/botarena/pdd"
	"github.com/botarena/botarena/pdd/pddtest"
	"pgregory.net/rapid"
)

// TestZeroMoveIsNoMove: the zero Move is NoMove, is not a move and is legal
// in no position.
func TestZeroMoveIsNoMove(t *testing.T) {
	var zero pdd.Move
	if zero != pdd.NoMove || zero.Valid() || zero.String() != "none" {
		t.Fatalf("zero Move %v: Valid %v", zero, zero.Valid())
	}
	rapid.Check(t, func(t *rapid.T) {
		p := pddtest.Position().Draw(t, "p")
		if p.IsLegal(pdd.NoMove) {
			t.Fatalf("%s: NoMove is legal", p)
		}
		if next, err := p.Play(pdd.NoMove); next != p || err == nil || !errors.Is(err, pdd.ErrIllegalMove) && !errors.Is(err, pdd.ErrGameOver) {
			t.Fatalf("%s: Play(NoMove) = %v", p, err)
		}
		for _, m := range p.AppendLegalMoves(nil) {
			if m == pdd.NoMove {
				t.Fatalf("%s: NoMove among the legal moves", p)
			}
		}
	})
}

// TestNumLegalMoves: NumLegalMoves is len(AppendLegalMoves) and does not
// allocate.
func TestNumLegalMoves(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := pddtest.Position().Draw(t, "p")
		if n, want := p.NumLegalMoves(), len(p.AppendLegalMoves(nil)); n != want {
			t.Fatalf("%s: NumLegalMoves %d, %d moves", p, n, want)
		}
	})
	p := pdd.Course.Start()
	if n := testing.AllocsPerRun(10, func() { p.NumLegalMoves() }); n != 0 {
		t.Errorf("NumLegalMoves allocates %v times", n)
	}
}

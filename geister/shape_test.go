package geister_test

import (
	"errors"
	"testing"

	"github.com/botarena/botarena/geister"
	"github.com/botarena/botarena/geister/geistertest"
	"pgregory.net/rapid"
)

// TestZeroMoveIsNoMove: the zero Move is NoMove, is not a move and is legal
// in no position and no view.
func TestZeroMoveIsNoMove(t *testing.T) {
	var zero geister.Move
	if zero != geister.NoMove || zero.Valid() || zero.String() != "none" {
		t.Fatalf("zero Move %v: Valid %v", zero, zero.Valid())
	}
	rapid.Check(t, func(t *rapid.T) {
		p := geistertest.AnyPosition().Draw(t, "p")
		if p.IsLegal(geister.NoMove) || p.View(p.Turn()).IsLegal(geister.NoMove) {
			t.Fatalf("%s: NoMove is legal", p)
		}
		if next, err := p.Play(geister.NoMove); next != p || !errors.Is(err, geister.ErrIllegalMove) && !errors.Is(err, geister.ErrGameOver) {
			t.Fatalf("%s: Play(NoMove) = %s, %v", p, next, err)
		}
		for _, m := range p.AppendLegalMoves(nil) {
			if m == geister.NoMove {
				t.Fatalf("%s: NoMove among the legal moves", p)
			}
		}
	})
}

// TestNumLegalMoves: NumLegalMoves is len(AppendLegalMoves), for a Position
// and for either player's View, and does not allocate.
func TestNumLegalMoves(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := geistertest.AnyPosition().Draw(t, "p")
		if n, want := p.NumLegalMoves(), len(p.AppendLegalMoves(nil)); n != want {
			t.Fatalf("%s: NumLegalMoves %d, %d moves", p, n, want)
		}
		for c := range geister.Color(2) {
			v := p.View(c)
			if n, want := v.NumLegalMoves(), len(v.AppendLegalMoves(nil)); n != want {
				t.Fatalf("%s: %s's view: NumLegalMoves %d, %d moves", p, c, n, want)
			}
		}
	})
	reds, _ := geister.ParseReds("ABCD")
	p, err := geister.Start(reds, reds)
	if err != nil {
		t.Fatal(err)
	}
	v := p.View(geister.First)
	if n := testing.AllocsPerRun(100, func() { p.NumLegalMoves(); v.NumLegalMoves() }); n != 0 {
		t.Errorf("NumLegalMoves allocates %v times", n)
	}
}

package main

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/botarena/botarena/darkchess"
	"github.com/botarena/botarena/search"
)

// TestDarkchessExpectiEval: the expecti bot's evaluation is the material
// balance's, shrunk in proportion to the no-progress plies left, and 0 at
// the limit.
func TestDarkchessExpectiEval(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	p := darkchess.Opening.Deal(rng)
	var buf []darkchess.Move
	for p.Count(darkchess.Red) == p.Count(darkchess.Black) || !p.Turn().Valid() {
		buf = p.AppendLegalMoves(buf[:0])
		if len(buf) == 0 {
			t.Fatal("the game ended")
		}
		p = p.PlayUnchecked(buf[rng.IntN(len(buf))])
	}
	const limit = 60
	eval := darkchessExpectiEval(limit)
	for _, quiet := range []int{0, 15, 30, 59, 60} {
		s := p.Setup()
		s.Quiet = quiet
		q, err := darkchess.NewPosition(s)
		if err != nil {
			t.Fatal(err)
		}
		state := search.NewDarkChessState(q)
		for player := range 2 {
			material := darkchessPlayoutEval(state, player)
			want := material * float64(limit-quiet) / limit
			if got := eval(state, player); math.Abs(got-want) > 1e-12 || material == 0 {
				t.Errorf("quiet %d, player %d: %v, want %v (material %v)", quiet, player, got, want, material)
			}
		}
	}
}

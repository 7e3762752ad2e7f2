package main

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/botarena/botarena/darkchess"
	"github.com/botarena/botarena/search"
	"github.com/botarena/botarena/timer"
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

// TestDarkchessExpectiAvoidsRepetition: the expecti bot records its game:
// where every ply is worth the same to its search it plays the first, and
// back in that position a few quiet plies later it plays another, the
// position after its first ply being now a repetition.
func TestDarkchessExpectiAvoidsRepetition(t *testing.T) {
	at := func(quiet int) darkchess.View {
		var st darkchess.Setup
		st.Board[darkchess.B2], st.Board[darkchess.D8] = darkchess.RedGuard, darkchess.BlackPawn
		st.Turn, st.Quiet = darkchess.Red, quiet
		p, err := darkchess.NewPosition(st)
		if err != nil {
			t.Fatal(err)
		}
		return p.View(darkchess.Red)
	}
	none, err := timer.Parse("none")
	if err != nil {
		t.Fatal(err)
	}
	bot := newDarkchessExpecti(none)
	first, err := bot.Play(context.Background(), at(5))
	if err != nil {
		t.Fatal(err)
	}
	if again, err := bot.Play(context.Background(), at(9)); err != nil || again == first {
		t.Errorf("back in the position, the bot plays %s (%v) after %s, into a repetition", again, err, first)
	}
	if fresh, err := newDarkchessExpecti(none).Play(context.Background(), at(9)); err != nil || fresh != first {
		t.Errorf("a fresh bot plays %s (%v), want %s", fresh, err, first)
	}
}

package main

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/botarena/botarena/darkchess"
	"github.com/botarena/botarena/search"
)

// TestDarkchessRepeats: the expecti bot's game scores a position of the
// game so far as a draw less the contempt for the searcher, whatever the
// no-progress counter; not the position searched, and not a new one.
func TestDarkchessRepeats(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	p := darkchess.Opening.Deal(rng)
	var buf []darkchess.Move
	// Play at random until a step (not a flip) is legal.
	var step darkchess.Move
	for step == darkchess.NoMove {
		buf = p.AppendLegalMoves(buf[:0])
		if len(buf) == 0 {
			t.Fatal("the game ended")
		}
		for _, m := range buf {
			if !m.IsFlip() && !p.IsCapture(m) && p.Turn().Valid() {
				step = m
			}
		}
		if step == darkchess.NoMove {
			p = p.PlayUnchecked(buf[rng.IntN(len(buf))])
		}
	}
	// The bot sees public positions: without the deal.
	p = search.NewDarkChessState(p).Position()
	var h darkchessHistory
	h.add(p)
	s := p.Setup()
	s.Quiet += 3
	again, err := darkchess.NewPosition(s)
	if err != nil {
		t.Fatal(err)
	}
	g := darkchessRepeats{search.DarkChess{}, &h}
	state := search.NewDarkChessState(again)
	me := g.ToMove(state)
	h.me = me
	if !h.has(again) || !g.IsTerminal(state) {
		t.Fatalf("%v with %d more quiet plies is not a repetition of %v", again, 3, p)
	}
	if got := g.Result(state, me); got != -darkchessContempt {
		t.Errorf("a repetition scores %v for the searcher, want %v", got, -darkchessContempt)
	}
	if got := g.Result(state, 1-me); got != darkchessContempt {
		t.Errorf("a repetition scores %v for the other, want %v", got, darkchessContempt)
	}
	if n := len(g.AppendMoves(state, nil)); n != 0 {
		t.Errorf("a repetition has %d moves, want none", n)
	}
	h.root = state.Position()
	if g.IsTerminal(state) || len(g.AppendMoves(state, nil)) == 0 {
		t.Error("the position searched is taken for a repetition")
	}
	next := p.PlayUnchecked(step)
	if h.has(next) || g.IsTerminal(search.NewDarkChessState(next)) {
		t.Errorf("%v after %v is taken for a repetition", next, step)
	}
}

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

package main

import (
	"math"
	"math/rand/v2"
	"slices"
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

// TestDarkchessExpectiOrder: along random games, the expecti bot's game
// lists the adapter's moves, each once, the captures first in the order of
// the quiescence search, then the steps, then the flips; a chance node's
// outcomes as the adapter lists them.
func TestDarkchessExpectiOrder(t *testing.T) {
	var h darkchessHistory
	g := darkchessRepeats{search.DarkChess{}, &h}
	for seed := range uint64(20) {
		rng := rand.New(rand.NewPCG(seed, 3))
		s := search.NewDarkChessState(darkchess.Opening)
		for !g.IsTerminal(s) {
			want := g.DarkChess.AppendMoves(s, nil)
			got := g.AppendMoves(s, nil)
			if _, pending := s.Pending(); pending {
				if !slices.Equal(got, want) {
					t.Fatalf("%s: outcomes %v, adapter %v", s.Position(), got, want)
				}
			} else {
				p := s.Position()
				noisy := g.AppendNoisyMoves(s, nil)
				class := func(m darkchess.Ply) int { // 0 capture, 1 step, 2 flip
					switch {
					case p.IsCapture(m.Move):
						return 0
					case !m.Move.IsFlip():
						return 1
					}
					return 2
				}
				if len(got) != len(want) || !slices.Equal(got[:len(noisy)], noisy) ||
					!slices.IsSortedFunc(got, func(a, b darkchess.Ply) int { return class(a) - class(b) }) {
					t.Fatalf("%s: moves %v, want the captures %v, the steps, then the flips of %v", p, got, noisy, want)
				}
				for _, m := range want {
					if !slices.Contains(got, m) {
						t.Fatalf("%s: %v missing from %v", p, m, got)
					}
				}
			}
			s = g.Play(s, want[rng.IntN(len(want))])
		}
	}
}

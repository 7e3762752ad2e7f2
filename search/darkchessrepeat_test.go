package search_test

import (
	"math/rand/v2"
	"testing"

	"github.com/botarena/botarena/darkchess"
	"github.com/botarena/botarena/search"
)

// TestDarkChessRepeats: DarkChessRepeats scores a position of the
// game so far as a draw less the contempt for the searcher, whatever the
// no-progress counter; not the position searched, and not a new one.
func TestDarkChessRepeats(t *testing.T) {
	t.Parallel()
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
	var h search.DarkChessHistory
	h.Searching(search.NewDarkChessState(p)) // the searcher: the player to move in p
	h.Add(p)
	s := p.Setup()
	s.Quiet += 3
	again, err := darkchess.NewPosition(s)
	if err != nil {
		t.Fatal(err)
	}
	const contempt = 0.125
	g := search.DarkChessRepeats{DarkChess: search.DarkChess{}, History: &h, Contempt: contempt}
	state := search.NewDarkChessState(again)
	me := g.ToMove(state)
	if !h.Has(again) || !g.IsTerminal(state) {
		t.Fatalf("%v with %d more quiet plies is not a repetition of %v", again, 3, p)
	}
	if got := g.Result(state, me); got != -contempt {
		t.Errorf("a repetition scores %v for the searcher, want %v", got, -contempt)
	}
	if got := g.Result(state, 1-me); got != contempt {
		t.Errorf("a repetition scores %v for the other, want %v", got, contempt)
	}
	if n := len(g.AppendMoves(state, nil)); n != 0 {
		t.Errorf("a repetition has %d moves, want none", n)
	}
	h.Searching(state)
	if g.IsTerminal(state) || len(g.AppendMoves(state, nil)) == 0 {
		t.Error("the position searched is taken for a repetition")
	}
	next := p.PlayUnchecked(step)
	if h.Has(next) || g.IsTerminal(search.NewDarkChessState(next)) {
		t.Errorf("%v after %v is taken for a repetition", next, step)
	}
}

// TestDarkChessHistory: Played records the position searched and the one
// after a step, not after a flip; a state right after a capture or flip
// empties the history; a full history starts again; a nil history is the
// plain adapter.
func TestDarkChessHistory(t *testing.T) {
	t.Parallel()
	var h search.DarkChessHistory
	g := search.DarkChess{}
	rng := rand.New(rand.NewPCG(5, 6))
	p := darkchess.Opening.Deal(rng)
	var buf []darkchess.Move
	for range 400 {
		buf = p.AppendLegalMoves(buf[:0])
		if len(buf) == 0 {
			break
		}
		s := search.NewDarkChessState(p)
		before := h.Len()
		h.Searching(s)
		if p.Quiet() == 0 && h.Len() != 0 {
			t.Fatalf("%v: %d positions kept after a capture or flip", p, h.Len())
		}
		if p.Quiet() > 0 && h.Len() != before {
			t.Fatalf("%v: Searching changed the history from %d to %d positions", p, before, h.Len())
		}
		m := buf[rng.IntN(len(buf))]
		h.Played(m)
		if !h.Has(s.Position()) {
			t.Fatalf("%v: not recorded", p)
		}
		next := p.PlayUnchecked(m)
		if pub := search.NewDarkChessState(next).Position(); !m.IsFlip() && !h.Has(pub) {
			t.Fatalf("%v after %v: not recorded", p, m)
		}
		p = next
	}
	nilHistory := search.DarkChessRepeats{DarkChess: g, Contempt: 1}
	s := search.NewDarkChessState(p)
	if nilHistory.IsTerminal(s) != g.IsTerminal(s) || len(nilHistory.AppendMoves(s, nil)) != len(g.AppendMoves(s, nil)) {
		t.Error("a nil history is not the plain adapter")
	}

	// A full history forgets and starts again: three pieces placed every
	// way give new positions.
	var full search.DarkChessHistory
	var first darkchess.Position
	n := 0
	for k := darkchess.Square(0); k < 32 && n <= search.MaxDarkChessHistory; k++ {
		for b := darkchess.Square(0); b < 32 && n <= search.MaxDarkChessHistory; b++ {
			for r := darkchess.Square(0); r < 32 && n <= search.MaxDarkChessHistory; r++ {
				if k == b || b == r || k == r {
					continue
				}
				var st darkchess.Setup
				st.Board[k], st.Board[b], st.Board[r] = darkchess.RedKing, darkchess.BlackKing, darkchess.RedRook
				st.Turn, st.Quiet = darkchess.Red, 1
				pos, err := darkchess.NewPosition(st)
				if err != nil {
					t.Fatal(err)
				}
				if n == 0 {
					first = pos
				}
				full.Add(pos)
				n++
				if want := (n-1)%search.MaxDarkChessHistory + 1; full.Len() != want {
					t.Fatalf("after %d positions the history holds %d, want %d", n, full.Len(), want)
				}
			}
		}
	}
	if full.Has(first) || full.Len() != 1 {
		t.Errorf("a full history kept its first position (%d held)", full.Len())
	}
}

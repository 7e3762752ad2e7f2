package search_test

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/botarena/botarena/darkchess"
	"github.com/botarena/botarena/darkchess/darkchesstest"
	"github.com/botarena/botarena/geister"
	"github.com/botarena/botarena/geister/geistertest"
	"github.com/botarena/botarena/othello"
	"github.com/botarena/botarena/othello/othellotest"
	"github.com/botarena/botarena/pdd"
	"github.com/botarena/botarena/search"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"pgregory.net/rapid"
)

// payoff is the payoff a referee's result gives player: draw, or the winner.
func payoff(draw bool, winner, player int) float64 {
	switch {
	case draw:
		return 0
	case winner == player:
		return 1
	}
	return -1
}

// TestOthelloAdapter plays random games through the adapter and through
// othello.Game side by side: the same moves, ends and results.
func TestOthelloAdapter(t *testing.T) {
	t.Parallel()
	var g search.Othello
	rapid.Check(t, func(t *rapid.T) {
		p := othellotest.Position().Draw(t, "start")
		r := rand.New(rand.NewPCG(rapid.Uint64().Draw(t, "seed"), 1))
		ref := othello.NewGame(othello.Rules{Start: p})
		var buf []othello.Move
		for {
			if got, want := g.IsTerminal(p), ref.IsOver(); got != want {
				t.Fatalf("%s: IsTerminal %v, referee over %v", p, got, want)
			}
			buf = g.AppendMoves(p, buf[:0])
			if d := cmp.Diff(ref.Position().AppendLegalMoves(nil), buf, cmpopts.EquateEmpty()); d != "" {
				t.Fatalf("%s: moves differ (-referee +adapter):\n%s", p, d)
			}
			if len(buf) == 0 {
				break
			}
			if got, want := g.ToMove(p), int(ref.Turn()); got != want {
				t.Fatalf("%s: ToMove %d, want %d", p, got, want)
			}
			m := buf[r.IntN(len(buf))]
			if err := ref.Play(m); err != nil {
				t.Fatal(err)
			}
			p = g.Play(p, m)
			if p != ref.Position() {
				t.Fatalf("after %s: adapter %s, referee %s", m, p, ref.Position())
			}
		}
		res, _ := ref.Result()
		for pl := range 2 {
			if got, want := g.Result(p, pl), payoff(res.Draw, int(res.Winner), pl); got != want {
				t.Fatalf("%s: Result(%d) = %v, want %v (%s)", p, pl, got, want, res)
			}
		}
	})
}

// TestGeisterAdapter plays random games through the adapter and through
// geister.Game under the same ply limit.
func TestGeisterAdapter(t *testing.T) {
	t.Parallel()
	rapid.Check(t, func(t *rapid.T) {
		p := rapid.OneOf(geistertest.Position(), geistertest.Start()).Draw(t, "start")
		limit := p.Ply() + rapid.IntRange(1, 300).Draw(t, "plies")
		g := search.Geister{PlyLimit: limit}
		r := rand.New(rand.NewPCG(rapid.Uint64().Draw(t, "seed"), 2))
		ref := geister.NewGame(geister.Rules{PlyLimit: limit}, p)
		var buf []geister.Move
		for {
			if got, want := g.IsTerminal(p), ref.IsOver(); got != want {
				t.Fatalf("%s: IsTerminal %v, referee over %v", p, got, want)
			}
			buf = g.AppendMoves(p, buf[:0])
			var want []geister.Move
			if !ref.IsOver() {
				want = ref.Position().AppendLegalMoves(nil)
			}
			if d := cmp.Diff(want, buf, cmpopts.EquateEmpty()); d != "" {
				t.Fatalf("%s: moves differ (-referee +adapter):\n%s", p, d)
			}
			if len(buf) == 0 {
				break
			}
			if got, want := g.ToMove(p), int(ref.Turn()); got != want {
				t.Fatalf("%s: ToMove %d, want %d", p, got, want)
			}
			m := buf[r.IntN(len(buf))]
			if err := ref.Play(m); err != nil {
				t.Fatal(err)
			}
			p = g.Play(p, m)
			if p != ref.Position() {
				t.Fatalf("after %s: adapter %s, referee %s", m, p, ref.Position())
			}
		}
		res, _ := ref.Result()
		for pl := range 2 {
			if got, want := g.Result(p, pl), payoff(res.Draw, int(res.Winner), pl); got != want {
				t.Fatalf("%s: Result(%d) = %v, want %v (%s)", p, pl, got, want, res)
			}
		}
	})
}

// TestGeisterDeterminize checks that a determinization keeps the view.
func TestGeisterDeterminize(t *testing.T) {
	t.Parallel()
	var g search.Geister
	rapid.Check(t, func(t *rapid.T) {
		p := geistertest.Position().Draw(t, "p")
		c := geister.Color(rapid.IntRange(0, 1).Draw(t, "viewer"))
		r := rand.New(rand.NewPCG(rapid.Uint64().Draw(t, "seed"), 3))
		v := p.View(c)
		if got := g.Determinize(v, r).View(c); got != v {
			t.Fatalf("determinization of %v shows %v", v, got)
		}
	})
}

// TestDarkChessAdapter plays random games through the adapter and through
// darkchess.Game (no repetition rule, the same no-progress limit): a flip
// goes through a chance node whose outcome is the deal's piece.
func TestDarkChessAdapter(t *testing.T) {
	t.Parallel() // on budgets, not the clock: load changes nothing
	rapid.Check(t, func(t *rapid.T) {
		p := rapid.OneOf(darkchesstest.Position(), darkchesstest.ArbitraryPosition(), darkchesstest.Opening()).Draw(t, "start")
		r := rand.New(rand.NewPCG(rapid.Uint64().Draw(t, "seed"), 4))
		if !p.Dealt() {
			p = p.Deal(r)
		}
		limit := rapid.IntRange(1, 200).Draw(t, "limit")
		g := search.DarkChess{NoProgressPlies: limit}
		ref := darkchess.NewGameFrom(darkchess.Rules{NoProgressPlies: limit}, p, nil)
		s := search.NewDarkChessState(p)
		var buf []darkchess.Ply
		var mbuf [darkchess.MaxMoves]darkchess.Move
		for {
			pub := ref.Position().View(darkchess.Red).Position()
			if s.Position() != pub {
				t.Fatalf("adapter %s, referee %s", s.Position(), pub)
			}
			if got, want := g.IsTerminal(s), ref.IsOver(); got != want {
				t.Fatalf("%s: IsTerminal %v, referee over %v", pub, got, want)
			}
			buf = g.AppendMoves(s, buf[:0])
			var want []darkchess.Ply
			if !ref.IsOver() {
				for _, m := range ref.Position().AppendLegalMoves(mbuf[:0]) {
					want = append(want, darkchess.Ply{Move: m})
				}
			}
			if d := cmp.Diff(want, buf, cmpopts.EquateEmpty()); d != "" {
				t.Fatalf("%s: moves differ (-referee +adapter):\n%s", pub, d)
			}
			if len(buf) == 0 {
				break
			}
			checkNoisy(t, g, s, buf)
			if tm := ref.Turn(); tm != darkchess.NoColor && g.ToMove(s) != s.Player(tm) {
				t.Fatalf("%s: ToMove %d, but %s is player %d", pub, g.ToMove(s), tm, s.Player(tm))
			}
			ply := buf[r.IntN(len(buf))]
			mover := g.ToMove(s)
			s = g.Play(s, ply)
			if ply.Move.IsFlip() {
				if g.ToMove(s) != search.Chance || g.IsTerminal(s) {
					t.Fatalf("%s: after flip %s, ToMove %d, want Chance", pub, ply.Move, g.ToMove(s))
				}
				checkOutcomes(t, g, s)
				ply.Piece = ref.Position().DealAt(ply.Move.From())
				s = g.Play(s, ply)
				if c := ply.Piece.Color(); ref.Turn() == darkchess.NoColor && s.Player(c) != mover {
					t.Fatalf("first flip revealed %s: player %d, want the mover %d", ply.Piece, s.Player(c), mover)
				}
			}
			if err := ref.Play(ply.Move); err != nil {
				t.Fatal(err)
			}
		}
		res, _ := ref.Result()
		for pl := range 2 {
			if got, want := g.Result(s, pl), payoff(res.Draw, s.Player(res.Winner), pl); got != want {
				t.Fatalf("%s: Result(%d) = %v, want %v (%s)", s.Position(), pl, got, want, res)
			}
		}
	})
}

// TestDarkChessOrdered: along random games, the Ordered adapter lists the
// moves of the unordered one, each once, the captures first in the order of
// AppendNoisyMoves, then the steps, then the flips; a chance node's
// outcomes in the same order.
func TestDarkChessOrdered(t *testing.T) {
	t.Parallel()
	g, unordered := search.DarkChess{Ordered: true}, search.DarkChess{}
	for seed := range uint64(20) {
		rng := rand.New(rand.NewPCG(seed, 3))
		s := search.NewDarkChessState(darkchess.Opening)
		for !g.IsTerminal(s) {
			want := unordered.AppendMoves(s, nil)
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

// checkNoisy checks the noisy moves of the decision state s, whose moves are
// moves: its captures, each once, the most valuable victim first (by
// DarkChessEval's values), then the least valuable capturer.
func checkNoisy(t *rapid.T, g search.DarkChess, s search.DarkChessState, moves []darkchess.Ply) {
	value := [8]int{darkchess.King: 30, darkchess.Guard: 20, darkchess.Minister: 10,
		darkchess.Rook: 6, darkchess.Knight: 4, darkchess.Cannon: 9, darkchess.Pawn: 3}
	p := s.Position()
	var want []darkchess.Ply
	for _, m := range moves {
		if p.IsCapture(m.Move) {
			want = append(want, m)
		}
	}
	got := g.AppendNoisyMoves(s, nil)
	key := func(m darkchess.Ply) int {
		return -64*value[p.At(m.Move.To()).Kind()] + value[p.At(m.Move.From()).Kind()]
	}
	if !slices.IsSortedFunc(got, func(a, b darkchess.Ply) int { return key(a) - key(b) }) {
		t.Fatalf("%s: noisy moves %v out of order", p, got)
	}
	less := func(a, b darkchess.Ply) int { return int(a.Move) - int(b.Move) }
	if d := cmp.Diff(slices.SortedFunc(slices.Values(want), less), slices.SortedFunc(slices.Values(got), less), cmpopts.EquateEmpty()); d != "" {
		t.Fatalf("%s: noisy moves are not the captures (-captures +noisy):\n%s", p, d)
	}
}

// checkOutcomes checks the chance node s: the outcomes are the moves, one per
// distinct face-down piece, with probability count/face-down, summing to 1.
func checkOutcomes(t *rapid.T, g search.DarkChess, s search.DarkChessState) {
	sq, ok := s.Pending()
	if !ok {
		t.Fatal("no pending flip at a chance node")
	}
	p := s.Position()
	outs := g.AppendOutcomes(s, nil)
	moves := g.AppendMoves(s, nil)
	if len(outs) != len(moves) {
		t.Fatalf("%d outcomes, %d moves", len(outs), len(moves))
	}
	sum, total := 0.0, p.FaceDown().Count()
	seen := 0
	for i, o := range outs {
		if o.Move != moves[i] || o.Move.Move != darkchess.Flip(sq) {
			t.Fatalf("outcome %d is %v, move %v, pending %s", i, o.Move, moves[i], sq)
		}
		n := p.Pool(o.Move.Piece)
		if n == 0 || o.Prob != float64(n)/float64(total) {
			t.Fatalf("outcome %s: probability %v, pool %d of %d", o.Move, o.Prob, n, total)
		}
		seen += n
		sum += o.Prob
	}
	if seen != total || math.Abs(sum-1) > 1e-12 {
		t.Fatalf("outcomes cover %d of %d face-down pieces, probabilities sum to %v", seen, total, sum)
	}
}

// TestDarkChessSampleOutcome checks that SampleOutcome draws each face-down
// piece with its pool's share: 140,000 draws from the opening's first flip
// (fixed seed), each piece's frequency within 5 standard deviations.
func TestDarkChessSampleOutcome(t *testing.T) {
	t.Parallel()
	var g search.DarkChess
	s := g.Play(search.NewDarkChessState(darkchess.Opening), darkchess.Ply{Move: darkchess.Flip(darkchess.B2)})
	r := rand.New(rand.NewPCG(5, 6))
	const n = 140000
	counts := map[darkchess.Piece]int{}
	for range n {
		o := g.SampleOutcome(s, r)
		if o.Move != darkchess.Flip(darkchess.B2) {
			t.Fatalf("sampled %v", o)
		}
		counts[o.Piece]++
	}
	for _, o := range g.AppendOutcomes(s, nil) {
		want := o.Prob * n
		sd := math.Sqrt(n * o.Prob * (1 - o.Prob))
		if got := float64(counts[o.Move.Piece]); math.Abs(got-want) > 5*sd {
			t.Errorf("%s: %v draws, want %.0f ± %.0f", o.Move.Piece, got, want, 5*sd)
		}
		delete(counts, o.Move.Piece)
	}
	if len(counts) != 0 {
		t.Errorf("drew pieces not in the pool: %v", counts)
	}
}

// TestDarkChessDeterminize checks that a view's determinization is its
// public position, a decision node.
func TestDarkChessDeterminize(t *testing.T) {
	t.Parallel()
	var g search.DarkChess
	rapid.Check(t, func(t *rapid.T) {
		v := darkchesstest.View().Draw(t, "v")
		s := g.Determinize(v, nil)
		if _, pending := s.Pending(); pending || s.Position() != v.Position() {
			t.Fatalf("determinization of %s: %s", v, s.Position())
		}
	})
}

// TestPDDAdapter plays random games (20 plies from a random point of a random
// game under either profile) through the adapter and through pdd.Game side by side.
func TestPDDAdapter(t *testing.T) {
	t.Parallel()
	var g search.PDD
	rapid.Check(t, func(t *rapid.T) {
		r := rand.New(rand.NewPCG(rapid.Uint64().Draw(t, "seed"), 7))
		p := rapid.SampledFrom([]pdd.Rules{pdd.Course, pdd.Official}).Draw(t, "rules").Start()
		var buf, rbuf []pdd.Move
		for range rapid.IntRange(0, 120).Draw(t, "skip") {
			if buf = p.AppendLegalMoves(buf[:0]); len(buf) > 0 {
				p = p.PlayUnchecked(buf[r.IntN(len(buf))])
			}
		}
		ref := pdd.NewGameFrom(p)
		for range 20 {
			if got, want := g.IsTerminal(p), ref.IsOver(); got != want {
				t.Fatalf("%s: IsTerminal %v, referee over %v", p, got, want)
			}
			buf = g.AppendMoves(p, buf[:0])
			rbuf = ref.Position().AppendLegalMoves(rbuf[:0])
			if !slices.Equal(rbuf, buf) {
				d := cmp.Diff(rbuf, buf, cmpopts.EquateEmpty())
				t.Fatalf("%s: moves differ (-referee +adapter):\n%s", p, d)
			}
			if len(buf) == 0 {
				res, _ := ref.Result()
				for pl := range 2 {
					if got, want := g.Result(p, pl), payoff(res.Draw, int(res.Winner)-1, pl); got != want {
						t.Fatalf("%s: Result(%d) = %v, want %v (%s)", p, pl, got, want, res)
					}
				}
				return
			}
			if got, want := g.ToMove(p), int(ref.Turn())-1; got != want {
				t.Fatalf("%s: ToMove %d, want %d", p, got, want)
			}
			m := buf[r.IntN(len(buf))]
			if err := ref.Play(m); err != nil {
				t.Fatal(err)
			}
			p = g.Play(p, m)
			if p != ref.Position() {
				t.Fatalf("after %s: adapter %s, referee %s", m, p, ref.Position())
			}
		}
	})
}

package pdd_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/botarena/botarena/pdd"
	"github.com/botarena/botarena/pdd/pddtest"
	"pgregory.net/rapid"
)

// TestSymmetryProperty: each of the 8 symmetries maps legal moves onto legal
// moves, keeps the move count and both scores, and commutes with play.
func TestSymmetryProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := pddtest.Position().Draw(t, "p")
		s := pdd.Symmetry(rapid.IntRange(0, 7).Draw(t, "s"))
		q := s.Position(p)
		if r, err := pdd.NewPosition(q.Setup()); err != nil || r != q {
			t.Fatalf("%s of %s is not a valid position: %v", s, p, err)
		}
		moves := p.AppendLegalMoves(nil)
		var mapped []pdd.Move
		for _, m := range moves {
			mapped = append(mapped, s.Move(m))
		}
		slices.Sort(mapped)
		if got := q.AppendLegalMoves(nil); !slices.Equal(got, mapped) {
			t.Fatalf("%s of %s: %d moves, want %d mapped", s, p, len(got), len(mapped))
		}
		if p.Score(pdd.White) != q.Score(pdd.White) || p.Score(pdd.Black) != q.Score(pdd.Black) {
			t.Fatalf("%s changes the score of %s", s, p)
		}
		for range 5 {
			if len(moves) == 0 {
				break
			}
			m := rapid.SampledFrom(moves).Draw(t, "m")
			if s.Position(p.PlayUnchecked(m)) != q.PlayUnchecked(s.Move(m)) {
				t.Fatalf("%s does not commute with %s on %s", s, m, p)
			}
		}
		if s.Inverse().Position(q) != p {
			t.Fatalf("%s.Inverse() does not undo %s", s.Inverse(), s)
		}
	})
}

// singleLegal reports whether the side to move may put one tile on s: the
// position with it is valid.
func singleLegal(p pdd.Position, s pdd.Square) bool {
	if !p.Free().Has(s) {
		return false
	}
	set := p.Setup()
	set.Cells[s] = p.Turn()
	set.ChangeAvailable = false
	_, err := pdd.NewPosition(set)
	return err == nil
}

// TestPairsAndSingles: a legal pair has legal singles; at a distance above
// 4, a pair is legal iff both singles are.
func TestPairsAndSingles(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := pddtest.Position().Draw(t, "p")
		if p.IsOver() || p.Rules() == pdd.Official && p.TilesLeft(p.Turn()) < 2 {
			return
		}
		free := slices.Collect(p.Free().Squares())
		if len(free) < 2 {
			return
		}
		for range 8 {
			a := rapid.SampledFrom(free).Draw(t, "a")
			b := rapid.SampledFrom(free).Draw(t, "b")
			if a == b {
				continue
			}
			pair := p.IsLegal(pdd.Chess(a, b))
			sa, sb := singleLegal(p, a), singleLegal(p, b)
			if pair && !(sa && sb) {
				t.Fatalf("%s: pair %s %s legal, singles %v %v", p, a, b, sa, sb)
			}
			if d := max(a.X()-b.X(), b.X()-a.X(), a.Y()-b.Y(), b.Y()-a.Y()); d > 4 && pair != (sa && sb) {
				t.Fatalf("%s: pair %s %s at distance %d legal %v, singles %v %v", p, a, b, d, pair, sa, sb)
			}
		}
	})
}

// TestPlayoutInvariants plays seeded random games to the end under both
// profiles and checks at every ply: the position is valid (I1, I2 for both
// colours, no tile under a bridge, bridges 1..K: NewPosition accepts its
// Setup), at most 4,950 moves, the text round trip, a Course side once
// skipped stays skipped, and at the end at most 67 (Course) or 58 (Official)
// recorded actions.
func TestPlayoutInvariants(t *testing.T) {
	for _, rules := range []pdd.Rules{pdd.Course, pdd.Official} {
		r := rand.New(rand.NewPCG(3, uint64(rules)))
		var buf [pdd.MaxMoves]pdd.Move
		for game := range 40 {
			p := rules.Start()
			actions := 0
			skipped := [3]bool{}
			for {
				if q, err := pdd.NewPosition(p.Setup()); err != nil || q != p {
					t.Fatalf("%s game %d: %s invalid: %v", rules, game, p, err)
				}
				if q, err := pdd.ParsePosition(p.String()); err != nil || q != p {
					t.Fatalf("%s: ParsePosition(%q) = %v", rules, p, err)
				}
				moves := p.AppendLegalMoves(buf[:0])
				if len(moves) > pdd.MaxMoves {
					t.Fatalf("%s: %d moves", p, len(moves))
				}
				if len(moves) == 0 {
					break
				}
				forced := len(moves) == 1 && moves[0] == pdd.Pass
				if rules == pdd.Course {
					if skipped[p.Turn()] && !forced {
						t.Fatalf("%s: %s was skipped but has moves again", p, p.Turn())
					}
					skipped[p.Turn()] = skipped[p.Turn()] || forced
				}
				m := moves[r.IntN(len(moves))]
				if rules == pdd.Official || m != pdd.Pass {
					actions++
				}
				p = p.PlayUnchecked(m)
			}
			if limit := map[pdd.Rules]int{pdd.Course: 67, pdd.Official: 58}[rules]; actions > limit {
				t.Errorf("%s game %d: %d actions", rules, game, actions)
			}
		}
	}
}

// TestPlayoutShape checks the seeded uniform playouts against the reference
// shape, loosely: game length, skips, and the mean number of
// legal moves early and late.
func TestPlayoutShape(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var buf [pdd.MaxMoves]pdd.Move
	const games = 100
	plies, skips := 0, 0
	var early, late, nEarly, nLate float64
	for range games {
		p := pdd.Course.Start()
		for ply := 1; ; ply++ {
			moves := p.AppendLegalMoves(buf[:0])
			if len(moves) == 0 {
				break
			}
			switch {
			case ply <= 10:
				early += float64(len(moves))
				nEarly++
			case ply > 40 && ply <= 50:
				late += float64(len(moves))
				nLate++
			}
			if moves[0] == pdd.Pass {
				skips++
			}
			plies++
			p = p.PlayUnchecked(moves[r.IntN(len(moves))])
		}
	}
	mean := float64(plies) / games
	if mean < 45 || mean > 58 || early/nEarly < 3500 || early/nEarly > 4700 || late/nLate > 40 || skips > 3*games {
		t.Errorf("mean %.1f plies, %d skips in %d games, %.0f moves in plies 1-10, %.1f in 41-50", mean, skips, games, early/nEarly, late/nLate)
	}
}

// TestBitboardGroupProperty: Neighbors and Group agree with a square-by-
// square reference on random sets of squares.
func TestBitboardGroupProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var b pdd.Bitboard
		for _, i := range rapid.SliceOfN(rapid.IntRange(0, pdd.NumSquares-1), 0, 60).Draw(t, "squares") {
			b = b.With(pdd.Square(i))
		}
		var want pdd.Bitboard
		for s := range b.Squares() {
			for _, d := range [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
				if x, y := s.X()+d[0], s.Y()+d[1]; x >= 0 && x < 10 && y >= 0 && y < 10 {
					want = want.With(pdd.SquareAt(x, y))
				}
			}
		}
		if got := b.Neighbors(); got != want {
			t.Fatalf("Neighbors of %v = %v, want %v", b, got, want)
		}
		s := pdd.Square(rapid.IntRange(0, pdd.NumSquares-1).Draw(t, "s"))
		var group pdd.Bitboard
		if b.Has(s) {
			group = group.With(s)
			for stack := []pdd.Square{s}; len(stack) > 0; {
				q := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				for n := range q.Bit().Neighbors().Intersect(b).Without(group).Squares() {
					group = group.With(n)
					stack = append(stack, n)
				}
			}
		}
		if got := b.Group(s); got != group {
			t.Fatalf("Group(%v) of %v = %v, want %v", s, b, got, group)
		}
	})
}

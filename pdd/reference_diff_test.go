package pdd_test

import (
	"flag"
	"math/rand/v2"
	"testing"

	"github.com/botarena/botarena/internal/longtest"
	"github.com/botarena/botarena/pdd"
	"github.com/botarena/botarena/pdd/pddtest"
	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
)

var playouts = flag.Int("pdd.playouts", 0, "seeded random playouts per profile compared ply by ply with the naive reference (0: 2 in the quick tier, 20 with BOTARENA_LONG=1; 200 for a thorough check: about a minute)")

// compareWithNaive checks p against the reference: the legal moves (set and
// canonical order), their count, the end, the forced pass, both scores, and
// the position after every move against the reference's.
func compareWithNaive(t tb, p pdd.Position) {
	t.Helper()
	ref := toNaive(p)
	want := ref.moves()
	got := p.AppendLegalMoves(nil)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("legal moves of %s (-ref +got):\n%s", p, diff)
	}
	if n := p.NumLegalMoves(); n != len(want) {
		t.Fatalf("%s: NumLegalMoves %d, reference %d", p, n, len(want))
	}
	if over := ref.over(); p.IsOver() != over {
		t.Fatalf("%s: IsOver %v, reference %v", p, p.IsOver(), over)
	}
	if must := len(want) == 1 && want[0] == pdd.Pass; p.MustPass() != must {
		t.Fatalf("%s: MustPass %v, reference %v", p, p.MustPass(), must)
	}
	for _, c := range []pdd.Color{pdd.White, pdd.Black} {
		if got, want := p.Score(c), ref.score(int8(c)); got != want {
			t.Fatalf("%s: Score(%s) = %v, reference %v", p, c, got, want)
		}
	}
}

// compareMove checks that Play and the reference classify m alike, and that
// a legal m leads to the reference's position.
func compareMove(t tb, p pdd.Position, m pdd.Move) {
	t.Helper()
	ref := toNaive(p)
	next, err := p.Play(m)
	want := ref.check(m)
	if got := sentinelOf(err); got != want {
		t.Fatalf("%s: Play(%s) = %v, reference %v", p, m, err, want)
	}
	if p.IsLegal(m) != (want == nil) {
		t.Fatalf("%s: IsLegal(%s) = %v, reference %v", p, m, p.IsLegal(m), want)
	}
	if err != nil {
		if next != p {
			t.Fatalf("%s: refused %s changed the position", p, m)
		}
		return
	}
	if next != p.PlayUnchecked(m) {
		t.Fatalf("%s: Play and PlayUnchecked differ on %s", p, m)
	}
	if got, want := toNaive(next), ref.play(m); !cmp.Equal(*got, *want, cmp.AllowUnexported(naive{}, pt{})) {
		t.Fatalf("%s after %s: got %s", p, m, next)
	}
}

func TestReferenceFixtures(t *testing.T) {
	for _, rules := range []pdd.Rules{pdd.Course, pdd.Official} {
		for _, turn := range []pdd.Color{pdd.White, pdd.Black} {
			for _, f := range [][2]string{{f1Chess, f1Bridge}, {f2Chess, f2Bridge}, {s1Chess, s1Bridge}, {s3Chess, s3Bridge}, {m1Chess, m1Bridge}} {
				compareWithNaive(t, fromFiles(t, rules, turn, f[0], f[1]))
			}
		}
	}
	compareWithNaive(t, pdd.Course.Start())
	compareWithNaive(t, pdd.Official.Start())
}

// TestReferencePlayouts plays seeded random games under both profiles and
// compares every ply with the reference, with a few candidate moves each,
// legal or not: -pdd.playouts games a profile, by default 2 in the quick
// tier (every kind of ply, to the end of a game) and 20 in the long tier
// (BOTARENA_LONG=1).
func TestReferencePlayouts(t *testing.T) {
	games := *playouts
	if games == 0 {
		games = longtest.Pick(2, 20)
	}
	for _, rules := range []pdd.Rules{pdd.Course, pdd.Official} {
		t.Run(rules.String(), func(t *testing.T) {
			t.Parallel()
			r := rand.New(rand.NewPCG(uint64(rules), 7))
			for range games {
				p := rules.Start()
				for {
					compareWithNaive(t, p)
					moves := p.AppendLegalMoves(nil)
					for range 4 {
						compareMove(t, p, randomCandidate(r, p))
					}
					if len(moves) == 0 {
						break
					}
					m := moves[r.IntN(len(moves))]
					compareMove(t, p, m)
					p = p.PlayUnchecked(m)
				}
			}
		})
	}
}

// randomCandidate draws a move a program might send, legal or not.
func randomCandidate(r *rand.Rand, p pdd.Position) pdd.Move {
	var pool []pdd.Square
	for _, set := range []pdd.Bitboard{p.Tiles(p.Turn()), p.Tiles(p.Turn().Opponent()), p.Under(), p.Free()} {
		for s := range set.Squares() {
			pool = append(pool, s)
		}
	}
	switch r.IntN(10) {
	case 0:
		return pdd.Change
	case 1:
		return pdd.Pass
	}
	a := pool[r.IntN(len(pool))]
	b := pdd.SquareAt(a.X()+r.IntN(5)-2, a.Y()+r.IntN(5)-2)
	if r.IntN(3) == 0 || !b.Valid() {
		b = pool[r.IntN(len(pool))]
	}
	if r.IntN(2) == 0 {
		return pdd.Bridge(a, b)
	}
	if a == b {
		b = (a + 1) % pdd.NumSquares
	}
	return pdd.Chess(a, b)
}

// TestReferenceProperty compares generated positions, uniform and compact,
// with the reference, and Play with the reference's classifier on generated
// candidate moves.
func TestReferenceProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := pddtest.Position().Draw(t, "p")
		compareWithNaive(t, p)
		for range 8 {
			compareMove(t, p, pddtest.Candidate(p).Draw(t, "m"))
		}
	})
}

// TestPerftAgainstReference checks perft(2) of M1 in both profiles, and a few
// shallow counts of generated positions, against the reference.
func TestPerftAgainstReference(t *testing.T) {
	for _, rules := range []pdd.Rules{pdd.Course, pdd.Official} {
		p := fromFiles(t, rules, pdd.White, m1Chess, m1Bridge)
		if got, want := pdd.Perft(p, 2), toNaive(p).perft(2); got != want {
			t.Errorf("M1 %s perft(2) = %d, reference %d", rules, got, want)
		}
	}
	rapid.Check(t, func(t *rapid.T) {
		p := pddtest.Position().Draw(t, "p")
		if p.NumLegalMoves() > 120 {
			t.Skip("too many moves for the reference")
		}
		if got, want := pdd.Perft(p, 2), toNaive(p).perft(2); got != want {
			t.Fatalf("%s perft(2) = %d, reference %d", p, got, want)
		}
	})
}

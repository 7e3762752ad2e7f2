package search

import (
	"math/rand/v2"
	"testing"

	"github.com/botarena/botarena/geister"
)

// geisterAt returns the start position with the red sets given, the ghosts
// moved as moves says (side, ghost, x, y in the first player's frame), at
// ply.
func geisterAt(t *testing.T, first, second geister.Reds, ply int, moves ...[4]int) geister.Position {
	t.Helper()
	s := geister.StartSetup(first, second)
	for _, m := range moves {
		s.Ghosts[m[0]][m[1]] = geister.SquareAt(m[2], m[3])
	}
	s.Ply = ply
	p, err := geister.NewPosition(s)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestGeisterBelief: an opponent ghost moved next to the viewer's ghosts
// becomes likelier red, one that stepped toward its exits out of reach
// likelier blue, and the determinizations follow the odds; a new game (the
// ply going back) forgets them.
func TestGeisterBelief(t *testing.T) {
	t.Parallel()
	reds := geister.RedsOf(geister.E, geister.F, geister.G, geister.H)
	second := geister.RedsAt(0)
	const a, b = int(geister.A), int(geister.B)
	var bel geisterBelief
	bel.reset()
	bel.observe(geisterAt(t, reds, second, 10, [4]int{1, a, 2, 2}).View(geister.First))
	// Second's A steps next to First's B (2,4); then Second's B steps from
	// (3,1) toward row 5, out of reach.
	bel.observe(geisterAt(t, reds, second, 12, [4]int{1, a, 2, 3}).View(geister.First))
	bel.observe(geisterAt(t, reds, second, 14, [4]int{1, a, 2, 3}, [4]int{1, b, 3, 2}).View(geister.First))
	if got, want := bel.blueOdds[a], 1/geisterExposedOdds; got != want {
		t.Errorf("blue odds of the exposed ghost: %v, want %v", got, want)
	}
	if got, want := bel.blueOdds[b], geisterTowardExitOdds; got != want {
		t.Errorf("blue odds of the ghost nearer its exit: %v, want %v", got, want)
	}
	v := geisterAt(t, reds, second, 14, [4]int{1, a, 2, 3}, [4]int{1, b, 3, 2}).View(geister.First)
	r := rand.New(rand.NewPCG(1, 2))
	const n = 6000
	redA, redB := 0, 0
	for range n {
		p := bel.sample(v, r)
		if p.GhostColor(geister.Second, geister.A) == geister.Red {
			redA++
		}
		if p.GhostColor(geister.Second, geister.B) == geister.Red {
			redB++
		}
	}
	if f := float64(redA) / n; f < 0.6 {
		t.Errorf("the exposed ghost drawn red %.2f of the time, want about 2/3", f)
	}
	if f := float64(redB) / n; f > 0.45 {
		t.Errorf("the ghost nearer its exit drawn red %.2f of the time, want about 0.4", f)
	}
	bel.observe(geisterAt(t, reds, second, 0).View(geister.First))
	for g, o := range bel.blueOdds {
		if o != 1 {
			t.Errorf("new game: blue odds of ghost %d are %v, want 1", g, o)
		}
	}
}

// TestGeisterBeliefKnownColours: the determinizations keep the colours the
// view knows (ghosts off the board).
func TestGeisterBeliefKnownColours(t *testing.T) {
	t.Parallel()
	second := geister.RedsOf(geister.A, geister.B, geister.C, geister.D)
	var bel geisterBelief
	bel.reset()
	// Second's A (red) and E (blue) captured.
	s := geister.StartSetup(geister.RedsAt(5), second)
	s.Ghosts[1][geister.A], s.Ghosts[1][geister.E] = geister.Captured, geister.Captured
	s.Ply = 20
	p, err := geister.NewPosition(s)
	if err != nil {
		t.Fatal(err)
	}
	v := p.View(geister.First)
	bel.observe(v)
	r := rand.New(rand.NewPCG(3, 4))
	for range 500 {
		q := bel.sample(v, r)
		if q.GhostColor(geister.Second, geister.A) != geister.Red || q.GhostColor(geister.Second, geister.E) != geister.Blue {
			t.Fatalf("a determinization changed the known colours: %s", q)
		}
	}
}

// TestGeisterPlayout: the policy escapes when it can, and takes an opponent
// ghost standing on its back corner, the opponent's exit.
func TestGeisterPlayout(t *testing.T) {
	t.Parallel()
	blues := geister.RedsOf(geister.E, geister.F, geister.G, geister.H) // A-D blue
	r := rand.New(rand.NewPCG(5, 6))
	var buf [32]geister.Move
	esc := geisterAt(t, blues, geister.RedsAt(0), 10, [4]int{0, int(geister.A), 0, 0})
	guard := geisterAt(t, blues, geister.RedsAt(0), 10, [4]int{0, int(geister.A), 0, 4}, [4]int{1, int(geister.A), 0, 5})
	for range 200 {
		if m := geisterPlayout(esc, esc.AppendLegalMoves(buf[:0]), r); !esc.IsEscape(m) {
			t.Fatalf("the policy played %s, not the escape", m)
		}
		if m := geisterPlayout(guard, guard.AppendLegalMoves(buf[:0]), r); guard.Target(m) != geister.SquareAt(0, 5) {
			t.Fatalf("the policy played %s, not the capture on the corner", m)
		}
	}
}

// TestGeisterPlayoutScore: a blue ghost's step toward its exits scores
// less when it ends next to an opponent ghost, where it can be taken.
func TestGeisterPlayoutScore(t *testing.T) {
	t.Parallel()
	blues := geister.RedsOf(geister.E, geister.F, geister.G, geister.H) // A-D blue
	north := geister.NewMove(geister.A, geister.North)
	const a, h = int(geister.A), int(geister.H)
	safe := geisterAt(t, blues, geister.RedsAt(0), 10, [4]int{0, a, 0, 4})
	exposed := geisterAt(t, blues, geister.RedsAt(0), 10, [4]int{0, a, 0, 4}, [4]int{1, h, 0, 2})
	if got, want := geisterPlayoutScore(safe, north), geisterAdvanceScore; got != want {
		t.Errorf("a safe step toward the exits scores %d, want %d", got, want)
	}
	if got, want := geisterPlayoutScore(exposed, north), geisterAdvanceScore-geisterExposeScore; got != want {
		t.Errorf("an exposed step toward the exits scores %d, want %d", got, want)
	}
}

// TestGeisterBeliefGameHurry: with a hurry, a win is worth less the later
// it comes and a loss more; a draw is worth nothing, and without a hurry a
// win is worth 1 whenever it comes.
func TestGeisterBeliefGameHurry(t *testing.T) {
	t.Parallel()
	blues := geister.RedsOf(geister.E, geister.F, geister.G, geister.H) // A-D blue
	const a = int(geister.A)
	// First's blue A on its exit (0,0) escapes: First wins at ply 11 or 201.
	win := func(ply int) geister.Position {
		p := geisterAt(t, blues, geister.RedsAt(0), ply, [4]int{0, a, 0, 0})
		q, err := p.Play(geister.NewMove(geister.A, geister.West))
		if err != nil || !q.IsOver() {
			t.Fatalf("the escape at ply %d: %v, over %v", ply, err, q.IsOver())
		}
		return q
	}
	g := geisterBeliefGame{Geister: Geister{PlyLimit: 300}, hurry: 0.5}
	early, late := win(10), win(200)
	if e, l := g.Result(early, 0), g.Result(late, 0); !(e > l && l > 0 && e < 1) {
		t.Errorf("wins at ply 11 and 201 pay %v and %v: want 1 > early > late > 0", e, l)
	}
	if e, l := g.Result(early, 1), g.Result(late, 1); !(e < l && l < 0 && e > -1) {
		t.Errorf("losses at ply 11 and 201 pay %v and %v: want -1 < early < late < 0", e, l)
	}
	if got := g.Result(geisterAt(t, blues, geister.RedsAt(0), 300), 0); got != 0 {
		t.Errorf("a draw at the ply limit pays %v, want 0", got)
	}
	if got := (geisterBeliefGame{Geister: Geister{PlyLimit: 300}}).Result(late, 0); got != 1 {
		t.Errorf("without a hurry a win at ply 201 pays %v, want 1", got)
	}
}

// TestGeisterBeliefStayedOnExit: an opponent ghost that stood on its exit
// and did not leave by it is red in every determinization.
func TestGeisterBeliefStayedOnExit(t *testing.T) {
	t.Parallel()
	reds := geister.RedsOf(geister.E, geister.F, geister.G, geister.H)
	second := geister.RedsAt(69) // E-H red, A-D blue
	const a, b = int(geister.A), int(geister.B)
	// Second's A stands on its exit (0,5); Second then moves B instead.
	var bel geisterBelief
	bel.reset()
	bel.observe(geisterAt(t, reds, second, 20, [4]int{1, a, 0, 5}, [4]int{0, a, 3, 3}).View(geister.First))
	v := geisterAt(t, reds, second, 22, [4]int{1, a, 0, 5}, [4]int{1, b, 2, 2}, [4]int{0, a, 3, 3}).View(geister.First)
	bel.observe(v)
	r := rand.New(rand.NewPCG(11, 12))
	for range 500 {
		if q := bel.sample(v, r); q.GhostColor(geister.Second, geister.A) != geister.Red {
			t.Fatalf("a ghost that stayed on its exit was drawn blue: %s", q)
		}
	}
	// A ghost not on its exit keeps both colours.
	blue := false
	for range 500 {
		blue = blue || bel.sample(v, r).GhostColor(geister.Second, geister.B) == geister.Blue
	}
	if !blue {
		t.Error("Second's B was never drawn blue")
	}
}

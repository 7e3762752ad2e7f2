package geister_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/botarena/botarena/geister"
	"github.com/botarena/botarena/geister/geistertest"
	"pgregory.net/rapid"
)

// recolor returns p with the opponent-of-c's colours replaced by reds, if
// that is a valid position.
func recolor(p geister.Position, c geister.Color, reds geister.Reds) (geister.Position, bool) {
	s := p.Setup()
	s.Reds[c.Opponent()] = reds
	q, err := geister.NewPosition(s)
	return q, err == nil
}

// TestViewHidesColours: a view is a function of what its viewer may know.
// Recolouring the opponent's ghosts on the board (keeping the colours of the
// ghosts off it) never changes the view, its string, or its legal moves; and
// the view reports Unknown for exactly those ghosts.
func TestViewHidesColours(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := geistertest.AnyPosition().Draw(t, "p")
		c := geister.Color(rapid.IntRange(0, 1).Draw(t, "viewer"))
		o := c.Opponent()
		v := p.View(c)
		// Another red set for o that keeps the colours of its ghosts off
		// the board: the known reds plus a random choice among the ghosts
		// on the board.
		var known, onBoard []geister.Ghost
		for g := geister.A; g <= geister.H; g++ {
			switch {
			case p.Square(o, g).Valid():
				onBoard = append(onBoard, g)
			case p.Reds(o).Has(g):
				known = append(known, g)
			}
		}
		onBoard = rapid.Permutation(onBoard).Draw(t, "shuffle")
		other := geister.RedsOf(append(known, onBoard[:4-len(known)]...)...)
		q, ok := recolor(p, c, other)
		if !ok {
			t.Fatalf("recolouring %s with %s is not a position", p, other)
		}
		if w := q.View(c); w != v || w.String() != v.String() {
			t.Fatalf("recolouring %s's hidden ghosts changes the view:\n%s\n%s", o, v, w)
		}
		s := v.String()
		for g := geister.A; g <= geister.H; g++ {
			onBoard := p.Square(o, g).Valid()
			col := s[3*(8+int(g))+2]
			if onBoard != (v.GhostColor(o, g) == geister.Unknown) || onBoard != (col == 'u') {
				t.Fatalf("%s: opponent %s on board %v, colour %s, letter %c", s, g, onBoard, v.GhostColor(o, g), col)
			}
			if v.GhostColor(c, g) != p.GhostColor(c, g) {
				t.Fatalf("%s: own %s colour %s, want %s", s, g, v.GhostColor(c, g), p.GhostColor(c, g))
			}
		}
	})
}

// TestViewAgreesWithPosition: everything public in a view matches the
// position, squares turned into the viewer's frame, and the viewer's legal
// moves are the position's (moves need no conversion).
func TestViewAgreesWithPosition(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := geistertest.AnyPosition().Draw(t, "p")
		c := geister.Color(rapid.IntRange(0, 1).Draw(t, "viewer"))
		v := p.View(c)
		turn := func(s geister.Square) geister.Square {
			if c == geister.Second {
				return s.Rotate()
			}
			return s
		}
		if v.Viewer() != c || v.Turn() != p.Turn() || v.Ply() != p.Ply() || v.Result() != p.Result() || v.IsOver() != p.IsOver() || v.Reds() != p.Reds(c) {
			t.Fatalf("%s viewed by %s: %s", p, c, v)
		}
		if v.Occupied() != p.Occupied() && c == geister.First || c == geister.Second && v.Occupied() != p.Occupied().Rotate() {
			t.Fatalf("%s: occupied squares differ", p)
		}
		for s := range geister.Color(2) {
			if v.Ghosts(s) != p.Ghosts(s).Rotate() && c == geister.Second || c == geister.First && v.Ghosts(s) != p.Ghosts(s) {
				t.Fatalf("%s: ghosts of %s differ", p, s)
			}
			r1, b1 := v.Captured(s)
			r2, b2 := p.Captured(s)
			if r1 != r2 || b1 != b2 {
				t.Fatalf("%s: captured of %s: %d %d, want %d %d", p, s, r1, b1, r2, b2)
			}
			for g := geister.A; g <= geister.H; g++ {
				if v.Square(s, g) != turn(p.Square(s, g)) {
					t.Fatalf("%s: %s %s on %s, want %s", p, s, g, v.Square(s, g), turn(p.Square(s, g)))
				}
			}
		}
		for sq := range geister.Square(geister.NumSquares) {
			c1, g1, ok1 := v.At(turn(sq))
			c2, g2, ok2 := p.At(sq)
			if c1 != c2 || g1 != g2 || ok1 != ok2 {
				t.Fatalf("%s: At(%s) differs", p, sq)
			}
		}
		c1, g1, ok1 := v.Escaped()
		c2, g2, ok2 := p.Escaped()
		if c1 != c2 || g1 != g2 || ok1 != ok2 {
			t.Fatalf("%s: Escaped differs", p)
		}
		vm := v.AppendLegalMoves(nil)
		if p.Turn() == c {
			if pm := p.AppendLegalMoves(nil); moveString(vm) != moveString(pm) {
				t.Fatalf("%s: view moves %v, position moves %v", p, vm, pm)
			}
		} else if len(vm) != 0 {
			t.Fatalf("%s: the viewer %s has moves %v out of turn", p, c, vm)
		}
		for m := geister.Move(0); m <= 33; m++ {
			if v.IsLegal(m) != (p.Turn() == c && p.IsLegal(m)) {
				t.Fatalf("%s: IsLegal(%s) view %v, position %v", p, m, v.IsLegal(m), p.IsLegal(m))
			}
		}
		// The board string reads back into the same view.
		w, err := geister.ParseView(v.String(), c, v.Ply())
		if err != nil || w != v {
			t.Fatalf("ParseView(%s) = %s, %v", v, w, err)
		}
		// The true colours complete the view into p.
		if q, err := v.Position(p.Reds(c.Opponent())); err != nil || q != p {
			t.Fatalf("%s: Position(true reds) = %s, %v", p, q, err)
		}
	})
}

func moveString(ms []geister.Move) string {
	var sb strings.Builder
	for _, m := range ms {
		sb.WriteString(m.String() + " ")
	}
	return sb.String()
}

// TestDeterminizeConsistent: a sampled position shows exactly the view, with
// valid red sets.
func TestDeterminizeConsistent(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		v := geistertest.View().Draw(t, "v")
		rng := rand.New(rand.NewPCG(rapid.Uint64().Draw(t, "seed"), 1))
		p := geister.Determinize(v, rng)
		if p.View(v.Viewer()) != v {
			t.Fatalf("Determinize(%s) = %s, whose view is %s", v, p, p.View(v.Viewer()))
		}
		if q, err := geister.NewPosition(p.Setup()); err != nil || q != p {
			t.Fatalf("Determinize(%s) = %s, not a valid position: %v", v, p, err)
		}
		if q, err := v.Position(p.Reds(v.Viewer().Opponent())); err != nil || q != p {
			t.Fatalf("View.Position disagrees with Determinize: %s, %v", q, err)
		}
	})
}

// TestDeterminizeUniform samples the start view many times: all 70 red sets
// appear about equally often; then a view with one known red and two known
// blues: the 10 = C(5,3) completions appear about equally often.
func TestDeterminizeUniform(t *testing.T) {
	start, _ := geister.Start(geister.RedsAt(0), geister.RedsAt(0))
	v := start.View(geister.First)
	rng := rand.New(rand.NewPCG(1, 2))
	counts := map[geister.Reds]int{}
	const n = 70 * 400
	for range n {
		counts[geister.Determinize(v, rng).Reds(geister.Second)]++
	}
	checkUniform(t, counts, 70, n)

	// The second player has lost red a and blues e, f.
	s := start.Setup()
	s.Ghosts[geister.Second][geister.A] = geister.Captured
	s.Ghosts[geister.Second][geister.E] = geister.Captured
	s.Ghosts[geister.Second][geister.F] = geister.Captured
	p, err := geister.NewPosition(s)
	if err != nil {
		t.Fatal(err)
	}
	v = p.View(geister.First)
	clear(counts)
	for range 10 * 1000 {
		r := geister.Determinize(v, rng).Reds(geister.Second)
		if !r.Has(geister.A) || r.Has(geister.E) || r.Has(geister.F) {
			t.Fatalf("sampled reds %s contradict the known colours", r)
		}
		counts[r]++
	}
	checkUniform(t, counts, 10, 10*1000)
	// A nil source uses the global one.
	if q := geister.Determinize(v, nil); q.View(geister.First) != v {
		t.Errorf("Determinize(nil rng) = %s", q)
	}
}

// checkUniform fails if counts (of k outcomes, n draws) is far from uniform:
// a chi-square statistic beyond a bound that a fair sampler exceeds with
// probability below 1e-6.
func checkUniform[K comparable](t *testing.T, counts map[K]int, k, n int) {
	t.Helper()
	if len(counts) != k {
		t.Fatalf("%d outcomes seen, want %d", len(counts), k)
	}
	exp := float64(n) / float64(k)
	var chi2 float64
	for _, c := range counts {
		d := float64(c) - exp
		chi2 += d * d / exp
	}
	// mean k-1, sd sqrt(2(k-1)); 8 sd above the mean is far in the tail.
	if bound := float64(k-1) + 8*math.Sqrt(2*float64(k-1)); chi2 > bound {
		t.Errorf("chi-square %.1f over %d outcomes exceeds %.1f", chi2, k, bound)
	}
}

func TestViewPositionErrors(t *testing.T) {
	start, _ := geister.Start(geister.RedsAt(0), geister.RedsAt(0))
	s := start.Setup()
	s.Ghosts[geister.Second][geister.A] = geister.Captured // red
	s.Ghosts[geister.Second][geister.E] = geister.Captured // blue
	p, _ := geister.NewPosition(s)
	v := p.View(geister.First)
	for _, tt := range []struct {
		reds geister.Reds
		msg  string
	}{
		{geister.RedsOf(geister.A, geister.B), "has 2 ghosts"},
		{geister.RedsOf(geister.B, geister.C, geister.D, geister.F), "lacks A"},
		{geister.RedsOf(geister.A, geister.B, geister.C, geister.E), "holds E"},
	} {
		_, err := v.Position(tt.reds)
		if !errors.Is(err, geister.ErrInvalidSetup) || !strings.Contains(err.Error(), tt.msg) {
			t.Errorf("Position(%s) error %v, want %q", tt.reds, err, tt.msg)
		}
	}
}

func TestParseView(t *testing.T) {
	// The transcripts' boards.
	for _, tt := range []struct {
		board  string
		viewer geister.Color
		ply    int
	}{
		{"14B24R34R44R15R25B35B45B41u31u21u11u40u30u20u10u", geister.First, 0},
		{"14B24R34R44R15R25B35B45B41u31u21u11u40u30u20u00u", geister.Second, 1},
		{"14B24R34R99r15R25B35B45B44u31u21u11u40u30u20u10u", geister.Second, 9},
		{"00B24B34B44B15R25R35R45R42u31u21u11u40u30u20u10u", geister.First, 10},
	} {
		v, err := geister.ParseView(tt.board, tt.viewer, tt.ply)
		if err != nil || v.String() != tt.board || v.Viewer() != tt.viewer || v.Ply() != tt.ply {
			t.Errorf("ParseView(%s) = %s, %v", tt.board, v, err)
		}
	}
	// Lenient: colours in either case; the opponent's on-board colours of
	// a global board are dropped.
	v, err := geister.ParseView("88b24B34B44B15R25R35R45R42b31r21r11r40r30b20b10b", geister.First, 11)
	if err != nil || v.String() != "88b24B34B44B15R25R35R45R42u31u21u11u40u30u20u10u" {
		t.Errorf("ParseView(global board) = %s, %v", v, err)
	}
	if r := v.Result(); r != (geister.Result{Reason: geister.ChessEscape, Winner: geister.First}) {
		t.Errorf("result %v", r)
	}
	v, err = geister.ParseView("14b24r34r44r15r25b35b45b41U31U21U11U40U30U20U10U", geister.First, 0)
	if err != nil || v.String() != "14B24R34R44R15R25B35B45B41u31u21u11u40u30u20u10u" {
		t.Errorf("ParseView(lower case) = %s, %v", v, err)
	}
	for _, tt := range []struct {
		board string
		msgs  []string
	}{
		{"14u24R34R44R15R25B35B45B41u31u21u11u40u30u20u10u", []string{"viewer's own A is unknown"}},
		{"14B24R34R44R15R25B35B45B99u31u21u11u40u30u20u10u", []string{"colour of a, off the board, is unknown"}},
		{"14B24R34R44R15R25B35B45B99r99r99r99r99r30u20u10u", []string{"5 of the opponent's ghosts are red"}},
		{"14B14R34R44R15R25B35B45B41u31u21u11u40u30u20u10u", []string{"A and B both on 14"}},
		{"88B24R34R44R15R25B35B88b41u31u21u11u40u30u20u10u", []string{"more than one escaped"}},
		{"14R24B34R44R88R25B35B45B41u31u21u11u40u30u20u10u", []string{"E escaped but is red"}},
	} {
		_, err := geister.ParseView(tt.board, geister.First, 0)
		if !errors.Is(err, geister.ErrInvalidSetup) {
			t.Errorf("ParseView(%s) error %v", tt.board, err)
			continue
		}
		for _, msg := range tt.msgs {
			if !strings.Contains(err.Error(), msg) {
				t.Errorf("ParseView(%s) error %q lacks %q", tt.board, err, msg)
			}
		}
	}
	if _, err := geister.ParseView("14B24R34R44R15R25B35B45B41u31u21u11u40u30u20u10u", 2, 0); err == nil {
		t.Error("viewer 2 accepted")
	}
	var se *geister.SyntaxError
	if _, err := geister.ParseView("14B", geister.First, 0); !errors.As(err, &se) || se.Offset != 3 {
		t.Errorf("short board: %v", err)
	}
}

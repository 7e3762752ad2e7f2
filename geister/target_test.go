package geister_test

import (
	"testing"

	"github.com/botarena/botarena/geister"
	"github.com/botarena/botarena/geister/geistertest"
	"pgregory.net/rapid"
)

// naiveTarget computes, from the board alone, where the mover's move m takes
// its ghost in the mover's own frame: a square, Escaped, or NoSquare when the
// step leaves the board other than by an escape. at and colour read the board
// in that frame; it does not check whether the target holds an own ghost.
func naiveTarget(from geister.Square, blue bool, d geister.Direction) geister.Square {
	x, y := from.X(), from.Y()
	switch d {
	case geister.North:
		y--
	case geister.East:
		x++
	case geister.West:
		x--
	case geister.South:
		y++
	}
	if s := geister.SquareAt(x, y); s != geister.NoSquare {
		return s
	}
	// Off the board: an escape if a blue ghost leaves (0,0) going West or
	// North, or (5,0) going East or North.
	exitWest := from == geister.SquareAt(0, 0) && (d == geister.West || d == geister.North)
	exitEast := from == geister.SquareAt(5, 0) && (d == geister.East || d == geister.North)
	if blue && (exitWest || exitEast) {
		return geister.Escaped
	}
	return geister.NoSquare
}

// allMoves is every Move value a caller can hold: the 32 moves, NoMove and a
// few values that are not moves.
func allMoves() []geister.Move {
	out := []geister.Move{geister.NoMove, 33, 200, 255}
	for g := range geister.Ghost(8) {
		for d := range geister.Direction(4) {
			out = append(out, geister.NewMove(g, d))
		}
	}
	return out
}

// TestViewTargetAgainstBoard: Target, IsEscape and Captures of a View agree
// with a naive reading of the viewer's board, for every move value.
func TestViewTargetAgainstBoard(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		v := geistertest.View().Draw(t, "view")
		me := v.Viewer()
		for _, m := range allMoves() {
			target, escape := v.Target(m), v.IsEscape(m)
			g, col, capt := v.Captures(m)
			if !v.IsLegal(m) {
				if target != geister.NoSquare || escape || capt {
					t.Fatalf("%s: illegal %s: Target %v IsEscape %v Captures %v", v, m, target, escape, capt)
				}
				continue
			}
			from := v.Square(me, m.Ghost())
			want := naiveTarget(from, v.GhostColor(me, m.Ghost()) == geister.Blue, m.Direction())
			if target != want || escape != (want == geister.Escaped) {
				t.Fatalf("%s: %s from %v: Target %v IsEscape %v, want %v", v, m, from, target, escape, want)
			}
			who, ghost, occupied := v.At(want)
			wantCapt := occupied && who != me
			if capt != wantCapt || capt && (g != ghost || col != geister.Unknown) {
				t.Fatalf("%s: %s: Captures %v %v %v, board %v %v %v", v, m, g, col, capt, who, ghost, occupied)
			}
		}
	})
}

// TestPositionTargetMatchesView: Position's Target, IsEscape and Captures are
// the mover's View's, turned into the first player's frame, with the captured
// ghost's true colour.
func TestPositionTargetMatchesView(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := geistertest.AnyPosition().Draw(t, "position")
		c := p.Turn()
		v := p.View(c)
		for _, m := range allMoves() {
			want := v.Target(m)
			if c == geister.Second {
				want = want.Rotate()
			}
			if got := p.Target(m); got != want {
				t.Fatalf("%s: %s: Target %v, view says %v", p, m, got, want)
			}
			if p.IsEscape(m) != v.IsEscape(m) {
				t.Fatalf("%s: %s: IsEscape %v, view says %v", p, m, p.IsEscape(m), v.IsEscape(m))
			}
			g, col, capt := p.Captures(m)
			vg, _, vcapt := v.Captures(m)
			if capt != vcapt || capt && (g != vg || col != p.GhostColor(c.Opponent(), g)) {
				t.Fatalf("%s: %s: Captures %v %v %v, view %v %v", p, m, g, col, capt, vg, vcapt)
			}
			if p.IsLegal(m) != v.IsLegal(m) {
				t.Fatalf("%s: %s: IsLegal %v, view %v", p, m, p.IsLegal(m), v.IsLegal(m))
			}
		}
	})
}

// TestTargetOfPlayedMove: after a legal move, the ghost stands on Target (in
// the first player's frame), or has escaped; a capture takes the ghost
// Captures names off the board.
func TestTargetOfPlayedMove(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := geistertest.AnyPosition().Draw(t, "position")
		moves := p.AppendLegalMoves(nil)
		if len(moves) == 0 {
			return
		}
		m := rapid.SampledFrom(moves).Draw(t, "move")
		c := p.Turn()
		g, _, capt := p.Captures(m)
		next := p.PlayUnchecked(m)
		if got := next.Square(c, m.Ghost()); got != p.Target(m) {
			t.Fatalf("%s: %s: the ghost is on %v, Target %v", p, m, got, p.Target(m))
		}
		if capt != (next.Square(c.Opponent(), g) == geister.Captured && p.Square(c.Opponent(), g) != geister.Captured) {
			t.Fatalf("%s: %s: Captures %v %v, after: %v", p, m, g, capt, next.Square(c.Opponent(), g))
		}
	})
}

package othello_test

import (
	"testing"

	"github.com/botarena/botarena/othello"
	"github.com/botarena/botarena/othello/othellotest"
	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
)

// refBoard is the obviously-correct reference: a 2-D array and a loop per
// direction. cells[y][x] is 0 empty, 1 black, 2 white; -1 off the board.
type refBoard struct {
	cells [8][8]int8
	turn  int8 // 1 black, 2 white
}

func toRef(p othello.Position) refBoard {
	var b refBoard
	b.turn = 1
	if p.Turn() == othello.White {
		b.turn = 2
	}
	for y := range 8 {
		for x := range 8 {
			sq := othello.SquareAt(x, y)
			switch c, ok := p.At(sq); {
			case !p.Board().Has(sq):
				b.cells[y][x] = -1
			case ok && c == othello.Black:
				b.cells[y][x] = 1
			case ok:
				b.cells[y][x] = 2
			}
		}
	}
	return b
}

// flips lists the squares that turn when who plays at (x, y).
func (b *refBoard) flips(x, y int, who int8) [][2]int {
	if b.cells[y][x] != 0 {
		return nil
	}
	var out [][2]int
	for dy := -1; dy <= 1; dy++ {
		for dx := -1; dx <= 1; dx++ {
			if dx == 0 && dy == 0 {
				continue
			}
			var run [][2]int
			cx, cy := x+dx, y+dy
			for cx >= 0 && cx < 8 && cy >= 0 && cy < 8 && b.cells[cy][cx] == 3-who {
				run = append(run, [2]int{cx, cy})
				cx, cy = cx+dx, cy+dy
			}
			if len(run) > 0 && cx >= 0 && cx < 8 && cy >= 0 && cy < 8 && b.cells[cy][cx] == who {
				out = append(out, run...)
			}
		}
	}
	return out
}

func (b *refBoard) legal(who int8) []othello.Square {
	var out []othello.Square
	for y := range 8 {
		for x := range 8 {
			if len(b.flips(x, y, who)) > 0 {
				out = append(out, othello.SquareAt(x, y))
			}
		}
	}
	return out
}

// moves lists the legal moves the othello way: placements, else a forced
// pass, else nothing.
func (b *refBoard) moves() []othello.Move {
	var out []othello.Move
	for _, s := range b.legal(b.turn) {
		out = append(out, othello.Place(s))
	}
	if len(out) == 0 && len(b.legal(3-b.turn)) > 0 {
		out = append(out, othello.Pass)
	}
	return out
}

func (b refBoard) play(m othello.Move) refBoard {
	if m != othello.Pass {
		x, y := m.Square().X(), m.Square().Y()
		for _, f := range b.flips(x, y, b.turn) {
			b.cells[f[1]][f[0]] = b.turn
		}
		b.cells[y][x] = b.turn
	}
	b.turn = 3 - b.turn
	return b
}

func (b refBoard) perft(depth int) uint64 {
	if depth == 0 {
		return 1
	}
	var n uint64
	for _, m := range b.moves() {
		n += b.play(m).perft(depth - 1)
	}
	return n
}

func anyPosition() *rapid.Generator[othello.Position] {
	return rapid.OneOf(othellotest.Position(), othellotest.ArbitraryPosition())
}

// TestAgainstReference compares legal moves, flips, passes, game over and the
// position after every legal move with the naive reference.
func TestAgainstReference(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := anyPosition().Draw(t, "p")
		ref := toRef(p)
		got := p.AppendLegalMoves(nil)
		if diff := cmp.Diff(ref.moves(), got); diff != "" {
			t.Fatalf("legal moves of %s (-ref +got):\n%s", p, diff)
		}
		if p.IsOver() != (len(got) == 0) || p.MustPass() != (len(got) == 1 && got[0] == othello.Pass) {
			t.Fatalf("%s: IsOver %v MustPass %v with moves %v", p, p.IsOver(), p.MustPass(), got)
		}
		for _, m := range got {
			next, err := p.Play(m)
			if err != nil {
				t.Fatalf("%s: legal %s refused: %v", p, m, err)
			}
			if want := ref.play(m); toRef(next) != want {
				t.Fatalf("%s after %s: got %s", p, m, next)
			}
			if next != p.PlayUnchecked(m) {
				t.Fatalf("%s: Play and PlayUnchecked differ on %s", p, m)
			}
		}
		for sq := range othello.Square(64) {
			want := ref.flips(sq.X(), sq.Y(), ref.turn)
			if ref.cells[sq.Y()][sq.X()] != 0 {
				want = nil
			}
			if got := p.Flips(sq); got.Count() != len(want) {
				t.Fatalf("%s: Flips(%s) = %d discs, want %d", p, sq, got.Count(), len(want))
			}
		}
	})
}

// TestIllegalMovesRefused: every move the reference calls illegal is refused,
// and the position is unchanged.
func TestIllegalMovesRefused(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := anyPosition().Draw(t, "p")
		legal := map[othello.Move]bool{}
		ref := toRef(p)
		for _, m := range ref.moves() {
			legal[m] = true
		}
		m := othello.Move(rapid.IntRange(0, 70).Draw(t, "move"))
		next, err := p.Play(m)
		if legal[m] != (err == nil) || p.IsLegal(m) != legal[m] {
			t.Fatalf("%s: move %s legal=%v, Play err=%v", p, m, legal[m], err)
		}
		if err != nil && next != p {
			t.Fatalf("%s: refused %s changed the position", p, m)
		}
	})
}

func TestPerftAgainstReference(t *testing.T) {
	for _, rules := range []othello.Rules{othello.Standard, othello.TUS, othello.Board6x6} {
		ref := toRef(rules.Start)
		for d := 1; d <= 6; d++ {
			if got, want := othello.Perft(rules.Start, d), ref.perft(d); got != want {
				t.Errorf("%s perft(%d) = %d, reference %d", rules.Name, d, got, want)
			}
		}
	}
	rapid.Check(t, func(t *rapid.T) {
		p := anyPosition().Draw(t, "p")
		d := rapid.IntRange(1, 3).Draw(t, "depth")
		// The reference counts in the strict convention.
		if got, want := othello.Perft(p, d), toRef(p).perft(d); got != want {
			t.Fatalf("%s perft(%d) = %d, reference %d", p, d, got, want)
		}
	})
}

package geister_test

import (
	"fmt"
	"testing"

	"github.com/botarena/botarena/geister"
	"github.com/botarena/botarena/geister/geistertest"
	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
)

// The obviously-correct reference: every ghost as (x, y) in its owner's own
// frame, a lookup that turns the other side's coordinates around, and a loop
// over the four directions. It shares nothing with the engine but the public
// accessors used to load it.

const (
	refOn       = 0
	refCaptured = 99
	refEscaped  = 88
)

type refGhost struct {
	x, y int
	off  int // refOn, refCaptured or refEscaped
	red  bool
}

type refGame struct {
	g   [2][8]refGhost // [side][ghost], each side in its own frame
	ply int
}

// The directions in generation order: North, East, West, South.
var refDirs = [4]struct {
	name   string
	dx, dy int
}{{"NORTH", 0, -1}, {"EAST", 1, 0}, {"WEST", -1, 0}, {"SOUTH", 0, 1}}

func toRef(p geister.Position) refGame {
	var r refGame
	r.ply = p.Ply()
	for c := range 2 {
		for g := range 8 {
			sq := p.Square(geister.Color(c), geister.Ghost(g))
			gh := refGhost{red: p.GhostColor(geister.Color(c), geister.Ghost(g)) == geister.Red}
			switch sq {
			case geister.Captured:
				gh.off = refCaptured
			case geister.Escaped:
				gh.off = refEscaped
			default:
				gh.x, gh.y = int(sq)%6, int(sq)/6
				if c == 1 { // into the second player's own frame
					gh.x, gh.y = 5-gh.x, 5-gh.y
				}
			}
			r.g[c][g] = gh
		}
	}
	return r
}

// at returns the side and ghost on (x, y) of side c's frame, or -1.
func (r *refGame) at(c, x, y int) (int, int) {
	for s := range 2 {
		for g := range 8 {
			gh := r.g[s][g]
			if gh.off != refOn {
				continue
			}
			gx, gy := gh.x, gh.y
			if s != c {
				gx, gy = 5-gx, 5-gy
			}
			if gx == x && gy == y {
				return s, g
			}
		}
	}
	return -1, -1
}

// result follows the Java server's order: for the first player then the second: escaped,
// four blues lost, four reds lost.
func (r *refGame) result() geister.Result {
	for c := range 2 {
		var lostRed, lostBlue int
		for _, gh := range r.g[c] {
			switch {
			case gh.off == refEscaped:
				return geister.Result{Reason: geister.ChessEscape, Winner: geister.Color(c)}
			case gh.off == refCaptured && gh.red:
				lostRed++
			case gh.off == refCaptured:
				lostBlue++
			}
		}
		if lostBlue == 4 {
			return geister.Result{Reason: geister.NoBlueGhost, Winner: geister.Color(1 - c)}
		}
		if lostRed == 4 {
			return geister.Result{Reason: geister.NoRedGhost, Winner: geister.Color(c)}
		}
	}
	return geister.Result{}
}

// moves lists the legal moves as strings, ghosts A..H then N, E, W, S.
func (r *refGame) moves() []string {
	if r.result().Reason != geister.Unfinished {
		return nil
	}
	c := r.ply % 2
	var out []string
	for g, gh := range r.g[c] {
		if gh.off != refOn {
			continue
		}
		for _, d := range refDirs {
			nx, ny := gh.x+d.dx, gh.y+d.dy
			name := fmt.Sprintf("%c,%s", 'A'+g, d.name)
			if nx < 0 || nx > 5 || ny < 0 || ny > 5 {
				exit := (gh.x == 0 && gh.y == 0 && d.name == "WEST") || (gh.x == 5 && gh.y == 0 && d.name == "EAST")
				if exit && !gh.red {
					out = append(out, name)
				}
				continue
			}
			if s, _ := r.at(c, nx, ny); s == c {
				continue
			}
			out = append(out, name)
		}
	}
	return out
}

// play applies a move given as "G,DIRECTION" (a legal one).
func (r refGame) play(m string) refGame {
	c := r.ply % 2
	g := int(m[0] - 'A')
	var d int
	for i, dir := range refDirs {
		if dir.name == m[2:] {
			d = i
		}
	}
	gh := &r.g[c][g]
	nx, ny := gh.x+refDirs[d].dx, gh.y+refDirs[d].dy
	if nx < 0 || nx > 5 || ny < 0 || ny > 5 {
		gh.off, gh.x, gh.y = refEscaped, 0, 0
	} else {
		if s, h := r.at(c, nx, ny); s == 1-c {
			r.g[s][h].off = refCaptured
			r.g[s][h].x, r.g[s][h].y = 0, 0
		}
		gh.x, gh.y = nx, ny
	}
	r.ply++
	return r
}

// board writes the board string side c receives: global (every colour) or
// its MOV? view (opponent ghosts on the board as u).
func (r *refGame) board(c int, global bool) string {
	s := ""
	for i, side := range []int{c, 1 - c} {
		for _, gh := range r.g[side] {
			col := "b"
			if gh.red {
				col = "r"
			}
			switch {
			case gh.off != refOn:
				s += fmt.Sprintf("%d%d%s", gh.off/10, gh.off%10, col)
				continue
			case i == 0:
				col = map[string]string{"r": "R", "b": "B"}[col]
			case !global:
				col = "u"
			}
			x, y := gh.x, gh.y
			if side != c {
				x, y = 5-x, 5-y
			}
			s += fmt.Sprintf("%d%d%s", x, y, col)
		}
	}
	return s
}

func (r refGame) perft(depth int) uint64 {
	if depth == 0 || r.result().Reason != geister.Unfinished {
		return 1
	}
	var n uint64
	for _, m := range r.moves() {
		n += r.play(m).perft(depth - 1)
	}
	return n
}

func moveStrings(ms []geister.Move) []string {
	var out []string
	for _, m := range ms {
		out = append(out, m.String())
	}
	return out
}

// checkAgainstRef compares everything about p with the reference.
func checkAgainstRef(t *rapid.T, p geister.Position) {
	ref := toRef(p)
	got := moveStrings(p.AppendLegalMoves(nil))
	if diff := cmp.Diff(ref.moves(), got); diff != "" {
		t.Fatalf("legal moves of %s (-ref +got):\n%s", p, diff)
	}
	if n := p.NumLegalMoves(); n != len(got) {
		t.Fatalf("%s: NumLegalMoves %d, %d moves", p, n, len(got))
	}
	if got, want := p.Result(), ref.result(); got != want {
		t.Fatalf("%s: result %v, reference %v", p, got, want)
	}
	if p.IsOver() != (ref.result().Reason != geister.Unfinished) {
		t.Fatalf("%s: IsOver %v", p, p.IsOver())
	}
	for c := range 2 {
		if got, want := p.View(geister.Color(c)).String(), ref.board(c, false); got != want {
			t.Fatalf("%s: %s view %s, reference %s", p, geister.Color(c), got, want)
		}
		if got, want := p.Board(geister.Color(c)), ref.board(c, true); got != want {
			t.Fatalf("%s: %s board %s, reference %s", p, geister.Color(c), got, want)
		}
	}
	for _, m := range p.AppendLegalMoves(nil) {
		next, err := p.Play(m)
		if err != nil {
			t.Fatalf("%s: legal %s refused: %v", p, m, err)
		}
		if next != p.PlayUnchecked(m) {
			t.Fatalf("%s: Play and PlayUnchecked differ on %s", p, m)
		}
		if want := ref.play(m.String()); toRef(next) != want {
			t.Fatalf("%s after %s: got %s, reference %s", p, m, next, want.board(0, true))
		}
	}
}

// TestAgainstReference plays random games and compares, at every ply, the
// legal moves, the result, both views and both global boards, and the
// position after every legal move, with the reference.
func TestAgainstReference(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		g := geistertest.Game(geister.GAT).Draw(t, "game")
		start, _ := g.PositionAt(0)
		for i := 0; i <= len(g.Moves()); i++ {
			p, ok := g.PositionAt(start.Ply() + i)
			if !ok {
				t.Fatalf("PositionAt(%d) missing", i)
			}
			checkAgainstRef(t, p)
		}
	})
}

// TestArbitraryAgainstReference does the same on scattered positions.
func TestArbitraryAgainstReference(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		checkAgainstRef(t, geistertest.ArbitraryPosition().Draw(t, "p"))
	})
}

// TestIllegalMovesRefused: a move the reference calls illegal is refused and
// leaves the position unchanged; North from an exit is the escape.
func TestIllegalMovesRefused(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := geistertest.AnyPosition().Draw(t, "p")
		ref := toRef(p)
		legal := map[string]bool{}
		for _, m := range ref.moves() {
			legal[m] = true
		}
		m := geister.Move(rapid.IntRange(0, 40).Draw(t, "move"))
		want := legal[m.String()]
		escapeNorth := false
		if m.Valid() && m.Direction() == geister.North {
			// North from an exit square is the sideways escape.
			c := p.Turn()
			gh := ref.g[c][m.Ghost()]
			if gh.off == refOn && gh.y == 0 && (gh.x == 0 || gh.x == 5) {
				side := "WEST"
				if gh.x == 5 {
					side = "EAST"
				}
				escapeNorth = legal[m.Ghost().String()+","+side]
				want = escapeNorth
			}
		}
		next, err := p.Play(m)
		if want != (err == nil) || p.IsLegal(m) != want {
			t.Fatalf("%s: %s legal=%v, IsLegal %v, Play err=%v", p, m, want, p.IsLegal(m), err)
		}
		if err != nil && next != p {
			t.Fatalf("%s: refused %s changed the position", p, m)
		}
		if p.IsEscape(m) != (want && (escapeNorth || (m.Valid() && toRef(next).g[p.Turn()][m.Ghost()].off == refEscaped))) {
			t.Fatalf("%s: IsEscape(%s) = %v", p, m, p.IsEscape(m))
		}
		if escapeNorth && (p.Normalize(m) == m || next != p.PlayUnchecked(p.Normalize(m))) {
			t.Fatalf("%s: North escape %s normalised to %s", p, m, p.Normalize(m))
		}
	})
}

func TestPerftAgainstReference(t *testing.T) {
	for _, reds := range [][2]geister.Reds{{geister.RedsAt(0), geister.RedsAt(69)}, {geister.RedsAt(34), geister.RedsAt(34)}} {
		p, err := geister.Start(reds[0], reds[1])
		if err != nil {
			t.Fatal(err)
		}
		ref := toRef(p)
		for d := 1; d <= 4; d++ {
			if got, want := geister.Perft(p, d), ref.perft(d); got != want {
				t.Errorf("%s perft(%d) = %d, reference %d", p, d, got, want)
			}
		}
	}
	rapid.Check(t, func(t *rapid.T) {
		p := geistertest.AnyPosition().Draw(t, "p")
		d := rapid.IntRange(0, 3).Draw(t, "depth")
		if got, want := geister.Perft(p, d), toRef(p).perft(d); got != want {
			t.Fatalf("%s perft(%d) = %d, reference %d", p, d, got, want)
		}
	})
}

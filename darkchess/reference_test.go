package darkchess_test

import (
	"cmp"
	"errors"
	"slices"
	"testing"

	"github.com/botarena/botarena/darkchess"
	"github.com/botarena/botarena/darkchess/darkchesstest"
	gocmp "github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
)

// refTakes is the step-capture table, written out literally: row
// = attacker, column = victim, both in the order K G M R N C P; a letter where
// the attacker may take that victim, '.' where it may not.
var refTakes = [7]string{
	"KGMRNC.", // K: not P
	".GMRNCP", // G: not K
	"..MRNCP", // M
	"...RNCP", // R
	"....NCP", // N
	".......", // C: never by a step
	"K.....P", // P: only P and K
}

// refCell is one square of the reference board.
type refCell struct {
	piece darkchess.Piece // the piece, or NoPiece for an empty square
	down  bool            // face-down (piece is then its identity, or NoPiece if unknown)
}

// refBoard is the obviously-correct reference: a [32] mailbox indexed by
// file x and rank y (x + 4y), the pool, the side to move and the counter.
type refBoard struct {
	cells [32]refCell
	pool  map[darkchess.Piece]int
	turn  darkchess.Color
	quiet int
}

func toRef(p darkchess.Position) refBoard {
	b := refBoard{pool: map[darkchess.Piece]int{}, turn: p.Turn(), quiet: p.Quiet()}
	for s := range darkchess.Square(32) {
		switch pc := p.At(s); pc {
		case darkchess.Hidden:
			b.cells[s] = refCell{piece: p.DealAt(s), down: true}
		default:
			b.cells[s] = refCell{piece: pc}
		}
	}
	for pc := range darkchess.Piece(16) {
		if n := p.Pool(pc); n > 0 {
			b.pool[pc] = n
		}
	}
	return b
}

func (b *refBoard) at(x, y int) (refCell, bool) {
	if x < 0 || x > 3 || y < 0 || y > 7 {
		return refCell{}, false
	}
	return b.cells[x+4*y], true
}

func (b *refBoard) occupied(c refCell) bool { return c.down || c.piece != darkchess.NoPiece }

// hasPieces reports whether colour c has any piece left, revealed or face-down.
func (b *refBoard) hasPieces(c darkchess.Color) bool {
	for _, cell := range b.cells {
		if !cell.down && cell.piece != darkchess.NoPiece && cell.piece.Color() == c {
			return true
		}
	}
	for pc, n := range b.pool {
		if n > 0 && pc.Color() == c {
			return true
		}
	}
	return false
}

var refDirs = [4][2]int{{0, 1}, {1, 0}, {0, -1}, {-1, 0}} // N, E, S, W

// moves lists the legal moves, sorted by From then To, as the capture rules say.
func (b *refBoard) moves() []darkchess.Move {
	var out []darkchess.Move
	if b.turn == darkchess.Red || b.turn == darkchess.Black {
		if !b.hasPieces(b.turn) {
			return nil
		}
	}
	for s := range 32 {
		x, y := s%4, s/4
		from := darkchess.SquareAt(x, y)
		cell := b.cells[s]
		if cell.down {
			out = append(out, darkchess.Flip(from))
			continue
		}
		if cell.piece == darkchess.NoPiece || cell.piece.Color() != b.turn {
			continue
		}
		kind := cell.piece.Kind()
		for _, d := range refDirs {
			// A step: onto an empty square, or a capture by the table.
			if t, ok := b.at(x+d[0], y+d[1]); ok {
				to := darkchess.SquareAt(x+d[0], y+d[1])
				switch {
				case t.down:
				case t.piece == darkchess.NoPiece:
					out = append(out, darkchess.NewMove(from, to))
				case t.piece.Color() != b.turn && refTakes[kind-1][t.piece.Kind()-1] != '.':
					out = append(out, darkchess.NewMove(from, to))
				}
			}
			if kind != darkchess.Cannon {
				continue
			}
			// A cannon's jump: over exactly one piece (the screen), onto the
			// first occupied square beyond, if it is a revealed enemy.
			screen := false
			for i := 1; ; i++ {
				t, ok := b.at(x+i*d[0], y+i*d[1])
				if !ok {
					break
				}
				if !b.occupied(t) {
					continue
				}
				if !screen {
					screen = true
					continue
				}
				if !t.down && t.piece.Color() != b.turn {
					out = append(out, darkchess.NewMove(from, darkchess.SquareAt(x+i*d[0], y+i*d[1])))
				}
				break
			}
		}
	}
	slices.SortFunc(out, func(a, b darkchess.Move) int {
		return cmp.Or(cmp.Compare(a.From(), b.From()), cmp.Compare(a.To(), b.To()))
	})
	return out
}

// play applies a legal move; a flip reveals piece.
func (b refBoard) play(m darkchess.Move, piece darkchess.Piece) refBoard {
	pool := map[darkchess.Piece]int{}
	for k, v := range b.pool {
		pool[k] = v
	}
	b.pool = pool
	if m.IsFlip() {
		b.cells[m.From()] = refCell{piece: piece}
		b.pool[piece]--
		if b.pool[piece] == 0 {
			delete(b.pool, piece)
		}
		if b.turn == darkchess.NoColor {
			b.turn = piece.Color()
		}
		b.turn = b.turn.Opponent()
		b.quiet = 0
		return b
	}
	if b.cells[m.To()].piece != darkchess.NoPiece {
		b.quiet = 0
	} else {
		b.quiet++
	}
	b.cells[m.To()] = b.cells[m.From()]
	b.cells[m.From()] = refCell{}
	b.turn = b.turn.Opponent()
	return b
}

func (b *refBoard) perft(depth int) uint64 {
	if depth == 0 {
		return 1
	}
	var n uint64
	for _, m := range b.moves() {
		if depth == 1 {
			n++
			continue
		}
		next := b.play(m, b.cells[m.From()].piece)
		n += next.perft(depth - 1)
	}
	return n
}

// fataler is what the checks need of a *testing.T or a *rapid.T.
type fataler interface {
	Helper()
	Fatalf(format string, args ...any)
}

func anyPosition() *rapid.Generator[darkchess.Position] {
	return rapid.OneOf(darkchesstest.Position(), darkchesstest.ArbitraryPosition())
}

// checkAgainstReference compares p's legal moves with the reference's, and the
// position after each of them (a flip revealing, if p has no deal, every
// piece of the pool in turn).
func checkAgainstReference(t fataler, p darkchess.Position) {
	t.Helper()
	ref := toRef(p)
	want := ref.moves()
	got := p.AppendLegalMoves(nil)
	if diff := gocmp.Diff(want, got); diff != "" {
		t.Fatalf("legal moves of %s (-ref +got):\n%s", p, diff)
	}
	if fast := p.AppendLegalMoves(make([]darkchess.Move, 0, darkchess.MaxMoves)); !slices.Equal(fast, got) {
		t.Fatalf("%s: the fast path gives %v, the slow one %v", p, fast, got)
	}
	var captures []darkchess.Move
	for _, m := range want {
		if !m.IsFlip() && ref.cells[m.To()].piece != darkchess.NoPiece {
			captures = append(captures, m)
		}
	}
	if diff := gocmp.Diff(captures, p.AppendCaptures(nil)); diff != "" {
		t.Fatalf("captures of %s (-ref +got):\n%s", p, diff)
	}
	if p.IsOver() != (len(got) == 0) {
		t.Fatalf("%s: IsOver %v with %d moves", p, p.IsOver(), len(got))
	}
	for _, m := range got {
		if !p.IsLegal(m) {
			t.Fatalf("%s: IsLegal(%s) = false", p, m)
		}
		if p.IsCapture(m) != (!m.IsFlip() && ref.cells[m.To()].piece != darkchess.NoPiece) {
			t.Fatalf("%s: IsCapture(%s) = %v", p, m, p.IsCapture(m))
		}
		pieces := []darkchess.Piece{p.DealAt(m.From())}
		if m.IsFlip() && !p.Dealt() {
			pieces = pieces[:0]
			for pc := range darkchess.Piece(16) {
				if p.Pool(pc) > 0 {
					pieces = append(pieces, pc)
				}
			}
		}
		for _, pc := range pieces {
			if !m.IsFlip() {
				pc = darkchess.NoPiece
			}
			next, err := p.PlayPly(darkchess.Ply{Move: m, Piece: pc})
			if err != nil {
				t.Fatalf("%s: legal %s (%s) refused: %v", p, m, pc, err)
			}
			if next != p.PlayPlyUnchecked(darkchess.Ply{Move: m, Piece: pc}) {
				t.Fatalf("%s: PlayPly and PlayPlyUnchecked differ on %s", p, m)
			}
			if p.Dealt() {
				if n2, err := p.Play(m); err != nil || n2 != next || p.PlayUnchecked(m) != next {
					t.Fatalf("%s: Play(%s) = %s, %v; PlayPly gave %s", p, m, n2, err, next)
				}
			}
			if wantRef := ref.play(m, cmp.Or(pc, ref.cells[m.From()].piece)); !gocmp.Equal(toRef(next), wantRef, gocmp.AllowUnexported(refBoard{}, refCell{})) {
				t.Fatalf("%s after %s(%s): got %s", p, m, pc, next)
			}
		}
	}
}

// TestAgainstReference compares move generation and play with the naive
// reference on reachable and arbitrary positions.
func TestAgainstReference(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		checkAgainstReference(t, anyPosition().Draw(t, "p"))
	})
}

// TestIllegalMovesRefused: every move the reference calls illegal is refused
// with a *MoveError, and the position is unchanged, as is a legal flip of a
// square whose piece the position does not know; every other legal move is
// played.
func TestIllegalMovesRefused(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := anyPosition().Draw(t, "p")
		ref := toRef(p)
		legal := map[darkchess.Move]bool{}
		for _, m := range ref.moves() {
			legal[m] = true
		}
		m := darkchess.NewMove(
			darkchess.Square(rapid.IntRange(-1, 32).Draw(t, "from")),
			darkchess.Square(rapid.IntRange(-1, 32).Draw(t, "to")),
		)
		if rapid.IntRange(0, 9).Draw(t, "raw") == 0 {
			m = darkchess.Move(rapid.Uint16().Draw(t, "bits")) // any value, a move or not
		}
		if p.IsLegal(m) != legal[m] {
			t.Fatalf("%s: IsLegal(%s) = %v, reference %v", p, m, p.IsLegal(m), legal[m])
		}
		next, err := p.Play(m)
		// A step or a capture needs no deal; a flip needs the piece under
		// its square (else ErrNoDeal, a refusal like the others).
		if legal[m] && (!m.IsFlip() || p.DealAt(m.From()) != darkchess.NoPiece) {
			if err != nil {
				t.Fatalf("%s: legal %s refused: %v", p, m, err)
			}
			return
		}
		var me *darkchess.MoveError
		if !errors.As(err, &me) || next != p || me.Reason == "" {
			t.Fatalf("%s: %s (legal %v) gave %v and %s", p, m, legal[m], err, next)
		}
	})
}

// TestPerftAgainstReference compares perft with the reference's.
func TestPerftAgainstReference(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := rapid.OneOf(darkchesstest.Position(), darkchesstest.ArbitraryPosition().Filter(darkchess.Position.Dealt)).Draw(t, "p")
		d := rapid.IntRange(1, 3).Draw(t, "depth")
		ref := toRef(p)
		if got, want := darkchess.Perft(p, d), ref.perft(d); got != want {
			t.Fatalf("%s perft(%d) = %d, reference %d", p, d, got, want)
		}
	})
}

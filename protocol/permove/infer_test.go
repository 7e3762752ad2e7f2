package permove_test

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/botarena/botarena/pdd"
	"github.com/botarena/botarena/pdd/pddtest"
	"github.com/botarena/botarena/protocol/permove"
	"github.com/botarena/botarena/record"
	"pgregory.net/rapid"
)

// pddViolationSentinels are the violations.
var pddViolationSentinels = []error{
	permove.ErrProgramStart, permove.ErrTimeout, permove.ErrStepLogWritten, permove.ErrExitStatus,
	permove.ErrFileFormat, permove.ErrWrongColor, pdd.ErrOccupied, pdd.ErrUnderBridge,
	pdd.ErrIslandTouches, pdd.ErrGroupTooLarge, pdd.ErrBridgeBlocked, pdd.ErrBridgeEnds,
	pdd.ErrBridgeNotOwn, pdd.ErrUnknownAction, pdd.ErrBridgeShape, pdd.ErrBridgeCrossing, pdd.ErrSupply,
}

// checkPDDOneOutcome fails unless permove.InferMove gave exactly one legal move or
// exactly one violation.
func checkPDDOneOutcome(t interface {
	Helper()
	Fatalf(string, ...any)
}, p pdd.Position, m pdd.Move, err error) {
	t.Helper()
	if err == nil {
		if !p.IsLegal(m) {
			t.Fatalf("inferred %s, illegal in %s", m, p)
		}
		return
	}
	if m != pdd.NoMove {
		t.Fatalf("move %s with error %v", m, err)
	}
	n := 0
	for _, s := range pddViolationSentinels {
		if errors.Is(err, s) {
			n++
		}
	}
	if n != 1 {
		t.Fatalf("error %v matches %d violations", err, n)
	}
	v := &permove.Violation{Color: p.Turn(), Turn: 1, Err: err}
	if v.Name() == "" || !strings.HasPrefix(v.Error(), "permove: ") {
		t.Fatalf("violation %v has no name", v)
	}
}

// pddFiles returns the canonical files of p, edited by the edits: each 3
// bytes pick the file (even: chess.txt, odd: bridge.txt), a square (mod 100)
// and a value relative to the mover (chess: 0 empty, 1 own, 2 opponent, 3
// the raw value 3; bridge: 0, K0+1, K0+2, else v-3).
func pddFiles(p pdd.Position, edits []byte) (chess, bridge []byte) {
	c, b := record.NewPDDChess(p), record.NewPDDBridges(p)
	k0 := p.NumBridges()
	for ; len(edits) >= 3; edits = edits[3:] {
		sq := pdd.Square(edits[1] % 100)
		v := int(edits[2])
		if edits[0]%2 == 0 {
			c.Cells[sq] = [4]pdd.Color{pdd.NoColor, p.Turn(), p.Turn().Opponent(), 3}[v%4]
		} else {
			switch v % 8 {
			case 0:
				b.Cells[sq] = 0
			case 1:
				b.Cells[sq] = uint8(k0 + 1)
			case 2:
				b.Cells[sq] = uint8(k0 + 2)
			default:
				b.Cells[sq] = uint8(v % 100)
			}
		}
	}
	chess, _ = c.MarshalText()
	bridge, _ = b.MarshalText()
	return chess, bridge
}

func pddPosition(t testing.TB, chess, bridge string, turn pdd.Color, rules pdd.Rules) pdd.Position {
	t.Helper()
	c, err := record.ReadPDDChess(strings.NewReader(chess), record.PDDStrict)
	if err != nil {
		t.Fatal(err)
	}
	b, err := record.ReadPDDBridges(strings.NewReader(bridge), record.PDDStrict)
	if err != nil {
		t.Fatal(err)
	}
	p, err := record.PDDPosition(c, b, pdd.Setup{Turn: turn, Rules: rules})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestInferMove(t *testing.T) {
	const f1Chess = "0,0,0,1,0,1,0,0,0,0\n0,0,0,0,0,0,0,0,0,0\n0,0,0,1,0,1,0,0,0,0\n0,0,0,0,0,0,0,0,0,0\n0,0,0,2,0,2,0,0,0,0\n" +
		"0,0,0,0,0,0,0,2,2,0\n0,0,0,0,0,0,0,0,0,0\n0,0,0,0,0,0,0,2,2,0\n0,0,0,0,1,0,1,0,0,0\n0,0,0,0,0,0,0,0,0,0\n"
	const f1Bridge = "0,0,0,0,0,0,0,0,0,0\n0,0,0,0,0,0,0,0,0,0\n0,0,0,1,0,1,0,0,0,0\n0,0,0,0,0,0,0,0,0,0\n0,0,0,0,0,2,0,0,0,0\n" +
		"0,0,0,0,0,0,0,2,0,0\n0,0,0,0,0,0,0,0,0,0\n0,0,0,0,0,0,0,0,0,0\n0,0,0,0,3,0,3,0,0,0\n0,0,0,0,0,0,0,0,0,0\n"
	f1 := pddPosition(t, f1Chess, f1Bridge, pdd.Black, pdd.Course) // Black to move
	sq := func(x, y int) byte { return byte(10*y + x) }
	const own, opp = 1, 2
	tests := []struct {
		name  string
		edits []byte
		want  pdd.Move // or
		err   error
		text  string
	}{
		{"chess", []byte{0, sq(0, 0), own, 0, sq(9, 9), own}, pdd.Chess(0, 99), nil, ""},
		{"bridge", []byte{1, sq(8, 5), 1, 1, sq(8, 7), 1}, pdd.Bridge(pdd.SquareAt(8, 5), pdd.SquareAt(8, 7)), nil, ""},
		{"nothing", nil, 0, pdd.ErrUnknownAction, "nothing was done"},
		{"one tile", []byte{0, sq(0, 0), own}, 0, pdd.ErrUnknownAction, "1 new tile (0,0), want 2"},
		{"three tiles", []byte{0, sq(0, 0), own, 0, sq(9, 9), own, 0, sq(0, 9), own}, 0, pdd.ErrUnknownAction, "3 new tiles"},
		{"wrong colour", []byte{0, sq(0, 0), opp, 0, sq(9, 9), own}, 0, permove.ErrWrongColor, "0,0 changed from 0 to 1; B plays 2"},
		{"own tile to opponent", []byte{0, sq(7, 5), opp}, 0, permove.ErrWrongColor, ""},
		{"opponent tile", []byte{0, sq(3, 0), own, 0, sq(9, 9), own}, 0, pdd.ErrOccupied, "3,0 changed from 1 to 2"},
		{"removed tile", []byte{0, sq(7, 5), 0}, 0, pdd.ErrUnknownAction, "a tile was removed"},
		{"under a bridge", []byte{0, sq(4, 2), own, 0, sq(9, 9), own}, 0, pdd.ErrUnderBridge, ""},
		{"group of five", []byte{0, sq(9, 5), own, 0, sq(8, 6), own}, 0, pdd.ErrGroupTooLarge, ""},
		{"bad digit", []byte{0, sq(0, 0), 3}, 0, permove.ErrFileFormat, "chess.txt: line 1, column 1: field 1"},
		{"bridge on one cell", []byte{1, sq(8, 5), 1}, 0, pdd.ErrBridgeEnds, "bridge 4 stands on 1 cell"},
		{"second bridge on a tile", []byte{1, sq(5, 4), 1, 1, sq(3, 4), 1}, 0, pdd.ErrBridgeEnds, "bridge 2 stands on 1 cell"},
		{"bridge number K0+2", []byte{1, sq(8, 5), 2, 1, sq(8, 7), 2}, 0, permove.ErrFileFormat, "bridge 5, but no bridge 4"},
		{"old bridge moved", []byte{1, sq(4, 8), 0, 1, sq(6, 8), 0, 1, sq(8, 5), 3, 1, sq(8, 7), 3}, 0, permove.ErrFileFormat, "bridge 3 moved from 4,8-6,8 to 8,5-8,7"},
		{"old bridge gone", []byte{1, sq(4, 8), 0, 1, sq(6, 8), 0}, 0, permove.ErrFileFormat, "bridge 3 (4,8-6,8) is gone"},
		{"two new bridges", []byte{1, sq(8, 5), 1, 1, sq(8, 7), 1, 1, sq(3, 4), 2, 1, sq(7, 7), 2}, 0, pdd.ErrUnknownAction, "2 new bridges"},
		{"tiles and a bridge", []byte{1, sq(8, 5), 1, 1, sq(8, 7), 1, 0, sq(0, 0), own, 0, sq(9, 9), own}, 0, pdd.ErrUnknownAction, "2 new tiles and bridge 4"},
		{"bridge not own", []byte{1, sq(3, 0), 1, 1, sq(5, 0), 1}, 0, pdd.ErrBridgeNotOwn, ""},
		{"bridge shape", []byte{1, sq(3, 4), 1, 1, sq(7, 7), 1}, 0, pdd.ErrBridgeShape, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			chess, bridge := pddFiles(f1, tt.edits)
			m, err := permove.InferMove(f1, chess, bridge)
			checkPDDOneOutcome(t, f1, m, err)
			if tt.err == nil {
				if err != nil || m != tt.want {
					t.Fatalf("got %s, %v; want %s", m, err, tt.want)
				}
				return
			}
			if !errors.Is(err, tt.err) || !strings.Contains(err.Error(), tt.text) {
				t.Fatalf("error %v; want %v with %q", err, tt.err, tt.text)
			}
		})
	}

	// CRLF and a missing final line end are fine; spaces are not.
	chess, bridge := pddFiles(f1, []byte{0, sq(0, 0), own, 0, sq(9, 9), own})
	crlf := []byte(strings.TrimSuffix(strings.ReplaceAll(string(chess), "\n", "\r\n"), "\r\n"))
	if m, err := permove.InferMove(f1, crlf, bridge); err != nil || m != pdd.Chess(0, 99) {
		t.Errorf("CRLF: %s, %v", m, err)
	}
	spaced := []byte(strings.ReplaceAll(string(chess), ",", ", "))
	if _, err := permove.InferMove(f1, spaced, bridge); !errors.Is(err, permove.ErrFileFormat) {
		t.Errorf("spaces: %v", err)
	}

	// Change: Black turns White's 2 opening tiles.
	start, _ := pdd.Course.Start().Play(pdd.Chess(pdd.SquareAt(2, 0), pdd.SquareAt(2, 2)))
	chess, bridge = pddFiles(start, []byte{0, sq(2, 0), own, 0, sq(2, 2), own})
	if m, err := permove.InferMove(start, chess, bridge); err != nil || m != pdd.Change {
		t.Errorf("Change: %s, %v", m, err)
	}
	// Not available once Black has played.
	noWhite, _ := pdd.NewPosition(pdd.Setup{Turn: pdd.Black, Cells: func() (c [100]pdd.Color) {
		c[pdd.SquareAt(2, 0)], c[pdd.SquareAt(2, 2)] = pdd.White, pdd.White
		c[pdd.SquareAt(0, 9)] = pdd.Black
		return c
	}()})
	chess, bridge = pddFiles(noWhite, []byte{0, sq(2, 0), own, 0, sq(2, 2), own})
	if _, err := permove.InferMove(noWhite, chess, bridge); !errors.Is(err, pdd.ErrUnknownAction) {
		t.Errorf("Change not available: %v", err)
	}

	// Official: unchanged files are a Pass, refused while a Chess move exists.
	off := pddPosition(t, f1Chess, f1Bridge, pdd.Black, pdd.Official)
	chess, bridge = pddFiles(off, nil)
	if _, err := permove.InferMove(off, chess, bridge); !errors.Is(err, pdd.ErrUnknownAction) {
		t.Errorf("Official pass with a Chess move: %v", err)
	}
	// A finished game has no move.
	var over pdd.Position
	g := pdd.NewGame(pdd.Course)
	r := rand.New(rand.NewPCG(1, 2))
	for !g.IsOver() {
		ms := g.Position().AppendLegalMoves(nil)
		g.Play(ms[r.IntN(len(ms))])
	}
	over = g.Position()
	chess, bridge = pddFiles(over, nil)
	if _, err := permove.InferMove(over, chess, bridge); !errors.Is(err, pdd.ErrUnknownAction) {
		t.Errorf("game over: %v", err)
	}
}

// Every legal move, written into the files, is inferred back exactly.
func TestInferMoveProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := pddtest.Position().Draw(t, "p")
		ms := p.AppendLegalMoves(nil)
		if len(ms) == 0 || p.MustPass() && p.Rules() == pdd.Course {
			return
		}
		m := rapid.SampledFrom(ms).Draw(t, "m")
		next, _ := p.Play(m)
		c, b := record.NewPDDChess(next), record.NewPDDBridges(next)
		if m == pdd.Pass {
			c, b = record.NewPDDChess(p), record.NewPDDBridges(p)
		}
		cb, _ := c.MarshalText()
		bb, _ := b.MarshalText()
		got, err := permove.InferMove(p, cb, bb)
		if err != nil || got != m {
			t.Fatalf("inferred %s, %v; want %s", got, err, m)
		}
		// And a candidate move, legal or not, gives one outcome.
		cand := pddtest.Candidate(p).Draw(t, "candidate")
		var edits []byte
		a, z := cand.Squares()
		switch cand.Action() {
		case pdd.ChessAction:
			edits = []byte{0, byte(a), 1, 0, byte(z), 1}
		case pdd.BridgeAction:
			edits = []byte{1, byte(a), 1, 1, byte(z), 1}
		}
		cb, bb = pddFiles(p, edits)
		got, err = permove.InferMove(p, cb, bb)
		checkPDDOneOutcome(t, p, got, err)
	})
}

// The classifier, on any position and any edit of its files, returns
// exactly one legal move or exactly one violation, and never panics.
func FuzzInferMove(f *testing.F) {
	f.Add(uint64(1), uint8(0), []byte{0, 0, 1, 0, 99, 1}, []byte(nil))
	f.Add(uint64(2), uint8(1), []byte{0, 22, 1, 0, 2, 1}, []byte(nil))
	f.Add(uint64(3), uint8(20), []byte{1, 0, 1, 1, 2, 1}, []byte(nil))
	f.Add(uint64(4), uint8(30), []byte{0, 5, 2, 1, 7, 2}, []byte(nil))
	f.Add(uint64(5), uint8(40), []byte{}, []byte("0,0\n"))
	f.Add(uint64(6), uint8(10), []byte{0, 1, 0, 0, 2, 3, 1, 3, 9}, []byte(nil))
	f.Fuzz(func(t *testing.T, seed uint64, plies uint8, edits, raw []byte) {
		r := rand.New(rand.NewPCG(seed, 7))
		rules := pdd.Rules(seed % 2)
		g := pdd.NewGame(rules)
		for i := 0; i < int(plies)%80 && !g.IsOver(); i++ {
			ms := g.Position().AppendLegalMoves(nil)
			g.Play(ms[r.IntN(len(ms))])
		}
		p := g.Position()
		chess, bridge := pddFiles(p, edits)
		if len(raw) > 0 {
			if raw[0]%2 == 0 {
				chess = raw[1:]
			} else {
				bridge = raw[1:]
			}
		}
		m, err := permove.InferMove(p, chess, bridge)
		checkPDDOneOutcome(t, p, m, err)
	})
}

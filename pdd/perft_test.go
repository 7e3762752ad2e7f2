package pdd_test

import (
	"flag"
	"testing"

	"github.com/botarena/botarena/pdd"
)

var perft3 = flag.Bool("pdd.perft3", false, "also check perft(3) from the start, 107,310,897,558 (23.5 M leaf counts: about 3 minutes)")

// TestStartCounts checks the counts from the start, in both
// profiles: 4,950 moves; after every one of the 4,950 openings, 4,754 (4,753
// pairs and Change, no bridge); perft(2) = 23,532,300 (4,950 x 4,754).
func TestStartCounts(t *testing.T) {
	for _, rules := range []pdd.Rules{pdd.Course, pdd.Official} {
		start := rules.Start()
		moves := start.AppendLegalMoves(nil)
		if len(moves) != 4950 || start.NumLegalMoves() != 4950 {
			t.Fatalf("%s: %d moves from the start, want 4950", rules, len(moves))
		}
		for i, m := range moves {
			if m.Action() != pdd.ChessAction || i > 0 && moves[i-1] >= m {
				t.Fatalf("%s: move %d is %s, not in canonical order", rules, i, m)
			}
			p := start.PlayUnchecked(m)
			if n := p.NumLegalMoves(); n != 4754 || !p.ChangeAvailable() || p.Turn() != pdd.Black {
				t.Fatalf("%s after %s: %d moves, Change %v; want 4754 and Change", rules, m, n, p.ChangeAvailable())
			}
		}
		after := start.PlayUnchecked(moves[1234])
		kinds := countKinds(after)
		if kinds[pdd.ChessAction] != 4753 || kinds[pdd.ChangeAction] != 1 || kinds[pdd.BridgeAction] != 0 {
			t.Errorf("%s after %s: %v", rules, moves[1234], kinds)
		}
		if got := pdd.Perft(start, 2); got != 23_532_300 {
			t.Errorf("%s perft(2) = %d, want 23532300", rules, got)
		}
		// After Change: White has 98 free squares and 4,753 moves.
		changed := after.PlayUnchecked(pdd.Change)
		if n := changed.NumLegalMoves(); n != 4753 || changed.Turn() != pdd.White || changed.FirstPlayer() != pdd.Black {
			t.Errorf("%s after Change: %d moves, %s to move, first %s", rules, n, changed.Turn(), changed.FirstPlayer())
		}
	}
	if *perft3 {
		if got := pdd.Perft(pdd.Course.Start(), 3); got != 107_310_897_558 {
			t.Errorf("perft(3) = %d, want 107310897558", got)
		}
	}
}

// TestPerft3Breakdown checks the structure of depth 3 without
// the 23.5 M leaf counts: after an opening on a placement and Black's Chess
// off its squares under, White has C(96,2) pairs and 1 bridge; with Black on
// a square under, no bridge; after Change, 4,753 moves.
func TestPerft3Breakdown(t *testing.T) {
	start := pdd.Course.Start()
	open := start.PlayUnchecked(pdd.Chess(pdd.SquareAt(4, 4), pdd.SquareAt(6, 5))) // a knight placement, under 5,4 5,5
	for _, tt := range []struct {
		black         pdd.Move
		chess, bridge int
	}{
		{pdd.Chess(pdd.SquareAt(0, 0), pdd.SquareAt(9, 9)), 4560, 1},
		{pdd.Chess(pdd.SquareAt(5, 5), pdd.SquareAt(9, 9)), 4560, 0},
		{pdd.Chess(pdd.SquareAt(5, 4), pdd.SquareAt(5, 5)), 4560, 0},
	} {
		kinds := countKinds(open.PlayUnchecked(tt.black))
		if kinds[pdd.ChessAction] != tt.chess || kinds[pdd.BridgeAction] != tt.bridge {
			t.Errorf("after %s: %v, want %d Chess and %d Bridge", tt.black, kinds, tt.chess, tt.bridge)
		}
	}
	// Black's Chess next to White's bridge: the bridge takes squares
	// from the pairs: C(97,2) with one square under.
	open = start.PlayUnchecked(pdd.Chess(pdd.SquareAt(4, 4), pdd.SquareAt(6, 4)))
	p := open.PlayUnchecked(pdd.Chess(pdd.SquareAt(0, 0), pdd.SquareAt(9, 9)))
	if k := countKinds(p); k[pdd.ChessAction] != 4560 || k[pdd.BridgeAction] != 1 {
		t.Errorf("straight opening: %v", k)
	}
	q := p.PlayUnchecked(pdd.Bridge(pdd.SquareAt(4, 4), pdd.SquareAt(6, 4)))
	if k := countKinds(q); k[pdd.ChessAction] != 4465 { // C(95,2): 94 tiles... Black: 100-4-1 = 95 free
		t.Errorf("after the bridge, Black has %v", k)
	}
}

// TestPerftEdges checks depth 0, a negative depth, Divide, and perft(2)'s
// independence of the side to move on F1.
func TestPerftEdges(t *testing.T) {
	start := pdd.Course.Start()
	if pdd.Perft(start, 0) != 1 || pdd.Perft(start, -1) != 0 {
		t.Error("perft(0) or perft(-1)")
	}
	if pdd.Divide(start, 0) != nil {
		t.Error("Divide(0) has lines")
	}
	p := fromFiles(t, pdd.Course, pdd.White, m1Chess, m1Bridge)
	var sum uint64
	lines := pdd.Divide(p, 2)
	for _, l := range lines {
		sum += l.Leaves
	}
	if len(lines) != 112 || sum != 15727 {
		t.Errorf("Divide(M1, 2): %d lines, %d leaves", len(lines), sum)
	}
	w := fromFiles(t, pdd.Course, pdd.White, f1Chess, f1Bridge)
	b := fromFiles(t, pdd.Course, pdd.Black, f1Chess, f1Bridge)
	if pw, pb := pdd.Perft(w, 2), pdd.Perft(b, 2); pw != pb || pw != 11_013_246 {
		t.Errorf("F1 perft(2): white %d, black %d", pw, pb)
	}
}

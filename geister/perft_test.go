package geister_test

import (
	"strconv"
	"testing"

	"github.com/botarena/botarena/geister"
	"github.com/google/go-cmp/cmp"
)

// startPerft is the reference perft table from the start, any setups, indexed by
// depth.
var startPerft = []uint64{1, 8, 64, 768, 9200, 118488, 1523518, 21700678}

// maxDepth returns the deepest level to check: all of them normally, 6 with
// -short or the race detector (depth 7 takes 70 ms, 20 times that under
// -race).
func maxDepth(deepest int) int {
	if testing.Short() || raceEnabled {
		return min(deepest, 6)
	}
	return deepest
}

// TestPerftStart checks the table for several setup pairs: depths 1-9 do
// not depend on them.
func TestPerftStart(t *testing.T) {
	for _, pair := range [][2]int{{0, 69}, {35, 35}, {69, 0}, {12, 57}} {
		p, err := geister.Start(geister.RedsAt(pair[0]), geister.RedsAt(pair[1]))
		if err != nil {
			t.Fatal(err)
		}
		for d := 0; d <= maxDepth(7); d++ {
			if d == 7 && pair[0] != 0 {
				continue // once is enough at the deepest level
			}
			if got := geister.Perft(p, d); got != startPerft[d] {
				t.Errorf("setups %v: perft(%d) = %d, want %d", pair, d, got, startPerft[d])
			}
		}
	}
}

func TestDivideStart(t *testing.T) {
	p, _ := geister.Start(geister.RedsAt(0), geister.RedsAt(69))
	var got []string
	var sum uint64
	for _, l := range geister.Divide(p, 4) {
		got = append(got, l.Move.String()+" "+strconv.FormatUint(l.Leaves, 10))
		sum += l.Leaves
	}
	want := []string{"A,NORTH 1148", "A,WEST 1056", "B,NORTH 1340", "C,NORTH 1340", "D,NORTH 1148", "D,EAST 1056", "E,WEST 1056", "H,EAST 1056"}
	if diff := cmp.Diff(want, got); diff != "" || sum != startPerft[4] {
		t.Errorf("Divide(start, 4) (-want +got):\n%s sum %d", diff, sum)
	}
	if geister.Divide(p, 0) != nil {
		t.Error("Divide(0) has lines")
	}
}

// TestPerftTranscripts checks the reference perft counts from two transcript
// positions: the receiver's MOV? board completed with the opponent's reds.
func TestPerftTranscripts(t *testing.T) {
	for _, tt := range []struct {
		board string
		ply   int
		reds  string
		want  []uint64
	}{
		{"00B24B34B44B15R25R35R45R42u31u21u11u40u30u20u10u", 10, "BCDE", []uint64{1, 11, 122, 1583, 19359}},
		{"14B99r99r45R05R99b50B99b99b99r21u01u99r99b99b30u", 150, "BCDE", []uint64{1, 12, 111, 1238, 10046, 112444}},
	} {
		v, err := geister.ParseView(tt.board, geister.First, tt.ply)
		if err != nil {
			t.Fatal(err)
		}
		reds, _ := geister.ParseReds(tt.reds)
		p, err := v.Position(reds)
		if err != nil {
			t.Fatal(err)
		}
		for d, want := range tt.want {
			if got := geister.Perft(p, d); got != want {
				t.Errorf("%s perft(%d) = %d, want %d", tt.board, d, got, want)
			}
		}
		// The Divide lines add up.
		var sum uint64
		for _, l := range geister.Divide(p, 3) {
			sum += l.Leaves
		}
		if sum != tt.want[3] {
			t.Errorf("%s: Divide(3) sums to %d", tt.board, sum)
		}
	}
}

func TestPerftEdges(t *testing.T) {
	p, _ := geister.Start(geister.RedsAt(0), geister.RedsAt(0))
	if got := geister.Perft(p, -1); got != 0 {
		t.Errorf("perft(-1) = %d", got)
	}
	// A decided position is a leaf at every depth, with no Divide lines.
	over, err := geister.ParsePosition("88b24R34R44R15R25B35B45B41r31r21r11r40b30b20b10b 11")
	if err != nil {
		t.Fatal(err)
	}
	for d := 0; d <= 3; d++ {
		if got := geister.Perft(over, d); got != 1 {
			t.Errorf("perft(over, %d) = %d, want 1", d, got)
		}
	}
	if lines := geister.Divide(over, 2); len(lines) != 0 {
		t.Errorf("Divide(over) = %v", lines)
	}
}

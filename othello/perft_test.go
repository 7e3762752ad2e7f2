package othello_test

import (
	"bufio"
	"flag"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/botarena/botarena/internal/longtest"
	"github.com/botarena/botarena/othello"
)

var perftDepth = flag.Int("perft.depth", 0, "deepest perft level the table tests check (0: 10 in the quick tier, 11 with BOTARENA_LONG=1; levels above 11 take long)")

type perftRow struct {
	board, convention string
	depth             int
	count             uint64
}

// readPerftTable reads testdata/perft.txt: "board convention depth count".
func readPerftTable(t *testing.T) []perftRow {
	t.Helper()
	f, err := os.Open("testdata/perft.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rows []perftRow
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Fields(line)
		if len(f) != 4 {
			t.Fatalf("perft.txt:%d: want 4 fields, got %q", n, line)
		}
		d, err1 := strconv.Atoi(f[2])
		c, err2 := strconv.ParseUint(f[3], 10, 64)
		if err1 != nil || err2 != nil {
			t.Fatalf("perft.txt:%d: bad numbers in %q", n, line)
		}
		rows = append(rows, perftRow{f[0], f[1], d, c})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return rows
}

// maxPerftDepth is the deepest perft level the table tests check: the
// -perft.depth flag, else 10 in the quick tier (the first level where the
// strict and Bik counts differ, by games that end in passes; 8x more leaves
// than 9) and 11 in the long tier (BOTARENA_LONG=1); 9 at most under the race
// detector, which makes deep perft too slow.
func maxPerftDepth() int {
	d := *perftDepth
	if d == 0 {
		d = longtest.Pick(10, 11)
	}
	if raceEnabled && d > 9 {
		return 9
	}
	return d
}

// TestPerftTable checks every count of testdata/perft.txt up to -perft.depth
// (by default 10, and 11 in the long tier): strict and Bik, 8x8 from both the
// standard and the TUS start, and 6x6; by Perft and by each kernel this
// processor runs.
func TestPerftTable(t *testing.T) {
	rows := readPerftTable(t)
	if len(rows) < 60 {
		t.Fatalf("perft table has %d rows", len(rows))
	}
	for _, r := range rows {
		if r.depth > maxPerftDepth() {
			continue
		}
		var starts []othello.Rules
		switch r.board {
		case "8x8":
			starts = []othello.Rules{othello.Standard, othello.TUS}
		case "6x6":
			starts = []othello.Rules{othello.Board6x6}
		default:
			t.Fatalf("unknown board %q", r.board)
		}
		for _, rules := range starts {
			var got uint64
			switch r.convention {
			case "strict":
				got = othello.Perft(rules.Start, r.depth)
			case "bik":
				got = othello.PerftBik(rules.Start, r.depth)
			default:
				t.Fatalf("unknown convention %q", r.convention)
			}
			if got != r.count {
				t.Errorf("%s %s perft(%d) = %d, want %d", rules.Name, r.convention, r.depth, got, r.count)
			}
			c := othello.Strict
			if r.convention == "bik" {
				c = othello.Bik
			}
			for _, k := range othello.PerftKernels() {
				if got, _ := othello.PerftWith(k, rules.Start, r.depth, c); got != r.count {
					t.Errorf("%s %s perft(%d) by the %s kernel = %d, want %d", rules.Name, r.convention, r.depth, k, got, r.count)
				}
			}
		}
	}
}

func TestPerftEdges(t *testing.T) {
	start := othello.Standard.Start
	if got := othello.Perft(start, 0); got != 1 {
		t.Errorf("perft(0) = %d, want 1", got)
	}
	if got := othello.Perft(start, -1); got != 0 {
		t.Errorf("perft(-1) = %d, want 0", got)
	}
	// A finished game: strict counts 0 below it, Bik 1.
	over, err := othello.ParsePosition(strings.Repeat("X", 64) + " O")
	if err != nil {
		t.Fatal(err)
	}
	for d := 1; d <= 3; d++ {
		if got := othello.Perft(over, d); got != 0 {
			t.Errorf("strict perft(over, %d) = %d, want 0", d, got)
		}
		if got := othello.PerftBik(over, d); got != 1 {
			t.Errorf("bik perft(over, %d) = %d, want 1", d, got)
		}
	}
}

func TestParallelPerft(t *testing.T) {
	depth := min(maxPerftDepth(), 10)
	for _, c := range []othello.Convention{othello.Strict, othello.Bik} {
		want := othello.Perft(othello.TUS.Start, depth)
		if c == othello.Bik {
			want = othello.PerftBik(othello.TUS.Start, depth)
		}
		for _, workers := range []int{0, 1, 3} {
			if got := othello.ParallelPerft(othello.TUS.Start, depth, c, workers); got != want {
				t.Errorf("ParallelPerft(%d, %s, %d workers) = %d, want %d", depth, c, workers, got, want)
			}
		}
	}
	if got := othello.ParallelPerft(othello.Board6x6.Start, 9, othello.Bik, 2); got != 2114912 {
		t.Errorf("6x6 ParallelPerft(9) = %d", got)
	}
}

// TestDivideSymmetry: each of the four first moves from either start has a
// quarter of the leaves, in both conventions, at every depth up to 9.
func TestDivideSymmetry(t *testing.T) {
	for _, rules := range []othello.Rules{othello.Standard, othello.TUS} {
		for d := 1; d <= min(9, maxPerftDepth()); d++ {
			for _, c := range []othello.Convention{othello.Strict, othello.Bik} {
				lines := othello.Divide(rules.Start, d, c)
				if len(lines) != 4 {
					t.Fatalf("%s Divide(%d) has %d lines", rules.Name, d, len(lines))
				}
				var sum uint64
				for _, l := range lines {
					sum += l.Leaves
					if l.Leaves != lines[0].Leaves {
						t.Errorf("%s %s Divide(%d): %v != %v", rules.Name, c, d, l, lines[0])
					}
				}
				want := othello.Perft(rules.Start, d)
				if c == othello.Bik {
					want = othello.PerftBik(rules.Start, d)
				}
				if sum != want {
					t.Errorf("%s %s Divide(%d) sums to %d, want %d", rules.Name, c, d, sum, want)
				}
			}
		}
	}
	if got := othello.Divide(othello.Standard.Start, 0, othello.Strict); got != nil {
		t.Errorf("Divide(0) = %v, want nil", got)
	}
}

package darkchess_test

import (
	"bufio"
	"flag"
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/botarena/botarena/darkchess"
)

var perftDeep = flag.Bool("perft.deep", false, "check every perft vector, the deepest included (opening perft(6), PerftChance(4): about 15 s)")

// perftBudget is the largest leaf count a vector may have to be checked: all
// with -perft.deep, up to 10^8 by default (a few seconds), up to 5*10^6 with
// -short or the race detector.
func perftBudget() uint64 {
	switch {
	case *perftDeep:
		return math.MaxUint64
	case testing.Short() || raceEnabled:
		return 5_000_000
	}
	return 100_000_000
}

type perftRow struct {
	name     string
	pos      darkchess.Position
	depth    int
	perft    uint64
	chance   uint64 // 0 when the vector has none ("-")
	hasDeal  bool
	position string
}

// readPerftTable reads testdata/perft.tsv (a copy of the shared vectors):
// name, position, deal, depth, perft, chance.
func readPerftTable(t *testing.T) []perftRow {
	t.Helper()
	f, err := os.Open("testdata/perft.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rows []perftRow
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		c := strings.Split(line, "\t")
		if len(c) != 6 {
			t.Fatalf("perft.tsv:%d: want 6 columns, got %q", n, line)
		}
		text := c[1]
		if c[2] != "-" {
			text += " " + c[2]
		}
		r := perftRow{name: c[0], pos: mustParse(t, text), hasDeal: c[2] != "-", position: c[1]}
		var err1, err2, err3 error
		r.depth, err1 = strconv.Atoi(c[3])
		r.perft, err2 = strconv.ParseUint(c[4], 10, 64)
		if c[5] != "-" {
			r.chance, err3 = strconv.ParseUint(c[5], 10, 64)
		}
		if err1 != nil || err2 != nil || err3 != nil {
			t.Fatalf("perft.tsv:%d: bad numbers in %q", n, line)
		}
		rows = append(rows, r)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return rows
}

// TestPerftTable checks the vectors: Perft on the referee
// position, PerftChance on its view, and the position string round trip.
func TestPerftTable(t *testing.T) {
	rows := readPerftTable(t)
	if len(rows) != 24 {
		t.Fatalf("perft.tsv has %d rows, want 24", len(rows))
	}
	budget := perftBudget()
	checked := 0
	for _, r := range rows {
		if got := r.pos.View(darkchess.Red).String(); got != r.position {
			t.Errorf("%s: view string %q, want %q", r.name, got, r.position)
		}
		if r.perft <= budget {
			checked++
			if got := darkchess.Perft(r.pos, r.depth); got != r.perft {
				t.Errorf("%s perft(%d) = %d, want %d", r.name, r.depth, got, r.perft)
			}
		}
		if r.chance != 0 && r.chance <= budget {
			checked++
			if got := darkchess.PerftChance(r.pos.View(darkchess.Red), r.depth); got != r.chance {
				t.Errorf("%s PerftChance(%d) = %d, want %d", r.name, r.depth, got, r.chance)
			}
		}
	}
	t.Logf("checked %d counts of at most %d leaves", checked, budget)
}

// TestDivideMid6 checks the Divide of mid6 at depth 3 from the reference table.
func TestDivideMid6(t *testing.T) {
	p := mustParse(t, "PgXP/-g-G/-X-M/XNXm/N-Xc/--PK/X---/Pm-P b 01020101000001 0 ..R./..../.k../R.p./..G./..../C.../....")
	want := map[string]uint64{
		"a2-a2": 295, "a5-a5": 280, "b1-a1": 261, "b1-b2": 315, "b1-c1": 299, "b6-b6": 316, "b7-a7": 319, "b7-c7": 335,
		"b8-a8": 317, "c4-c4": 293, "c5-c5": 298, "c8-c8": 298, "d4-a4": 302, "d4-d1": 285, "d4-d6": 283, "d5-d6": 318,
	}
	lines := darkchess.Divide(p, 3)
	var sum uint64
	for i, l := range lines {
		if want[l.Move.String()] != l.Leaves {
			t.Errorf("%s: %d, want %d", l.Move, l.Leaves, want[l.Move.String()])
		}
		if i > 0 && (l.Move.From() < lines[i-1].Move.From() || l.Move.From() == lines[i-1].Move.From() && l.Move.To() <= lines[i-1].Move.To()) {
			t.Errorf("Divide order: %s after %s", l.Move, lines[i-1].Move)
		}
		sum += l.Leaves
	}
	if len(lines) != len(want) || sum != 4814 {
		t.Errorf("Divide has %d lines summing to %d, want %d and 4814", len(lines), sum, len(want))
	}
	// DivideChance splits flips by piece, and sums to PerftChance.
	v := p.View(darkchess.Black)
	var csum uint64
	for _, l := range darkchess.DivideChance(v, 3) {
		if l.Ply.Move.IsFlip() != (l.Ply.Piece != darkchess.NoPiece) {
			t.Errorf("DivideChance line %s", l.Ply)
		}
		csum += l.Leaves
	}
	if csum != 44712 || darkchess.PerftChance(v, 3) != 44712 {
		t.Errorf("DivideChance sums to %d, want 44712", csum)
	}
	if darkchess.Divide(p, 0) != nil || darkchess.DivideChance(v, 0) != nil {
		t.Error("Divide(0) has lines")
	}
	if l := darkchess.Divide(p, 1); len(l) != 16 || l[0].Leaves != 1 {
		t.Errorf("Divide(1) = %v", l)
	}
}

func TestPerftEdges(t *testing.T) {
	p := darkchess.Opening
	for _, f := range []func(int) uint64{
		func(d int) uint64 { return darkchess.Perft(p, d) },
		func(d int) uint64 { return darkchess.PerftChance(p.View(darkchess.Red), d) },
	} {
		if f(0) != 1 || f(-1) != 0 {
			t.Errorf("perft(0) = %d, perft(-1) = %d", f(0), f(-1))
		}
	}
	if darkchess.PerftExpected(p.View(darkchess.Red), -1) != 0 || darkchess.PerftExpected(p.View(darkchess.Red), 0) != 1 {
		t.Error("PerftExpected edges")
	}
	// A side with no pieces left has no moves, even with a flip possible.
	lost := mustParse(t, "----/----/----/----/----/-X--/--k-/---- r 00000000000001 0")
	if darkchess.Perft(lost, 3) != 0 || darkchess.PerftChance(lost.View(darkchess.Red), 2) != 0 {
		t.Error("a side with no pieces has moves")
	}
	// Without a deal, Perft counts flips at the last ply only.
	if got := darkchess.Perft(p, 1); got != 32 {
		t.Errorf("undealt perft(1) = %d", got)
	}
	if got := darkchess.Perft(p, 2); got != 0 {
		t.Errorf("undealt perft(2) = %d, want 0", got)
	}
	if l := darkchess.Divide(p, 2); len(l) != 32 || l[0].Leaves != 0 {
		t.Errorf("undealt Divide(2) = %v", l[:1])
	}
}

// TestPerftExpected checks the chance-weighted count against its definition:
// the mean of Perft over every deal the view allows. Small positions with 3
// to 5 face-down pieces let every deal be listed.
func TestPerftExpected(t *testing.T) {
	for _, pos := range []string{
		"--X-/-gX-/----/-C--/--X-/----/-p--/K--- r 00000100000011 0",
		"X--X/----/-R--/----/-c--/----/--X-/X--k b 00010000000012 0",
		"XXX-/-k--/----/P---/----/---n/--XX/---- r 01000010001110 0",
		"XX--/----/----/----/----/----/----/---X - 10000000000011 0",
	} {
		p := mustParse(t, pos)
		v := p.View(p.Turn())
		for d := 1; d <= 4; d++ {
			var sum float64
			n := 0
			forEachDeal(p, func(q darkchess.Position) {
				sum += float64(darkchess.Perft(q, d))
				n++
			})
			mean := sum / float64(n)
			if got := darkchess.PerftExpected(v, d); math.Abs(got-mean) > 1e-9*mean {
				t.Errorf("%s: PerftExpected(%d) = %v, mean of Perft over %d deals %v", pos, d, got, n, mean)
			}
		}
	}
}

// forEachDeal calls f with p dealt in every possible way (each arrangement of
// the pool's multiset once: all equally likely).
func forEachDeal(p darkchess.Position, f func(darkchess.Position)) {
	s := p.Setup()
	var squares []darkchess.Square
	for sq := range p.FaceDown().Squares() {
		squares = append(squares, sq)
	}
	pool := s.Pool
	var rec func(i int)
	rec = func(i int) {
		if i == len(squares) {
			q, err := darkchess.NewPosition(s)
			if err != nil {
				panic(err)
			}
			f(q)
			return
		}
		for pc := range darkchess.Piece(16) {
			if pool[pc] > 0 {
				pool[pc]--
				s.Deal[squares[i]] = pc
				rec(i + 1)
				pool[pc]++
			}
		}
	}
	s.Pool = [16]int{}
	for pc := range darkchess.Piece(16) {
		pool[pc] = p.Pool(pc)
	}
	rec(0)
}

// TestDealProcedure pins the referee's deal for one seed, so
// that a recorded seed keeps giving the same deal, and checks that Deal
// keeps the pool and only fills the face-down squares.
func TestDealProcedure(t *testing.T) {
	p := darkchess.Opening.Deal(rand.New(rand.NewPCG(1, 0)))
	want := p.String()
	if again := darkchess.Opening.Deal(rand.New(rand.NewPCG(1, 0))); again.String() != want {
		t.Fatalf("Deal is not deterministic: %s, then %s", want, again)
	}
	if got := darkchess.Opening.Deal(nil); got != darkchess.Opening {
		t.Error("Deal(nil) changed the position")
	}
	// The procedure, written out: the pool in kind order, a Fisher-Yates
	// shuffle from the top with IntN(i+1), element i to the i-th square.
	r := rand.New(rand.NewPCG(1, 0))
	list := []byte("KGGMMRRNNCCPPPPPkggmmrrnnccppppp")
	for i := len(list) - 1; i >= 1; i-- {
		j := r.IntN(i + 1)
		list[i], list[j] = list[j], list[i]
	}
	for sq := range darkchess.Square(32) {
		if got := p.DealAt(sq).String(); got != string(list[sq]) {
			t.Fatalf("deal has %s on %s, the procedure %c", got, sq, list[sq])
		}
	}
	if !p.Dealt() || darkchess.Opening.Dealt() || p.View(darkchess.Red).Position() != darkchess.Opening {
		t.Error("Dealt/View")
	}
	mid := mustParse(t, "PgXP/-g-G/-X-M/XNXm/N-Xc/--PK/X---/Pm-P b 01020101000001 0")
	dealt := mid.Deal(rand.New(rand.NewPCG(9, 9)))
	if dealt.View(darkchess.Red).Position() != mid || !dealt.Dealt() {
		t.Errorf("Deal of %s gave %s", mid, dealt)
	}
}

package search

import (
	"bufio"
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/botarena/botarena/internal/sharedtest"
	"github.com/botarena/botarena/othello"
	"github.com/botarena/botarena/othello/endgame"
)

// boardOthello reads a board a1..h8, row by row (X black, O white, -
// empty), and the side to move (X or O), as the FFO endgame problems are
// written.
func boardOthello(t testing.TB, line string) othello.Position {
	t.Helper()
	var black, white othello.Bitboard
	for i, c := range line[:64] {
		switch c {
		case 'X':
			black |= othello.Square(i).Bit()
		case 'O':
			white |= othello.Square(i).Bit()
		}
	}
	turn := othello.Black
	if line[65] == 'O' {
		turn = othello.White
	}
	p, err := othello.NewPosition(othello.Setup{Black: black, White: white, Turn: turn})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// FFO endgame problems #1 (black wins by 18) and #9 (white loses by 8),
// 14 empty squares each.
const (
	ffo1 = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X"
	ffo9 = "--XOXX--O-OOXXXX-OOOXXXX-XOXXXOXXXOXOOOXOXXOXOXX--OXOO----OOOO-- O"
)

// TestOthelloSolveFitsTime: the best player's endgame solve runs from its
// Solve empty squares whatever the time, and with more only when the
// solve fits the time to the move's deadline; it answers only a move
// that wins or draws.
func TestOthelloSolveFitsTime(t *testing.T) {
	t.Parallel()
	solver := endgame.New(endgame.Options{TableSize: 1 << 14})
	won, lost := boardOthello(t, ffo1), boardOthello(t, ffo9)
	exact := func(p othello.Position) int {
		r, err := solver.Solve(context.Background(), p)
		if err != nil {
			t.Fatal(err)
		}
		return r.Score
	}
	checkWins := func(what string, m othello.Move) {
		t.Helper()
		after, err := won.Play(m)
		if err != nil {
			t.Fatalf("%s: %s: %v", what, m, err)
		}
		if v := -exact(after); v <= 0 {
			t.Errorf("%s: the move %s scores %d, not a win", what, m, v)
		}
	}

	if m, ok := othelloSolve(context.Background(), solver, won, DepthOptions{}); !ok {
		t.Error("14 empty squares, Solve 0 (14): not solved")
	} else {
		checkWins("14 empty squares, Solve 0", m)
	}
	if _, ok := othelloSolve(context.Background(), solver, won, DepthOptions{Solve: 10}); ok {
		t.Error("14 empty squares, Solve 10, no deadline: solved")
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Hour)
	defer cancel()
	if m, ok := othelloSolve(ctx, solver, won, DepthOptions{Solve: 10}); !ok {
		t.Error("14 empty squares, Solve 10, an hour: not solved")
	} else {
		checkWins("14 empty squares, Solve 10, an hour", m)
	}
	if _, ok := othelloSolve(ctx, solver, won, DepthOptions{Solve: -1}); ok {
		t.Error("Solve -1: solved")
	}
	// With a deadline closer than twice the estimate, no solve begins.
	short, cancel2 := context.WithDeadline(context.Background(), time.Now().Add(othelloSolveTime(14)))
	defer cancel2()
	if _, ok := othelloSolve(short, solver, won, DepthOptions{Solve: 10}); ok {
		t.Error("14 empty squares, Solve 10, a deadline within the estimate: solved")
	}
	if m, ok := othelloSolve(context.Background(), solver, lost, DepthOptions{}); ok {
		t.Errorf("a lost position: answered %s", m)
	}
}

func TestOthelloSolveTime(t *testing.T) {
	t.Parallel()
	if got := othelloSolveTime(20); got != 500*time.Millisecond {
		t.Errorf("othelloSolveTime(20) = %v, want 500ms", got)
	}
	// Up to a full board: an estimate that overflowed went negative at 55
	// empty squares, and the player then solved the opening till its time
	// was spent.
	for e := 0; e < 64; e++ {
		if othelloSolveTime(e) <= 0 || othelloSolveTime(e) > othelloSolveTime(e+1) {
			t.Errorf("othelloSolveTime(%d) = %v, othelloSolveTime(%d) = %v: want positive, not decreasing", e, othelloSolveTime(e), e+1, othelloSolveTime(e+1))
		}
	}
	if got := othelloSolveTime(60); got != othelloSolveTimeMost {
		t.Errorf("othelloSolveTime(60) = %v, want the most, %v", got, othelloSolveTimeMost)
	}
}

// BenchmarkOthelloMidgame searches the FFO problems #60-#79 (24 to 34
// empty squares) with the best player's search, to depth 8 from an empty
// table, and reports the nodes per second (one op: all twenty; a first
// search, uncounted, grows the buffers).
func BenchmarkOthelloMidgame(b *testing.B) {
	const depth = 8
	dir := sharedtest.Dir(b, "othello", "ffo")
	f, err := os.Open(filepath.Join(dir, "fforum-60-79.obf"))
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	var ps []othello.Position
	for sc := bufio.NewScanner(f); sc.Scan(); {
		if line := sc.Text(); len(strings.TrimSpace(line)) >= 66 {
			ps = append(ps, boardOthello(b, line))
		}
	}
	if len(ps) != 20 {
		b.Fatalf("%d positions in fforum-60-79.obf, want 20", len(ps))
	}
	o := DepthOptions{Depth: depth, Solve: -1, Nodes: math.MaxInt}
	s := newOthelloSearch(OthelloPatternEval, o)
	for _, p := range ps[:1] { // grows the buffers, uncounted
		if _, err := s.Search(context.Background(), p); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	var nodes int
	var spent time.Duration
	for b.Loop() {
		for _, p := range ps {
			clear(s.table)
			start := time.Now()
			res, err := s.Search(context.Background(), p)
			spent += time.Since(start)
			if err != nil || res.Depth != depth || res.Nodes == 0 {
				b.Fatalf("%v: %+v, %v; want a search to depth %d", p, res, err, depth)
			}
			nodes += res.Nodes
		}
	}
	b.ReportMetric(float64(nodes)/float64(b.N), "nodes/op")
	b.ReportMetric(float64(nodes)/spent.Seconds(), "nodes/s")
}

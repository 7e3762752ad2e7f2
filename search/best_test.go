package search_test

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/botarena/botarena/darkchess"
	"github.com/botarena/botarena/internal/longtest"
	"github.com/botarena/botarena/pdd"
	"github.com/botarena/botarena/search"
	"github.com/botarena/botarena/timer"
)

// darkChessBestGame is the start of the dark chess game (NTU2021 rules,
// dealt from PCG(0, 7)) that arena's expecti bot played against itself
// under -time none (depth 4), before it became DarkChessBestPlayer.
const darkChessBestGame = "a1-a1 c1-c1 c3-c3 a3-a3 c5-c5 a5-a5 c4-c4 c7-c7 c5-c4 d1-d1 c4-c3 b7-b7 b7-c7 d5-d5 d1-c1 d4-d4 c7-b7 d4-c4 d2-d2 c4-c3 d5-d2 b5-b5 b2-b2 c3-c4"

// pddBestGame is the course game PDDBestPlayer plays against itself at
// depth 2, with no time limit.
const pddBestGame = "Chess_0,0_1,0 Change Chess_2,0_3,0 Chess_0,1_1,1 Chess_4,0_5,0 Chess_3,1_4,1 Chess_7,0_8,0 Chess_5,1_6,1 Chess_9,0_7,1 Bridge_1,1_3,1 Bridge_5,0_7,0 Chess_8,2_8,3 Chess_5,2_5,3 Chess_8,1_9,1 Chess_3,2_4,2 Bridge_6,1_8,3 Chess_0,2_1,2 Chess_6,3_6,4 Chess_0,3_1,3 Chess_4,4_5,4 Chess_7,3_3,4 Chess_8,5_8,6 Bridge_1,2_3,2 Chess_9,5_7,6 Chess_2,5_3,5 Bridge_6,3_8,5 Chess_0,5_4,5 Chess_3,6_4,6 Bridge_4,2_3,4 Chess_1,6_2,6 Chess_0,6_0,7 Bridge_6,4_4,6 Chess_1,7_3,7 Chess_0,8_1,8 Bridge_0,3_0,5 Chess_2,8_3,8 Bridge_1,7_3,7 Chess_5,8_6,8 Chess_4,7_4,8 Chess_7,8_8,8 Chess_6,5_5,7 Bridge_7,6_5,8 Chess_9,3_7,5 Chess_1,4_2,4 Chess_9,2_9,4 Bridge_1,4_1,6 Chess_7,7_8,7 Pass Chess_9,6_9,7 Pass Chess_8,9_9,9 Pass Chess_6,9_7,9 Pass Bridge_9,7_9,9 Pass Chess_0,9_1,9 Pass Bridge_6,5_5,7"

// TestDarkChessBestPlayerReplays: two DarkChessBestPlayers at depth 4,
// with no time limit, play the plies arena's expecti bot played (the first
// 8 in the quick tier), each keeping its own side's history.
func TestDarkChessBestPlayerReplays(t *testing.T) {
	t.Parallel() // on budgets, not the clock: load changes nothing
	want := strings.Fields(darkChessBestGame)
	want = want[:longtest.Pick(8, len(want))]
	g := darkchess.NewGame(darkchess.NTU2021, rand.New(rand.NewPCG(0, 7)))
	seats := [2]darkchess.Player{search.DarkChessBestPlayer(search.DepthOptions{Depth: 4}), search.DarkChessBestPlayer(search.DepthOptions{Depth: 4})}
	for ply, w := range want {
		seat := 0
		if first := g.FirstColor(); first.Valid() && g.Turn() != first {
			seat = 1
		}
		m, err := seats[seat].Play(context.Background(), g.View(g.Turn()))
		if err != nil {
			t.Fatalf("ply %d: %v", ply, err)
		}
		if m.String() != w {
			t.Fatalf("ply %d (%s): %s, want %s", ply, g.View(g.Turn()), m, w)
		}
		if err := g.Play(m); err != nil {
			t.Fatalf("ply %d: %v", ply, err)
		}
	}
}

// TestPDDBestPlayerReplays: a PDDBestPlayer at depth 2, with no time
// limit, plays both sides of the same game again, to the end: its moves
// depend only on the position.
func TestPDDBestPlayerReplays(t *testing.T) {
	t.Parallel() // on budgets, not the clock: load changes nothing
	p := search.PDDBestPlayer(search.DepthOptions{Depth: 2})
	g := pdd.NewGame(pdd.Course)
	for i, w := range strings.Fields(pddBestGame) {
		m, err := p.Play(context.Background(), g.Position())
		if err != nil {
			t.Fatalf("move %d: %v", i, err)
		}
		if m.String() != w {
			t.Fatalf("move %d (%s): %s, want %s", i, g.Position(), m, w)
		}
		if err := g.Play(m); err != nil {
			t.Fatalf("move %d: %v", i, err)
		}
	}
	if !g.IsOver() {
		t.Errorf("the game is not over after %s", g.Position())
	}
}

// TestPDDBestPlayerKeepsTime: with no depth limit, PDDBestPlayer under
// the per-move runner's Status (a told 300 ms cap) answers within it.
func TestPDDBestPlayerKeepsTime(t *testing.T) {
	t.Parallel()
	p := pdd.Course.Start()
	rng := rand.New(rand.NewPCG(5, 6))
	for range 20 {
		moves := p.AppendLegalMoves(nil)
		p = p.PlayUnchecked(moves[rng.IntN(len(moves))])
	}
	const limit = 300 * time.Millisecond
	start := time.Now()
	ps := timer.PerMoveStatus(limit, true, start)
	ctx, cancel := context.WithDeadline(timer.WithStatus(context.Background(), ps), ps.Deadline)
	pm, err := search.PDDBestPlayer(search.DepthOptions{}).Play(ctx, p)
	took := time.Since(start)
	cancel()
	if err != nil || !p.IsLegal(pm) {
		t.Fatalf("pdd: %s, %v; want a legal move in %s", pm, err, p)
	}
	if took > limit+timeSlack {
		t.Errorf("pdd: the move took %v, want at most %v (and %v of slack)", took, limit, timeSlack)
	}
}

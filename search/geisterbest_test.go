package search

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/botarena/botarena/geister"
	"github.com/botarena/botarena/internal/longtest"
)

// TestGeisterRushPlayer: over random games against a uniform random
// player, every move of the rush is legal; it escapes whenever it can;
// otherwise, while one of its blue ghosts has a path to an exit, its move
// brings the nearest of them one move nearer.
func TestGeisterRushPlayer(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := rand.New(rand.NewPCG(7, 8))
	escapes := 0
	for game := range 40 {
		rush := GeisterRushPlayer(uint64(game))
		me := geister.Color(game & 1)
		mine, err := rush.Setup(ctx)
		if err != nil || !mine.Valid() {
			t.Fatalf("game %d: Setup = %v, %v", game, mine, err)
		}
		reds := [2]geister.Reds{geister.RedsAt(r.IntN(geister.NumReds)), geister.RedsAt(r.IntN(geister.NumReds))}
		reds[me] = mine
		start, err := geister.Start(reds[0], reds[1])
		if err != nil {
			t.Fatal(err)
		}
		g := geister.NewGame(geister.GAT, start)
		for !g.IsOver() {
			p := g.Position()
			moves := p.AppendLegalMoves(nil)
			m := moves[r.IntN(len(moves))]
			if p.Turn() == me {
				v := g.View(me)
				if m, err = rush.Play(ctx, v); err != nil {
					t.Fatalf("game %d ply %d: %v", game, p.Ply(), err)
				}
				if !v.IsLegal(m) {
					t.Fatalf("game %d: the rush played %s, illegal in %s", game, m, p)
				}
				canEscape := false
				for _, e := range moves {
					canEscape = canEscape || p.IsEscape(e)
				}
				switch {
				case canEscape:
					if !p.IsEscape(m) {
						t.Fatalf("game %d: the rush played %s, not an escape, in %s", game, m, p)
					}
					escapes++
				default:
					dist := geisterExitDistances(v)
					near := geisterUnreached
					for gh := geister.A; gh <= geister.H; gh++ {
						s := v.Square(me, gh)
						if v.GhostColor(me, gh) != geister.Blue || !s.Valid() {
							continue
						}
						for _, n := range geisterNeighbours(s) {
							if n.Valid() {
								near = min(near, dist[n]+1)
							}
						}
					}
					if near < geisterUnreached {
						if got := dist[v.Target(m)]; got != near-1 || v.GhostColor(me, m.Ghost()) != geister.Blue {
							t.Fatalf("game %d: the rush played %s to a square %d moves from leaving, want a blue ghost to one %d away, in %s", game, m, got, near-1, p)
						}
					}
				}
			}
			if err := g.Play(m); err != nil {
				t.Fatal(err)
			}
		}
	}
	if escapes == 0 {
		t.Error("the rush never escaped in 40 games against random")
	}
}

// TestGeisterBestTakesTheRunner: the opponent's ghost stands on its exit,
// our back corner, and leaves next move if it is blue; only our ghost next
// to it can take it there. Whatever its seed, even with almost no search,
// the best player takes it.
func TestGeisterBestTakesTheRunner(t *testing.T) {
	t.Parallel()
	blues := geister.RedsOf(geister.E, geister.F, geister.G, geister.H) // A-D blue
	// First's E stands at (1,5), next to the corner (0,5); Second's A on it.
	p := geisterAt(t, blues, geister.RedsOf(geister.B, geister.C, geister.D, geister.E), 20, [4]int{1, int(geister.A), 0, 5})
	v := p.View(geister.First)
	take := geister.NewMove(geister.E, geister.West)
	if !v.IsLegal(take) {
		t.Fatalf("%s is not legal in %s", take, p)
	}
	for seed := range uint64(20) {
		bot := GeisterBestPlayer(Options{Playouts: 8, Seed: seed}, 0)
		m, err := bot.Play(context.Background(), v)
		if err != nil {
			t.Fatal(err)
		}
		if m != take {
			t.Fatalf("seed %d: played %s, want %s, taking the ghost on the exit", seed, m, take)
		}
	}
}

// TestGeisterBestRunsForTheExit: our blue ghost stands one step from an
// exit that no opponent ghost can reach in time: whatever its seed, even
// with almost no search, the best player steps onto the exit, the
// quickest forced win, and escapes from it next move.
func TestGeisterBestRunsForTheExit(t *testing.T) {
	t.Parallel()
	blues := geister.RedsOf(geister.E, geister.F, geister.G, geister.H) // A-D blue
	const d, h = int(geister.D), int(geister.H)
	p := geisterAt(t, blues, geister.RedsAt(0), 10, [4]int{0, int(geister.A), 0, 1}, [4]int{1, d, 3, 2}, [4]int{1, h, 4, 3})
	v := p.View(geister.First)
	step := geister.NewMove(geister.A, geister.North)
	for seed := range uint64(20) {
		bot := GeisterBestPlayer(Options{Playouts: 8, Seed: seed}, 0)
		m, err := bot.Play(context.Background(), v)
		if err != nil {
			t.Fatal(err)
		}
		if m != step {
			t.Fatalf("seed %d: played %s, want %s onto the exit", seed, m, step)
		}
	}
}

// TestGeisterThreatSearch: a blue ghost one step from its exit, with no
// ghost of the other side able to reach the exit or the ghost in time,
// forces an escape in two moves, not in one; once a guard stands next to
// the exit, it forces none.
func TestGeisterThreatSearch(t *testing.T) {
	t.Parallel()
	blues := geister.RedsOf(geister.E, geister.F, geister.G, geister.H) // First's A-D blue
	// First's A at (0,1), one step from its exit (0,0); Second's D and H,
	// which start next to those squares, moved away.
	const d, h = int(geister.D), int(geister.H)
	away := [][4]int{{0, int(geister.A), 0, 1}, {1, d, 3, 2}, {1, h, 4, 3}}
	free := geisterAt(t, blues, geister.RedsAt(0), 10, away...)
	var s geisterThreatSearch
	if s.forces(free, 1) {
		t.Errorf("an escape in one move found in %s", free)
	}
	if !s.forces(free, 2) {
		t.Errorf("no forced escape in two moves found in %s", free)
	}
	// Second's E (red) moved to (1,0): next to the exit, it takes the
	// ghost when it gets there.
	guarded := geisterAt(t, blues, geister.RedsAt(0), 10, append(away, [4]int{1, int(geister.E), 1, 0})...)
	if s.forces(guarded, 3) {
		t.Errorf("a forced escape found in %s, where a guard stands next to the exit", guarded)
	}
}

// BenchmarkGeisterRisks: the root checks of the best player (the risks,
// then a forced win among the safest moves) over all 70 red sets, in the
// opening, with a runner of the opponent's near our back corner, and with
// two of ours near the opponent's.
func BenchmarkGeisterRisks(b *testing.B) {
	blues := geister.RedsOf(geister.E, geister.F, geister.G, geister.H)
	t := &testing.T{}
	for _, c := range []struct {
		name string
		p    geister.Position
	}{
		{"start", geisterAt(t, blues, geister.RedsAt(0), 0)},
		{"runner", geisterAt(t, blues, geister.RedsAt(0), 20, [4]int{1, int(geister.A), 0, 3}, [4]int{1, int(geister.B), 4, 3}, [4]int{0, int(geister.E), 3, 2})},
		{"ours", geisterAt(t, blues, geister.RedsAt(0), 20, [4]int{0, int(geister.A), 0, 3}, [4]int{0, int(geister.B), 5, 2}, [4]int{1, int(geister.D), 3, 2}, [4]int{1, int(geister.H), 4, 3})},
	} {
		b.Run(c.name, func(b *testing.B) {
			v := c.p.View(geister.First)
			var bel geisterBelief
			bel.reset()
			bel.observe(v)
			moves := v.AppendLegalMoves(nil)
			risk := make([]float64, len(moves))
			for b.Loop() {
				least := geisterRisks(context.Background(), v, &bel, moves, risk)
				geisterForcedWin(context.Background(), v, &bel, moves, risk, least+geisterRiskSlack)
			}
		})
	}
}

// TestGeisterRisksMemo: the risks computed with the threat searches shared
// among determinizations that colour the relevant ghosts alike are those
// of a search of every determinization, in positions of random games in
// which the ghosts run for the exits.
func TestGeisterRisksMemo(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(9, 10))
	checked, risky := 0, 0
	for game := range 30 {
		p, err := geister.Start(geister.RedsAt(r.IntN(geister.NumReds)), geister.RedsAt(r.IntN(geister.NumReds)))
		if err != nil {
			t.Fatal(err)
		}
		for !p.IsOver() && p.Ply() < 60 {
			moves := p.AppendLegalMoves(nil)
			m := moves[r.IntN(len(moves))]
			if dm, ok := geisterRushMove(p.View(p.Turn()), moves, r); ok && r.IntN(2) == 0 {
				m = dm
			}
			p = p.PlayUnchecked(m)
			if p.IsOver() || p.Ply()%3 != 0 {
				continue
			}
			v := p.View(p.Turn())
			var bel geisterBelief
			bel.reset()
			bel.observe(v)
			vm := v.AppendLegalMoves(nil)
			a, b := make([]float64, len(vm)), make([]float64, len(vm))
			geisterRisksMemo(context.Background(), v, &bel, vm, a, true)
			geisterRisksMemo(context.Background(), v, &bel, vm, b, false)
			for i := range a {
				if a[i] != b[i] {
					t.Fatalf("game %d: risk of %s in %s: %v shared, %v searched afresh", game, vm[i], p, a[i], b[i])
				}
				if a[i] > 0 {
					risky++
				}
			}
			checked++
		}
	}
	if risky == 0 {
		t.Errorf("no risky move in %d positions: the test checks nothing", checked)
	}
	t.Logf("%d positions, %d risky moves", checked, risky)
}

// geisterMatch plays games between a and b (made afresh for each game by
// the game's number), seats alternating, a first in even games, and
// returns a's wins and losses.
func geisterMatch(t *testing.T, games int, a, b func(game int) geister.Player) (wins, losses int) {
	t.Helper()
	ctx := context.Background()
	for game := range games {
		players := [2]geister.Player{a(game), b(game)}
		if game&1 == 1 {
			players[0], players[1] = players[1], players[0]
		}
		var reds [2]geister.Reds
		for i, pl := range players {
			r, err := pl.Setup(ctx)
			if err != nil {
				t.Fatal(err)
			}
			reds[i] = r
		}
		start, err := geister.Start(reds[0], reds[1])
		if err != nil {
			t.Fatal(err)
		}
		g := geister.NewGame(geister.GAT, start)
		for !g.IsOver() {
			c := g.Turn()
			m, err := players[c].Play(ctx, g.View(c))
			if err != nil {
				t.Fatal(err)
			}
			if err := g.Play(m); err != nil {
				t.Fatalf("game %d: %v", game, err)
			}
		}
		res, _ := g.Result()
		switch me := geister.Color(game & 1); {
		case res.Draw:
		case res.Winner == me:
			wins++
		default:
			losses++
		}
	}
	return wins, losses
}

// TestGeisterBestBeatsRush: 20 games at 300 playouts a move against the
// rush, seats alternating; at least 18 wins (quick tier: 2 games, both
// won). It wins all 20; the plain GeisterPlayer, which does not see the
// rush coming, wins 3 of them.
func TestGeisterBestBeatsRush(t *testing.T) {
	t.Parallel()
	games, atLeast := longtest.Pick(2, 20), longtest.Pick(2, 18)
	wins, losses := geisterMatch(t, games,
		func(game int) geister.Player { return GeisterBestPlayer(Options{Playouts: 300, Seed: uint64(game)}, 0) },
		func(game int) geister.Player { return GeisterRushPlayer(uint64(game) + 100) })
	t.Logf("%d wins, %d losses of %d", wins, losses, games)
	if wins < atLeast {
		t.Errorf("the best player won %d of %d games against the rush, want at least %d", wins, games, atLeast)
	}
}

// TestGeisterBestPlayoutLastRed: once the opponent has a single red ghost
// left, the best player's playouts rarely take one of its ghosts (it may be
// that red ghost, which wins for its owner), where the plain playouts
// mostly do; a ghost on the mover's back corner is still taken.
func TestGeisterBestPlayoutLastRed(t *testing.T) {
	t.Parallel()
	blues := geister.RedsOf(geister.E, geister.F, geister.G, geister.H) // A-D blue
	reds := geister.RedsAt(0)                                           // A-D red
	const a, b, c, d, e = int(geister.A), int(geister.B), int(geister.C), int(geister.D), int(geister.E)
	cap3 := [][4]int{{1, a, 9, 9}, {1, b, 9, 9}, {1, c, 9, 9}} // Second's A-C taken: D its last red
	// First's B (2,4) can take Second's E at (2,3) (Second's frame (3,2)).
	setup := append([][4]int{{1, e, 2, 3}}, cap3...)
	near := geisterAtSquares(t, blues, reds, 20, setup...)
	full := geisterAtSquares(t, blues, reds, 20, [4]int{1, e, 2, 3})
	r := rand.New(rand.NewPCG(7, 8))
	var buf [32]geister.Move
	count := func(p geister.Position, policy func(geister.Position, []geister.Move, *rand.Rand) geister.Move) int {
		n := 0
		for range 1000 {
			if _, _, ok := p.Captures(policy(p, p.AppendLegalMoves(buf[:0]), r)); ok {
				n++
			}
		}
		return n
	}
	if got := count(near, geisterBestPlayout); got > 50 {
		t.Errorf("with the opponent's last red ghost on the board the playouts took a ghost %d times in 1000, want at most 50", got)
	}
	if got := count(full, geisterBestPlayout); got < 200 {
		t.Errorf("with four red ghosts on the board the playouts took a ghost %d times in 1000, want at least 200", got)
	}
	// Second's E on First's back corner (0,5), which First's A on (0,4)
	// can take (First's E moved out of the way).
	corner := geisterAtSquares(t, blues, reds, 20, append([][4]int{{1, e, 0, 5}, {0, int(geister.E), 1, 3}, {0, a, 0, 4}}, cap3...)...)
	if got := count(corner, geisterBestPlayout); got < 990 {
		t.Errorf("a ghost on the back corner was taken %d times in 1000, want nearly always", got)
	}
}

// geisterAtSquares is geisterAt with a square 9,9 meaning captured.
func geisterAtSquares(t *testing.T, first, second geister.Reds, ply int, moves ...[4]int) geister.Position {
	t.Helper()
	s := geister.StartSetup(first, second)
	for _, m := range moves {
		sq := geister.SquareAt(m[2], m[3])
		if m[2] == 9 {
			sq = geister.Captured
		}
		s.Ghosts[m[0]][m[1]] = sq
	}
	s.Ply = ply
	p, err := geister.NewPosition(s)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestGeisterRisksLastRed: the risk of taking a ghost that may be the
// opponent's last red ghost (which loses at once) follows the belief
// itself: high for a ghost the belief holds for red, low for one it holds
// for blue, the least odds the threats get notwithstanding.
func TestGeisterRisksLastRed(t *testing.T) {
	t.Parallel()
	blues := geister.RedsOf(geister.E, geister.F, geister.G, geister.H) // First's A-D blue
	const a, b, c, d = int(geister.A), int(geister.B), int(geister.C), int(geister.D)
	// Second (A-D red) has lost A-C: D is its last red, on (2,3) next to
	// First's B on (2,4). First's back corners are free of threats.
	pos := func(ply int) geister.Position {
		return geisterAtSquares(t, blues, geister.RedsAt(0), ply, [4]int{1, a, 9, 9}, [4]int{1, b, 9, 9}, [4]int{1, c, 9, 9}, [4]int{1, d, 2, 3})
	}
	take := geister.NewMove(geister.B, geister.North)
	for _, tc := range []struct {
		odds     float64 // the belief's odds that Second's D is blue
		min, max float64 // the bounds of the capture's risk
	}{
		{1.0 / 16, 0.7, 1},
		{16, 0, 0.1},
	} {
		var bel geisterBelief
		bel.reset()
		bel.observe(pos(20).View(geister.First))
		bel.blueOdds[d] = tc.odds
		v := pos(22).View(geister.First)
		bel.observe(v) // no ghost moved: the odds stay
		moves := v.AppendLegalMoves(nil)
		risk := make([]float64, len(moves))
		geisterRisks(context.Background(), v, &bel, moves, risk)
		found := false
		for i, m := range moves {
			if m == take {
				found = true
				if risk[i] < tc.min || risk[i] > tc.max {
					t.Errorf("blue odds %v of the last red's candidate: the capture's risk is %.3f, want it in [%v, %v]", tc.odds, risk[i], tc.min, tc.max)
				}
			}
		}
		if !found {
			t.Fatalf("the capture %s is not legal in %s", take, v)
		}
	}
}

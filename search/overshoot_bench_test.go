package search_test

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/botarena/botarena/darkchess"
	"github.com/botarena/botarena/geister"
	"github.com/botarena/botarena/othello"
	"github.com/botarena/botarena/pdd"
	"github.com/botarena/botarena/search"
	"github.com/botarena/botarena/timer"
)

// overshootCap is the per-move cap of BenchmarkOvershoot's plies.
const overshootCap = 100 * time.Millisecond

// overshootPlies is the number of plies of one iteration of
// BenchmarkOvershoot, each about half the cap long.
const overshootPlies = 2

// BenchmarkOvershoot measures how far past its hard limit each search
// player answers. Every ply is a fresh player's first, on one of a few
// fixed positions of its game (reached by seeded random play), under a
// per-move cap of 100 ms told as a [timer.Status] on the context, whose
// deadline is the cap. The hard limit is what a fresh [timer.Manager]
// allots that Status, as the player's own does on its first ply: the cap
// less the default latency margin, less the slack the Manager keeps back.
// An iteration plays two plies, about 100 ms in all.
//
// It reports the overshoot past the hard limit (0 for an answer before
// it) at the median, the 99th percentile and the worst, in milliseconds
// (p50-over-ms, p99-over-ms, max-over-ms), the median signed lateness
// (p50-late-ms, negative for an answer before the hard limit) and the
// median think time from the ply's start to the answer (p50-think-ms). An
// illegal move or an error fails it.
//
// Run it quiet with
//
//	go test ./search -run '^$' -bench Overshoot -benchtime 50x
//
// and loaded, with two busy loops beside it, killed afterwards:
//
//	for i in 1 2; do (while :; do :; done) & done
//	go test ./search -run '^$' -bench Overshoot -benchtime 50x
//	kill %1 %2
func BenchmarkOvershoot(b *testing.B) {
	othellos := overshootOthello()
	pdds := overshootPDD()
	darks := overshootDarkChess()
	ghosts := overshootGeister()

	othelloPly := func(mk func(k int) othello.Player) func(k int) overshootPly {
		return func(k int) overshootPly {
			p, pl := othellos[k], mk(k)
			return func(ctx context.Context) error {
				m, err := pl.Play(ctx, p)
				return overshootCheck(err, p.IsLegal(m), m)
			}
		}
	}
	pddPly := func(mk func(k int) pdd.Player) func(k int) overshootPly {
		return func(k int) overshootPly {
			p, pl := pdds[k], mk(k)
			return func(ctx context.Context) error {
				m, err := pl.Play(ctx, p)
				return overshootCheck(err, p.IsLegal(m), m)
			}
		}
	}
	dark := func(mk func(k int) darkchess.Player) func(k int) overshootPly {
		return func(k int) overshootPly {
			v, pl := darks[k], mk(k)
			return func(ctx context.Context) error {
				m, err := pl.Play(ctx, v)
				return overshootCheck(err, v.IsLegal(m), m)
			}
		}
	}
	ghost := func(mk func(k int) geister.Player) func(k int) overshootPly {
		return func(k int) overshootPly {
			v, pl := ghosts[k], mk(k)
			return func(ctx context.Context) error {
				m, err := pl.Play(ctx, v)
				return overshootCheck(err, v.IsLegal(m), m)
			}
		}
	}
	seed := func(k int) search.Options { return search.Options{Seed: uint64(k) + 1} }
	for _, c := range []struct {
		name string
		n    int
		ply  func(k int) overshootPly
	}{
		{"OthelloMCTS", len(othellos), othelloPly(func(k int) othello.Player { return search.OthelloPlayer(seed(k)) })},
		{"OthelloAlphaBeta", len(othellos), othelloPly(func(int) othello.Player { return search.OthelloAlphaBetaPlayer(search.DepthOptions{}) })},
		{"OthelloBest", len(othellos), othelloPly(func(int) othello.Player { return search.OthelloBestPlayer(search.DepthOptions{}) })},
		{"PDDMCTS", len(pdds), pddPly(func(k int) pdd.Player { return search.PDDPlayer(seed(k)) })},
		{"PDDBest", len(pdds), pddPly(func(int) pdd.Player { return search.PDDBestPlayer(search.DepthOptions{}) })},
		{"DarkChessMCTS", len(darks), dark(func(k int) darkchess.Player { return search.DarkChessPlayer(seed(k)) })},
		{"DarkChessExpectimax", len(darks), dark(func(int) darkchess.Player { return search.DarkChessExpectimaxPlayer(search.DepthOptions{}) })},
		{"DarkChessBest", len(darks), dark(func(int) darkchess.Player { return search.DarkChessBestPlayer(search.DepthOptions{}) })},
		{"GeisterISMCTS", len(ghosts), ghost(func(k int) geister.Player { return search.GeisterPlayer(seed(k), 0) })},
		{"GeisterBest", len(ghosts), ghost(func(k int) geister.Player { return search.GeisterBestPlayer(seed(k), 0) })},
	} {
		b.Run(c.name, func(b *testing.B) { benchOvershoot(b, c.n, c.ply) })
	}
}

// overshootPly plays one ply of a player made for it on ctx; it returns
// the player's error, or one naming an illegal move.
type overshootPly func(ctx context.Context) error

// overshootCheck returns err, or an error naming m when it is not legal.
func overshootCheck(err error, legal bool, m fmt.Stringer) error {
	if err != nil {
		return err
	}
	if !legal {
		return fmt.Errorf("illegal move %s", m)
	}
	return nil
}

// benchOvershoot runs BenchmarkOvershoot for one player: n positions,
// taken in turn, and ply(k), which makes a fresh player for position k
// and returns its ply.
func benchOvershoot(b *testing.B, n int, ply func(k int) overshootPly) {
	var late, think []time.Duration
	next := 0
	for b.Loop() {
		for range overshootPlies {
			k := next % n
			next++
			play := ply(k)
			start := time.Now()
			s := timer.PerMoveStatus(overshootCap, true, start)
			ctx, cancel := context.WithDeadline(timer.WithStatus(context.Background(), s), s.Deadline)
			err := play(ctx)
			at := time.Now()
			cancel()
			if err != nil {
				b.Errorf("position %d: %v", k, err)
			}
			var tm timer.Manager
			bud := tm.Allot(s)
			late = append(late, at.Sub(bud.HardAt()))
			think = append(think, at.Sub(start))
		}
	}
	if len(late) == 0 {
		return
	}
	slices.Sort(late)
	slices.Sort(think)
	over := func(d time.Duration) float64 { return overshootMS(max(d, 0)) }
	b.ReportMetric(over(overshootQuantile(late, 0.5)), "p50-over-ms")
	b.ReportMetric(over(overshootQuantile(late, 0.99)), "p99-over-ms")
	b.ReportMetric(over(late[len(late)-1]), "max-over-ms")
	b.ReportMetric(overshootMS(overshootQuantile(late, 0.5)), "p50-late-ms")
	b.ReportMetric(overshootMS(overshootQuantile(think, 0.5)), "p50-think-ms")
}

// overshootQuantile returns the q-quantile of the sorted, non-empty ds, by
// nearest rank.
func overshootQuantile(ds []time.Duration, q float64) time.Duration {
	i := int(math.Ceil(q*float64(len(ds)))) - 1
	return ds[min(max(i, 0), len(ds)-1)]
}

// overshootMS returns d in milliseconds.
func overshootMS(d time.Duration) float64 {
	return float64(d) / float64(time.Millisecond)
}

// overshootRandom plays seeded uniform random moves from start until
// done reports the position reached, starting over whenever a game ends
// first. It returns positions where the side to move has at least two
// moves.
func overshootRandom[P any, M any](seed uint64, start func(*rand.Rand) P, moves func(P) []M, play func(P, M) P, done func(P, int) bool) P {
	r := rand.New(rand.NewPCG(seed, 0x0E5))
	for {
		p := start(r)
		for ply := 0; ; ply++ {
			ms := moves(p)
			if len(ms) == 0 {
				break
			}
			if done(p, ply) {
				if len(ms) >= 2 {
					return p
				}
				break
			}
			p = play(p, ms[r.IntN(len(ms))])
		}
	}
}

// overshootOthello returns Othello midgame positions, 36 to 24 squares
// empty.
func overshootOthello() []othello.Position {
	var ps []othello.Position
	for i, empty := range []int{36, 30, 24} {
		ps = append(ps, overshootRandom(uint64(i)+1,
			func(*rand.Rand) othello.Position { return othello.Standard.Start },
			func(p othello.Position) []othello.Move { return p.AppendLegalMoves(nil) },
			othello.Position.PlayUnchecked,
			func(p othello.Position, _ int) bool { return p.Empty().Count() <= empty }))
	}
	return ps
}

// overshootPDD returns PDD positions of the course rules some random plies
// into a game, from the opening, whose playouts are the longest, to the
// midgame.
func overshootPDD() []pdd.Position {
	var ps []pdd.Position
	for i, plies := range []int{2, 12, 24} {
		ps = append(ps, overshootRandom(uint64(i)+1,
			func(*rand.Rand) pdd.Position { return pdd.Course.Start() },
			func(p pdd.Position) []pdd.Move {
				if p.IsOver() {
					return nil
				}
				return p.AppendLegalMoves(nil)
			},
			pdd.Position.PlayUnchecked,
			func(_ pdd.Position, ply int) bool { return ply >= plies }))
	}
	return ps
}

// overshootDarkChess returns views, for the side to move, of dealt dark
// chess games some random plies in, with pieces of both sides face up.
func overshootDarkChess() []darkchess.View {
	var vs []darkchess.View
	for i, plies := range []int{20, 28, 40} {
		p := overshootRandom(uint64(i)+1,
			func(r *rand.Rand) darkchess.Position { return darkchess.Opening.Deal(r) },
			func(p darkchess.Position) []darkchess.Move {
				if p.IsOver() {
					return nil
				}
				return p.AppendLegalMoves(nil)
			},
			darkchess.Position.PlayUnchecked,
			func(p darkchess.Position, ply int) bool {
				return ply >= plies && p.Revealed(darkchess.Red).Count() >= 3 && p.Revealed(darkchess.Black).Count() >= 3
			})
		vs = append(vs, p.View(p.Turn()))
	}
	return vs
}

// overshootGeister returns views, for the side to move, of Geister games
// dealt at random some random plies in.
func overshootGeister() []geister.View {
	var vs []geister.View
	for i, plies := range []int{10, 20, 30} {
		p := overshootRandom(uint64(i)+1,
			func(r *rand.Rand) geister.Position {
				// RedsAt gives valid red sets, so Start cannot fail.
				p, _ := geister.Start(geister.RedsAt(r.IntN(geister.NumReds)), geister.RedsAt(r.IntN(geister.NumReds)))
				return p
			},
			func(p geister.Position) []geister.Move {
				if p.IsOver() {
					return nil
				}
				return p.AppendLegalMoves(nil)
			},
			geister.Position.PlayUnchecked,
			func(_ geister.Position, ply int) bool { return ply >= plies })
		vs = append(vs, p.View(p.Turn()))
	}
	return vs
}

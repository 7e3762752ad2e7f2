package othello

import (
	"math/bits"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/botarena/botarena/othello/internal/movegen"
)

// Convention is a perft counting convention. The two differ only in how a game
// that ends before the requested depth counts.
type Convention uint8

const (
	// Strict (Edax, PanicSheep; the default) counts a finished game as 0 at
	// every deeper depth. A forced pass is one ply.
	Strict Convention = iota
	// Bik (Aart Bik 2009, Egaroucid, magpie) counts a finished game as 1 at
	// every deeper depth. A forced pass is one ply.
	Bik
)

// String returns "strict" or "bik".
func (c Convention) String() string {
	if c == Bik {
		return "bik"
	}
	return "strict"
}

// Perft counts the leaves of the game tree of p to the given depth in the
// [Strict] convention: perft(p, 0) = 1; a forced pass is one ply; a game that
// ends before depth counts 0. A negative depth counts 0. It does not allocate.
func Perft(p Position, depth int) uint64 { return perft(p, depth, Strict) }

// PerftBik counts like [Perft] in the [Bik] convention: a game that ends before
// depth counts 1.
func PerftBik(p Position, depth int) uint64 { return perft(p, depth, Bik) }

func perft(p Position, depth int, c Convention) uint64 {
	return perftBy(p, depth, c, bestKernel)
}

// kernel names an implementation of perft's last plies: leaves (the last
// two) and perft3 (the last three). Each processor runs the pure-Go one;
// bestKernel is the fastest it runs.
type kernel uint8

const (
	kernelGo     kernel = iota // leaves and perft3, in Go
	kernelAVX2                 // perft3AVX2: amd64 with AVX2, BMI1/2 and POPCNT
	kernelAVX512               // leavesAVX512 and perft3AVX512: amd64 with AVX-512, VBMI2 and VPOPCNTDQ
)

// perftBy is perft with the given kernel, which the processor must run.
func perftBy(p Position, depth int, c Convention, k kernel) uint64 {
	if depth < 0 {
		return 0
	}
	if depth == 0 {
		return 1
	}
	P, O := p.players()
	return perftArea(P, O, depth, p.area(), c == Bik, k)
}

// perftArea counts the leaves below (P to move, O) at depth >= 1 on the
// board made of the squares of area (mask8x8 or mask6x6), in the Bik
// convention if bik, else strict. The last two plies go to leaves, and with
// an assembly kernel k the last three to its perft3, which does the same as
// the Go recursion.
func perftArea(P, O uint64, depth int, area uint64, bik bool, k kernel) uint64 {
	moves := legalMoves(P, O) & area
	if moves == 0 {
		if depth == 1 && bik {
			return 1
		}
		moves = legalMoves(O, P) & area
		if moves == 0 { // game over
			if bik {
				return 1
			}
			return 0
		}
		if depth == 1 {
			return 1
		}
		P, O, depth = O, P, depth-1 // pass
	}
	if depth == 1 {
		return uint64(bits.OnesCount64(moves))
	}
	if depth == 2 {
		return leavesBy(k, P, O, moves, area, bik)
	}
	if depth == 3 && k != kernelGo {
		return perft3By(k, P, O, moves, area, bik)
	}
	var n uint64
	for moves != 0 {
		sq := bits.TrailingZeros64(moves)
		moves &= moves - 1
		f := flips(sq, P, O)
		n += perftArea(O^f, P|f|1<<uint(sq), depth-1, area, bik, k)
	}
	return n
}

// leaves returns perft(child, 1) summed over the children of (P, O) reached
// by moves: the last two plies of a perft, where nearly all the time goes.
// For each move it computes the child and counts the child's moves, with
// the bodies of movegen.Flips and movegen.Gen written out (the compiler
// inlines neither; the helpers they call do inline). inner must be
// innerCols (see movegen.Gen).
func leaves(P, O, moves, area, inner uint64, bik bool) uint64 {
	var n uint64
	for moves != 0 {
		sq := bits.TrailingZeros64(moves) & 63
		moves &= moves - 1
		// f := flips(sq, P, O)
		r := movegen.Rays(sq)
		b := uint64(1) << uint(sq)
		f := movegen.FlipUp(r[0], b<<1, P, O) | movegen.FlipUp(r[1], b<<7, P, O) |
			movegen.FlipUp(r[2], b<<8, P, O) | movegen.FlipUp(r[3], b<<9, P, O) |
			movegen.FlipDown(r[4], P, O) | movegen.FlipDown(r[5], P, O) |
			movegen.FlipDown(r[6], P, O) | movegen.FlipDown(r[7], P, O)
		cP, cO := O^f, P|f|b
		// m := movegen.Gen(cP, cO, inner) & area
		mO := cO & inner
		p8, p7, p9 := cO&(cO<<8), mO&(mO<<7), mO&(mO<<9)
		m := (movegen.East(cP, mO) | movegen.West(cP, mO) |
			movegen.Up(cP, cO, p8, 8) | movegen.Down(cP, cO, p8, 8) |
			movegen.Up(cP, mO, p7, 7) | movegen.Down(cP, mO, p7, 7) |
			movegen.Up(cP, mO, p9, 9) | movegen.Down(cP, mO, p9, 9)) &^ (cP | cO) & area
		if m == 0 { // rare: the child must pass, or the game is over
			if bik || legalMoves(cO, cP)&area != 0 {
				n++
			}
			continue
		}
		n += uint64(bits.OnesCount64(m))
	}
	return n
}

// perft3 returns the sum of perftArea(child, 2) over the children of (P, O)
// by moves, in Go: what the assembly kernels' perft3 compute.
func perft3(P, O, moves, area uint64, bik bool) uint64 {
	var n uint64
	for moves != 0 {
		sq := bits.TrailingZeros64(moves)
		moves &= moves - 1
		f := flips(sq, P, O)
		n += perftArea(O^f, P|f|1<<uint(sq), 2, area, bik, kernelGo)
	}
	return n
}

// MoveCount is one line of [Divide]: a first move and the leaves below it.
type MoveCount struct {
	Move   Move
	Leaves uint64
}

// Divide splits the perft count of p at depth (in convention c) by first move,
// in the order of [Position.AppendLegalMoves]; a forced pass is its own line.
// The counts add up to the perft count, except at a finished position, which
// has no moves and so no lines. Depth below 1 gives no lines.
func Divide(p Position, depth int, c Convention) []MoveCount {
	if depth < 1 {
		return nil
	}
	var buf [64]Move
	var out []MoveCount
	for _, m := range p.AppendLegalMoves(buf[:0]) {
		out = append(out, MoveCount{m, perft(p.PlayUnchecked(m), depth-1, c)})
	}
	return out
}

// ParallelPerft counts like [Perft] or [PerftBik] (per c) on workers
// goroutines; workers < 1 means one per CPU (runtime.GOMAXPROCS). It splits
// the tree a few plies down into many tasks, so the cores stay busy to the
// end.
func ParallelPerft(p Position, depth int, c Convention, workers int) uint64 {
	if workers < 1 {
		workers = runtime.GOMAXPROCS(0)
	}
	if workers == 1 || depth < 5 {
		return perft(p, depth, c)
	}
	// Split the tree a ply at a time, until there are about 32 tasks per
	// worker or only 4 plies are left below.
	tasks := []Position{p}
	var total uint64
	split := 0
	var buf [64]Move
	for ; split < depth-4 && len(tasks) < 32*workers; split++ {
		var level []Position
		for _, q := range tasks {
			moves := q.AppendLegalMoves(buf[:0])
			if len(moves) == 0 { // game over above the leaves
				if c == Bik {
					total++
				}
				continue
			}
			for _, m := range moves {
				level = append(level, q.PlayUnchecked(m))
			}
		}
		tasks = level
	}
	var next atomic.Int64
	var sum atomic.Uint64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			var local uint64
			for {
				i := next.Add(1) - 1
				if i >= int64(len(tasks)) {
					break
				}
				local += perft(tasks[i], depth-split, c)
			}
			sum.Add(local)
		})
	}
	wg.Wait()
	return total + sum.Load()
}

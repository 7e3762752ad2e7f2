package othello

import (
	"math/bits"
	"runtime"
	"sync"
	"sync/atomic"
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
	if depth < 0 {
		return 0
	}
	if depth == 0 {
		return 1
	}
	P, O := p.players()
	if p.small {
		return perftMasked(P, O, mask6x6, depth, c == Bik)
	}
	if c == Bik {
		return perftBik8(P, O, depth)
	}
	return perftStrict8(P, O, depth)
}

// perftStrict8 is the strict count on the 8x8 board, depth >= 1.
func perftStrict8(P, O uint64, depth int) uint64 {
	moves := legalMoves(P, O)
	if moves == 0 {
		if legalMoves(O, P) == 0 {
			return 0
		}
		if depth == 1 {
			return 1
		}
		return perftStrict8(O, P, depth-1)
	}
	if depth == 1 {
		return uint64(bits.OnesCount64(moves))
	}
	var n uint64
	for moves != 0 {
		sq := bits.TrailingZeros64(moves)
		moves &= moves - 1
		f := flips(sq, P, O)
		n += perftStrict8(O^f, P|f|1<<uint(sq), depth-1)
	}
	return n
}

// perftBik8 is the Bik count on the 8x8 board, depth >= 1.
func perftBik8(P, O uint64, depth int) uint64 {
	moves := legalMoves(P, O)
	if moves == 0 {
		if depth == 1 || legalMoves(O, P) == 0 {
			return 1
		}
		return perftBik8(O, P, depth-1)
	}
	if depth == 1 {
		return uint64(bits.OnesCount64(moves))
	}
	var n uint64
	for moves != 0 {
		sq := bits.TrailingZeros64(moves)
		moves &= moves - 1
		f := flips(sq, P, O)
		n += perftBik8(O^f, P|f|1<<uint(sq), depth-1)
	}
	return n
}

// perftMasked counts on a board restricted to area (the 6x6 board), depth >= 1.
func perftMasked(P, O, area uint64, depth int, bik bool) uint64 {
	moves := legalMoves(P, O) & area
	if moves == 0 {
		if legalMoves(O, P)&area == 0 {
			if bik {
				return 1
			}
			return 0
		}
		if depth == 1 {
			return 1
		}
		return perftMasked(O, P, area, depth-1, bik)
	}
	if depth == 1 {
		return uint64(bits.OnesCount64(moves))
	}
	var n uint64
	for moves != 0 {
		sq := bits.TrailingZeros64(moves)
		moves &= moves - 1
		f := flips(sq, P, O)
		n += perftMasked(O^f, P|f|1<<uint(sq), area, depth-1, bik)
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
	// Split deep enough for ~16 tasks per worker, but leave real work below.
	split := 0
	for n := 1; n < 16*workers && split < depth-4; split++ {
		n *= 10
	}
	if split == 0 || workers == 1 {
		return perft(p, depth, c)
	}
	var tasks []Position
	var total uint64
	var expand func(q Position, d int)
	expand = func(q Position, d int) {
		if d == 0 {
			tasks = append(tasks, q)
			return
		}
		var buf [64]Move
		moves := q.AppendLegalMoves(buf[:0])
		if len(moves) == 0 { // game over above the leaves
			if c == Bik {
				total++
			}
			return
		}
		for _, m := range moves {
			expand(q.PlayUnchecked(m), d-1)
		}
	}
	expand(p, split)
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

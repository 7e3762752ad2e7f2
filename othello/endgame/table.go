package endgame

// entry is what the table knows of a position (P to move): the bounds of
// its exact score, the best move found there, and the number of empty
// squares (the worth of the entry).
type entry struct {
	lower, upper int8
	move         uint8 // the best move's square + 1, or 0
	empties      uint8
}

// bucketSlots is the number of positions a bucket of the table holds.
const bucketSlots = 3

// bucket is a set of slots of the table, 64 bytes: one cache line, which
// a probe reads at one memory access when the table is aligned to 64 bytes
// (a table of more than 32 KiB is: it has pages of its own). A slot keeps
// the whole position, so a probe never mistakes one position for another.
// P = O = 0, a board without discs that no search meets, marks an empty
// slot.
type bucket struct {
	keys [bucketSlots][2]uint64 // P, O
	e    [bucketSlots]entry
	_    [64 - bucketSlots*20]byte
}

// table is a transposition table of fixed size: the search never
// allocates. As the bounds are of the exact score, which the position
// alone decides, entries stay true from one search to the next.
type table struct {
	buckets []bucket
	mask    uint64
}

// newTable returns a table of at most size slots (at least one bucket):
// the greatest power of two of buckets that fits.
func newTable(size int) table {
	n := 1
	for n*2*bucketSlots <= size {
		n *= 2
	}
	return table{buckets: make([]bucket, n), mask: uint64(n - 1)}
}

func hash(P, O uint64) uint64 {
	h := P*0x9E3779B97F4A7C15 ^ (O+0x632BE59BD9B4E019)*0xC2B2AE3D27D4EB4F
	return h ^ h>>29
}

// probe returns the entry of (P, O), or nil.
func (t *table) probe(P, O uint64) *entry {
	b := &t.buckets[hash(P, O)&t.mask]
	for i := range bucketSlots {
		if b.keys[i][0] == P && b.keys[i][1] == O {
			return &b.e[i]
		}
	}
	return nil
}

// store records that a search of (P, O) with empties empty squares and
// the window (alpha, beta) returned v (fail-soft), with best move sq (or
// -1). A new position takes the slot of the fewest empty squares: the
// least work lost.
func (t *table) store(P, O uint64, empties, alpha, beta, v, sq int) {
	lower, upper := int8(-64), int8(64)
	if v < beta {
		upper = int8(v)
	}
	if v > alpha {
		lower = int8(v)
	}
	b := &t.buckets[hash(P, O)&t.mask]
	k := 0
	for i := range bucketSlots {
		if b.keys[i][0] == P && b.keys[i][1] == O {
			e := &b.e[i]
			e.lower, e.upper = max(e.lower, lower), min(e.upper, upper)
			if sq >= 0 {
				e.move = uint8(sq + 1)
			}
			return
		}
		if b.e[i].empties < b.e[k].empties {
			k = i
		}
	}
	b.keys[k] = [2]uint64{P, O}
	b.e[k] = entry{lower: lower, upper: upper, move: uint8(sq + 1), empties: uint8(empties)}
}

func (t *table) clear() { clear(t.buckets) }

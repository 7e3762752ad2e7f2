package endgame

// entry is a slot of the transposition table: the bounds of the exact
// score of the position (P to move), the best move found there, and the
// number of empty squares (the worth of the entry). P = O = 0, a board
// without discs that no search meets, marks an empty slot.
type entry struct {
	P, O         uint64
	lower, upper int8
	move         uint8 // the best move's square + 1, or 0
	empties      uint8
}

// table is a transposition table of two-slot buckets, of fixed size: the
// search never allocates. A slot keeps whole positions, so a probe never
// mistakes one position for another, and as the bounds are of the exact
// score, which the position alone decides, entries stay true from one
// search to the next.
type table struct {
	slots []entry
	mask  uint64 // index mask of the buckets' first slots
}

func newTable(size int) table {
	n := 2
	for n*2 <= size {
		n *= 2
	}
	return table{slots: make([]entry, n), mask: uint64(n-1) &^ 1}
}

func hash(P, O uint64) uint64 {
	h := P*0x9E3779B97F4A7C15 ^ (O+0x632BE59BD9B4E019)*0xC2B2AE3D27D4EB4F
	return h ^ h>>29
}

// probe returns the entry of (P, O), or nil.
func (t *table) probe(P, O uint64) *entry {
	i := hash(P, O) & t.mask
	b := t.slots[i : i+2 : i+2]
	if b[0].P == P && b[0].O == O {
		return &b[0]
	}
	if b[1].P == P && b[1].O == O {
		return &b[1]
	}
	return nil
}

// store records that a search of (P, O) with empties empty squares and
// the window (alpha, beta) returned v (fail-soft), with best move sq (or
// -1). The first slot of a bucket keeps the search of the most empty
// squares, the second the latest.
func (t *table) store(P, O uint64, empties, alpha, beta, v, sq int) {
	lower, upper := int8(-64), int8(64)
	if v < beta {
		upper = int8(v)
	}
	if v > alpha {
		lower = int8(v)
	}
	i := hash(P, O) & t.mask
	b := t.slots[i : i+2 : i+2]
	var e *entry
	switch {
	case b[0].P == P && b[0].O == O:
		e = &b[0]
	case b[1].P == P && b[1].O == O:
		e = &b[1]
	}
	if e != nil {
		e.lower, e.upper = max(e.lower, lower), min(e.upper, upper)
		if sq >= 0 {
			e.move = uint8(sq + 1)
		}
		return
	}
	e = &b[1]
	if int(b[0].empties) <= empties {
		b[1] = b[0]
		e = &b[0]
	}
	*e = entry{P: P, O: O, lower: lower, upper: upper, move: uint8(sq + 1), empties: uint8(empties)}
}

func (t *table) clear() { clear(t.slots) }

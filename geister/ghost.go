package geister

import (
	"iter"
	"math/bits"
)

// Ghost names one of a player's eight ghosts, [A] to [H]. The names never
// change during a game. When both sides are drawn on one board the second
// player's ghosts are written in lower case.
type Ghost uint8

// The eight ghosts of each side.
const (
	A Ghost = iota
	B
	C
	D
	E
	F
	G
	H
)

// Valid reports whether g is one of [A] to [H].
func (g Ghost) Valid() bool { return g <= H }

// String returns the ghost's letter, "A" to "H", or "?" for a value that is
// not a ghost.
func (g Ghost) String() string {
	if !g.Valid() {
		return "?"
	}
	return string(rune('A' + g))
}

// GhostColor is the colour of a ghost: [Red], [Blue], or [Unknown] in a [View]
// for an opponent ghost still on the board.
type GhostColor uint8

// The ghost colours.
const (
	Unknown GhostColor = iota
	Red
	Blue
)

// String returns "red", "blue" or "unknown".
func (c GhostColor) String() string {
	switch c {
	case Red:
		return "red"
	case Blue:
		return "blue"
	}
	return "unknown"
}

// Reds is a set of ghosts, bit g for ghost g: the red ghosts a player chooses
// before play. A valid set has exactly four ghosts; the other four are blue.
// The zero value is the empty set, which is not valid.
//
// The 70 valid sets are numbered 0..69 in lexicographic order of their letters
// written in ascending order (ABCD = 0, ABCE = 1, ..., EFGH = 69); see [RedsAt]
// and [Reds.Index].
type Reds uint8

// NumReds is the number of valid red sets, C(8,4).
const NumReds = 70

// redsTable lists the valid sets in index order; redsIndex maps a set back to
// its index, or -1 for a set that is not valid.
var redsTable, redsIndex = func() (t [NumReds]Reds, idx [256]int8) {
	for i := range idx {
		idx[i] = -1
	}
	n := 0
	for a := range 8 {
		for b := a + 1; b < 8; b++ {
			for c := b + 1; c < 8; c++ {
				for d := c + 1; d < 8; d++ {
					r := Reds(1<<a | 1<<b | 1<<c | 1<<d)
					t[n], idx[r] = r, int8(n)
					n++
				}
			}
		}
	}
	return t, idx
}()

// RedsAt returns the red set numbered i (0..69), or the empty, invalid set
// if i is out of range.
func RedsAt(i int) Reds {
	if i < 0 || i >= NumReds {
		return 0
	}
	return redsTable[i]
}

// AllReds yields the 70 valid red sets with their numbers, in order.
func AllReds() iter.Seq2[int, Reds] {
	return func(yield func(int, Reds) bool) {
		for i, r := range redsTable {
			if !yield(i, r) {
				return
			}
		}
	}
}

// RedsOf returns the set of the given ghosts. Values that are not ghosts are
// ignored.
func RedsOf(ghosts ...Ghost) Reds {
	var r Reds
	for _, g := range ghosts {
		if g.Valid() {
			r |= 1 << g
		}
	}
	return r
}

// Index returns the number of r (0..69), or -1 if r is not a valid set.
func (r Reds) Index() int { return int(redsIndex[r]) }

// Valid reports whether r holds exactly four ghosts.
func (r Reds) Valid() bool { return bits.OnesCount8(uint8(r)) == 4 }

// Has reports whether g is in r.
func (r Reds) Has(g Ghost) bool { return g.Valid() && r>>g&1 != 0 }

// Count returns the number of ghosts in r.
func (r Reds) Count() int { return bits.OnesCount8(uint8(r)) }

// Complement returns the ghosts not in r: the blue ghosts of a red set.
func (r Reds) Complement() Reds { return ^r }

// String returns the letters of r in ascending order ("BCDE"), as the SET:
// command writes them; the empty set is "-".
func (r Reds) String() string {
	if r == 0 {
		return "-"
	}
	b := make([]byte, 0, 8)
	for g := A; g <= H; g++ {
		if r.Has(g) {
			b = append(b, byte('A'+g))
		}
	}
	return string(b)
}

// AppendText appends [Reds.String] to b. It fails for a set that is not valid.
func (r Reds) AppendText(b []byte) ([]byte, error) {
	if !r.Valid() {
		return b, errInvalidReds
	}
	return append(b, r.String()...), nil
}

// MarshalText returns [Reds.String]. It fails for a set that is not valid.
func (r Reds) MarshalText() ([]byte, error) { return r.AppendText(nil) }

// UnmarshalText sets r to the set [ParseReds] reads from text.
func (r *Reds) UnmarshalText(text []byte) error {
	v, err := ParseReds(string(text))
	if err != nil {
		return err
	}
	*r = v
	return nil
}

// ParseReds reads a red set: four distinct letters A-H in any order and either
// case ("BCDE", "edcb"), optionally after the wire's "SET:" prefix (also in
// any case). It accepts nothing else: not three letters nor five, not a
// letter twice.
func ParseReds(text string) (Reds, error) {
	s, off := text, 0
	if hasPrefixFold(s, "SET:") {
		s, off = s[4:], 4
	}
	var r Reds
	for i := 0; i < len(s); i++ {
		c := s[i] &^ 0x20
		if c < 'A' || c > 'H' {
			return 0, &SyntaxError{Input: text, Offset: off + i, Msg: "a red ghost is a letter A-H"}
		}
		if i == 4 {
			return 0, &SyntaxError{Input: text, Offset: off + i, Msg: "too many letters: a red set has 4"}
		}
		g := Ghost(c - 'A')
		if r.Has(g) {
			return 0, &SyntaxError{Input: text, Offset: off + i, Msg: "ghost " + g.String() + " named twice"}
		}
		r |= 1 << g
	}
	if r.Count() != 4 {
		return 0, &SyntaxError{Input: text, Offset: len(text), Msg: "a red set has 4 letters"}
	}
	return r, nil
}

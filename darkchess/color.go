package darkchess

// Color is a side: [Red] or [Black], or [NoColor] before the first flip has
// fixed the colours. The values are the platforms' codes: 0 red, 1 black,
// 2 unknown.
type Color uint8

// The two sides, and the side to move of an opening whose colours are not yet
// assigned.
const (
	Red Color = iota
	Black
	NoColor
)

// Opponent returns the other side. [NoColor] is its own opponent.
func (c Color) Opponent() Color {
	if c > Black {
		return c
	}
	return c ^ 1
}

// String returns "red", "black" or "unknown" (the MGTP words).
func (c Color) String() string {
	switch c {
	case Red:
		return "red"
	case Black:
		return "black"
	case NoColor:
		return "unknown"
	}
	return "invalid color"
}

// Valid reports whether c is [Red] or [Black].
func (c Color) Valid() bool { return c <= Black }

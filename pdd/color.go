package pdd

// Color is a side: [White] or [Black], with the digits of chess.txt. White
// moves first. The zero value, [NoColor], is no side: an empty cell.
type Color uint8

// The sides, and no side.
const (
	NoColor Color = iota // an empty cell; not a side
	White                // chess.txt digit 1; moves first
	Black                // chess.txt digit 2
)

// Opponent returns the other side, or [NoColor] for a value that is not a side.
func (c Color) Opponent() Color {
	switch c {
	case White:
		return Black
	case Black:
		return White
	}
	return NoColor
}

// String returns "white", "black", or "none" for [NoColor] and other values.
func (c Color) String() string {
	switch c {
	case White:
		return "white"
	case Black:
		return "black"
	}
	return "none"
}

// Valid reports whether c is [White] or [Black].
func (c Color) Valid() bool { return c == White || c == Black }

// index returns 0 for White and 1 for Black (and for anything else, masked).
func (c Color) index() int { return int(c-1) & 1 }

// colorOf returns the Color of a side index (0 White, 1 Black).
func colorOf(i uint8) Color { return Color(i&1) + 1 }

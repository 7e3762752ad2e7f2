package othello

// Color is a side: [Black] or [White]. Black moves first.
type Color uint8

// The two sides.
const (
	Black Color = iota
	White
)

// Opponent returns the other side.
func (c Color) Opponent() Color { return c ^ 1 }

// String returns "black" or "white".
func (c Color) String() string {
	switch c {
	case Black:
		return "black"
	case White:
		return "white"
	}
	return "invalid color"
}

// Valid reports whether c is [Black] or [White].
func (c Color) Valid() bool { return c <= White }

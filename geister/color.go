package geister

// Color is a side: [First] or [Second]. The first player (port 10000 on the
// Java server) moves first.
type Color uint8

// The two sides.
const (
	First Color = iota
	Second
)

// Opponent returns the other side.
func (c Color) Opponent() Color { return c ^ 1 }

// String returns "first" or "second".
func (c Color) String() string {
	switch c {
	case First:
		return "first"
	case Second:
		return "second"
	}
	return "invalid color"
}

// Valid reports whether c is [First] or [Second].
func (c Color) Valid() bool { return c <= Second }

package pdd

import "strings"

// Rules is a rule profile. The zero value is [Course].
type Rules uint8

// The two profiles.
const (
	// Course is the course platform of the seed: unlimited tiles and bridges;
	// two bridges conflict when they share a square under them or cross; a
	// side without a legal move is skipped, and the game ends when neither
	// side can move.
	Course Rules = iota
	// Official is the printed game (Ebel 2007; boardspace.net): 40 tiles per
	// colour and 15 bridges shared; only crossing bridges conflict, so two
	// parallel knight bridges may share a square; a side without a legal
	// 2-tile placement may bridge or Pass, and a pass ends the game (the first
	// player's pass after one last turn of the second player).
	Official
)

// String returns "course" or "official".
func (r Rules) String() string {
	switch r {
	case Course:
		return "course"
	case Official:
		return "official"
	}
	return "invalid rules"
}

// Valid reports whether r is [Course] or [Official].
func (r Rules) Valid() bool { return r <= Official }

// TileSupply returns the number of tiles each colour has, 0 for unlimited.
// Tiles on the board count against it.
func (r Rules) TileSupply() int {
	if r == Official {
		return 40
	}
	return 0
}

// BridgeSupply returns the number of bridges both colours share, 0 for
// unlimited.
func (r Rules) BridgeSupply() int {
	if r == Official {
		return 15
	}
	return 0
}

// SharedSquareConflicts reports whether two bridges conflict when they share a
// square under them without crossing (two parallel knight bridges): true for
// [Course], false for [Official].
func (r Rules) SharedSquareConflicts() bool { return r != Official }

// Start returns the empty board with White to move under r.
func (r Rules) Start() Position { return Position{rules: r} }

// ParseRules reads "course" or "official", in any letter case.
func ParseRules(text string) (Rules, error) {
	switch strings.ToLower(text) {
	case "course":
		return Course, nil
	case "official":
		return Official, nil
	}
	return Course, &SyntaxError{Input: text, Msg: `rules must be "course" or "official"`}
}

// MarshalText returns [Rules.String]. It fails for a value that is not a
// profile.
func (r Rules) MarshalText() ([]byte, error) {
	if !r.Valid() {
		return nil, &SyntaxError{Input: r.String(), Msg: "not a rule profile"}
	}
	return []byte(r.String()), nil
}

// UnmarshalText sets r to the profile [ParseRules] reads from text.
func (r *Rules) UnmarshalText(text []byte) error {
	v, err := ParseRules(string(text))
	if err != nil {
		return err
	}
	*r = v
	return nil
}

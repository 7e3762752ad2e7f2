package boardsvg

// An Area is a clickable part of a board picture, in the units of the
// picture's viewBox: its top-left corner, width and height, and its name,
// a square's name as the platform writes it ("e3" in Othello, "b7" in dark
// chess, "3,4" in PDD, "14" in Geister), or a place off the board
// (Geister's exits). A page maps a click on the picture to the area it
// fell on (the viewer's seat page: OthelloAreas, GeisterAreas,
// DarkChessAreas, PDDAreas). The areas of one picture do not overlap.
type Area struct {
	Name string  `json:"name"`
	X    float64 `json:"x"`
	Y    float64 `json:"y"`
	W    float64 `json:"w"`
	H    float64 `json:"h"`
}

// Center returns the middle of a.
func (a Area) Center() (x, y float64) { return a.X + a.W/2, a.Y + a.H/2 }

// AreaNamed returns the area of areas called name, false for none.
func AreaNamed(areas []Area, name string) (Area, bool) {
	for _, a := range areas {
		if a.Name == name {
			return a, true
		}
	}
	return Area{}, false
}

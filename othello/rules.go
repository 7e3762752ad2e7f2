package othello

// Rules are the parameters of a game. Othello's rules are the same everywhere;
// what the platforms differ in is the start position (and, for perft
// cross-checks, the board size).
type Rules struct {
	Name  string   // the preset's name, for records and messages
	Start Position // the position the game starts from
}

// The presets. Treat them as constants: copy one and change the copy to make
// other rules.
var (
	// Standard is the start of Edax, WTHOR and the perft tables: black on d5
	// and e4, white on d4 and e5, black to move.
	Standard = Rules{Name: "standard", Start: Position{black: D5.Bit() | E4.Bit(), white: D4.Bit() | E5.Bit()}}
	// TUS is the start of the TUS OthelloServer, the mirror image of
	// Standard ([FlipX]): black on d4 and e5, white on e4 and d5.
	TUS = Rules{Name: "tus", Start: Position{black: D4.Bit() | E5.Bit(), white: E4.Bit() | D5.Bit()}}
	// Board6x6 plays on the 36 squares b2..g7 with Standard's centre. It is
	// used to cross-check perft.
	Board6x6 = Rules{Name: "6x6", Start: Position{black: D5.Bit() | E4.Bit(), white: D4.Bit() | E5.Bit(), small: true}}
)

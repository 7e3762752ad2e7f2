package darkchess

// Rules are the parameters in which the platforms differ: the two draw rules
// (the no-capture-or-flip limit and repetition). Moves, captures and the loss rules are the same
// everywhere. Every game starts from [Opening] unless given another position
// ([NewGameFrom]), so, unlike othello's, Rules hold no start position.
type Rules struct {
	// Name is the preset's name, for records and messages.
	Name string
	// NoProgressPlies (N) draws the game right after the ply that makes N
	// consecutive plies, by either side, with no capture and no flip. 0 (or
	// less) turns the rule off.
	NoProgressPlies int
	// RepetitionCycles (R) draws the game when the trailing run of quiet plies
	// (no capture, no flip) ends with R identical consecutive cycles of any
	// length k (plies compared by their squares, b2-b1). 0 (or less) turns
	// the rule off.
	RepetitionCycles int
	// RepetitionOnNextPly declares the repetition draw only after the ply
	// that follows the R cycles and starts the cycle again (a window of R*k+1
	// plies: the platform's manual and the 2013-2019 platform). False declares it
	// right after the R*k-th ply (the 2021 match system).
	RepetitionOnNextPly bool
}

// The presets. Treat them as constants: copy one and change the
// copy to make other rules (MGTP's num_moves_to_draw is NoProgressPlies, its
// num_repetition RepetitionCycles).
var (
	// NTU2021 is the rule of the 2021-22 NTU match system (MGTP), verified
	// against its 2,151 finished records: 60 plies, 3 cycles declared right
	// after the third. It is the default.
	NTU2021 = Rules{Name: "ntu2021", NoProgressPlies: 60, RepetitionCycles: 3}
	// Classic is the rule of the platform's manual and the 2013-2019 platform: 60
	// plies, 3 cycles declared on the ply that starts the fourth.
	Classic = Rules{Name: "classic", NoProgressPlies: 60, RepetitionCycles: 3, RepetitionOnNextPly: true}
	// ICGA is the rule of the ICGA tournaments: 180 plies without capture or
	// flip; 3 cycles with the NTU2021 timing (inferred).
	ICGA = Rules{Name: "icga", NoProgressPlies: 180, RepetitionCycles: 3}
	// DefaultRules is NTU2021, the only rule set verified end to end against
	// a large corpus and the one current (MGTP) engines were built against.
	DefaultRules = NTU2021
)

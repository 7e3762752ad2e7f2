package main

import (
	"bytes"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/botarena/botarena/darkchess"
	"github.com/botarena/botarena/geister"
	"github.com/botarena/botarena/internal/fsguard"
	"github.com/botarena/botarena/othello"
	"github.com/botarena/botarena/pdd"
	"github.com/botarena/botarena/record"
)

// An openings file (-openings FILE) holds one opening a line, in the
// game's notation (see cmd/arena/doc.go, "Openings"). A '#' starts a
// comment to the end of its line; blank lines are skipped.
const (
	// maxOpeningsFile bounds an openings file, in bytes: 4 MiB holds some
	// hundred thousand openings of any game.
	maxOpeningsFile = 4 << 20
	// maxOpeningLine bounds one line of it, in bytes, comment included:
	// the longest opening of any game (a PDD start record of 60 actions,
	// an Othello list of 60 moves with spaces) is well under 1 KiB.
	maxOpeningLine = 4096
	// openingsFileName is the run's own copy of its openings file, in its
	// records directory, written before run.json: -resume reads the
	// openings from it, so that a file changed or removed since the run
	// began changes nothing.
	openingsFileName = "openings.txt"
	// openingsStream is the PCG stream, beside the run's seed, of the
	// shuffle of -openings-order random ("openings" in ASCII), so that the
	// order is no other draw's.
	openingsStream = 0x6f70656e696e6773
)

// The -openings-order values.
const (
	openingsSequential = "sequential" // in the file's order
	openingsRandom     = "random"     // shuffled by the run's seed
)

// An opening is one start position of an openings file: where every game
// given it starts. Exactly one of the game's fields is set.
type opening struct {
	Number int    // its place among the file's openings, from 1
	Line   int    // its line in the file, from 1
	Text   string // the line without its comment, trimmed

	othello   *othelloOpening
	geister   [2]geister.Reds    // the first and second player's red ghosts
	darkchess darkchess.Position // the opening position with its deal
	pdd       *pddOpening
}

// othelloOpening is an Othello opening, or the game of a -start record, in
// the run's orientation: as written under -rules standard, mirrored onto the
// TUS start under -rules tus.
type othelloOpening struct {
	Moves []othello.Move   // the opening's moves, forced passes included
	Start othello.Position // where they lead: the games' start
	List  string           // the moves as a plain move list in the standard orientation (f5d6c3...); empty for a -start record
	Sym   othello.Symmetry // from the standard orientation to the run's
	Base  othello.Rules    // the rules preset the moves are played from
}

// pddOpening is a PDD opening: the actions the game goes on from.
type pddOpening struct {
	Log   record.PDDStepLog
	Start pdd.Position    // where they lead
	Last  *record.PDDStep // the last of them
}

// openingSet is the parsed -openings file of a run.
type openingSet struct {
	Path  string    // the file read (the run's copy on -resume)
	Data  []byte    // its content, copied into the run's directory
	List  []opening // in the file's order
	Order string    // openingsSequential or openingsRandom
}

// String names the opening in result lines: "opening 3 (line 7: f5d6c3)".
func (o *opening) String() string {
	text := o.Text
	if len(text) > 60 {
		text = text[:57] + "..."
	}
	return fmt.Sprintf("opening %d (line %d: %s)", o.Number, o.Line, text)
}

// openingNote is the part of a game's result line that names its opening,
// "" for a game without one.
func openingNote(j *gameJob) string {
	if j.Opening == nil {
		return ""
	}
	return "; " + j.Opening.String()
}

// openingsHelp says, for the -openings flag's help, what an opening of
// game is.
func openingsHelp(game string) string {
	switch game {
	case "othello":
		return "a move list from the standard start (f5d6c3d3c4f4f6f3, spaces and either case allowed), mirrored onto the TUS start under -rules tus; the programs get its position in the first BOARD"
	case "geister":
		return "both players' red ghosts, the first player's then the second's (BCDE efgh); the server imposes them, answering each program's SET: with OK"
	case "darkchess":
		return "a deal, the piece under each face-down square, rank 8 first, as the sidecar's \"deal\" (PmRc/MRpP/MrnK/Pknp/rCpC/GgPP/GpNN/gmpc), or \"seed N\" for the deal of arena match -seed N's first games"
	case "pdd":
		return "a start record, the first actions as stepLog.txt writes them, separated by spaces (W_1_Chess_2,0_2,2 B_2_Change_2,0_2,2)"
	}
	return ""
}

// loadOpenings reads and checks cfg's -openings file, if any, into
// cfg.openings: every line must be an opening of cfg's game under cfg's
// rules. A resumed run reads its own copy (openingsFileName in cfg.Out)
// instead of the file named.
func loadOpenings(cfg *matchConfig, resumed bool) error {
	switch {
	case cfg.OpeningsOrder != openingsSequential && cfg.OpeningsOrder != openingsRandom:
		return fmt.Errorf("-openings-order %q: want %s or %s", cfg.OpeningsOrder, openingsSequential, openingsRandom)
	case cfg.Openings == "" && cfg.OpeningsOrder != openingsSequential:
		return fmt.Errorf("-openings-order %s: give the openings with -openings FILE", cfg.OpeningsOrder)
	case cfg.Openings == "":
		return nil
	case cfg.Start != "":
		return fmt.Errorf("-openings and -start both give where the games start: give one")
	}
	path := cfg.Openings
	if resumed {
		path = filepath.Join(cfg.Out, openingsFileName)
	}
	data, err := readOpeningsFile(path)
	if err != nil {
		if resumed {
			return fmt.Errorf("-openings: the run's copy of its openings: %w", err)
		}
		return fmt.Errorf("-openings: %w", err)
	}
	list, err := parseOpenings(cfg.Game.Name, cfg.Rules, path, data)
	if err != nil {
		return fmt.Errorf("-openings: %w", err)
	}
	cfg.openings = &openingSet{Path: path, Data: data, List: list, Order: cfg.OpeningsOrder}
	return nil
}

// saveOpenings copies a new run's openings file into its records directory,
// for -resume.
func saveOpenings(cfg *matchConfig) error {
	if cfg.openings == nil {
		return nil
	}
	if cfg.run != nil {
		return writeInRoot(cfg.run.root, openingsFileName, cfg.openings.Data)
	}
	return os.WriteFile(filepath.Join(cfg.Out, openingsFileName), cfg.openings.Data, 0o644)
}

// readOpeningsFile reads an openings file of at most maxOpeningsFile bytes,
// a regular file only (openRegular).
func readOpeningsFile(path string) ([]byte, error) {
	return fsguard.ReadBounded(path, "an openings file", maxOpeningsFile)
}

// parseOpenings reads the openings of game under the rules preset from
// data, the content of the file name (for errors): one a line (LF or CRLF),
// '#' to the end of a line a comment, blank lines skipped. An error names the file,
// the line and what is wrong; a file without an opening is an error.
func parseOpenings(game, rules, name string, data []byte) ([]opening, error) {
	var list []opening
	data = bytes.TrimPrefix(data, []byte("\ufeff")) // a byte order mark, as Windows editors write
	for n := 1; len(data) > 0; n++ {
		line := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			data = nil
		}
		if len(line) > maxOpeningLine {
			return nil, fmt.Errorf("%s:%d: a line of %d bytes (at most %d)", name, n, len(line), maxOpeningLine)
		}
		if !utf8.Valid(line) {
			return nil, fmt.Errorf("%s:%d: not UTF-8 text", name, n)
		}
		text := string(line)
		if i := strings.IndexByte(text, '#'); i >= 0 {
			text = text[:i]
		}
		text = strings.TrimSpace(text)
		if text == "" {
			continue
		}
		o, err := parseOpening(game, rules, text)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", name, n, err)
		}
		o.Number, o.Line, o.Text = len(list)+1, n, text
		list = append(list, o)
	}
	if len(list) == 0 {
		return nil, fmt.Errorf("%s: no openings (one a line; '#' starts a comment)", name)
	}
	return list, nil
}

// parseOpening reads one opening of game under the rules preset.
func parseOpening(game, rules, text string) (opening, error) {
	var o opening
	var err error
	switch game {
	case "othello":
		o.othello, err = parseOthelloOpening(rules, text)
	case "geister":
		o.geister, err = parseGeisterOpening(text)
	case "darkchess":
		o.darkchess, err = parseDarkchessOpening(text)
	case "pdd":
		o.pdd, err = parsePDDOpening(rules, text)
	default:
		err = fmt.Errorf("%s has no openings", game)
	}
	return o, err
}

// parseOthelloOpening reads an Othello opening: a move list from the
// standard start as XOT writes them ("f5d6c3d3c4f4f6f3"), in either case,
// spaces allowed between moves, a forced pass written "pa" or "ps" or left
// out. Under -rules tus the moves are mirrored (othello.FlipX) onto the TUS
// start, so that the position is the same up to the mirror. A list that
// ends the game is refused: there would be nothing to play.
func parseOthelloOpening(rules, text string) (*othelloOpening, error) {
	base, err := othelloStart(rules)
	if err != nil {
		return nil, err
	}
	sym := othello.Identity
	if base.Start != othello.Standard.Start {
		sym = othello.FlipX
	}
	g, err := record.ParseOthelloMoveList(text)
	if err != nil {
		return nil, fmt.Errorf("not an Othello move list: %w", err)
	}
	if g.Ply() == 0 {
		return nil, fmt.Errorf("no moves: want a move list from the standard start, such as f5d6c3")
	}
	if g.IsOver() {
		return nil, fmt.Errorf("the moves end the game; an opening leaves moves to play")
	}
	list, err := record.AppendOthelloMoveList(nil, g)
	if err != nil {
		return nil, err
	}
	o, err := othelloLine(base, sym, g.Moves())
	if err != nil {
		return nil, err
	}
	o.List = string(list)
	return o, nil
}

// othelloLine plays moves, each turned by sym, from base's start: the
// opening they make, a forced pass at their end included, so that the game
// starts with a side that can move. Its List is left empty.
func othelloLine(base othello.Rules, sym othello.Symmetry, moves []othello.Move) (*othelloOpening, error) {
	o := &othelloOpening{Sym: sym, Base: base}
	played := othello.NewGame(base)
	for _, m := range moves {
		m = sym.Move(m)
		if err := played.Play(m); err != nil {
			return nil, fmt.Errorf("move %s: %w", m, err) // cannot happen: the mirror of a legal game is legal
		}
		o.Moves = append(o.Moves, m)
	}
	if played.Position().MustPass() {
		if err := played.Play(othello.Pass); err != nil {
			return nil, err
		}
		o.Moves = append(o.Moves, othello.Pass)
	}
	o.Start = played.Position()
	return o, nil
}

// parseGeisterOpening reads a Geister opening: both players' red ghosts,
// the first player's then the second's, each as four of the letters A-H
// (either case, any order, optionally after "SET:" as on the wire):
// "BCDE efgh", "SET:ABCD SET:EFGH".
func parseGeisterOpening(text string) ([2]geister.Reds, error) {
	var reds [2]geister.Reds
	f := strings.Fields(text)
	if len(f) != 2 {
		return reds, fmt.Errorf("want the two players' red ghosts, first player first, such as \"BCDE EFGH\"; got %d fields", len(f))
	}
	for c := range reds {
		r, err := geister.ParseReds(f[c])
		if err != nil {
			return reds, fmt.Errorf("the %s player's red ghosts %q: %w", geister.Color(c), f[c], err)
		}
		reds[c] = r
	}
	return reds, nil
}

// parseDarkchessOpening reads a dark chess opening: a deal, the piece
// under each face-down square of the opening position in the notation of
// the sidecar's "deal" (8 ranks of 4, rank 8 first, '/' between them:
// "PmRc/MRpP/MrnK/Pknp/rCpC/GgPP/GpNN/gmpc"), or "seed N" (or N alone) for
// the deal that "arena match darkchess -seed N" gives its first two games:
// rand.NewPCG(N, 0)'s.
func parseDarkchessOpening(text string) (darkchess.Position, error) {
	num := text
	if f := strings.Fields(text); len(f) == 2 && strings.EqualFold(f[0], "seed") {
		num = f[1]
	}
	if num != "" && num[0] >= '0' && num[0] <= '9' {
		seed, err := strconv.ParseUint(num, 10, 64)
		if err != nil {
			return darkchess.Position{}, fmt.Errorf("seed %q: a whole number 0 to %d", num, uint64(1<<64-1))
		}
		return darkchess.Opening.Deal(rand.New(rand.NewPCG(seed, 0))), nil
	}
	if strings.ContainsAny(text, " \t") {
		return darkchess.Position{}, fmt.Errorf("%q: want a deal (8 ranks of 4 pieces, such as PmRc/MRpP/MrnK/Pknp/rCpC/GgPP/GpNN/gmpc) or \"seed N\"", text)
	}
	prefix := darkchess.Opening.String() + " "
	p, err := darkchess.ParsePosition(prefix + text)
	if err != nil {
		if se, ok := err.(*darkchess.SyntaxError); ok && se.Offset >= len(prefix) {
			return darkchess.Position{}, fmt.Errorf("deal %q: %s at offset %d", text, se.Msg, se.Offset-len(prefix))
		}
		return darkchess.Position{}, fmt.Errorf("deal %q: %w", text, err)
	}
	if !p.Dealt() {
		return darkchess.Position{}, fmt.Errorf("deal %q: not every face-down square has its piece", text)
	}
	return p, nil
}

// parsePDDOpening reads a PDD opening: a start record, the actions of the
// game's first turns as stepLog.txt writes them, separated by spaces
// ("W_1_Chess_2,0_2,2 B_2_Change_2,0_2,2 W_3_Chess_0,2_1,3"), replayed
// under the rules preset. A record that ends the game is refused.
func parsePDDOpening(rules, text string) (*pddOpening, error) {
	if rules == "" {
		rules = "course"
	}
	r, err := pdd.ParseRules(rules)
	if err != nil {
		return nil, err
	}
	var l record.PDDStepLog
	for i, tok := range strings.Fields(text) {
		s, err := record.ParsePDDStep(tok, record.PDDLenient)
		if err != nil {
			return nil, fmt.Errorf("action %d %q: %w", i+1, tok, err)
		}
		l.Steps = append(l.Steps, s)
	}
	if len(l.Steps) == 0 {
		return nil, fmt.Errorf("no actions: want the first actions of a game, such as W_1_Chess_2,0_2,2")
	}
	g, err := record.ReplayPDDStepLog(l, r)
	if err != nil {
		return nil, fmt.Errorf("not a start record of the %s rules: %w", r, err)
	}
	if g.IsOver() {
		return nil, fmt.Errorf("the actions end the game; an opening leaves moves to play")
	}
	return &pddOpening{Log: l, Start: g.Position(), Last: &l.Steps[len(l.Steps)-1]}, nil
}

// assignOpenings gives every game of the schedule its opening, when the
// run has -openings: the games 2i and 2i+1 of every pairing (the seats
// swapped) share the i-th opening of the run's order, which is the file's
// or, with -openings-order random, a shuffle of it by the run's seed; with
// more pairs than openings the order starts again. The assignment depends
// on the seed, the file and each game's pairing index only, not on when or
// where the game is played.
func assignOpenings(cfg *matchConfig, games []finished) {
	set := cfg.openings
	if set == nil {
		return
	}
	order := openingOrder(len(set.List), set.Order == openingsRandom, cfg.Seed)
	for i := range games {
		j := games[i].job
		j.Opening = &set.List[order[(j.Index/2)%len(order)]]
	}
}

// openingOrder is the order in which n openings are played: 0, 1, ..., n-1,
// or when shuffle, a Fisher-Yates shuffle of it drawn from PCG(seed,
// openingsStream) with its own bounded draws (PCG's Uint64 is fixed by its
// definition; math/rand's Shuffle and IntN may change between Go releases,
// which would change a resumed run's games).
func openingOrder(n int, shuffle bool, seed uint64) []int {
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	if !shuffle {
		return order
	}
	src := rand.NewPCG(seed, openingsStream)
	for i := n - 1; i > 0; i-- {
		hi, _ := bits.Mul64(src.Uint64(), uint64(i+1))
		order[i], order[hi] = order[hi], order[i]
	}
	return order
}

// writeOpeningFile writes, beside a game's record, opening.txt: which
// opening of the run's -openings file the game started from, and the
// opening as the file gives it. It writes nothing for a game without one.
func writeOpeningFile(job *gameJob) error {
	o := job.Opening
	if o == nil {
		return nil
	}
	return writeGameFile(job, "opening.txt", fmt.Appendf(nil, "opening %d, line %d of the openings file\n%s\n", o.Number, o.Line, o.Text))
}

package record

import (
	"fmt"
	"io"
	"strconv"

	"github.com/botarena/botarena/pdd"
)

// PDDPosition returns the position that chess.txt and bridge.txt describe,
// with the other fields of base (the profile, the side to move, the Change
// flag and the Official end flags; base's Cells and Bridges are ignored).
//
// It fails if the bridge numbers do not make bridges ([PDDBridges.Bridges])
// or if the board is impossible ([pdd.NewPosition]): a group of 5 tiles, an
// island touching an own tile, a bridge between tiles of two colours or not
// at a bridge offset, a tile under a bridge, a second bridge on a tile,
// conflicting bridges, supplies exceeded. An impossible board is a
// [*ParseError] naming the file, line and field of the cell that makes it
// impossible, reading chess.txt in order (the tile that completes a group of
// 5, say), then the bridges in number order; it wraps the [*pdd.SetupError],
// so errors.Is(err, pdd.ErrGroupTooLarge) holds. A problem with base's own
// fields (a side that is not a side, a Change flag that does not fit the
// board) is returned as pdd.NewPosition reports it.
func PDDPosition(c PDDChess, b PDDBridges, base pdd.Setup) (pdd.Position, error) {
	bridges, err := b.Bridges()
	if err != nil {
		return pdd.Position{}, err
	}
	s := base
	s.Cells = c.Cells
	s.Bridges = bridges
	p, err := pdd.NewPosition(s)
	if err == nil {
		return p, nil
	}
	return pdd.Position{}, blamePDDSetup(c, b, s, err)
}

// blamePDDSetup finds the cell that makes s impossible: the first square of
// chess.txt whose tile, added to those before it, gives an error, or else the
// first bridge that does. Otherwise it returns err as it is.
func blamePDDSetup(c PDDChess, b PDDBridges, s pdd.Setup, err error) error {
	probe := pdd.Setup{Rules: s.Rules, Turn: pdd.White}
	if !s.Rules.Valid() {
		return err
	}
	for sq := range pdd.Square(pdd.NumSquares) {
		if s.Cells[sq] == pdd.NoColor {
			continue
		}
		probe.Cells[sq] = s.Cells[sq]
		if _, perr := pdd.NewPosition(probe); perr != nil {
			return &ParseError{File: PDDChessFile, Line: sq.Y() + 1, Column: 2*sq.X() + 1,
				Msg: fieldMsg(sq, "impossible board at "+sq.String()+": "+firstError(perr).Error()), Err: perr}
		}
	}
	for k, br := range s.Bridges {
		probe.Bridges = s.Bridges[:k+1]
		if _, perr := pdd.NewPosition(probe); perr != nil {
			sq := br[0]
			if !sq.Valid() {
				return err
			}
			return &ParseError{File: PDDBridgeFile, Line: sq.Y() + 1, Column: b.column(sq),
				Msg: fieldMsg(sq, "impossible bridge "+strconv.Itoa(k+1)+" "+br[0].String()+"-"+br[1].String()+": "+firstError(perr).Error()), Err: perr}
		}
	}
	return err
}

// firstError returns the first of the errors err joins, or err.
func firstError(err error) error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		if es := j.Unwrap(); len(es) > 0 {
			return es[0]
		}
	}
	return err
}

// ReplayPDDStepLog replays the steps of l from the empty board under rules
// and returns the game. A step's colour must be the side to
// move; if it is the other side, the side to move must have no legal move,
// and its skip (a pdd.Pass) is put into the game first. Otherwise it fails
// with `record: stepLog.txt: line 7: B moved out of turn`. Change must be
// line 2 and turn the 2 tiles it names; a Pass line is refused under
// [pdd.Course]. Every fault is a [*ParseError] naming the line; an illegal
// action wraps the engine's [*pdd.MoveError].
func ReplayPDDStepLog(l PDDStepLog, rules pdd.Rules) (*pdd.Game, error) {
	if !rules.Valid() {
		return nil, fmt.Errorf("record: replay stepLog.txt: rules %d are not a profile", rules)
	}
	g := pdd.NewGame(rules)
	for i, s := range l.Steps {
		line := i + 1
		fail := func(cause error, format string, args ...any) error {
			return &ParseError{File: PDDStepLogFile, Line: line, Msg: s.String() + ": " + fmt.Sprintf(format, args...), Err: cause}
		}
		p := g.Position()
		if s.Color != p.Turn() && s.Color.Valid() && !p.IsOver() {
			if !p.MustPass() || rules != pdd.Course {
				return nil, fail(ErrSyntax, "%s moved out of turn: %s is to move and has a legal move", colorLetter(s.Color), colorLetter(p.Turn()))
			}
			if err := g.Play(pdd.Pass); err != nil {
				return nil, fail(err, "%v", err)
			}
			p = g.Position()
		}
		switch {
		case !s.Color.Valid():
			return nil, fail(ErrSyntax, "colour %d is not a side", s.Color)
		case s.Move == pdd.Pass && rules == pdd.Course:
			return nil, fail(ErrSyntax, "Pass is not a Course action (a skipped side writes nothing)")
		case s.Move == pdd.Change && line != 2:
			return nil, fail(ErrSyntax, "Change can only be line 2")
		case s.Move == pdd.Change:
			if want := NewPDDStep(p, pdd.Change, s.Turn); want.ChangeTiles != s.ChangeTiles && p.ChangeAvailable() {
				return nil, fail(ErrSyntax, "Change names %s %s, but the opening tiles are %s %s", s.ChangeTiles[0], s.ChangeTiles[1], want.ChangeTiles[0], want.ChangeTiles[1])
			}
		}
		if err := g.Play(s.Move); err != nil {
			return nil, fail(err, "%v", err)
		}
	}
	return g, nil
}

func colorLetter(c pdd.Color) string {
	switch c {
	case pdd.White:
		return "W"
	case pdd.Black:
		return "B"
	}
	return c.String()
}

// CheckPDDStepLog replays l under rules ([ReplayPDDStepLog]) and checks that
// the replay gives chess.txt c and bridge.txt b, cell by cell. On
// a mismatch it tries the replay with x and y swapped in every point: if
// that one matches, the error wraps [ErrTransposed] (the game returned is
// then the transposed replay, which matches the files). Otherwise the error
// is a [*ParseError] wrapping [ErrStepLogMismatch] at the first cell that
// differs, such as `record: chess.txt: line 8, column 9: field 5: stepLog.txt
// replays to 1 at 4,7, the file has 0`. The game is returned with any
// mismatch error, nil with a replay error.
func CheckPDDStepLog(l PDDStepLog, rules pdd.Rules, c PDDChess, b PDDBridges) (*pdd.Game, error) {
	g, err := ReplayPDDStepLog(l, rules)
	if err != nil {
		return nil, err
	}
	diff := comparePDDFiles(g.Position(), c, b)
	if diff == nil {
		return g, nil
	}
	t := PDDStepLog{Steps: make([]PDDStep, len(l.Steps)), CRLF: l.CRLF}
	for i, s := range l.Steps {
		t.Steps[i] = transposePDDStep(s)
	}
	if tg, terr := ReplayPDDStepLog(t, rules); terr == nil && comparePDDFiles(tg.Position(), c, b) == nil {
		return tg, fmt.Errorf("record: stepLog.txt matches chess.txt and bridge.txt only with x and y swapped: %w", ErrTransposed)
	}
	return g, diff
}

// transposePDDStep swaps x and y in the points of s.
func transposePDDStep(s PDDStep) PDDStep {
	tr := pdd.Transpose.Square
	switch s.Move.Action() {
	case pdd.ChessAction:
		a, b := s.Move.Squares()
		s.Move = pdd.Chess(tr(a), tr(b))
	case pdd.BridgeAction:
		a, b := s.Move.Squares()
		s.Move = pdd.Bridge(tr(a), tr(b))
	case pdd.ChangeAction:
		a, b := tr(s.ChangeTiles[0]), tr(s.ChangeTiles[1])
		s.ChangeTiles = [2]pdd.Square{min(a, b), max(a, b)}
	}
	return s
}

// comparePDDFiles returns a *ParseError at the first cell where p's files
// differ from c and b, or nil.
func comparePDDFiles(p pdd.Position, c PDDChess, b PDDBridges) error {
	pc, pb := NewPDDChess(p), NewPDDBridges(p)
	for sq := range pdd.Square(pdd.NumSquares) {
		if pc.Cells[sq] != c.Cells[sq] {
			return &ParseError{File: PDDChessFile, Line: sq.Y() + 1, Column: 2*sq.X() + 1,
				Msg: fieldMsg(sq, fmt.Sprintf("stepLog.txt replays to %d at %s, the file has %d", pc.Cells[sq], sq, c.Cells[sq])), Err: ErrStepLogMismatch}
		}
	}
	for sq := range pdd.Square(pdd.NumSquares) {
		if pb.Cells[sq] != b.Cells[sq] {
			return &ParseError{File: PDDBridgeFile, Line: sq.Y() + 1, Column: b.column(sq),
				Msg: fieldMsg(sq, fmt.Sprintf("stepLog.txt replays to %d at %s, the file has %d", pb.Cells[sq], sq, b.Cells[sq])), Err: ErrStepLogMismatch}
		}
	}
	return nil
}

// ReadPDDGame reads a game's record, the three files of a game directory,
// in [PDDLenient] mode, and replays it: the stepLog from the empty board
// under rules, checked against chess.txt and bridge.txt
// ([CheckPDDStepLog]). It returns the game, with every position (skips
// included) and, if it is over, the result by score.
func ReadPDDGame(chess, bridge, stepLog io.Reader, rules pdd.Rules) (*pdd.Game, error) {
	c, err := ReadPDDChess(chess, PDDLenient)
	if err != nil {
		return nil, err
	}
	b, err := ReadPDDBridges(bridge, PDDLenient)
	if err != nil {
		return nil, err
	}
	l, err := ReadPDDStepLog(stepLog, PDDLenient)
	if err != nil {
		return nil, err
	}
	g, err := CheckPDDStepLog(l, rules, c, b)
	if err != nil {
		return nil, err
	}
	return g, nil
}

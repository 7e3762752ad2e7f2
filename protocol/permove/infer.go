package permove

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"github.com/botarena/botarena/pdd"
	"github.com/botarena/botarena/record"
)

// InferMove works out which action a strategy program took from the
// chess.txt and bridge.txt it left, given the position before its turn (the
// referee's own, never the files it wrote), and checks it (rows
// 5-16). It returns either a move legal in before, or an error wrapping
// exactly one violation sentinel with the detail:
//
//   - [ErrFileFormat]: a file fails the strict parse ([record.PDDStrict]),
//     the bridge numbers are not 1..K, or a bridge that was on the board is
//     not on the same two cells;
//   - [pdd.ErrBridgeEnds]: a bridge number stands on 1 cell or on 3 or more
//     (a second bridge on a tile leaves the old number on one cell);
//   - [pdd.ErrUnknownAction]: several new bridges; tiles removed; nothing
//     done (under [pdd.Course]); tiles and a bridge at once; other than 2
//     new tiles; Change when it is not available;
//   - [ErrWrongColor]: a tile of the opponent's colour appeared;
//   - [pdd.ErrOccupied]: an opponent tile became the program's;
//   - the rule's sentinel from [pdd.Position.Play] for the move the
//     difference shows: Chess on the 2 new tiles, Bridge between the 2
//     cells of the new number, or Change (Black turning White's 2 opening
//     tiles, and nothing else).
//
// Under [pdd.Official] unchanged files are a Pass, which Play accepts only
// when the side has no 2-tile placement.
func InferMove(before pdd.Position, chess, bridge []byte) (pdd.Move, error) {
	mover := before.Turn()
	if before.IsOver() {
		return pdd.NoMove, fmt.Errorf("%w: the game is over", pdd.ErrUnknownAction)
	}
	c, err := record.ReadPDDChess(bytes.NewReader(chess), record.PDDStrict)
	if err != nil {
		return pdd.NoMove, fmt.Errorf("%w: %w", ErrFileFormat, err)
	}
	b, err := record.ReadPDDBridges(bytes.NewReader(bridge), record.PDDStrict)
	if err != nil {
		return pdd.NoMove, fmt.Errorf("%w: %w", ErrFileFormat, err)
	}
	bridges, err := b.Bridges()
	switch {
	case errors.Is(err, record.ErrBridgeCount):
		return pdd.NoMove, fmt.Errorf("%w: %w", pdd.ErrBridgeEnds, err)
	case err != nil:
		return pdd.NoMove, fmt.Errorf("%w: %w", ErrFileFormat, err)
	}
	k0, k1 := before.NumBridges(), len(bridges)
	for k := 1; k <= k0; k++ {
		old := before.BridgeAt(k)
		if k > k1 {
			return pdd.NoMove, fmt.Errorf("%w: bridge %d (%s-%s) is gone from bridge.txt", ErrFileFormat, k, old[0], old[1])
		}
		if bridges[k-1] != old {
			return pdd.NoMove, fmt.Errorf("%w: bridge %d moved from %s-%s to %s-%s", ErrFileFormat, k, old[0], old[1], bridges[k-1][0], bridges[k-1][1])
		}
	}
	if k1 > k0+1 {
		return pdd.NoMove, fmt.Errorf("%w: %d new bridges in one turn (bridges %d to %d)", pdd.ErrUnknownAction, k1-k0, k0+1, k1)
	}

	prev := record.NewPDDChess(before)
	var changed []pdd.Square
	for s := range pdd.Square(pdd.NumSquares) {
		if c.Cells[s] != prev.Cells[s] {
			changed = append(changed, s)
		}
	}
	own, opp := mover, mover.Opponent()
	cell := func(s pdd.Square) string {
		return fmt.Sprintf("%s changed from %d to %d", s, prev.Cells[s], c.Cells[s])
	}

	// Row 9: Black turns exactly White's 2 tiles, and nothing else.
	if mover == pdd.Black && k1 == k0 && len(changed) == 2 {
		whites := before.Tiles(pdd.White)
		change := whites.Count() == 2
		for _, s := range changed {
			change = change && whites.Has(s) && c.Cells[s] == pdd.Black
		}
		if change {
			return playInferred(before, pdd.Change)
		}
	}
	// Rows 10-12, each over all the changed cells.
	for _, s := range changed {
		if c.Cells[s] == opp {
			return pdd.NoMove, fmt.Errorf("%w: %s; %s plays %d", ErrWrongColor, cell(s), pddColorLetter(mover), own)
		}
	}
	for _, s := range changed {
		if prev.Cells[s] == opp {
			return pdd.NoMove, fmt.Errorf("%w: %s: an opponent tile", pdd.ErrOccupied, cell(s))
		}
	}
	for _, s := range changed {
		if c.Cells[s] == pdd.NoColor {
			return pdd.NoMove, fmt.Errorf("%w: %s: a tile was removed", pdd.ErrUnknownAction, cell(s))
		}
	}
	// Every changed cell is now empty-to-own.
	n := len(changed)
	switch {
	case n == 0 && k1 == k0:
		if before.Rules() == pdd.Official {
			return playInferred(before, pdd.Pass)
		}
		return pdd.NoMove, fmt.Errorf("%w: nothing was done: the files are unchanged", pdd.ErrUnknownAction)
	case n > 0 && k1 == k0+1:
		return pdd.NoMove, fmt.Errorf("%w: %d new tile%s and bridge %d in one turn", pdd.ErrUnknownAction, n, pddPlural(n), k1)
	case k1 == k0 && n != 2:
		return pdd.NoMove, fmt.Errorf("%w: %d new tile%s (%s), want 2", pdd.ErrUnknownAction, n, pddPlural(n), pddSquareList(changed))
	case k1 == k0:
		return playInferred(before, pdd.Chess(changed[0], changed[1]))
	}
	nb := bridges[k1-1]
	return playInferred(before, pdd.Bridge(nb[0], nb[1]))
}

// playInferred checks m in p. A refusal that is not a rule of the game (the
// game is over) counts as ErrUnknownAction.
func playInferred(p pdd.Position, m pdd.Move) (pdd.Move, error) {
	if _, err := p.Play(m); err != nil {
		if pddViolationName(err) == "" {
			return pdd.NoMove, fmt.Errorf("%w: %w", pdd.ErrUnknownAction, err)
		}
		return pdd.NoMove, err
	}
	return m, nil
}

func pddSquareList(sq []pdd.Square) string {
	var b strings.Builder
	for i, s := range sq {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(s.String())
	}
	return b.String()
}

package record

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/botarena/botarena/darkchess"
)

// ErrResultMismatch is wrapped by the error of a replay whose end disagrees
// with the record's result line.
var ErrResultMismatch = errors.New("record: the result line disagrees with the replay")

// Game replays b under rules (which the board does not say:
// [darkchess.NTU2021] for the 2021 records, [darkchess.Classic] for the
// 2013-2019 platform's) and returns the game after the last ply.
//
// Every ply must be legal and the game not over before it. The result line,
// when there is one, must agree with the replay: "NoMove" and the two draws
// must be how the game ended, with the same winner, count and cycle; a
// fault ("TimeOut", "MoveError", "Resign") must find the game in play, and
// the loser then forfeits it ([darkchess.Game.Forfeit]): the player to move
// (as in every record of the real platforms) or the other, whose fault came
// while it waited (a referee's record of an engine that died or hung before
// acknowledging its own ply), but before the first flip only the first
// player, as colours are not yet given;
// a 2017 line, which gives no reason, must name the winner (or the draw) of
// a game that ended by the rules, or name a winner of a game still in play,
// which the game then stays (the reason is in the file's name only). A
// disagreement wraps [ErrResultMismatch]; a refused ply, the rules engine's
// [*darkchess.MoveError].
//
// With a nil rng the game has no deal, as a replay needs none: every flip
// in it names its piece, and so must any flip played after. With an rng, the
// face-down pieces that the record never flips are dealt from it (in the
// manner of [darkchess.Position.Deal]) and the flipped ones are those the
// record names, so that the game goes on with [darkchess.Game.Play] as a
// referee's: this is how a host starts a game mid-way from a board.txt.
func (b *DarkChessBoard) Game(rules darkchess.Rules, rng *rand.Rand) (*darkchess.Game, error) {
	if b == nil {
		return nil, errors.New("record: nil board")
	}
	if err := b.checkStart(); err != nil {
		return nil, err
	}
	if _, err := b.replay(); err != nil {
		return nil, err
	}
	start := b.Start.View(darkchess.NoColor).Position()
	if rng != nil {
		var err error
		if start, err = b.dealStart(start, rng); err != nil {
			return nil, err
		}
	}
	g := darkchess.NewGameFrom(rules, start, nil)
	for i, ply := range b.Plies {
		if err := g.PlayPly(ply); err != nil {
			return nil, fmt.Errorf("record: ply %d (move %d) %s: %w", i+1, i/2+1, ply, err)
		}
	}
	if b.Result == nil {
		return g, nil
	}
	if err := b.checkGameResult(g); err != nil {
		return nil, err
	}
	return g, nil
}

// checkGameResult checks the result line against g, and ends g by a forfeit
// if the line says so.
func (b *DarkChessBoard) checkGameResult(g *darkchess.Game) error {
	r := b.Result
	if err := checkDarkChessResult(r); err != nil {
		return err
	}
	res, over := g.Result()
	seat := 0 // the winner's seat by the replay
	switch {
	case !over || res.Draw:
	case res.Winner == darkchess.NoColor || res.Winner != g.FirstColor():
		seat = 2
	default:
		seat = 1
	}
	mismatch := func(format string, args ...any) error {
		return fmt.Errorf("record: result %q after ply %d: %s: %w", r.Text, g.Ply(), fmt.Sprintf(format, args...), ErrResultMismatch)
	}
	switch r.Reason {
	case "NoMove", "NoEatFlipDraw", "PositionRepetitionDraw":
		word := darkChessReasonWord(res.Reason)
		switch {
		case !over:
			return mismatch("the game goes on")
		case word != r.Reason:
			return mismatch("the game ended otherwise: %v", res)
		case r.Reason == "PositionRepetitionDraw" && (res.Repetitions != r.Repetitions || res.Cycle != r.Cycle):
			return mismatch("the game ended otherwise: %v", res)
		case seat != r.Winner:
			return mismatch("the game ended otherwise: %v", res)
		}
	case "TimeOut", "MoveError", "Resign":
		if over {
			return mismatch("the game was already over: %v", res)
		}
		loser := darkchess.NoColor
		if first := g.FirstColor(); first != darkchess.NoColor {
			loser = first
			if r.Winner == 1 {
				loser = first.Opponent()
			}
		} else if r.Winner != 2 {
			return mismatch("the second player cannot lose before the first flip")
		}
		// The loser may be either player: the one to move, who did not
		// answer or answered wrong, or the other, whose fault came while
		// it waited (a referee charges a fault when it sees it: an engine
		// that dies, hangs or sends garbage as its own ply is reported to
		// it, or fails its handshake in a game resumed with both colours
		// known). The real platforms' records have only the first kind.
		reason := map[string]darkchess.Reason{"TimeOut": darkchess.TimeOut, "MoveError": darkchess.BadMove, "Resign": darkchess.Resign}[r.Reason]
		if err := g.Forfeit(loser, reason); err != nil {
			return mismatch("%v", err)
		}
	case "AgreedDraw":
		if over {
			return mismatch("the game was already over: %v", res)
		}
		if err := g.AgreeDraw(); err != nil {
			return mismatch("%v", err)
		}
	case "":
		switch {
		case over && seat != r.Winner:
			return mismatch("the game ended otherwise: %v", res)
		case !over && r.Winner == 0:
			return mismatch("a draw, but the game goes on")
		}
	}
	return nil
}

// dealStart returns start (which has no deal) with its face-down pieces
// dealt: a square the plies flip gets the piece they name, and the others
// the rest of the pool, shuffled from rng as [darkchess.Position.Deal] does.
// The plies must be known legal.
func (b *DarkChessBoard) dealStart(start darkchess.Position, rng *rand.Rand) (darkchess.Position, error) {
	s := start.Setup()
	pool := s.Pool
	for _, ply := range b.Plies {
		sq := ply.Move.From()
		if ply.Move.IsFlip() && start.At(sq) == darkchess.Hidden && s.Deal[sq] == darkchess.NoPiece {
			s.Deal[sq] = ply.Piece
			pool[ply.Piece]--
		}
	}
	var rest []darkchess.Piece
	for _, pc := range darkChessPieceOrder {
		for range pool[pc] {
			rest = append(rest, pc)
		}
	}
	for i := len(rest) - 1; i > 0; i-- {
		j := rng.IntN(i + 1)
		rest[i], rest[j] = rest[j], rest[i]
	}
	i := 0
	for sq := range darkchess.Square(32) {
		if s.Board[sq] == darkchess.Hidden && s.Deal[sq] == darkchess.NoPiece && i < len(rest) {
			s.Deal[sq] = rest[i]
			i++
		}
	}
	p, err := darkchess.NewPosition(s)
	if err != nil {
		return start, fmt.Errorf("record: dealing the start: %w", err)
	}
	return p, nil
}

// View returns what the player to move sees after the plies: the position
// (without a deal), with the plies as its History. Its Rules and TimeLeft
// are left zero: board.txt does not say them. It fails as
// [DarkChessBoard.Game] does for an illegal ply, but applies no draw rule.
func (b *DarkChessBoard) View() (darkchess.View, error) {
	if b == nil {
		return darkchess.View{}, errors.New("record: nil board")
	}
	if err := b.checkStart(); err != nil {
		return darkchess.View{}, err
	}
	p, err := b.replay()
	if err != nil {
		return darkchess.View{}, err
	}
	v := p.View(p.Turn())
	v.History = slices.Clone(b.Plies)
	return v, nil
}

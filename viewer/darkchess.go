package viewer

import (
	"bytes"
	"fmt"

	"github.com/botarena/botarena/boardsvg"
	"github.com/botarena/botarena/darkchess"
	"github.com/botarena/botarena/record"
)

// DarkChessStatus says who is to move, or how the game ended, naming the
// seats' players and colours (NoColor until the first flip): "red, first
// player (alice) to move", "draw: NoEatFlipDraw". toMove is the seat to
// move; over and r give the result when the game has ended.
func DarkChessStatus(players [2]string, colors [2]darkchess.Color, toMove int, over bool, r darkchess.Result) string {
	seatName := func(i int) string {
		s := [2]string{"first", "second"}[i] + " player (" + players[i] + ")"
		if colors[i].Valid() {
			s = colors[i].String() + ", " + s
		}
		return s
	}
	if !over {
		if !colors[toMove].Valid() {
			return seatName(toMove) + " to move: a flip gives the colours"
		}
		return seatName(toMove) + " to move"
	}
	reason := r.Reason.String()
	if r.Reason == darkchess.PositionRepetitionDraw {
		reason = fmt.Sprintf("%s,%d,%d", reason, r.Repetitions, r.Cycle)
	}
	if r.Draw {
		return "draw: " + reason
	}
	w := 1
	if r.Winner.Valid() && r.Winner == colors[0] {
		w = 0
	}
	return seatName(w) + " wins: " + reason
}

// dcMaxReplayPlies bounds the plies of a replayed record, so that a crafted
// file cannot make the replay page list, and the viewer keep, hundreds of
// thousands of plies. Quiet plies
// come in at most 63 runs (a flip or a capture ends each: 32 flips, 30
// captures at most), each shorter than the draw limit, so even under ICGA's
// 180 no game is this long.
const dcMaxReplayPlies = 12000

// ReplayDarkChess reads a board.txt (every variant record reads: the 2021
// records and snapshots, the 2017 server records and client copies, the
// 2019 Windows client's) and returns its plies, checked, with a frame for
// its start and one after every ply, drawn when asked. The result is the
// replay's under the first of NTU2021, Classic and ICGA that agrees with the
// record's result line (the 2017 records say only who won), else the result
// line as written.
func ReplayDarkChess(name string, data []byte) (Replay, error) {
	b, err := record.ReadDarkChessBoard(bytes.NewReader(data))
	if err != nil {
		return Replay{}, fmt.Errorf("%s: %w", name, err)
	}
	if len(b.Plies) > dcMaxReplayPlies {
		return Replay{}, fmt.Errorf("%s: %d plies; the replay shows games of at most %d (no game under the presets' draw rules is longer)", name, len(b.Plies), dcMaxReplayPlies)
	}
	players := [2]string{clipText(b.First, maxNameBytes), clipText(b.Second, maxNameBytes)}
	first := b.FirstColor
	if !first.Valid() {
		first = b.Start.Turn()
	}
	if !first.Valid() && len(b.Plies) > 0 && b.Plies[0].Piece.Valid() {
		first = b.Plies[0].Piece.Color()
	}
	colorsAt := func(ply int) [2]darkchess.Color {
		if !first.Valid() || (ply == 0 && !b.Start.Turn().Valid()) {
			return [2]darkchess.Color{darkchess.NoColor, darkchess.NoColor}
		}
		return [2]darkchess.Color{first, first.Opponent()}
	}
	var res darkchess.Result
	over := false
	for _, rules := range []darkchess.Rules{darkchess.NTU2021, darkchess.Classic, darkchess.ICGA} {
		g, err := b.Game(rules, nil)
		if err == nil {
			res, over = g.Result()
			break
		}
		// A result line that disagrees (ErrResultMismatch), or a game that
		// went on after these rules would have ended it: other rules.
	}
	resultText := ""
	if b.Result != nil {
		resultText = clipText(b.Result.Text, maxResultBytes)
	}
	// The positions, 32 bytes each, are all a frame needs.
	n := len(b.Plies)
	positions := make([]darkchess.Position, 0, n+1)
	positions = append(positions, b.Start)
	moves := make([]string, n)
	for i, ply := range b.Plies {
		next, err := positions[i].PlayPly(ply)
		if err != nil {
			return Replay{}, fmt.Errorf("%s: ply %d %s: %w", name, i+1, ply, err)
		}
		positions = append(positions, next)
		moves[i] = ply.String()
	}
	status := func(i int) string {
		end := i == n
		if end && !over && b.Result != nil {
			return "result: " + resultText
		}
		return DarkChessStatus(players, colorsAt(i), i%2, end && over, res)
	}
	rp := Replay{Game: "darkchess", Players: players, Moves: moves, Start: darkChessBoardStart(b, positions)}
	rp.Frame = framesIn(n, func(i int) Frame {
		last := darkchess.NoMove
		if i > 0 {
			last = b.Plies[i-1].Move
		}
		st := status(i)
		f := Frame{Ply: i, Board: boardsvg.DarkChess(positions[i], boardsvg.DarkChessOptions{Last: last, Players: players, Colors: colorsAt(i), Status: st}), Status: st, ToMove: i % 2}
		if i > 0 {
			f.Move = moves[i-1]
		}
		if i == n && (over || b.Result != nil) {
			f.ToMove = -1
		}
		return f
	})
	switch {
	case over:
		rp.Result = status(n)
	case b.Result != nil:
		rp.Result = resultText
	}
	return rp, nil
}

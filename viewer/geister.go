package viewer

import (
	"bytes"
	"errors"
	"fmt"
	"time"

	"github.com/botarena/botarena/boardsvg"
	"github.com/botarena/botarena/geister"
	"github.com/botarena/botarena/record"
)

// geisterLastMove is the last move for the picture: the move, and the
// position it was played from (geister.NoMove for none).
type geisterLastMove struct {
	before geister.Position
	move   geister.Move
}

// geisterLastMoveOf is move m, played from prev, for the picture.
func geisterLastMoveOf(prev geister.Position, m geister.Move) geisterLastMove {
	return geisterLastMove{before: prev, move: m}
}

// geisterSVG draws p as seat sees it: -1 a spectator, who sees the colours
// of the sides whose colours are known (known[c]; a record without a
// side's red set does not know them), 0 or 1 a player, who sees its own
// colours and the colours of the opponent's ghosts off the board only. The
// second player sees the board in its own frame, its ghosts at the bottom
// (boardsvg.GeisterFlippedAreas are that picture's areas); the others in
// the first player's.
func geisterSVG(p geister.Position, seat int, known [2]bool, last geisterLastMove) string {
	var hide [2]bool
	for c := range hide {
		hide[c] = (seat < 0 && !known[c]) || (seat >= 0 && seat != c)
	}
	return boardsvg.Geister(p, boardsvg.GeisterOptions{Last: last.move, Before: last.before, Hide: hide, Flip: seat == 1})
}

// GeisterFrameOptions describe a Geister frame beside its position.
type GeisterFrameOptions struct {
	// Last is the move that led to the position (geister.NoMove for none)
	// and Before the position it was played from, as for
	// boardsvg.GeisterOptions.
	Last   geister.Move
	Before geister.Position
	// Move is Last in words ("first A,NORTH"), for the move list.
	Move string
	// Known are the sides whose colours the spectator's board shows. A
	// game in progress shows none (anyone may open the viewer, a player
	// too); a finished one both.
	Known [2]bool
	// Views adds each player's view ("first", "second": its own colours,
	// the opponent's hidden) to the frame.
	Views bool
	// Status is who is to move, or the result (see GeisterStatus).
	Status string
	// Clocks are each side's time left, "" for no clock.
	Clocks [2]string
	// Over says the game is over: the frame's ToMove is -1.
	Over bool
}

// GeisterFrame is the frame of p: the spectator's board with the first
// player's ghosts at the bottom, the second player's view (with Views) with
// its own.
func GeisterFrame(p geister.Position, o GeisterFrameOptions) Frame {
	last := geisterLastMoveOf(o.Before, o.Last)
	if o.Views {
		return geisterFrame(p, o.Known, last, o.Move, o.Status, o.Clocks, o.Over)
	}
	return geisterSpectatorFrame(p, o.Known, last, o.Move, o.Status, o.Clocks, o.Over)
}

// frame is the frame of p: the spectator's board, each player's view, the
// status and the clocks.
func geisterFrame(p geister.Position, known [2]bool, last geisterLastMove, move string, status string, clocks [2]string, over bool) Frame {
	f := geisterSpectatorFrame(p, known, last, move, status, clocks, over)
	f.Views = map[string]string{"first": geisterSVG(p, 0, known, last), "second": geisterSVG(p, 1, known, last)}
	return f
}

// spectatorFrame is the frame of p without the players' views.
func geisterSpectatorFrame(p geister.Position, known [2]bool, last geisterLastMove, move string, status string, clocks [2]string, over bool) Frame {
	f := Frame{
		Ply:    p.Ply(),
		Move:   move,
		Board:  geisterSVG(p, -1, known, last),
		Status: status,
		Clocks: clocks,
		ToMove: int(p.Turn()),
	}
	if over {
		f.ToMove = -1
	}
	return f
}

// GeisterStatus says who is to move in p and what each side lost, or how
// the game ended (r, when its Reason is not geister.Unfinished).
func GeisterStatus(p geister.Position, r geister.Result) string {
	switch {
	case r.Reason == geister.Unfinished:
		red0, blue0 := p.Captured(geister.First)
		red1, blue1 := p.Captured(geister.Second)
		return fmt.Sprintf("%s to move (first lost %d red, %d blue; second lost %d red, %d blue)", p.Turn(), red0, blue0, red1, blue1)
	case r.Draw:
		return "draw: " + r.Reason.String()
	}
	return fmt.Sprintf("%s wins: %s", r.Winner, r.Reason)
}

// geisterMaxReplayPlies is the longest record a replay shows (its moves are
// listed on the page, its positions kept while it is shown): no preset lets
// a game last more than 300 plies.
const geisterMaxReplayPlies = 3000

// ReplayGeister reads a Geister record for the replay page: an NTPU
// board.txt, or the Java server's per-game log (log-<time>.txt, lines
// "player=N,<command>"), told apart by their content.
func ReplayGeister(name string, data []byte) (Replay, error) {
	var (
		board   *record.GeisterBoard // the record as a board.txt
		g       *geister.Game
		players [2]string
		known   [2]bool
		clocks  func(ply int) [2]string = func(int) [2]string { return [2]string{} }
		err     error
	)
	if geisterLooksLikeServerLog(data) {
		l, rerr := record.ReadGeisterServerLog(bytes.NewReader(data))
		if rerr != nil {
			return Replay{}, fmt.Errorf("%s: a Java geister server log that does not read: %w", name, rerr)
		}
		if g, err = l.Game(); err != nil {
			return Replay{}, fmt.Errorf("%s: %w", name, err)
		}
		players = [2]string{"player=0", "player=1"}
		known = [2]bool{true, true}
		// Its start file is a board.txt: the log's game, its players
		// named as the log names them.
		if board, err = record.NewGeisterBoard(g, "player=0", "player=1"); err != nil {
			return Replay{}, fmt.Errorf("%s: %w", name, err)
		}
	} else {
		b, rerr := record.ReadGeisterBoard(bytes.NewReader(data))
		if rerr != nil {
			return Replay{}, fmt.Errorf("%s: neither an NTPU board.txt nor a Java geister server log: %w", name, rerr)
		}
		rules := geister.Rules{Name: "record", IllegalMove: geister.Lose}
		if b.Result.Reason == geister.GamePlyLimitDraw {
			rules.PlyLimit = len(b.Moves)
		}
		if g, err = b.Game(rules); err != nil {
			return Replay{}, fmt.Errorf("%s: %w", name, err)
		}
		board = b
		clocks = func(ply int) [2]string { return geisterRecordClocks(b, ply) }
		players = [2]string{b.First, b.Second}
		for c := range players {
			if players[c] == "" {
				players[c] = geister.Color(c).String()
			}
			known[c] = b.Reds[c].Valid()
		}
	}
	moves := g.Moves()
	if len(moves) > geisterMaxReplayPlies {
		return Replay{}, fmt.Errorf("%s: %d plies, more than the %d a replay shows (the presets end a game at 300)", name, len(moves), geisterMaxReplayPlies)
	}
	players = [2]string{clipText(players[0], maxNameBytes), clipText(players[1], maxNameBytes)}
	startPly := g.Ply() - len(moves)
	res, over := g.Result()
	texts := make([]string, len(moves))
	out := Replay{Game: "geister", Players: players, Moves: texts}
	if startPly == 0 && board != nil && len(board.Moves) == len(moves) {
		out.Start = geisterBoardStart(board, g)
	}
	if over {
		out.Result = res.String()
	}
	prev, ok := g.PositionAt(startPly)
	if !ok {
		return Replay{}, fmt.Errorf("%s: %w", name, errors.New("the game has no start position"))
	}
	for i, m := range moves {
		if _, ok := g.PositionAt(startPly + i + 1); !ok {
			return Replay{}, fmt.Errorf("%s: no position after ply %d", name, startPly+i+1)
		}
		texts[i] = prev.Turn().String() + " " + m.String()
		prev, _ = g.PositionAt(startPly + i + 1)
	}
	// A referee's ending (a time out, a disconnect, an illegal move) comes
	// after the last ply: the last frame says it.
	refereeEnd := over && len(moves) == 0 || over && res.Reason > geister.GamePlyLimitDraw
	out.Frame = framesIn(len(moves), func(i int) Frame {
		p, _ := g.PositionAt(startPly + i)
		var f Frame
		if i == 0 {
			f = geisterFrame(p, known, geisterLastMove{}, "", GeisterStatus(p, geister.Result{}), clocks(startPly), false)
		} else {
			before, _ := g.PositionAt(startPly + i - 1)
			r := geister.Result{}
			if i == len(moves) && over {
				r = res
			}
			f = geisterFrame(p, known, geisterLastMoveOf(before, moves[i-1]), texts[i-1], GeisterStatus(p, r), clocks(startPly+i), r.Reason != geister.Unfinished)
		}
		if i == len(moves) && refereeEnd {
			f.Status, f.ToMove = GeisterStatus(p, res), -1
		}
		return f
	})
	return out, nil
}

// geisterRecordClocks is each side's clock in record b after the given
// number of plies, from its timestamps: the time left of its "time" line, or
// the time used when it has none; "" where the timestamps stop. A ply's
// time is from the timestamp before it (the previous ply's arrival, or the
// first MOV?) to its own.
func geisterRecordClocks(b *record.GeisterBoard, ply int) [2]string {
	var out [2]string
	if ply >= len(b.Times) {
		return out
	}
	var used [2]time.Duration
	for k := 1; k <= ply; k++ {
		used[(k-1)%2] += max(b.Times[k].Sub(b.Times[k-1]), 0)
	}
	for c := range out {
		if b.TimeLimit > 0 {
			out[c] = FormatClock(b.TimeLimit - used[c])
		} else {
			out[c] = "used " + FormatClock(used[c])
		}
	}
	return out
}

// geisterLooksLikeServerLog reports whether data's first non-blank line is a
// Java server log line ("player=" or "winner=").
func geisterLooksLikeServerLog(data []byte) bool {
	for line := range bytes.Lines(data) {
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			continue
		}
		return bytes.HasPrefix(line, []byte("player=")) || bytes.HasPrefix(line, []byte("winner="))
	}
	return false
}

package viewer

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/botarena/botarena/boardsvg"
	"github.com/botarena/botarena/pdd"
	"github.com/botarena/botarena/protocol/permove"
	"github.com/botarena/botarena/record"
)

// ReplayPDD reads a PDD record for the replay page: a stepLog.txt (the
// referee's record: the start, then a frame per line), a game directory's
// result.json (the same, with the players and the result), or a chess.txt
// alone (one frame; bridge.txt alone cannot be drawn, since chess.txt says
// whose bridges they are). The profile is found from the record: a stepLog
// with a Pass line, or one that only replays under it, is official.
func ReplayPDD(name string, data []byte) (Replay, error) {
	rp := Replay{Game: "pdd"}
	base := strings.ToLower(filepath.Base(name))
	trimmed := bytes.TrimLeft(bytes.TrimPrefix(data, []byte("\xEF\xBB\xBF")), " \t\r\n")
	switch {
	case strings.HasSuffix(base, ".json") || bytes.HasPrefix(trimmed, []byte("{")):
		f, err := permove.ReadResultFile(bytes.NewReader(data))
		if err != nil {
			return Replay{}, fmt.Errorf("pdd replay %s: %w", name, err)
		}
		rules, err := pdd.ParseRules(f.Rules)
		if err != nil {
			return Replay{}, fmt.Errorf("pdd replay %s: rules %q: want course or official", name, f.Rules)
		}
		l, err := f.StepLog()
		if err != nil {
			return Replay{}, fmt.Errorf("pdd replay %s: %w", name, err)
		}
		g, err := record.ReplayPDDStepLog(l, rules)
		if err != nil {
			return Replay{}, fmt.Errorf("pdd replay %s: %w", name, err)
		}
		rp.Players = [2]string{clipText(f.Programs.W, maxNameBytes), clipText(f.Programs.B, maxNameBytes)}
		rp.Moves, rp.Frame = pddFrames(g)
		rp.Start = pddStepLogStart(g)
		rp.Result = clipText(pddResultFileText(f), maxResultBytes)
		if rp.Result != "" {
			rp.Frame = pddLastSays(rp.Frame, len(rp.Moves), rp.Result)
		}
		return rp, nil
	case strings.Contains(base, "bridge"):
		return Replay{}, fmt.Errorf("pdd replay %s: bridge.txt alone does not say whose bridges they are; open the game's stepLog.txt, result.json or chess.txt", name)
	case strings.Contains(base, "chess"):
		c, err := record.ReadPDDChess(bytes.NewReader(data), record.PDDLenient)
		if err != nil {
			return Replay{}, fmt.Errorf("pdd replay %s: %w", name, err)
		}
		return pddChessReplay(c, name)
	}
	l, err := record.ReadPDDStepLog(bytes.NewReader(data), record.PDDLenient)
	if err != nil {
		// Perhaps a chess.txt under another name.
		if c, cerr := record.ReadPDDChess(bytes.NewReader(data), record.PDDLenient); cerr == nil {
			return pddChessReplay(c, name)
		}
		return Replay{}, fmt.Errorf("pdd replay %s: %w (want a stepLog.txt, result.json or chess.txt)", name, err)
	}
	g, err := pddReplayStepLog(l)
	if err != nil {
		return Replay{}, fmt.Errorf("pdd replay %s: %w", name, err)
	}
	rp.Moves, rp.Frame = pddFrames(g)
	rp.Start = pddStepLogStart(g)
	if res, over := g.Result(); over {
		rp.Result = res.String()
	}
	return rp, nil
}

// pddReplayStepLog replays l under the profile it fits: Official when it
// has a Pass line or only replays so (parallel knight bridges), else Course.
func pddReplayStepLog(l record.PDDStepLog) (*pdd.Game, error) {
	for _, s := range l.Steps {
		if s.Move == pdd.Pass {
			return record.ReplayPDDStepLog(l, pdd.Official)
		}
	}
	g, err := record.ReplayPDDStepLog(l, pdd.Course)
	if err != nil {
		if og, oerr := record.ReplayPDDStepLog(l, pdd.Official); oerr == nil {
			return og, nil
		}
	}
	return g, err
}

// pddChessReplay is the one frame of a chess.txt: its tiles, no bridges.
func pddChessReplay(c record.PDDChess, name string) (Replay, error) {
	p, err := record.PDDPosition(c, record.PDDBridges{}, pdd.Setup{Turn: pdd.White})
	if err != nil {
		return Replay{}, fmt.Errorf("pdd replay %s: %w", name, err)
	}
	return Replay{Game: "pdd", Frame: framesIn(0, func(int) Frame {
		return Frame{Board: boardsvg.PDD(p, boardsvg.PDDOptions{}), Status: "tiles of chess.txt; " + pddScoreText(p.Score(pdd.White), p.Score(pdd.Black)), ToMove: -1}
	}), Start: startsIn(0, func(int) (string, []byte, error) {
		return "", nil, errors.New("a chess.txt alone holds the tiles and not the moves that placed them: no start file is cut from it; open the game's stepLog.txt or result.json")
	})}, nil
}

// pddFrames returns the moves of a game, one per stepLog line, and its
// frames, drawn when asked: the start, then one per line (a Course skip,
// which has no line, shows in the status of the frame before it).
func pddFrames(g *pdd.Game) ([]string, func(int) Frame) {
	var (
		moves []string
		at    []int // at[k] is the index in g.Moves() of the move of frame k+1
	)
	all := g.Moves()
	for i, m := range all {
		if m == pdd.Pass && g.Rules() == pdd.Course {
			continue
		}
		before, _ := g.PositionAt(i)
		moves = append(moves, record.NewPDDStep(before, m, len(moves)+1).String())
		at = append(at, i)
	}
	res, over := g.Result()
	return moves, framesIn(len(moves), func(k int) Frame {
		var f Frame
		if k == 0 {
			start, _ := g.PositionAt(0)
			f = PDDFrame(start, 0, pdd.NoMove, "", [2]string{})
		} else {
			i := at[k-1]
			before, _ := g.PositionAt(i)
			after, _ := g.PositionAt(i + 1)
			step := record.NewPDDStep(before, all[i], k)
			f = PDDFrame(after, k, step.Move, moves[k-1], [2]string{})
		}
		if over && k == len(moves) {
			f.Status, f.ToMove = res.String(), -1
		}
		return f
	})
}

// pddLastSays makes the last frame of frames (n plies) say the result
// text, the game over.
func pddLastSays(frames func(int) Frame, n int, text string) func(int) Frame {
	return func(k int) Frame {
		f := frames(k)
		if k < 0 || k > n {
			return f
		}
		if k == n {
			f.Status, f.ToMove = text, -1
		}
		return f
	}
}

// pddResultFileText says how a game of a result.json ended.
func pddResultFileText(f permove.ResultFile) string {
	if f.Reason == "" || f.Reason == "unfinished" {
		return ""
	}
	who := "draw"
	switch f.Winner {
	case "W":
		who = "white (" + f.Programs.W + ") wins"
	case "B":
		who = "black (" + f.Programs.B + ") wins"
	}
	s := fmt.Sprintf("%s by %s; %s", who, f.Reason, pddScoreText(pdd.Score(f.Score.W), pdd.Score(f.Score.B)))
	if v := f.Violation; v != nil {
		s += fmt.Sprintf("; %s by %s on turn %d: %s", v.Name, v.Color, v.Turn, v.Detail)
	}
	return s
}

// pddScoreText writes both scores: "points/islands/bridges white 7/4/3,
// black 6/4/2".
func pddScoreText(w, b pdd.Score) string {
	return fmt.Sprintf("points/islands/bridges white %d/%d/%d, black %d/%d/%d", w.Points, w.Islands, w.Bridges, b.Points, b.Islands, b.Bridges)
}

// PDDStatus describes a position in play: who is to move and the scores,
// "white to move; points/islands/bridges white 7/4/3, black 6/4/2".
func PDDStatus(p pdd.Position) string {
	w, b := p.Score(pdd.White), p.Score(pdd.Black)
	score := pddScoreText(w, b)
	switch {
	case p.IsOver():
		return "game over; " + score
	case p.MustPass() && p.Rules() == pdd.Course:
		return fmt.Sprintf("%s has no move and is skipped; %s", p.Turn(), score)
	}
	return fmt.Sprintf("%s to move; %s", p.Turn(), score)
}

// pddToMove is the seat to move in p, -1 once the game is over.
func pddToMove(p pdd.Position) int {
	if p.IsOver() {
		return -1
	}
	return int(p.Turn() - pdd.White)
}

// PDDFrame is the frame of p, reached by ply plies, last (pdd.NoMove for
// none) the action that led here and move its stepLog line
// ("W_5_Chess_8,8_9,9"): the board, the status (PDDStatus) and the seat to
// move (White's 0).
func PDDFrame(p pdd.Position, ply int, last pdd.Move, move string, clocks [2]string) Frame {
	return Frame{Ply: ply, Move: move, Board: boardsvg.PDD(p, boardsvg.PDDOptions{Last: last}), Status: PDDStatus(p), Clocks: clocks, ToMove: pddToMove(p)}
}

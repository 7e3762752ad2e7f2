package viewer

import (
	"bytes"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"strconv"

	"github.com/botarena/botarena/darkchess"
	"github.com/botarena/botarena/geister"
	"github.com/botarena/botarena/othello"
	"github.com/botarena/botarena/pdd"
	"github.com/botarena/botarena/record"
)

// ErrNoStart is wrapped by the error of [Replay.StartAt] for a replay that
// saves no start file, or a ply out of its range.
var ErrNoStart = errors.New("viewer: no start file")

// StartAt writes the start file of the position after i plies (see
// [Replay.Start]). Any i outside 0 to len(rp.Moves), a Replay without a
// Start function, or a Start function that fails (a panic included) gives
// an error, never a panic; the first two wrap ErrNoStart.
func (rp Replay) StartAt(i int) (name string, data []byte, err error) {
	if i < 0 || i > len(rp.Moves) {
		return "", nil, fmt.Errorf("%w: ply %d of a replay of %d plies (0 to %d)", ErrNoStart, i, len(rp.Moves), len(rp.Moves))
	}
	if rp.Start == nil {
		return "", nil, fmt.Errorf("%w: this record saves no start file", ErrNoStart)
	}
	defer func() {
		if p := recover(); p != nil {
			name, data, err = "", nil, fmt.Errorf("viewer: writing the start file at ply %d failed: %v", i, p)
		}
	}()
	return rp.Start(i)
}

// startsIn makes a replay's Start function safe to call with any i: for
// an i outside 0 to n it fails instead of calling start.
func startsIn(n int, start func(int) (string, []byte, error)) func(int) (string, []byte, error) {
	return func(i int) (string, []byte, error) {
		if i < 0 || i > n {
			return "", nil, fmt.Errorf("%w: ply %d out of 0 to %d", ErrNoStart, i, n)
		}
		return start(i)
	}
}

// startName is the name of a start file cut at ply i: "board-ply12.txt".
func startName(base string, i int) string {
	return base + "-ply" + strconv.Itoa(i) + ".txt"
}

// overAt is the error of a start file asked for where the game is over.
func overAt(i int) error {
	return fmt.Errorf("the game is over after ply %d: no game starts from there; pick an earlier ply", i)
}

// othelloTransStart saves ply i of a transcript's game g as a -trans
// transcript cut there, with the same header. A transcript writes no
// passes: cut just after a pass, it reads back as the position before it,
// where the side to move has no move and passes at once.
func othelloTransStart(g *othello.Game, black, white string) func(int) (string, []byte, error) {
	moves := g.Moves()
	start, _ := g.PositionAt(0)
	return startsIn(len(moves), func(i int) (string, []byte, error) {
		if p, _ := g.PositionAt(i); p.IsOver() {
			return "", nil, overAt(i)
		}
		var b bytes.Buffer
		t := &record.OthelloTranscript{Black: black, White: white, Start: start, Moves: moves[:i]}
		if err := record.WriteOthelloTranscript(&b, t); err != nil {
			return "", nil, err
		}
		return startName("trans", i), b.Bytes(), nil
	})
}

// othelloMoveListStart saves ply i of a move list's game g (from the
// standard start) as the move list cut there, one line, every pass
// written ("pa") so that a cut just after one keeps it.
func othelloMoveListStart(g *othello.Game) func(int) (string, []byte, error) {
	moves := g.Moves()
	return startsIn(len(moves), func(i int) (string, []byte, error) {
		if p, _ := g.PositionAt(i); p.IsOver() {
			return "", nil, overAt(i)
		}
		b := make([]byte, 0, 2*i+1)
		for _, m := range moves[:i] {
			if m == othello.Pass {
				b = append(b, "pa"...)
			} else {
				b = append(b, m.String()...)
			}
		}
		return startName("moves", i), append(b, '\n'), nil
	})
}

// geisterBoardStart saves ply i of the board.txt b as its mid-game file:
// the same header, the first i plies with their times and captures, no
// result line.
func geisterBoardStart(b *record.GeisterBoard, g *geister.Game) func(int) (string, []byte, error) {
	return startsIn(len(b.Moves), func(i int) (string, []byte, error) {
		if p, ok := g.PositionAt(i); !ok || p.IsOver() {
			return "", nil, overAt(i)
		}
		mid, err := b.MidGame(i)
		if err != nil {
			return "", nil, err
		}
		data, err := record.AppendGeisterBoard(nil, mid)
		if err != nil {
			return "", nil, err
		}
		return startName("board", i), data, nil
	})
}

// darkChessBoardStart saves ply i of the board.txt b as the board.txt a
// read-mode engine is given at that ply: the same header, the first i
// plies and their timestamps, no result line. positions are the positions
// of b's replay.
func darkChessBoardStart(b *record.DarkChessBoard, positions []darkchess.Position) func(int) (string, []byte, error) {
	return startsIn(len(b.Plies), func(i int) (string, []byte, error) {
		if positions[i].IsOver() {
			return "", nil, overAt(i)
		}
		cut := *b
		cut.Banner = ""
		cut.Plies = b.Plies[:i:i]
		cut.Result = nil
		cut.Times = b.Times[:min(len(b.Times), i+1):min(len(b.Times), i+1)]
		data, err := record.AppendDarkChessBoard(nil, &cut, record.DarkChessReadMode)
		if err != nil {
			return "", nil, err
		}
		return startName("board", i), data, nil
	})
}

// pddStepLogStart saves ply k of g (k stepLog lines) as its stepLog.txt
// cut after line k: one file, which -start replays by itself.
func pddStepLogStart(g *pdd.Game) func(int) (string, []byte, error) {
	l := record.NewPDDStepLog(g)
	return startsIn(len(l.Steps), func(k int) (string, []byte, error) {
		cut := record.PDDStepLog{Steps: l.Steps[:k]}
		mid, err := record.ReplayPDDStepLog(cut, g.Rules())
		if err != nil {
			return "", nil, err
		}
		if mid.Position().IsOver() {
			return "", nil, overAt(k)
		}
		data, err := cut.AppendText(nil)
		if err != nil {
			return "", nil, err
		}
		return startName("stepLog", k), data, nil
	})
}

// serveStart answers a replay's start file at a ply as a download:
// ?file= or ?upload= as for the page, game, and ply (0 for the start).
func (v *Viewer) serveStart(w http.ResponseWriter, r *http.Request) {
	p, src, ply, release, err := v.replayPly(r)
	if err != nil {
		v.replyError(w, err)
		return
	}
	defer release()
	name, data, err := p.rp.StartAt(ply)
	if err != nil {
		v.replyError(w, &httpError{http.StatusUnprocessableEntity, "Cannot save this position", fmt.Sprintf("%s, ply %d: %v", src.name, ply, err)})
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/plain; charset=utf-8")
	h.Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": name}))
	h.Set("Cache-Control", "no-store")
	w.Write(data)
}

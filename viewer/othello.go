package viewer

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/botarena/botarena/boardsvg"
	"github.com/botarena/botarena/othello"
	"github.com/botarena/botarena/record"
)

// OthelloFrame draws an Othello position for the viewer: the frame of a
// game after ply plies, last being the move that led to p (othello.NoMove at
// the start), clocks the seats' time left ("" for no clock; black's first).
// status is the text under the board; "" means the default: the side to
// move and the disc counts, or the result once neither side can move.
//
// The board is an SVG picture (green board, grid, a-h and 1-8 labels with
// a1 top-left as the TUS server numbers squares, black and white discs, the
// side to move's legal moves as small dots, the last move marked red). The
// output is deterministic.
func OthelloFrame(p othello.Position, ply int, last othello.Move, status string, clocks [2]string) Frame {
	f := Frame{Ply: ply, Board: boardsvg.Othello(p, boardsvg.OthelloOptions{Last: last}), Clocks: clocks, ToMove: int(p.Turn())}
	if last != othello.NoMove {
		f.Move = last.String()
	}
	if p.IsOver() {
		f.ToMove = -1
	}
	if status == "" {
		status = othelloStatusText(p)
	}
	f.Status = status
	return f
}

// othelloStatusText describes p: whose move it is and the disc counts, or the
// result when the game is over.
func othelloStatusText(p othello.Position) string {
	b, w := p.Count(othello.Black), p.Count(othello.White)
	switch {
	case !p.IsOver():
		side := "black"
		if p.Turn() == othello.White {
			side = "white"
		}
		if p.MustPass() {
			return fmt.Sprintf("%s to move (must pass); black %d, white %d", side, b, w)
		}
		return fmt.Sprintf("%s to move; black %d, white %d", side, b, w)
	case b > w:
		return fmt.Sprintf("game over: black wins %d-%d", b, w)
	case w > b:
		return fmt.Sprintf("game over: white wins %d-%d", b, w)
	}
	return fmt.Sprintf("game over: draw %d-%d", b, w)
}

// ReplayOthello reads an Othello record for the replay page: a TUS server
// -trans transcript ("B:<black>,W:<white>" then "x,y,color" lines, from the
// TUS start) or a plain move list ("f5d6c3...", from the standard start).
// A move list must hold at least one move, so that an empty or unrelated
// file is not taken for an Othello game; it names no players (the replay's
// Players are empty).
func ReplayOthello(name string, data []byte) (Replay, error) {
	if bytes.HasPrefix(data, []byte("B:")) {
		t, err := record.ReadOthelloTranscript(bytes.NewReader(data), othello.Position{})
		if err != nil {
			return Replay{}, fmt.Errorf("%s: not an Othello -trans transcript: %w", name, err)
		}
		g, err := t.Game()
		if err != nil {
			return Replay{}, fmt.Errorf("%s: %w", name, err)
		}
		rp := othelloReplay(g, [2]string{t.Black, t.White})
		rp.Start = othelloTransStart(g, t.Black, t.White)
		return rp, nil
	}
	g, err := record.ReadOthelloMoveList(bytes.NewReader(data))
	if err != nil {
		return Replay{}, fmt.Errorf("%s: neither an Othello -trans transcript (first line B:<black>,W:<white>) nor a plain move list (f5d6c3...): %w", name, err)
	}
	if g.Ply() == 0 {
		return Replay{}, errors.New(name + ": an Othello move list with no moves (want a -trans transcript or moves such as f5d6c3)")
	}
	rp := othelloReplay(g, [2]string{}) // a move list names nobody
	rp.Start = othelloMoveListStart(g)
	return rp, nil
}

// othelloReplay is the replay of a game: its moves, and its frames drawn
// from its positions when asked.
func othelloReplay(g *othello.Game, players [2]string) Replay {
	players = [2]string{clipText(players[0], maxNameBytes), clipText(players[1], maxNameBytes)}
	moves := g.Moves()
	rp := Replay{Game: "othello", Players: players, Moves: make([]string, len(moves))}
	for i, m := range moves {
		rp.Moves[i] = m.String()
	}
	rp.Frame = framesIn(len(moves), func(ply int) Frame {
		p, _ := g.PositionAt(ply)
		last := othello.NoMove
		if ply > 0 {
			last = moves[ply-1]
		}
		return OthelloFrame(p, ply, last, "", [2]string{})
	})
	if res, ok := g.Result(); ok {
		rp.Result = othelloResultText(res, players)
	}
	return rp
}

// othelloResultText says who won a finished game, by name when the record
// names the players ("alice (black) wins 40-24 (discs)"), else by colour
// ("black wins 40-24 (discs)").
func othelloResultText(res othello.Result, players [2]string) string {
	if res.Draw {
		return fmt.Sprintf("draw %d-%d", res.Black, res.White)
	}
	side := "black"
	if res.Winner == othello.White {
		side = "white"
	}
	if name := players[res.Winner]; name != "" {
		side = name + " (" + side + ")"
	}
	return fmt.Sprintf("%s wins %d-%d (%s)", side, res.Black, res.White, res.Reason)
}

package main

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"github.com/botarena/botarena/othello"
	"github.com/botarena/botarena/record"
)

// The geometry and colours of the Othello board picture. The board is drawn
// as the TUS server and the othello package see it: column a (x 0) on the
// left, row 1 (y 0) at the top, so a1 is the top-left corner.
const (
	othelloCell   = 50                               // a square's side
	othelloMargin = 30                               // the frame around the board, holding the labels
	othelloSide   = 8*othelloCell + 2*othelloMargin  // the picture's width and height
	othelloGreen  = "#2e7d32"                        // the board
	othelloFrameC = "#3e2723"                        // the frame
	othelloLabelC = "#f3e5c8"                        // the coordinates
	othelloLineC  = "#123d16"                        // the grid
	othelloOffC   = "#6b6b6b"                        // squares off a 6x6 board
	othelloLastC  = "#e53935"                        // the last move's mark
	othelloFont   = "DejaVu Sans, Arial, sans-serif" // system fonts only
)

// othelloFrame draws an Othello position for the web viewer: the frame of a
// game after ply plies, last being the move that led to p (othello.NoMove at
// the start), clocks the seats' time left ("" for no clock; black's first).
// status is the text under the board; "" means the default: the side to
// move and the disc counts, or the result once neither side can move.
//
// The board is an SVG picture (green board, grid, a-h and 1-8 labels with
// a1 top-left as the TUS server numbers squares, black and white discs, the
// side to move's legal moves as small dots, the last move marked red). The
// output is deterministic.
func othelloFrame(p othello.Position, ply int, last othello.Move, status string, clocks [2]string) frame {
	f := frame{Ply: ply, Board: othelloSVG(p, last), Clocks: clocks, ToMove: int(p.Turn())}
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

// othelloSVG draws p as a complete <svg> element, last marked.
func othelloSVG(p othello.Position, last othello.Move) string {
	var b strings.Builder
	b.Grow(8 << 10)
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %d %d" class="board othello">`, othelloSide, othelloSide)
	fmt.Fprintf(&b, `<rect width="%d" height="%d" rx="8" fill="%s"/>`, othelloSide, othelloSide, othelloFrameC)
	fmt.Fprintf(&b, `<rect x="%d" y="%d" width="%d" height="%d" fill="%s"/>`, othelloMargin, othelloMargin, 8*othelloCell, 8*othelloCell, othelloGreen)
	// Squares that are not on the board (the 6x6 board's rim).
	board := p.Board()
	for s := othello.Square(0); s < 64; s++ {
		if !board.Has(s) {
			x, y := othelloXY(s)
			fmt.Fprintf(&b, `<rect x="%d" y="%d" width="%d" height="%d" fill="%s"/>`, x, y, othelloCell, othelloCell, othelloOffC)
		}
	}
	// The grid.
	fmt.Fprintf(&b, `<g stroke="%s" stroke-width="2">`, othelloLineC)
	for i := 0; i <= 8; i++ {
		c := othelloMargin + i*othelloCell
		fmt.Fprintf(&b, `<line x1="%d" y1="%d" x2="%d" y2="%d"/>`, c, othelloMargin, c, othelloMargin+8*othelloCell)
		fmt.Fprintf(&b, `<line x1="%d" y1="%d" x2="%d" y2="%d"/>`, othelloMargin, c, othelloMargin+8*othelloCell, c)
	}
	b.WriteString(`</g>`)
	// The four dots of a real board, at the corners of the centre 4x4.
	fmt.Fprintf(&b, `<g fill="%s">`, othelloLineC)
	for _, c := range [][2]int{{2, 2}, {6, 2}, {2, 6}, {6, 6}} {
		fmt.Fprintf(&b, `<circle cx="%d" cy="%d" r="4"/>`, othelloMargin+c[0]*othelloCell, othelloMargin+c[1]*othelloCell)
	}
	b.WriteString(`</g>`)
	// The labels: columns a-h above and below, rows 1-8 left and right.
	fmt.Fprintf(&b, `<g fill="%s" font-family="%s" font-size="18" font-weight="bold" text-anchor="middle" dominant-baseline="central">`, othelloLabelC, othelloFont)
	for i := range 8 {
		c := othelloMargin + i*othelloCell + othelloCell/2
		fmt.Fprintf(&b, `<text x="%d" y="%d">%c</text>`, c, othelloMargin/2, 'a'+i)
		fmt.Fprintf(&b, `<text x="%d" y="%d">%c</text>`, c, othelloSide-othelloMargin/2, 'a'+i)
		fmt.Fprintf(&b, `<text x="%d" y="%d">%d</text>`, othelloMargin/2, c, i+1)
		fmt.Fprintf(&b, `<text x="%d" y="%d">%d</text>`, othelloSide-othelloMargin/2, c, i+1)
	}
	b.WriteString(`</g>`)
	// The discs, with a shadow so that white shows on any screen.
	r := othelloCell/2 - 5
	for s := range (p.Black() | p.White()).Squares() {
		cx, cy := othelloCentre(s)
		fill, stroke, class := "#111111", "#000000", "disc black"
		if p.White().Has(s) {
			fill, stroke, class = "#f7f7f7", "#333333", "disc white"
		}
		fmt.Fprintf(&b, `<circle cx="%d" cy="%d" r="%d" fill="#0a2a0c" opacity="0.45"/>`, cx+2, cy+3, r)
		fmt.Fprintf(&b, `<circle class="%s" data-square="%s" cx="%d" cy="%d" r="%d" fill="%s" stroke="%s" stroke-width="1.5"/>`, class, s, cx, cy, r, fill, stroke)
	}
	// The side to move's legal placements.
	if !p.IsOver() {
		dot := "#111111"
		if p.Turn() == othello.White {
			dot = "#f7f7f7"
		}
		fmt.Fprintf(&b, `<g class="legal" fill="%s" opacity="0.5">`, dot)
		for s := range p.LegalSquares().Squares() {
			cx, cy := othelloCentre(s)
			fmt.Fprintf(&b, `<circle data-square="%s" cx="%d" cy="%d" r="6"/>`, s, cx, cy)
		}
		b.WriteString(`</g>`)
	}
	// The last move.
	if s := last.Square(); s != othello.NoSquare {
		cx, cy := othelloCentre(s)
		fmt.Fprintf(&b, `<circle class="last" data-square="%s" cx="%d" cy="%d" r="6" fill="%s"/>`, s, cx, cy, othelloLastC)
	}
	b.WriteString(`</svg>`)
	return b.String()
}

// othelloXY returns the top-left corner of square s in the picture.
func othelloXY(s othello.Square) (x, y int) {
	return othelloMargin + int(s%8)*othelloCell, othelloMargin + int(s/8)*othelloCell
}

// othelloCentre returns the centre of square s in the picture.
func othelloCentre(s othello.Square) (x, y int) {
	x, y = othelloXY(s)
	return x + othelloCell/2, y + othelloCell/2
}

// replayOthello reads an Othello record for the replay page: a TUS server
// -trans transcript ("B:<black>,W:<white>" then "x,y,color" lines, from the
// TUS start) or a plain move list ("f5d6c3...", from the standard start).
// A move list must hold at least one move, so that an empty or unrelated
// file is not taken for an Othello game.
func replayOthello(name string, data []byte) (replay, error) {
	if bytes.HasPrefix(data, []byte("B:")) {
		t, err := record.ReadOthelloTranscript(bytes.NewReader(data), othello.Position{})
		if err != nil {
			return replay{}, fmt.Errorf("%s: not an Othello -trans transcript: %w", name, err)
		}
		g, err := t.Game()
		if err != nil {
			return replay{}, fmt.Errorf("%s: %w", name, err)
		}
		return othelloReplay(g, [2]string{t.Black, t.White}), nil
	}
	g, err := record.ReadOthelloMoveList(bytes.NewReader(data))
	if err != nil {
		return replay{}, fmt.Errorf("%s: neither an Othello -trans transcript (first line B:<black>,W:<white>) nor a plain move list (f5d6c3...): %w", name, err)
	}
	if g.Ply() == 0 {
		return replay{}, errors.New(name + ": an Othello move list with no moves (want a -trans transcript or moves such as f5d6c3)")
	}
	return othelloReplay(g, [2]string{"black", "white"}), nil
}

// othelloReplay is the replay of a game: its moves, and its frames drawn
// from its positions when asked.
func othelloReplay(g *othello.Game, players [2]string) replay {
	players = [2]string{clipText(players[0], maxNameBytes), clipText(players[1], maxNameBytes)}
	moves := g.Moves()
	rp := replay{Game: "othello", Players: players, Moves: make([]string, len(moves))}
	for i, m := range moves {
		rp.Moves[i] = m.String()
	}
	rp.Frame = func(ply int) frame {
		p, _ := g.PositionAt(ply)
		last := othello.NoMove
		if ply > 0 {
			last = moves[ply-1]
		}
		return othelloFrame(p, ply, last, "", [2]string{})
	}
	if res, ok := g.Result(); ok {
		rp.Result = othelloResultText(res, players)
	}
	return rp
}

// othelloResultText says who won a finished game, by name.
func othelloResultText(res othello.Result, players [2]string) string {
	if res.Draw {
		return fmt.Sprintf("draw %d-%d", res.Black, res.White)
	}
	side := "black"
	if res.Winner == othello.White {
		side = "white"
	}
	return fmt.Sprintf("%s (%s) wins %d-%d (%s)", players[res.Winner], side, res.Black, res.White, res.Reason)
}

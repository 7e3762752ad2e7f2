package main

import (
	"bytes"
	"fmt"
	"html"
	"strings"

	"github.com/botarena/botarena/darkchess"
	"github.com/botarena/botarena/record"
)

// darkchessGlyphs are the Chinese characters of the pieces as the platform
// names them, indexed by darkchess.Piece: 帥仕相俥傌炮兵 for red,
// 將士象車馬包卒 for black.
var darkchessGlyphs = [16]string{
	darkchess.RedKing: "帥", darkchess.RedGuard: "仕", darkchess.RedMinister: "相", darkchess.RedRook: "俥",
	darkchess.RedKnight: "傌", darkchess.RedCannon: "炮", darkchess.RedPawn: "兵",
	darkchess.BlackKing: "將", darkchess.BlackGuard: "士", darkchess.BlackMinister: "象", darkchess.BlackRook: "車",
	darkchess.BlackKnight: "馬", darkchess.BlackCannon: "包", darkchess.BlackPawn: "卒",
}

// darkchessPicture is what the board drawing shows: the position as anyone
// may see it (the deal is never drawn), the last ply, and the text around.
type darkchessPicture struct {
	Pos     darkchess.Position // drawn as Position.At shows it
	Last    darkchess.Move     // the ply that led here, NoMove for none
	Players [2]string          // the seats' names, the first player's first
	Colors  [2]darkchess.Color // each seat's colour, NoColor until the first flip
	Status  string             // who is to move, or the result
	Clocks  [2]string          // each seat's time left, "" for no clock
}

// Board geometry, in SVG user units.
const (
	dcCell   = 60                     // a square's side
	dcLeft   = 34                     // the margin left of the board (rank labels)
	dcTop    = 14                     // the margin above the board
	dcBoardW = 4 * dcCell             // the board's width
	dcBoardH = 8 * dcCell             // the board's height
	dcPanelX = dcLeft + dcBoardW + 24 // the captured-pieces panel
	dcWidth  = dcPanelX + 150
	dcHeight = dcTop + dcBoardH + 92
)

// darkchessSVG draws p as a complete <svg> element: the 4x8 board in the
// platform's orientation (files a-d left to right, rank 8 at the top) with
// its labels, face-down pieces as plain brown discs, revealed pieces as red
// or black discs with their Chinese character and, so that the kind shows
// even without a CJK font, its letter (KGMRNCP) small; the last ply's squares
// outlined; the captured pieces listed at the side; the players, the status
// and the clocks below. The output depends on p alone.
func darkchessSVG(p darkchessPicture) string {
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %d %d" font-family="'Noto Sans CJK TC','Noto Sans CJK SC','Noto Serif CJK TC','WenQuanYi Zen Hei','WenQuanYi Micro Hei','Microsoft JhengHei',sans-serif">`, dcWidth, dcHeight)
	fmt.Fprintf(&b, `<rect x="0" y="0" width="%d" height="%d" fill="#f4ecd8"/>`, dcWidth, dcHeight)
	// The board and its grid.
	fmt.Fprintf(&b, `<rect class="board" x="%d" y="%d" width="%d" height="%d" fill="#e3c48f" stroke="#5b3a1a" stroke-width="3"/>`, dcLeft, dcTop, dcBoardW, dcBoardH)
	for i := 1; i < 4; i++ {
		x := dcLeft + i*dcCell
		fmt.Fprintf(&b, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#7a5530" stroke-width="1.5"/>`, x, dcTop, x, dcTop+dcBoardH)
	}
	for i := 1; i < 8; i++ {
		y := dcTop + i*dcCell
		fmt.Fprintf(&b, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#7a5530" stroke-width="1.5"/>`, dcLeft, y, dcLeft+dcBoardW, y)
	}
	// Labels: files under the board, ranks to its left.
	for f := range 4 {
		fmt.Fprintf(&b, `<text x="%d" y="%d" font-size="16" text-anchor="middle" fill="#3b2a14">%c</text>`, dcLeft+f*dcCell+dcCell/2, dcTop+dcBoardH+20, 'a'+f)
	}
	for r := 1; r <= 8; r++ {
		fmt.Fprintf(&b, `<text x="%d" y="%d" font-size="16" text-anchor="middle" fill="#3b2a14">%d</text>`, dcLeft/2, dcTop+(8-r)*dcCell+dcCell/2+6, r)
	}
	// The last ply.
	if p.Last.Valid() {
		for _, s := range []darkchess.Square{p.Last.From(), p.Last.To()} {
			x, y := dcSquareXY(s)
			fmt.Fprintf(&b, `<rect class="last" x="%d" y="%d" width="%d" height="%d" fill="#fff27a" fill-opacity="0.55" stroke="#e0a800" stroke-width="3"/>`, x+2, y+2, dcCell-4, dcCell-4)
		}
	}
	// The pieces.
	for s := darkchess.Square(0); s < 32; s++ {
		x, y := dcSquareXY(s)
		dcDisc(&b, p.Pos.At(s), x+dcCell/2, y+dcCell/2, 26)
	}
	// The captured pieces, by colour.
	fmt.Fprintf(&b, `<text x="%d" y="%d" font-size="15" fill="#3b2a14">Captured</text>`, dcPanelX, dcTop+16)
	for ci, c := range []darkchess.Color{darkchess.Red, darkchess.Black} {
		y0 := dcTop + 30 + ci*220
		fmt.Fprintf(&b, `<text x="%d" y="%d" font-size="12" fill="#3b2a14">%s</text>`, dcPanelX, y0+10, c)
		n := 0
		for k := darkchess.King; k <= darkchess.Pawn; k++ {
			pc := darkchess.MakePiece(c, k)
			for range dcCaptured(p.Pos, pc) {
				dcDisc(&b, pc, dcPanelX+18+(n%4)*34, y0+34+(n/4)*36, 15)
				n++
			}
		}
		if n == 0 {
			fmt.Fprintf(&b, `<text x="%d" y="%d" font-size="12" fill="#8a7a60">none</text>`, dcPanelX, y0+30)
		}
	}
	// Players, clocks and status.
	y := dcTop + dcBoardH + 44
	for i := range 2 {
		seat := [2]string{"first", "second"}[i]
		fill := "#3b2a14"
		switch p.Colors[i] {
		case darkchess.Red:
			fill = "#b3261e"
		case darkchess.Black:
			fill = "#111111"
		}
		text := fmt.Sprintf("%s: %s", seat, p.Players[i])
		if p.Colors[i].Valid() {
			text += " (" + p.Colors[i].String() + ")"
		}
		if p.Clocks[i] != "" {
			text += "  " + p.Clocks[i]
		}
		fmt.Fprintf(&b, `<text class="player" x="%d" y="%d" font-size="15" fill="%s">%s</text>`, 8+i*(dcWidth/2), y, fill, html.EscapeString(text))
	}
	fmt.Fprintf(&b, `<text class="status" x="8" y="%d" font-size="15" fill="#3b2a14">%s</text>`, y+26, html.EscapeString(p.Status))
	b.WriteString(`</svg>`)
	return b.String()
}

// dcSquareXY returns the top-left corner of square s on the drawing.
func dcSquareXY(s darkchess.Square) (x, y int) {
	f, r := int(s)%4, int(s)/4
	return dcLeft + f*dcCell, dcTop + (7-r)*dcCell
}

// dcDisc draws what a square shows, centred on cx, cy with radius rad:
// nothing for an empty square, a plain brown disc for a face-down piece, and
// a red or black disc with its character and letter for a revealed one.
func dcDisc(b *strings.Builder, pc darkchess.Piece, cx, cy, rad int) {
	switch {
	case pc == darkchess.Hidden:
		fmt.Fprintf(b, `<circle class="facedown" cx="%d" cy="%d" r="%d" fill="#8b5a2b" stroke="#4a2c10" stroke-width="2"/>`, cx, cy, rad)
		fmt.Fprintf(b, `<circle cx="%d" cy="%d" r="%d" fill="none" stroke="#c79a5e" stroke-width="1.5"/>`, cx, cy, rad*2/3)
	case pc.Valid():
		fill, rim := "#c62828", "#7f0000"
		if pc.Color() == darkchess.Black {
			fill, rim = "#1f1f1f", "#000000"
		}
		letter := strings.ToUpper(pc.String())
		fmt.Fprintf(b, `<g class="piece %s" data-piece="%s">`, pc.Color(), pc)
		fmt.Fprintf(b, `<circle cx="%d" cy="%d" r="%d" fill="%s" stroke="%s" stroke-width="2"/>`, cx, cy, rad, fill, rim)
		fmt.Fprintf(b, `<circle cx="%d" cy="%d" r="%d" fill="none" stroke="#f5e6c8" stroke-width="1.2"/>`, cx, cy, rad*5/6)
		fmt.Fprintf(b, `<text x="%d" y="%d" font-size="%d" text-anchor="middle" fill="#fdf6e3">%s</text>`, cx-rad/10, cy+rad*3/10, rad*9/10, darkchessGlyphs[pc])
		// The kind's letter on a badge, for a browser without a CJK font.
		bx, by, br := cx+rad*5/8, cy+rad*5/8, max(rad*2/5, 6)
		fmt.Fprintf(b, `<circle cx="%d" cy="%d" r="%d" fill="#ffe082" stroke="%s" stroke-width="1.5"/>`, bx, by, br, rim)
		fmt.Fprintf(b, `<text x="%d" y="%d" font-size="%d" font-family="sans-serif" font-weight="bold" text-anchor="middle" fill="%s">%s</text>`, bx, by+br*2/5+1, br*6/5, fill, letter)
		b.WriteString(`</g>`)
	}
}

// dcCaptured returns how many pieces pc are no longer in p: the initial
// number less those revealed on the board and those face-down.
func dcCaptured(p darkchess.Position, pc darkchess.Piece) int {
	return max(pc.Kind().InitialCount()-p.Pieces(pc).Count()-p.Pool(pc), 0)
}

// darkchessStatus says who is to move, or how the game ended. toMove is the
// seat to move; over and r give the result when the game has ended.
func darkchessStatus(players [2]string, colors [2]darkchess.Color, toMove int, over bool, r darkchess.Result) string {
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

// darkchessReplay reads a board.txt (every variant record reads: the 2021
// records and snapshots, the 2017 server records and client copies, the
// 2019 Windows client's) and returns its plies, checked, with a frame for
// its start and one after every ply, drawn when asked. The result is the
// replay's under the first of NTU2021, Classic and ICGA that agrees with the
// record's result line (the 2017 records say only who won), else the result
// line as written.
func darkchessReplay(name string, data []byte) (replay, error) {
	b, err := record.ReadDarkChessBoard(bytes.NewReader(data))
	if err != nil {
		return replay{}, fmt.Errorf("%s: %w", name, err)
	}
	if len(b.Plies) > dcMaxReplayPlies {
		return replay{}, fmt.Errorf("%s: %d plies; the replay shows games of at most %d (no game under the presets' draw rules is longer)", name, len(b.Plies), dcMaxReplayPlies)
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
			return replay{}, fmt.Errorf("%s: ply %d %s: %w", name, i+1, ply, err)
		}
		positions = append(positions, next)
		moves[i] = ply.String()
	}
	status := func(i int) string {
		end := i == n
		if end && !over && b.Result != nil {
			return "result: " + resultText
		}
		return darkchessStatus(players, colorsAt(i), i%2, end && over, res)
	}
	rp := replay{Game: "darkchess", Players: players, Moves: moves}
	rp.Frame = func(i int) frame {
		last := darkchess.NoMove
		if i > 0 {
			last = b.Plies[i-1].Move
		}
		st := status(i)
		f := frame{Ply: i, Board: darkchessSVG(darkchessPicture{Pos: positions[i], Last: last, Players: players, Colors: colorsAt(i), Status: st}), Status: st, ToMove: i % 2}
		if i > 0 {
			f.Move = moves[i-1]
		}
		if i == n && (over || b.Result != nil) {
			f.ToMove = -1
		}
		return f
	}
	switch {
	case over:
		rp.Result = status(n)
	case b.Result != nil:
		rp.Result = resultText
	}
	return rp, nil
}

package main

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/botarena/botarena/pdd"
	"github.com/botarena/botarena/protocol/permove"
	"github.com/botarena/botarena/record"
)

// The PDD board's geometry in SVG units: 10x10 cells of pddCell, the
// coordinate labels in a margin of pddMargin at the top and the left.
const (
	pddCell   = 40
	pddMargin = 28
	pddSize   = pddMargin + 10*pddCell + 8
)

// pddBoardSVG draws position p as the platform numbers it: column x = 0..9
// from the left (labels on top), row y = 0..9 from the top (labels on the
// left), as in "x,y" points. The board is the lagoon (blue); white tiles
// are ivory and black tiles dark; a finished island of 4 tiles has a gold
// rim; squares under a bridge are shaded; bridges are thick lines between
// their endpoints' centres in the owner's colour, outlined in the other's.
// last, when not nil, is the action that led to p: its squares are ringed
// in red (a bridge also gets a red dashed centre line).
func pddBoardSVG(p pdd.Position, last *record.PDDStep) string {
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %d %d" class="pdd-board">`, pddSize, pddSize)
	fmt.Fprintf(&b, `<rect class="frame" x="0" y="0" width="%d" height="%d" fill="#d9c9a0"/>`, pddSize, pddSize)
	fmt.Fprintf(&b, `<rect class="lagoon" x="%d" y="%d" width="%d" height="%d" fill="#3f82b0"/>`, pddMargin, pddMargin, 10*pddCell, 10*pddCell)
	// Coordinates: x on top, y on the left.
	for i := range 10 {
		c := pddMargin + i*pddCell + pddCell/2
		fmt.Fprintf(&b, `<text class="coord" x="%d" y="%d" font-family="sans-serif" font-size="14" text-anchor="middle" fill="#3b2f1e">%d</text>`, c, pddMargin-9, i)
		fmt.Fprintf(&b, `<text class="coord" x="%d" y="%d" font-family="sans-serif" font-size="14" text-anchor="middle" fill="#3b2f1e">%d</text>`, pddMargin/2, c+5, i)
	}
	// Squares under bridges, then the grid.
	for s := range p.Under().Squares() {
		x, y := pddCorner(s)
		fmt.Fprintf(&b, `<rect class="under" x="%d" y="%d" width="%d" height="%d" fill="#2c5f84"/>`, x, y, pddCell, pddCell)
	}
	for i := 0; i <= 10; i++ {
		o := pddMargin + i*pddCell
		fmt.Fprintf(&b, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#23506f" stroke-width="1"/>`, o, pddMargin, o, pddMargin+10*pddCell)
		fmt.Fprintf(&b, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#23506f" stroke-width="1"/>`, pddMargin, o, pddMargin+10*pddCell, o)
	}
	// Tiles, with a gold rim on the tiles of islands.
	for _, c := range []pdd.Color{pdd.White, pdd.Black} {
		fill, edge := pddColors(c)
		islands := pddIslandTiles(p.Tiles(c))
		for s := range p.Tiles(c).Squares() {
			x, y := pddCorner(s)
			class, stroke, width := "tile "+c.String(), edge, 1.5
			if islands.Has(s) {
				class, stroke, width = class+" island", "#e8b100", 3
			}
			fmt.Fprintf(&b, `<rect class="%s" data-square="%s" x="%d" y="%d" width="%d" height="%d" rx="5" fill="%s" stroke="%s" stroke-width="%g"/>`,
				class, s, x+4, y+4, pddCell-8, pddCell-8, fill, stroke, width)
		}
	}
	// Bridges, in build order: an outline in the other colour, then the
	// owner's colour.
	for k := 1; k <= p.NumBridges(); k++ {
		ends := p.BridgeAt(k)
		owner := p.At(ends[0])
		fill, edge := pddColors(owner)
		x1, y1 := pddCentre(ends[0])
		x2, y2 := pddCentre(ends[1])
		fmt.Fprintf(&b, `<g class="bridge %s" data-bridge="%d">`, owner, k)
		fmt.Fprintf(&b, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" stroke-width="13" stroke-linecap="round"/>`, x1, y1, x2, y2, edge)
		fmt.Fprintf(&b, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" stroke-width="9" stroke-linecap="round"/>`, x1, y1, x2, y2, fill)
		b.WriteString(`</g>`)
	}
	// The last action.
	if last != nil {
		a, c := last.Points()
		for _, s := range []pdd.Square{a, c} {
			if s.Valid() {
				x, y := pddCorner(s)
				fmt.Fprintf(&b, `<rect class="last" data-square="%s" x="%d" y="%d" width="%d" height="%d" rx="4" fill="none" stroke="#e53935" stroke-width="3"/>`, s, x+1, y+1, pddCell-2, pddCell-2)
			}
		}
		if last.Move.Action() == pdd.BridgeAction && a.Valid() && c.Valid() {
			x1, y1 := pddCentre(a)
			x2, y2 := pddCentre(c)
			fmt.Fprintf(&b, `<line class="last" x1="%d" y1="%d" x2="%d" y2="%d" stroke="#e53935" stroke-width="2" stroke-dasharray="4 3"/>`, x1, y1, x2, y2)
		}
	}
	b.WriteString(`</svg>`)
	return b.String()
}

// pddColors returns the fill and the outline of colour c's tiles and bridges.
func pddColors(c pdd.Color) (fill, edge string) {
	if c == pdd.Black {
		return "#262626", "#e9e2cf"
	}
	return "#f7f1e1", "#4a4030"
}

// pddCorner returns the top-left corner of square s on the board.
func pddCorner(s pdd.Square) (x, y int) {
	return pddMargin + s.X()*pddCell, pddMargin + s.Y()*pddCell
}

// pddCentre returns the centre of square s on the board.
func pddCentre(s pdd.Square) (x, y int) {
	x, y = pddCorner(s)
	return x + pddCell/2, y + pddCell/2
}

// pddIslandTiles returns the tiles of tiles that belong to an island, an
// orthogonally connected group of exactly 4.
func pddIslandTiles(tiles pdd.Bitboard) pdd.Bitboard {
	var seen, islands pdd.Bitboard
	for s := range tiles.Squares() {
		if seen.Has(s) {
			continue
		}
		group, _ := pddGroup(tiles, pdd.Bitboard{}, s)
		seen = seen.Union(group)
		if group.Count() == 4 {
			islands = islands.Union(group)
		}
	}
	return islands
}

// pddReplay reads a PDD record for the replay page: a stepLog.txt (the
// referee's record: the start, then a frame per line), a game directory's
// result.json (the same, with the players and the result), or a chess.txt
// alone (one frame; bridge.txt alone cannot be drawn, since chess.txt says
// whose bridges they are). The profile is found from the record: a stepLog
// with a Pass line, or one that only replays under it, is official.
func pddReplay(name string, data []byte) (replay, error) {
	rp := replay{Game: "pdd"}
	base := strings.ToLower(filepath.Base(name))
	trimmed := bytes.TrimLeft(bytes.TrimPrefix(data, []byte("\xEF\xBB\xBF")), " \t\r\n")
	switch {
	case strings.HasSuffix(base, ".json") || bytes.HasPrefix(trimmed, []byte("{")):
		f, err := permove.ReadResultFile(bytes.NewReader(data))
		if err != nil {
			return replay{}, fmt.Errorf("pdd replay %s: %w", name, err)
		}
		rules, err := pdd.ParseRules(f.Rules)
		if err != nil {
			return replay{}, fmt.Errorf("pdd replay %s: rules %q: want course or official", name, f.Rules)
		}
		l, err := pddResultSteps(f)
		if err != nil {
			return replay{}, fmt.Errorf("pdd replay %s: %w", name, err)
		}
		g, err := record.ReplayPDDStepLog(l, rules)
		if err != nil {
			return replay{}, fmt.Errorf("pdd replay %s: %w", name, err)
		}
		rp.Players = [2]string{clipText(f.Programs.W, maxNameBytes), clipText(f.Programs.B, maxNameBytes)}
		rp.Moves, rp.Frame = pddFrames(g)
		rp.Result = clipText(pddResultFileText(f), maxResultBytes)
		if rp.Result != "" {
			rp.Frame = pddLastSays(rp.Frame, len(rp.Moves), rp.Result)
		}
		return rp, nil
	case strings.Contains(base, "bridge"):
		return replay{}, fmt.Errorf("pdd replay %s: bridge.txt alone does not say whose bridges they are; open the game's stepLog.txt, result.json or chess.txt", name)
	case strings.Contains(base, "chess"):
		c, err := record.ReadPDDChess(bytes.NewReader(data), record.PDDLenient)
		if err != nil {
			return replay{}, fmt.Errorf("pdd replay %s: %w", name, err)
		}
		return pddChessReplay(c, name)
	}
	l, err := record.ReadPDDStepLog(bytes.NewReader(data), record.PDDLenient)
	if err != nil {
		// Perhaps a chess.txt under another name.
		if c, cerr := record.ReadPDDChess(bytes.NewReader(data), record.PDDLenient); cerr == nil {
			return pddChessReplay(c, name)
		}
		return replay{}, fmt.Errorf("pdd replay %s: %w (want a stepLog.txt, result.json or chess.txt)", name, err)
	}
	g, err := pddReplayStepLog(l)
	if err != nil {
		return replay{}, fmt.Errorf("pdd replay %s: %w", name, err)
	}
	rp.Moves, rp.Frame = pddFrames(g)
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
func pddChessReplay(c record.PDDChess, name string) (replay, error) {
	p, err := record.PDDPosition(c, record.PDDBridges{}, pdd.Setup{Turn: pdd.White})
	if err != nil {
		return replay{}, fmt.Errorf("pdd replay %s: %w", name, err)
	}
	return replay{Game: "pdd", Frame: func(int) frame {
		return frame{Board: pddBoardSVG(p, nil), Status: "tiles of chess.txt; " + pddScoreText(p.Score(pdd.White), p.Score(pdd.Black)), ToMove: -1}
	}}, nil
}

// pddFrames returns the moves of a game, one per stepLog line, and its
// frames, drawn when asked: the start, then one per line (a Course skip,
// which has no line, shows in the status of the frame before it).
func pddFrames(g *pdd.Game) ([]string, func(int) frame) {
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
	return moves, func(k int) frame {
		var f frame
		if k == 0 {
			start, _ := g.PositionAt(0)
			f = frame{Board: pddBoardSVG(start, nil), Status: pddStatus(start), ToMove: pddToMove(start)}
		} else {
			i := at[k-1]
			before, _ := g.PositionAt(i)
			after, _ := g.PositionAt(i + 1)
			step := record.NewPDDStep(before, all[i], k)
			f = frame{Ply: k, Move: moves[k-1], Board: pddBoardSVG(after, &step), Status: pddStatus(after), ToMove: pddToMove(after)}
		}
		if over && k == len(moves) {
			f.Status, f.ToMove = res.String(), -1
		}
		return f
	}
}

// pddLastSays makes the last frame of frames (n plies) say the result
// text, the game over.
func pddLastSays(frames func(int) frame, n int, text string) func(int) frame {
	return func(k int) frame {
		f := frames(k)
		if k == n {
			f.Status, f.ToMove = text, -1
		}
		return f
	}
}

// pddResultSteps rebuilds the stepLog of a result.json from its moves.
func pddResultSteps(f permove.ResultFile) (record.PDDStepLog, error) {
	var l record.PDDStepLog
	for i, m := range f.Moves {
		line := m.Color + "_" + fmt.Sprint(m.Turn) + "_" + m.Action
		if m.P1 != "" || m.P2 != "" {
			line += "_" + m.P1 + "_" + m.P2
		}
		s, err := record.ParsePDDStep(line, record.PDDLenient)
		if err != nil {
			return record.PDDStepLog{}, fmt.Errorf("move %d: %w", i+1, err)
		}
		l.Steps = append(l.Steps, s)
	}
	return l, nil
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

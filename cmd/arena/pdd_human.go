package main

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/botarena/botarena/boardsvg"
	"github.com/botarena/botarena/pdd"
	"github.com/botarena/botarena/protocol/permove"
	"github.com/botarena/botarena/record"
	"github.com/botarena/botarena/viewer"
)

// A person plays PDD as an in-process player of the game's referee
// (permove.Program.Player): each turn the referee asks for, the person's
// seat page is asked, with the board, its 100 squares as clickable areas,
// and every legal action as a choice (two tiles or a bridge by their two
// squares, clicked in either order; Change by its button). The referee
// then checks the action as it checks a program's, through the same files.
// Resigning ends the game lost ("resignation" in result.json), a draw agreed
// between two persons ends it drawn ("agreement"), and a take-back against a
// program (once the person has an action of their own in the game, the
// actions of -start or -openings excepted; no rules preset forbids it)
// undoes the person's last action and the program's answer, the clocks
// going on. stepLog.txt, the platform's record, has no place for a
// resignation or an agreed draw: it holds the actions played (the ones
// taken back gone), and result.json says how the game ended and names the
// person.

// pddLive is what the runner knows of the game in play, kept from the
// referee's OnMove for the persons' seats: the frame the viewer shows
// and the actions played so far.
type pddLive struct {
	mu         sync.Mutex
	frame      viewer.Frame
	steps      []record.PDDStep // the actions played, the start's included
	startSteps int              // how many of steps came from the start: never taken back
}

// moved records the referee's event e, whose frame is f.
func (l *pddLive) moved(e permove.MoveEvent, f viewer.Frame) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.frame = f
	if e.TakeBack { // e.Ply actions are left
		l.steps = l.steps[:min(e.Ply, len(l.steps))]
		return
	}
	l.steps = append(l.steps[:min(max(e.Ply-1, 0), len(l.steps))], e.Move.Step)
}

// canTakeBack reports whether c has an action of its own after the start's
// to take back.
func (l *pddLive) canTakeBack(c pdd.Color) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, s := range l.steps[min(l.startSteps, len(l.steps)):] {
		if s.Color == c && s.Move != pdd.Pass {
			return true
		}
	}
	return false
}

// pddHuman is a person's seat as a pdd.Player of colour color.
type pddHuman struct {
	seat  *humanSeat
	color pdd.Color
	live  *pddLive
}

// Play asks the person for the action of p (the person's colour to move):
// one of its legal actions, or resign (permove.ErrResign), an agreed draw
// (permove.ErrDrawAgreed), a take-back (permove.ErrTakeBack, offered only
// against a program once the person has an action to take back), or ctx's
// end, the person's time.
func (h *pddHuman) Play(ctx context.Context, p pdd.Position) (pdd.Move, error) {
	h.live.mu.Lock()
	frame := h.live.frame
	h.live.mu.Unlock()
	q := viewer.Question{
		Frame:   frame,
		Areas:   boardsvg.PDDAreas(),
		Prompt:  fmt.Sprintf("Your turn (%s)", h.color),
		Choices: pddChoices(p),
	}
	if d, ok := ctx.Deadline(); ok {
		q.Deadline = d
	}
	takeBack := h.seat.other == nil && h.live.canTakeBack(h.color)
	text, err := h.seat.move(ctx, q, takeBack)
	switch {
	case errors.Is(err, errHumanResigned):
		return pdd.NoMove, permove.ErrResign
	case errors.Is(err, errHumanDraw):
		return pdd.NoMove, permove.ErrDrawAgreed
	case errors.Is(err, errHumanTakeBack):
		return pdd.NoMove, permove.ErrTakeBack
	case err != nil:
		return pdd.NoMove, err
	}
	return pdd.ParseMove(text) // the referee checks it as a program's
}

// pddChoices are the legal actions of p as a seat's choices: two tiles
// (Chess) or a bridge by their two squares, in either order, Change and
// Pass by a button.
func pddChoices(p pdd.Position) []viewer.Choice {
	moves := p.AppendLegalMoves(nil)
	choices := make([]viewer.Choice, 0, 2*len(moves))
	for _, m := range moves {
		a := viewer.Answer{Kind: viewer.AnswerMove, Move: m.String()}
		switch m.Action() {
		case pdd.ChessAction, pdd.BridgeAction:
			s1, s2 := m.Squares()
			choices = append(choices,
				viewer.Choice{Answer: a, Squares: []string{s1.String(), s2.String()}},
				viewer.Choice{Answer: a, Squares: []string{s2.String(), s1.String()}})
		default:
			choices = append(choices, viewer.Choice{Answer: a, Label: m.Action().String()})
		}
	}
	return choices
}

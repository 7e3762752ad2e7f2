package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/botarena/botarena/darkchess"
	"github.com/botarena/botarena/internal/proc"
	"github.com/botarena/botarena/protocol"
	"github.com/botarena/botarena/viewer"
)

// A person plays dark chess on the seat page as a protocol.DarkChessSeat
// of arena's own process, under the same referee, rules and clock as a
// program: the referee asks the seat for its ply with the seat's View and
// its clock's deadline, and the seat asks the page (humanSeat.move). The
// page shows what either player sees: face-down pieces stay face-down (the
// picture draws Position.At, never the deal), so the spectators' picture and
// the seat's are one. A flip is a click on a face-down piece; a move or a
// capture, a click on the piece and one on its target.
//
// No dark chess platform's rules forbid take-back (the NTPU launcher's
// manual mode offers it, and neither the 2013-2019 platform nor ICGA
// tournaments have a person's seat at all), so it is offered under every
// preset, against a program, once the person has played a ply of this
// game. A take-back replays the game from the same deal: a face-down piece
// the person saw flipped is the same piece when flipped again.

// dcHumanSeat is a person's seat: Ask asks the seat page.
type dcHumanSeat struct {
	h *humanSeat
	// question builds the question for the view v of the side to move:
	// the frame, the areas, the prompt and the legal plies as choices.
	question func(v darkchess.View) viewer.Question
	// takeBack reports whether the person may take back a ply now.
	takeBack func() bool
	// stop ends the referee's game, with the cause errHumanTakeBack or
	// errHumanDraw, for the runner to take it up; set before each Play.
	stop context.CancelCauseFunc
}

// Begin does nothing: the seat's page is open already.
func (s *dcHumanSeat) Begin(context.Context, protocol.DarkChessBegin) error { return nil }

// Ask asks the person for a ply within ctx (the seat's clock). A
// resignation is the Resign fault; a take-back or an accepted draw offer
// stops the game for the runner.
func (s *dcHumanSeat) Ask(ctx context.Context, v darkchess.View) (darkchess.Move, error) {
	q := s.question(v)
	if dl, ok := ctx.Deadline(); ok {
		q.Deadline = dl
	}
	text, err := s.h.move(ctx, q, s.takeBack())
	switch {
	case err == nil:
		m, perr := darkchess.ParseMove(text)
		if perr != nil {
			return darkchess.NoMove, &protocol.DarkChessFault{Reason: darkchess.BadMove, Kind: protocol.DarkChessIllegal, Err: perr}
		}
		return m, nil
	case errors.Is(err, errHumanResigned):
		return darkchess.NoMove, &protocol.DarkChessFault{Reason: darkchess.Resign, Kind: protocol.DarkChessResigned, Err: fmt.Errorf("%s resigned on the seat page", s.h.name)}
	case errors.Is(err, errHumanTakeBack), errors.Is(err, errHumanDraw):
		if s.stop != nil {
			s.stop(err)
		}
		return darkchess.NoMove, err
	}
	return darkchess.NoMove, err
}

// Tell does nothing: the page follows the game through the viewer.
func (s *dcHumanSeat) Tell(context.Context, protocol.DarkChessTell) error { return nil }

// End does nothing: the runner closes the seats after the game's Finish.
func (s *dcHumanSeat) End(context.Context, darkchess.Result) error { return nil }

// dcUnseated is the seat of a person whose seat page could not be opened:
// it fails to begin, and so loses the game before its first ply.
type dcUnseated struct{ reason string }

func (s dcUnseated) Begin(context.Context, protocol.DarkChessBegin) error {
	return fmt.Errorf("%w: %s", proc.ErrStart, s.reason)
}
func (dcUnseated) Ask(context.Context, darkchess.View) (darkchess.Move, error) {
	return darkchess.NoMove, errors.New("no seat")
}
func (dcUnseated) Tell(context.Context, protocol.DarkChessTell) error { return nil }
func (dcUnseated) End(context.Context, darkchess.Result) error        { return nil }

// dcChoices are the legal plies of v as a page picks them: a flip by a
// click on its square, a move or a capture by clicks on its two squares;
// each answers the ply's text ("b7-b7", "b5-b6").
func dcChoices(v darkchess.View) []viewer.Choice {
	moves := v.AppendLegalMoves(nil)
	choices := make([]viewer.Choice, 0, len(moves))
	for _, m := range moves {
		squares := []string{m.From().String(), m.To().String()}
		if m.IsFlip() {
			squares = squares[:1]
		}
		choices = append(choices, viewer.Choice{Answer: viewer.Answer{Kind: viewer.AnswerMove, Move: m.String()}, Squares: squares})
	}
	return choices
}

// dcPrompt says whose turn it is to the person of colour c (NoColor
// before the first flip).
func dcPrompt(c darkchess.Color) string {
	if !c.Valid() {
		return "Your turn: flip a piece (its colour becomes yours)"
	}
	return "Your turn (" + c.String() + ")"
}

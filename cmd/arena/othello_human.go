package main

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/botarena/botarena/boardsvg"
	"github.com/botarena/botarena/othello"
	"github.com/botarena/botarena/viewer"
)

// othelloHuman is a person's seat of an Othello game as an othello.Player:
// the runner connects it to the TUS server as a client in this process,
// as it does a built-in bot, so that the server referees the person's moves
// and times them as a program's. Its Play asks the seat page for a move:
// the board as everyone sees it (Othello hides nothing), the 64 squares as
// the picture's areas, the legal placements as choices. The server never
// asks a player that must pass (it passes for it, and asks the other side
// again), so a person is never asked to pass.
type othelloHuman struct {
	seat    *humanSeat
	color   othello.Color
	live    *othelloLive
	perMove time.Duration // the server's per-move limit, 0 for none

	mu    sync.Mutex
	moved bool  // the person placed a disc in this game: a take-back is open (against a program)
	end   error // how the person left the server's game: errHumanResigned, errHumanDraw, errHumanTakeBack; nil for none
}

// reset readies h for a server's game (the first, or one after a
// take-back); moved tells whether the person placed a disc before it.
func (h *othelloHuman) reset(moved bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.moved, h.end = moved, nil
}

// ended is how the person left the last server's game of their own will,
// nil for a move or none.
func (h *othelloHuman) ended() error {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.end
}

// Play asks the person for a move in p (their turn, with a legal move: the
// server passes for them otherwise). A resignation, an agreed draw or a
// take-back is an error, which makes the client leave the server's game;
// the runner then scores the game (or restarts it) from ended.
func (h *othelloHuman) Play(ctx context.Context, p othello.Position) (othello.Move, error) {
	q := viewer.Question{
		Frame:  h.live.frame(),
		Areas:  boardsvg.OthelloAreas(),
		Prompt: fmt.Sprintf("Your turn (%s)", h.color),
	}
	for s := range p.LegalSquares().Squares() {
		m := othello.Place(s).String()
		q.Choices = append(q.Choices, viewer.Choice{Answer: viewer.Answer{Kind: viewer.AnswerMove, Move: m}, Squares: []string{s.String()}})
	}
	if h.perMove > 0 {
		q.Deadline = time.Now().Add(h.perMove)
	}
	h.mu.Lock()
	takeBack := h.seat.other == nil && h.moved // against a program, once the person has a move to take back
	h.mu.Unlock()
	text, err := h.seat.move(ctx, q, takeBack)
	if err != nil {
		if errors.Is(err, errHumanResigned) || errors.Is(err, errHumanDraw) || errors.Is(err, errHumanTakeBack) {
			h.mu.Lock()
			h.end = err
			h.mu.Unlock()
		}
		return othello.NoMove, err
	}
	m, err := othello.ParseMove(text)
	if err != nil {
		return othello.NoMove, fmt.Errorf("the seat page answered %q: %w", text, err)
	}
	h.mu.Lock()
	h.moved = true
	h.mu.Unlock()
	return m, nil
}

// othelloMoved reports whether colour c placed a disc in moves, played from
// start.
func othelloMoved(start othello.Position, moves []othello.Move, c othello.Color) bool {
	_, ok := othelloLastMoveOf(start, moves, c)
	return ok
}

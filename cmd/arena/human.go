package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/botarena/botarena/viewer"
)

// A person plays a game of arena match as the player "human" (or
// "NAME=human") on the seat page of the web viewer (-web): the runner opens
// the person's seat when the game begins, prints its link, and asks the
// seat for each move as it would ask a program, under the same referee,
// rules and clock. Besides a move, a person may resign, offer another
// person a draw, or take back a move against a program (humanSeat.move).

// humanPlayer is the name of the player spec that a person plays.
const humanPlayer = "human"

// seatHost is a watcher whose pages seat persons: the web viewer.
type seatHost interface {
	viewer.Watcher
	OpenSeat(id string, seat int) (string, error)
	Ask(ctx context.Context, id string, seat int, q viewer.Question) (viewer.Answer, error)
	CloseSeats(id string)
}

// webSeats is where a run's persons play: the viewer, its address, and
// where the seats' links are printed.
type webSeats struct {
	host seatHost
	url  string // the viewer's address, "http://127.0.0.1:8080/"
	mu   sync.Mutex
	out  io.Writer
}

// The ends of a person's turn other than a move (humanSeat.move).
var (
	errHumanResigned = errors.New("resigned")
	errHumanDraw     = errors.New("agreed to a draw")
	errHumanTakeBack = errors.New("took back a move")
)

// humanSeat is a person's seat of one game.
type humanSeat struct {
	web  *webSeats
	id   string // the game's id in the viewer
	seat int    // 0 or 1, as the game's seats
	name string // the player's name
	// other is the opponent's seat when a person plays it too (a draw
	// may then be offered), nil against a program.
	other *humanSeat
}

// openHumans opens the seats of job that persons play, prints their links,
// and pairs two persons' seats for draw offers. A person's seat of a run
// without -web is a start fault. Call closeHumans when the game is over.
func openHumans(job *gameJob) ([2]*humanSeat, [2]fault) {
	var seats [2]*humanSeat
	var faults [2]fault
	for i, p := range job.Seats {
		if !p.Human {
			continue
		}
		if job.Web == nil {
			faults[i] = fault{Kind: faultStart, Reason: "a person plays on the web viewer's seat page: give -web ADDR"}
			continue
		}
		path, err := job.Web.host.OpenSeat(job.ID, i)
		if err != nil {
			faults[i] = fault{Kind: faultStart, Reason: "cannot open the seat page: " + err.Error()}
			continue
		}
		seats[i] = &humanSeat{web: job.Web, id: job.ID, seat: i, name: p.Name}
		job.Web.mu.Lock()
		fmt.Fprintf(job.Web.out, "Game %d: %s plays seat %d at %s%s\n", job.N, p.Name, i+1, strings.TrimSuffix(job.Web.url, "/"), path)
		job.Web.mu.Unlock()
	}
	if seats[0] != nil && seats[1] != nil {
		seats[0].other, seats[1].other = seats[1], seats[0]
	}
	return seats, faults
}

// closeHumans closes job's seat pages (after the game's Finish, so that
// they show the result).
func closeHumans(job *gameJob) {
	if job.Web != nil {
		job.Web.host.CloseSeats(job.ID)
	}
}

// move asks the person for a move: one of q's choices (a Geister setup
// when q.Setup is set), or, added here, resign, a draw offer (to another
// person, once a turn), and take-back when takeBack is true (the runner
// says when the rules and the game allow it). It returns the move's text,
// or errHumanResigned, errHumanDraw (the opponent accepted the offer), or
// errHumanTakeBack, or ctx's error (the clock ran out, the game ended).
func (h *humanSeat) move(ctx context.Context, q viewer.Question, takeBack bool) (string, error) {
	offered := false
	for {
		ask := q
		ask.Choices = append([]viewer.Choice(nil), q.Choices...)
		ask.Choices = append(ask.Choices, viewer.Choice{Answer: viewer.Answer{Kind: viewer.AnswerResign}, Label: "Resign"})
		if h.other != nil && !offered && q.Setup == nil {
			ask.Choices = append(ask.Choices, viewer.Choice{Answer: viewer.Answer{Kind: viewer.AnswerOfferDraw}, Label: "Offer a draw"})
		}
		if takeBack && q.Setup == nil {
			ask.Choices = append(ask.Choices, viewer.Choice{Answer: viewer.Answer{Kind: viewer.AnswerTakeBack}, Label: "Take back"})
		}
		if offered {
			ask.Prompt += " (your draw offer was declined)"
		}
		a, err := h.web.host.Ask(ctx, h.id, h.seat, ask)
		if err != nil {
			return "", err
		}
		switch a.Kind {
		case viewer.AnswerMove:
			return a.Move, nil
		case viewer.AnswerResign:
			return "", errHumanResigned
		case viewer.AnswerTakeBack:
			return "", errHumanTakeBack
		case viewer.AnswerOfferDraw:
			offered = true
			if h.other.drawOffered(ctx, h.name, q) {
				return "", errHumanDraw
			}
		}
	}
}

// drawOffered asks the person at h whether they accept the draw that
// name offered, within ctx (the offering side's clock runs meanwhile). Any
// failure to ask is a refusal.
func (h *humanSeat) drawOffered(ctx context.Context, name string, q viewer.Question) bool {
	ask := viewer.Question{
		Prompt: name + " offers a draw",
		Choices: []viewer.Choice{
			{Answer: viewer.Answer{Kind: viewer.AnswerAcceptDraw}, Label: "Accept the draw"},
			{Answer: viewer.Answer{Kind: viewer.AnswerDeclineDraw}, Label: "Decline"},
		},
		Deadline: q.Deadline,
	}
	a, err := h.web.host.Ask(ctx, h.id, h.seat, ask)
	return err == nil && a.Kind == viewer.AnswerAcceptDraw
}

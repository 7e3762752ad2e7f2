package main

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/botarena/botarena/boardsvg"
	"github.com/botarena/botarena/geister"
	"github.com/botarena/botarena/protocol/gat"
	"github.com/botarena/botarena/protocol/ntpu"
	"github.com/botarena/botarena/record"
	"github.com/botarena/botarena/timer"
	"github.com/botarena/botarena/viewer"
)

// A person plays Geister as an in-process player of the game's ntpu.Host
// (ntpu.Program.Player): the host talks to it in STDIO mode as to any
// program, so its setup and moves pass the same checks, on the same clock.
// The player asks the person's seat page: at the setup, the seat's eight
// ghosts, whose colours the person swaps by clicks before "Set Finish"; at
// each move, the legal moves as the squares to click (a ghost, then where
// it goes: for an escape, the place beyond the exit corner). The picture
// is the seat's own view: the opponent's colours hidden.
//
// Resigning ends the game through the host (ntpu.ErrResign: the record says
// Resign). A draw the two persons agree on and a take-back stop the host:
// the runner then ends the game as an agreed draw, or plays it on from two
// plies back (geisterTable).

// geisterStop is why a person stopped the host.
type geisterStop uint8

const (
	geisterGoOn     geisterStop = iota // nobody stopped it
	geisterAgreed                      // the two persons agreed on a draw
	geisterTakeBack                    // the person took back a move
)

// geisterTable is what the persons' seats of one game share with the
// runner: the game as the host reports it (the position and clocks of its
// last ply event), and the stop a person asked for. It lives across the
// host's restarts after take-backs.
type geisterTable struct {
	live *geisterLive
	ctl  timer.Control

	mu      sync.Mutex
	pos     geister.Position // the position of the last ply event
	before  geister.Position // the one before it
	last    geister.Move     // the move between them, NoMove for none
	clock   timer.Snapshot   // the clocks of the last ply event
	began   bool             // a ply event came since the host started
	reds    [2]geister.Reds  // the red sets, once play began (a restart keeps them)
	stop    geisterStop
	stopBy  int                // the seat that stopped the host
	cancel  context.CancelFunc // stops the host's current game
	startAt int                // plies of the game's true start (a -start file's): no take-back before
}

// restart readies the table for the host's next run, which cancel stops.
func (t *geisterTable) restart(cancel context.CancelFunc) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.cancel, t.stop, t.began = cancel, geisterGoOn, false
}

// ply takes the host's ply event: the live viewer's, and the table's.
func (t *geisterTable) ply(e gat.PlyEvent) {
	t.mu.Lock()
	if e.Move != geister.NoMove && t.began {
		t.before, t.last = t.pos, e.Move
	} else {
		t.last = geister.NoMove
	}
	t.pos, t.clock, t.began = e.Position, e.Clock, true
	t.reds = [2]geister.Reds{e.Position.Reds(geister.First), e.Position.Reds(geister.Second)}
	t.mu.Unlock()
	t.live.ply(e)
}

// stopHost stops the host's game for why, asked by seat; the first stop
// wins.
func (t *geisterTable) stopHost(why geisterStop, seat int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.stop != geisterGoOn {
		return
	}
	t.stop, t.stopBy = why, seat
	if t.cancel != nil {
		t.cancel()
	}
}

// stopped returns why the host was stopped, and by which seat.
func (t *geisterTable) stopped() (geisterStop, int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.stop, t.stopBy
}

// geisterHuman is a person's seat as a geister.Player.
type geisterHuman struct {
	seat  *humanSeat
	table *geisterTable
	setup time.Duration // the host's setup timeout, for the page's deadline
}

// geisterSeatAreas are the clickable areas of seat's picture: the second
// player's board is drawn in its own frame, rotated half a turn.
func geisterSeatAreas(seat int) []boardsvg.Area {
	if seat == 1 {
		return boardsvg.GeisterFlippedAreas()
	}
	return boardsvg.GeisterAreas()
}

// geisterSeatName is seat's name in the frames' views.
func geisterSeatName(seat int) string { return geister.Color(seat).String() }

// Setup asks the person for the red ghosts; after a take-back the host
// keeps the red sets it has, and the person is not asked again.
func (h *geisterHuman) Setup(ctx context.Context) (geister.Reds, error) {
	t := h.table
	t.mu.Lock()
	reds := t.reds[h.seat.seat]
	t.mu.Unlock()
	if reds.Valid() {
		return reds, nil // a restart: the host imposes the red sets
	}
	c := geister.Color(h.seat.seat)
	first := geister.RedsAt(0)
	start, _ := geister.Start(first, first)
	setup := &viewer.GeisterSetup{Red: first.String()}
	for g := geister.A; g <= geister.H; g++ {
		setup.Ghosts[g] = viewer.SetupGhost{Letter: g.String(), Square: start.Square(c, g).String()}
	}
	q := viewer.Question{
		Frame:    h.frame(start, geister.Position{}, geister.NoMove, "set your red ghosts", t.ctl, timer.Snapshot{}),
		Areas:    geisterSeatAreas(h.seat.seat),
		Prompt:   fmt.Sprintf("Set your red ghosts (%s): click two of your ghosts of different colours to swap them, then Set Finish", c),
		Setup:    setup,
		Deadline: time.Now().Add(h.setup),
	}
	text, err := h.seat.move(ctx, q, false)
	if err != nil {
		return 0, h.failed(ctx, err)
	}
	reds, err = geister.ParseReds(text)
	if err != nil {
		return 0, fmt.Errorf("the page's red ghosts %q: %w", text, err)
	}
	return reds, nil
}

// Play asks the person for a move in v: the legal moves as clicks, and
// resign, a draw offer to another person, or a take-back against a
// program.
func (h *geisterHuman) Play(ctx context.Context, v geister.View) (geister.Move, error) {
	t := h.table
	t.mu.Lock()
	pos, before, last, clock := t.pos, t.before, t.last, t.clock
	takeBack := h.seat.other == nil && pos.Ply()-2 >= t.startAt
	t.mu.Unlock()
	c := geister.Color(h.seat.seat)
	q := viewer.Question{
		Frame:  h.frame(pos, before, last, viewer.GeisterStatus(pos, geister.Result{}), t.ctl, clock),
		Areas:  geisterSeatAreas(h.seat.seat),
		Prompt: fmt.Sprintf("Your turn (%s)", c),
	}
	if !t.ctl.Unlimited() {
		q.Deadline = clock.At.Add(clock.Players[c].Left)
	}
	for _, m := range v.AppendLegalMoves(nil) {
		from, to := geisterChoiceSquares(v, m, c)
		q.Choices = append(q.Choices, viewer.Choice{Answer: viewer.Answer{Kind: viewer.AnswerMove, Move: m.String()}, Squares: []string{from, to}})
	}
	text, err := h.seat.move(ctx, q, takeBack)
	if err != nil {
		return geister.NoMove, h.failed(ctx, err)
	}
	return geister.ParseMove(text)
}

// failed turns the end of a person's turn other than a move into the
// player's error: ntpu.ErrResign for a resignation; for an agreed draw or
// a take-back the host is stopped, and the player returns once it has
// been (with ctx's error), so that the host sees the stop before the
// player's end.
func (h *geisterHuman) failed(ctx context.Context, err error) error {
	switch {
	case errors.Is(err, errHumanResigned):
		return fmt.Errorf("%s %w", h.seat.name, ntpu.ErrResign)
	case errors.Is(err, errHumanDraw):
		h.table.stopHost(geisterAgreed, h.seat.seat)
	case errors.Is(err, errHumanTakeBack):
		h.table.stopHost(geisterTakeBack, h.seat.seat)
	default:
		return err
	}
	<-ctx.Done()
	return fmt.Errorf("%w (%w)", err, ctx.Err())
}

// frame draws p for the person's seat: its own colours, the opponent's
// hidden (the seat's view of the live frame).
func (h *geisterHuman) frame(p, before geister.Position, last geister.Move, status string, ctl timer.Control, clock timer.Snapshot) viewer.Frame {
	o := viewer.GeisterFrameOptions{Last: last, Before: before, Status: status, Views: true}
	if !ctl.Unlimited() {
		if clock.At.IsZero() {
			clock = timer.NewClock(ctl, nil).Snapshot()
		}
		o.Clocks = geisterClocks(clock)
	}
	f := viewer.GeisterFrame(p, o)
	f.Board = f.Views[geisterSeatName(h.seat.seat)]
	f.Views = nil
	return f
}

// geisterChoiceSquares names the areas a person clicks for the legal move
// m of view v, seat c's: the ghost's square, then where it goes, in the
// picture's frame (the first player's); an escape goes to the place beyond
// the exit corner, "out" and the corner.
func geisterChoiceSquares(v geister.View, m geister.Move, c geister.Color) (from, to string) {
	f, t := v.Square(v.Viewer(), m.Ghost()), v.Target(m)
	if c == geister.Second {
		f, t = f.Rotate(), t.Rotate()
	}
	if t == geister.Escaped {
		return f.String(), "out" + f.String()
	}
	return f.String(), t.String()
}

// geisterTakenBack is the game of rec (the host's record of a game a person
// stopped to take back a move) cut two plies back, as the start of the
// host's next run: the moves, their captures and their timestamps up to
// there, both red sets, no result.
func geisterTakenBack(rec *record.GeisterBoard) (*record.GeisterBoard, error) {
	k := len(rec.Moves) - 2
	if k < 0 || !rec.Reds[0].Valid() || !rec.Reds[1].Valid() {
		return nil, fmt.Errorf("geister: no take-back from a record of %d plies, red sets %s %s", len(rec.Moves), rec.Reds[0], rec.Reds[1])
	}
	b := *rec
	b.Result = geister.Result{}
	b.Moves = slices.Clone(rec.Moves[:k])
	if len(rec.Captures) >= k {
		b.Captures = slices.Clone(rec.Captures[:k])
	}
	if len(rec.Times) >= k+1 {
		b.Times = slices.Clone(rec.Times[:k+1])
	} else {
		b.Times = nil
	}
	if _, err := b.StartPosition([2]geister.Reds{}); err != nil {
		return nil, fmt.Errorf("geister: the game two plies back: %w", err)
	}
	return &b, nil
}

// geisterClocksOn are the clocks of snapshot s for a game played on after a
// take-back: the time the players used stays used (the clocks go on), and
// each gets back the ply it no longer played.
func geisterClocksOn(s timer.Snapshot) *[2]timer.PlayerState {
	ps := s.Players
	for i := range ps {
		ps[i].Plies = max(ps[i].Plies-1, 0)
	}
	return &ps
}

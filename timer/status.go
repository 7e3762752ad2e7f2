package timer

import (
	"context"
	"time"
)

// Remaining is one player's clock as a bot's side knows it at the start
// of a ply: the [PlayerState] fields a platform can tell. No duration in it
// should be negative; a [Manager] reads a negative one as 0.
type Remaining struct {
	// Told reports that the platform told this clock (or the host holds
	// it); when false the other fields are unknown and zero.
	Told bool
	// Main is the main time left.
	Main time.Duration
	// Byoyomi reports that the main time is spent and the player is in
	// byo-yomi periods.
	Byoyomi bool
	// Period is the time left in the current byo-yomi period: the whole
	// period until byo-yomi starts; 0 without byo-yomi or when unknown.
	Period time.Duration
	// PliesLeft is the number of plies still to play within the current
	// period (the plies to the next control); 0 without byo-yomi or when
	// unknown.
	PliesLeft int
}

// remaining returns the part of p a platform can tell.
func remaining(p PlayerState) Remaining {
	return Remaining{Told: true, Main: p.Main, Byoyomi: p.Byoyomi, Period: p.Period, PliesLeft: p.PliesLeft}
}

// Status is what a bot's side knows about time at the start of one of its
// plies: the time control, both players' clocks, and the hard deadline. A
// protocol puts it on the context it hands the player ([WithStatus]); the
// player reads it back with [StatusFrom] and turns it into a budget for
// the ply with a [Manager].
//
// Each part says whether the platform told it. Where a platform tells
// nothing, Control is the protocol's known default (or the zero Control,
// no limit) with ControlTold false, and the clocks are not Told. The zero
// Status knows nothing at all.
type Status struct {
	// Control is the game's time control, as told, or the protocol's
	// known default when ControlTold is false.
	Control Control
	// ControlTold reports that the platform told the control (or the host
	// holds it), rather than the protocol assuming its default.
	ControlTold bool
	// Side is the bot's side.
	Side Side
	// Own and Opponent are the bot's and its opponent's clocks at Start.
	Own, Opponent Remaining
	// Played is the number of plies the bot has already played in this
	// game (0 on its first ply, and when unknown).
	Played int
	// Start is when the ply started for the bot: the instant the
	// protocol read the request to move, which the clocks above refer to.
	// It should carry a monotonic reading (from time.Now). The zero Time
	// means unknown; a [Manager] then takes the time of [Manager.Allot].
	Start time.Time
	// Deadline is the hard deadline of the ply: a move written later is
	// lost. The zero Time means none.
	Deadline time.Time
}

// Status returns what side's bot knows at the instant of the snapshot: the
// clock's control and both clocks, all told, side's plies played, and,
// while side's ply is in progress, that ply's deadline. Start is the
// snapshot's instant, so the clocks are as they stand then (the ply in
// progress charged up to that instant). When side is not thinking, the
// Status reads as if its ply started at the snapshot's instant, its
// deadline included. A side out of range gives the zero Status.
func (s Snapshot) Status(side Side) Status {
	if side > Second {
		return Status{}
	}
	own := s.Players[side]
	st := Status{
		Control:     s.Control,
		ControlTold: true,
		Side:        side,
		Own:         remaining(own),
		Opponent:    remaining(s.Players[side.Opponent()]),
		Played:      own.Plies,
		Start:       s.At,
	}
	switch {
	case s.Running && s.Mover == side:
		st.Deadline = s.Deadline
	case own.Out:
		st.Deadline = s.At
	default:
		var p player
		p.main, p.period = own.Main, own.Period
		if a, limited, _ := s.Control.allowance(p); limited {
			u := s.Control.Charging.unit()
			st.Deadline = s.At.Add(satAdd(a.Truncate(u), u))
		}
	}
	return st
}

// Untold returns the Status of a ply on a platform that tells nothing of
// its time: def is the protocol's known default control (the zero Control
// when it has none), not told, and neither clock is known. With a per-move
// cap the deadline is start plus the cap; otherwise there is none (set
// Deadline from the protocol's own limit, if any).
func Untold(def Control, start time.Time) Status {
	s := Status{Control: def, Start: start}
	if def.MoveCap > 0 {
		s.Deadline = start.Add(def.MoveCap)
	}
	return s
}

// PerMoveStatus returns the Status of a ply under a per-move cap and no
// game clock, the Othello server's -timeout and the PDD platform's 5 s:
// the control [PerMove](limit), told or the protocol's default as told
// says, and the deadline start plus limit (none for a limit that is not
// positive).
// With no game clock there is nothing else to tell, so both clocks are
// Told as the control is.
func PerMoveStatus(limit time.Duration, told bool, start time.Time) Status {
	s := Untold(PerMove(max(limit, 0)), start)
	s.ControlTold = told
	s.Own.Told, s.Opponent.Told = told, told
	return s
}

// TimeLeftStatus returns the Status of a ply under a game clock whose
// main time left the platform tells for both sides, as MGTP's time_left
// does in milliseconds: c is the control (told), own and opponent the
// main time left of the bot and of its opponent, and the deadline is what
// c's clock allows own from start. Negative times read as 0. Under
// byo-yomi (a c with a Period), a side with no main time left is taken to
// be at the start of a whole period.
func TimeLeftStatus(c Control, own, opponent time.Duration, start time.Time) Status {
	s := Status{Control: c, ControlTold: true, Start: start}
	s.Own = Remaining{Told: true, Main: max(own, 0)}
	s.Opponent = Remaining{Told: true, Main: max(opponent, 0)}
	if c.Period > 0 {
		s.Own.Byoyomi, s.Own.Period, s.Own.PliesLeft = s.Own.Main == 0, c.Period, c.plies()
		s.Opponent.Byoyomi, s.Opponent.Period, s.Opponent.PliesLeft = s.Opponent.Main == 0, c.Period, c.plies()
	}
	p := player{main: s.Own.Main, period: s.Own.Period}
	if a, limited, _ := c.allowance(p); limited {
		u := c.Charging.unit()
		s.Deadline = start.Add(satAdd(a.Truncate(u), u))
	}
	return s
}

// statusKey is the context key of a Status.
type statusKey struct{}

// WithStatus returns a copy of ctx carrying s, for [StatusFrom]. A
// protocol's bot side calls it on the context it hands the player for one
// ply. A nil ctx is read as context.Background().
func WithStatus(ctx context.Context, s Status) context.Context {
	if ctx == nil {
		ctx = context.Background()
	}
	return context.WithValue(ctx, statusKey{}, s)
}

// StatusFrom returns the Status ctx carries (see [WithStatus]), with its
// Deadline brought forward to ctx's deadline when that is earlier: the
// context's deadline is the hard limit whatever the Status says. ok is
// false when ctx carries no Status; the Status then knows nothing but the
// context's deadline, and its Start is now. A nil ctx carries nothing.
func StatusFrom(ctx context.Context) (s Status, ok bool) {
	if ctx == nil {
		return Status{Start: time.Now()}, false
	}
	s, ok = ctx.Value(statusKey{}).(Status)
	if !ok {
		s.Start = time.Now()
	}
	if d, has := ctx.Deadline(); has && (s.Deadline.IsZero() || d.Before(s.Deadline)) {
		s.Deadline = d
	}
	return s, ok
}

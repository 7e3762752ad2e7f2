package timer

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"sync"
	"time"
)

// Side is one of the two players: First (0) moves first, Second (1)
// moves second. Other values are out of range and rejected by [Clock.Start].
type Side uint8

const (
	First  Side = 0 // the first player
	Second Side = 1 // the second player
)

// String returns "first" or "second", and "Side(n)" for other values.
func (s Side) String() string {
	switch s {
	case First:
		return "first"
	case Second:
		return "second"
	}
	return "Side(" + strconv.Itoa(int(s)) + ")"
}

// Opponent returns the other side: Second for First and First for Second.
func (s Side) Opponent() Side { return s ^ 1 }

// Errors a [Clock] returns; test them with [errors.Is].
var (
	// ErrTimeUp is wrapped by every error reporting that a player broke
	// its time allowance or is already out of time; the error is a
	// *[TimeUpError].
	ErrTimeUp = errors.New("timer: out of time")
	// ErrNoPly is returned by [Clock.Stop] when no ply is in progress.
	ErrNoPly = errors.New("timer: no ply in progress")
	// ErrPlyInProgress is returned by [Clock.Start] while a ply is in
	// progress.
	ErrPlyInProgress = errors.New("timer: a ply is already in progress")
)

// TimeUpError reports the ply on which a player ran out of time. It wraps
// [ErrTimeUp].
type TimeUpError struct {
	Side      Side
	Ply       int           // the side's own ply number, from 1
	Elapsed   time.Duration // the ply's elapsed time, as measured
	Allowance time.Duration // what the ply was allowed (its charge had to be at most this)
	At        time.Time     // when the allowance ran out: the ply's deadline
	Cap       bool          // the per-move cap, not the game clock, was the limit
}

// Error returns, for example, "timer: second player out of time on its
// ply 12: took 10.5s, allowed 10s".
func (e *TimeUpError) Error() string {
	limit := "allowed "
	if e.Cap {
		limit = "per-move cap "
	}
	return "timer: " + e.Side.String() + " player out of time on its ply " + strconv.Itoa(e.Ply) +
		": took " + e.Elapsed.String() + ", " + limit + e.Allowance.String()
}

// Unwrap returns [ErrTimeUp].
func (e *TimeUpError) Unwrap() error { return ErrTimeUp }

// player is one side's clock state.
type player struct {
	main      time.Duration // main time left
	period    time.Duration // time left in the current byo-yomi period
	pliesLeft int           // plies still owed in the current period
	plies     int           // plies played in time
	used      time.Duration // total charged
	lapsed    time.Duration // period time given up when periods restarted
	granted   time.Duration // main time, increments, and every period opened
	flag      *TimeUpError  // non-nil once out of time
}

func satAdd(a, b time.Duration) time.Duration {
	if s := a + b; s >= a {
		return s
	}
	return math.MaxInt64
}

func (c Control) initial() player {
	p := player{main: max(c.Main, 0)}
	if c.Period > 0 {
		p.period = c.Period
		p.pliesLeft = c.plies()
	}
	p.granted = satAdd(p.main, p.period)
	return p
}

// allowance is how much a ply starting from p may charge, and whether
// there is any limit at all. cap reports that the per-move cap is the
// binding limit.
func (c Control) allowance(p player) (a time.Duration, limited, isCap bool) {
	a = math.MaxInt64
	if c.clocked() {
		a, limited = satAdd(p.main, p.period), true
	}
	if c.MoveCap > 0 && c.MoveCap < a {
		a, limited, isCap = c.MoveCap, true, true
	}
	return a, limited, isCap
}

// drain charges d to p: from the main time first, then from the period.
// With a game clock, d must be at most p.main + p.period.
func (c Control) drain(p *player, d time.Duration) {
	if c.clocked() {
		m := min(d, p.main)
		p.main -= m
		p.period -= min(d-m, p.period)
	}
	p.used = satAdd(p.used, d)
}

// finish closes a ply played in time that charged d, mainBefore being the
// main time when it started: periods and increment.
func (c Control) finish(p *player, d, mainBefore time.Duration) {
	p.plies++
	if c.Period > 0 && (mainBefore == 0 || d > mainBefore) {
		p.pliesLeft--
		if p.pliesLeft <= 0 {
			p.lapsed = satAdd(p.lapsed, p.period)
			p.granted = satAdd(p.granted, c.Period)
			p.period = c.Period
			p.pliesLeft = c.plies()
		}
	}
	if c.Increment > 0 {
		p.main = satAdd(p.main, c.Increment)
		p.granted = satAdd(p.granted, c.Increment)
	}
}

// Clock is the clock of a two-player game under one [Control]: it starts
// and stops each ply, charges it, and flags the player who breaks its
// allowance. A player out of time stays out.
//
// All methods are safe for concurrent use: a host runs the game while a
// viewer reads [Clock.Snapshot]. The zero Clock has no limit and reads
// [time.Now]; use [NewClock] for any other control.
type Clock struct {
	mu      sync.Mutex
	c       Control
	now     func() time.Time
	players [2]player

	// the ply in progress
	running  bool
	mover    Side
	start    time.Time
	deadline time.Time
	allow    time.Duration
	limited  bool
	isCap    bool
}

// NewClock returns a clock for a game under c, read from now (nil means
// [time.Now]). now must not call the Clock. Elapsed times are now's
// differences, so a source with a monotonic reading, such as time.Now, is
// immune to wall-clock changes; a source that goes backwards gives an
// elapsed time of zero. If c is not valid, [Clock.Start] returns
// c.Validate's error.
func NewClock(c Control, now func() time.Time) *Clock {
	k := &Clock{c: c, now: now}
	k.players[0] = c.initial()
	k.players[1] = k.players[0]
	return k
}

func (k *Clock) time() time.Time {
	if k.now == nil {
		return time.Now()
	}
	return k.now()
}

// Control returns the clock's control.
func (k *Clock) Control() Control {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.c
}

// Start begins a ply for side now. It fails with a *[FieldError] for a
// side out of range or an invalid control, with [ErrPlyInProgress] while
// another ply runs, and with the side's *[TimeUpError] if it is already
// out of time. The same side may start several plies in a row (a pass).
func (k *Clock) Start(side Side) error {
	if side > Second {
		return fieldErr("side", strconv.Itoa(int(side)), "want 0 (first) or 1 (second)")
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	if err := k.c.Validate(); err != nil {
		return err
	}
	if k.running {
		return fmt.Errorf("%w: the %v player is thinking", ErrPlyInProgress, k.mover)
	}
	p := &k.players[side]
	if p.flag != nil {
		e := *p.flag
		return &e
	}
	now := k.time()
	k.running, k.mover, k.start = true, side, now
	k.allow, k.limited, k.isCap = k.c.allowance(*p)
	k.deadline = time.Time{}
	if k.limited {
		u := k.c.Charging.unit()
		k.deadline = now.Add(satAdd(k.allow.Truncate(u), u))
	}
	return nil
}

// Stop ends the ply in progress and returns its elapsed time. If the
// ply's charge broke its allowance, the error is a *[TimeUpError]
// (wrapping [ErrTimeUp]), the side is out of time for good, and it is
// charged its whole allowance. Without a ply in progress Stop returns
// [ErrNoPly].
func (k *Clock) Stop() (elapsed time.Duration, err error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if !k.running {
		return 0, ErrNoPly
	}
	k.running = false
	elapsed = max(k.time().Sub(k.start), 0)
	p := &k.players[k.mover]
	d := k.c.Charging.Charge(elapsed)
	if k.limited && d > k.allow {
		k.c.drain(p, k.allow)
		p.flag = &TimeUpError{
			Side:      k.mover,
			Ply:       p.plies + 1,
			Elapsed:   elapsed,
			Allowance: k.allow,
			At:        k.deadline,
			Cap:       k.isCap,
		}
		e := *p.flag
		return elapsed, &e
	}
	mainBefore := p.main
	k.c.drain(p, d)
	k.c.finish(p, d, mainBefore)
	return elapsed, nil
}

// Deadline returns when the ply in progress runs out: the first instant at
// which its charge would exceed its allowance. With millisecond charging
// that is the allowance plus one millisecond after the ply's start (a ply
// charged exactly its allowance is in time); with whole-second charging it
// is the allowance, rounded down to the second, plus one second, the Java
// Geister server's extra second. ok is false when no ply is in progress or
// the control sets no limit.
//
// A host puts the deadline on the ply's context (context.WithDeadline) and
// calls [Clock.Stop] when the move arrives or the context expires.
func (k *Clock) Deadline() (deadline time.Time, ok bool) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if !k.running || !k.limited {
		return time.Time{}, false
	}
	return k.deadline, true
}

// Running returns the side whose ply is in progress; ok is false if none.
func (k *Clock) Running() (side Side, ok bool) {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.mover, k.running
}

// PlayerState is one player's clock in a [Snapshot]. No duration in it is
// ever negative.
type PlayerState struct {
	// Main is the main time left.
	Main time.Duration
	// Byoyomi reports that the main time is spent and the player is in
	// byo-yomi periods (only with a Period).
	Byoyomi bool
	// Period is the time left in the current byo-yomi period: the whole
	// Period until byo-yomi starts, 0 without a Period.
	Period time.Duration
	// PliesLeft is the number of plies still to play within the current
	// period (the whole PliesPerPeriod until byo-yomi starts; 0 without a
	// Period).
	PliesLeft int
	// Left is how much more the player may be charged on its current ply,
	// or on its next one when it is not thinking, before it is out: 0 when
	// it is out, and 0 when the control sets no limit (see
	// [Control.Unlimited]).
	Left time.Duration
	// Plies is the number of plies the player played in time.
	Plies int
	// Used is the total time charged to the player, the ply in progress
	// included.
	Used time.Duration
	// Lapsed is the byo-yomi time the player gave up: what was left in a
	// period when it started again. With a game clock,
	// Main + Period + Used + Lapsed == Granted.
	Lapsed time.Duration
	// Granted is all the time the control has given the player: the main
	// time, every increment, and every byo-yomi period opened.
	Granted time.Duration
	// Out reports that the player ran out of time; OutAt is when its
	// allowance ran out.
	Out   bool
	OutAt time.Time
}

// Snapshot is the state of a [Clock] at one instant, as a plain value. For
// the player thinking, it counts the ply in progress as if the ply ended
// at that instant, without finishing it: the time is taken from its clock,
// but no period restarts and no increment is added yet. A player whose
// deadline has passed shows as out even before [Clock.Stop] is called.
type Snapshot struct {
	At       time.Time      // when the snapshot was taken
	Control  Control        // the clock's control
	Running  bool           // a ply is in progress
	Mover    Side           // the side thinking, when Running
	Start    time.Time      // when the ply in progress started
	Elapsed  time.Duration  // its elapsed time so far
	Deadline time.Time      // its deadline; zero when not Running or unlimited
	Players  [2]PlayerState // indexed by Side
}

// Snapshot returns the state of the clock now. It is safe to call from
// any goroutine while the game runs.
func (k *Clock) Snapshot() Snapshot {
	k.mu.Lock()
	defer k.mu.Unlock()
	now := k.time()
	s := Snapshot{At: now, Control: k.c, Running: k.running}
	for i := range k.players {
		p := k.players[i]
		left, limited, _ := k.c.allowance(p)
		if k.running && Side(i) == k.mover {
			s.Mover, s.Start, s.Deadline = k.mover, k.start, k.deadline
			s.Elapsed = max(now.Sub(k.start), 0)
			d := k.c.Charging.Charge(s.Elapsed)
			left, limited = k.allow, k.limited
			if limited && d > k.allow {
				k.c.drain(&p, k.allow)
				p.flag = &TimeUpError{At: k.deadline}
			} else {
				k.c.drain(&p, d)
				left -= d
			}
		}
		ps := PlayerState{
			Main:      p.main,
			Byoyomi:   k.c.Period > 0 && p.main == 0,
			Period:    p.period,
			PliesLeft: p.pliesLeft,
			Plies:     p.plies,
			Used:      p.used,
			Lapsed:    p.lapsed,
			Granted:   p.granted,
		}
		if limited {
			ps.Left = left
		}
		if p.flag != nil {
			ps.Out, ps.OutAt, ps.Left = true, p.flag.At, 0
		}
		s.Players[i] = ps
	}
	return s
}

// OutOfTime returns the side that ran out of time first and when; ok is
// false if neither has.
func (s Snapshot) OutOfTime() (side Side, at time.Time, ok bool) {
	for i, p := range s.Players {
		if p.Out && (!ok || p.OutAt.Before(at)) {
			side, at, ok = Side(i), p.OutAt, true
		}
	}
	return side, at, ok
}

// NewClockFrom returns a clock for a game under c that goes on from the
// players' states in s, as a [Snapshot] gave them (a game resumed, or
// played again from an earlier ply after a take-back): each side's main
// time, byo-yomi period, plies owed in it, plies played and time used,
// given and lapsed. A side that was out of time is out again. Nothing is
// running. now is as for [NewClock].
func NewClockFrom(c Control, s [2]PlayerState, now func() time.Time) *Clock {
	k := NewClock(c, now)
	for i, ps := range s {
		p := player{
			main:    max(ps.Main, 0),
			plies:   max(ps.Plies, 0),
			used:    max(ps.Used, 0),
			lapsed:  max(ps.Lapsed, 0),
			granted: max(ps.Granted, 0),
		}
		if c.Period > 0 {
			p.period = min(max(ps.Period, 0), c.Period)
			p.pliesLeft = min(max(ps.PliesLeft, 1), c.plies())
		}
		if ps.Out {
			p.flag = &TimeUpError{Side: Side(i), At: ps.OutAt}
		}
		k.players[i] = p
	}
	return k
}

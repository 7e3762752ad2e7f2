package protocol

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"time"

	"github.com/botarena/botarena/darkchess"
	"github.com/botarena/botarena/internal/proc"
	"github.com/botarena/botarena/timer"
)

// DarkChessSeat is the referee's end of one dark chess engine, whatever
// reaches it: a program speaking the legacy socket protocol
// ([cdcsocket.Program]), MGTP (package protocol/mgtp), read mode, or a Go
// player in the same process ([NewDarkChessPlayerSeat]). The referee
// ([DarkChessReferee.Play]) calls the methods of a seat from one goroutine at
// a time, in game order: Begin once, then Ask when the engine is to move and
// Tell after every ply, then End once, even when Begin failed.
//
// The errors of Ask and Tell decide how the engine loses: a
// [*DarkChessFault] carries its reason (BadMove for an answer that is not a
// ply, Resign); any other error (a dead engine, a closed pipe, ctx's
// deadline) loses by TimeOut, as the 2021 system records a dead engine. A
// fault found while the engine is not to move (garbage on its connection)
// is reported by the next call, and costs it the game then: a Tell's error
// does so at once, even for the report of the engine's own ply, which
// stays played (the game then ends with the loser not to move, which
// [record.DarkChessBoard.Game] reads back). The error's [DarkChessFaultKind]
// says what the engine did ([DarkChessFaultKindOf]).
type DarkChessSeat interface {
	// Begin prepares the engine for the game (a handshake), within ctx.
	Begin(ctx context.Context, b DarkChessBegin) error
	// Ask asks the engine for its ply in v, the view of the side to move.
	// ctx's deadline is the mover's clock.
	Ask(ctx context.Context, v darkchess.View) (darkchess.Move, error)
	// Tell reports a ply to the engine: each ply, the engine's own
	// included.
	Tell(ctx context.Context, t DarkChessTell) error
	// End ends the game for the engine with its result and releases it: a
	// program has exited, or been killed, and been reaped when End returns.
	// ctx bounds the wait.
	End(ctx context.Context, r darkchess.Result) error
}

// DarkChessBegin is what a seat learns when the game begins.
type DarkChessBegin struct {
	// First reports that the engine is the first player (先手).
	First bool
	// Color is the engine's colour, NoColor until the first flip.
	Color darkchess.Color
	// Left is the engine's remaining time.
	Left time.Duration
	// View is the position the game is in now, with the plies that led to
	// it from the start (History), the Rules, and both clocks (TimeLeft).
	View darkchess.View
	// Control is the time control.
	Control timer.Control
}

// DarkChessTell is a ply as the referee reports it to a seat.
type DarkChessTell struct {
	Ply   darkchess.Ply   // the ply played, a flip with the piece it revealed
	Mover darkchess.Color // the colour of the player who played it
	Color darkchess.Color // the colour of the engine told
	// TimeLeft is each colour's remaining time after the ply: the time
	// its next ply may take.
	TimeLeft [2]time.Duration
	// Over reports that the ply ended the game.
	Over bool
}

// DarkChessFault is a seat's error that names the reason its engine loses,
// and what the engine did.
type DarkChessFault struct {
	Reason darkchess.Reason   // darkchess.BadMove, darkchess.Resign or darkchess.TimeOut
	Kind   DarkChessFaultKind // what the engine did; 0 lets [DarkChessFaultKindOf] tell from Err
	Err    error              // what happened
}

// Error describes the fault.
func (e *DarkChessFault) Error() string {
	return fmt.Sprintf("protocol: dark chess engine fault (%s): %v", e.Reason, e.Err)
}

// Unwrap returns Err.
func (e *DarkChessFault) Unwrap() error { return e.Err }

// DarkChessFaultKind says what an engine did to lose by a fault, whatever
// its protocol, in the words every game of the arena uses. The record's
// reason (darkchess.TimeOut, BadMove, Resign) is the platform's word, which
// says less: the 2021 system records an engine that could not start, died or
// hung alike as TimeOut.
type DarkChessFaultKind uint8

const (
	// DarkChessNoFault is the kind of no fault.
	DarkChessNoFault DarkChessFaultKind = iota
	// DarkChessNotStarted: the program could not be started (not found,
	// not executable, no such directory).
	DarkChessNotStarted
	// DarkChessCrashed: the program exited (or a seat failed in a way it
	// cannot tell apart).
	DarkChessCrashed
	// DarkChessTimedOut: no answer in time: a hang, a late answer, a
	// handshake not finished within the referee's handshake timeout, a
	// program that never connected.
	DarkChessTimedOut
	// DarkChessIllegal: an illegal ply, or talk that breaks the protocol
	// (an answer that is not a ply, a bad move.txt, a refused genmove,
	// garbage on a socket).
	DarkChessIllegal
	// DarkChessDisconnected: the program closed its connection or its
	// output but went on running.
	DarkChessDisconnected
	// DarkChessResigned: the engine resigned.
	DarkChessResigned
)

// String returns "could not start", "crashed", "timed out", "illegal move",
// "disconnected", "resigned", "" for DarkChessNoFault, or
// "DarkChessFaultKind(n)".
func (k DarkChessFaultKind) String() string {
	switch k {
	case DarkChessNoFault:
		return ""
	case DarkChessNotStarted:
		return "could not start"
	case DarkChessCrashed:
		return "crashed"
	case DarkChessTimedOut:
		return "timed out"
	case DarkChessIllegal:
		return "illegal move"
	case DarkChessDisconnected:
		return "disconnected"
	case DarkChessResigned:
		return "resigned"
	}
	return fmt.Sprintf("DarkChessFaultKind(%d)", uint8(k))
}

// DarkChessFaultKindOf returns the kind of a seat's error: the Kind of the
// first [*DarkChessFault] in its chain that has one; else DarkChessNotStarted
// for a program that could not be started, DarkChessTimedOut for a deadline,
// DarkChessIllegal for a BadMove fault, DarkChessResigned for Resign, and
// DarkChessCrashed for anything else. It returns DarkChessNoFault for nil.
func DarkChessFaultKindOf(err error) DarkChessFaultKind {
	if err == nil {
		return DarkChessNoFault
	}
	reason := darkChessReason(err)
	var f *DarkChessFault
	for e := err; errors.As(e, &f); e = f.Err {
		if f.Kind != DarkChessNoFault {
			return f.Kind
		}
	}
	switch {
	case errors.Is(err, proc.ErrStart):
		return DarkChessNotStarted
	case errors.Is(err, context.DeadlineExceeded):
		return DarkChessTimedOut
	case reason == darkchess.BadMove:
		return DarkChessIllegal
	case reason == darkchess.Resign:
		return DarkChessResigned
	}
	return DarkChessCrashed
}

// darkChessReason returns the reason a seat's error costs its engine.
func darkChessReason(err error) darkchess.Reason {
	var f *DarkChessFault
	if errors.As(err, &f) && (f.Reason == darkchess.BadMove || f.Reason == darkchess.Resign) {
		return f.Reason
	}
	return darkchess.TimeOut
}

// DarkChessDefaultControl is the control a [DarkChessReferee] uses when given
// none: 900 s per player, sudden death, as on every dark chess platform.
var DarkChessDefaultControl = timer.Control{Main: 900 * time.Second}

// The referee's default limits.
const (
	darkChessHandshake = 10 * time.Second // Begin
	darkChessTellLimit = 10 * time.Second // each Tell
	darkChessEndLimit  = 10 * time.Second // End
)

// DarkChessReferee plays games of dark chess between two seats, whatever
// protocol each engine speaks. The zero value is ready to use; a referee
// holds only settings, so one referee may run many games at once.
type DarkChessReferee struct {
	// Control is the time control; the zero Control means
	// DarkChessDefaultControl. A control that sets no limit (Charging
	// alone) puts no deadline on a ply: an engine that never answers then
	// holds the game until ctx ends, and engines are told 0 ms left.
	Control timer.Control
	// ClockFrom, when not nil, is the clock's state to go on from, by
	// seat (first player first), as a [timer.Snapshot]'s Players gave it:
	// the clocks of a game resumed, or played again from an earlier ply
	// after a take-back ([timer.NewClockFrom]). Nil starts both clocks
	// full.
	ClockFrom *[2]timer.PlayerState
	// FreeFirstPly leaves the game's first ply uncharged, as the 2021 MGTP
	// system did (it still has to come within the player's time).
	FreeFirstPly bool
	// HandshakeTimeout bounds each seat's Begin; 0 means 10 s. A seat that
	// fails it loses by TimeOut.
	HandshakeTimeout time.Duration
	// TellTimeout bounds each Tell; 0 means 10 s.
	TellTimeout time.Duration
	// EndTimeout bounds each seat's End; 0 means 10 s.
	EndTimeout time.Duration
	// Now reads the time for the clock and the record; nil means time.Now.
	// Tests give a fake one.
	Now func() time.Time
	// Logger receives the game's events; nil discards them.
	Logger *slog.Logger
	// OnPly, when not nil, is called after every ply the referee plays,
	// once the ply has been judged (so the event carries the result if it
	// ended the game) and before the seats are told of it, from the
	// goroutine that runs Play: a viewer draws the game live from it. It
	// must return quickly; the game waits for it. Plies played before Play
	// took the game over, and a game's end by a fault (no ply is played),
	// are not reported: the record has them.
	OnPly func(e DarkChessPlyEvent)
}

// DarkChessPlyEvent is a ply as [DarkChessReferee.OnPly] reports it.
type DarkChessPlyEvent struct {
	// N is the number of plies of the game so far, this one included.
	N int
	// Ply is the ply, a flip with the piece it revealed.
	Ply darkchess.Ply
	// Seat is the seat that played it: 0 the first player, 1 the second.
	Seat int
	// Mover is the mover's colour (the first flip's colour for the game's
	// first ply).
	Mover darkchess.Color
	// Position is the position after the ply. It holds the deal: a viewer
	// that shows the game to others must draw only what Position.At shows.
	Position darkchess.Position
	// Clock is the clock after the ply; its Players are indexed by seat.
	Clock timer.Snapshot
	// Result is the result if the ply ended the game; its Reason is
	// darkchess.Unfinished otherwise.
	Result darkchess.Result
}

// DarkChessGameRecord is a game as a [DarkChessReferee] played it.
type DarkChessGameRecord struct {
	// Start is the position the game started from, with its deal.
	Start darkchess.Position
	// Plies are the plies played, flips with their pieces.
	Plies []darkchess.Ply
	// Result is the outcome; Reason is darkchess.Unfinished if the game was
	// cut short (ctx ended).
	Result darkchess.Result
	// FirstColor is the first player's colour (NoColor if it never flipped).
	FirstColor darkchess.Color
	// Began and Ended are when the game began and ended, by the referee's
	// Now.
	Began, Ended time.Time
	// Times holds, for each ply, when it arrived (zero for plies played
	// before this referee took the game over).
	Times []time.Time
	// Faults holds, by seat (first player first), the error that cost that
	// seat's engine the game, or nil.
	Faults [2]error
	// FaultKinds holds, by seat, what the engine of Faults did
	// ([DarkChessFaultKindOf]), DarkChessNoFault for none.
	FaultKinds [2]DarkChessFaultKind
	// Clock is the clock at the end.
	Clock timer.Snapshot
}

// darkChessMatch is the state of one Play call.
type darkChessMatch struct {
	r      *DarkChessReferee
	log    *slog.Logger
	now    func() time.Time
	g      *darkchess.Game
	seats  [2]DarkChessSeat
	clock  *timer.Clock
	rec    DarkChessGameRecord
	firstN int // plies of g when Play began
}

// Play plays g, from where it stands, between seats[0], the first player
// (the one who moved first in g, or who is to move first from its start),
// and seats[1], and returns the record. g must have a deal (or flips cannot
// be played) and be unfinished.
//
// Play begins both seats at once, then asks the side to move for its ply
// with its clock's deadline on the context, plays it, and tells it to both
// seats, the mover first, until the game ends; then it ends both seats. A
// seat's failure costs only its engine the game (see [DarkChessSeat]): a late
// answer or any failure TimeOut, an illegal ply or an answer that is not one
// BadMove, a resignation Resign. Before the first flip has given the players
// their colours, a fault of the second player is held until the first
// player's first ply, and a fault of the first player is recorded against
// it with no colour (see [darkchess.Game.Forfeit]).
//
// Play returns an error only when it cannot play (nil seats, a finished
// game) or when ctx ends, in which case the record's result is Unfinished.
// The seats are ended in every case.
func (r *DarkChessReferee) Play(ctx context.Context, g *darkchess.Game, seats [2]DarkChessSeat) (DarkChessGameRecord, error) {
	if r == nil {
		r = &DarkChessReferee{}
	}
	if g == nil || seats[0] == nil || seats[1] == nil {
		return DarkChessGameRecord{}, errors.New("protocol: DarkChessReferee.Play needs a game and two seats")
	}
	if g.IsOver() {
		return DarkChessGameRecord{}, fmt.Errorf("protocol: DarkChessReferee.Play: %w", darkchess.ErrGameOver)
	}
	control := r.Control
	if control == (timer.Control{}) {
		control = DarkChessDefaultControl
	}
	if err := control.Validate(); err != nil {
		return DarkChessGameRecord{}, fmt.Errorf("protocol: DarkChessReferee.Control: %w", err)
	}
	m := &darkChessMatch{r: r, log: r.Logger, now: r.Now, g: g, seats: seats, firstN: g.Ply()}
	if m.log == nil {
		m.log = slog.New(slog.DiscardHandler)
	}
	if m.now == nil {
		m.now = time.Now
	}
	m.clock = timer.NewClock(control, m.now)
	if r.ClockFrom != nil {
		m.clock = timer.NewClockFrom(control, *r.ClockFrom, m.now)
	}
	m.rec.Began = m.now()
	m.rec.Times = make([]time.Time, g.Ply())
	start, _ := g.PositionAt(0)
	m.rec.Start = start

	err := m.run(ctx)

	m.endAll(ctx)
	m.rec.Plies = g.Plies()
	m.rec.Result, _ = g.Result()
	m.rec.FirstColor = g.FirstColor()
	m.rec.Ended = m.now()
	m.rec.Clock = m.clock.Snapshot()
	m.log.Info("dark chess: game over", "result", m.rec.Result.String(), "plies", len(m.rec.Plies))
	return m.rec, err
}

func orDefault(d, def time.Duration) time.Duration {
	if d > 0 {
		return d
	}
	return def
}

// colorOf returns the colour of seat i, NoColor while unknown.
func (m *darkChessMatch) colorOf(i int) darkchess.Color {
	c := m.g.FirstColor()
	if !c.Valid() {
		return darkchess.NoColor
	}
	if i == 1 {
		return c.Opponent()
	}
	return c
}

// mover returns the seat to move.
func (m *darkChessMatch) mover() int {
	// The first player moves at even plies of the game.
	return m.g.Ply() % 2
}

// timeLeft returns each colour's remaining time.
func (m *darkChessMatch) timeLeft() [2]time.Duration {
	s := m.clock.Snapshot()
	var t [2]time.Duration
	for i := range 2 {
		if c := m.colorOf(i); c.Valid() {
			t[c] = s.Players[i].Left
		}
	}
	return t
}

// view returns the view of the side to move, with history, rules and clocks.
func (m *darkChessMatch) view(c darkchess.Color) darkchess.View {
	v := m.g.View(c)
	v.TimeLeft = m.timeLeft()
	return v
}

// fault makes seat i lose for err, if the game is still on and the seat can
// be named. It reports whether the game ended.
func (m *darkChessMatch) fault(i int, err error) bool {
	if m.g.IsOver() {
		return true
	}
	if m.rec.Faults[i] == nil {
		m.rec.Faults[i] = err
		m.rec.FaultKinds[i] = DarkChessFaultKindOf(err)
	}
	reason := darkChessReason(err)
	loser := m.colorOf(i)
	if !loser.Valid() && i == 1 {
		// The second player cannot forfeit before the first flip: held
		// until then.
		m.log.Warn("dark chess: second player failed before the first flip", "reason", reason.String(), "err", err)
		return false
	}
	if ferr := m.g.Forfeit(loser, reason); ferr != nil {
		m.log.Error("dark chess: forfeit refused", "seat", i, "err", ferr)
		return false
	}
	m.log.Info("dark chess: engine loses", "seat", i, "reason", reason.String(), "kind", m.rec.FaultKinds[i].String(), "err", err)
	return true
}

// run plays the game until it ends or ctx does.
func (m *darkChessMatch) run(ctx context.Context) error {
	if err := m.begin(ctx); err != nil {
		return err
	}
	for !m.g.IsOver() {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("protocol: dark chess game abandoned: %w", context.Cause(ctx))
		}
		if err := m.ply(ctx); err != nil {
			return err
		}
	}
	return nil
}

// begin runs both seats' Begin at once.
func (m *darkChessMatch) begin(ctx context.Context) error {
	var errs [2]error
	var wg sync.WaitGroup
	for i, s := range m.seats {
		b := DarkChessBegin{
			First:   i == 0,
			Color:   m.colorOf(i),
			Left:    m.clock.Snapshot().Players[i].Left,
			View:    m.view(m.colorOf(i)),
			Control: m.clock.Control(),
		}
		wg.Go(func() {
			hctx, cancel := context.WithTimeout(ctx, orDefault(m.r.HandshakeTimeout, darkChessHandshake))
			defer cancel()
			errs[i] = s.Begin(hctx, b)
		})
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("protocol: dark chess game abandoned: %w", context.Cause(ctx))
	}
	// The side to move first, so that a first player's fault is recorded
	// before the second player's is held.
	for _, i := range []int{m.mover(), 1 - m.mover()} {
		if errs[i] != nil {
			m.log.Warn("dark chess: handshake failed", "seat", i, "err", errs[i])
			f := &DarkChessFault{Reason: darkchess.TimeOut, Kind: DarkChessFaultKindOf(errs[i]), Err: errs[i]}
			if sf, ok := errs[i].(*DarkChessFault); ok {
				f.Err = sf.Err // the seat's own words, once
			}
			f.Err = fmt.Errorf("handshake: %w", f.Err)
			if m.fault(i, f) {
				return nil
			}
		}
	}
	return nil
}

// ply asks the side to move for one ply, plays it and tells both seats.
func (m *darkChessMatch) ply(ctx context.Context) error {
	i := m.mover()
	seat := m.seats[i]
	v := m.view(m.g.Turn())
	free := m.r.FreeFirstPly && m.g.Ply() == 0
	actx, cancel := context.WithCancel(ctx)
	defer cancel()
	if free {
		if left := m.clock.Snapshot().Players[i].Left; !m.clock.Control().Unlimited() {
			actx, cancel = context.WithTimeout(ctx, left+time.Millisecond)
			defer cancel()
		}
	} else {
		if err := m.clock.Start(timer.Side(i)); err != nil {
			m.fault(i, &DarkChessFault{Reason: darkchess.TimeOut, Kind: DarkChessTimedOut, Err: err})
			return nil
		}
		if dl, ok := m.clock.Deadline(); ok {
			actx, cancel = context.WithTimeout(ctx, dl.Sub(m.now()))
			defer cancel()
		}
	}
	mv, err := seat.Ask(actx, v)
	at := m.now()
	if !free {
		if _, terr := m.clock.Stop(); terr != nil && ctx.Err() == nil {
			m.fault(i, &DarkChessFault{Reason: darkchess.TimeOut, Kind: DarkChessTimedOut, Err: terr})
			return nil
		}
	}
	if ctx.Err() != nil {
		return fmt.Errorf("protocol: dark chess game abandoned: %w", context.Cause(ctx))
	}
	if err != nil {
		m.fault(i, err)
		return nil
	}
	if err := m.g.Play(mv); err != nil {
		m.fault(i, &DarkChessFault{Reason: darkchess.BadMove, Kind: DarkChessIllegal, Err: err})
		return nil
	}
	m.rec.Times = append(m.rec.Times, at)
	plies := m.g.Plies()
	ply := plies[len(plies)-1]
	mover := m.colorOf(i)
	m.log.Debug("dark chess: ply", "n", len(plies), "ply", ply.String(), "mover", mover.String())
	if m.rec.Faults[1] != nil && !m.g.IsOver() {
		// The second player failed before the first flip; now it has a
		// colour.
		m.fault(1, m.rec.Faults[1])
	}
	over := m.g.IsOver()
	if m.r.OnPly != nil {
		res, _ := m.g.Result()
		m.r.OnPly(DarkChessPlyEvent{
			N: len(plies), Ply: ply, Seat: i, Mover: mover,
			Position: m.g.Position(), Clock: m.clock.Snapshot(), Result: res,
		})
	}
	t := DarkChessTell{Ply: ply, Mover: mover, TimeLeft: m.timeLeft(), Over: over}
	for _, j := range []int{i, 1 - i} {
		if m.rec.Faults[j] != nil {
			continue // the engine failed: it is told nothing more
		}
		t.Color = m.colorOf(j)
		tctx, cancel := context.WithTimeout(ctx, orDefault(m.r.TellTimeout, darkChessTellLimit))
		err := m.seats[j].Tell(tctx, t)
		cancel()
		if ctx.Err() != nil {
			return fmt.Errorf("protocol: dark chess game abandoned: %w", context.Cause(ctx))
		}
		if err != nil {
			if over || m.g.IsOver() {
				m.log.Debug("dark chess: tell failed after the end", "seat", j, "err", err)
				continue
			}
			m.fault(j, err)
		}
	}
	return nil
}

// endAll ends both seats at once, with a context that outlives ctx.
func (m *darkChessMatch) endAll(ctx context.Context) {
	r, _ := m.g.Result()
	ectx, cancel := context.WithTimeout(context.WithoutCancel(ctx), orDefault(m.r.EndTimeout, darkChessEndLimit))
	defer cancel()
	var wg sync.WaitGroup
	for i, s := range m.seats {
		wg.Go(func() {
			if err := s.End(ectx, r); err != nil {
				m.log.Debug("dark chess: end", "seat", i, "err", err)
			}
		})
	}
	wg.Wait()
}

// NewDarkChessPlayerSeat returns a seat for a Go player in the host's own
// process: Ask calls p.Play; an error, or a panic, of the player is a BadMove
// fault, and a player that ignores its deadline loses by TimeOut all the
// same (Ask returns when ctx ends, and the player's result is dropped).
func NewDarkChessPlayerSeat(p darkchess.Player) DarkChessSeat {
	return &darkChessPlayerSeat{p: p}
}

type darkChessPlayerSeat struct {
	p  darkchess.Player
	wg sync.WaitGroup
}

func (s *darkChessPlayerSeat) Begin(context.Context, DarkChessBegin) error {
	if s.p == nil {
		return errors.New("protocol: nil darkchess.Player")
	}
	return nil
}

func (s *darkChessPlayerSeat) Ask(ctx context.Context, v darkchess.View) (darkchess.Move, error) {
	type answer struct {
		m   darkchess.Move
		err error
	}
	done := make(chan answer, 1)
	v.History = slices.Clone(v.History)
	s.wg.Go(func() {
		defer func() {
			if x := recover(); x != nil {
				done <- answer{darkchess.NoMove, &DarkChessFault{Reason: darkchess.BadMove, Kind: DarkChessCrashed, Err: fmt.Errorf("player panicked: %v", x)}}
			}
		}()
		m, err := s.p.Play(ctx, v)
		if err != nil && ctx.Err() == nil {
			err = &DarkChessFault{Reason: darkchess.BadMove, Err: err}
		}
		done <- answer{m, err}
	})
	select {
	case a := <-done:
		return a.m, a.err
	case <-ctx.Done():
		return darkchess.NoMove, ctx.Err()
	}
}

func (s *darkChessPlayerSeat) Tell(context.Context, DarkChessTell) error { return nil }

// End waits, within ctx, for the player's calls to return.
func (s *darkChessPlayerSeat) End(ctx context.Context, _ darkchess.Result) error {
	done := make(chan struct{})
	go func() {
		s.wg.Wait()
		close(done)
	}()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("protocol: dark chess player still running: %w", ctx.Err())
	}
}

package timer

import (
	"errors"
	"math"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// epoch is the fake clocks' time zero.
func epoch() time.Time { return time.Date(2026, 11, 22, 21, 5, 0, 0, time.UTC) }

// fakeClock is a time source the test moves by hand; safe for concurrent use.
type fakeClock struct{ ns atomic.Int64 }

func (f *fakeClock) now() time.Time          { return epoch().Add(time.Duration(f.ns.Load())) }
func (f *fakeClock) advance(d time.Duration) { f.ns.Add(int64(d)) }
func (f *fakeClock) set(d time.Duration)     { f.ns.Store(int64(d)) }
func (f *fakeClock) since0() time.Duration   { return time.Duration(f.ns.Load()) }
func ms(n int64) time.Duration               { return time.Duration(n) * time.Millisecond }
func sec(n float64) time.Duration            { return time.Duration(math.Round(n * float64(time.Second))) }
func mustParse(t testing.TB, s string) Control {
	t.Helper()
	c, err := Parse(s)
	must(t, err)
	return c
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// step is one ply of a scripted game and the mover's clock after it.
type step struct {
	side      Side
	d         time.Duration // the ply's elapsed time
	out       bool          // the ply breaks the allowance
	main      time.Duration // the mover's main time after the ply
	period    time.Duration // the mover's period time after the ply
	pliesLeft int           // the mover's plies left in the period after the ply
}

// TestGames plays whole games under each kind of control and checks the
// mover's clock after every ply.
func TestGames(t *testing.T) {
	tests := []struct {
		name    string
		control string
		steps   []step
	}{
		{"none", "none", []step{
			{side: First, d: 1000 * time.Hour},
			{side: Second, d: 0},
			{side: First, d: time.Nanosecond},
		}},
		{"sudden death", "10s", []step{
			{side: First, d: sec(3), main: sec(7)},
			{side: Second, d: sec(4), main: sec(6)},
			{side: First, d: sec(5), main: sec(2)},
			{side: Second, d: sec(6), main: 0}, // exactly all of it: in time
			{side: First, d: sec(2.0009), main: 0},
			{side: Second, d: ms(1), out: true},
		}},
		{"sudden death, charged to the millisecond", "1s", []step{
			{side: First, d: 999999 * time.Nanosecond, main: sec(1)},          // under 1 ms: free
			{side: First, d: 1999999 * time.Nanosecond, main: sec(1) - ms(1)}, // 1.999999 ms: 1 ms
			{side: First, d: sec(0.999) + 999999, main: 0},                    // 999.999999 ms: 999 ms
			{side: First, d: 999999, main: 0},                                 // free, even at 0
			{side: First, d: ms(1), out: true},
		}},
		{"byo-yomi", "5s+2s/move", []step{
			{side: First, d: sec(4), main: sec(1), period: sec(2), pliesLeft: 1},
			{side: First, d: sec(2.5), main: 0, period: sec(2), pliesLeft: 1}, // 1 s main, 1.5 s period, restart
			{side: Second, d: sec(7), main: 0, period: sec(2), pliesLeft: 1},  // all of both
			{side: First, d: sec(2), main: 0, period: sec(2), pliesLeft: 1},
			{side: First, d: sec(2.001), out: true},
			{side: Second, d: sec(7.001), out: true},
		}},
		{"byo-yomi from the first ply", "0s+1s/move", []step{
			{side: First, d: sec(1), period: sec(1), pliesLeft: 1},
			{side: Second, d: 0, period: sec(1), pliesLeft: 1},
			{side: First, d: sec(1.001), out: true},
		}},
		{"canadian", "10s+6s/3", []step{
			{side: First, d: sec(8), main: sec(2), period: sec(6), pliesLeft: 3},
			{side: First, d: sec(3), main: 0, period: sec(5), pliesLeft: 2}, // the period starts within this ply
			{side: First, d: sec(2), main: 0, period: sec(3), pliesLeft: 1},
			{side: First, d: sec(2), main: 0, period: sec(6), pliesLeft: 3}, // three plies held: restart
			{side: First, d: sec(5), main: 0, period: sec(1), pliesLeft: 2},
			{side: First, d: sec(1), main: 0, period: 0, pliesLeft: 1},
			{side: First, d: 500 * time.Microsecond, main: 0, period: sec(6), pliesLeft: 3}, // free, and restarts
			{side: Second, d: sec(16), main: 0, period: 0, pliesLeft: 2},
			{side: Second, d: ms(1), out: true},
			{side: First, d: sec(6.001), out: true},
		}},
		{"increment", "10s+2s", []step{
			{side: First, d: sec(5), main: sec(7)},
			{side: First, d: sec(7), main: sec(2)},
			{side: Second, d: sec(10), main: sec(2)},
			{side: First, d: sec(2), main: sec(2)},
			{side: First, d: sec(2.001), out: true},
		}},
		{"increment and canadian", "2s+1s+3s/2", []step{
			{side: First, d: sec(1), main: sec(2), period: sec(3), pliesLeft: 2},
			{side: First, d: sec(4), main: sec(1), period: sec(1), pliesLeft: 1}, // 2 s main, 2 s period, then +1 s
			{side: First, d: sec(1.5), main: sec(1), period: sec(3), pliesLeft: 2},
			{side: First, d: sec(4.001), out: true},
		}},
		{"per-move cap", "3s/move", []step{
			{side: First, d: sec(3)},
			{side: Second, d: sec(3) + 999999}, // 3.000999999 s is charged 3 s
			{side: First, d: 10 * time.Millisecond},
			{side: First, d: sec(3.001), out: true},
		}},
		{"main time and a cap", "10s 4s/move", []step{
			{side: First, d: sec(4), main: sec(6)},
			{side: First, d: sec(4), main: sec(2)},
			{side: Second, d: sec(4.5), out: true, main: sec(6)}, // the cap: charged 4 s
			{side: First, d: sec(2.5), out: true, main: 0},       // the game clock
		}},
		{"whole seconds, the Java server", "3s+2s/move whole-seconds", []step{
			{side: First, d: sec(0.9), main: sec(3), period: sec(2), pliesLeft: 1}, // under 1 s: free
			{side: First, d: sec(2.5), main: sec(1), period: sec(2), pliesLeft: 1},
			{side: First, d: sec(3.7), main: 0, period: sec(2), pliesLeft: 1}, // 3 s: 1 main + 2 period
			{side: First, d: sec(2.999), main: 0, period: sec(2), pliesLeft: 1},
			{side: Second, d: sec(5.999), main: 0, period: sec(2), pliesLeft: 1},
			{side: Second, d: sec(3), out: true},
			{side: First, d: sec(3), out: true},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := mustParse(t, tt.control)
			var f fakeClock
			k := NewClock(c, f.now)
			for i, s := range tt.steps {
				must(t, k.Start(s.side))
				start := f.since0()
				dl, limited := k.Deadline()
				f.advance(s.d)
				got, err := k.Stop()
				if got != s.d {
					t.Errorf("ply %d: elapsed %v, want %v", i, got, s.d)
				}
				if (err != nil) != s.out {
					t.Fatalf("ply %d (%v, %v): err = %v, want out %v", i, s.side, s.d, err, s.out)
				}
				if limited && (f.now().Compare(dl) >= 0) != s.out {
					t.Errorf("ply %d: ended %v after the start, deadline %v after: out %v", i, s.d, dl.Sub(epoch().Add(start)), s.out)
				}
				snap := k.Snapshot()
				p := snap.Players[s.side]
				if s.out {
					var tu *TimeUpError
					if !errors.Is(err, ErrTimeUp) || !errors.As(err, &tu) {
						t.Fatalf("ply %d: err = %v, want a *TimeUpError wrapping ErrTimeUp", i, err)
					}
					if tu.Side != s.side || tu.Elapsed != s.d || !tu.At.Equal(dl) || !limited {
						t.Errorf("ply %d: %+v, want side %v, elapsed %v, at %v", i, tu, s.side, s.d, dl)
					}
					if !p.Out || !p.OutAt.Equal(dl) || p.Left != 0 {
						t.Errorf("ply %d: snapshot %+v, want out at %v", i, p, dl)
					}
					if err := k.Start(s.side); !errors.Is(err, ErrTimeUp) {
						t.Errorf("ply %d: Start after out: %v, want ErrTimeUp", i, err)
					}
					if p.Main != s.main || p.Period != 0 && !tu.Cap {
						t.Errorf("ply %d: main %v period %v, want %v and 0", i, p.Main, p.Period, s.main)
					}
					continue
				}
				if p.Out || p.Main != s.main || p.Period != s.period || p.PliesLeft != s.pliesLeft {
					t.Errorf("ply %d (%v, %v): main %v, period %v, plies left %v, out %v; want %v, %v, %v",
						i, s.side, s.d, p.Main, p.Period, p.PliesLeft, p.Out, s.main, s.period, s.pliesLeft)
				}
				checkInvariants(t, c, snap)
			}
		})
	}
}

// checkInvariants checks what every snapshot must satisfy.
func checkInvariants(t *testing.T, c Control, s Snapshot) {
	t.Helper()
	for i, p := range s.Players {
		if p.Main < 0 || p.Period < 0 || p.Left < 0 || p.Used < 0 || p.Lapsed < 0 || p.Granted < 0 || p.PliesLeft < 0 {
			t.Errorf("%v player: negative value in %+v", Side(i), p)
		}
		if c.clocked() && p.Main+p.Period+p.Used+p.Lapsed != p.Granted {
			t.Errorf("%v player: main %v + period %v + used %v + lapsed %v != granted %v",
				Side(i), p.Main, p.Period, p.Used, p.Lapsed, p.Granted)
		}
		if p.Byoyomi != (c.Period > 0 && p.Main == 0) {
			t.Errorf("%v player: byo-yomi %v with main %v", Side(i), p.Byoyomi, p.Main)
		}
	}
}

func TestDeadline(t *testing.T) {
	tests := []struct {
		control string
		before  time.Duration // time the first player used before
		want    time.Duration // deadline after the start of the next ply; 0 = none
	}{
		{"none", 0, 0},
		{"900s", 0, sec(900) + ms(1)},
		{"900s", sec(899.5), sec(0.5) + ms(1)},
		{"900s whole-seconds", sec(899.5), sec(2)}, // 899 s charged, 1 s left, plus the extra second
		{"600s+10s/move", 0, sec(610) + ms(1)},
		{"600s+10s/move whole-seconds", 0, sec(611)},
		{"3s+2s/move whole-seconds", 0, sec(6)}, // the Java server's ≈6 s
		{"5s/move", sec(4), sec(5) + ms(1)},
		{"900s 30s/move", sec(880), sec(20) + ms(1)},
		{"900s 30s/move", sec(10), sec(30) + ms(1)},
		{"0.5s/move whole-seconds", 0, sec(1)},
		{"1.5s/move whole-seconds", 0, sec(2)},
	}
	for _, tt := range tests {
		var f fakeClock
		k := NewClock(mustParse(t, tt.control), f.now)
		for left := tt.before; left > 0; left -= min(left, sec(20)) {
			must(t, k.Start(First))
			f.advance(min(left, sec(20)))
			_, err := k.Stop()
			must(t, err)
		}
		if _, ok := k.Deadline(); ok {
			t.Errorf("%s: a deadline with no ply in progress", tt.control)
		}
		must(t, k.Start(First))
		dl, ok := k.Deadline()
		if ok != (tt.want != 0) || ok && dl.Sub(f.now()) != tt.want {
			t.Errorf("%s after %v: deadline %v, %v; want %v after the start", tt.control, tt.before, dl.Sub(f.now()), ok, tt.want)
		}
		if s := k.Snapshot(); !s.Deadline.Equal(dl) {
			t.Errorf("%s: snapshot deadline %v, want %v", tt.control, s.Deadline, dl)
		}
	}
}

func TestClockErrors(t *testing.T) {
	var f fakeClock
	k := NewClock(mustParse(t, "10s"), f.now)
	if _, err := k.Stop(); !errors.Is(err, ErrNoPly) {
		t.Errorf("Stop with no ply: %v, want ErrNoPly", err)
	}
	var fe *FieldError
	if err := k.Start(2); !errors.As(err, &fe) || fe.Field != "side" || fe.Value != "2" {
		t.Errorf("Start(2): %v, want a FieldError naming side 2", err)
	}
	must(t, k.Start(First))
	if err := k.Start(Second); !errors.Is(err, ErrPlyInProgress) {
		t.Errorf("Start during a ply: %v, want ErrPlyInProgress", err)
	}
	if s, ok := k.Running(); !ok || s != First {
		t.Errorf("Running = %v, %v; want first, true", s, ok)
	}
	f.advance(sec(11))
	if _, err := k.Stop(); !errors.Is(err, ErrTimeUp) {
		t.Fatalf("Stop after 11 s: %v, want ErrTimeUp", err)
	}
	if _, ok := k.Running(); ok {
		t.Error("a ply still running after Stop")
	}
	for range 3 {
		err := k.Start(First)
		var tu *TimeUpError
		if !errors.As(err, &tu) || tu.Side != First || tu.Ply != 1 || !tu.At.Equal(epoch().Add(sec(10)+ms(1))) {
			t.Errorf("Start of a flagged side: %v", err)
		}
	}
	// The opponent plays on.
	must(t, k.Start(Second))
	f.advance(sec(1))
	if _, err := k.Stop(); err != nil {
		t.Errorf("the opponent's ply: %v", err)
	}
	s := k.Snapshot()
	if side, at, ok := s.OutOfTime(); !ok || side != First || !at.Equal(epoch().Add(sec(10)+ms(1))) {
		t.Errorf("OutOfTime = %v, %v, %v", side, at, ok)
	}
	if s.Players[First].Main != 0 || s.Players[First].Used != sec(10) || s.Players[First].Plies != 0 {
		t.Errorf("flagged player %+v, want main 0, used 10 s, no plies", s.Players[First])
	}

	// An invalid control: the clock refuses to start, but reads fine.
	bad := NewClock(Control{Main: -1}, f.now)
	if err := bad.Start(First); !errors.As(err, &fe) || fe.Field != "Main" {
		t.Errorf("Start with a negative Main: %v", err)
	}
	if p := bad.Snapshot().Players[0]; p.Main != 0 {
		t.Errorf("negative Main reported as %v", p.Main)
	}
}

func TestTimeUpErrorText(t *testing.T) {
	e := &TimeUpError{Side: Second, Ply: 12, Elapsed: sec(10.5), Allowance: sec(10)}
	if got, want := e.Error(), "timer: second player out of time on its ply 12: took 10.5s, allowed 10s"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	e.Cap = true
	if got, want := e.Error(), "timer: second player out of time on its ply 12: took 10.5s, per-move cap 10s"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestSide(t *testing.T) {
	if First.String() != "first" || Second.String() != "second" || Side(7).String() != "Side(7)" {
		t.Error("Side.String")
	}
	if First.Opponent() != Second || Second.Opponent() != First {
		t.Error("Side.Opponent")
	}
}

func TestZeroClock(t *testing.T) {
	var k Clock
	must(t, k.Start(Second))
	if _, ok := k.Deadline(); ok {
		t.Error("the zero clock has a deadline")
	}
	if _, err := k.Stop(); err != nil {
		t.Error(err)
	}
	if s := k.Snapshot(); s.Players[Second].Plies != 1 || s.Players[Second].Left != 0 {
		t.Errorf("%+v", s.Players[Second])
	}
}

// A time source that goes backwards gives zero elapsed time, never negative.
func TestBackwardsTime(t *testing.T) {
	var f fakeClock
	f.set(sec(100))
	k := NewClock(mustParse(t, "10s"), f.now)
	must(t, k.Start(First))
	f.set(sec(50))
	if s := k.Snapshot(); s.Elapsed != 0 || s.Players[0].Main != sec(10) || s.Players[0].Left != sec(10) {
		t.Errorf("snapshot while time went back: %+v", s)
	}
	d, err := k.Stop()
	if d != 0 || err != nil {
		t.Errorf("Stop = %v, %v; want 0, nil", d, err)
	}
}

// The snapshot counts the ply in progress, and shows a player whose
// deadline passed as out before Stop is called.
func TestSnapshotLive(t *testing.T) {
	var f fakeClock
	k := NewClock(mustParse(t, "10s+5s/2"), f.now)
	must(t, k.Start(First))
	f.advance(sec(12))
	s := k.Snapshot()
	p := s.Players[First]
	if !s.Running || s.Mover != First || s.Elapsed != sec(12) || !s.Start.Equal(epoch()) {
		t.Errorf("running state %+v", s)
	}
	if p.Main != 0 || !p.Byoyomi || p.Period != sec(3) || p.PliesLeft != 2 || p.Left != sec(3) || p.Used != sec(12) || p.Out {
		t.Errorf("live player %+v", p)
	}
	if q := s.Players[Second]; q.Main != sec(10) || q.Period != sec(5) || q.Left != sec(15) || q.Byoyomi {
		t.Errorf("waiting player %+v", q)
	}
	checkInvariants(t, k.Control(), s)
	f.advance(sec(3) + ms(1)) // past the deadline
	s = k.Snapshot()
	if p := s.Players[First]; !p.Out || !p.OutAt.Equal(epoch().Add(sec(15)+ms(1))) || p.Left != 0 || p.Used != sec(15) {
		t.Errorf("player past its deadline %+v", p)
	}
	checkInvariants(t, k.Control(), s)
	f.advance(time.Hour)
	if _, err := k.Stop(); !errors.Is(err, ErrTimeUp) {
		t.Errorf("Stop: %v", err)
	}
	if s2 := k.Snapshot(); s2.Players[First] != s.Players[First] {
		t.Errorf("after Stop %+v, before %+v", s2.Players[First], s.Players[First])
	}
}

// A viewer reads snapshots from another goroutine while the game runs
// (run with -race).
func TestSnapshotConcurrent(t *testing.T) {
	var f fakeClock
	k := NewClock(mustParse(t, "60s+1s"), f.now)
	done := make(chan struct{})
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for {
				select {
				case <-done:
					return
				default:
				}
				s := k.Snapshot()
				for _, p := range s.Players {
					if p.Main < 0 || p.Left < 0 || p.Main+p.Used != p.Granted {
						t.Errorf("inconsistent snapshot %+v", p)
						return
					}
				}
			}
		})
	}
	side := First
	for range 200 {
		must(t, k.Start(side))
		f.advance(ms(150))
		if _, err := k.Stop(); err != nil {
			t.Fatal(err)
		}
		side = side.Opponent()
	}
	close(done)
	wg.Wait()
	if p := k.Snapshot().Players[First]; p.Plies != 100 || p.Main != sec(60+100-15) {
		t.Errorf("after 100 plies of 150 ms: %+v", p)
	}
}

func TestCharge(t *testing.T) {
	for _, tt := range []struct {
		ch   Charging
		d    time.Duration
		want time.Duration
	}{
		{Milliseconds, -5, 0},
		{Milliseconds, 999999, 0},
		{Milliseconds, sec(1.2345), ms(1234)},
		{WholeSeconds, sec(0.999), 0},
		{WholeSeconds, sec(10.999), sec(10)},
		{WholeSeconds, sec(11), sec(11)},
		{Charging(9), sec(1.2345), ms(1234)},
	} {
		if got := tt.ch.Charge(tt.d); got != tt.want {
			t.Errorf("%v.Charge(%v) = %v, want %v", tt.ch, tt.d, got, tt.want)
		}
	}
	if Milliseconds.String() != "milliseconds" || WholeSeconds.String() != "whole-seconds" || Charging(9).String() != "Charging(9)" {
		t.Error("Charging.String")
	}
}

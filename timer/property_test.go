package timer

import (
	"errors"
	"math"
	"testing"
	"time"

	"pgregory.net/rapid"
)

// refPlayer is a reference model of one player's clock, written apart from
// the package's: it counts time spent rather than time left.
type refPlayer struct {
	c           Control
	mainSpent   time.Duration // main time spent
	incs        time.Duration // increments earned
	periodSpent time.Duration // time spent in the current period
	periodPlies int           // plies played in the current period
	periods     int           // periods opened (the first included)
	lapsed      time.Duration
	used        time.Duration
	plies       int
	out         bool
}

func newRef(c Control) refPlayer {
	r := refPlayer{c: c}
	if c.Period > 0 {
		r.periods = 1
	}
	return r
}

func (r *refPlayer) mainLeft() time.Duration { return r.c.Main + r.incs - r.mainSpent }
func (r *refPlayer) periodLeft() time.Duration {
	if r.c.Period == 0 {
		return 0
	}
	return r.c.Period - r.periodSpent
}

func (r *refPlayer) granted() time.Duration {
	return r.c.Main + r.incs + time.Duration(r.periods)*r.c.Period
}

// allowance returns what the next ply may be charged; limited is false
// when nothing limits it.
func (r *refPlayer) allowance() (a time.Duration, limited bool) {
	a = math.MaxInt64
	if r.c.Main > 0 || r.c.Period > 0 {
		a, limited = r.mainLeft()+r.periodLeft(), true
	}
	if r.c.MoveCap > 0 && r.c.MoveCap < a {
		a, limited = r.c.MoveCap, true
	}
	return a, limited
}

// play charges a ply that took d and reports whether it broke the allowance.
func (r *refPlayer) play(d time.Duration) (over bool) {
	g := time.Millisecond
	if r.c.Charging == WholeSeconds {
		g = time.Second
	}
	charge := d / g * g
	a, limited := r.allowance()
	if limited && charge > a {
		charge, over = a, true
	}
	before := r.mainLeft()
	if r.c.Main > 0 || r.c.Period > 0 {
		fromMain := min(charge, before)
		r.mainSpent += fromMain
		r.periodSpent += charge - fromMain
	}
	r.used += charge
	if over {
		r.out = true
		return true
	}
	r.plies++
	if r.c.Period > 0 && (before == 0 || charge > before) {
		r.periodPlies++
		if r.periodPlies == r.c.plies() {
			r.lapsed += r.periodLeft()
			r.periodSpent, r.periodPlies = 0, 0
			r.periods++
		}
	}
	r.incs += r.c.Increment
	return false
}

// genDuration draws 0 or a duration up to max, in whole seconds, whole
// milliseconds or nanoseconds.
func genDuration(max time.Duration) *rapid.Generator[time.Duration] {
	return rapid.Custom(func(t *rapid.T) time.Duration {
		switch rapid.IntRange(0, 3).Draw(t, "kind") {
		case 0:
			return 0
		case 1:
			return time.Duration(rapid.Int64Range(1, int64(max/time.Second)).Draw(t, "s")) * time.Second
		case 2:
			return time.Duration(rapid.Int64Range(1, int64(max/time.Millisecond)).Draw(t, "ms")) * time.Millisecond
		}
		return time.Duration(rapid.Int64Range(1, int64(max)).Draw(t, "ns"))
	})
}

func genControl() *rapid.Generator[Control] {
	return rapid.Custom(func(t *rapid.T) Control {
		c := Control{
			Main:      genDuration(60*time.Second).Draw(t, "main"),
			Increment: genDuration(5*time.Second).Draw(t, "increment"),
			Period:    genDuration(10*time.Second).Draw(t, "period"),
			MoveCap:   genDuration(20*time.Second).Draw(t, "cap"),
			Charging:  rapid.SampledFrom([]Charging{Milliseconds, WholeSeconds}).Draw(t, "charging"),
		}
		if c.Period > 0 {
			c.PliesPerPeriod = rapid.IntRange(0, 4).Draw(t, "plies")
		}
		if c.Increment > 0 && c.Main == 0 && c.Period == 0 {
			c.Main = time.Second
		}
		return c
	})
}

// genPly draws a ply's duration, often right around the allowance a.
func genPly(t *rapid.T, a time.Duration, limited bool, g time.Duration) time.Duration {
	if !limited || rapid.Bool().Draw(t, "free") {
		return genDuration(30*time.Second).Draw(t, "ply")
	}
	deltas := []time.Duration{-g - 1, -g, -1, 0, 1, g - 1, g, g + 1, 2 * g}
	d := a.Truncate(g) + rapid.SampledFrom(deltas).Draw(t, "delta")
	return max(d, 0)
}

// For any control and any sequence of plies: the clock agrees with the
// reference model ply by ply; remaining time plus used time (plus lapsed
// byo-yomi time) equals what the control granted; the first ply whose
// charge exceeds its allowance is the one the clock flags, at its
// deadline; and a player out of time stays out.
func TestPropertyClock(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c := genControl().Draw(t, "control")
		if err := c.Validate(); err != nil {
			t.Fatal(err)
		}
		g := time.Millisecond
		if c.Charging == WholeSeconds {
			g = time.Second
		}
		var f fakeClock
		k := NewClock(c, f.now)
		ref := [2]refPlayer{newRef(c), newRef(c)}
		outAt := [2]time.Time{}
		n := rapid.IntRange(0, 30).Draw(t, "plies")
		for i := range n {
			side := Side(rapid.IntRange(0, 1).Draw(t, "side"))
			r := &ref[side]
			if r.out {
				if err := k.Start(side); !errors.Is(err, ErrTimeUp) {
					t.Fatalf("ply %d: Start of a flagged %v player: %v", i, side, err)
				}
				continue
			}
			a, limited := r.allowance()
			if err := k.Start(side); err != nil {
				t.Fatalf("ply %d: Start: %v", i, err)
			}
			start := f.now()
			dl, ok := k.Deadline()
			if ok != limited || ok && dl.Sub(start) != min(a.Truncate(g), math.MaxInt64-g)+g {
				t.Fatalf("ply %d: deadline %v after start (%v), allowance %v", i, dl.Sub(start), ok, a)
			}
			d := genPly(t, a, limited, g)
			f.advance(d)
			elapsed, err := k.Stop()
			over := r.play(d)
			if elapsed != d {
				t.Fatalf("ply %d: elapsed %v, want %v", i, elapsed, d)
			}
			if over != (err != nil) {
				t.Fatalf("ply %d: %v player took %v with allowance %v: err %v, want over %v", i, side, d, a, err, over)
			}
			if limited && over != !f.now().Before(dl) {
				t.Fatalf("ply %d: over %v, but ended %v after the deadline", i, over, f.now().Sub(dl))
			}
			if over {
				if !errors.Is(err, ErrTimeUp) {
					t.Fatalf("ply %d: %v does not wrap ErrTimeUp", i, err)
				}
				outAt[side] = dl
			}
			s := k.Snapshot()
			for j := range 2 {
				p, r := s.Players[j], &ref[j]
				if p.Out != r.out || p.Out && !p.OutAt.Equal(outAt[j]) {
					t.Fatalf("ply %d: %v player out %v at %v; want %v at %v", i, Side(j), p.Out, p.OutAt, r.out, outAt[j])
				}
				if p.Used != r.used || p.Plies != r.plies {
					t.Fatalf("ply %d: %v player used %v in %d plies, want %v in %d", i, Side(j), p.Used, p.Plies, r.used, r.plies)
				}
				if !c.clocked() {
					continue
				}
				if p.Main != r.mainLeft() || p.Period != r.periodLeft() || p.Lapsed != r.lapsed || p.Granted != r.granted() {
					t.Fatalf("ply %d: %v player %+v; want main %v period %v lapsed %v granted %v",
						i, Side(j), p, r.mainLeft(), r.periodLeft(), r.lapsed, r.granted())
				}
				if p.Main+p.Period+p.Used+p.Lapsed != p.Granted {
					t.Fatalf("ply %d: %v player: remaining %v + %v, used %v, lapsed %v; granted %v",
						i, Side(j), p.Main, p.Period, p.Used, p.Lapsed, p.Granted)
				}
				if p.Main < 0 || p.Period < 0 || p.Left < 0 {
					t.Fatalf("ply %d: negative time %+v", i, p)
				}
			}
		}
	})
}

// javaBudget is the Java Geister server's own arithmetic:
// with budget b and timeout t, a turn may last w = b + t seconds if b > 0,
// else t; the timer fires one tick after w, and an accepted move costs
// floor(elapsed) seconds, b going negative if need be.
type javaBudget struct{ b, t int64 }

func (j *javaBudget) move(e time.Duration) (timedOut bool) {
	w := j.t
	if j.b > 0 {
		w = j.b + j.t
	}
	if e >= time.Duration(w+1)*time.Second {
		return true
	}
	j.b -= int64(e / time.Second)
	return false
}

// With whole-second charging the clock reproduces the Java Geister
// server's arithmetic, its extra second included.
func TestPropertyJavaArithmetic(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		budget := rapid.IntRange(0, 20).Draw(t, "budget")
		timeout := rapid.IntRange(0, 5).Draw(t, "timeout")
		if budget == 0 && timeout == 0 {
			timeout = 1
		}
		c, err := JavaGeister(budget, timeout)
		if err != nil {
			t.Fatal(err)
		}
		c.Charging = WholeSeconds
		var f fakeClock
		k := NewClock(c, f.now)
		j := javaBudget{int64(budget), int64(timeout)}
		for i := range rapid.IntRange(1, 30).Draw(t, "plies") {
			e := time.Duration(rapid.Int64Range(0, 12000).Draw(t, "ms")) * time.Millisecond
			if err := k.Start(First); err != nil {
				t.Fatalf("ply %d: %v", i, err)
			}
			f.advance(e)
			_, err := k.Stop()
			javaOut := j.move(e)
			if (err != nil) != javaOut {
				t.Fatalf("ply %d of %v: clock %v, Java timed out %v", i, e, err, javaOut)
			}
			if javaOut {
				return
			}
			if got, want := k.Snapshot().Players[First].Main, time.Duration(max(j.b, 0))*time.Second; got != want {
				t.Fatalf("ply %d: main %v, Java budget %v", i, got, want)
			}
		}
	})
}

// TestNewClockFrom checks that a clock made from another's snapshot goes
// on as the other does: after any plies, both show the same state, and
// the same plies after that leave them in the same state again (a game
// played again from a ply, as a take-back does).
func TestNewClockFrom(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c := genControl().Draw(t, "control")
		now := time.Unix(1000, 0)
		clock := func() time.Time { return now }
		a := NewClock(c, clock)
		play := func(k *Clock, side Side, d time.Duration) {
			if k.Start(side) != nil {
				return
			}
			now = now.Add(d)
			k.Stop()
		}
		n := rapid.IntRange(0, 12).Draw(t, "plies before")
		for i := range n {
			play(a, Side(i%2), genDuration(15*time.Second).Draw(t, "before"))
		}
		s := a.Snapshot()
		b := NewClockFrom(c, s.Players, clock)
		if got := b.Snapshot(); got.Players != s.Players {
			t.Fatalf("resumed clock:\n%+v\nwant\n%+v", got.Players, s.Players)
		}
		for i := range rapid.IntRange(0, 12).Draw(t, "plies after") {
			d := genDuration(15*time.Second).Draw(t, "after")
			side := Side((n + i) % 2)
			at := now
			play(a, side, d)
			now = at
			play(b, side, d)
			if sa, sb := a.Snapshot(), b.Snapshot(); sa.Players != sb.Players {
				t.Fatalf("after ply %d: resumed clock\n%+v\nthe original\n%+v", i+1, sb.Players, sa.Players)
			}
		}
	})
}

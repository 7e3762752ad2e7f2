package timer

import (
	"math"
	"testing"
	"time"

	"pgregory.net/rapid"
)

// The longest games of the platforms, in plies of one side.
var longestGames = []struct {
	game  string
	plies int
}{
	{"othello", 60},
	{"geister", 150},
	{"darkchess", 500}, // the no-progress limit keeps games long
	{"pdd", 67},
}

// genManagedControl draws a control of every kind with enough time for
// plies moves of one side, each answer's latency at most lat: lat for every
// move under sudden death, for every ply of a period under byo-yomi, and a
// cap of at least lat.
func genManagedControl(plies int, lat time.Duration) *rapid.Generator[Control] {
	return rapid.Custom(func(t *rapid.T) Control {
		msRange := func(lo, hi time.Duration, label string) time.Duration {
			return time.Duration(rapid.Int64Range(int64(lo/time.Millisecond), int64(hi/time.Millisecond)).Draw(t, label)) * time.Millisecond
		}
		need := time.Duration(plies) * lat
		main := func() time.Duration { return msRange(need, need*20+100*time.Second, "main") }
		var c Control
		switch kind := rapid.SampledFrom([]string{"sudden death", "increment", "byo-yomi", "canadian", "cap", "clock and cap"}).Draw(t, "kind"); kind {
		case "sudden death":
			c.Main = main()
		case "increment":
			c.Main = main()
			c.Increment = msRange(time.Millisecond, 5*time.Second, "increment")
		case "byo-yomi", "canadian":
			c.Main = msRange(0, 600*time.Second, "main")
			c.PliesPerPeriod = 1
			if kind == "canadian" {
				c.PliesPerPeriod = rapid.IntRange(2, 10).Draw(t, "plies per period")
			}
			c.Period = msRange(time.Duration(c.PliesPerPeriod)*lat, 60*time.Second, "period")
		case "cap":
			c.MoveCap = msRange(lat, 20*time.Second, "cap")
		case "clock and cap":
			c.Main = main()
			c.MoveCap = msRange(lat, 20*time.Second, "cap")
		}
		c.Charging = rapid.SampledFrom([]Charging{Milliseconds, WholeSeconds}).Draw(t, "charging")
		return c
	})
}

// A game of any length up to the platform's longest, under any control
// with enough time for that length's latency, played on a real Clock by a
// bot that asks its Manager for every ply, thinks up to its Hard (all of
// it, its Soft, or anything less) and answers with an overhead within the
// Manager's latency margin: the bot never runs out of time, no ply's Hard
// and margin pass what the clock and the deadline allow it, and the hard
// limits spent in full never sum past the time the control granted. The
// bot is told its clock, or keeps it itself (the platform telling
// nothing).
func TestPropertyManagerKeepsTime(t *testing.T) {
	for _, g := range longestGames {
		t.Run(g.game, func(t *testing.T) { managerKeepsTime(t, g.plies) })
	}
}

func managerKeepsTime(tt *testing.T, plies int) {
	rapid.Check(tt, func(t *rapid.T) {
		g := struct{ plies int }{plies}
		m := Manager{
			MaxMoves:  g.plies,
			MovesToGo: rapid.SampledFrom([]int{0, 1, 10, 40, 1000}).Draw(t, "moves to go"),
			Latency:   time.Duration(rapid.SampledFrom([]int{0, 1, 20, 300}).Draw(t, "latency ms")) * time.Millisecond,
		}
		lat := m.Margin()
		c := genManagedControl(g.plies, lat).Draw(t, "control")
		if err := c.Validate(); err != nil {
			t.Fatal(err)
		}
		length := g.plies // the longest game, most often
		if rapid.IntRange(0, 3).Draw(t, "shorter") == 0 {
			length = rapid.IntRange(1, g.plies).Draw(t, "length")
		}
		told := rapid.Bool().Draw(t, "told")
		think := rapid.SampledFrom([]string{"hard", "soft", "any"}).Draw(t, "think")
		bot := Side(rapid.IntRange(0, 1).Draw(t, "bot"))

		var f fakeClock
		k := NewClock(c, f.now)
		var spent, overheads time.Duration
		for i := range length {
			if bot == Second || i > 0 { // the opponent answers at once
				if err := k.Start(bot.Opponent()); err != nil {
					t.Fatal(err)
				}
				if _, err := k.Stop(); err != nil {
					t.Fatal(err)
				}
			}
			if err := k.Start(bot); err != nil {
				t.Fatal(err)
			}
			snap := k.Snapshot()
			s := snap.Status(bot)
			if !told {
				s = Untold(c, snap.At)
			}
			b := m.Allot(s)
			if b.Soft < 0 || b.Soft > b.Hard || b.Margin < lat {
				t.Fatalf("ply %d: budget %+v", i, b)
			}
			if dl, ok := k.Deadline(); ok && b.Hard > 0 {
				if left := snap.Players[bot].Left; b.Hard+b.Margin > left {
					t.Fatalf("ply %d: hard %v + margin %v, but the clock allows %v", i, b.Hard, b.Margin, left)
				}
				if !b.HardAt().Add(b.Margin).Before(dl) {
					t.Fatalf("ply %d: hard limit %v + margin %v reaches the deadline, %v after the start", i, b.Hard, b.Margin, dl.Sub(snap.At))
				}
			}
			var d time.Duration
			switch think {
			case "hard":
				d = b.Hard.Truncate(time.Millisecond)
			case "soft":
				d = b.Soft
			default:
				d = time.Duration(rapid.Int64Range(0, int64(b.Hard)).Draw(t, "thought"))
			}
			over := time.Duration(rapid.Int64Range(0, int64(lat/time.Millisecond)).Draw(t, "overhead ms")) * time.Millisecond
			mine := time.Duration(rapid.Int64Range(0, int64(over)).Draw(t, "own overhead"))
			f.advance(d + over)
			if _, err := k.Stop(); err != nil {
				t.Fatalf("ply %d of %d under %v, budget %+v, %v thinking and %v overhead: %v", i, length, c, b, d, over, err)
			}
			var charged time.Duration
			if told {
				charged = c.Charging.Charge(d + over)
			}
			m.Observe(d+mine, charged)
			spent += d
			overheads += over
		}
		p := k.Snapshot().Players[bot]
		if think == "hard" && c.Charging == Milliseconds && c.clocked() && spent+overheads > p.Granted {
			t.Fatalf("hard limits %v and overheads %v sum past the %v granted", spent, overheads, p.Granted)
		}
	})
}

// genStatus draws any Status at all, negative and huge numbers included.
func genStatus(t *rapid.T) Status {
	d := func(label string) time.Duration {
		return rapid.SampledFrom([]time.Duration{0, -1, -time.Hour, time.Millisecond, time.Second, time.Hour, math.MaxInt64, math.MinInt64}).Draw(t, label)
	}
	r := func(label string) Remaining {
		return Remaining{
			Told: rapid.Bool().Draw(t, label+" told"), Main: d(label + " main"), Byoyomi: rapid.Bool().Draw(t, label+" byo-yomi"),
			Period: d(label + " period"), PliesLeft: rapid.IntRange(-2, 12).Draw(t, label+" plies left"),
		}
	}
	s := Status{
		Control: Control{
			Main: d("main"), Increment: d("increment"), Period: d("period"), PliesPerPeriod: rapid.IntRange(-2, 12).Draw(t, "plies"),
			MoveCap: d("cap"), Charging: Charging(rapid.IntRange(0, 3).Draw(t, "charging")),
		},
		ControlTold: rapid.Bool().Draw(t, "control told"),
		Own:         r("own"), Opponent: r("opponent"),
		Played: rapid.IntRange(-3, 1000).Draw(t, "played"),
		Start:  epoch(),
	}
	if rapid.Bool().Draw(t, "deadline") {
		s.Deadline = s.Start.Add(d("deadline"))
	}
	return s
}

// Whatever the Status and the measurements, a budget is never negative,
// Soft is at most Hard, and Hard and the margin fit within the deadline
// and the per-move cap.
func TestPropertyAllotAnyStatus(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		m := Manager{
			MovesToGo: rapid.IntRange(-1, 100).Draw(t, "moves to go"),
			MaxMoves:  rapid.IntRange(-1, 100).Draw(t, "max moves"),
			Latency:   time.Duration(rapid.Int64Range(-1, int64(3*time.Second)).Draw(t, "latency")),
		}
		for i := range rapid.IntRange(1, 5).Draw(t, "plies") {
			s := genStatus(t)
			b := m.Allot(s)
			if b.Soft < 0 || b.Soft > b.Hard || b.Margin < 0 || b.Margin > MaxLatency {
				t.Fatalf("ply %d: budget %+v", i, b)
			}
			if !s.Deadline.IsZero() && b.Hard > 0 && b.Hard+b.Margin > s.Deadline.Sub(s.Start) {
				t.Fatalf("ply %d: hard %v + margin %v past the deadline %v away", i, b.Hard, b.Margin, s.Deadline.Sub(s.Start))
			}
			if s.Control.MoveCap > 0 && b.Hard > 0 && b.Hard+b.Margin > s.Control.MoveCap {
				t.Fatalf("ply %d: hard %v + margin %v past the cap %v", i, b.Hard, b.Margin, s.Control.MoveCap)
			}
			m.Observe(time.Duration(rapid.Int64().Draw(t, "took")), time.Duration(rapid.Int64().Draw(t, "charged")))
		}
	})
}

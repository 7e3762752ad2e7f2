package timer

import (
	"context"
	"math"
	"testing"
	"time"
)

// Each kind of control gives the numbers the policy documented on Manager
// says, with the default latency margin of 50 ms: Hard keeps 1/16 of itself
// back, Soft is at most Hard.
func TestAllotNumbers(t *testing.T) {
	t0 := epoch()
	told := func(main time.Duration) Remaining { return Remaining{Told: true, Main: main} }
	byo := func(period time.Duration, plies int) Remaining {
		return Remaining{Told: true, Byoyomi: true, Period: period, PliesLeft: plies}
	}
	slack := func(d time.Duration) time.Duration { return d - d/16 }
	for _, tt := range []struct {
		name       string
		m          Manager
		s          Status
		soft, hard time.Duration
		limited    bool
	}{
		{
			// u = 900 s − 30 × 50 ms = 898.5 s; Soft u/30; Hard 4 × Soft.
			name: "sudden death", s: Status{Control: mustParse(t, "900s"), Own: told(900 * time.Second), Start: t0},
			soft: ms(29950), hard: slack(ms(119800)), limited: true,
		},
		{
			// u = 60.05 s − 50 ms (each later move's latency is covered by
			// the increment) = 60 s; Soft 60/30 + 3/4 × 2 s.
			name: "increment", s: Status{Control: mustParse(t, "60s+2s"), Own: told(ms(60050)), Start: t0},
			soft: ms(3500), hard: slack(ms(14000)), limited: true,
		},
		{
			// in byo-yomi: the whole period less the margin.
			name: "byo-yomi", s: Status{Control: mustParse(t, "600s+10s/move"), Own: byo(10*time.Second, 1), Start: t0},
			soft: slack(ms(9950)), hard: slack(ms(9950)), limited: true,
		},
		{
			// before byo-yomi: main's share (20 s, Hard 80 s) plus the
			// period's (9.95 s).
			name: "byo-yomi main time", s: Status{Control: mustParse(t, "600s+10s/move"), Own: told(600 * time.Second), Start: t0},
			soft: ms(29950), hard: slack(ms(89950)), limited: true,
		},
		{
			// Canadian, 2 plies left in 30 s: u = 30 s − 2 × 50 ms, Soft
			// u/2, and Hard no more than Soft with two plies to go.
			name: "canadian", s: Status{Control: mustParse(t, "600s+60s/5"), Own: byo(30*time.Second, 2), Start: t0},
			soft: slack(ms(14950)), hard: slack(ms(14950)), limited: true,
		},
		{
			name: "per-move cap", s: PerMoveStatus(5*time.Second, true, t0),
			soft: slack(ms(4950)), hard: slack(ms(4950)), limited: true,
		},
		{
			name: "cap and an earlier deadline", s: func() Status {
				s := PerMoveStatus(5*time.Second, true, t0)
				s.Deadline = t0.Add(3 * time.Second)
				return s
			}(),
			soft: slack(ms(2950)), hard: slack(ms(2950)), limited: true,
		},
		{
			// a deadline alone is shared as the game's whole time: the
			// sudden-death numbers, not the whole 900 s.
			name: "deadline alone", s: Status{Start: t0, Deadline: t0.Add(900 * time.Second)},
			soft: ms(29950), hard: slack(ms(119800)), limited: true,
		},
		{
			// the last of at most 30 moves gets all that is left.
			name: "last move", m: Manager{MaxMoves: 30},
			s:    Status{Control: mustParse(t, "60s"), Own: told(60 * time.Second), Played: 29, Start: t0},
			soft: slack(ms(59950)), hard: slack(ms(59950)), limited: true,
		},
		{
			// MovesToGo 10: u = 100 s − 10 × 50 ms; Soft u/10, Hard u/3.
			name: "moves to go", m: Manager{MovesToGo: 10},
			s:    Status{Control: mustParse(t, "100s"), Own: told(100 * time.Second), Start: t0},
			soft: ms(9950), hard: slack(ms(99500) / 3), limited: true,
		},
		{
			name: "nothing told", s: Status{Start: t0},
			soft: UnlimitedSoft, hard: UnlimitedHard,
		},
		{
			name: "no time left", s: Status{Control: mustParse(t, "900s"), Own: told(0), Start: t0},
			limited: true,
		},
		{
			// too little left for a minimum think: Soft is Hard.
			name: "minimum think", s: PerMoveStatus(ms(55), true, t0),
			soft: slack(ms(5)), hard: slack(ms(5)), limited: true,
		},
		{
			name: "minimum think with room", m: Manager{MovesToGo: 1000},
			s:    Status{Control: mustParse(t, "1000s"), Own: told(60 * time.Second), Start: t0},
			soft: MinThink, hard: slack(ms(40)), limited: true,
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			b := tt.m.Allot(tt.s)
			if b.Soft != tt.soft || b.Hard != tt.hard || b.Limited != tt.limited {
				t.Errorf("Allot = soft %v hard %v limited %v; want %v %v %v", b.Soft, b.Hard, b.Limited, tt.soft, tt.hard, tt.limited)
			}
			if b.Margin != DefaultLatency || !b.Start.Equal(t0) {
				t.Errorf("margin %v start %v; want %v %v", b.Margin, b.Start, DefaultLatency, t0)
			}
			if !b.SoftAt().Equal(t0.Add(b.Soft)) || !b.HardAt().Equal(t0.Add(b.Hard)) {
				t.Errorf("SoftAt %v HardAt %v", b.SoftAt(), b.HardAt())
			}
		})
	}
}

// The margin grows after slow answers, up to MaxLatency, and shrinks back
// to the starting margin after fast ones; a grown margin shrinks the hard
// limit by as much.
func TestManagerLearnsLatency(t *testing.T) {
	t0 := epoch()
	s := PerMoveStatus(5*time.Second, true, t0)
	var m Manager
	if got := m.Margin(); got != DefaultLatency {
		t.Fatalf("initial margin %v, want %v", got, DefaultLatency)
	}
	b := m.Allot(s)
	// the move took 300 ms past Hard, and the platform charged 100 ms more
	m.Observe(b.Hard+300*time.Millisecond, b.Hard+400*time.Millisecond)
	if got, want := m.Margin(), 600*time.Millisecond; got != want {
		t.Fatalf("margin after a 400 ms overhead %v, want %v", got, want)
	}
	b2 := m.Allot(s)
	if want := (5*time.Second - 600*time.Millisecond) * 15 / 16; b2.Hard != want || b2.Margin != 600*time.Millisecond {
		t.Fatalf("hard %v margin %v after the slow move; want %v", b2.Hard, b2.Margin, want)
	}
	// an answer well within Hard, charged as measured: no overhead
	m.Observe(time.Second, time.Second)
	if got, want := m.Margin(), 525*time.Millisecond; got != want {
		t.Fatalf("margin one fast move later %v, want %v", got, want)
	}
	// a huge overhead is bounded
	m.Allot(s)
	m.Observe(time.Hour, 2*time.Hour)
	if got := m.Margin(); got != MaxLatency {
		t.Fatalf("margin after an hour's overhead %v, want %v", got, MaxLatency)
	}
	if b := m.Allot(s); b.Hard != (5*time.Second-MaxLatency)*15/16 {
		t.Fatalf("hard %v with the largest margin", b.Hard)
	}
	for range 100 {
		m.Allot(s)
		m.Observe(time.Second, 0)
	}
	if got := m.Margin(); got != DefaultLatency {
		t.Fatalf("margin after 100 fast moves %v, want %v", got, DefaultLatency)
	}
	// a chosen starting margin is the floor
	m2 := Manager{Latency: 200 * time.Millisecond}
	if got := m2.Margin(); got != 200*time.Millisecond {
		t.Fatalf("margin %v, want 200ms", got)
	}
	if got := (&Manager{Latency: time.Hour}).Margin(); got != MaxLatency {
		t.Fatalf("margin with Latency 1h %v, want %v", got, MaxLatency)
	}
}

// A move that stopped at its soft target tells only the platform's part
// of the overhead, and a measurement with no allotment before it tells no
// overrun.
func TestObserveOverheadParts(t *testing.T) {
	var m Manager
	m.Allot(PerMoveStatus(10*time.Second, true, epoch()))
	m.Observe(2*time.Second, 2*time.Second+200*time.Millisecond)
	if got, want := m.Margin(), 300*time.Millisecond; got != want {
		t.Fatalf("margin %v, want %v", got, want)
	}
	var m2 Manager
	m2.Observe(time.Minute, 0)
	if got := m2.Margin(); got != DefaultLatency {
		t.Fatalf("margin after an unallotted ply %v, want %v", got, DefaultLatency)
	}
}

// Where the platform does not tell the bot's clock, the Manager keeps it
// from what it observed, charging the margin when the platform reports no
// charge.
func TestManagerKeepsUntoldClock(t *testing.T) {
	t0 := epoch()
	c := mustParse(t, "600s+10s/move")
	var m, ref Manager
	b := m.Allot(Untold(c, t0))
	want := ref.Allot(Status{Control: c, ControlTold: true, Own: Remaining{Told: true, Main: 600 * time.Second}, Start: t0})
	if b != want {
		t.Fatalf("first untold ply %+v, want %+v", b, want)
	}
	m.Observe(100*time.Second, 0)
	ref.Observe(100*time.Second, 0)
	b = m.Allot(Untold(c, t0))
	left := 600*time.Second - 100*time.Second - DefaultLatency
	want = ref.Allot(Status{Control: c, ControlTold: true, Own: Remaining{Told: true, Main: left}, Played: 1, Start: t0})
	if b != want {
		t.Fatalf("second untold ply %+v, want %+v (main %v left)", b, want, left)
	}
	// into byo-yomi: 2 s of the period spent, but it is whole again
	// after the ply (the overrun of Hard raised the margin)
	m.Observe(left+2*time.Second, 0)
	b = m.Allot(Untold(c, t0))
	if want := (10*time.Second - m.Margin()) * 15 / 16; b.Hard != want || m.Margin() != MaxLatency {
		t.Fatalf("untold ply in byo-yomi: hard %v, want %v", b.Hard, want)
	}
}

// Nothing a caller can pass makes Allot or Observe panic or give a
// negative or inverted budget.
func TestAllotOddInput(t *testing.T) {
	t0 := epoch()
	for _, s := range []Status{
		{},
		{Control: Control{Main: -time.Second, Increment: -1, Period: -5, PliesPerPeriod: -3, MoveCap: -1, Charging: 9}},
		{Control: Control{Period: time.Second, PliesPerPeriod: 5}, Own: Remaining{Told: true, Period: -time.Second, PliesLeft: -4}},
		{Control: Control{Period: time.Second, PliesPerPeriod: 5}, Own: Remaining{Told: true, Period: time.Hour, PliesLeft: 99}},
		{Control: Control{Main: math.MaxInt64, Increment: math.MaxInt64}, Own: Remaining{Told: true, Main: math.MaxInt64}},
		{Control: Control{Main: math.MaxInt64, Period: math.MaxInt64, MoveCap: math.MaxInt64}, Own: Remaining{Told: true, Main: math.MaxInt64, Period: math.MaxInt64}},
		{Control: Control{Main: time.Second}, Played: -5, Start: t0, Deadline: t0.Add(-time.Hour)},
		{Control: Control{Main: time.Second}, Deadline: t0},
		{Control: Control{Main: time.Second}, Start: time.Unix(math.MaxInt64/4, 0), Deadline: t0},
	} {
		for _, m := range []Manager{{}, {MovesToGo: -1, MaxMoves: -1, Latency: -1}, {MovesToGo: math.MaxInt, MaxMoves: math.MaxInt}, {MaxMoves: 1}} {
			b := m.Allot(s)
			if b.Soft < 0 || b.Hard < 0 || b.Soft > b.Hard || b.Margin < 0 {
				t.Errorf("Allot(%+v) with %+v = %+v", s, m, b)
			}
			m.Observe(-time.Second, math.MaxInt64)
			m.Observe(math.MaxInt64, -1)
			if b := m.Allot(s); b.Soft < 0 || b.Hard < 0 || b.Soft > b.Hard {
				t.Errorf("Allot(%+v) after odd observations = %+v", s, b)
			}
		}
	}
}

func TestAllotAllocs(t *testing.T) {
	var m Manager
	s := Status{Control: mustParse(t, "600s+60s/5 30s/move"), Own: Remaining{Told: true, Main: time.Minute}, Start: epoch()}
	s.Deadline = s.Start.Add(time.Minute)
	u := Untold(mustParse(t, "600s+10s/move"), epoch())
	if n := testing.AllocsPerRun(100, func() {
		m.Allot(s)
		m.Observe(time.Second, 0)
		m.Allot(u)
		m.Observe(time.Second, 0)
	}); n != 0 {
		t.Fatalf("Allot and Observe allocate %v times", n)
	}
}

func TestBudgetWithHard(t *testing.T) {
	t0 := time.Now()
	b := Budget{Start: t0, Hard: time.Hour}
	ctx, cancel := b.WithHard(context.Background())
	defer cancel()
	if d, ok := ctx.Deadline(); !ok || !d.Equal(t0.Add(time.Hour)) {
		t.Fatalf("deadline %v %v, want %v", d, ok, t0.Add(time.Hour))
	}
	// a nil context, on purpose
	ctx2, cancel2 := b.WithHard(nil)
	defer cancel2()
	if _, ok := ctx2.Deadline(); !ok {
		t.Fatal("no deadline on a nil parent")
	}
}

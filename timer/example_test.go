package timer_test

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/botarena/botarena/timer"
)

func ExampleParse() {
	for _, s := range []string{
		"none",
		"900s",
		"600s+10s/move",
		"600s+60s/5",
		"900s+2s",
		"5s/move",
		"15m 30s/move whole-seconds",
	} {
		c, err := timer.Parse(s)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Printf("%-27s main %v, increment %v, period %v for %d plies, cap %v, %v → %v\n",
			s, c.Main, c.Increment, c.Period, c.PliesPerPeriod, c.MoveCap, c.Charging, c)
	}
	_, err := timer.Parse("900")
	fmt.Println(err)
	// Output:
	// none                        main 0s, increment 0s, period 0s for 0 plies, cap 0s, milliseconds → none
	// 900s                        main 15m0s, increment 0s, period 0s for 0 plies, cap 0s, milliseconds → 900s
	// 600s+10s/move               main 10m0s, increment 0s, period 10s for 1 plies, cap 0s, milliseconds → 600s+10s/move
	// 600s+60s/5                  main 10m0s, increment 0s, period 1m0s for 5 plies, cap 0s, milliseconds → 600s+60s/5
	// 900s+2s                     main 15m0s, increment 2s, period 0s for 0 plies, cap 0s, milliseconds → 900s+2s
	// 5s/move                     main 0s, increment 0s, period 0s for 0 plies, cap 5s, milliseconds → 5s/move
	// 15m 30s/move whole-seconds  main 15m0s, increment 0s, period 0s for 0 plies, cap 30s, whole-seconds → 900s 30s/move whole-seconds
	// timer: parse "900": Main "900" at offset 0: missing unit (h, m, s, ms, us or ns)
}

func ExampleControl_String() {
	c := timer.Control{Main: 10 * time.Minute, Period: time.Minute, PliesPerPeriod: 5}
	fmt.Println(c)
	c.MoveCap = 90 * time.Second
	c.Charging = timer.WholeSeconds
	fmt.Println(c)
	fmt.Println(timer.Control{})
	// Output:
	// 600s+60s/5
	// 600s+60s/5 90s/move whole-seconds
	// none
}

func ExampleJavaGeister() {
	c, err := timer.JavaGeister(timer.JavaGeisterBudget, timer.JavaGeisterTimeout)
	if err != nil {
		panic(err)
	}
	fmt.Println(c)
	c.Charging = timer.WholeSeconds // the Java server's own arithmetic
	fmt.Println(c)
	_, err = timer.JavaGeister(0, 0)
	fmt.Println(err)
	// Output:
	// 600s+10s/move
	// 600s+10s/move whole-seconds
	// timer: --timeout "0": with --budget=0 it leaves no time to think
}

func ExampleNTPU() {
	c, _ := timer.NTPU(timer.NTPUAbsolute, 900*time.Second, 0, 0) // the launcher's default
	fmt.Println(c)
	c, _ = timer.NTPU(timer.NTPUCustom, 600*time.Second, 60*time.Second, 5)
	fmt.Println(c)
	_, err := timer.NTPU(timer.NTPUAbsolute, 0, 0, 0)
	fmt.Println(err)
	// Output:
	// 900s
	// 600s+60s/5
	// timer: Time Limit "0s": Timer Mode Absolute needs a Time Limit
}

func ExampleDarkChess() {
	c, _ := timer.DarkChess(timer.DarkChessPerGame, 900)
	fmt.Println(c)
	c, _ = timer.DarkChess(timer.DarkChessPerPly, 10)
	fmt.Println(c)
	// Output:
	// 900s
	// 10s/move
}

// A game under 600 s + 10 s byo-yomi, driven by a fake time source.
func ExampleNewClock() {
	now := time.Date(2026, 11, 22, 21, 0, 0, 0, time.UTC)
	k := timer.NewClock(timer.Control{Main: 600 * time.Second, Period: 10 * time.Second}, func() time.Time { return now })

	play := func(side timer.Side, think time.Duration) {
		if err := k.Start(side); err != nil {
			fmt.Println(err)
			return
		}
		now = now.Add(think)
		if _, err := k.Stop(); err != nil {
			fmt.Println(err)
		}
	}
	play(timer.First, 595*time.Second)
	play(timer.Second, 30*time.Second)
	play(timer.First, 12*time.Second) // 5 s of main time, 7 s of the period
	for _, side := range []timer.Side{timer.First, timer.Second} {
		p := k.Snapshot().Players[side]
		fmt.Printf("%v: main %v, byo-yomi %v, period %v, used %v\n", side, p.Main, p.Byoyomi, p.Period, p.Used)
	}
	play(timer.First, 10*time.Second+time.Millisecond)
	play(timer.First, time.Second) // Start refuses: out for good
	if side, at, ok := k.Snapshot().OutOfTime(); ok {
		fmt.Printf("%v player out of time at %v\n", side, at.Format(time.TimeOnly))
	}
	// Output:
	// first: main 0s, byo-yomi true, period 10s, used 10m7s
	// second: main 9m30s, byo-yomi false, period 10s, used 30s
	// timer: first player out of time on its ply 3: took 10.001s, allowed 10s
	// timer: first player out of time on its ply 3: took 10.001s, allowed 10s
	// first player out of time at 21:10:47
}

// A host puts the ply's deadline on a context; a bot budgets its search
// from the same deadline.
func ExampleClock_Deadline() {
	// A fake time source keeps the example exact; a host passes nil (time.Now).
	now := time.Date(2026, 7, 22, 10, 0, 0, 0, time.UTC)
	k := timer.NewClock(timer.PerMove(10*time.Second), func() time.Time { return now })
	if err := k.Start(timer.First); err != nil {
		panic(err)
	}
	deadline, ok := k.Deadline()
	fmt.Println(ok, deadline.Sub(now)) // a host puts this on the ply's context.Context

	now = now.Add(3 * time.Second) // the bot answers after 3 s
	elapsed, err := k.Stop()
	fmt.Println(elapsed, err)

	_ = k.Start(timer.Second)
	now = now.Add(11 * time.Second) // the other bot thinks too long
	_, err = k.Stop()
	fmt.Println(errors.Is(err, timer.ErrTimeUp))
	// Output:
	// true 10.001s
	// 3s <nil>
	// true
}

func ExampleErrorTime() {
	server := 1250 * time.Millisecond // X: the ply as the server measured it
	client := 1122 * time.Millisecond // Y: the ply as the client measured it
	fmt.Println(timer.ErrorTime(server, client))
	// Output:
	// 64ms
}

// A player under MGTP's 900 s sudden death, told 900 s left for both
// sides: the deadline is the whole time left, the budget a share of it.
func ExampleManager() {
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	c, _ := timer.MGTP(900000)
	s := timer.TimeLeftStatus(c, 900*time.Second, 900*time.Second, start)
	var m timer.Manager
	b := m.Allot(s)
	fmt.Println("deadline in", s.Deadline.Sub(start))
	fmt.Println("soft", b.Soft, "hard", b.Hard, "margin", b.Margin)

	// the PDD platform's 5 s a move: the cap, less the margin
	b = m.Allot(timer.PerMoveStatus(5*time.Second, true, start))
	fmt.Println("soft", b.Soft, "hard", b.Hard)

	// Othello's server tells nothing; its usual -timeout is the default
	def, _ := timer.OthelloTimeout(10)
	b = m.Allot(timer.Untold(def, start))
	fmt.Println("soft", b.Soft, "hard", b.Hard)
	// Output:
	// deadline in 15m0.001s
	// soft 29.95s hard 1m52.3125s margin 50ms
	// soft 4.640625s hard 4.640625s
	// soft 9.328125s hard 9.328125s
}

// After each move the bot tells the Manager what it measured; a slow
// answer widens the margin every later limit keeps back.
func ExampleManager_Observe() {
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	s := timer.PerMoveStatus(10*time.Second, true, start)
	var m timer.Manager
	b := m.Allot(s)
	fmt.Println("hard", b.Hard, "margin", m.Margin())
	// the search overran its hard limit by 200 ms under load, and the
	// platform charged 100 ms more than the bot measured
	m.Observe(b.Hard+200*time.Millisecond, b.Hard+300*time.Millisecond)
	b = m.Allot(s)
	fmt.Println("hard", b.Hard, "margin", m.Margin())
	// Output:
	// hard 9.328125s margin 50ms
	// hard 8.953125s margin 450ms
}

// A protocol hands the player the Status on its context; the player reads
// it back, with the context's deadline if that is earlier.
func ExampleStatusFrom() {
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	c, _ := timer.JavaGeister(timer.JavaGeisterBudget, timer.JavaGeisterTimeout)
	ctx := timer.WithStatus(context.Background(), timer.Untold(c, start))

	play := func(ctx context.Context) {
		s, ok := timer.StatusFrom(ctx)
		fmt.Println(ok, s.Control, "told:", s.ControlTold, s.Own.Told)
	}
	play(ctx)
	_, ok := timer.StatusFrom(context.Background())
	fmt.Println(ok)
	// Output:
	// true 600s+10s/move told: false false
	// false
}

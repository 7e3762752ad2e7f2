package timer

import (
	"context"
	"math"
	"time"
)

// The time manager's numbers. See [Manager] for how they are used.
const (
	// DefaultMovesToGo is the number of its own moves a bot expects still
	// to play under a game clock when [Manager].MovesToGo is 0: the main
	// time left is shared among that many moves.
	DefaultMovesToGo = 30
	// DefaultLatency is the latency margin a [Manager] starts from when
	// its Latency is 0: the time kept back from every limit for the answer
	// to reach the platform. The margin it learns never goes below it.
	DefaultLatency = 50 * time.Millisecond
	// MaxLatency bounds the latency margin a [Manager] learns, whatever it
	// measured.
	MaxLatency = 2 * time.Second
	// MinThink is the least soft target a [Budget] gives when its hard
	// limit leaves room for it.
	MinThink = 10 * time.Millisecond
	// UnlimitedSoft and UnlimitedHard are the budget of a ply that nothing
	// limits: no time control and no deadline.
	UnlimitedSoft = time.Second
	UnlimitedHard = 5 * time.Second
)

// Policy constants that are not part of the API.
const (
	hardScale    = 4  // under a game clock, Hard is at most hardScale × Soft ...
	hardShare    = 3  // ... and at most 1/hardShare of the usable time, unless one move is left
	slackShare   = 16 // Hard keeps 1/slackShare of itself back, for overshoots that grow with the think time
	maxMovesToGo = 1 << 20
)

// Budget is the time a [Manager] gives one ply.
type Budget struct {
	// Soft is the target: a search should not start new work once Soft
	// has passed since Start.
	Soft time.Duration
	// Hard is the limit: a search must stop and answer once Hard has
	// passed since Start. 0 <= Soft <= Hard.
	Hard time.Duration
	// Margin is the latency margin kept back from every limit on top of
	// Hard.
	Margin time.Duration
	// Start is the instant Soft and Hard count from: the ply's
	// [Status].Start.
	Start time.Time
	// Limited is false when nothing limits the ply; Soft and Hard are
	// then [UnlimitedSoft] and [UnlimitedHard].
	Limited bool
}

// SoftAt returns Start plus Soft.
func (b Budget) SoftAt() time.Time { return b.Start.Add(b.Soft) }

// HardAt returns Start plus Hard.
func (b Budget) HardAt() time.Time { return b.Start.Add(b.Hard) }

// WithHard returns a copy of ctx whose deadline is b's hard limit (or
// ctx's own deadline when earlier), for a search that stops at its
// context's deadline. A nil ctx is read as context.Background().
func (b Budget) WithHard(ctx context.Context) (context.Context, context.CancelFunc) {
	if ctx == nil {
		ctx = context.Background()
	}
	return context.WithDeadline(ctx, b.HardAt())
}

// Manager shares a bot's time out among the plies of one game: from each
// ply's [Status] it gives a [Budget], a soft target and a hard limit, and
// from what the bot measured after each ply it learns the margin the
// answer's own latency needs. Use one Manager per game; it is not safe for
// concurrent use. The zero Manager is ready to use.
//
// How the time is shared, with m the latency margin (see [Manager.Margin]):
//
//   - Sudden death (main time M, no byo-yomi): the moves still to play,
//     n, are MovesToGo (default [DefaultMovesToGo]), at most what
//     MaxMoves leaves. m is kept back for each move left to play (for
//     every later one only what its increment does not cover), and of the
//     rest, u, Soft is u/n. Hard is 4×Soft but at most u/3, and never less
//     than Soft nor more than u: on the last move (n = 1) Hard is u.
//   - Increment: Soft also gets three quarters of the increment.
//   - Byo-yomi, period P holding k plies (k = 1 ordinary, more Canadian):
//     in byo-yomi, the period left is shared as sudden death among the
//     plies left in it; with k = 1 that is Soft = Hard = P − m. Before
//     byo-yomi the ply gets a share of the main time as above (without
//     keeping latency back, which the period covers) plus the period's
//     share.
//   - A per-move cap C: Hard and Soft are at most C − m. With no game
//     clock the unused time is lost, so Soft is Hard.
//   - A deadline in the Status: Hard is at most the deadline − m. With no
//     time control at all, a deadline alone may be the whole game's time,
//     so it is shared as sudden death.
//   - Nothing told and no deadline: [UnlimitedSoft] and [UnlimitedHard].
//
// Hard then keeps 1/16 of itself back for overshoots that grow with the
// think time, Soft is at most Hard, and Soft is at least [MinThink] when
// Hard allows it. Neither is ever negative.
//
// When the control has a game clock but the Status does not tell the
// bot's own clock, the Manager keeps that clock itself from what
// [Manager.Observe] reports, from the control's full time at its first
// ply, charging each ply the whole latency margin on top of its measured
// time when the platform does not report the charge. Its clock may then
// be out of step with the platform's byo-yomi periods, so it gives no ply
// more of a period than an even share: (P − k×m)/k.
type Manager struct {
	// MovesToGo is the number of its own moves the bot expects still to
	// play in a game under a game clock; 0 means [DefaultMovesToGo]. Set it
	// higher for games that run long (dark chess), lower for short ones.
	MovesToGo int
	// MaxMoves is the most own moves a game can last, when the game has a
	// maximum length (Othello: 30 placements a side, passes aside); 0
	// means unknown. With it the time is kept for every move that may
	// still come, so a game of that length never runs out of time as
	// long as each answer's latency stays within the margin.
	MaxMoves int
	// Latency is the latency margin to start from and the least it
	// learns; 0 means [DefaultLatency]. It is bounded by [MaxLatency].
	Latency time.Duration

	est      time.Duration // decayed maximum of the measured overheads
	observed int           // plies observed
	hard     time.Duration // Hard of the last Allot
	allotted bool          // an Allot since the last Observe
	tracking bool          // own clock kept from Observe
	margin   time.Duration // Margin of the last Allot
	ctl      Control       // the control of the kept clock
	own      player        // the kept clock
}

// Margin returns the latency margin the next [Manager.Allot] keeps back:
// Latency (or [DefaultLatency]), or more after slow answers, at most
// [MaxLatency].
func (m *Manager) Margin() time.Duration {
	base := m.Latency
	if base <= 0 {
		base = DefaultLatency
	}
	l := max(base, satAdd(m.est, m.est/2))
	return min(l, MaxLatency)
}

// movesToGo returns the number of moves the time is shared among, n, and
// the number of moves that may still come, r (n <= r).
func (m *Manager) movesToGo(played int) (n, r int) {
	n = m.MovesToGo
	if n <= 0 {
		n = DefaultMovesToGo
	}
	n = min(n, maxMovesToGo)
	r = n
	if m.MaxMoves > 0 {
		played = max(played, m.observed, 0)
		r = min(max(m.MaxMoves-played, 1), maxMovesToGo)
		n = min(n, r)
	}
	return n, r
}

// sanitize returns c with negative settings read as 0.
func sanitize(c Control) Control {
	c.Main, c.Increment = max(c.Main, 0), max(c.Increment, 0)
	c.Period, c.MoveCap = max(c.Period, 0), max(c.MoveCap, 0)
	if c.Period == 0 || c.PliesPerPeriod < 0 {
		c.PliesPerPeriod = 0
	}
	return c
}

// mulSat returns d×k, saturating, for d >= 0 and k >= 0.
func mulSat(d time.Duration, k int) time.Duration {
	if k != 0 && d > math.MaxInt64/time.Duration(k) {
		return math.MaxInt64
	}
	return d * time.Duration(k)
}

// hardOf returns the hard limit for a soft target soft out of usable time
// u shared among n moves.
func hardOf(soft, u time.Duration, n int) time.Duration {
	if n <= 1 {
		return u
	}
	h := max(min(mulSat(soft, hardScale), u/hardShare), soft)
	return min(h, u)
}

// share shares left among n moves, keeping first back for this move and
// each back for each of the r−1 later ones, with bonus added to the soft
// target.
func share(left, first, each, bonus time.Duration, n, r int) (soft, hard time.Duration) {
	u := left - satAdd(first, mulSat(each, r-1))
	if u <= 0 {
		return 0, 0
	}
	soft = satAdd(u/time.Duration(n), bonus)
	hard = hardOf(soft, u, n)
	return min(soft, hard), hard
}

// clockBudget returns the budget the game clock allows, own being the
// bot's clock under c (which has a Main or a Period).
func (m *Manager) clockBudget(c Control, own Remaining, played int, lat time.Duration) (soft, hard time.Duration) {
	n, r := m.movesToGo(played)
	main := max(own.Main, 0)
	bonus := c.Increment - c.Increment/4
	if c.Period == 0 {
		return share(main, lat, max(lat-c.Increment, 0), bonus, n, r)
	}
	k := c.plies()
	period, q := max(own.Period, 0), own.PliesLeft
	if period == 0 && q <= 0 {
		period = c.Period // not told: a whole period
	}
	if q < 1 || q > k {
		q = k
	}
	ps, ph := share(period, lat, lat, 0, q, q)
	if !own.Told {
		// The kept clock may be out of step with the platform's periods:
		// no ply takes more than an even share of a whole period, so
		// that any k plies in a row fit in one.
		ps = max(c.Period-mulSat(lat, k), 0) / time.Duration(k)
		ph = ps
	}
	if main == 0 {
		return ps, ph
	}
	// Before byo-yomi (or back in main time by an increment): a share of
	// the main time, plus the period's share for the ply, which the ply
	// may take when it runs past the main time. The period covers the
	// latency, or the main time what the period cannot.
	left := satAdd(main, period)
	main = max(min(main, left-lat), 0)
	ms := satAdd(main/time.Duration(n), bonus)
	mh := hardOf(ms, main, n)
	soft, hard = satAdd(min(ms, mh), ps), satAdd(mh, ph)
	return soft, min(hard, max(left, lat)-lat)
}

// Allot returns the budget of the ply s describes; see [Manager] for the
// policy. It never fails: a setting it cannot use (a negative duration)
// reads as 0, and a zero Start as the time of the call. The budget's Hard
// is at most what the clock and the deadline allow the ply, less the
// latency margin.
func (m *Manager) Allot(s Status) Budget {
	start := s.Start
	if start.IsZero() {
		start = time.Now()
	}
	c := sanitize(s.Control)
	lat := m.Margin()
	b := Budget{Start: start, Margin: lat, Soft: math.MaxInt64, Hard: math.MaxInt64}
	played := max(s.Played, 0)
	if c.clocked() {
		b.Limited = true
		own := s.Own
		if !own.Told {
			if !m.tracking || m.ctl != c {
				m.tracking, m.ctl, m.own = true, c, c.initial()
			}
			own = Remaining{Main: m.own.main, Period: m.own.period, PliesLeft: m.own.pliesLeft}
			played = max(played, m.own.plies)
		} else {
			m.tracking = false
		}
		b.Soft, b.Hard = m.clockBudget(c, own, played, lat)
	} else {
		m.tracking = false
	}
	if c.MoveCap > 0 {
		b.Limited = true
		room := max(c.MoveCap-lat, 0)
		b.Soft, b.Hard = min(b.Soft, room), min(b.Hard, room)
	}
	if !s.Deadline.IsZero() {
		room := s.Deadline.Sub(start)
		room = max(room, lat) - lat
		if !b.Limited {
			// A deadline alone may be all the time the game has left.
			n, r := m.movesToGo(played)
			b.Soft, b.Hard = share(room, 0, lat, 0, n, r)
		}
		b.Limited = true
		b.Hard = min(b.Hard, room)
	}
	if !b.Limited {
		b.Soft, b.Hard = UnlimitedSoft, UnlimitedHard
	} else {
		b.Hard = max(b.Hard-b.Hard/slackShare, 0)
		b.Soft = min(max(b.Soft, 0), b.Hard)
		b.Soft = max(b.Soft, min(MinThink, b.Hard))
	}
	m.hard, m.margin, m.allotted = b.Hard, lat, true
	return b
}

// Observe tells the Manager what the bot measured of the ply it last
// allotted, once the move is written: took, the time from the ply's
// [Status].Start to when the move was written, and charged, what the
// platform charged for the ply where it reports it (the drop in the bot's
// own time between two reports; 0 when unknown).
//
// The overhead of the ply is what it cost beyond its hard limit (took
// past Hard, when the bot overran it) plus what the platform charged
// beyond took. The Manager keeps the largest recent overhead, forgetting
// an eighth of it at every ply, and its latency margin (see
// [Manager.Margin]) is one and a half times that, at least Latency and at
// most [MaxLatency]. Negative durations read as 0.
func (m *Manager) Observe(took, charged time.Duration) {
	took, charged = max(took, 0), max(charged, 0)
	var over time.Duration
	if charged > took {
		over = charged - took
	}
	if m.allotted && took > m.hard {
		over = satAdd(over, took-m.hard)
	}
	over = min(over, MaxLatency)
	m.est = max(over, m.est-m.est/8)
	m.observed++
	m.allotted = false
	if m.tracking {
		c := m.ctl
		if charged == 0 {
			// Unreported: assume the ply cost its whole latency margin.
			charged = satAdd(took, m.margin)
		}
		d := c.Charging.Charge(max(took, charged))
		if a, limited, _ := c.allowance(m.own); limited && d > a {
			c.drain(&m.own, a)
			return
		}
		before := m.own.main
		c.drain(&m.own, d)
		c.finish(&m.own, d, before)
	}
}

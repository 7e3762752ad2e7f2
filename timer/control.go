package timer

import (
	"strconv"
	"time"
)

// Charging says how the elapsed time of a ply is rounded before it is
// charged to the player's clock.
type Charging uint8

const (
	// Milliseconds charges the elapsed time truncated to the millisecond.
	// It is the zero value and the default.
	Milliseconds Charging = iota
	// WholeSeconds charges the elapsed time truncated to the second, the
	// Java Geister server's budget -= floor(elapsed_s): a ply under one
	// second costs nothing, and every deadline gets the Java server's extra
	// second (see [Clock.Deadline]).
	WholeSeconds
)

// String returns "milliseconds" or "whole-seconds", and "Charging(n)" for
// an unknown value.
func (ch Charging) String() string {
	switch ch {
	case Milliseconds:
		return "milliseconds"
	case WholeSeconds:
		return "whole-seconds"
	}
	return "Charging(" + strconv.Itoa(int(ch)) + ")"
}

// unit is the granularity of the charging: 1 ms or 1 s. An unknown value
// charges like Milliseconds.
func (ch Charging) unit() time.Duration {
	if ch == WholeSeconds {
		return time.Second
	}
	return time.Millisecond
}

// Charge returns what a ply that took d costs under this charging: d
// truncated to the millisecond, or to the second for WholeSeconds. A
// negative d costs nothing. An unknown Charging charges like Milliseconds.
func (ch Charging) Charge(d time.Duration) time.Duration {
	if d <= 0 {
		return 0
	}
	return d.Truncate(ch.unit())
}

// Control is a time control: one value describes every platform's rule.
//
// The zero Control sets no limit at all. A Control is a plain value; build
// one with a literal, with [Parse], or with a platform constructor such as
// [NTPU] or [JavaGeister], and check a literal with [Control.Validate].
//
// How a ply is judged: its allowance is the main time left plus the time
// left in the current byo-yomi period (when there is a Period), capped by
// MoveCap (when there is one). The ply's elapsed time is charged (see
// [Charging]); the ply breaks the allowance when the charge is greater than
// the allowance, and the player is then out of time. Otherwise the charge
// is taken from main time first and from the period after. When the
// player is in byo-yomi (its main time was spent before the ply, or the
// ply needed more than was left), the ply counts towards the period: after
// PliesPerPeriod such plies the period starts again, full, and time left
// over in the old one lapses. Finally Increment is added to the main time.
type Control struct {
	// Main is the thinking time for the whole game; 0 means none.
	Main time.Duration
	// Increment is added to the main time after each ply played in time
	// (Fischer). It needs Main or Period.
	Increment time.Duration
	// Period is the byo-yomi period, which starts once Main is spent
	// (at once when Main is 0); 0 means no byo-yomi.
	Period time.Duration
	// PliesPerPeriod is the number of plies each Period must hold: 1 is
	// ordinary (Japanese) byo-yomi, more is Canadian byo-yomi. 0 is
	// treated as 1 when Period > 0; it must be 0 when Period is 0.
	PliesPerPeriod int
	// MoveCap is a hard limit on any single ply, whatever time is left;
	// 0 means none.
	MoveCap time.Duration
	// Charging says how each ply's elapsed time is rounded before it is
	// charged.
	Charging Charging
}

// PerMove returns the control with a cap of d on every ply and no game
// clock: the Othello server's -timeout, PDD's 5 s, dark chess's 單手制.
// A d that is not positive gives a Control that [Control.Validate]
// rejects (for d < 0) or one without limit (for d == 0).
func PerMove(d time.Duration) Control {
	return Control{MoveCap: d}
}

// Unlimited reports whether c sets no limit at all: no main time, no
// byo-yomi and no per-move cap.
func (c Control) Unlimited() bool {
	return c.Main == 0 && c.Period == 0 && c.MoveCap == 0
}

// clocked reports whether c has a game clock (main time or byo-yomi),
// as opposed to a per-move cap alone or no limit.
func (c Control) clocked() bool {
	return c.Main > 0 || c.Period > 0
}

// plies is PliesPerPeriod with 0 read as 1.
func (c Control) plies() int {
	if c.PliesPerPeriod < 1 {
		return 1
	}
	return c.PliesPerPeriod
}

// FieldError reports a setting that is out of range or contradicts
// another: the field (a [Control] field name, or the platform's own name
// for a setting), its value as written, and what is wrong.
type FieldError struct {
	Field string // "Main", "PliesPerPeriod", "--budget", "Timer Mode", ...
	Value string // the value, as text: "-5s", "7", "Absolute"
	Msg   string // what is wrong with it
}

// Error returns "timer: <field> <value>: <msg>".
func (e *FieldError) Error() string {
	return "timer: " + e.Field + " " + strconv.Quote(e.Value) + ": " + e.Msg
}

func fieldErr(field, value, msg string) *FieldError {
	return &FieldError{Field: field, Value: value, Msg: msg}
}

// Validate reports the first problem with c as a *[FieldError]: a negative
// duration or plies count, PliesPerPeriod without a Period, an Increment
// with neither Main nor Period to add it to, or an unknown Charging.
func (c Control) Validate() error {
	for _, f := range [...]struct {
		name string
		d    time.Duration
	}{
		{"Main", c.Main},
		{"Increment", c.Increment},
		{"Period", c.Period},
		{"MoveCap", c.MoveCap},
	} {
		if f.d < 0 {
			return fieldErr(f.name, formatDuration(f.d), "negative duration")
		}
	}
	if c.PliesPerPeriod < 0 {
		return fieldErr("PliesPerPeriod", strconv.Itoa(c.PliesPerPeriod), "negative number of plies")
	}
	if c.PliesPerPeriod > 0 && c.Period == 0 {
		return fieldErr("PliesPerPeriod", strconv.Itoa(c.PliesPerPeriod), "no Period to hold the plies")
	}
	if c.Increment > 0 && c.Main == 0 && c.Period == 0 {
		return fieldErr("Increment", formatDuration(c.Increment), "neither Main nor Period to add it to")
	}
	if c.Charging > WholeSeconds {
		return fieldErr("Charging", strconv.Itoa(int(c.Charging)), "unknown charging")
	}
	return nil
}

// String returns the canonical text form of c, which [Parse] reads back
// to the same Control (with PliesPerPeriod 0 read as 1 when there is a
// Period). The grammar is documented on [Parse]. Examples: "none",
// "900s", "600s+10s/move", "600s+60s/5", "900s+2s", "5s/move",
// "900s 30s/move", "600s+10s/move whole-seconds".
//
// String does not validate c: a negative duration is written with a minus
// sign and an unknown Charging as "Charging(n)", neither of which Parse
// accepts.
func (c Control) String() string {
	return string(c.appendText(nil))
}

func (c Control) appendText(b []byte) []byte {
	start := len(b)
	if c.Main != 0 || c.Increment != 0 || c.Period != 0 {
		b = appendDuration(b, c.Main)
		if c.Increment != 0 {
			b = append(b, '+')
			b = appendDuration(b, c.Increment)
		}
		if c.Period != 0 {
			b = append(b, '+')
			b = appendDuration(b, c.Period)
			b = append(b, '/')
			if c.PliesPerPeriod == 0 || c.PliesPerPeriod == 1 {
				b = append(b, "move"...)
			} else {
				b = strconv.AppendInt(b, int64(c.PliesPerPeriod), 10)
			}
		}
	}
	if c.MoveCap != 0 {
		if len(b) > start {
			b = append(b, ' ')
		}
		b = appendDuration(b, c.MoveCap)
		b = append(b, "/move"...)
	}
	if len(b) == start {
		b = append(b, "none"...)
	}
	switch c.Charging {
	case Milliseconds:
	case WholeSeconds:
		b = append(b, " whole-seconds"...)
	default:
		b = append(b, ' ')
		b = append(b, c.Charging.String()...)
	}
	return b
}

// AppendText appends the canonical text form of c (see [Control.String])
// to b. It fails, appending nothing, if c is not valid.
func (c Control) AppendText(b []byte) ([]byte, error) {
	if err := c.Validate(); err != nil {
		return b, err
	}
	return c.appendText(b), nil
}

// MarshalText returns the canonical text form of c (see [Control.String]).
// It fails if c is not valid.
func (c Control) MarshalText() ([]byte, error) {
	return c.AppendText(nil)
}

// UnmarshalText sets *c to the control [Parse] reads from text. On error
// *c is unchanged.
func (c *Control) UnmarshalText(text []byte) error {
	v, err := Parse(string(text))
	if err != nil {
		return err
	}
	*c = v
	return nil
}

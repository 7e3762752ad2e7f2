package timer

import (
	"math"
	"math/bits"
	"strconv"
	"strings"
	"time"
)

// maxInput bounds the text Parse reads.
const maxInput = 1000

// SyntaxError reports text that [Parse] cannot read: where (a byte offset
// into Input), which Control field the bad part was meant for, the bad part
// itself, and what is wrong with it.
type SyntaxError struct {
	Input  string // the whole text given to Parse
	Offset int    // byte offset of Value in Input
	Field  string // the Control field the part was read for ("Main", "MoveCap", ...), or "" for a whole term
	Value  string // the offending part of Input
	Msg    string // what is wrong
}

// Error returns `timer: parse "<input>": <field> "<value>" at offset <n>: <msg>`.
func (e *SyntaxError) Error() string {
	var b strings.Builder
	b.WriteString("timer: parse ")
	b.WriteString(strconv.Quote(e.Input))
	b.WriteString(": ")
	if e.Field != "" {
		b.WriteString(e.Field)
		b.WriteByte(' ')
	}
	b.WriteString(strconv.Quote(e.Value))
	b.WriteString(" at offset ")
	b.WriteString(strconv.Itoa(e.Offset))
	b.WriteString(": ")
	b.WriteString(e.Msg)
	return b.String()
}

// Parse reads a time control written in the package's text form, the one
// [Control.String] writes.
//
// # Grammar
//
//	control   = term { blank term }
//	term      = "none" | clock | cap | "whole-seconds"
//	clock     = main [ "+" increment ] [ "+" period "/" plies ]
//	cap       = duration "/move"
//	plies     = "move" | integer            ("move" is 1; 2 or more is Canadian)
//	main, increment, period = duration
//	duration  = number unit { number unit }  (Go's time.ParseDuration, but unsigned)
//	number    = digits [ "." [ digits ] ] | "." digits
//	unit      = "h" | "m" | "s" | "ms" | "us" | "µs" | "μs" | "ns"
//	blank     = one or more of space, tab, CR, LF
//
// The clock term sets [Control.Main], [Control.Increment], [Control.Period]
// and [Control.PliesPerPeriod]: a "+" part without "/" is the increment, a
// "+" part with "/" is the byo-yomi period and must come last. The cap term
// sets [Control.MoveCap]: a duration followed by "/move" with no "+" before
// it is a cap, not a period. "whole-seconds" sets [Control.Charging] to
// [WholeSeconds]; without it the charging is [Milliseconds]. "none" is the
// control without limits and stands alone (with "whole-seconds" at most).
//
// Every duration must carry a unit; none may be negative or exceed
// [time.Duration]'s range. The main time may be zero only when a period
// follows it ("0s+10s/move": byo-yomi from the first ply); an increment, a
// period and a cap are positive; the plies count is at least 1. Each kind
// of term appears at most once.
//
// # Canonical form
//
// [Control.String] writes the clock term, then the cap, then
// "whole-seconds", separated by one space; durations in seconds with only
// the decimals needed ("900s", "0.5s", "900.001s"); a period of one ply as
// "/move". Parse reads back exactly the Control that was written.
//
// # Leniency
//
// Parse also accepts: blanks before, after and between terms (runs of
// them); terms in any order; "none", "move" and "whole-seconds" in any
// letter case; durations in any unit above and compound ("15m", "1m30s",
// "500ms", "1.5s"); "/1" for "/move". It reads at most 1000 bytes.
//
// # Examples
//
//	none                          no limit
//	900s                          sudden death: 900 s for the whole game (also "15m")
//	900s+2s                       900 s, plus 2 s after each ply (Fischer)
//	600s+10s/move                 600 s, then 10 s for every ply (byo-yomi; the Java Geister server)
//	600s+60s/5                    600 s, then every 5 plies within 60 s (Canadian)
//	0s+10s/move                   10 s for every ply from the start, as byo-yomi
//	5s/move                       at most 5 s for any ply, no game clock (Othello -timeout, PDD)
//	900s 30s/move                 900 s for the game and at most 30 s for any ply
//	900s+2s+30s/3 60s/move        all of it: increment, Canadian periods, a cap
//	600s+10s/move whole-seconds   the Java server's own arithmetic
//
// Errors are a *[SyntaxError] naming the field and the offending text.
func Parse(s string) (Control, error) {
	if len(s) > maxInput {
		return Control{}, &SyntaxError{Input: s[:maxInput], Offset: maxInput, Msg: "input longer than 1000 bytes"}
	}
	p := parser{in: s}
	var (
		c                          Control
		seenNone, seenClock, seenC bool
		seenWhole                  bool
		noneAt                     int
	)
	n := 0
	for i := 0; i < len(s); {
		if isBlank(s[i]) {
			i++
			continue
		}
		j := i
		for j < len(s) && !isBlank(s[j]) {
			j++
		}
		term, off := s[i:j], i
		i = j
		n++
		switch {
		case strings.EqualFold(term, "none"):
			if seenNone {
				return Control{}, p.errorf(off, "", term, "second \"none\"")
			}
			seenNone, noneAt = true, off
		case strings.EqualFold(term, "whole-seconds"):
			if seenWhole {
				return Control{}, p.errorf(off, "", term, "second \"whole-seconds\"")
			}
			seenWhole = true
			c.Charging = WholeSeconds
		case strings.Contains(term, "+") || !strings.Contains(term, "/"):
			if seenClock {
				return Control{}, p.errorf(off, "", term, "second clock term (main time, increment, period)")
			}
			seenClock = true
			if err := p.clock(&c, term, off); err != nil {
				return Control{}, err
			}
		default:
			if seenC {
				return Control{}, p.errorf(off, "MoveCap", term, "second per-move cap")
			}
			seenC = true
			if err := p.moveCap(&c, term, off); err != nil {
				return Control{}, err
			}
		}
	}
	if n == 0 {
		return Control{}, p.errorf(0, "", s, "empty control (write none for no limit)")
	}
	if seenNone && (seenClock || seenC) {
		return Control{}, p.errorf(noneAt, "", "none", "none together with a clock or a cap")
	}
	if err := c.Validate(); err != nil {
		return Control{}, err
	}
	return c, nil
}

type parser struct{ in string }

func (p parser) errorf(off int, field, value, msg string) *SyntaxError {
	return &SyntaxError{Input: p.in, Offset: off, Field: field, Value: value, Msg: msg}
}

func isBlank(b byte) bool { return b == ' ' || b == '\t' || b == '\r' || b == '\n' }

// clock reads main[+increment][+period/plies] into c.
func (p parser) clock(c *Control, term string, off int) error {
	parts := strings.Split(term, "+")
	mainText := parts[0]
	if strings.Contains(mainText, "/") {
		return p.errorf(off, "Main", mainText, "the main time comes first and has no \"/\" (byo-yomi from the start is 0s+10s/move)")
	}
	d, msg := parseDuration(mainText)
	if msg != "" {
		return p.errorf(off, "Main", mainText, msg)
	}
	c.Main = d
	at := off + len(mainText) + 1
	havePeriod, haveInc := false, false
	for _, part := range parts[1:] {
		if part == "" {
			return p.errorf(at, "", part, "missing duration after \"+\"")
		}
		if havePeriod {
			return p.errorf(at, "", part, "nothing may follow the byo-yomi period")
		}
		if durText, pliesText, ok := strings.Cut(part, "/"); ok {
			havePeriod = true
			if err := p.period(c, durText, pliesText, at); err != nil {
				return err
			}
		} else {
			if haveInc {
				return p.errorf(at, "Increment", part, "second increment")
			}
			haveInc = true
			d, msg := parseDuration(part)
			if msg == "" && d == 0 {
				msg = "zero increment (leave the increment out)"
			}
			if msg != "" {
				return p.errorf(at, "Increment", part, msg)
			}
			c.Increment = d
		}
		at += len(part) + 1
	}
	if c.Main == 0 && !havePeriod {
		return p.errorf(off, "Main", mainText, "zero main time without a byo-yomi period (write none for no limit)")
	}
	return nil
}

// period reads period/plies, found at offset at, into c.
func (p parser) period(c *Control, durText, pliesText string, at int) error {
	d, msg := parseDuration(durText)
	if msg == "" && d == 0 {
		msg = "zero period (leave the period out)"
	}
	if msg != "" {
		return p.errorf(at, "Period", durText, msg)
	}
	c.Period = d
	at += len(durText) + 1
	if strings.EqualFold(pliesText, "move") {
		c.PliesPerPeriod = 1
		return nil
	}
	if pliesText == "" || strings.IndexFunc(pliesText, func(r rune) bool { return r < '0' || r > '9' }) >= 0 {
		return p.errorf(at, "PliesPerPeriod", pliesText, "not a number of plies (write a number, or move for 1)")
	}
	k, err := strconv.Atoi(pliesText)
	if err != nil {
		return p.errorf(at, "PliesPerPeriod", pliesText, "number of plies too large")
	}
	if k < 1 {
		return p.errorf(at, "PliesPerPeriod", pliesText, "a period must hold at least 1 ply")
	}
	c.PliesPerPeriod = k
	return nil
}

// moveCap reads duration/move into c.
func (p parser) moveCap(c *Control, term string, off int) error {
	durText, unit, _ := strings.Cut(term, "/")
	if !strings.EqualFold(unit, "move") && unit != "1" {
		return p.errorf(off, "MoveCap", term, "a per-move cap is written <duration>/move (a byo-yomi period needs a main time first: 0s+10s/5)")
	}
	d, msg := parseDuration(durText)
	if msg == "" && d == 0 {
		msg = "zero per-move cap (leave the cap out)"
	}
	if msg != "" {
		return p.errorf(off, "MoveCap", durText, msg)
	}
	c.MoveCap = d
	return nil
}

// unitOf returns the length in nanoseconds of a duration unit.
func unitOf(u string) (uint64, bool) {
	switch u {
	case "ns":
		return 1, true
	case "us", "µs", "μs": // U+00B5 and U+03BC
		return uint64(time.Microsecond), true
	case "ms":
		return uint64(time.Millisecond), true
	case "s":
		return uint64(time.Second), true
	case "m":
		return uint64(time.Minute), true
	case "h":
		return uint64(time.Hour), true
	}
	return 0, false
}

func isDigit(b byte) bool { return '0' <= b && b <= '9' }

// parseDuration reads an unsigned duration such as "900s", "1.5s" or
// "1m30s". On error it returns a message saying what is wrong.
func parseDuration(s string) (time.Duration, string) {
	if s == "" {
		return 0, "missing duration"
	}
	switch s[0] {
	case '-':
		return 0, "negative duration"
	case '+':
		return 0, "signed duration"
	}
	const tooLarge = "duration too large (at most 2562047h47m16.854775807s)"
	var total uint64
	for s != "" {
		i := 0
		var whole uint64
		digits := 0
		for ; i < len(s) && isDigit(s[i]); i++ {
			d := uint64(s[i] - '0')
			if whole > (math.MaxInt64-d)/10 {
				return 0, tooLarge
			}
			whole = whole*10 + d
			digits++
		}
		var frac, scale uint64 = 0, 1
		if i < len(s) && s[i] == '.' {
			i++
			for ; i < len(s) && isDigit(s[i]); i++ {
				if scale < 1e18 { // further digits are below a nanosecond
					frac = frac*10 + uint64(s[i]-'0')
					scale *= 10
				}
				digits++
			}
		}
		if digits == 0 {
			return 0, "missing number before the unit"
		}
		j := i
		for j < len(s) && !isDigit(s[j]) && s[j] != '.' {
			j++
		}
		if j == i {
			return 0, "missing unit (h, m, s, ms, us or ns)"
		}
		unit, ok := unitOf(s[i:j])
		if !ok {
			return 0, "unknown unit " + strconv.Quote(s[i:j]) + " (want h, m, s, ms, us or ns)"
		}
		if whole > math.MaxInt64/unit {
			return 0, tooLarge
		}
		v := whole * unit
		if frac > 0 {
			// frac < scale and unit < 2^42, so hi < scale and Div64 cannot fail.
			hi, lo := bits.Mul64(frac, unit)
			q, _ := bits.Div64(hi, lo, scale)
			v += q
		}
		total += v
		if v > math.MaxInt64 || total > math.MaxInt64 {
			return 0, tooLarge
		}
		s = s[j:]
	}
	return time.Duration(total), ""
}

// formatDuration writes d in seconds with only the decimals needed:
// "900s", "0.5s", "0.000000001s", "-5s".
func formatDuration(d time.Duration) string {
	return string(appendDuration(nil, d))
}

func appendDuration(b []byte, d time.Duration) []byte {
	u := uint64(d)
	if d < 0 {
		b = append(b, '-')
		u = -u
	}
	b = strconv.AppendUint(b, u/1e9, 10)
	if ns := u % 1e9; ns != 0 {
		var frac [9]byte
		for i := 8; i >= 0; i-- {
			frac[i] = byte('0' + ns%10)
			ns /= 10
		}
		k := 9
		for frac[k-1] == '0' {
			k--
		}
		b = append(b, '.')
		b = append(b, frac[:k]...)
	}
	return append(b, 's')
}

package timer

import (
	"math"
	"strconv"
	"strings"
	"time"
)

// The NTPU launcher's Timer Modes (計時模式), for [NTPU].
const (
	NTPUNone     = "None"     // no time limit
	NTPUAbsolute = "Absolute" // the Time Limit for the whole game, sudden death
	NTPUCustom   = "Custom"   // Time Limit, One Ply Time and Ply Share as set
)

// NTPU returns the control set by the NTPU launcher's time fields:
// Timer Mode (計時模式) mode, Time Limit (秒數限制) limit, One Ply
// Time (單手制時間) onePly and Ply Share (幾手共用) share.
//
//   - "None": no limit; the other fields must be 0.
//   - "Absolute": sudden death, limit for the whole game; limit must be
//     positive and the other fields 0.
//   - "Custom": main time limit; once it is spent, every period of onePly
//     must hold share plies (share 0 or 1: each ply gets onePly, ordinary
//     byo-yomi; more: Canadian byo-yomi). share needs a onePly. All zero
//     means no limit.
//
// The mode is matched ignoring case and surrounding blanks. The launcher's
// default, Absolute with 900 s, is the control "900s". The launcher's
// modes are presets that fill the fields, so a mode that disagrees with
// the fields is an error (a *[FieldError]), as is a negative field.
func NTPU(mode string, limit, onePly time.Duration, share int) (Control, error) {
	const tl, op, ps = "Time Limit", "One Ply Time", "Ply Share"
	if limit < 0 {
		return Control{}, fieldErr(tl, formatDuration(limit), "negative duration")
	}
	if onePly < 0 {
		return Control{}, fieldErr(op, formatDuration(onePly), "negative duration")
	}
	if share < 0 {
		return Control{}, fieldErr(ps, strconv.Itoa(share), "negative number of plies")
	}
	m := strings.TrimSpace(mode)
	switch {
	case strings.EqualFold(m, NTPUNone):
		switch {
		case limit != 0:
			return Control{}, fieldErr(tl, formatDuration(limit), "Timer Mode None sets no limit")
		case onePly != 0:
			return Control{}, fieldErr(op, formatDuration(onePly), "Timer Mode None sets no limit")
		case share != 0:
			return Control{}, fieldErr(ps, strconv.Itoa(share), "Timer Mode None sets no limit")
		}
		return Control{}, nil
	case strings.EqualFold(m, NTPUAbsolute):
		switch {
		case limit == 0:
			return Control{}, fieldErr(tl, formatDuration(limit), "Timer Mode Absolute needs a Time Limit")
		case onePly != 0:
			return Control{}, fieldErr(op, formatDuration(onePly), "Timer Mode Absolute has no One Ply Time (use Custom)")
		case share != 0:
			return Control{}, fieldErr(ps, strconv.Itoa(share), "Timer Mode Absolute has no Ply Share (use Custom)")
		}
		return Control{Main: limit}, nil
	case strings.EqualFold(m, NTPUCustom):
		if share != 0 && onePly == 0 {
			return Control{}, fieldErr(ps, strconv.Itoa(share), "no One Ply Time for the plies to share")
		}
		c := Control{Main: limit}
		if onePly > 0 {
			c.Period, c.PliesPerPeriod = onePly, max(share, 1)
		}
		return c, nil
	}
	return Control{}, fieldErr("Timer Mode", mode, "want None, Absolute or Custom")
}

// scaled converts a platform field's count of units into a duration.
func scaled(field string, n int64, unit time.Duration) (time.Duration, error) {
	if n < 0 {
		return 0, fieldErr(field, strconv.FormatInt(n, 10), "negative duration")
	}
	if n > math.MaxInt64/int64(unit) {
		return 0, fieldErr(field, strconv.FormatInt(n, 10), "duration too large")
	}
	return time.Duration(n) * unit, nil
}

// The Java Geister server's defaults for [JavaGeister]: a
// budget of 10 minutes, then 10 s per move.
const (
	JavaGeisterBudget  = 600 // --budget, seconds
	JavaGeisterTimeout = 10  // --timeout, seconds
)

// JavaGeister returns the control of the Java Geister server's options
// --budget and --timeout, both in seconds: a budget of main
// time, then timeout for every move once the budget is spent: byo-yomi.
// The defaults, 600 and 10, give "600s+10s/move". With timeout 0 it is
// sudden death; with budget 0, byo-yomi from the first ply; both 0 leave
// no time at all and are an error.
//
// The Java server charges whole seconds; set Charging to [WholeSeconds] on
// the result to reproduce its arithmetic, the extra second included.
func JavaGeister(budget, timeout int) (Control, error) {
	b, err := scaled("--budget", int64(budget), time.Second)
	if err != nil {
		return Control{}, err
	}
	t, err := scaled("--timeout", int64(timeout), time.Second)
	if err != nil {
		return Control{}, err
	}
	if b == 0 && t == 0 {
		return Control{}, fieldErr("--timeout", "0", "with --budget=0 it leaves no time to think")
	}
	c := Control{Main: b}
	if t > 0 {
		c.Period, c.PliesPerPeriod = t, 1
	}
	return c, nil
}

// OthelloTimeout returns the control of the Othello course server's
// -timeout option: every TURN must be answered with a valid PUT
// within seconds, with no game clock. 0 (or the option absent) means no
// limit. The tournament setting, 10, gives "10s/move".
func OthelloTimeout(seconds int) (Control, error) {
	d, err := scaled("-timeout", int64(seconds), time.Second)
	if err != nil {
		return Control{}, err
	}
	return PerMove(d), nil
}

// The dark chess platform's time modes (計時賽制), for [DarkChess].
const (
	DarkChessPerGame = "回合制" // a total thinking time for the game
	DarkChessPerPly  = "單手制" // a limit on every ply
)

// DarkChess returns the control of the Chinese dark chess platform's room
// settings: mode 回合制 (per game, sudden death over the
// whole game) or 單手制 (per ply, the same limit on every ply), and the
// limit 秒數限制 in seconds, which must be positive. The mode also reads
// in simplified characters (单手制) and as "per-game" or "per-ply" in any
// case. The platform's 900 s per game gives "900s".
func DarkChess(mode string, seconds int) (Control, error) {
	m := strings.TrimSpace(mode)
	perPly := false
	switch {
	case m == DarkChessPerGame || strings.EqualFold(m, "per-game"):
	case m == DarkChessPerPly || m == "单手制" || strings.EqualFold(m, "per-ply"):
		perPly = true
	default:
		return Control{}, fieldErr("計時賽制", mode, "want 回合制 (per game) or 單手制 (per ply)")
	}
	d, err := scaled("秒數限制", int64(seconds), time.Second)
	if err != nil {
		return Control{}, err
	}
	if d == 0 {
		return Control{}, fieldErr("秒數限制", "0", "a "+m+" mode needs a time limit")
	}
	if perPly {
		return PerMove(d), nil
	}
	return Control{Main: d}, nil
}

// ICGADarkChess returns the ICGA dark chess tournaments' control: 15
// minutes per game, no extension ("900s").
func ICGADarkChess() Control {
	return Control{Main: 15 * time.Minute}
}

// MGTP returns the control of the MGTP command time_setting (dark chess):
// the main time of each player in milliseconds, sudden death; the host
// then reports time_left after each ply. 900000 gives "900s". 0 means no
// limit.
func MGTP(ms int64) (Control, error) {
	d, err := scaled("time_setting", ms, time.Millisecond)
	if err != nil {
		return Control{}, err
	}
	return Control{Main: d}, nil
}

// PDD returns the Ponte del Diavolo course platform's control:
// each move's program run must finish within 5 s ("5s/move").
func PDD() Control {
	return PerMove(5 * time.Second)
}

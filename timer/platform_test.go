package timer

import (
	"errors"
	"math"
	"strconv"
	"strings"
	"testing"
	"time"
)

func control(c Control, err error) func(t *testing.T) Control {
	return func(t *testing.T) Control {
		t.Helper()
		must(t, err)
		return c
	}
}

// Each seed platform's default (or documented) setting is the Control it
// means.
func TestSeedDefaults(t *testing.T) {
	tests := []struct {
		platform string
		got      func(t *testing.T) Control
		want     Control
		text     string
	}{
		{"NTPU launcher default: Absolute, Time Limit 900 s",
			control(NTPU(NTPUAbsolute, 900*time.Second, 0, 0)), Control{Main: 900 * time.Second}, "900s"},
		{"NTPU None", control(NTPU(NTPUNone, 0, 0, 0)), Control{}, "none"},
		{"NTPU Custom, 900 s then 10 s per ply (Ply Share 0)",
			control(NTPU(NTPUCustom, 900*time.Second, 10*time.Second, 0)), Control{Main: 900 * time.Second, Period: 10 * time.Second, PliesPerPeriod: 1}, "900s+10s/move"},
		{"NTPU Custom, Ply Share 1",
			control(NTPU("custom", 900*time.Second, 10*time.Second, 1)), Control{Main: 900 * time.Second, Period: 10 * time.Second, PliesPerPeriod: 1}, "900s+10s/move"},
		{"NTPU Custom, Canadian: 5 plies per 60 s",
			control(NTPU(" Custom ", 600*time.Second, 60*time.Second, 5)), Control{Main: 600 * time.Second, Period: 60 * time.Second, PliesPerPeriod: 5}, "600s+60s/5"},
		{"NTPU Custom, Time Limit only", control(NTPU(NTPUCustom, 900*time.Second, 0, 0)), Control{Main: 900 * time.Second}, "900s"},
		{"NTPU Custom, all zero", control(NTPU(NTPUCustom, 0, 0, 0)), Control{}, "none"},
		{"Java Geister server defaults --budget=600 --timeout=10",
			control(JavaGeister(JavaGeisterBudget, JavaGeisterTimeout)), Control{Main: 600 * time.Second, Period: 10 * time.Second, PliesPerPeriod: 1}, "600s+10s/move"},
		{"Java Geister server --timeout=5 --budget=200",
			control(JavaGeister(200, 5)), Control{Main: 200 * time.Second, Period: 5 * time.Second, PliesPerPeriod: 1}, "200s+5s/move"},
		{"Java Geister --budget=0", control(JavaGeister(0, 10)), Control{Period: 10 * time.Second, PliesPerPeriod: 1}, "0s+10s/move"},
		{"Java Geister --timeout=0", control(JavaGeister(600, 0)), Control{Main: 600 * time.Second}, "600s"},
		{"Othello server, -timeout absent or 0", control(OthelloTimeout(0)), Control{}, "none"},
		{"Othello tournament, -timeout 10", control(OthelloTimeout(10)), Control{MoveCap: 10 * time.Second}, "10s/move"},
		{"dark chess 回合制 900 s", control(DarkChess(DarkChessPerGame, 900)), Control{Main: 900 * time.Second}, "900s"},
		{"dark chess 單手制 10 s", control(DarkChess(DarkChessPerPly, 10)), Control{MoveCap: 10 * time.Second}, "10s/move"},
		{"dark chess 单手制 (simplified)", control(DarkChess("单手制", 10)), Control{MoveCap: 10 * time.Second}, "10s/move"},
		{"dark chess per-game", control(DarkChess("Per-Game", 900)), Control{Main: 900 * time.Second}, "900s"},
		{"dark chess per-ply", control(DarkChess("per-ply", 3)), Control{MoveCap: 3 * time.Second}, "3s/move"},
		{"MGTP time_setting 900000", control(MGTP(900000)), Control{Main: 900 * time.Second}, "900s"},
		{"MGTP time_setting 900001", control(MGTP(900001)), Control{Main: 900001 * time.Millisecond}, "900.001s"},
		{"MGTP time_setting 0", control(MGTP(0)), Control{}, "none"},
		{"ICGA dark chess: 15 min, no extension", control(ICGADarkChess(), nil), Control{Main: 15 * time.Minute}, "900s"},
		{"PDD: 5 s per move", control(PDD(), nil), Control{MoveCap: 5 * time.Second}, "5s/move"},
		{"PerMove", control(PerMove(1500*time.Millisecond), nil), Control{MoveCap: 1500 * time.Millisecond}, "1.5s/move"},
	}
	for _, tt := range tests {
		t.Run(tt.platform, func(t *testing.T) {
			got := tt.got(t)
			if got != tt.want {
				t.Errorf("got %#v, want %#v", got, tt.want)
			}
			if err := got.Validate(); err != nil {
				t.Error(err)
			}
			if s := got.String(); s != tt.text {
				t.Errorf("String = %q, want %q", s, tt.text)
			}
			if back := mustParse(t, tt.text); back != tt.want {
				t.Errorf("Parse(%q) = %#v", tt.text, back)
			}
		})
	}
}

func TestPlatformErrors(t *testing.T) {
	// The fewest seconds that overflow a Duration (9223372037), which an
	// int holds only on 64-bit platforms.
	overflowing := int64(math.MaxInt64/int64(time.Second) + 1)
	tests := []struct {
		name         string
		err          error
		field, value string
	}{
		{"NTPU bad mode", second(NTPU("Byoyomi", time.Second, 0, 0)), "Timer Mode", "Byoyomi"},
		{"NTPU negative limit", second(NTPU(NTPUAbsolute, -time.Second, 0, 0)), "Time Limit", "-1s"},
		{"NTPU negative one-ply", second(NTPU(NTPUCustom, 0, -time.Second, 0)), "One Ply Time", "-1s"},
		{"NTPU negative share", second(NTPU(NTPUCustom, 0, time.Second, -1)), "Ply Share", "-1"},
		{"NTPU Absolute without a limit", second(NTPU(NTPUAbsolute, 0, 0, 0)), "Time Limit", "0s"},
		{"NTPU Absolute with a one-ply time", second(NTPU(NTPUAbsolute, time.Second, time.Second, 0)), "One Ply Time", "1s"},
		{"NTPU Absolute with a share", second(NTPU(NTPUAbsolute, time.Second, 0, 2)), "Ply Share", "2"},
		{"NTPU None with a limit", second(NTPU(NTPUNone, time.Second, 0, 0)), "Time Limit", "1s"},
		{"NTPU None with a one-ply time", second(NTPU(NTPUNone, 0, time.Second, 0)), "One Ply Time", "1s"},
		{"NTPU None with a share", second(NTPU(NTPUNone, 0, 0, 3)), "Ply Share", "3"},
		{"NTPU Custom share without one-ply time", second(NTPU(NTPUCustom, time.Second, 0, 3)), "Ply Share", "3"},
		{"Java negative budget", second(JavaGeister(-1, 10)), "--budget", "-1"},
		{"Java negative timeout", second(JavaGeister(600, -10)), "--timeout", "-10"},
		{"Java no time at all", second(JavaGeister(0, 0)), "--timeout", "0"},
		{"Java overflowing budget", second(JavaGeister(math.MaxInt, 10)), "--budget", strconv.Itoa(math.MaxInt)},
		{"Othello negative", second(OthelloTimeout(-1)), "-timeout", "-1"},
		{"Othello overflow", second(OthelloTimeout(int(overflowing))), "-timeout", "9223372037"},
		{"dark chess bad mode", second(DarkChess("blitz", 900)), "計時賽制", "blitz"},
		{"dark chess per ply with no limit", second(DarkChess(DarkChessPerPly, 0)), "秒數限制", "0"},
		{"dark chess per game with no limit", second(DarkChess(DarkChessPerGame, 0)), "秒數限制", "0"},
		{"dark chess negative", second(DarkChess(DarkChessPerGame, -900)), "秒數限制", "-900"},
		{"MGTP negative", second(MGTP(-1)), "time_setting", "-1"},
		{"MGTP overflow", second(MGTP(math.MaxInt64)), "time_setting", "9223372036854775807"},
	}
	for _, tt := range tests {
		if strconv.IntSize < 64 && (tt.name == "Java overflowing budget" || tt.name == "Othello overflow") {
			continue // a 32-bit int of seconds never overflows a Duration
		}
		var fe *FieldError
		if !errors.As(tt.err, &fe) || fe.Field != tt.field || fe.Value != tt.value {
			t.Errorf("%s: %v; want field %q value %q", tt.name, tt.err, tt.field, tt.value)
			continue
		}
		if msg := tt.err.Error(); !strings.HasPrefix(msg, "timer: "+tt.field+" ") || !strings.Contains(msg, tt.value) {
			t.Errorf("%s: message %q", tt.name, msg)
		}
	}
}

func second(_ Control, err error) error { return err }

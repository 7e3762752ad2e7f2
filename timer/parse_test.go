package timer

import (
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestParse(t *testing.T) {
	tests := []struct {
		in        string
		want      Control
		canonical string // "" = in
	}{
		{"none", Control{}, ""},
		{"900s", Control{Main: sec(900)}, ""},
		{"600s+10s/move", Control{Main: sec(600), Period: sec(10), PliesPerPeriod: 1}, ""},
		{"600s+60s/5", Control{Main: sec(600), Period: sec(60), PliesPerPeriod: 5}, ""},
		{"900s+2s", Control{Main: sec(900), Increment: sec(2)}, ""},
		{"5s/move", Control{MoveCap: sec(5)}, ""},
		{"0s+10s/move", Control{Period: sec(10), PliesPerPeriod: 1}, ""},
		{"900s 30s/move", Control{Main: sec(900), MoveCap: sec(30)}, ""},
		{"900s+2s+30s/3 60s/move", Control{Main: sec(900), Increment: sec(2), Period: sec(30), PliesPerPeriod: 3, MoveCap: sec(60)}, ""},
		{"600s+10s/move whole-seconds", Control{Main: sec(600), Period: sec(10), PliesPerPeriod: 1, Charging: WholeSeconds}, ""},
		{"none whole-seconds", Control{Charging: WholeSeconds}, ""},
		{"0.5s/move", Control{MoveCap: ms(500)}, ""},
		{"900.001s", Control{Main: ms(900001)}, ""},
		{"0.000000001s/move", Control{MoveCap: 1}, ""},
		{"9223372036.854775807s", Control{Main: math.MaxInt64}, ""},
		// Leniencies.
		{"  900s \t", Control{Main: sec(900)}, "900s"},
		{"15m", Control{Main: sec(900)}, "900s"},
		{"1m30s+500ms", Control{Main: sec(90), Increment: ms(500)}, "90s+0.5s"},
		{"1h", Control{Main: time.Hour}, "3600s"},
		{"1.5s/move", Control{MoveCap: ms(1500)}, ""},
		{".5s/move", Control{MoveCap: ms(500)}, "0.5s/move"},
		{"1.s/move", Control{MoveCap: sec(1)}, "1s/move"},
		{"1500us/move", Control{MoveCap: 1500 * time.Microsecond}, "0.0015s/move"},
		{"3µs/move", Control{MoveCap: 3 * time.Microsecond}, "0.000003s/move"},
		{"3μs/move", Control{MoveCap: 3 * time.Microsecond}, "0.000003s/move"},
		{"7ns/move", Control{MoveCap: 7}, "0.000000007s/move"},
		{"1.0000000019s/move", Control{MoveCap: sec(1) + 1}, "1.000000001s/move"}, // below 1 ns: dropped
		{"NONE", Control{}, "none"},
		{"600s+10s/MOVE Whole-Seconds", Control{Main: sec(600), Period: sec(10), PliesPerPeriod: 1, Charging: WholeSeconds}, "600s+10s/move whole-seconds"},
		{"600s+10s/1", Control{Main: sec(600), Period: sec(10), PliesPerPeriod: 1}, "600s+10s/move"},
		{"600s+60s/05", Control{Main: sec(600), Period: sec(60), PliesPerPeriod: 5}, "600s+60s/5"},
		{"whole-seconds 30s/move 900s", Control{Main: sec(900), MoveCap: sec(30), Charging: WholeSeconds}, "900s 30s/move whole-seconds"},
		{"5s/1", Control{MoveCap: sec(5)}, "5s/move"},
		{"900s\r\n", Control{Main: sec(900)}, "900s"},
	}
	for _, tt := range tests {
		got, err := Parse(tt.in)
		if err != nil {
			t.Errorf("Parse(%q): %v", tt.in, err)
			continue
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("Parse(%q) (-want +got):\n%s", tt.in, diff)
		}
		want := tt.canonical
		if want == "" {
			want = tt.in
		}
		if s := got.String(); s != want {
			t.Errorf("Parse(%q).String() = %q, want %q", tt.in, s, want)
		}
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		in     string
		field  string // the field named
		value  string // the value named
		offset int
		msg    string // part of the message
	}{
		{"", "", "", 0, "empty"},
		{"   ", "", "   ", 0, "empty"},
		{"900", "Main", "900", 0, "missing unit"},
		{"0", "Main", "0", 0, "missing unit"},
		{"-5s", "Main", "-5s", 0, "negative"},
		{"+5s", "Main", "", 0, "missing duration"},
		{"900x", "Main", "900x", 0, `unknown unit "x"`},
		{"900S", "Main", "900S", 0, `unknown unit "S"`},
		{"s", "Main", "s", 0, "missing number"},
		{".s", "Main", ".s", 0, "missing number"},
		{"1s5", "Main", "1s5", 0, "missing unit"},
		{"9223372037s", "Main", "9223372037s", 0, "too large"},
		{"2562048h", "Main", "2562048h", 0, "too large"},
		{"99999999999999999999s", "Main", "99999999999999999999s", 0, "too large"},
		{"9223372036.854775808s", "Main", "9223372036.854775808s", 0, "too large"},
		{"5000000000s+5000000000s/move", "", "", 0, ""}, // each fits; fine
		{"0s", "Main", "0s", 0, "none"},
		{"0s+2s", "Main", "0s", 0, "zero main time"},
		{"900s+0s", "Increment", "0s", 5, "zero increment"},
		{"900s+0s/move", "Period", "0s", 5, "zero period"},
		{"0s/move", "MoveCap", "0s", 0, "zero per-move cap"},
		{"900s+-1s", "Increment", "-1s", 5, "negative"},
		{"900s+2s+3s", "Increment", "3s", 8, "second increment"},
		{"900s+10s/move+2s", "", "2s", 14, "nothing may follow"},
		{"900s+", "", "", 5, "missing duration"},
		{"900s++2s", "", "", 5, "missing duration"},
		{"+", "Main", "", 0, "missing duration"},
		{"900s+10s/", "PliesPerPeriod", "", 9, "not a number"},
		{"900s+10s/0", "PliesPerPeriod", "0", 9, "at least 1"},
		{"900s+10s/-2", "PliesPerPeriod", "-2", 9, "not a number"},
		{"900s+10s/x", "PliesPerPeriod", "x", 9, "not a number"},
		{"900s+10s/99999999999999999999", "PliesPerPeriod", "99999999999999999999", 9, "too large"},
		{"900s+10sx/move", "Period", "10sx", 5, "unknown unit"},
		{"10s/move+2s", "Main", "10s/move", 0, "comes first"},
		{"10s/5", "MoveCap", "10s/5", 0, "per-move cap is written"},
		{"10s/move/move", "MoveCap", "10s/move/move", 0, "per-move cap is written"},
		{"10/move", "MoveCap", "10", 0, "missing unit"},
		{"none none", "", "none", 5, "second"},
		{"none 900s", "", "none", 0, "none together"},
		{"5s/move none", "", "none", 8, "none together"},
		{"900s 800s", "", "800s", 5, "second clock"},
		{"5s/move 6s/move", "MoveCap", "6s/move", 8, "second per-move cap"},
		{"900s whole-seconds whole-seconds", "", "whole-seconds", 19, "second"},
		{"900s ms", "", "ms", 5, "second clock term"},
		{"ms", "Main", "ms", 0, "missing number"},
		{strings.Repeat(" ", 1001), "", "", 1000, "longer than 1000"},
	}
	for _, tt := range tests {
		c, err := Parse(tt.in)
		if tt.msg == "" {
			if err != nil {
				t.Errorf("Parse(%q): %v", tt.in, err)
			}
			continue
		}
		var se *SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("Parse(%q) = %v, %v; want a *SyntaxError", tt.in, c, err)
			continue
		}
		if se.Field != tt.field || se.Value != tt.value || se.Offset != tt.offset || !strings.Contains(se.Msg, tt.msg) {
			t.Errorf("Parse(%q): field %q value %q offset %d msg %q; want %q %q %d %q",
				tt.in, se.Field, se.Value, se.Offset, se.Msg, tt.field, tt.value, tt.offset, tt.msg)
		}
		if !strings.HasPrefix(err.Error(), "timer: ") || !strings.Contains(err.Error(), se.Field) {
			t.Errorf("Parse(%q): message %q", tt.in, err)
		}
		if c != (Control{}) {
			t.Errorf("Parse(%q) returned %v with its error", tt.in, c)
		}
	}
}

func TestSyntaxErrorText(t *testing.T) {
	_, err := Parse("900s+10x/move")
	want := `timer: parse "900s+10x/move": Period "10x" at offset 5: unknown unit "x" (want h, m, s, ms, us or ns)`
	if err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
}

func TestValidate(t *testing.T) {
	tests := []struct {
		c            Control
		field, value string // "" = valid
	}{
		{Control{}, "", ""},
		{Control{Main: sec(1), Increment: sec(1), Period: sec(1), PliesPerPeriod: 0, MoveCap: sec(1), Charging: WholeSeconds}, "", ""},
		{Control{Period: sec(1), Increment: sec(1)}, "", ""},
		{Control{Main: -sec(5)}, "Main", "-5s"},
		{Control{Increment: -ms(1), Main: sec(1)}, "Increment", "-0.001s"},
		{Control{Period: -1}, "Period", "-0.000000001s"},
		{Control{MoveCap: math.MinInt64}, "MoveCap", "-9223372036.854775808s"},
		{Control{Period: sec(1), PliesPerPeriod: -1}, "PliesPerPeriod", "-1"},
		{Control{PliesPerPeriod: 5}, "PliesPerPeriod", "5"},
		{Control{PliesPerPeriod: 1}, "PliesPerPeriod", "1"},
		{Control{Increment: sec(2)}, "Increment", "2s"},
		{Control{Increment: sec(2), MoveCap: sec(5)}, "Increment", "2s"},
		{Control{Charging: 2}, "Charging", "2"},
	}
	for _, tt := range tests {
		err := tt.c.Validate()
		if tt.field == "" {
			if err != nil {
				t.Errorf("%#v: %v", tt.c, err)
			}
			continue
		}
		var fe *FieldError
		if !errors.As(err, &fe) || fe.Field != tt.field || fe.Value != tt.value {
			t.Errorf("%#v: %v; want field %s value %s", tt.c, err, tt.field, tt.value)
			continue
		}
		if msg := err.Error(); !strings.HasPrefix(msg, "timer: "+tt.field+` "`+tt.value+`": `) {
			t.Errorf("message %q", msg)
		}
		if _, err := tt.c.MarshalText(); err == nil {
			t.Errorf("%#v: MarshalText accepts an invalid control", tt.c)
		}
		if b, err := tt.c.AppendText([]byte("x")); err == nil || string(b) != "x" {
			t.Errorf("%#v: AppendText = %q, %v", tt.c, b, err)
		}
		_ = tt.c.String() // must not panic
	}
}

// String of every valid control parses back to it.
func TestStringRoundTrip(t *testing.T) {
	durs := []time.Duration{0, 1, ms(1), sec(0.5), sec(10), sec(900), math.MaxInt64}
	for _, main := range durs {
		for _, inc := range durs {
			for _, period := range durs {
				for _, plies := range []int{0, 1, 2, 60} {
					for _, cp := range durs {
						for _, ch := range []Charging{Milliseconds, WholeSeconds} {
							c := Control{Main: main, Increment: inc, Period: period, PliesPerPeriod: plies, MoveCap: cp, Charging: ch}
							if period == 0 {
								c.PliesPerPeriod = 0
							}
							if c.Validate() != nil {
								continue
							}
							got, err := Parse(c.String())
							if err != nil {
								t.Fatalf("%#v: Parse(%q): %v", c, c, err)
							}
							if c.Period > 0 && c.PliesPerPeriod == 0 {
								c.PliesPerPeriod = 1
							}
							if got != c {
								t.Fatalf("Parse(%q) = %#v, want %#v", c, got, c)
							}
						}
					}
				}
			}
		}
	}
}

func TestText(t *testing.T) {
	type settings struct {
		Time Control `json:"time"`
	}
	s := settings{Control{Main: sec(600), Period: sec(10), PliesPerPeriod: 1}}
	b, err := json.Marshal(s)
	must(t, err)
	if string(b) != `{"time":"600s+10s/move"}` {
		t.Errorf("json: %s", b)
	}
	var back settings
	must(t, json.Unmarshal([]byte(`{"time":"15m 30s/move whole-seconds"}`), &back))
	if want := (Control{Main: sec(900), MoveCap: sec(30), Charging: WholeSeconds}); back.Time != want {
		t.Errorf("json: %v, want %v", back.Time, want)
	}
	c := Control{Main: sec(1)}
	if err := c.UnmarshalText([]byte("bad")); err == nil || c.Main != sec(1) {
		t.Errorf("UnmarshalText of bad text: %v, %v", err, c)
	}
	b, err = Control{MoveCap: sec(5)}.AppendText([]byte("time="))
	if err != nil || string(b) != "time=5s/move" {
		t.Errorf("AppendText = %q, %v", b, err)
	}
	if s := (Control{Main: -sec(5), PliesPerPeriod: 2, Charging: 3}).String(); s != "-5s Charging(3)" {
		t.Errorf("String of an invalid control = %q", s)
	}
}

func TestUnlimited(t *testing.T) {
	if !(Control{}).Unlimited() || !(Control{Charging: WholeSeconds}).Unlimited() {
		t.Error("zero control is limited")
	}
	for _, s := range []string{"900s", "5s/move", "0s+1s/move"} {
		if mustParse(t, s).Unlimited() {
			t.Errorf("%s is unlimited", s)
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"none", "900s", "600s+10s/move", "600s+60s/5", "900s+2s", "5s/move",
		"0s+10s/move", "900s 30s/move", "900s+2s+30s/3 60s/move whole-seconds",
		"none whole-seconds", "15m", "1m30s+500ms", "1.5s/move", "3µs/move",
		"9223372036.854775807s", "9223372036.854775808s", "600s+10s/1", "",
		"-5s", "900", "0s", "10s/5", "none 900s", "900s+10s/move+2s", ".5s",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := Parse(s)
		if err != nil {
			var se *SyntaxError
			var fe *FieldError
			if !errors.As(err, &se) && !errors.As(err, &fe) {
				t.Fatalf("Parse(%q): error %T %v", s, err, err)
			}
			if !strings.HasPrefix(err.Error(), "timer: ") {
				t.Fatalf("Parse(%q): %v", s, err)
			}
			return
		}
		if err := c.Validate(); err != nil {
			t.Fatalf("Parse(%q) = %#v, invalid: %v", s, c, err)
		}
		text := c.String()
		c2, err := Parse(text)
		if err != nil {
			t.Fatalf("Parse(%q) = %#v; Parse(%q): %v", s, c, text, err)
		}
		if c2 != c {
			t.Fatalf("Parse(%q) = %#v; Parse(%q) = %#v", s, c, text, c2)
		}
		if text2 := c2.String(); text2 != text {
			t.Fatalf("String not canonical: %q then %q", text, text2)
		}
		b, err := c.MarshalText()
		if err != nil || string(b) != text {
			t.Fatalf("MarshalText = %q, %v; want %q", b, err, text)
		}
	})
}

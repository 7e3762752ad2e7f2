package mgtp_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/botarena/botarena/darkchess"
	"github.com/botarena/botarena/protocol/mgtp"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func TestCommands(t *testing.T) {
	for _, tt := range []struct {
		line string
		want mgtp.Command
		out  string // canonical, when not the line
	}{
		{line: "1 name", want: mgtp.Command{ID: mgtp.CmdName, Name: "name"}},
		{line: "15 time_setting 900000\n", want: mgtp.Command{ID: mgtp.CmdTimeSetting, Name: "time_setting", Args: []string{"900000"}}, out: "15 time_setting 900000"},
		{line: "16 time_left red 889436\r\n", want: mgtp.Command{ID: mgtp.CmdTimeLeft, Name: "time_left", Args: []string{"red", "889436"}}, out: "16 time_left red 889436"},
		{line: "10  move\tc4 a4  ", want: mgtp.Command{ID: mgtp.CmdMove, Name: "move", Args: []string{"c4", "a4"}}, out: "10 move c4 a4"},
		{line: "99 whatever x", want: mgtp.Command{ID: 99, Name: "whatever", Args: []string{"x"}}},
		{line: "007", want: mgtp.Command{ID: 7}, out: "7 reset_board"},
	} {
		got, err := mgtp.ParseCommand(tt.line)
		if err != nil {
			t.Errorf("ParseCommand(%q): %v", tt.line, err)
			continue
		}
		if diff := cmp.Diff(tt.want, got, cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("ParseCommand(%q) (-want +got):\n%s", tt.line, diff)
		}
		want := tt.out
		if want == "" {
			want = tt.line
		}
		if s := got.String(); s != want {
			t.Errorf("String() = %q, want %q", s, want)
		}
	}
	for _, line := range []string{"", "  ", " 1 name", "name", "-1 name", "+1 name", "1234567890 x", "x1 name"} {
		if _, err := mgtp.ParseCommand(line); !errors.Is(err, mgtp.ErrSyntax) {
			t.Errorf("ParseCommand(%q): %v, want ErrSyntax", line, err)
		}
	}
}

func TestCommandArguments(t *testing.T) {
	parse := func(s string) mgtp.Command {
		c, err := mgtp.ParseCommand(s)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	for line, want := range map[string]string{
		"10 move c4 a4": "c4-a4", "11 flip b8 K": "b8(K)", "11 flip B8 p": "b8(p)",
	} {
		if p, err := parse(line).Ply(); err != nil || p.String() != want {
			t.Errorf("%q.Ply() = %v, %v; want %s", line, p, err, want)
		}
	}
	for _, line := range []string{"10 move c4", "10 move c4 c4", "10 move c4 e1", "11 flip b8 X", "11 flip b8 Q", "11 flip z8 K", "12 genmove red"} {
		if _, err := parse(line).Ply(); !errors.Is(err, mgtp.ErrSyntax) {
			t.Errorf("%q.Ply(): %v, want ErrSyntax", line, err)
		}
	}
	for line, want := range map[string]darkchess.Color{"12 genmove red": darkchess.Red, "12 genmove BLACK": darkchess.Black, "12 genmove unknown": darkchess.NoColor} {
		if c, err := parse(line).Color(); err != nil || c != want {
			t.Errorf("%q.Color() = %v, %v", line, c, err)
		}
	}
	if _, err := parse("12 genmove green").Color(); err == nil {
		t.Error("genmove green has a colour")
	}
	if c, d, err := parse("16 time_left black 880212").TimeLeft(); err != nil || c != darkchess.Black || d != 880212*time.Millisecond {
		t.Errorf("TimeLeft: %v %v %v", c, d, err)
	}
	for _, line := range []string{"16 time_left unknown 5", "16 time_left red -5", "16 time_left red", "16 time_left red 99999999999999999999"} {
		if _, _, err := parse(line).TimeLeft(); err == nil {
			t.Errorf("%q.TimeLeft() accepted", line)
		}
	}
	if d, err := parse("15 time_settings 900000").Millis(); err != nil || d != 900*time.Second {
		t.Errorf("Millis: %v %v", d, err)
	}
	if _, err := parse("15 time_setting").Millis(); err == nil {
		t.Error("Millis of nothing")
	}
	if n, err := parse("8 num_repetition x 3").Int(); err != nil || n != 3 {
		t.Errorf("Int: %v %v", n, err)
	}
	if _, err := parse("9 num_moves_to_draw x").Int(); err == nil {
		t.Error("Int of no integer")
	}
	// init_board, and its constructor.
	v := darkchess.Opening.View(darkchess.NoColor)
	c := mgtp.InitBoardCommand(v)
	if got := c.String(); got != "18 init_board "+strings.Repeat("X ", 32)+"5 2 2 2 2 2 1 5 2 2 2 2 2 1" {
		t.Errorf("InitBoardCommand(opening) = %q", got)
	}
	board, alive, err := parse(c.String()).InitBoard()
	if err != nil || board[darkchess.A1] != darkchess.Hidden || alive[darkchess.RedPawn] != 5 || alive[darkchess.BlackKing] != 1 {
		t.Errorf("InitBoard: %v %v %v", board, alive, err)
	}
	p, err := darkchess.ParsePosition("P-P-/-K-g/-R--/-mp-/r-c-/c-PP/gk--/---- b 00000000000000 0")
	if err != nil {
		t.Fatal(err)
	}
	c = mgtp.InitBoardCommand(p.View(darkchess.Black))
	board, alive, err = parse(c.String()).InitBoard()
	if err != nil || board[darkchess.A8] != darkchess.RedPawn || board[darkchess.B7] != darkchess.RedKing || alive[darkchess.RedPawn] != 4 || alive[darkchess.BlackKing] != 1 || alive[darkchess.RedGuard] != 0 {
		t.Errorf("InitBoard(endgame0): %v %v %v", board, alive, err)
	}
	if _, _, err := parse("18 init_board " + strings.Repeat("X ", 32)).InitBoard(); err != nil {
		t.Errorf("init_board without counts: %v", err)
	}
	for _, line := range []string{"18 init_board X", "18 init_board " + strings.Repeat("Q ", 32), "18 init_board " + strings.Repeat("X ", 32) + "6 2 2 2 2 2 1 5 2 2 2 2 2 1"} {
		if _, _, err := parse(line).InitBoard(); err == nil {
			t.Errorf("InitBoard(%.40q) accepted", line)
		}
	}
	// Constructors.
	for _, tt := range []struct {
		c    mgtp.Command
		want string
	}{
		{mgtp.GenmoveCommand(darkchess.NoColor), "12 genmove unknown"},
		{mgtp.GenmoveCommand(darkchess.Black), "12 genmove black"},
		{mgtp.TimeSettingCommand(900 * time.Second), "15 time_setting 900000"},
		{mgtp.TimeLeftCommand(darkchess.Red, 899503*time.Millisecond), "16 time_left red 899503"},
		{mgtp.NewCommand(mgtp.CmdQuit), "5 quit"},
	} {
		if got := tt.c.String(); got != tt.want {
			t.Errorf("%q, want %q", got, tt.want)
		}
	}
	for ply, want := range map[string]string{"b8(K)": "11 flip b8 K", "b7-b8": "10 move b7 b8"} {
		pl, _ := darkchess.ParsePly(ply)
		if c, err := mgtp.PlyCommand(pl); err != nil || c.String() != want {
			t.Errorf("PlyCommand(%s) = %q, %v", ply, c.String(), err)
		}
	}
	if _, err := mgtp.PlyCommand(darkchess.Ply{Move: darkchess.Flip(darkchess.A1)}); err == nil {
		t.Error("PlyCommand of a flip without its piece")
	}
	if mgtp.ID(19).String() != "ID(19)" || mgtp.ID(19).Valid() || !mgtp.CmdInitBoard.Valid() {
		t.Error("ID out of range")
	}
}

func TestReplies(t *testing.T) {
	for _, tt := range []struct {
		line string
		want mgtp.Reply
		out  string
	}{
		{line: "=1 MyAI", want: mgtp.Reply{ID: 1, OK: true, Payload: "MyAI"}},
		{line: "=7", want: mgtp.Reply{ID: 7, OK: true}},
		{line: "=7 \r\n", want: mgtp.Reply{ID: 7, OK: true}, out: "=7"},
		{line: "=12 b8 b8", want: mgtp.Reply{ID: 12, OK: true, Payload: "b8 b8"}},
		{line: "?12 illegal move", want: mgtp.Reply{ID: 12, Payload: "illegal move"}},
		{line: "?3", want: mgtp.Reply{ID: 3}},
		{line: "=2  1.0.0", want: mgtp.Reply{ID: 2, OK: true, Payload: "1.0.0"}, out: "=2 1.0.0"},
	} {
		got, err := mgtp.ParseReply(tt.line)
		if err != nil || got != tt.want {
			t.Errorf("ParseReply(%q) = %+v, %v; want %+v", tt.line, got, err, tt.want)
			continue
		}
		want := tt.out
		if want == "" {
			want = tt.line
		}
		if got.String() != want {
			t.Errorf("String() = %q, want %q", got.String(), want)
		}
	}
	for _, line := range []string{"", "1 name", "=", "=x", "= 1", "=12b8 b8", "get= 5", "# call flip(): 5"} {
		if _, err := mgtp.ParseReply(line); !errors.Is(err, mgtp.ErrSyntax) {
			t.Errorf("ParseReply(%q): %v, want ErrSyntax", line, err)
		}
	}
	for payload, want := range map[string]string{"b8 b8": "b8-b8", "c4 a4": "c4-a4", "C4-A4": "c4-a4"} {
		if m, err := (mgtp.Reply{ID: 12, OK: true, Payload: payload}).Move(); err != nil || m.String() != want {
			t.Errorf("Move(%q) = %v, %v", payload, m, err)
		}
	}
	if _, err := (mgtp.Reply{ID: 12, OK: true, Payload: "a0 a0"}).Move(); !errors.Is(err, mgtp.ErrResign) {
		t.Errorf("a0 a0: %v", err)
	}
	for _, payload := range []string{"", "b8", "b8 b9", "b8 b8 b8", "x1 b8"} {
		if _, err := (mgtp.Reply{ID: 12, OK: true, Payload: payload}).Move(); !errors.Is(err, mgtp.ErrSyntax) {
			t.Errorf("Move(%q): %v, want ErrSyntax", payload, err)
		}
	}
	if r := mgtp.MoveReply(darkchess.Flip(darkchess.B8)); r.String() != "=12 b8 b8" {
		t.Errorf("MoveReply = %q", r.String())
	}
}

func FuzzParseCommand(f *testing.F) {
	for _, s := range []string{"1 name", "15 time_setting 900000", "10 move c4 a4", "11 flip b8 K", "12 genmove unknown",
		"16 time_left red 889436", "18 init_board " + strings.Repeat("X ", 32) + "5 2 2 2 2 2 1 5 2 2 2 2 2 1", "5 quit", "x", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		c, err := mgtp.ParseCommand(line)
		if err != nil {
			return
		}
		out := string(mgtp.AppendCommand(nil, c))
		c2, err := mgtp.ParseCommand(out)
		if err != nil {
			t.Fatalf("reparse of %q (from %q): %v", out, line, err)
		}
		if c.Name == "" {
			c.Name = c.ID.String()
		}
		if diff := cmp.Diff(c, c2, cmpopts.EquateEmpty()); diff != "" {
			t.Fatalf("round trip of %q via %q:\n%s", line, out, diff)
		}
		if string(mgtp.AppendCommand(nil, c2)) != out {
			t.Fatalf("canonical form not stable for %q", line)
		}
		// The typed readers never panic, and what they read writes back.
		if p, err := c.Ply(); err == nil {
			pc, err := mgtp.PlyCommand(p)
			if err != nil {
				t.Fatalf("PlyCommand(%v) from %q: %v", p, line, err)
			}
			if p2, err := pc.Ply(); err != nil || p2 != p {
				t.Fatalf("ply %v from %q rereads as %v, %v", p, line, p2, err)
			}
		}
		c.Color()
		c.TimeLeft()
		c.Millis()
		c.Int()
		c.InitBoard()
	})
}

func FuzzParseReply(f *testing.F) {
	for _, s := range []string{"=1 MyAI", "=7", "=7 ", "?12 x", "=12 b8 b8", "=12 a0 a0", "get= x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		r, err := mgtp.ParseReply(line)
		if err != nil {
			return
		}
		out := string(mgtp.AppendReply(nil, r))
		r2, err := mgtp.ParseReply(out)
		if err != nil || r2 != r {
			t.Fatalf("round trip of %q via %q: %+v, %v", line, out, r2, err)
		}
		if m, err := r.Move(); err == nil {
			r3 := mgtp.MoveReply(m)
			if m2, err := r3.Move(); err != nil || m2 != m {
				t.Fatalf("move %v from %q rereads as %v, %v", m, line, m2, err)
			}
		}
	})
}

// BenchmarkCommand parses a command line and its ply and writes it back.
func BenchmarkCommand(b *testing.B) {
	const line = "11 flip b8 K\n"
	var out []byte
	n := 0
	b.ReportAllocs()
	for b.Loop() {
		c, err := mgtp.ParseCommand(line)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := c.Ply(); err != nil {
			b.Fatal(err)
		}
		out = mgtp.AppendCommand(out[:0], c)
		n++
	}
	if string(out) != line {
		b.Fatalf("wrote %q", out)
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "lines/s")
}

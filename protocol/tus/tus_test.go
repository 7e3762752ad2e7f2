package tus_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/botarena/botarena/othello"
	"github.com/botarena/botarena/protocol/tus"
	"github.com/google/go-cmp/cmp"
)

// The initial BOARD of the 1.17 server, byte for byte.
const tusInitialBoard = "BOARD 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 1 -1 0 0 0 0 0 0 -1 1 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 \n"

func TestCommands(t *testing.T) {
	for _, tt := range []struct {
		line string
		want tus.Command
		out  string // canonical bytes
	}{
		{"NICK V1ReleaseB1\n", tus.Command{Kind: tus.Nick, Text: "V1ReleaseB1"}, "NICK V1ReleaseB1\n"},
		{"NICK  名前 \r\n", tus.Command{Kind: tus.Nick, Text: "名前"}, "NICK 名前\n"},
		{"PUT 4 2\n", tus.Command{Kind: tus.Put, X: 4, Y: 2}, "PUT 4 2\n"},
		{"PUT 4 2 \r\n", tus.Command{Kind: tus.Put, X: 4, Y: 2}, "PUT 4 2\n"},
		{"PUT 9 -1", tus.Command{Kind: tus.Put, X: 9, Y: -1}, "PUT 9 -1\n"},
		{"PUT 99999999999999999999 0", tus.Command{Kind: tus.Put, X: -1, Y: 0}, "PUT -1 0\n"},
		{"SAY hello: world ", tus.Command{Kind: tus.Say, Text: "hello: world"}, "SAY hello: world\n"},
		{"BOARD\n", tus.Command{Kind: tus.BoardRequest}, "BOARD\n"},
		{"CLOSE\r\n", tus.Command{Kind: tus.Close}, "CLOSE\n"},
	} {
		got, err := tus.ParseCommand(tt.line)
		if err != nil {
			t.Errorf("ParseCommand(%q): %v", tt.line, err)
			continue
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("ParseCommand(%q) (-want +got):\n%s", tt.line, diff)
		}
		if out := string(tus.AppendCommand(nil, got)); out != tt.out {
			t.Errorf("AppendCommand(%+v) = %q, want %q", got, out, tt.out)
		}
	}
}

// TestTUSCommandErrors: each bad line gets the error class the server maps to
// its ERROR code (malformed: 1, unknown: 4).
func TestCommandErrors(t *testing.T) {
	for _, tt := range []struct {
		line string
		want error
	}{
		{"", tus.ErrEmptyLine},
		{"\r\n", tus.ErrEmptyLine},
		{"PUT", tus.ErrMalformed},
		{"PUT 4", tus.ErrMalformed},
		{"PUT 4 2 1", tus.ErrMalformed},
		{"PUT a 2", tus.ErrMalformed},
		{"PUT 4 2.0", tus.ErrMalformed},
		{"PUT  4 2", tus.ErrMalformed},
		{"PUT - 2", tus.ErrMalformed},
		{"NICK", tus.ErrMalformed},
		{"NICK a:b", tus.ErrMalformed},
		{"NICK a b", tus.ErrMalformed},
		{"NICK [x]", tus.ErrMalformed},
		{"NICK " + strings.Repeat("n", 65), tus.ErrMalformed},
		{"NICK \xff", tus.ErrMalformed},
		{"SAY", tus.ErrMalformed},
		{"BOARD 1", tus.ErrMalformed},
		{"CLOSE now", tus.ErrMalformed},
		{"put 4 2", tus.ErrUnknownCommand},
		{"MOVE 4 2", tus.ErrUnknownCommand},
		{" PUT 4 2", tus.ErrUnknownCommand},
	} {
		_, err := tus.ParseCommand(tt.line)
		var le *tus.LineError
		if !errors.Is(err, tt.want) || !errors.As(err, &le) {
			t.Errorf("ParseCommand(%q) error = %v, want %v", tt.line, err, tt.want)
		}
	}
}

func TestEvents(t *testing.T) {
	start := othello.TUS.Start
	afterE3, _ := start.Play(othello.Place(othello.E3))
	for _, tt := range []struct {
		line string
		want tus.Event
		out  string
	}{
		{"START 1\n", tus.Event{Kind: tus.Start, Color: othello.Black}, "START 1\n"},
		{"START -1\r\n", tus.Event{Kind: tus.Start, Color: othello.White}, "START -1\n"},
		{"TURN -1", tus.Event{Kind: tus.Turn, Color: othello.White}, "TURN -1\n"},
		{tusInitialBoard, tus.BoardEvent(start), tusInitialBoard},
		{strings.TrimSuffix(tusInitialBoard, " \n"), tus.BoardEvent(start), tusInitialBoard},
		// After black's PUT 4 2: values 34, 35 and 36 are 1.
		{"BOARD 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 1 -1 0 0 0 0 0 1 1 1 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 \n",
			tus.BoardEvent(afterE3),
			"BOARD 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 1 -1 0 0 0 0 0 1 1 1 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 \n"},
		{"SAY bob: hi there", tus.Event{Kind: tus.SayRelay, Text: "bob: hi there"}, "SAY bob: hi there\n"},
		{"ERROR 4", tus.Event{Kind: tus.Error, Code: 4}, "ERROR 4\n"},
		{"END Win:[WldFinal1] WldFinal1:37 WldFinal2:27\n", tus.Event{Kind: tus.End, Text: "Win:[WldFinal1] WldFinal1:37 WldFinal2:27"}, "END Win:[WldFinal1] WldFinal1:37 WldFinal2:27\n"},
		{"CLOSE", tus.Event{Kind: tus.CloseNotice}, "CLOSE\n"},
	} {
		got, err := tus.ParseEvent(tt.line)
		if err != nil {
			t.Errorf("ParseEvent(%q): %v", tt.line, err)
			continue
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("ParseEvent(%q) (-want +got):\n%s", tt.line, diff)
		}
		if out := string(tus.AppendEvent(nil, got)); out != tt.out {
			t.Errorf("AppendEvent = %q, want %q", out, tt.out)
		}
	}
	for _, bad := range []string{"START 2", "TURN", "BOARD", "BOARD 0 0", tusInitialBoard[:len(tusInitialBoard)-2] + " 0", strings.Replace(tusInitialBoard, "-1", "2", 1), "ERROR x", "HELLO"} {
		if _, err := tus.ParseEvent(bad); err == nil {
			t.Errorf("ParseEvent(%q) succeeded", bad)
		}
	}
}

func TestEnd(t *testing.T) {
	for _, tt := range []struct {
		text string
		want tus.EndResult
	}{
		{"Win:[WldFinal1] WldFinal1:37 WldFinal2:27", tus.EndResult{Winner: "WldFinal1", Counts: []tus.NickCount{{"WldFinal1", 37}, {"WldFinal2", 27}}}},
		{"Draw a:32 b:32", tus.EndResult{Draw: true, Counts: []tus.NickCount{{"a", 32}, {"b", 32}}}},
		{"DRAW: x:y:3", tus.EndResult{Draw: true, Counts: []tus.NickCount{{"x:y", 3}}}},
		{"garbage Win:[ :x", tus.EndResult{}},
		{"", tus.EndResult{}},
	} {
		tt.want.Text = tt.text
		if diff := cmp.Diff(tt.want, tus.ParseEnd(tt.text)); diff != "" {
			t.Errorf("ParseEnd(%q) (-want +got):\n%s", tt.text, diff)
		}
	}
	r := othello.Result{Reason: othello.Discs, Winner: othello.White, Black: 20, White: 44}
	if got := tus.FormatEnd(r, "b", "w"); got != "Win:[w] b:20 w:44" {
		t.Errorf("FormatEnd = %q", got)
	}
	if got := tus.FormatEnd(othello.Result{Reason: othello.Discs, Draw: true, Black: 32, White: 32}, "b", "w"); got != "Draw b:32 w:32" {
		t.Errorf("FormatEnd draw = %q", got)
	}
}

func FuzzParseCommand(f *testing.F) {
	for _, s := range []string{"NICK a", "PUT 4 2", "PUT -0 007", "SAY x", "BOARD", "CLOSE", "", "PUT 1 2 3", "NICK \xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		c, err := tus.ParseCommand(line)
		if err != nil {
			return
		}
		out := tus.AppendCommand(nil, c)
		again, err := tus.ParseCommand(string(out))
		if err != nil || again != c {
			t.Fatalf("%q -> %+v -> %q -> %+v, %v", line, c, out, again, err)
		}
	})
}

func FuzzParseEvent(f *testing.F) {
	for _, s := range []string{tusInitialBoard, "START 1", "TURN -1", "SAY a: b", "ERROR 2", "END Win:[a] a:1 b:2", "CLOSE", "BOARD 1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		e, err := tus.ParseEvent(line)
		_ = tus.ParseEnd(line)
		if err != nil {
			return
		}
		out := tus.AppendEvent(nil, e)
		again, err := tus.ParseEvent(string(out))
		if err != nil || !cmp.Equal(again, e) {
			t.Fatalf("%q -> %+v -> %q -> %+v, %v", line, e, out, again, err)
		}
	})
}

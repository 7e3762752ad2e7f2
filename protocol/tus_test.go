package protocol_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/botarena/botarena/othello"
	"github.com/botarena/botarena/protocol"
	"github.com/google/go-cmp/cmp"
)

// The initial BOARD of the 1.17 server, byte for byte (spec §2.4).
const tusInitialBoard = "BOARD 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 1 -1 0 0 0 0 0 0 -1 1 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 \n"

func TestTUSCommands(t *testing.T) {
	for _, tt := range []struct {
		line string
		want protocol.TUSCommand
		out  string // canonical bytes
	}{
		{"NICK V1ReleaseB1\n", protocol.TUSCommand{Kind: protocol.TUSNick, Text: "V1ReleaseB1"}, "NICK V1ReleaseB1\n"},
		{"NICK  名前 \r\n", protocol.TUSCommand{Kind: protocol.TUSNick, Text: "名前"}, "NICK 名前\n"},
		{"PUT 4 2\n", protocol.TUSCommand{Kind: protocol.TUSPut, X: 4, Y: 2}, "PUT 4 2\n"},
		{"PUT 4 2 \r\n", protocol.TUSCommand{Kind: protocol.TUSPut, X: 4, Y: 2}, "PUT 4 2\n"},
		{"PUT 9 -1", protocol.TUSCommand{Kind: protocol.TUSPut, X: 9, Y: -1}, "PUT 9 -1\n"},
		{"PUT 99999999999999999999 0", protocol.TUSCommand{Kind: protocol.TUSPut, X: -1, Y: 0}, "PUT -1 0\n"},
		{"SAY hello: world ", protocol.TUSCommand{Kind: protocol.TUSSay, Text: "hello: world"}, "SAY hello: world\n"},
		{"BOARD\n", protocol.TUSCommand{Kind: protocol.TUSBoardRequest}, "BOARD\n"},
		{"CLOSE\r\n", protocol.TUSCommand{Kind: protocol.TUSClose}, "CLOSE\n"},
	} {
		got, err := protocol.ParseTUSCommand(tt.line)
		if err != nil {
			t.Errorf("ParseTUSCommand(%q): %v", tt.line, err)
			continue
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("ParseTUSCommand(%q) (-want +got):\n%s", tt.line, diff)
		}
		if out := string(protocol.AppendTUSCommand(nil, got)); out != tt.out {
			t.Errorf("AppendTUSCommand(%+v) = %q, want %q", got, out, tt.out)
		}
	}
}

// TestTUSCommandErrors: each bad line gets the error class the server maps to
// its ERROR code (malformed: 1, unknown: 4).
func TestTUSCommandErrors(t *testing.T) {
	for _, tt := range []struct {
		line string
		want error
	}{
		{"", protocol.ErrEmptyLine},
		{"\r\n", protocol.ErrEmptyLine},
		{"PUT", protocol.ErrMalformed},
		{"PUT 4", protocol.ErrMalformed},
		{"PUT 4 2 1", protocol.ErrMalformed},
		{"PUT a 2", protocol.ErrMalformed},
		{"PUT 4 2.0", protocol.ErrMalformed},
		{"PUT  4 2", protocol.ErrMalformed},
		{"PUT - 2", protocol.ErrMalformed},
		{"NICK", protocol.ErrMalformed},
		{"NICK a:b", protocol.ErrMalformed},
		{"NICK a b", protocol.ErrMalformed},
		{"NICK [x]", protocol.ErrMalformed},
		{"NICK " + strings.Repeat("n", 65), protocol.ErrMalformed},
		{"NICK \xff", protocol.ErrMalformed},
		{"SAY", protocol.ErrMalformed},
		{"BOARD 1", protocol.ErrMalformed},
		{"CLOSE now", protocol.ErrMalformed},
		{"put 4 2", protocol.ErrUnknownCommand},
		{"MOVE 4 2", protocol.ErrUnknownCommand},
		{" PUT 4 2", protocol.ErrUnknownCommand},
	} {
		_, err := protocol.ParseTUSCommand(tt.line)
		var le *protocol.LineError
		if !errors.Is(err, tt.want) || !errors.As(err, &le) {
			t.Errorf("ParseTUSCommand(%q) error = %v, want %v", tt.line, err, tt.want)
		}
	}
}

func TestTUSEvents(t *testing.T) {
	tus := othello.TUS.Start
	afterE3, _ := tus.Play(othello.Place(othello.E3))
	for _, tt := range []struct {
		line string
		want protocol.TUSEvent
		out  string
	}{
		{"START 1\n", protocol.TUSEvent{Kind: protocol.TUSStart, Color: othello.Black}, "START 1\n"},
		{"START -1\r\n", protocol.TUSEvent{Kind: protocol.TUSStart, Color: othello.White}, "START -1\n"},
		{"TURN -1", protocol.TUSEvent{Kind: protocol.TUSTurn, Color: othello.White}, "TURN -1\n"},
		{tusInitialBoard, protocol.TUSBoardEvent(tus), tusInitialBoard},
		{strings.TrimSuffix(tusInitialBoard, " \n"), protocol.TUSBoardEvent(tus), tusInitialBoard},
		// After black's PUT 4 2 (spec §3.5): values 34, 35 and 36 are 1.
		{"BOARD 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 1 -1 0 0 0 0 0 1 1 1 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 \n",
			protocol.TUSBoardEvent(afterE3),
			"BOARD 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 1 -1 0 0 0 0 0 1 1 1 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 \n"},
		{"SAY bob: hi there", protocol.TUSEvent{Kind: protocol.TUSSayRelay, Text: "bob: hi there"}, "SAY bob: hi there\n"},
		{"ERROR 4", protocol.TUSEvent{Kind: protocol.TUSError, Code: 4}, "ERROR 4\n"},
		{"END Win:[WldFinal1] WldFinal1:37 WldFinal2:27\n", protocol.TUSEvent{Kind: protocol.TUSEnd, Text: "Win:[WldFinal1] WldFinal1:37 WldFinal2:27"}, "END Win:[WldFinal1] WldFinal1:37 WldFinal2:27\n"},
		{"CLOSE", protocol.TUSEvent{Kind: protocol.TUSCloseNotice}, "CLOSE\n"},
	} {
		got, err := protocol.ParseTUSEvent(tt.line)
		if err != nil {
			t.Errorf("ParseTUSEvent(%q): %v", tt.line, err)
			continue
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("ParseTUSEvent(%q) (-want +got):\n%s", tt.line, diff)
		}
		if out := string(protocol.AppendTUSEvent(nil, got)); out != tt.out {
			t.Errorf("AppendTUSEvent = %q, want %q", out, tt.out)
		}
	}
	for _, bad := range []string{"START 2", "TURN", "BOARD", "BOARD 0 0", tusInitialBoard[:len(tusInitialBoard)-2] + " 0", strings.Replace(tusInitialBoard, "-1", "2", 1), "ERROR x", "HELLO"} {
		if _, err := protocol.ParseTUSEvent(bad); err == nil {
			t.Errorf("ParseTUSEvent(%q) succeeded", bad)
		}
	}
}

func TestTUSEnd(t *testing.T) {
	for _, tt := range []struct {
		text string
		want protocol.TUSEndResult
	}{
		{"Win:[WldFinal1] WldFinal1:37 WldFinal2:27", protocol.TUSEndResult{Winner: "WldFinal1", Counts: []protocol.TUSNickCount{{"WldFinal1", 37}, {"WldFinal2", 27}}}},
		{"Draw a:32 b:32", protocol.TUSEndResult{Draw: true, Counts: []protocol.TUSNickCount{{"a", 32}, {"b", 32}}}},
		{"DRAW: x:y:3", protocol.TUSEndResult{Draw: true, Counts: []protocol.TUSNickCount{{"x:y", 3}}}},
		{"garbage Win:[ :x", protocol.TUSEndResult{}},
		{"", protocol.TUSEndResult{}},
	} {
		tt.want.Text = tt.text
		if diff := cmp.Diff(tt.want, protocol.ParseTUSEnd(tt.text)); diff != "" {
			t.Errorf("ParseTUSEnd(%q) (-want +got):\n%s", tt.text, diff)
		}
	}
	r := othello.Result{Reason: othello.Discs, Winner: othello.White, Black: 20, White: 44}
	if got := protocol.FormatTUSEnd(r, "b", "w"); got != "Win:[w] b:20 w:44" {
		t.Errorf("FormatTUSEnd = %q", got)
	}
	if got := protocol.FormatTUSEnd(othello.Result{Reason: othello.Discs, Draw: true, Black: 32, White: 32}, "b", "w"); got != "Draw b:32 w:32" {
		t.Errorf("FormatTUSEnd draw = %q", got)
	}
}

func FuzzParseTUSCommand(f *testing.F) {
	for _, s := range []string{"NICK a", "PUT 4 2", "PUT -0 007", "SAY x", "BOARD", "CLOSE", "", "PUT 1 2 3", "NICK \xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		c, err := protocol.ParseTUSCommand(line)
		if err != nil {
			return
		}
		out := protocol.AppendTUSCommand(nil, c)
		again, err := protocol.ParseTUSCommand(string(out))
		if err != nil || again != c {
			t.Fatalf("%q -> %+v -> %q -> %+v, %v", line, c, out, again, err)
		}
	})
}

func FuzzParseTUSEvent(f *testing.F) {
	for _, s := range []string{tusInitialBoard, "START 1", "TURN -1", "SAY a: b", "ERROR 2", "END Win:[a] a:1 b:2", "CLOSE", "BOARD 1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		e, err := protocol.ParseTUSEvent(line)
		_ = protocol.ParseTUSEnd(line)
		if err != nil {
			return
		}
		out := protocol.AppendTUSEvent(nil, e)
		again, err := protocol.ParseTUSEvent(string(out))
		if err != nil || !cmp.Equal(again, e) {
			t.Fatalf("%q -> %+v -> %q -> %+v, %v", line, e, out, again, err)
		}
	})
}

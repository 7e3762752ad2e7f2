package cdcsocket_test

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/botarena/botarena/darkchess"
	"github.com/botarena/botarena/protocol/cdcsocket"
	"github.com/botarena/botarena/protocol/tus"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// The two /start_ payloads.
const (
	dcFreshStart   = "/start_8,8,8,8,8,8,8,8,8,8,8,8,8,8,8,8,8,8,8,8,8,8,8,8,8,8,8,8,8,8,8,8,1,2,2,2,2,2,5,1,2,2,2,2,2,5,0,900000"
	dcResumedStart = "/start_8,8,8,8,8,8,8,8,8,8,8,8,8,8,8,8,8,8,8,8,8,8,8,8,8,8,8,8,13,15,8,8,0,2,2,2,2,2,5,1,2,2,2,2,2,5,4,29_ 1,25_15,28_13,25-29,880212"
)

func dcPly(t *testing.T, s string) darkchess.Ply {
	t.Helper()
	p, err := darkchess.ParsePly(s)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func dcMove(t *testing.T, s string) darkchess.Move {
	t.Helper()
	m, err := darkchess.ParseMove(s)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func dcFresh() cdcsocket.Init {
	in := cdcsocket.Init{Time: 900 * time.Second}
	for i := range in.Board {
		in.Board[i] = darkchess.Hidden
	}
	for pc := darkchess.RedKing; pc <= darkchess.BlackPawn; pc++ {
		in.Alive[pc] = pc.Kind().InitialCount()
	}
	return in
}

func TestFrames(t *testing.T) {
	for _, tt := range []struct {
		payload, frame string
	}{
		{"/turn 1 2", "\x09\x00/turn 1 2"},
		{"/start", "\x06\x00/start"},
		{"/flip 1 7 1 898800", "\x12\x00/flip 1 7 1 898800"},
		{"/move 1 6 1 7 898300", "\x14\x00/move 1 6 1 7 898300"},
		{dcFreshStart, "\x6b\x00" + dcFreshStart},
		{dcResumedStart, "\x05\x01" + dcResumedStart},
		{"", "\x00\x00"},
		{strings.Repeat("x", cdcsocket.FrameMax), "\x7f\x7f" + strings.Repeat("x", cdcsocket.FrameMax)},
	} {
		got, err := cdcsocket.AppendFrame([]byte("pre"), []byte(tt.payload))
		if err != nil || string(got) != "pre"+tt.frame {
			t.Errorf("AppendFrame(%.20q) = %.30q, %v; want %.30q", tt.payload, got, err, tt.frame)
		}
		p, rest, err := cdcsocket.ParseFrame([]byte(tt.frame + "tail"))
		if err != nil || string(p) != tt.payload || string(rest) != "tail" {
			t.Errorf("ParseFrame(%.30q) = %.20q, %q, %v", tt.frame, p, rest, err)
		}
		p, err = cdcsocket.ReadFrame(strings.NewReader(tt.frame), nil)
		if err != nil || string(p) != tt.payload {
			t.Errorf("ReadFrame(%.30q) = %.20q, %v", tt.frame, p, err)
		}
	}
	if _, err := cdcsocket.AppendFrame(nil, make([]byte, cdcsocket.FrameMax+1)); err == nil {
		t.Error("AppendFrame accepted a payload over the maximum")
	}
	for _, tt := range []struct {
		data string
		want error
	}{
		{"", io.EOF},
		{"\x05", io.ErrUnexpectedEOF},
		{"\x05\x00/sta", io.ErrUnexpectedEOF},
		{"\x80\x00", cdcsocket.ErrFrame},
		{"\x00\x80", cdcsocket.ErrFrame},
	} {
		if _, _, err := cdcsocket.ParseFrame([]byte(tt.data)); !errors.Is(err, tt.want) {
			t.Errorf("ParseFrame(%q): %v, want %v", tt.data, err, tt.want)
		}
		if _, err := cdcsocket.ReadFrame(strings.NewReader(tt.data), nil); !errors.Is(err, tt.want) {
			t.Errorf("ReadFrame(%q): %v, want %v", tt.data, err, tt.want)
		}
	}
}

func TestMessages(t *testing.T) {
	resumed := dcFresh()
	resumed.Board[darkchess.A8] = darkchess.BlackKnight
	resumed.Board[darkchess.B8] = darkchess.BlackPawn
	// The manual's example leaves b7 face-down after b7-b8 (a typo there, kept
	// here: the bytes are what they are).
	resumed.Alive[darkchess.RedKing] = 0
	resumed.History = []darkchess.Ply{dcPly(t, "b8(K)"), dcPly(t, "b7(p)"), dcPly(t, "a8(n)"), dcPly(t, "b7-b8")}
	resumed.Time = 880212 * time.Millisecond
	for _, tt := range []struct {
		in   string
		want cdcsocket.Message
		out  string // the canonical payload, when not in
	}{
		{in: dcFreshStart, want: cdcsocket.Message{Kind: cdcsocket.StartMsg, Init: dcFresh()}},
		{in: dcResumedStart, want: cdcsocket.Message{Kind: cdcsocket.StartMsg, Init: resumed}},
		{in: "/start", want: cdcsocket.Message{Kind: cdcsocket.StartAck}},
		{in: "/start\x00", want: cdcsocket.Message{Kind: cdcsocket.StartAck}, out: "/start"},
		{in: "/turn 1 2", want: cdcsocket.Message{Kind: cdcsocket.TurnMsg, First: true, Color: darkchess.NoColor}},
		{in: "/turn 0 1", want: cdcsocket.Message{Kind: cdcsocket.TurnMsg, Color: darkchess.Black}},
		{in: "/turn  0\t0 ", want: cdcsocket.Message{Kind: cdcsocket.TurnMsg, Color: darkchess.Red}, out: "/turn 0 0"},
		{in: "/turn", want: cdcsocket.Message{Kind: cdcsocket.TurnAck}},
		{in: "/flip 1 7", want: cdcsocket.Message{Kind: cdcsocket.PlyMsg, Move: darkchess.Flip(darkchess.B8)}},
		{in: "/move 3 4 2 4", want: cdcsocket.Message{Kind: cdcsocket.PlyMsg, Move: dcMove(t, "d5-c5")}},
		{in: "/flip 1 7 1 898800", want: cdcsocket.Message{Kind: cdcsocket.PlyReport, Ply: dcPly(t, "b8(K)"), Time: 898800 * time.Millisecond}},
		{in: "/flip 1 6 15 898800", want: cdcsocket.Message{Kind: cdcsocket.PlyReport, Ply: dcPly(t, "b7(p)"), Time: 898800 * time.Millisecond}},
		{in: "/move 1 6 1 7 898300", want: cdcsocket.Message{Kind: cdcsocket.PlyReport, Ply: dcPly(t, "b7-b8"), Time: 898300 * time.Millisecond}},
		{in: "/move 1 6 1 7 -5", want: cdcsocket.Message{Kind: cdcsocket.PlyReport, Ply: dcPly(t, "b7-b8"), Time: -5 * time.Millisecond}},
		{in: "/askAction", want: cdcsocket.Message{Kind: cdcsocket.AskAction}},
		{in: "/color 1", want: cdcsocket.Message{Kind: cdcsocket.ColorMsg, Color: darkchess.Black}},
	} {
		got, err := cdcsocket.ParseMessage([]byte(tt.in))
		if err != nil {
			t.Errorf("ParseMessage(%q): %v", tt.in, err)
			continue
		}
		if diff := cmp.Diff(tt.want, got, cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("ParseMessage(%q) (-want +got):\n%s", tt.in, diff)
		}
		want := tt.out
		if want == "" {
			want = tt.in
		}
		if out, err := cdcsocket.AppendMessage(nil, got); err != nil || string(out) != want {
			t.Errorf("AppendMessage(%+v) = %q, %v; want %q", got, out, err, want)
		}
	}
}

func TestMessageErrors(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want error
	}{
		{"", tus.ErrEmptyLine},
		{"\x00", tus.ErrEmptyLine},
		{"/exit", tus.ErrUnknownCommand},
		{"/move a3-a4", tus.ErrMalformed},
		{"/flip a3", tus.ErrMalformed},
		{"hello", tus.ErrUnknownCommand},
		{"/start now", tus.ErrMalformed},
		{"/turn 1", tus.ErrMalformed},
		{"/turn 2 0", tus.ErrMalformed},
		{"/turn 1 3", tus.ErrMalformed},
		{"/turn +1 0", tus.ErrMalformed},
		{"/color", tus.ErrMalformed},
		{"/color 7", tus.ErrMalformed},
		{"/askAction now", tus.ErrMalformed},
		{"/move 1 2 3", tus.ErrMalformed},
		{"/move 1 2 1 2", tus.ErrMalformed},
		{"/move 4 0 3 0", tus.ErrMalformed},
		{"/move 0 0 0 8", tus.ErrMalformed},
		{"/flip 1 7 8 100", tus.ErrMalformed},
		{"/flip 1 7 0 100", tus.ErrMalformed},
		{"/flip 1 7 16 100", tus.ErrMalformed},
		{"/flip 1 7 -1 100", tus.ErrMalformed},
		{"/flip 1 7 1", tus.ErrMalformed},
		{"/flip 1 7 1 99999999999999999999", tus.ErrMalformed},
		{"/flip 1 7 1 9223372036854775", tus.ErrMalformed},
		{"/start_1,2,3", tus.ErrMalformed},
		{strings.Replace(dcFreshStart, ",0,900000", ",1,900000", 1), tus.ErrMalformed},
		{strings.Replace(dcFreshStart, "8,", "16,", 1), tus.ErrMalformed},
		{strings.Replace(dcFreshStart, ",1,2,2,2,2,2,5,", ",2,2,2,2,2,2,5,", 1), tus.ErrMalformed},
		{strings.Replace(dcResumedStart, "29_ 1", "29_ 8", 1), tus.ErrMalformed},
		{strings.Replace(dcResumedStart, "29_ 1", "32_ 1", 1), tus.ErrMalformed},
		{strings.Replace(dcResumedStart, "25-29", "25-25", 1), tus.ErrMalformed},
		{strings.Replace(dcResumedStart, "25-29", "25+29", 1), tus.ErrMalformed},
		{strings.Replace(dcResumedStart, "25-29", "25--9", 1), tus.ErrMalformed},
		{strings.Replace(dcResumedStart, ",880212", ",x", 1), tus.ErrMalformed},
	} {
		_, err := cdcsocket.ParseMessage([]byte(tt.in))
		if !errors.Is(err, tt.want) {
			t.Errorf("ParseMessage(%q): %v, want %v", tt.in, err, tt.want)
		}
		var le *tus.LineError
		if err != nil && !errors.As(err, &le) {
			t.Errorf("ParseMessage(%q): %T is not a *LineError", tt.in, err)
		}
	}
	for _, m := range []cdcsocket.Message{
		{},
		{Kind: 99},
		{Kind: cdcsocket.TurnMsg, Color: 3},
		{Kind: cdcsocket.ColorMsg, Color: 3},
		{Kind: cdcsocket.PlyMsg, Move: darkchess.NoMove},
		{Kind: cdcsocket.PlyReport, Ply: darkchess.Ply{Move: darkchess.Flip(darkchess.A1)}},
		{Kind: cdcsocket.PlyReport, Ply: darkchess.Ply{Move: dcMove(t, "a1-a2"), Piece: darkchess.RedKing}},
		{Kind: cdcsocket.PlyReport, Ply: darkchess.Ply{Move: darkchess.NoMove}},
		{Kind: cdcsocket.StartMsg, Init: cdcsocket.Init{Board: [32]darkchess.Piece{16}}},
		{Kind: cdcsocket.StartMsg, Init: cdcsocket.Init{Alive: [16]int{darkchess.Hidden: 1}}},
		{Kind: cdcsocket.StartMsg, Init: cdcsocket.Init{Alive: [16]int{darkchess.RedKing: 2}}},
		{Kind: cdcsocket.StartMsg, Init: cdcsocket.Init{History: []darkchess.Ply{{Move: darkchess.NoMove}}}},
	} {
		if out, err := cdcsocket.AppendMessage([]byte("x"), m); err == nil || string(out) != "x" {
			t.Errorf("AppendMessage(%+v) = %q, %v; want an error and b unchanged", m, out, err)
		}
	}
}

// TestDarkChessInitView rebuilds the views of the two /start_ examples.
func TestInitView(t *testing.T) {
	m, err := cdcsocket.ParseMessage([]byte(dcResumedStart))
	if err != nil {
		t.Fatal(err)
	}
	in := m.Init
	// The first player flipped a red king: it is red, and after 4 plies it
	// is to move.
	v, err := in.View(true, darkchess.NoColor)
	if err != nil {
		t.Fatal(err)
	}
	const want = "npXX/X-XX/XXXX/XXXX/XXXX/XXXX/XXXX/XXXX r 02222251222124 0"
	if v.String() != want || v.Viewer() != darkchess.Red || len(v.History) != 4 {
		t.Errorf("first player's view: %s, viewer %v, history %v; want %s", v, v.Viewer(), v.History, want)
	}
	if v.TimeLeft != [2]time.Duration{880212 * time.Millisecond, 0} {
		t.Errorf("TimeLeft = %v", v.TimeLeft)
	}
	// The second player (black) is not to move.
	v, err = in.View(false, darkchess.Black)
	if err != nil || v.Turn() != darkchess.Red || v.Viewer() != darkchess.Black {
		t.Errorf("second player's view: %s, %v", v, err)
	}
	// A history that does not lead to the board: built from the board, with
	// the counter at 0 and the history as given.
	odd := in
	odd.Board[darkchess.B7] = darkchess.NoPiece
	odd.History = odd.History[:3]
	v, err = odd.View(false, darkchess.NoColor)
	if err != nil || v.String() != "npXX/X-XX/XXXX/XXXX/XXXX/XXXX/XXXX/XXXX b 02222251222124 0" || len(v.History) != 3 || v.Viewer() != darkchess.Black {
		t.Errorf("view of a mismatched history: %s, %v, %v", v, v.History, err)
	}
	// A fresh game.
	v, err = dcFresh().View(false, darkchess.NoColor)
	if err != nil || v.Position() != darkchess.Opening || v.Turn() != darkchess.NoColor {
		t.Errorf("fresh view: %s, %v", v, err)
	}
	// Counts that do not fit the board.
	bad := dcFresh()
	bad.Alive[darkchess.RedKing] = 0
	if _, err := bad.View(true, darkchess.NoColor); err == nil {
		t.Error("View accepted counts that do not fit the board")
	}
	// cdcsocket.NewInit is the inverse.
	back := cdcsocket.NewInit(v, 900*time.Second)
	if diff := cmp.Diff(dcFresh(), back, cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("NewInit(fresh) (-want +got):\n%s", diff)
	}
	rv, _ := in.View(true, darkchess.NoColor)
	in.Board[darkchess.B7] = darkchess.NoPiece // what the example should have said
	if diff := cmp.Diff(in, cdcsocket.NewInit(rv, in.Time)); diff != "" {
		t.Errorf("NewInit(resumed) (-want +got):\n%s", diff)
	}
}

func FuzzParseMessage(f *testing.F) {
	for _, s := range []string{
		dcFreshStart, dcResumedStart, "/start", "/turn 1 2", "/turn", "/flip 1 7", "/move 3 4 2 4",
		"/flip 1 7 1 898800", "/move 1 6 1 7 898300", "/askAction", "/color 0", "/exit", "",
		"/start_0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,-1",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, payload []byte) {
		m, err := cdcsocket.ParseMessage(payload)
		if err != nil {
			return
		}
		out, err := cdcsocket.AppendMessage(nil, m)
		if err != nil {
			t.Fatalf("AppendMessage of parsed %q: %v", payload, err)
		}
		m2, err := cdcsocket.ParseMessage(out)
		if err != nil {
			t.Fatalf("reparse of %q (from %q): %v", out, payload, err)
		}
		if diff := cmp.Diff(m, m2, cmpopts.EquateEmpty()); diff != "" {
			t.Fatalf("round trip of %q via %q (-first +second):\n%s", payload, out, diff)
		}
		if out2, _ := cdcsocket.AppendMessage(nil, m2); !bytes.Equal(out, out2) {
			t.Fatalf("canonical form not stable: %q then %q", out, out2)
		}
		if m.Kind == cdcsocket.StartMsg {
			// Whatever the counts, View fails or gives a view; it never panics.
			m.Init.View(len(payload)%2 == 0, darkchess.Color(len(payload)%3))
		}
	})
}

func FuzzParseFrame(f *testing.F) {
	f.Add([]byte("\x09\x00/turn 1 2\x06\x00/start"))
	f.Add([]byte("\x6b\x00" + dcFreshStart))
	f.Add([]byte("\x7f\x7f"))
	f.Add([]byte("\x80\x00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		var payloads [][]byte
		rest := data
		for {
			p, r, err := cdcsocket.ParseFrame(rest)
			if err != nil {
				break
			}
			payloads = append(payloads, p)
			rest = r
		}
		// Reading the same bytes as a stream gives the same frames.
		rd := bytes.NewReader(data)
		for i := 0; ; i++ {
			p, err := cdcsocket.ReadFrame(rd, nil)
			if err != nil {
				if i != len(payloads) {
					t.Fatalf("stream read %d frames, parse %d", i, len(payloads))
				}
				break
			}
			if i >= len(payloads) || !bytes.Equal(p, payloads[i]) {
				t.Fatalf("frame %d differs", i)
			}
		}
		// Framing again gives the bytes consumed.
		var b []byte
		for _, p := range payloads {
			var err error
			if b, err = cdcsocket.AppendFrame(b, p); err != nil {
				t.Fatal(err)
			}
		}
		if !bytes.Equal(b, data[:len(data)-len(rest)]) {
			t.Fatalf("reframed %q, consumed %q", b, data[:len(data)-len(rest)])
		}
	})
}

// BenchmarkDarkChessMessage parses and writes back a ply report, framed.
func BenchmarkMessage(b *testing.B) {
	frame := []byte("\x14\x00/move 1 6 1 7 898300")
	var out []byte
	n := 0
	b.ReportAllocs()
	for b.Loop() {
		payload, _, err := cdcsocket.ParseFrame(frame)
		if err != nil {
			b.Fatal(err)
		}
		m, err := cdcsocket.ParseMessage(payload)
		if err != nil {
			b.Fatal(err)
		}
		if out, err = cdcsocket.AppendMessage(out[:0], m); err != nil {
			b.Fatal(err)
		}
		n++
	}
	if !bytes.Equal(out, frame[2:]) {
		b.Fatalf("wrote %q", out)
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "messages/s")
}

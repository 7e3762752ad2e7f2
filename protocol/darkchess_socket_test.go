package protocol_test

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/botarena/botarena/darkchess"
	"github.com/botarena/botarena/protocol"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// The two /start_ payloads of spec §4.4.
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

func dcFresh() protocol.DarkChessInit {
	in := protocol.DarkChessInit{Time: 900 * time.Second}
	for i := range in.Board {
		in.Board[i] = darkchess.Hidden
	}
	for pc := darkchess.RedKing; pc <= darkchess.BlackPawn; pc++ {
		in.Alive[pc] = pc.Kind().InitialCount()
	}
	return in
}

func TestDarkChessFrames(t *testing.T) {
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
		{strings.Repeat("x", protocol.DarkChessFrameMax), "\x7f\x7f" + strings.Repeat("x", protocol.DarkChessFrameMax)},
	} {
		got, err := protocol.AppendDarkChessFrame([]byte("pre"), []byte(tt.payload))
		if err != nil || string(got) != "pre"+tt.frame {
			t.Errorf("AppendDarkChessFrame(%.20q) = %.30q, %v; want %.30q", tt.payload, got, err, tt.frame)
		}
		p, rest, err := protocol.ParseDarkChessFrame([]byte(tt.frame + "tail"))
		if err != nil || string(p) != tt.payload || string(rest) != "tail" {
			t.Errorf("ParseDarkChessFrame(%.30q) = %.20q, %q, %v", tt.frame, p, rest, err)
		}
		p, err = protocol.ReadDarkChessFrame(strings.NewReader(tt.frame), nil)
		if err != nil || string(p) != tt.payload {
			t.Errorf("ReadDarkChessFrame(%.30q) = %.20q, %v", tt.frame, p, err)
		}
	}
	if _, err := protocol.AppendDarkChessFrame(nil, make([]byte, protocol.DarkChessFrameMax+1)); err == nil {
		t.Error("AppendDarkChessFrame accepted a payload over the maximum")
	}
	for _, tt := range []struct {
		data string
		want error
	}{
		{"", io.EOF},
		{"\x05", io.ErrUnexpectedEOF},
		{"\x05\x00/sta", io.ErrUnexpectedEOF},
		{"\x80\x00", protocol.ErrDarkChessFrame},
		{"\x00\x80", protocol.ErrDarkChessFrame},
	} {
		if _, _, err := protocol.ParseDarkChessFrame([]byte(tt.data)); !errors.Is(err, tt.want) {
			t.Errorf("ParseDarkChessFrame(%q): %v, want %v", tt.data, err, tt.want)
		}
		if _, err := protocol.ReadDarkChessFrame(strings.NewReader(tt.data), nil); !errors.Is(err, tt.want) {
			t.Errorf("ReadDarkChessFrame(%q): %v, want %v", tt.data, err, tt.want)
		}
	}
}

func TestDarkChessMessages(t *testing.T) {
	resumed := dcFresh()
	resumed.Board[darkchess.A8] = darkchess.BlackKnight
	resumed.Board[darkchess.B8] = darkchess.BlackPawn
	// The spec's example leaves b7 face-down after b7-b8 (a typo there, kept
	// here: the bytes are what they are).
	resumed.Alive[darkchess.RedKing] = 0
	resumed.History = []darkchess.Ply{dcPly(t, "b8(K)"), dcPly(t, "b7(p)"), dcPly(t, "a8(n)"), dcPly(t, "b7-b8")}
	resumed.Time = 880212 * time.Millisecond
	for _, tt := range []struct {
		in   string
		want protocol.DarkChessMessage
		out  string // the canonical payload, when not in
	}{
		{in: dcFreshStart, want: protocol.DarkChessMessage{Kind: protocol.DarkChessStartMsg, Init: dcFresh()}},
		{in: dcResumedStart, want: protocol.DarkChessMessage{Kind: protocol.DarkChessStartMsg, Init: resumed}},
		{in: "/start", want: protocol.DarkChessMessage{Kind: protocol.DarkChessStartAck}},
		{in: "/start\x00", want: protocol.DarkChessMessage{Kind: protocol.DarkChessStartAck}, out: "/start"},
		{in: "/turn 1 2", want: protocol.DarkChessMessage{Kind: protocol.DarkChessTurnMsg, First: true, Color: darkchess.NoColor}},
		{in: "/turn 0 1", want: protocol.DarkChessMessage{Kind: protocol.DarkChessTurnMsg, Color: darkchess.Black}},
		{in: "/turn  0\t0 ", want: protocol.DarkChessMessage{Kind: protocol.DarkChessTurnMsg, Color: darkchess.Red}, out: "/turn 0 0"},
		{in: "/turn", want: protocol.DarkChessMessage{Kind: protocol.DarkChessTurnAck}},
		{in: "/flip 1 7", want: protocol.DarkChessMessage{Kind: protocol.DarkChessPlyMsg, Move: darkchess.Flip(darkchess.B8)}},
		{in: "/move 3 4 2 4", want: protocol.DarkChessMessage{Kind: protocol.DarkChessPlyMsg, Move: dcMove(t, "d5-c5")}},
		{in: "/flip 1 7 1 898800", want: protocol.DarkChessMessage{Kind: protocol.DarkChessPlyReport, Ply: dcPly(t, "b8(K)"), Time: 898800 * time.Millisecond}},
		{in: "/flip 1 6 15 898800", want: protocol.DarkChessMessage{Kind: protocol.DarkChessPlyReport, Ply: dcPly(t, "b7(p)"), Time: 898800 * time.Millisecond}},
		{in: "/move 1 6 1 7 898300", want: protocol.DarkChessMessage{Kind: protocol.DarkChessPlyReport, Ply: dcPly(t, "b7-b8"), Time: 898300 * time.Millisecond}},
		{in: "/move 1 6 1 7 -5", want: protocol.DarkChessMessage{Kind: protocol.DarkChessPlyReport, Ply: dcPly(t, "b7-b8"), Time: -5 * time.Millisecond}},
		{in: "/askAction", want: protocol.DarkChessMessage{Kind: protocol.DarkChessAskAction}},
		{in: "/color 1", want: protocol.DarkChessMessage{Kind: protocol.DarkChessColorMsg, Color: darkchess.Black}},
	} {
		got, err := protocol.ParseDarkChessMessage([]byte(tt.in))
		if err != nil {
			t.Errorf("ParseDarkChessMessage(%q): %v", tt.in, err)
			continue
		}
		if diff := cmp.Diff(tt.want, got, cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("ParseDarkChessMessage(%q) (-want +got):\n%s", tt.in, diff)
		}
		want := tt.out
		if want == "" {
			want = tt.in
		}
		if out, err := protocol.AppendDarkChessMessage(nil, got); err != nil || string(out) != want {
			t.Errorf("AppendDarkChessMessage(%+v) = %q, %v; want %q", got, out, err, want)
		}
	}
}

func TestDarkChessMessageErrors(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want error
	}{
		{"", protocol.ErrEmptyLine},
		{"\x00", protocol.ErrEmptyLine},
		{"/exit", protocol.ErrUnknownCommand},
		{"/move a3-a4", protocol.ErrMalformed},
		{"/flip a3", protocol.ErrMalformed},
		{"hello", protocol.ErrUnknownCommand},
		{"/start now", protocol.ErrMalformed},
		{"/turn 1", protocol.ErrMalformed},
		{"/turn 2 0", protocol.ErrMalformed},
		{"/turn 1 3", protocol.ErrMalformed},
		{"/turn +1 0", protocol.ErrMalformed},
		{"/color", protocol.ErrMalformed},
		{"/color 7", protocol.ErrMalformed},
		{"/askAction now", protocol.ErrMalformed},
		{"/move 1 2 3", protocol.ErrMalformed},
		{"/move 1 2 1 2", protocol.ErrMalformed},
		{"/move 4 0 3 0", protocol.ErrMalformed},
		{"/move 0 0 0 8", protocol.ErrMalformed},
		{"/flip 1 7 8 100", protocol.ErrMalformed},
		{"/flip 1 7 0 100", protocol.ErrMalformed},
		{"/flip 1 7 16 100", protocol.ErrMalformed},
		{"/flip 1 7 -1 100", protocol.ErrMalformed},
		{"/flip 1 7 1", protocol.ErrMalformed},
		{"/flip 1 7 1 99999999999999999999", protocol.ErrMalformed},
		{"/flip 1 7 1 9223372036854775", protocol.ErrMalformed},
		{"/start_1,2,3", protocol.ErrMalformed},
		{strings.Replace(dcFreshStart, ",0,900000", ",1,900000", 1), protocol.ErrMalformed},
		{strings.Replace(dcFreshStart, "8,", "16,", 1), protocol.ErrMalformed},
		{strings.Replace(dcFreshStart, ",1,2,2,2,2,2,5,", ",2,2,2,2,2,2,5,", 1), protocol.ErrMalformed},
		{strings.Replace(dcResumedStart, "29_ 1", "29_ 8", 1), protocol.ErrMalformed},
		{strings.Replace(dcResumedStart, "29_ 1", "32_ 1", 1), protocol.ErrMalformed},
		{strings.Replace(dcResumedStart, "25-29", "25-25", 1), protocol.ErrMalformed},
		{strings.Replace(dcResumedStart, "25-29", "25+29", 1), protocol.ErrMalformed},
		{strings.Replace(dcResumedStart, "25-29", "25--9", 1), protocol.ErrMalformed},
		{strings.Replace(dcResumedStart, ",880212", ",x", 1), protocol.ErrMalformed},
	} {
		_, err := protocol.ParseDarkChessMessage([]byte(tt.in))
		if !errors.Is(err, tt.want) {
			t.Errorf("ParseDarkChessMessage(%q): %v, want %v", tt.in, err, tt.want)
		}
		var le *protocol.LineError
		if err != nil && !errors.As(err, &le) {
			t.Errorf("ParseDarkChessMessage(%q): %T is not a *LineError", tt.in, err)
		}
	}
	for _, m := range []protocol.DarkChessMessage{
		{},
		{Kind: 99},
		{Kind: protocol.DarkChessTurnMsg, Color: 3},
		{Kind: protocol.DarkChessColorMsg, Color: 3},
		{Kind: protocol.DarkChessPlyMsg, Move: darkchess.NoMove},
		{Kind: protocol.DarkChessPlyReport, Ply: darkchess.Ply{Move: darkchess.Flip(darkchess.A1)}},
		{Kind: protocol.DarkChessPlyReport, Ply: darkchess.Ply{Move: dcMove(t, "a1-a2"), Piece: darkchess.RedKing}},
		{Kind: protocol.DarkChessPlyReport, Ply: darkchess.Ply{Move: darkchess.NoMove}},
		{Kind: protocol.DarkChessStartMsg, Init: protocol.DarkChessInit{Board: [32]darkchess.Piece{16}}},
		{Kind: protocol.DarkChessStartMsg, Init: protocol.DarkChessInit{Alive: [16]int{darkchess.Hidden: 1}}},
		{Kind: protocol.DarkChessStartMsg, Init: protocol.DarkChessInit{Alive: [16]int{darkchess.RedKing: 2}}},
		{Kind: protocol.DarkChessStartMsg, Init: protocol.DarkChessInit{History: []darkchess.Ply{{Move: darkchess.NoMove}}}},
	} {
		if out, err := protocol.AppendDarkChessMessage([]byte("x"), m); err == nil || string(out) != "x" {
			t.Errorf("AppendDarkChessMessage(%+v) = %q, %v; want an error and b unchanged", m, out, err)
		}
	}
}

// TestDarkChessInitView rebuilds the views of spec §4.4's examples.
func TestDarkChessInitView(t *testing.T) {
	m, err := protocol.ParseDarkChessMessage([]byte(dcResumedStart))
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
	// NewDarkChessInit is the inverse.
	back := protocol.NewDarkChessInit(v, 900*time.Second)
	if diff := cmp.Diff(dcFresh(), back, cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("NewDarkChessInit(fresh) (-want +got):\n%s", diff)
	}
	rv, _ := in.View(true, darkchess.NoColor)
	in.Board[darkchess.B7] = darkchess.NoPiece // what the example should have said
	if diff := cmp.Diff(in, protocol.NewDarkChessInit(rv, in.Time)); diff != "" {
		t.Errorf("NewDarkChessInit(resumed) (-want +got):\n%s", diff)
	}
}

func FuzzParseDarkChessMessage(f *testing.F) {
	for _, s := range []string{
		dcFreshStart, dcResumedStart, "/start", "/turn 1 2", "/turn", "/flip 1 7", "/move 3 4 2 4",
		"/flip 1 7 1 898800", "/move 1 6 1 7 898300", "/askAction", "/color 0", "/exit", "",
		"/start_0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,-1",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, payload []byte) {
		m, err := protocol.ParseDarkChessMessage(payload)
		if err != nil {
			return
		}
		out, err := protocol.AppendDarkChessMessage(nil, m)
		if err != nil {
			t.Fatalf("AppendDarkChessMessage of parsed %q: %v", payload, err)
		}
		m2, err := protocol.ParseDarkChessMessage(out)
		if err != nil {
			t.Fatalf("reparse of %q (from %q): %v", out, payload, err)
		}
		if diff := cmp.Diff(m, m2, cmpopts.EquateEmpty()); diff != "" {
			t.Fatalf("round trip of %q via %q (-first +second):\n%s", payload, out, diff)
		}
		if out2, _ := protocol.AppendDarkChessMessage(nil, m2); !bytes.Equal(out, out2) {
			t.Fatalf("canonical form not stable: %q then %q", out, out2)
		}
		if m.Kind == protocol.DarkChessStartMsg {
			// Whatever the counts, View fails or gives a view; it never panics.
			m.Init.View(len(payload)%2 == 0, darkchess.Color(len(payload)%3))
		}
	})
}

func FuzzParseDarkChessFrame(f *testing.F) {
	f.Add([]byte("\x09\x00/turn 1 2\x06\x00/start"))
	f.Add([]byte("\x6b\x00" + dcFreshStart))
	f.Add([]byte("\x7f\x7f"))
	f.Add([]byte("\x80\x00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		var payloads [][]byte
		rest := data
		for {
			p, r, err := protocol.ParseDarkChessFrame(rest)
			if err != nil {
				break
			}
			payloads = append(payloads, p)
			rest = r
		}
		// Reading the same bytes as a stream gives the same frames.
		rd := bytes.NewReader(data)
		for i := 0; ; i++ {
			p, err := protocol.ReadDarkChessFrame(rd, nil)
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
			if b, err = protocol.AppendDarkChessFrame(b, p); err != nil {
				t.Fatal(err)
			}
		}
		if !bytes.Equal(b, data[:len(data)-len(rest)]) {
			t.Fatalf("reframed %q, consumed %q", b, data[:len(data)-len(rest)])
		}
	})
}

// BenchmarkDarkChessMessage parses and writes back a ply report, framed.
func BenchmarkDarkChessMessage(b *testing.B) {
	frame := []byte("\x14\x00/move 1 6 1 7 898300")
	var out []byte
	n := 0
	b.ReportAllocs()
	for b.Loop() {
		payload, _, err := protocol.ParseDarkChessFrame(frame)
		if err != nil {
			b.Fatal(err)
		}
		m, err := protocol.ParseDarkChessMessage(payload)
		if err != nil {
			b.Fatal(err)
		}
		if out, err = protocol.AppendDarkChessMessage(out[:0], m); err != nil {
			b.Fatal(err)
		}
		n++
	}
	if !bytes.Equal(out, frame[2:]) {
		b.Fatalf("wrote %q", out)
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "messages/s")
}

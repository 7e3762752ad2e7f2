package gat

import (
	"errors"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/botarena/botarena/geister"
	"github.com/botarena/botarena/geister/geistertest"
	"github.com/botarena/botarena/protocol/tus"
)

func TestCommands(t *testing.T) {
	reds := func(s string) geister.Reds {
		r, err := geister.ParseReds(s)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	move := func(s string) geister.Move {
		m, err := geister.ParseMove(s)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	for _, tc := range []struct {
		line, canon string
		want        Command
	}{
		{"SET:BCDE\r\n", "SET:BCDE", Command{Kind: Set, Reds: reds("BCDE")}},
		{"SET:bcde", "SET:BCDE", Command{Kind: Set, Reds: reds("BCDE")}},
		{"SET:EdCb\n", "SET:BCDE", Command{Kind: Set, Reds: reds("BCDE")}},
		{"MOV:A,NORTH\r\n", "MOV:A,NORTH", Command{Kind: Move, Move: move("A,NORTH")}},
		{"MOV:a,s", "MOV:A,SOUTH", Command{Kind: Move, Move: move("A,SOUTH")}},
		{"MOV:H,east", "MOV:H,EAST", Command{Kind: Move, Move: move("H,EAST")}},
		{"MOV:G,W", "MOV:G,WEST", Command{Kind: Move, Move: move("G,WEST")}},
	} {
		got, err := ParseCommand(tc.line)
		if err != nil || got != tc.want {
			t.Errorf("ParseCommand(%q) = %+v, %v; want %+v", tc.line, got, err, tc.want)
			continue
		}
		if s := string(AppendCommand(nil, got)); s != tc.canon+"\r\n" {
			t.Errorf("AppendCommand(%+v) = %q, want %q", got, s, tc.canon+"\r\n")
		}
	}
	for _, tc := range []struct {
		line string
		err  error
	}{
		{"", tus.ErrEmptyLine},
		{"\r\n", tus.ErrEmptyLine},
		{" ", tus.ErrUnknownCommand},
		{"HELLO", tus.ErrUnknownCommand},
		{"set:BCDE", tus.ErrUnknownCommand},
		{"mov:A,N", tus.ErrUnknownCommand},
		{" MOV:A,N", tus.ErrUnknownCommand},
		{"SET:ABC", tus.ErrMalformed},
		{"SET:ABCDE", tus.ErrMalformed},
		{"SET:AAAA", tus.ErrMalformed},
		{"SET:ZZZZ", tus.ErrMalformed},
		{"SET:1234", tus.ErrMalformed},
		{"SET:SET:ABCD", tus.ErrMalformed},
		{"SET:ABCD ", tus.ErrMalformed},
		{"SET:", tus.ErrMalformed},
		{"MOV:A,UP", tus.ErrMalformed},
		{"MOV:,N", tus.ErrMalformed},
		{"MOV:Abc,N", tus.ErrMalformed},
		{"MOV:I,N", tus.ErrMalformed},
		{"MOV:A,N ", tus.ErrMalformed},
		{"MOV:MOV:A,N", tus.ErrMalformed},
		{"MOV:A", tus.ErrMalformed},
		{"MOV:", tus.ErrMalformed},
	} {
		_, err := ParseCommand(tc.line)
		var le *tus.LineError
		if !errors.Is(err, tc.err) || !errors.As(err, &le) || le.Offset < 0 || le.Offset > len(le.Line) {
			t.Errorf("ParseCommand(%q) = %v, want %v", tc.line, err, tc.err)
		}
	}
	if b := AppendCommand(nil, Command{Kind: Set}); len(b) != 0 {
		t.Errorf("an invalid set appends %q", b)
	}
	if b := AppendCommand(nil, Command{Kind: Move}); len(b) != 0 {
		t.Errorf("NoMove appends %q", b)
	}
	if b := AppendCommand(nil, Command{}); len(b) != 0 {
		t.Errorf("the zero command appends %q", b)
	}
}

func TestEvents(t *testing.T) {
	const board = "14B24R34R44R15R25B35B45B41u31u21u11u40u30u20u10u"
	b, err := ParseBoard(board)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		line, canon string
		want        Event
	}{
		{"SET?\r\n", "SET?", Event{Kind: SetRequest}},
		{"OK \r\n", "OK ", Event{Kind: OK}},
		{"OK", "OK ", Event{Kind: OK}},
		{"OKR\r\n", "OKR", Event{Kind: OK, Capture: geister.Red}},
		{"OKB  ", "OKB", Event{Kind: OK, Capture: geister.Blue}},
		{"NG \r\n", "NG ", Event{Kind: NG}},
		{"NG\n", "NG ", Event{Kind: NG}},
		{"MOV?" + board + "\r\n", "MOV?" + board, Event{Kind: MoveRequest, Board: b}},
		{"MOV:" + board, "MOV?" + board, Event{Kind: MoveRequest, Board: b}},
		{"WON:" + board + " \r\n", "WON:" + board, Event{Kind: Won, Board: b}},
		{"LST:" + board, "LST:" + board, Event{Kind: Lost, Board: b}},
		{"DRW:" + board, "DRW:" + board, Event{Kind: Draw, Board: b}},
		{"/exit\n", "/exit", Event{Kind: Exit}},
	} {
		got, err := ParseEvent(tc.line)
		if err != nil || got != tc.want {
			t.Errorf("ParseEvent(%q) = %+v, %v; want %+v", tc.line, got, err, tc.want)
			continue
		}
		if s := string(AppendEvent(nil, got)); s != tc.canon+"\r\n" {
			t.Errorf("AppendEvent(%+v) = %q, want %q", got, s, tc.canon+"\r\n")
		}
	}
	for _, tc := range []struct {
		line string
		err  error
		off  int
	}{
		{"", tus.ErrEmptyLine, 0},
		{"   \r\n", tus.ErrEmptyLine, 0},
		{"HELLO", tus.ErrUnknownCommand, 0},
		{"OKX", tus.ErrUnknownCommand, 0},
		{"MOV?", tus.ErrMalformed, 4},
		{"MOV?" + board[:47], tus.ErrMalformed, 51},
		{"WON:" + board + "x", tus.ErrMalformed, 52},
		{"LST:" + strings.Replace(board, "41u", "61u", 1), tus.ErrMalformed, 28},
		{"DRW:" + strings.Replace(board, "41u", "41x", 1), tus.ErrMalformed, 30},
		{"DRW:" + strings.Replace(board, "41u", "46u", 1), tus.ErrMalformed, 29},
	} {
		_, err := ParseEvent(tc.line)
		var le *tus.LineError
		if !errors.Is(err, tc.err) || !errors.As(err, &le) || le.Offset != tc.off {
			t.Errorf("ParseEvent(%q) = %v, want %v at %d", tc.line, err, tc.err, tc.off)
		}
	}
	if b := AppendEvent(nil, Event{}); len(b) != 0 {
		t.Errorf("the zero event appends %q", b)
	}
	if s := EventKind(99).String(); s != "EventKind(99)" {
		t.Errorf("String of an unknown kind = %q", s)
	}
}

func TestBoard(t *testing.T) {
	for _, tc := range []struct{ in, out string }{
		{"14B24R34R44R15R25B35B45B41u31u21u11u40u30u20u10u", ""},
		{"88b24B34B44B15R25R35R45R42b31r21r11r40r30b20b10b", ""},
		{"99r99r99r99r99b99b99b45B99r35u99r99r50u30u11u00u", ""}, // NTPU: u in a result
		{"14b24r34r44r15r25b35b45b41U31U21U11U40U30U20U10U", "14B24R34R44R15R25B35B45B41u31u21u11u40u30u20u10u"},
		{"99R88B14u24R34R44R15R25B35B45B41u31u21u11u40u30u", "99r88b14u24R34R44R15R25B35b45b41u31u21u11u40u30u"},
	} {
		b, err := ParseBoard(tc.in)
		if err != nil {
			t.Errorf("ParseBoard(%q): %v", tc.in, err)
			continue
		}
		want := tc.out
		if want == "" {
			want = tc.in
		}
		if got := b.String(); got != want {
			t.Errorf("ParseBoard(%q).String() = %q, want %q", tc.in, got, want)
		}
	}
	for _, bad := range []string{"", "14B", "14B24R34R44R15R25B35B45B41u31u21u11u40u30u20u10", "14B24R34R44R15R25B35B45B41u31u21u11u40u30u20u10u0",
		"64B24R34R44R15R25B35B45B41u31u21u11u40u30u20u10u", "16B24R34R44R15R25B35B45B41u31u21u11u40u30u20u10u",
		"89B24R34R44R15R25B35B45B41u31u21u11u40u30u20u10u", "14X24R34R44R15R25B35B45B41u31u21u11u40u30u20u10u"} {
		var se *geister.SyntaxError
		if _, err := ParseBoard(bad); !errors.As(err, &se) {
			t.Errorf("ParseBoard(%q) = %v, want a *geister.SyntaxError", bad, err)
		}
	}
	// Syntax only: two ghosts on one square parse, and fail as a view.
	b, err := ParseBoard("14B14R34R44R15R25B35B45B41u31u21u11u40u30u20u10u")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.View(geister.First, 0); !errors.Is(err, geister.ErrInvalidSetup) {
		t.Errorf("View of two ghosts on 14: %v", err)
	}
	if _, err := b.Position(geister.First, 0); !errors.Is(err, geister.ErrInvalidSetup) {
		t.Errorf("Position of two ghosts on 14: %v", err)
	}
	// A square out of range is written as captured.
	var z Board
	z.Squares[0][0] = geister.NoSquare
	if s := z.String(); !strings.HasPrefix(s, "99u00u") || len(s) != geister.BoardLen {
		t.Errorf("the zero board with A nowhere = %q", s)
	}
}

// TestBoardFrames checks the board codec against package geister's
// strings in both frames, on positions of random games.
func TestBoardFrames(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := geistertest.AnyPosition().Draw(t, "p")
		for _, c := range []geister.Color{geister.First, geister.Second} {
			rb := ResultBoard(p, c)
			if got, want := rb.String(), p.Board(c); got != want {
				t.Fatalf("ResultBoard(%s) = %s, want %s", c, got, want)
			}
			if back, err := ParseBoard(rb.String()); err != nil || back != rb {
				t.Fatalf("ParseBoard(%s) = %+v, %v", rb, back, err)
			}
			if q, err := rb.Position(c, p.Ply()); err != nil || q != p {
				t.Fatalf("Position of %s for %s = %v, %v; want %v", rb, c, q, err, p)
			}
			v := p.View(c)
			vb := ViewBoard(v)
			if got, want := vb.String(), v.String(); got != want {
				t.Fatalf("ViewBoard(%s) = %s, want %s", c, got, want)
			}
			if w, err := vb.View(c, p.Ply()); err != nil || w != v {
				t.Fatalf("View of %s for %s = %v, %v; want %v", vb, c, w, err, v)
			}
		}
	})
}

// TestTranscriptMessages reads every message of every capture with
// the codec: the server's with ParseEvent, each written back byte for
// byte; the clients' with ParseCommand, which refuses exactly the
// commands the captures show refused for their syntax.
func TestTranscriptMessages(t *testing.T) {
	malformed := map[string]bool{"SET:ABC": true, "MOV:A,UP": true}
	events, commands := 0, 0
	for _, name := range jgCaptures(t) {
		for _, r := range jgRead(t, name) {
			for _, msg := range jgMessages(r.data) {
				switch r.dir {
				case "S>C":
					e, err := ParseEvent(msg)
					if err != nil {
						t.Errorf("%s: %q: %v", name, msg, err)
						continue
					}
					if got := string(AppendEvent(nil, e)); got != msg+"\r\n" {
						t.Errorf("%s: %q written back as %q", name, msg, got)
					}
					events++
				case "C>S":
					c, err := ParseCommand(msg)
					switch {
					case malformed[msg]:
						if !errors.Is(err, tus.ErrMalformed) {
							t.Errorf("%s: %q: %v, want ErrMalformed", name, msg, err)
						}
					case err != nil:
						t.Errorf("%s: %q: %v", name, msg, err)
					default:
						if again, err := ParseCommand(string(AppendCommand(nil, c))); err != nil || again != c {
							t.Errorf("%s: %q: reprinted as %+v, %v", name, msg, again, err)
						}
					}
					commands++
				}
			}
		}
	}
	if events < 2000 || commands < 1000 {
		t.Errorf("read %d server messages and %d commands; the captures hold more", events, commands)
	}
}

func TestViewerStates(t *testing.T) {
	rows := jgViewerRows(t)
	labels := map[string]ViewerKind{"MOV:": ViewerWaiting, "MV0:": ViewerToMove, "MV1:": ViewerToMove, "WI0:": ViewerWon}
	for _, s := range rows {
		st, err := ParseViewerState(s)
		if err != nil {
			t.Errorf("%q: %v", s, err)
			continue
		}
		if st.Kind != labels[s[:4]] || (s[2] == '1') != (st.Side == geister.Second) {
			t.Errorf("%q read as %+v", s, st)
		}
		if got := st.String(); got != s {
			t.Errorf("%q written back as %q", s, got)
		}
		// Every viewer board shows every colour: a position in the second
		// player's frame.
		if _, err := st.Board.Position(geister.Second, 0); err != nil && st.Kind != ViewerWaiting {
			t.Errorf("%q: %v", s, err)
		}
	}
	for _, tc := range []struct {
		s  string
		st ViewerState
	}{
		{"null", ViewerState{}},
		{"DRW:" + rows[1][4:], ViewerState{Kind: ViewerDraw, Board: mustBoard(t, rows[1][4:])}},
		{"WI1:" + rows[1][4:], ViewerState{Kind: ViewerWon, Side: geister.Second, Board: mustBoard(t, rows[1][4:])}},
	} {
		st, err := ParseViewerState(tc.s)
		if err != nil || st != tc.st || st.String() != tc.s {
			t.Errorf("ParseViewerState(%q) = %+v, %v", tc.s, st, err)
		}
	}
	for _, bad := range []string{"", "nul", "null ", "MV2:" + rows[1][4:], "MOV?" + rows[1][4:], "WI0:" + rows[1][5:], "WI0:"} {
		if _, err := ParseViewerState(bad); err == nil {
			t.Errorf("ParseViewerState(%q) succeeded", bad)
		}
	}
	if s := (ViewerState{Kind: 99}).String(); s != "null" {
		t.Errorf("an unknown kind is written %q", s)
	}
}

// jgViewerRows returns the state strings of ws-viewer-random-game-1.txt.
func jgViewerRows(t *testing.T) []string {
	t.Helper()
	data, err := readFileString(t, "ws-viewer-random-game-1.txt")
	if err != nil {
		t.Fatal(err)
	}
	var rows []string
	for line := range strings.Lines(data) {
		if strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Fields(line)
		if len(f) == 2 {
			rows = append(rows, f[1])
		}
	}
	if len(rows) != 11 {
		t.Fatalf("%d viewer strings, want 11", len(rows))
	}
	return rows
}

func mustBoard(t testing.TB, s string) Board {
	t.Helper()
	b, err := ParseBoard(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// ---- fuzz targets: parse, print, parse agree; nothing panics ----

func geisterFuzzSeeds(f *testing.F) {
	f.Add("SET?")
	f.Add("OK \r\n")
	f.Add("OKR")
	f.Add("NG ")
	f.Add("SET:BCDE\r\n")
	f.Add("SET:ABC")
	f.Add("MOV:A,NORTH")
	f.Add("MOV:a,s")
	f.Add("MOV:A,UP")
	f.Add("MOV?14B24R34R44R15R25B35B45B41u31u21u11u40u30u20u10u\r\n")
	f.Add("WON:88b24B34B44B15R25R35R45R42b31r21r11r40r30b20b10b")
	f.Add("LST:13B24R34R44R15R25B35B45B88b31b21b11b40r30r20r10r")
	f.Add("DRW:14B24B34B44B15R25R35R45R41b31r21r11r40r30b20b10b")
	f.Add("MV0:14B24R34R44R15R25B35B55B41b31r21r11r40r30b20b00b")
	f.Add("WI1:99b99r99r22R99r99b99b99b30b99r15r99r99r99b99b99b")
	f.Add("null")
	f.Add("/exit")
	f.Add("99r99r99r99r99b99b99b45B99r35u99r99r50u30u11u00U")
}

func FuzzParseCommand(f *testing.F) {
	geisterFuzzSeeds(f)
	f.Fuzz(func(t *testing.T, line string) {
		c, err := ParseCommand(line)
		if err != nil {
			var le *tus.LineError
			if !errors.As(err, &le) || le.Err == nil {
				t.Fatalf("%q: error %v is not a *LineError", line, err)
			}
			return
		}
		out := AppendCommand(nil, c)
		again, err := ParseCommand(string(out))
		if err != nil || again != c {
			t.Fatalf("%q -> %+v -> %q -> %+v, %v", line, c, out, again, err)
		}
	})
}

func FuzzParseEvent(f *testing.F) {
	geisterFuzzSeeds(f)
	f.Fuzz(func(t *testing.T, line string) {
		e, err := ParseEvent(line)
		if err != nil {
			var le *tus.LineError
			if !errors.As(err, &le) || le.Err == nil {
				t.Fatalf("%q: error %v is not a *LineError", line, err)
			}
			return
		}
		out := AppendEvent(nil, e)
		again, err := ParseEvent(string(out))
		if err != nil || again != e {
			t.Fatalf("%q -> %+v -> %q -> %+v, %v", line, e, out, again, err)
		}
	})
}

func FuzzParseBoard(f *testing.F) {
	geisterFuzzSeeds(f)
	f.Fuzz(func(t *testing.T, s string) {
		b, err := ParseBoard(s)
		if err != nil {
			return
		}
		// Whatever it means, asking is safe.
		b.View(geister.First, 0)
		b.Position(geister.Second, 1)
		out := AppendBoard(nil, b)
		again, err := ParseBoard(string(out))
		if err != nil || again != b {
			t.Fatalf("%q -> %q -> %+v, %v; want %+v", s, out, again, err, b)
		}
		// Only the letters' case may change.
		if !strings.EqualFold(string(out), s) {
			t.Fatalf("%q written back as %q", s, out)
		}
	})
}

func FuzzParseViewerState(f *testing.F) {
	geisterFuzzSeeds(f)
	f.Fuzz(func(t *testing.T, s string) {
		st, err := ParseViewerState(s)
		if err != nil {
			return
		}
		out := AppendViewerState(nil, st)
		again, err := ParseViewerState(string(out))
		if err != nil || again != st {
			t.Fatalf("%q -> %+v -> %q -> %+v, %v", s, st, out, again, err)
		}
	})
}

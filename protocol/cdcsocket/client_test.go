package cdcsocket_test

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/botarena/botarena/darkchess"
	"github.com/botarena/botarena/protocol/cdcsocket"
	"github.com/botarena/botarena/timer"
)

// dcScriptLine is one line of a testdata/darkchess_socket script.
type dcScriptLine struct {
	fromPlatform bool
	payload      string
}

func readDCScript(t *testing.T, name string) []dcScriptLine {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "darkchess_socket", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var lines []dcScriptLine
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		l := sc.Text()
		switch {
		case strings.HasPrefix(l, "P "):
			lines = append(lines, dcScriptLine{true, l[2:]})
		case strings.HasPrefix(l, "E "):
			lines = append(lines, dcScriptLine{false, l[2:]})
		case l == "" || strings.HasPrefix(l, "#"):
		default:
			t.Fatalf("%s: bad line %q", name, l)
		}
	}
	return lines
}

// dcPlatform plays a script against whatever connects to ln: it sends the P
// lines and checks that the E lines arrive, then closes the connection.
func dcPlatform(t *testing.T, ln net.Listener, script []dcScriptLine) <-chan error {
	done := make(chan error, 1)
	go func() {
		done <- func() error {
			conn, err := ln.Accept()
			if err != nil {
				return err
			}
			defer conn.Close()
			for i, l := range script {
				if l.fromPlatform {
					b, err := cdcsocket.AppendFrame(nil, []byte(l.payload))
					if err != nil {
						return err
					}
					if _, err := conn.Write(b); err != nil {
						return err
					}
					continue
				}
				conn.SetReadDeadline(time.Now().Add(10 * time.Second))
				p, err := cdcsocket.ReadFrame(conn, nil)
				if err != nil {
					return fmt.Errorf("script line %d: %w", i, err)
				}
				if string(p) != l.payload {
					return fmt.Errorf("script line %d: engine sent %q, want %q", i, p, l.payload)
				}
			}
			return nil
		}()
	}()
	return done
}

// dcScriptPlayer answers with the E plies of the script, in order, and
// records the views it was given.
type dcScriptPlayer struct {
	mu    sync.Mutex
	moves []darkchess.Move
	views []darkchess.View
	// statuses are the timer.Status of each call (the zero Status when
	// there was none or its Deadline was not the ctx's).
	statuses []timer.Status
}

func newDCScriptPlayer(t *testing.T, script []dcScriptLine) *dcScriptPlayer {
	p := &dcScriptPlayer{}
	for _, l := range script {
		if l.fromPlatform {
			continue
		}
		m, err := cdcsocket.ParseMessage([]byte(l.payload))
		if err != nil {
			t.Fatal(err)
		}
		if m.Kind == cdcsocket.PlyMsg {
			p.moves = append(p.moves, m.Move)
		}
	}
	return p
}

func (p *dcScriptPlayer) Play(ctx context.Context, v darkchess.View) (darkchess.Move, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.views = append(p.views, v)
	st, ok := timer.StatusFrom(ctx)
	d, _ := ctx.Deadline()
	if !ok || !st.Deadline.Equal(d) {
		st = timer.Status{} // fails the check of the control
	}
	p.statuses = append(p.statuses, st)
	if len(p.views) > len(p.moves) {
		return darkchess.NoMove, errors.New("script exhausted")
	}
	if _, ok := ctx.Deadline(); !ok {
		return darkchess.NoMove, errors.New("no deadline")
	}
	return p.moves[len(p.views)-1], nil
}

func listenLocal(t *testing.T) net.Listener {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	return ln
}

// TestDarkChessLegacyClientScripts runs the client against the scripted
// platform of each testdata/darkchess_socket script, over a real socket.
func TestClientScripts(t *testing.T) {
	type view struct {
		plies int
		turn  darkchess.Color
		left  time.Duration
	}
	for _, tt := range []struct {
		name  string
		first bool
		color darkchess.Color
		views []view
		plies int
	}{
		{"fresh_first.txt", true, darkchess.Red, []view{
			{0, darkchess.NoColor, 0},
			{2, darkchess.Red, 898800 * time.Millisecond},
			{4, darkchess.Red, 898300 * time.Millisecond},
			{6, darkchess.Red, 897000 * time.Millisecond},
		}, 7},
		{"resumed_second.txt", false, darkchess.Black, []view{
			{5, darkchess.Black, 880212 * time.Millisecond},
			{7, darkchess.Black, 870000 * time.Millisecond},
		}, 8},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			script := readDCScript(t, tt.name)
			ln := listenLocal(t)
			done := dcPlatform(t, ln, script)
			p := newDCScriptPlayer(t, script)
			ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
			defer cancel()
			out, err := cdcsocket.DialArgs(ctx, []string{"127.0.0.1", portOf(ln)}, p)
			if err != nil {
				t.Fatalf("client: %v", err)
			}
			if err := <-done; err != nil {
				t.Fatalf("platform: %v", err)
			}
			if !out.Started || out.First != tt.first || out.Color != tt.color || len(out.Final.History) != tt.plies {
				t.Errorf("outcome: started %v first %v colour %v, %d plies; want first %v colour %v, %d plies",
					out.Started, out.First, out.Color, len(out.Final.History), tt.first, tt.color, tt.plies)
			}
			if len(p.views) != len(tt.views) {
				t.Fatalf("player asked %d times, want %d", len(p.views), len(tt.views))
			}
			for i, v := range p.views {
				var left time.Duration
				if v.Turn().Valid() {
					left = v.TimeLeft[v.Turn()]
				}
				got := view{len(v.History), v.Turn(), left}
				if got != tt.views[i] {
					t.Errorf("view %d: %+v, want %+v (%s)", i, got, tt.views[i], v)
				}
				st, side := p.statuses[i], timer.First
				if !tt.first {
					side = timer.Second
				}
				if st.Control != timer.ICGADarkChess() || st.ControlTold || !st.Own.Told || st.Opponent.Told ||
					(left > 0 && st.Own.Main != left) || st.Side != side || st.Played != len(v.History)/2 || st.Start.IsZero() {
					t.Errorf("view %d: Status %+v; want the ICGA control untold, own %v told, side %v, %d played, a Start, the ctx's deadline",
						i, st, left, side, len(v.History)/2)
				}
				if v.Turn().Valid() && v.Viewer() != v.Turn() {
					t.Errorf("view %d: viewer %v, turn %v", i, v.Viewer(), v.Turn())
				}
			}
		})
	}
}

func portOf(ln net.Listener) string {
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	return port
}

// TestDarkChessLegacyClientFaults: a player that fails or plays an illegal
// ply, a report that does not fit, garbage framing and a cancelled context
// end Run with an error and never hang.
func TestClientFaults(t *testing.T) {
	start := []dcScriptLine{
		{true, dcFreshStart}, {false, "/start"}, {true, "/turn 1 2"}, {false, "/turn"},
	}
	for _, tt := range []struct {
		name    string
		script  []dcScriptLine
		player  darkchess.PlayerFunc
		wantErr func(error) bool
	}{
		{"player error", start, func(context.Context, darkchess.View) (darkchess.Move, error) {
			return darkchess.NoMove, errors.New("no idea")
		}, func(err error) bool { var pe *cdcsocket.PlayerError; return errors.As(err, &pe) }},
		{"illegal ply", start, func(context.Context, darkchess.View) (darkchess.Move, error) {
			return darkchess.NewMove(darkchess.A1, darkchess.A2), nil
		}, func(err error) bool { return errors.Is(err, darkchess.ErrIllegalMove) }},
		{"report that does not fit", append(start[:4:4], dcScriptLine{false, "/flip 0 0"}, dcScriptLine{true, "/move 0 0 0 1 5"}),
			func(context.Context, darkchess.View) (darkchess.Move, error) {
				return darkchess.Flip(darkchess.A1), nil
			},
			func(err error) bool { var pe *cdcsocket.PlayerError; return !errors.As(err, &pe) }},
		{"bad frame", []dcScriptLine{{true, dcFreshStart}, {false, "/start"}},
			nil, func(err error) bool { return errors.Is(err, cdcsocket.ErrFrame) }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			ln := listenLocal(t)
			script := tt.script
			go func() {
				conn, err := ln.Accept()
				if err != nil {
					return
				}
				defer conn.Close()
				for _, l := range script {
					if l.fromPlatform {
						b, _ := cdcsocket.AppendFrame(nil, []byte(l.payload))
						conn.Write(b)
					} else {
						conn.SetReadDeadline(time.Now().Add(5 * time.Second))
						cdcsocket.ReadFrame(conn, nil)
					}
				}
				if tt.name == "bad frame" {
					conn.Write([]byte{0xff, 0xff, 'x'})
				}
				// Hold the connection until the client leaves.
				conn.SetReadDeadline(time.Now().Add(5 * time.Second))
				io.Copy(io.Discard, conn)
			}()
			player := tt.player
			if player == nil {
				player = func(context.Context, darkchess.View) (darkchess.Move, error) { return darkchess.NoMove, nil }
			}
			ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
			defer cancel()
			_, err := cdcsocket.Dial(ctx, ln.Addr().String(), player)
			if err == nil || !tt.wantErr(err) || ctx.Err() != nil {
				t.Errorf("Run: %v", err)
			}
		})
	}
	t.Run("cancel", func(t *testing.T) {
		t.Parallel()
		ln := listenLocal(t)
		go func() {
			conn, err := ln.Accept()
			if err == nil {
				defer conn.Close()
				conn.SetReadDeadline(time.Now().Add(5 * time.Second))
				io.Copy(io.Discard, conn) // say nothing
			}
		}()
		ctx, cancel := context.WithTimeout(t.Context(), 100*time.Millisecond)
		defer cancel()
		_, err := cdcsocket.Dial(ctx, ln.Addr().String(), darkchess.PlayerFunc(
			func(context.Context, darkchess.View) (darkchess.Move, error) { return darkchess.NoMove, nil }))
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("Run: %v, want the deadline", err)
		}
	})
	t.Run("args", func(t *testing.T) {
		if _, err := cdcsocket.DialArgs(t.Context(), []string{"127.0.0.1"}, nil); err == nil {
			t.Error("DialArgs accepted one argument")
		}
	})
}

// TestDarkChessConn drives the low-level calls of the C++ API against the
// scripted platform.
func TestConn(t *testing.T) {
	script := readDCScript(t, "fresh_first.txt")
	ln := listenLocal(t)
	done := dcPlatform(t, ln, append(script[:9:9], dcScriptLine{false, "/flip 2 7"}))
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	c, err := cdcsocket.DialConn(ctx, ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	in, err := c.InitBoard(ctx)
	if err != nil || in.Time != 900*time.Second || len(in.History) != 0 {
		t.Fatalf("InitBoard: %+v, %v", in, err)
	}
	first, color, err := c.Turn(ctx)
	if err != nil || !first || color != darkchess.NoColor {
		t.Fatalf("Turn: %v %v %v", first, color, err)
	}
	if err := c.Send(ctx, darkchess.Flip(darkchess.B8)); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"b8(K)", "b7(p)"} {
		ply, left, err := c.Recv(ctx)
		if err != nil || ply.String() != want || left != 898800*time.Millisecond {
			t.Fatalf("Recv: %v %v %v, want %s", ply, left, err, want)
		}
		if want == "b8(K)" && ply.Piece.Color() != darkchess.Red {
			t.Error("get_color(b8(K)) is not red")
		}
	}
	if err := c.Send(ctx, darkchess.Flip(darkchess.A8)); err != nil {
		t.Fatal(err)
	}
	if _, _, err := c.Recv(ctx); err != nil {
		t.Fatal(err)
	}
	// A Recv cut short by its context keeps the connection usable.
	short, cancelShort := context.WithTimeout(ctx, 20*time.Millisecond)
	_, _, err = c.Recv(short)
	cancelShort()
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Recv past its deadline: %v", err)
	}
	if err := c.Send(ctx, darkchess.Flip(darkchess.C8)); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if _, _, err := c.Recv(ctx); !errors.Is(err, io.EOF) {
		t.Fatalf("Recv after the platform closed: %v, want EOF", err)
	}
	if c.Close() != nil || c.Close() != nil {
		t.Error("Close is not idempotent")
	}
}

// dcBytesConn is a connection that reads given bytes and discards writes.
type dcBytesConn struct {
	io.Reader
}

func (dcBytesConn) Write(p []byte) (int, error) { return len(p), nil }

// FuzzDarkChessLegacyClient feeds any bytes to the client as the
// platform's stream: it never panics, and returns at the end of the stream.
func FuzzClient(f *testing.F) {
	frames := func(payloads ...string) []byte {
		var b []byte
		for _, p := range payloads {
			b, _ = cdcsocket.AppendFrame(b, []byte(p))
		}
		return b
	}
	f.Add(frames(dcFreshStart, "/turn 1 2", "/flip 1 7 1 898800", "/flip 1 6 15 898800", "/askAction", "/color 0"))
	f.Add(frames(dcResumedStart, "/turn 0 1", "/flip 3 0 7 880212", "/move 1 7 1 6 5"))
	f.Add(frames(dcFreshStart, "/turn 0 2", "/flip 0 0 9 1", "/move 0 0 0 1 2"))
	f.Add([]byte("\xff\xff"))
	f.Fuzz(func(t *testing.T, data []byte) {
		first := darkchess.PlayerFunc(func(_ context.Context, v darkchess.View) (darkchess.Move, error) {
			moves := v.AppendLegalMoves(nil)
			if len(moves) == 0 {
				return darkchess.NoMove, errors.New("no move")
			}
			return moves[0], nil
		})
		c := cdcsocket.Client{Margin: time.Millisecond}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_, err := c.Run(ctx, dcBytesConn{bytes.NewReader(data)}, first)
		if ctx.Err() != nil {
			t.Fatalf("Run did not end with its input: %v", err)
		}
	})
}

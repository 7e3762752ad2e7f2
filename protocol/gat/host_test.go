package gat

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/botarena/botarena/geister"
	"github.com/botarena/botarena/timer"
)

// ---- test helpers ----

// jgServe runs h on two fresh 127.0.0.1 ports until the test ends, checks
// that Serve then returns nil, promptly, and returns the two addresses.
func jgServe(t *testing.T, h *Host) [2]string {
	t.Helper()
	var lns [2]net.Listener
	for i := range lns {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		lns[i] = ln
	}
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() { errc <- h.Serve(ctx, lns[0], lns[1]) }()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-errc:
			if err != nil {
				t.Errorf("Serve returned %v", err)
			}
		case <-time.After(10 * time.Second):
			t.Errorf("Serve did not return after its context ended")
		}
	})
	return [2]string{lns[0].Addr().String(), lns[1].Addr().String()}
}

// jgClient is a raw client for tests. It reads lines strictly: each must end
// in CRLF.
type jgClient struct {
	conn net.Conn
	br   *bufio.Reader
}

func jgDial(t *testing.T, addr string) *jgClient {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return &jgClient{conn: conn, br: bufio.NewReader(conn)}
}

// send writes each line with CRLF, all in one write.
func (c *jgClient) send(lines ...string) error {
	var b []byte
	for _, l := range lines {
		b = append(append(b, l...), '\r', '\n')
	}
	return c.sendRaw(string(b))
}

// sendRaw writes s as it is.
func (c *jgClient) sendRaw(s string) error {
	_, err := io.WriteString(c.conn, s)
	return err
}

// next reads one message, waiting until ctx's deadline at most.
func (c *jgClient) next(ctx context.Context) (string, error) {
	if d, ok := ctx.Deadline(); ok {
		c.conn.SetReadDeadline(d)
	}
	line, err := c.br.ReadString('\n')
	if err != nil {
		if line != "" && errors.Is(err, io.EOF) {
			return "", fmt.Errorf("%q without a line end before EOF", line)
		}
		return "", err
	}
	if !strings.HasSuffix(line, "\r\n") {
		return "", fmt.Errorf("%q does not end in CRLF", line)
	}
	return line[:len(line)-2], nil
}

// expect reads len(want) messages and compares them with want.
func (c *jgClient) expect(ctx context.Context, want ...string) error {
	var got []string
	for range want {
		line, err := c.next(ctx)
		if err != nil {
			return fmt.Errorf("after %q: %w", got, err)
		}
		got = append(got, line)
	}
	if d := cmp.Diff(want, got); d != "" {
		return fmt.Errorf("messages differ (-want +got):\n%s", d)
	}
	return nil
}

// expectEOF checks that the host closes the connection without another
// message.
func (c *jgClient) expectEOF(ctx context.Context) error {
	line, err := c.next(ctx)
	switch {
	case err == nil:
		return fmt.Errorf("got %q, want the connection closed", line)
	case errors.Is(err, os.ErrDeadlineExceeded):
		return fmt.Errorf("connection still open: %w", err)
	}
	return nil // EOF, or a reset: closed
}

// jgMust fails the test on an error.
func jgMust(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// jgStart is the start position of a game between the red sets of two SET
// lines.
func jgStart(t *testing.T, first, second string) geister.Position {
	t.Helper()
	r0, err0 := geister.ParseReds(first)
	r1, err1 := geister.ParseReds(second)
	p, err := geister.Start(r0, r1)
	if err := errors.Join(err0, err1, err); err != nil {
		t.Fatal(err)
	}
	return p
}

// jgMOV is the MOV? message of p for the side to move.
func jgMOV(p geister.Position) string { return "MOV?" + p.View(p.Turn()).String() }

// jgPlay plays a move written as on the wire.
func jgPlay(t *testing.T, p geister.Position, m string) geister.Position {
	t.Helper()
	mv, err := geister.ParseMove(m)
	if err != nil {
		t.Fatal(err)
	}
	q, err := p.Play(mv)
	if err != nil {
		t.Fatal(err)
	}
	return q
}

// jgRecords makes h report its games on a channel.
func jgRecords(h *Host) chan GameRecord {
	ch := make(chan GameRecord, 16)
	h.OnGameEnd = func(r GameRecord) { ch <- r }
	return ch
}

// jgNextRecord waits for the next game record.
func jgNextRecord(t *testing.T, ctx context.Context, ch chan GameRecord) GameRecord {
	t.Helper()
	select {
	case r := <-ch:
		return r
	case <-ctx.Done():
		t.Fatal("no game record")
		return GameRecord{}
	}
}

// jgPair connects both players and sets their red ghosts: first BCDE,
// second EFGH. It returns them after the first player's MOV?.
func jgPair(t *testing.T, ctx context.Context, addrs [2]string) (p0, p1 *jgClient, start geister.Position) {
	t.Helper()
	p0, p1 = jgDial(t, addrs[0]), jgDial(t, addrs[1])
	jgMust(t, p0.expect(ctx, "SET?"))
	jgMust(t, p1.expect(ctx, "SET?"))
	jgMust(t, p0.send("SET:BCDE"))
	jgMust(t, p0.expect(ctx, "OK "))
	jgMust(t, p1.send("SET:EFGH"))
	jgMust(t, p1.expect(ctx, "OK "))
	start = jgStart(t, "BCDE", "EFGH")
	jgMust(t, p0.expect(ctx, jgMOV(start)))
	return p0, p1, start
}

// ---- behaviour ----

// TestHostSetup covers the setup phase: the grammar of
// SET:, retries, NG to anything else, and the framing fixes D1, D2, D11.
func TestHostSetup(t *testing.T) {
	h := &Host{}
	recs := jgRecords(h)
	addrs := jgServe(t, h)
	ctx := jgContext(t)
	p0 := jgDial(t, addrs[0])
	jgMust(t, p0.expect(ctx, "SET?"))
	// Not four distinct letters A-H, or not a SET: NG, and a retry.
	for _, bad := range []string{"SET:ABC", "SET:ABCDE", "SET:AAAA", "SET:ZZZZ", "SET:1234", "SET:ABCI", "set:ABCD",
		"SET:ABCD ", " SET:ABCD", "MOV:A,N", "HELLO", "SET:", "\x00\xff"} {
		jgMust(t, p0.send(bad))
		jgMust(t, p0.expect(ctx, "NG "))
	}
	// D1: an empty line is ignored and wedges nothing; D2: LF alone ends a
	// line; D11: two commands in one segment are both handled.
	jgMust(t, p0.sendRaw("\r\n\n\r\nSET:bcde\nSET:BCDE\r\n"))
	jgMust(t, p0.expect(ctx, "OK ", "NG "))
	p1 := jgDial(t, addrs[1])
	jgMust(t, p1.expect(ctx, "SET?"))
	// A move before the game starts: NG, not fatal.
	jgMust(t, p1.send("MOV:A,N"))
	jgMust(t, p1.expect(ctx, "NG "))
	jgMust(t, p1.send("SET:HgFe"))
	jgMust(t, p1.expect(ctx, "OK "))
	start := jgStart(t, "BCDE", "EFGH")
	jgMust(t, p0.expect(ctx, jgMOV(start)))
	// A SET: during play from the side not to move: NG only.
	jgMust(t, p1.send("SET:ABCD"))
	jgMust(t, p1.expect(ctx, "NG "))
	p0.conn.Close()
	jgMust(t, p1.expect(ctx, "WON:"+start.Board(geister.Second)))
	jgMust(t, p1.expectEOF(ctx))
	rec := jgNextRecord(t, ctx, recs)
	if rec.Result != (geister.Result{Reason: geister.Disconnect, Winner: geister.Second}) || rec.Start != start || len(rec.Moves) != 0 {
		t.Errorf("record %+v", rec)
	}
	if n := len(rec.Commands); n != 18 || rec.Commands[0].Line != "SET:ABC" || rec.Commands[n-1] != (Received{Side: geister.Second, Line: "SET:ABCD", At: rec.Commands[n-1].At}) {
		t.Errorf("%d commands recorded: %+v", n, rec.Commands)
	}
}

// jgRedOnExit is a position where the first player's red A stands on its
// exit (0,0), first to move.
func jgRedOnExit(t *testing.T) geister.Position {
	t.Helper()
	s := geister.StartSetup(geister.RedsOf(geister.A, geister.B, geister.C, geister.D), geister.RedsOf(geister.A, geister.B, geister.C, geister.D))
	s.Ghosts[geister.First][geister.A] = geister.SquareAt(0, 0)
	p, err := geister.NewPosition(s)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestHostIllegalMoves sends every kind of bad command from the side
// to move: under the default policy each gets NG, then LST: to
// the offender and WON: to the other.
func TestHostIllegalMoves(t *testing.T) {
	for _, tc := range []struct {
		name, line string
		start      bool // play from jgRedOnExit
	}{
		{"into its own ghost", "MOV:A,S", false},
		{"off the board", "MOV:E,S", false},
		{"unknown direction", "MOV:A,UP", false},
		{"empty ghost", "MOV:,N", false},
		{"long ghost field", "MOV:Abc,N", false},
		{"ghost outside A-H", "MOV:I,N", false},
		{"trailing space", "MOV:A,N ", false},
		{"garbage", "\x01\x02garbage\xff", false},
		{"a SET", "SET:ABCD", false},
		{"red escape north", "MOV:A,N", true},
		{"red escape west", "MOV:A,WEST", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := &Host{}
			if tc.start {
				h.Start = jgRedOnExit(t)
			}
			recs := jgRecords(h)
			addrs := jgServe(t, h)
			ctx := jgContext(t)
			var p0, p1 *jgClient
			var start geister.Position
			if tc.start {
				start = h.Start
				p0, p1 = jgDial(t, addrs[0]), jgDial(t, addrs[1])
				for _, p := range []*jgClient{p0, p1} {
					jgMust(t, p.expect(ctx, "SET?"))
					jgMust(t, p.send("SET:EFGH")) // answered, and ignored
					jgMust(t, p.expect(ctx, "OK "))
				}
				jgMust(t, p0.expect(ctx, jgMOV(start)))
			} else {
				p0, p1, start = jgPair(t, ctx, addrs)
			}
			jgMust(t, p0.send(tc.line))
			jgMust(t, p0.expect(ctx, "NG ", "LST:"+start.Board(geister.First)))
			jgMust(t, p1.expect(ctx, "WON:"+start.Board(geister.Second)))
			// D5: whatever the offender sends now, nothing comes back.
			jgMust(t, p0.send("MOV:A,N"))
			jgMust(t, p0.expectEOF(ctx))
			jgMust(t, p1.expectEOF(ctx))
			rec := jgNextRecord(t, ctx, recs)
			if rec.Result != (geister.Result{Reason: geister.IllegalMove, Winner: geister.Second}) || rec.Start != start {
				t.Errorf("record %+v", rec)
			}
		})
	}
}

// TestHostRetry runs the Java server's --no_ng_terminate: a bad move
// gets NG and nothing else, no new MOV?, and the same player moves again.
// Out of turn, a line gets NG only under either policy.
func TestHostRetry(t *testing.T) {
	rules := geister.GAT
	rules.IllegalMove = geister.Retry
	h := &Host{Rules: rules}
	recs := jgRecords(h)
	addrs := jgServe(t, h)
	ctx := jgContext(t)
	p0, p1, p := jgPair(t, ctx, addrs)
	jgMust(t, p0.send("MOV:A,S", "MOV:A,UP", "garbage", "SET:ABCD"))
	jgMust(t, p0.expect(ctx, "NG ", "NG ", "NG ", "NG "))
	jgMust(t, p1.send("MOV:A,N"))
	jgMust(t, p1.expect(ctx, "NG "))
	jgMust(t, p0.send("MOV:A,N"))
	jgMust(t, p0.expect(ctx, "OK "))
	p = jgPlay(t, p, "A,N")
	jgMust(t, p1.expect(ctx, jgMOV(p)))
	jgMust(t, p0.send("MOV:B,N"))
	jgMust(t, p0.expect(ctx, "NG "))
	p1.conn.Close()
	jgMust(t, p0.expect(ctx, "WON:"+p.Board(geister.First)))
	rec := jgNextRecord(t, ctx, recs)
	if rec.Result != (geister.Result{Reason: geister.Disconnect, Winner: geister.First}) || len(rec.Moves) != 1 {
		t.Errorf("record %+v", rec)
	}
}

// TestHostCaptureAcks plays captures of both colours and an escape
// right after a capture by the same ghost (D7: "OK ", not OKR), and checks
// the result boards.
func TestHostCaptureAcks(t *testing.T) {
	h := &Host{}
	recs := jgRecords(h)
	addrs := jgServe(t, h)
	ctx := jgContext(t)
	p0, p1, p := jgPair(t, ctx, addrs) // first: B-E red; second: E-H red
	// The second player's h steps onto the first player's exit (0,0); the
	// first player's blue A walks up the west edge, eats the blue d on
	// (1,1), then h on (0,0), and leaves.
	first := []struct{ m, ack string }{
		{"A,W", "OK "}, {"A,N", "OK "}, {"A,N", "OK "}, {"A,N", "OK "},
		{"A,E", "OKB"}, {"A,N", "OK "}, {"A,W", "OKR"}, {"A,W", "OK "},
	}
	second := []string{"H,E", "A,N", "A,S", "A,N", "A,S", "A,N", "A,S"}
	for i, mv := range first {
		jgMust(t, p0.send("MOV:"+mv.m))
		jgMust(t, p0.expect(ctx, mv.ack))
		p = jgPlay(t, p, mv.m)
		if i == len(second) {
			break
		}
		jgMust(t, p1.expect(ctx, jgMOV(p)))
		jgMust(t, p1.send("MOV:"+second[i]))
		jgMust(t, p1.expect(ctx, "OK "))
		p = jgPlay(t, p, second[i])
		jgMust(t, p0.expect(ctx, jgMOV(p)))
	}
	jgMust(t, p0.expect(ctx, "WON:"+p.Board(geister.First)))
	jgMust(t, p1.expect(ctx, "LST:"+p.Board(geister.Second)))
	if !strings.HasPrefix(p.Board(geister.First), "88b") {
		t.Errorf("A did not escape: %s", p.Board(geister.First))
	}
	rec := jgNextRecord(t, ctx, recs)
	if rec.Result != (geister.Result{Reason: geister.ChessEscape, Winner: geister.First}) || len(rec.Moves) != 15 || len(rec.Times) != 15 {
		t.Errorf("record %+v", rec)
	}
	for _, c := range []*jgClient{p0, p1} {
		jgMust(t, c.expectEOF(ctx))
	}
}

// TestHostTimeOut: a player that does not move loses on time, and
// one that moved in time is never declared late (D4): the alarm of a
// finished turn never rings.
func TestHostTimeOut(t *testing.T) {
	h := &Host{Time: mustControl(t, "0.2s/move"), Viewer: &Viewer{}}
	recs := jgRecords(h)
	addrs := jgServe(t, h)
	ctx := jgContext(t)
	p0, p1, p := jgPair(t, ctx, addrs)
	// Quick moves, several turns: no stale alarm.
	for i, m := range []string{"A,N", "A,N", "A,S", "A,S"} {
		c, o := [2]*jgClient{p0, p1}[i%2], [2]*jgClient{p0, p1}[(i+1)%2]
		jgMust(t, c.send("MOV:"+m))
		jgMust(t, c.expect(ctx, "OK "))
		p = jgPlay(t, p, m)
		jgMust(t, o.expect(ctx, jgMOV(p)))
	}
	// The first player thinks for ever; the second, waiting, is fine.
	jgMust(t, p0.expect(ctx, "LST:"+p.Board(geister.First)))
	jgMust(t, p1.expect(ctx, "WON:"+p.Board(geister.Second)))
	rec := jgNextRecord(t, ctx, recs)
	if rec.Result != (geister.Result{Reason: geister.TimeOut, Winner: geister.Second}) || len(rec.Moves) != 4 {
		t.Errorf("record %+v", rec)
	}
	for i, d := range rec.Times {
		if d < 0 || d > 200*time.Millisecond {
			t.Errorf("move %d took %v", i, d)
		}
	}
	// D10: the viewer shows the win.
	if got, want := h.Viewer.State(), "WI1:"+p.Board(geister.Second); got != want {
		t.Errorf("viewer %q, want %q", got, want)
	}
}

func mustControl(t *testing.T, s string) timer.Control {
	t.Helper()
	c, err := timer.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestHostSetupTimeout: silence during setup loses only against an
// opponent that has set; otherwise the silent player is dropped without a
// result and the next connection takes its seat.
func TestHostSetupTimeout(t *testing.T) {
	h := &Host{SetupTimeout: 100 * time.Millisecond}
	recs := jgRecords(h)
	addrs := jgServe(t, h)
	ctx := jgContext(t)
	// Alone and silent: dropped.
	lone := jgDial(t, addrs[0])
	jgMust(t, lone.expect(ctx, "SET?"))
	jgMust(t, lone.expectEOF(ctx))
	// Both silent: both dropped, no game reported.
	a, b := jgDial(t, addrs[0]), jgDial(t, addrs[1])
	jgMust(t, a.expect(ctx, "SET?"))
	jgMust(t, b.expect(ctx, "SET?"))
	jgMust(t, a.expectEOF(ctx))
	jgMust(t, b.expectEOF(ctx))
	// One sets, the other stays silent: it loses on time.
	p0, p1 := jgDial(t, addrs[0]), jgDial(t, addrs[1])
	jgMust(t, p0.expect(ctx, "SET?"))
	jgMust(t, p1.expect(ctx, "SET?"))
	jgMust(t, p1.send("SET:ABCD"))
	jgMust(t, p1.expect(ctx, "OK "))
	r := geister.RedsOf(geister.A, geister.B, geister.C, geister.D)
	board := func(receiver geister.Color) string {
		return geisterSetupBoard([2]geister.Reds{0, r}, [2]bool{false, true}, receiver).String()
	}
	jgMust(t, p0.expect(ctx, "LST:"+board(geister.First)))
	jgMust(t, p1.expect(ctx, "WON:"+board(geister.Second)))
	// The unset side shows all blue, as the Java server's default.
	if got := board(geister.First); got != "14B24B34B44B15B25B35B45B41r31r21r11r40b30b20b10b" {
		t.Errorf("setup board %s", got)
	}
	rec := jgNextRecord(t, ctx, recs)
	if rec.Result != (geister.Result{Reason: geister.TimeOut, Winner: geister.Second}) || rec.Reds != [2]geister.Reds{0, r} || rec.Start != (geister.Position{}) {
		t.Errorf("record %+v", rec)
	}
	select {
	case rec := <-recs:
		t.Errorf("a second record: %+v", rec)
	default:
	}
}

// TestHostBadPeers: peers that send garbage, a huge line, empty
// lines and nothing else, floods, or vanish lose their game (or are dropped
// during setup) and never hold up the host: a normal game follows each.
func TestHostBadPeers(t *testing.T) {
	huge := strings.Repeat("x", MaxLine+1)
	// Without a line end, a line is too long once it cannot be 1024 bytes
	// and a CRLF.
	endless := strings.Repeat("x", MaxLine+3)
	type step func(t *testing.T, ctx context.Context, p0, p1 *jgClient, p geister.Position)
	for _, tc := range []struct {
		name string
		play step
		want geister.Result
	}{
		{"disconnect in play", func(t *testing.T, ctx context.Context, p0, p1 *jgClient, p geister.Position) {
			p0.conn.Close()
			jgMust(t, p1.expect(ctx, "WON:"+p.Board(geister.Second)))
		}, geister.Result{Reason: geister.Disconnect, Winner: geister.Second}},
		{"disconnect while waiting", func(t *testing.T, ctx context.Context, p0, p1 *jgClient, p geister.Position) {
			p1.conn.Close()
			jgMust(t, p0.expect(ctx, "WON:"+p.Board(geister.First)))
		}, geister.Result{Reason: geister.Disconnect, Winner: geister.First}},
		{"half-close", func(t *testing.T, ctx context.Context, p0, p1 *jgClient, p geister.Position) {
			p0.conn.(*net.TCPConn).CloseWrite()
			jgMust(t, p1.expect(ctx, "WON:"+p.Board(geister.Second)))
		}, geister.Result{Reason: geister.Disconnect, Winner: geister.Second}},
		{"huge line", func(t *testing.T, ctx context.Context, p0, p1 *jgClient, p geister.Position) {
			jgMust(t, p0.send(huge))
			jgMust(t, p0.expect(ctx, "NG ", "LST:"+p.Board(geister.First)))
			jgMust(t, p1.expect(ctx, "WON:"+p.Board(geister.Second)))
		}, geister.Result{Reason: geister.IllegalMove, Winner: geister.Second}},
		{"huge line out of turn", func(t *testing.T, ctx context.Context, p0, p1 *jgClient, p geister.Position) {
			jgMust(t, p1.sendRaw(endless)) // and no line end at all
			jgMust(t, p1.expect(ctx, "NG ", "LST:"+p.Board(geister.Second)))
			jgMust(t, p0.expect(ctx, "WON:"+p.Board(geister.First)))
		}, geister.Result{Reason: geister.IllegalMove, Winner: geister.First}},
		{"binary garbage", func(t *testing.T, ctx context.Context, p0, p1 *jgClient, p geister.Position) {
			jgMust(t, p0.sendRaw("\x00\x01\x02\xfe\xff\r\n"))
			jgMust(t, p0.expect(ctx, "NG ", "LST:"+p.Board(geister.First)))
			jgMust(t, p1.expect(ctx, "WON:"+p.Board(geister.Second)))
		}, geister.Result{Reason: geister.IllegalMove, Winner: geister.Second}},
		{"empty lines, then nothing", func(t *testing.T, ctx context.Context, p0, p1 *jgClient, p geister.Position) {
			// D1: ignored, and they do not stop the clock.
			jgMust(t, p0.sendRaw("\r\n\r\n\n"))
			jgMust(t, p0.expect(ctx, "LST:"+p.Board(geister.First)))
			jgMust(t, p1.expect(ctx, "WON:"+p.Board(geister.Second)))
		}, geister.Result{Reason: geister.TimeOut, Winner: geister.Second}},
		{"flood", func(t *testing.T, ctx context.Context, p0, p1 *jgClient, p geister.Position) {
			// Out of turn, each line would get NG; thousands at once cut
			// the flooder off.
			go p1.sendRaw(strings.Repeat("MOV:A,N\r\n", 4*geisterFloodBurst))
			jgMust(t, p0.expect(ctx, "WON:"+p.Board(geister.First)))
		}, geister.Result{Reason: geister.Disconnect, Winner: geister.First}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := &Host{Time: mustControl(t, "0.5s+0.2s/move")}
			recs := jgRecords(h)
			addrs := jgServe(t, h)
			ctx := jgContext(t)
			p0, p1, p := jgPair(t, ctx, addrs)
			tc.play(t, ctx, p0, p1, p)
			if rec := jgNextRecord(t, ctx, recs); rec.Result != tc.want {
				t.Errorf("result %v, want %v", rec.Result, tc.want)
			}
			jgNormalGame(t, ctx, addrs, recs)
		})
	}
	t.Run("during setup", func(t *testing.T) {
		t.Parallel()
		h := &Host{}
		recs := jgRecords(h)
		addrs := jgServe(t, h)
		ctx := jgContext(t)
		// Each misbehaves before setting, with no opponent set: dropped.
		for _, bad := range []func(c *jgClient){
			func(c *jgClient) { c.conn.Close() },
			func(c *jgClient) { c.sendRaw(endless) },
			func(c *jgClient) { c.send(huge) },
			func(c *jgClient) { c.sendRaw(strings.Repeat("SET:ZZZZ\r\n", 4*geisterFloodBurst)) },
		} {
			c := jgDial(t, addrs[1])
			jgMust(t, c.expect(ctx, "SET?"))
			bad(c)
			for {
				if _, err := c.next(ctx); err != nil {
					if errors.Is(err, os.ErrDeadlineExceeded) {
						t.Fatal("not dropped")
					}
					break
				}
			}
		}
		// After the opponent has set, vanishing loses.
		p0, p1 := jgDial(t, addrs[0]), jgDial(t, addrs[1])
		jgMust(t, p0.expect(ctx, "SET?"))
		jgMust(t, p0.send("SET:ABCD"))
		jgMust(t, p0.expect(ctx, "OK "))
		jgMust(t, p1.expect(ctx, "SET?"))
		p1.conn.Close()
		r := geister.RedsOf(geister.A, geister.B, geister.C, geister.D)
		jgMust(t, p0.expect(ctx, "WON:"+geisterSetupBoard([2]geister.Reds{r, 0}, [2]bool{true, false}, geister.First).String()))
		if rec := jgNextRecord(t, ctx, recs); rec.Result != (geister.Result{Reason: geister.Disconnect, Winner: geister.First}) {
			t.Errorf("result %v", rec.Result)
		}
		jgNormalGame(t, ctx, addrs, recs)
	})
}

// jgNormalGame plays a short game on the host: the first player's blue A
// escapes on ply 11, as in scenario-escape-west.
func jgNormalGame(t *testing.T, ctx context.Context, addrs [2]string, recs chan GameRecord) {
	t.Helper()
	p0, p1 := jgDial(t, addrs[0]), jgDial(t, addrs[1])
	jgMust(t, p0.expect(ctx, "SET?"))
	jgMust(t, p1.expect(ctx, "SET?"))
	jgMust(t, p0.send("SET:EFGH"))
	jgMust(t, p1.send("SET:BCDE"))
	jgMust(t, p0.expect(ctx, "OK "))
	jgMust(t, p1.expect(ctx, "OK "))
	p := jgStart(t, "EFGH", "BCDE")
	moves := []string{"A,W", "A,N", "A,N", "A,S", "A,N", "A,N", "A,N", "A,S", "A,N", "A,N", "A,W"}
	c := [2]*jgClient{p0, p1}
	for i, m := range moves {
		jgMust(t, c[i%2].expect(ctx, jgMOV(p)))
		jgMust(t, c[i%2].send("MOV:"+m))
		jgMust(t, c[i%2].expect(ctx, "OK "))
		p = jgPlay(t, p, m)
	}
	jgMust(t, p0.expect(ctx, "WON:"+p.Board(geister.First)))
	jgMust(t, p1.expect(ctx, "LST:"+p.Board(geister.Second)))
	if rec := jgNextRecord(t, ctx, recs); rec.Result != (geister.Result{Reason: geister.ChessEscape, Winner: geister.First}) {
		t.Errorf("result %v", rec.Result)
	}
}

// TestHostQueue: games run one after the other on the same ports; a
// connection that arrives while its seat is taken waits, unread, and gets
// SET? when the next game starts.
func TestHostQueue(t *testing.T) {
	h := &Host{}
	recs := jgRecords(h)
	addrs := jgServe(t, h)
	ctx := jgContext(t)
	p0, p1, p := jgPair(t, ctx, addrs)
	next0 := jgDial(t, addrs[0])
	jgMust(t, next0.send("SET:ABCD")) // read only once its game starts
	next0.conn.SetReadDeadline(time.Now().Add(50 * time.Millisecond))
	if _, err := next0.br.ReadByte(); !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("a waiting connection got something: %v", err)
	}
	p0.conn.Close()
	jgMust(t, p1.expect(ctx, "WON:"+p.Board(geister.Second)))
	if rec := jgNextRecord(t, ctx, recs); rec.ID != 0 {
		t.Errorf("first game's ID %d", rec.ID)
	}
	jgMust(t, next0.expect(ctx, "SET?", "OK "))
	next1 := jgDial(t, addrs[1])
	jgMust(t, next1.expect(ctx, "SET?"))
	jgMust(t, next1.send("SET:ABCD"))
	jgMust(t, next1.expect(ctx, "OK "))
	start := jgStart(t, "ABCD", "ABCD")
	jgMust(t, next0.expect(ctx, jgMOV(start)))
	next1.conn.Close()
	jgMust(t, next0.expect(ctx, "WON:"+start.Board(geister.First)))
	if rec := jgNextRecord(t, ctx, recs); rec.ID != 1 || rec.Result.Winner != geister.First {
		t.Errorf("second game: %+v", rec)
	}
}

// TestHostWait: with Wait, the next MOV? comes after the pause, and
// the pause is charged to nobody.
func TestHostWait(t *testing.T) {
	h := &Host{Wait: 150 * time.Millisecond, Time: mustControl(t, "0.1s/move")}
	recs := jgRecords(h)
	addrs := jgServe(t, h)
	ctx := jgContext(t)
	p0, p1, p := jgPair(t, ctx, addrs)
	for i, m := range []string{"A,N", "A,N", "A,S"} {
		c, o := [2]*jgClient{p0, p1}[i%2], [2]*jgClient{p0, p1}[(i+1)%2]
		sent := time.Now()
		jgMust(t, c.send("MOV:"+m))
		jgMust(t, c.expect(ctx, "OK "))
		p = jgPlay(t, p, m)
		jgMust(t, o.expect(ctx, jgMOV(p)))
		if d := time.Since(sent); d < h.Wait {
			t.Errorf("MOV? after %v, before the %v pause", d, h.Wait)
		}
	}
	p0.conn.Close()
	p1.conn.Close()
	if rec := jgNextRecord(t, ctx, recs); len(rec.Moves) != 3 || rec.Result.Reason != geister.Disconnect {
		t.Errorf("record %+v", rec)
	}
}

// TestHostShutdown: Serve returns promptly with a game in play,
// reports it unfinished and closes its connections.
func TestHostShutdown(t *testing.T) {
	h := &Host{}
	recs := jgRecords(h)
	var lns [2]net.Listener
	for i := range lns {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		jgMust(t, err)
		lns[i] = ln
	}
	sctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	errc := make(chan error, 1)
	go func() { errc <- h.Serve(sctx, lns[0], lns[1]) }()
	ctx := jgContext(t)
	p0, p1, _ := jgPair(t, ctx, [2]string{lns[0].Addr().String(), lns[1].Addr().String()})
	cancel()
	select {
	case err := <-errc:
		if err != nil {
			t.Errorf("Serve: %v", err)
		}
	case <-ctx.Done():
		t.Fatal("Serve did not return")
	}
	if rec := jgNextRecord(t, ctx, recs); rec.Result.Reason != geister.Unfinished {
		t.Errorf("record %+v", rec)
	}
	jgMust(t, p0.expectEOF(ctx))
	jgMust(t, p1.expectEOF(ctx))
	if _, err := net.Dial("tcp", lns[0].Addr().String()); err == nil {
		t.Error("the listener is still open")
	}
}

func TestHostConfig(t *testing.T) {
	ln := func() net.Listener {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		jgMust(t, err)
		return l
	}
	decided := jgRedOnExit(t)
	decided, _ = decided.Play(jgMoveOf(t, "B,N"))
	for _, h := range []*Host{
		{Rules: geister.Rules{PlyLimit: -1}},
		{Rules: geister.Rules{IllegalMove: 7}},
		{Wait: -time.Second},
		{Time: timer.Control{Main: -time.Second}},
	} {
		if err := h.Serve(t.Context(), ln(), ln()); err == nil {
			t.Errorf("%+v: Serve accepted it", h)
		}
	}
	if err := (&Host{}).Serve(t.Context(), nil, ln()); err == nil {
		t.Error("a nil listener")
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if err := (&Host{}).ListenAndServe(ctx, "127.0.0.1:0", "127.0.0.1:0"); err != nil {
		t.Errorf("ListenAndServe with a done context: %v", err)
	}
	busy := ln()
	for _, addrs := range [][2]string{{busy.Addr().String(), "127.0.0.1:0"}, {"127.0.0.1:0", busy.Addr().String()}} {
		if err := (&Host{}).ListenAndServe(t.Context(), addrs[0], addrs[1]); err == nil {
			t.Errorf("ListenAndServe on a busy port %v", addrs)
		}
	}
	// A listener that fails stops the host with its error.
	bad := &failingListener{Listener: ln()}
	if err := (&Host{}).Serve(t.Context(), bad, ln()); !errors.Is(err, errFailingListener) {
		t.Errorf("Serve = %v, want the accept error", err)
	}
}

var errFailingListener = errors.New("accept failed for good")

// failingListener fails its first Accept.
type failingListener struct{ net.Listener }

func (l *failingListener) Accept() (net.Conn, error) { return nil, errFailingListener }

func jgMoveOf(t *testing.T, s string) geister.Move {
	t.Helper()
	m, err := geister.ParseMove(s)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

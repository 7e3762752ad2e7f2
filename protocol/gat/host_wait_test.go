package gat

import (
	"context"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/botarena/botarena/geister"
)

// jgWrite is one message the host wrote to a player's socket, with the
// times its write began and returned.
type jgWrite struct {
	seat       geister.Color
	msg        string // without CRLF
	begin, end time.Time
}

// jgStampListener is a 127.0.0.1 TCP listener whose connections note every
// write the host makes (the host writes one message per write), so that a
// test reads the gaps on the wire without depending on when its clients
// get to run.
type jgStampListener struct {
	net.Listener
	seat geister.Color
	log  *jgWriteLog
}

type jgWriteLog struct {
	mu      sync.Mutex
	writes  []jgWrite
	changed chan struct{} // closed and replaced at every write
}

func (l *jgStampListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &jgStampConn{TCPConn: c.(*net.TCPConn), seat: l.seat, log: l.log}, nil
}

// jgStampConn is a *net.TCPConn (CloseWrite and all) that notes its writes.
type jgStampConn struct {
	*net.TCPConn
	seat geister.Color
	log  *jgWriteLog
}

func (c *jgStampConn) Write(b []byte) (int, error) {
	begin := time.Now()
	n, err := c.TCPConn.Write(b)
	w := jgWrite{seat: c.seat, msg: strings.TrimSuffix(string(b), "\r\n"), begin: begin, end: time.Now()}
	c.log.mu.Lock()
	c.log.writes = append(c.log.writes, w)
	close(c.log.changed)
	c.log.changed = make(chan struct{})
	c.log.mu.Unlock()
	return n, err
}

// find returns the first write to seat whose message starts with prefix,
// waiting for it (a client may read a message before its write returns).
func (l *jgWriteLog) find(t *testing.T, ctx context.Context, seat geister.Color, prefix string) jgWrite {
	t.Helper()
	return l.findAfter(t, ctx, seat, prefix, time.Time{})
}

// findAfter is find for the writes that began after after.
func (l *jgWriteLog) findAfter(t *testing.T, ctx context.Context, seat geister.Color, prefix string, after time.Time) jgWrite {
	t.Helper()
	for {
		l.mu.Lock()
		for _, w := range l.writes {
			if w.seat == seat && strings.HasPrefix(w.msg, prefix) && w.begin.After(after) {
				l.mu.Unlock()
				return w
			}
		}
		ch := l.changed
		l.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			t.Fatalf("the host wrote no %q to the %s player", prefix, seat)
		}
	}
}

// jgServeStamped runs h like jgServe, on listeners that note the host's
// writes.
func jgServeStamped(t *testing.T, h *Host) ([2]string, *jgWriteLog) {
	t.Helper()
	log := &jgWriteLog{changed: make(chan struct{})}
	var lns [2]net.Listener
	for i := range lns {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		jgMust(t, err)
		lns[i] = &jgStampListener{Listener: ln, seat: geister.Color(i), log: log}
	}
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() { errc <- h.Serve(ctx, lns[0], lns[1]) }()
	t.Cleanup(func() {
		cancel()
		if err := <-errc; err != nil {
			t.Errorf("Serve returned %v", err)
		}
	})
	return [2]string{lns[0].Addr().String(), lns[1].Addr().String()}, log
}

// jgGap checks that the host began writing later at least wait after it
// had written earlier, on the wire.
func jgGap(t *testing.T, what string, earlier, later jgWrite, wait time.Duration) {
	t.Helper()
	if gap := later.begin.Sub(earlier.end); gap < wait {
		t.Errorf("%s: %q to the %s player %v after %q to the %s player, under the %v wait",
			what, later.msg, later.seat, gap, earlier.msg, earlier.seat, wait)
	}
}

// jgBlueOnExit is a position where the first player's blue A stands on its
// exit (0,0), first to move: A,N escapes and wins.
func jgBlueOnExit(t *testing.T) geister.Position {
	t.Helper()
	s := geister.StartSetup(geister.RedsOf(geister.E, geister.F, geister.G, geister.H), geister.RedsOf(geister.A, geister.B, geister.C, geister.D))
	s.Ghosts[geister.First][geister.A] = geister.SquareAt(0, 0)
	p, err := geister.NewPosition(s)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestHostWaitBeforeResults checks --wait where the Java server
// sleeps: after every reply, from the moment it has been
// written, before whatever comes next: the first MOV? after the OK of the
// second SET:, the results after the OK of a winning move, the LST: (and
// the opponent's WON:) after the NG of an illegal move, the next command
// after a NG under --no_ng_terminate. The gaps are read on the host's
// socket writes; each client, on real TCP, gets its result at least the wait
// after it sent its move, and the reply first, on a line of its own.
func TestHostWaitBeforeResults(t *testing.T) {
	const wait = 200 * time.Millisecond
	retry := geister.GAT
	retry.IllegalMove = geister.Retry
	for _, tc := range []struct {
		name       string
		rules      geister.Rules
		line       string // the first player's command at its first MOV?
		reply      string // its reply
		mover, opp string // the prefixes of what comes next to each
		result     geister.Result
	}{
		{"escape", geister.GAT, "MOV:A,N", "OK ", "WON:", "LST:", geister.Result{Reason: geister.ChessEscape, Winner: geister.First}},
		{"illegal move", geister.GAT, "MOV:B,S", "NG ", "LST:", "WON:", geister.Result{Reason: geister.IllegalMove, Winner: geister.Second}},
		{"retry", retry, "MOV:B,S", "NG ", "OK ", "", geister.Result{Reason: geister.ChessEscape, Winner: geister.First}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := &Host{Wait: wait, Start: jgBlueOnExit(t), Rules: tc.rules}
			recs := jgRecords(h)
			addrs, log := jgServeStamped(t, h)
			ctx := jgContext(t)
			p0, p1 := jgDial(t, addrs[0]), jgDial(t, addrs[1])
			for _, p := range []*jgClient{p0, p1} {
				jgMust(t, p.expect(ctx, "SET?"))
				jgMust(t, p.send("SET:EFGH"))
				jgMust(t, p.expect(ctx, "OK "))
			}
			jgMust(t, p0.expect(ctx, jgMOV(h.Start)))
			jgGap(t, "start", log.find(t, ctx, geister.Second, "OK "), log.find(t, ctx, geister.First, "MOV?"), wait)

			lines := []string{tc.line}
			if tc.name == "retry" {
				lines = append(lines, "MOV:A,N") // handled after the pause
			}
			sent := time.Now()
			jgMust(t, p0.send(lines...))
			got, err := p0.next(ctx)
			jgMust(t, err)
			if got != tc.reply {
				t.Fatalf("reply %q, want %q", got, tc.reply)
			}
			next, err := p0.next(ctx)
			jgMust(t, err)
			if !strings.HasPrefix(next, tc.mover) {
				t.Fatalf("after %q: %q, want %s...", got, next, tc.mover)
			}
			if d := time.Since(sent); d < wait {
				t.Errorf("%q came %v after the move, under the %v wait", next, d, wait)
			}
			if tc.name == "retry" {
				// The second move escapes: its OK, then the results, each
				// after a pause.
				won, err := p0.next(ctx)
				jgMust(t, err)
				if !strings.HasPrefix(won, "WON:") {
					t.Fatalf("after the escape: %q", won)
				}
				ng := log.find(t, ctx, geister.First, "NG ")
				jgGap(t, "retry", ng, log.findAfter(t, ctx, geister.First, "OK ", ng.end), wait)
				jgGap(t, "retry", ng, log.find(t, ctx, geister.First, "WON:"), 2*wait)
				jgMust(t, p1.expect(ctx, "LST:"+jgPlay(t, h.Start, "A,N").Board(geister.Second)))
			} else {
				opp, err := p1.next(ctx)
				jgMust(t, err)
				if !strings.HasPrefix(opp, tc.opp) {
					t.Fatalf("the second player got %q, want %s...", opp, tc.opp)
				}
				reply := log.find(t, ctx, geister.First, tc.reply)
				jgGap(t, tc.name, reply, log.find(t, ctx, geister.First, tc.mover), wait)
				jgGap(t, tc.name, reply, log.find(t, ctx, geister.Second, tc.opp), wait)
			}
			if rec := jgNextRecord(t, ctx, recs); rec.Result != tc.result {
				t.Errorf("result %v, want %v", rec.Result, tc.result)
			}
		})
	}
}

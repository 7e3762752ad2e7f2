package protocol

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
)

// ---- test helpers ----

// jgServe runs h on two fresh 127.0.0.1 ports until the test ends, checks
// that Serve then returns nil, promptly, and returns the two addresses.
func jgServe(t *testing.T, h *GeisterHost) [2]string {
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
func jgRecords(h *GeisterHost) chan GeisterGameRecord {
	ch := make(chan GeisterGameRecord, 16)
	h.OnGameEnd = func(r GeisterGameRecord) { ch <- r }
	return ch
}

// jgNextRecord waits for the next game record.
func jgNextRecord(t *testing.T, ctx context.Context, ch chan GeisterGameRecord) GeisterGameRecord {
	t.Helper()
	select {
	case r := <-ch:
		return r
	case <-ctx.Done():
		t.Fatal("no game record")
		return GeisterGameRecord{}
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

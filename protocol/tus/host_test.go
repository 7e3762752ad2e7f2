package tus

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/botarena/botarena/othello"
)

// ---- test helpers ----

// hostTestContext is a context that bounds a test's waiting.
func hostTestContext(t *testing.T) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// hostTestServe runs h on a fresh 127.0.0.1 port until the test ends, and
// checks that Serve then returns nil, promptly.
func hostTestServe(t *testing.T, h *Host) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	return hostTestServeOn(t, h, ln)
}

// hostTestNickGrace is the grace a test host gives a client that sends no
// NICK, unless the test chose one: most tests pair clients that never send
// NICK, and need not wait hostNickGrace for each pair. A test that checks
// the names at pairing sets nickGrace itself.
const hostTestNickGrace = 10 * time.Millisecond

func hostTestServeOn(t *testing.T, h *Host, ln net.Listener) string {
	t.Helper()
	if h.nickGrace == 0 {
		h.nickGrace = hostTestNickGrace
	}
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() { errc <- h.Serve(ctx, ln) }()
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
	return ln.Addr().String()
}

// hostTestClient is a raw TUS client for tests. It reads lines strictly:
// only the LF is taken off, so a stray CR would show.
type hostTestClient struct {
	conn net.Conn
	br   *bufio.Reader
}

func hostTestDial(t *testing.T, addr string) *hostTestClient {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return hostTestWrap(conn)
}

func hostTestWrap(conn net.Conn) *hostTestClient {
	return &hostTestClient{conn: conn, br: bufio.NewReader(conn)}
}

// send writes each line with an LF.
func (c *hostTestClient) send(lines ...string) error {
	var b []byte
	for _, l := range lines {
		b = append(append(b, l...), '\n')
	}
	_, err := c.conn.Write(b)
	return err
}

// next reads one line, waiting until ctx's deadline at most.
func (c *hostTestClient) next(ctx context.Context) (string, error) {
	if d, ok := ctx.Deadline(); ok {
		c.conn.SetReadDeadline(d)
	}
	line, err := c.br.ReadString('\n')
	if err != nil {
		if line != "" && errors.Is(err, io.EOF) {
			return "", fmt.Errorf("line %q without LF before EOF", line)
		}
		return "", err
	}
	return line[:len(line)-1], nil
}

// expect reads len(want) lines and compares them with want.
func (c *hostTestClient) expect(ctx context.Context, want ...string) error {
	var got []string
	for range want {
		line, err := c.next(ctx)
		if err != nil {
			return fmt.Errorf("after %q: %w", got, err)
		}
		got = append(got, line)
	}
	if d := cmp.Diff(want, got); d != "" {
		return fmt.Errorf("lines differ (-want +got):\n%s", d)
	}
	return nil
}

// expectEOF checks that the host closes the connection without another
// line.
func (c *hostTestClient) expectEOF(ctx context.Context) error {
	line, err := c.next(ctx)
	switch {
	case err == nil:
		return fmt.Errorf("got %q, want the connection closed", line)
	case errors.Is(err, io.EOF), errors.Is(err, net.ErrClosed), errors.Is(err, io.ErrClosedPipe):
		return nil
	case errors.Is(err, os.ErrDeadlineExceeded):
		return fmt.Errorf("connection still open: %w", err)
	}
	return nil // a reset is a close too
}

// must fails the test (from the test goroutine) on an error.
func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// hostTestBot plays the first legal move on every TURN of its colour until
// END. It returns every line it got, END included.
func hostTestBot(ctx context.Context, c *hostTestClient, nick string) ([]string, error) {
	if nick != "" {
		if err := c.send("NICK " + nick); err != nil {
			return nil, err
		}
	}
	return hostTestPlay(ctx, c, othello.Black, Event{})
}

// hostTestPlay is hostTestBot's play after its NICK: me and board are the
// colour and the position the client knows so far (a START and a BOARD
// read before it change them).
func hostTestPlay(ctx context.Context, c *hostTestClient, me othello.Color, board Event) ([]string, error) {
	var lines []string
	for {
		line, err := c.next(ctx)
		if err != nil {
			return lines, err
		}
		lines = append(lines, line)
		e, err := ParseEvent(line)
		if err != nil {
			return lines, fmt.Errorf("bad line from host: %w", err)
		}
		switch e.Kind {
		case Start:
			me = e.Color
		case Board:
			board = e
		case Error:
			return lines, fmt.Errorf("ERROR %d", e.Code)
		case End:
			return lines, nil
		case Turn:
			if e.Color != me {
				continue
			}
			p, err := othello.NewPosition(othello.Setup{Black: board.Black, White: board.White, Turn: me})
			if err != nil {
				return lines, err
			}
			moves := p.AppendLegalMoves(nil)
			if len(moves) == 0 || moves[0].IsPass() {
				return lines, fmt.Errorf("TURN %s with no move in %s", me, p)
			}
			sq := moves[0].Square()
			if err := c.send(fmt.Sprintf("PUT %d %d", sq.X(), sq.Y())); err != nil {
				return lines, err
			}
		}
	}
}

// hostTestConsole collects lines written to it and lets a test wait for
// one.
type hostTestConsole struct {
	mu      sync.Mutex
	partial []byte
	lines   []string
	changed chan struct{}
}

func newHostTestConsole() *hostTestConsole {
	return &hostTestConsole{changed: make(chan struct{})}
}

func (k *hostTestConsole) Write(p []byte) (int, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.partial = append(k.partial, p...)
	for {
		i := bytes.IndexByte(k.partial, '\n')
		if i < 0 {
			break
		}
		k.lines = append(k.lines, string(k.partial[:i]))
		k.partial = k.partial[i+1:]
	}
	close(k.changed)
	k.changed = make(chan struct{})
	return len(p), nil
}

// waitFor waits until a line contains s.
func (k *hostTestConsole) waitFor(ctx context.Context, s string) error {
	for {
		k.mu.Lock()
		for _, l := range k.lines {
			if strings.Contains(l, s) {
				k.mu.Unlock()
				return nil
			}
		}
		ch := k.changed
		k.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			return fmt.Errorf("no console line with %q: %w", s, ctx.Err())
		}
	}
}

func (k *hostTestConsole) all() []string {
	k.mu.Lock()
	defer k.mu.Unlock()
	return slices.Clone(k.lines)
}

// hostBoardLine is the BOARD line of p, without LF.
func hostBoardLine(p othello.Position) string {
	b := AppendEvent(nil, BoardEvent(p))
	return string(b[:len(b)-1])
}

// hostPlay returns p after the PUT at (x, y).
func hostPlay(t *testing.T, p othello.Position, x, y int) othello.Position {
	t.Helper()
	q, err := p.Play(othello.Place(othello.SquareAt(x, y)))
	if err != nil {
		t.Fatal(err)
	}
	return q
}

// hostPair dials black then white on a FIFO host and reads both START,
// BOARD and TURN lines.
func hostPair(t *testing.T, ctx context.Context, addr string, start othello.Position) (b, w *hostTestClient) {
	t.Helper()
	b = hostTestDial(t, addr)
	w = hostTestDial(t, addr)
	turn := "TURN 1"
	if start.Turn() == othello.White {
		turn = "TURN -1"
	}
	must(t, b.expect(ctx, "START 1", hostBoardLine(start), turn))
	must(t, w.expect(ctx, "START -1", hostBoardLine(start), turn))
	return b, w
}

// hostRecords collects the records OnGameEnd reports.
func hostRecords(h *Host) chan GameRecord {
	ch := make(chan GameRecord, 256)
	h.OnGameEnd = func(r GameRecord) { ch <- r }
	return ch
}

func hostNextRecord(t *testing.T, ctx context.Context, ch chan GameRecord) GameRecord {
	t.Helper()
	select {
	case r := <-ch:
		return r
	case <-ctx.Done():
		t.Fatal("no game ended")
	}
	return GameRecord{}
}

// hostDrawStart is a position where black's only move, a1, fills the board
// at 32-32.
func hostDrawStart(t *testing.T) othello.Position {
	t.Helper()
	s := othello.Setup{Turn: othello.Black}
	s.White |= othello.B1.Bit()
	s.Black |= othello.C1.Bit() | othello.A2.Bit() | othello.B2.Bit()
	blacks := 27
	for sq := othello.A1; sq <= othello.H8; sq++ {
		if sq == othello.A1 || (s.Black | s.White).Has(sq) {
			continue
		}
		if blacks > 0 {
			s.Black |= sq.Bit()
			blacks--
		} else {
			s.White |= sq.Bit()
		}
	}
	p, err := othello.NewPosition(s)
	if err != nil {
		t.Fatal(err)
	}
	if p.Flips(othello.A1) != othello.B1.Bit() || p.Count(othello.Black) != 30 || p.Count(othello.White) != 33 {
		t.Fatalf("draw start is wrong: %s", p)
	}
	return p
}

// ---- tests ----

// TestHostErrors checks every ERROR code, the order of the checks
// (format, turn, legality), that ERRORs go to the sender only and change
// nothing, and that an empty line is ignored.
func TestHostErrors(t *testing.T) {
	t.Parallel()
	ctx := hostTestContext(t)
	addr := hostTestServe(t, &Host{Pairing: PairFIFO})
	start := othello.TUS.Start
	b, w := hostPair(t, ctx, addr, start)

	for _, line := range []string{"PUT 1", "PUT a b", "PUT 1 2 3", "PUT  4 2", "PUT 4 2x", "NICK", "NICK a:b", "NICK [x]", "BOARD now", "CLOSE now", "SAY", "SAY   "} {
		must(t, b.send(line))
		if err := b.expect(ctx, "ERROR 1"); err != nil {
			t.Fatalf("%q: %v", line, err)
		}
	}
	for _, line := range []string{"HELLO", "put 4 2", "Put 4 2", " PUT 4 2", "\x00\xff\xfe", "START 1", "TURN"} {
		must(t, b.send(line))
		if err := b.expect(ctx, "ERROR 4"); err != nil {
			t.Fatalf("%q: %v", line, err)
		}
	}
	// White on black's turn: the format is checked first, then the turn,
	// and legality only after.
	for line, want := range map[string]string{"PUT 4 2": "ERROR 3", "PUT 0 0": "ERROR 3", "PUT 9 9": "ERROR 3", "PUT x": "ERROR 1", "JUMP": "ERROR 4"} {
		must(t, w.send(line))
		if err := w.expect(ctx, want); err != nil {
			t.Fatalf("white %q: %v", line, err)
		}
	}
	for _, line := range []string{"PUT 0 0", "PUT 3 3", "PUT 4 4", "PUT 8 0", "PUT 0 8", "PUT -1 2", "PUT 99999999999999999999 0", "PUT 5 4"} {
		must(t, b.send(line))
		if err := b.expect(ctx, "ERROR 2"); err != nil {
			t.Fatalf("%q: %v", line, err)
		}
	}
	// Empty and blank lines are ignored; CRLF is accepted. Nothing above
	// changed the game: black's PUT 4 2 is its first move.
	must(t, b.send("", "   ", "PUT 4 2\r"))
	next := hostPlay(t, start, 4, 2)
	must(t, b.expect(ctx, hostBoardLine(next), "TURN -1"))
	must(t, w.expect(ctx, hostBoardLine(next), "TURN -1"))
	// Now black is out of turn.
	must(t, b.send("PUT 5 4"))
	must(t, b.expect(ctx, "ERROR 3"))
	must(t, w.send("PUT 5 4"))
	next = hostPlay(t, next, 5, 4)
	must(t, b.expect(ctx, hostBoardLine(next), "TURN 1"))
	must(t, w.expect(ctx, hostBoardLine(next), "TURN 1"))
}

// TestHostSayAndBoard checks the SAY relay to both players and the
// BOARD request, answered to the sender only.
func TestHostSayAndBoard(t *testing.T) {
	t.Parallel()
	ctx := hostTestContext(t)
	addr := hostTestServe(t, &Host{Pairing: PairFIFO})
	start := othello.TUS.Start
	b, w := hostPair(t, ctx, addr, start)
	must(t, b.send("NICK alice", "SAY hi there"))
	must(t, b.expect(ctx, "SAY alice: hi there"))
	must(t, w.expect(ctx, "SAY alice: hi there"))
	must(t, w.send("SAY before my nick", "NICK bob", "SAY  two  spaces: and a colon "))
	must(t, b.expect(ctx, "SAY WHITE: before my nick", "SAY bob:  two  spaces: and a colon"))
	must(t, w.expect(ctx, "SAY WHITE: before my nick", "SAY bob:  two  spaces: and a colon"))

	must(t, w.send("BOARD"))
	must(t, w.expect(ctx, hostBoardLine(start)))
	must(t, b.send("PUT 4 2"))
	next := hostPlay(t, start, 4, 2)
	// Black never saw white's BOARD answer.
	must(t, b.expect(ctx, hostBoardLine(next), "TURN -1"))
	must(t, w.expect(ctx, hostBoardLine(next), "TURN -1"))
	must(t, b.send("BOARD"))
	must(t, b.expect(ctx, hostBoardLine(next)))
}

// TestHostBeforePairing checks the course server's behaviour before a game: NICK is
// applied at once, other lines wait and run after the first TURN, more than
// 64 waiting lines get ERROR 4 and a SAY saying why and close the
// connection, and a waiting client that drops is just removed from the pool.
func TestHostBeforePairing(t *testing.T) {
	t.Parallel()
	ctx := hostTestContext(t)
	console := newHostTestConsole()
	h := &Host{Pairing: PairFIFO, Console: console,
		Logger: slog.New(slog.NewTextHandler(console, &slog.HandlerOptions{Level: slog.LevelDebug}))}
	records := hostRecords(h)
	addr := hostTestServe(t, h)

	// 65 lines before pairing: told so and closed, never paired.
	flood := hostTestDial(t, addr)
	for i := range hostPendingMax + 1 {
		must(t, flood.send(fmt.Sprintf("SAY %d", i)))
	}
	must(t, flood.expect(ctx, "ERROR 4", hostTestOverBudget))
	must(t, flood.expectEOF(ctx))
	// A waiting client that leaves is dropped.
	gone := hostTestDial(t, addr)
	must(t, gone.send("NICK gone"))
	must(t, console.waitFor(ctx, "Recv from WAITING:NICK gone"))
	gone.conn.Close()
	must(t, console.waitFor(ctx, "waiting client left"))

	b := hostTestDial(t, addr)
	must(t, b.send("NICK early", "SAY hi", "BOARD", "NICK ", "PUT 4 2"))
	// The lines after NICK are labelled with the new name: NICK took effect
	// at once.
	must(t, console.waitFor(ctx, "Recv from early:PUT 4 2"))
	w := hostTestDial(t, addr)
	start := othello.TUS.Start
	next := hostPlay(t, start, 4, 2)
	must(t, b.expect(ctx, "START 1", hostBoardLine(start), "TURN 1",
		"SAY early: hi", hostBoardLine(start), "ERROR 1", hostBoardLine(next), "TURN -1"))
	must(t, w.expect(ctx, "START -1", hostBoardLine(start), "TURN 1",
		"SAY early: hi", hostBoardLine(next), "TURN -1"))
	w.conn.Close()
	must(t, b.expect(ctx, "END Win:[early] early:4 WHITE:1", "CLOSE"))
	must(t, b.expectEOF(ctx))
	if r := hostNextRecord(t, ctx, records); r.ID != 0 || r.Black != "early" || r.Result.Reason != othello.Disconnect {
		t.Errorf("record %+v", r)
	}
}

// TestHostPass checks a forced pass: the same TURN again.
func TestHostPass(t *testing.T) {
	t.Parallel()
	// Find, by seeded random play, a position and a move after which the
	// opponent must pass.
	rng := rand.New(rand.NewPCG(1, 2))
	var start othello.Position
	var pass othello.Move
	for start == (othello.Position{}) {
		g := othello.NewGame(othello.TUS)
		for !g.IsOver() && start == (othello.Position{}) {
			p := g.Position()
			moves := p.AppendLegalMoves(nil)
			m := moves[rng.IntN(len(moves))]
			if !m.IsPass() {
				if q := p.PlayUnchecked(m); q.MustPass() {
					start, pass = p, m
				}
			}
			must(t, g.Play(m))
		}
	}
	ctx := hostTestContext(t)
	addr := hostTestServe(t, &Host{Pairing: PairFIFO, Rules: othello.Rules{Name: "pass", Start: start}})
	b, w := hostPair(t, ctx, addr, start)
	mover := map[othello.Color]*hostTestClient{othello.Black: b, othello.White: w}[start.Turn()]
	turn := map[othello.Color]string{othello.Black: "TURN 1", othello.White: "TURN -1"}[start.Turn()]
	must(t, mover.send(fmt.Sprintf("PUT %d %d", pass.Square().X(), pass.Square().Y())))
	next := start.PlayUnchecked(pass)
	for _, c := range []*hostTestClient{b, w} {
		must(t, c.expect(ctx, hostBoardLine(next), turn))
	}
}

// TestHostDraw checks a drawn game: BOARD, then END Draw, no TURN.
func TestHostDraw(t *testing.T) {
	t.Parallel()
	ctx := hostTestContext(t)
	start := hostDrawStart(t)
	h := &Host{Pairing: PairFIFO, Rules: othello.Rules{Name: "draw", Start: start}}
	records := hostRecords(h)
	addr := hostTestServe(t, h)
	b, w := hostPair(t, ctx, addr, start)
	must(t, b.send("PUT 0 0"))
	final := hostPlay(t, start, 0, 0)
	for _, c := range []*hostTestClient{b, w} {
		must(t, c.expect(ctx, hostBoardLine(final), "END Draw BLACK:32 WHITE:32"))
	}
	r := hostNextRecord(t, ctx, records)
	if !r.Result.Draw || r.Result.Reason != othello.Discs || r.End != "Draw BLACK:32 WHITE:32" || r.Start != start || len(r.Moves) != 1 {
		t.Errorf("record %+v", r)
	}
}

// TestHostTimeout checks the per-TURN limit: the clock runs from TURN
// to a valid PUT, an ERROR does not restart it, and the player who runs out
// loses whatever the discs.
func TestHostTimeout(t *testing.T) {
	t.Parallel()
	ctx := hostTestContext(t)
	const limit = 200 * time.Millisecond
	console := newHostTestConsole()
	h := &Host{Pairing: PairFIFO, Timeout: limit, Console: console}
	records := hostRecords(h)
	addr := hostTestServe(t, h)
	// Black's move waits for the game and is played at once after the
	// first TURN, however loaded the machine is.
	b := hostTestDial(t, addr)
	must(t, b.send("PUT 4 2"))
	must(t, console.waitFor(ctx, "Recv from WAITING:PUT 4 2"))
	dialed := time.Now() // white's clock cannot start before this
	w := hostTestDial(t, addr)
	start := othello.TUS.Start
	next := hostPlay(t, start, 4, 2)
	must(t, w.expect(ctx, "START -1", hostBoardLine(start), "TURN 1", hostBoardLine(next), "TURN -1"))
	// White sends a bad PUT, then nothing: it loses on time, whatever the
	// discs.
	must(t, w.send("PUT 0 0"))
	must(t, w.expect(ctx, "ERROR 2", "END Win:[BLACK] BLACK:4 WHITE:1"))
	if el := time.Since(dialed); el < limit {
		t.Errorf("END %v after white connected; the limit is %v", el, limit)
	}
	must(t, b.expect(ctx, "START 1", hostBoardLine(start), "TURN 1", hostBoardLine(next), "TURN -1", "END Win:[BLACK] BLACK:4 WHITE:1"))
	r := hostNextRecord(t, ctx, records)
	if r.Result.Reason != othello.Timeout || r.Result.Winner != othello.Black || r.Result.Black != 4 {
		t.Errorf("record %+v", r)
	}
}

// TestHostDisconnect checks that a player who drops mid-game loses:
// the survivor gets END then CLOSE, and is closed.
func TestHostDisconnect(t *testing.T) {
	t.Parallel()
	ctx := hostTestContext(t)
	h := &Host{Pairing: PairFIFO}
	records := hostRecords(h)
	addr := hostTestServe(t, h)
	b, w := hostPair(t, ctx, addr, othello.TUS.Start)
	must(t, w.send("NICK leaver"))
	must(t, b.send("PUT 4 2")) // black leads 4-1, then white leaves
	next := hostPlay(t, othello.TUS.Start, 4, 2)
	must(t, w.expect(ctx, hostBoardLine(next), "TURN -1"))
	w.conn.Close()
	must(t, b.expect(ctx, hostBoardLine(next), "TURN -1", "END Win:[BLACK] BLACK:4 leaver:1", "CLOSE"))
	must(t, b.expectEOF(ctx))
	r := hostNextRecord(t, ctx, records)
	if r.Result.Reason != othello.Disconnect || r.Result.Winner != othello.Black || r.White != "leaver" {
		t.Errorf("record %+v", r)
	}
}

// TestHostCloseMidGame checks CLOSE during a game: the sender loses,
// even when ahead, and is closed; the opponent gets END then CLOSE, and is
// closed.
func TestHostCloseMidGame(t *testing.T) {
	t.Parallel()
	ctx := hostTestContext(t)
	h := &Host{Pairing: PairFIFO}
	records := hostRecords(h)
	addr := hostTestServe(t, h)
	b, w := hostPair(t, ctx, addr, othello.TUS.Start)
	must(t, b.send("PUT 4 2", "CLOSE"))
	next := hostPlay(t, othello.TUS.Start, 4, 2)
	must(t, b.expect(ctx, hostBoardLine(next), "TURN -1"))
	must(t, b.expectEOF(ctx))
	must(t, w.expect(ctx, hostBoardLine(next), "TURN -1", "END Win:[WHITE] BLACK:4 WHITE:1", "CLOSE"))
	must(t, w.expectEOF(ctx))
	r := hostNextRecord(t, ctx, records)
	if r.Result.Reason != othello.Disconnect || r.Result.Winner != othello.White {
		t.Errorf("record %+v", r)
	}
}

// TestHostAfterEnd checks the course server's behaviour after END: ERROR 4 to everything
// but CLOSE, which closes silently; a silent client is closed after the
// linger time.
func TestHostAfterEnd(t *testing.T) {
	t.Parallel()
	ctx := hostTestContext(t)
	start := hostDrawStart(t)
	h := &Host{Pairing: PairFIFO, Rules: othello.Rules{Start: start}, endLinger: 500 * time.Millisecond}
	addr := hostTestServe(t, h)
	b, w := hostPair(t, ctx, addr, start)
	// The lines after the last move arrive with it: they are all post-END.
	must(t, b.send("PUT 0 0", "BOARD", "PUT 1 1", "NICK x", "SAY hi", "", "junk", "CLOSE", "BOARD"))
	final := hostPlay(t, start, 0, 0)
	must(t, b.expect(ctx, hostBoardLine(final), "END Draw BLACK:32 WHITE:32", "ERROR 4", "ERROR 4", "ERROR 4", "ERROR 4", "ERROR 4"))
	must(t, b.expectEOF(ctx))
	// White says nothing: closed after the linger time.
	must(t, w.expect(ctx, hostBoardLine(final), "END Draw BLACK:32 WHITE:32"))
	must(t, w.expectEOF(ctx))
}

// TestHostPendingAfterEnd checks lines sent before pairing that come
// after the game-ending move: they are post-END lines.
func TestHostPendingAfterEnd(t *testing.T) {
	t.Parallel()
	ctx := hostTestContext(t)
	start := hostDrawStart(t)
	console := newHostTestConsole()
	h := &Host{Pairing: PairFIFO, Rules: othello.Rules{Start: start}, Console: console}
	addr := hostTestServe(t, h)
	b := hostTestDial(t, addr)
	must(t, b.send("PUT 0 0", "BOARD", "CLOSE"))
	must(t, console.waitFor(ctx, "Recv from WAITING:CLOSE"))
	w := hostTestDial(t, addr)
	final := hostPlay(t, start, 0, 0)
	must(t, b.expect(ctx, "START 1", hostBoardLine(start), "TURN 1", hostBoardLine(final), "END Draw BLACK:32 WHITE:32", "ERROR 4"))
	must(t, b.expectEOF(ctx))
	must(t, w.expect(ctx, "START -1", hostBoardLine(start), "TURN 1", hostBoardLine(final), "END Draw BLACK:32 WHITE:32"))
}

// TestHostMaxErrors checks the forfeit after MaxErrors ERRORs.
func TestHostMaxErrors(t *testing.T) {
	t.Parallel()
	ctx := hostTestContext(t)
	h := &Host{Pairing: PairFIFO, MaxErrors: 3}
	records := hostRecords(h)
	addr := hostTestServe(t, h)
	b, w := hostPair(t, ctx, addr, othello.TUS.Start)
	must(t, w.send("PUT 4 2", "X", "PUT"))
	must(t, w.expect(ctx, "ERROR 3", "ERROR 4", "ERROR 1", "END Win:[BLACK] BLACK:2 WHITE:2"))
	must(t, b.expect(ctx, "END Win:[BLACK] BLACK:2 WHITE:2"))
	if r := hostNextRecord(t, ctx, records); r.Result.Reason != othello.TooManyErrors || r.Result.Winner != othello.Black {
		t.Errorf("record %+v", r)
	}
}

// TestHostIsolation runs a normal game next to games in which one
// player floods, sends a line over MaxLine, sends garbage or stays
// silent: each of those loses its own game, and the normal game finishes.
func TestHostIsolation(t *testing.T) {
	t.Parallel()
	ctx := hostTestContext(t)
	// The silent player loses after Timeout: long enough that a normal
	// player on a loaded machine does not.
	h := &Host{Pairing: PairFIFO, Timeout: 3 * time.Second, MaxErrors: 20}
	records := hostRecords(h)
	addr := hostTestServe(t, h)
	type game struct {
		name      string
		bad       othello.Color                       // the misbehaving side
		misbehave func(c *hostTestClient) error       // what it does after START
		reason    othello.Reason                      // how it loses
		check     func(c *hostTestClient) (err error) // optional: what it sees
	}
	games := []game{
		{name: "normal", reason: othello.Discs},
		{name: "flood", bad: othello.Black, reason: othello.Disconnect, misbehave: func(c *hostTestClient) error {
			c.conn.(*net.TCPConn).SetReadBuffer(4096)
			c.conn.Write(bytes.Repeat([]byte("BOARD\n"), 10*hostFloodBurst))
			return nil
		}},
		{name: "long line", bad: othello.White, reason: othello.Disconnect, misbehave: func(c *hostTestClient) error {
			_, err := c.conn.Write(bytes.Repeat([]byte("PUT "), MaxLine))
			return err
		}},
		{name: "garbage", bad: othello.White, reason: othello.TooManyErrors, misbehave: func(c *hostTestClient) error {
			for i := range 20 {
				if err := c.send(fmt.Sprintf("\x00\xff%d PUT %d", i, i)); err != nil {
					return err
				}
			}
			return nil
		}},
		{name: "silent", bad: othello.Black, reason: othello.Timeout, misbehave: func(*hostTestClient) error { return nil }},
	}
	clients := make([][2]*hostTestClient, len(games))
	for i := range games {
		clients[i] = [2]*hostTestClient{hostTestDial(t, addr), hostTestDial(t, addr)}
	}
	var wg sync.WaitGroup
	errs := make(chan error, 2*len(games))
	for i, g := range games {
		for side, c := range clients[i] {
			wg.Go(func() {
				if g.misbehave != nil && othello.Color(side) == g.bad {
					if err := c.expect(ctx, "START "+map[int]string{0: "1", 1: "-1"}[side]); err != nil {
						errs <- fmt.Errorf("%s: %w", g.name, err)
						return
					}
					if err := g.misbehave(c); err != nil {
						errs <- fmt.Errorf("%s: %w", g.name, err)
					}
					return
				}
				lines, err := hostTestBot(ctx, c, "")
				if err != nil {
					errs <- fmt.Errorf("%s %s: %w after %q", g.name, othello.Color(side), err, lines)
					return
				}
				if g.misbehave == nil {
					return
				}
				// The good player wins.
				end := lines[len(lines)-1]
				winner := map[othello.Color]string{othello.Black: "Win:[BLACK]", othello.White: "Win:[WHITE]"}[othello.Color(side)]
				if !strings.HasPrefix(end, "END "+winner) {
					errs <- fmt.Errorf("%s: %s got %q", g.name, othello.Color(side), end)
				}
				if g.reason == othello.Disconnect {
					if err := c.expect(ctx, "CLOSE"); err != nil {
						errs <- fmt.Errorf("%s: %w", g.name, err)
					}
				}
			})
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	got := map[int]GameRecord{}
	for range games {
		r := hostNextRecord(t, ctx, records)
		got[r.ID] = r
	}
	for i, g := range games {
		r := got[i]
		if r.Result.Reason != g.reason {
			t.Errorf("%s: result %v, want reason %v", g.name, r.Result, g.reason)
		}
		if g.misbehave != nil && (r.Result.Draw || r.Result.Winner == g.bad) {
			t.Errorf("%s: result %v; %s misbehaved", g.name, r.Result, g.bad)
		}
	}
	if r := got[0]; len(r.Moves) < 10 {
		t.Errorf("normal game: %d moves", len(r.Moves))
	}
}

// hostPipeListener is a net.Listener whose connections the test makes:
// net.Pipe ones, whose writes block until the other side reads (a client
// that does not read stalls the host's writer at once), or TCP ones on
// 127.0.0.1.
type hostPipeListener struct {
	conns chan net.Conn
	done  chan struct{}
	once  sync.Once
}

func newHostPipeListener() *hostPipeListener {
	return &hostPipeListener{conns: make(chan net.Conn), done: make(chan struct{})}
}

// dialTCP hands the host the server side of a fresh TCP connection.
func (l *hostPipeListener) dialTCP(t *testing.T) *hostTestClient {
	inner, err := net.Listen("tcp", "127.0.0.1:0")
	must(t, err)
	defer inner.Close()
	a, err := net.Dial("tcp", inner.Addr().String())
	must(t, err)
	t.Cleanup(func() { a.Close() })
	b, err := inner.Accept()
	must(t, err)
	select {
	case l.conns <- b:
	case <-l.done:
		t.Fatal("listener closed")
	}
	return hostTestWrap(a)
}

func (l *hostPipeListener) Accept() (net.Conn, error) {
	select {
	case c := <-l.conns:
		return c, nil
	case <-l.done:
		return nil, net.ErrClosed
	}
}

func (l *hostPipeListener) Close() error {
	l.once.Do(func() { close(l.done) })
	return nil
}

func (l *hostPipeListener) Addr() net.Addr { return hostPipeAddr{} }

func (l *hostPipeListener) dial(t *testing.T) *hostTestClient {
	a, b := net.Pipe()
	t.Cleanup(func() { a.Close() })
	select {
	case l.conns <- b:
	case <-l.done:
		t.Fatal("listener closed")
	}
	return hostTestWrap(a)
}

type hostPipeAddr struct{}

func (hostPipeAddr) Network() string { return "pipe" }
func (hostPipeAddr) String() string  { return "pipe" }

// TestHostSlowReader checks that a client that does not read loses
// its own game, by a write that stalls past the deadline or by a full
// queue, while a game next to it finishes.
func TestHostSlowReader(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name         string
		writeTimeout time.Duration
		requests     int
	}{
		{"write deadline", 100 * time.Millisecond, 5},
		{"full queue", time.Minute, hostQueueLines + 10},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ctx := hostTestContext(t)
			h := &Host{Pairing: PairFIFO, writeTimeout: tc.writeTimeout}
			records := hostRecords(h)
			ln := newHostPipeListener()
			hostTestServeOn(t, h, ln)
			// Only the slow client is on a pipe.
			normal := [2]*hostTestClient{ln.dialTCP(t), ln.dialTCP(t)}
			slow, good := ln.dial(t), ln.dialTCP(t)
			var wg sync.WaitGroup
			for _, c := range normal {
				wg.Go(func() {
					if lines, err := hostTestBot(ctx, c, ""); err != nil {
						t.Errorf("normal game: %v after %q", err, lines)
					}
				})
			}
			wg.Go(func() {
				// The slow client reads START, then only writes.
				if err := slow.expect(ctx, "START 1"); err != nil {
					t.Error(err)
					return
				}
				for range tc.requests {
					if slow.send("BOARD") != nil {
						return
					}
				}
			})
			lines, err := hostTestBot(ctx, good, "")
			if err != nil || lines[len(lines)-1] != "END Win:[WHITE] BLACK:2 WHITE:2" {
				t.Errorf("good player: %v after %q", err, lines)
			}
			wg.Wait()
			for range 2 {
				r := hostNextRecord(t, ctx, records)
				want := othello.Discs
				if r.ID == 1 {
					want = othello.Disconnect
				}
				if r.Result.Reason != want {
					t.Errorf("game %d: %v, want %v", r.ID, r.Result, want)
				}
			}
		})
	}
}

// TestHostManyGames runs many games at once with random pairing and
// transcripts, and checks that each client's END matches its game's record
// and that each transcript replays the record's moves; with TransName, that
// the transcripts are named after it.
func TestHostManyGames(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"", "game.txt"} {
		t.Run("TransName="+name, func(t *testing.T) {
			t.Parallel()
			hostManyGames(t, name)
		})
	}
}

func hostManyGames(t *testing.T, transName string) {
	const games = 16
	ctx := hostTestContext(t)
	dir := t.TempDir()
	h := &Host{PairInterval: time.Millisecond, Rand: rand.NewPCG(7, 8), TransDir: dir, TransName: transName}
	records := hostRecords(h)
	addr := hostTestServe(t, h)
	ends := make(chan [2]string, 2*games) // nick, END line
	var wg sync.WaitGroup
	for i := range 2 * games {
		c := hostTestDial(t, addr)
		nick := fmt.Sprintf("p%02d", i)
		wg.Go(func() {
			lines, err := hostTestBot(ctx, c, nick)
			if err != nil {
				t.Errorf("%s: %v after %q", nick, err, lines)
				return
			}
			ends <- [2]string{nick, lines[len(lines)-1]}
		})
	}
	wg.Wait()
	close(ends)
	endOf := map[string]string{}
	for e := range ends {
		endOf[e[0]] = e[1]
	}
	files := map[string]bool{}
	ids := map[int]bool{}
	for range games {
		r := hostNextRecord(t, ctx, records)
		ids[r.ID] = true
		if r.Result.Reason != othello.Discs || len(r.Moves) < 50 {
			t.Errorf("game %d: %v after %d moves", r.ID, r.Result, len(r.Moves))
		}
		for _, nick := range []string{r.Black, r.White} {
			if got := endOf[nick]; got != "END "+r.End {
				t.Errorf("game %d: %s got %q, record says %q", r.ID, nick, got, r.End)
			}
		}
		if files[r.Transcript] || !strings.HasPrefix(r.Transcript, dir) {
			t.Errorf("game %d: transcript %q", r.ID, r.Transcript)
		}
		files[r.Transcript] = true
		tr := hostReadTranscript(t, r.Transcript)
		if d := cmp.Diff(r.Moves, tr.Moves); d != "" {
			t.Errorf("game %d: transcript (-record +file):\n%s", r.ID, d)
		}
		// The header has the nicknames at game start: NICK may come after
		// pairing.
		if (tr.Black != r.Black && tr.Black != "BLACK") || (tr.White != r.White && tr.White != "WHITE") {
			t.Errorf("game %d: header %s,%s for %s,%s", r.ID, tr.Black, tr.White, r.Black, r.White)
		}
		g, err := tr.Game()
		if err != nil || !g.IsOver() {
			t.Errorf("game %d: transcript replay: %v", r.ID, err)
		}
	}
	if len(ids) != games || len(endOf) != 2*games {
		t.Errorf("%d game ids, %d players ended", len(ids), len(endOf))
	}
	if transName != "" {
		want := map[string]bool{filepath.Join(dir, "game.txt"): true}
		for i := 2; i <= games; i++ {
			want[filepath.Join(dir, fmt.Sprintf("game-%d.txt", i))] = true
		}
		if d := cmp.Diff(want, files); d != "" {
			t.Errorf("transcripts (-want +got):\n%s", d)
		}
	}
}

// TestHostConsole checks the -debug console lines and the -monitor
// board picture, and the transcript's header and moves.
func TestHostConsole(t *testing.T) {
	t.Parallel()
	ctx := hostTestContext(t)
	console := newHostTestConsole()
	start := hostDrawStart(t)
	dir := t.TempDir()
	h := &Host{Pairing: PairFIFO, Rules: othello.Rules{Start: start}, Console: console, Monitor: console, TransDir: dir}
	records := hostRecords(h)
	addr := hostTestServe(t, h)
	b, w := hostPair(t, ctx, addr, start)
	must(t, b.send("PUT 0 0"))
	final := hostPlay(t, start, 0, 0)
	must(t, b.expect(ctx, hostBoardLine(final), "END Draw BLACK:32 WHITE:32"))
	must(t, w.expect(ctx, hostBoardLine(final), "END Draw BLACK:32 WHITE:32"))
	r := hostNextRecord(t, ctx, records)
	lines := console.all()
	// The game goroutine's lines, in order (readers interleave Recv lines).
	var game []string
	for _, l := range lines {
		if !strings.HasPrefix(l, "Recv from ") && !strings.HasPrefix(l, "Connect from: ") && !strings.HasPrefix(l, "-") && !strings.HasPrefix(l, "|") {
			game = append(game, l)
		}
	}
	want := []string{
		"Game-0 Start.",
		"Send to BLACK:START 1",
		"Send to WHITE:START -1",
		"Started recording transcript: " + r.Transcript,
		"Send to BLACK:" + hostBoardLine(start),
		"Send to WHITE:" + hostBoardLine(start),
		"Send to BLACK:TURN 1",
		"Send to WHITE:TURN 1",
		"Send to BLACK:" + hostBoardLine(final),
		"Send to WHITE:" + hostBoardLine(final),
		"Send to BLACK:END Draw BLACK:32 WHITE:32",
		"Send to WHITE:END Draw BLACK:32 WHITE:32",
		"Game-0:End Game: Draw BLACK:32 WHITE:32",
		"BLACK,WHITE",
	}
	if d := cmp.Diff(want, game); d != "" {
		t.Errorf("console (-want +got):\n%s", d)
	}
	for _, l := range []string{"Connect from: 127.0.0.1", "Recv from BLACK:PUT 0 0"} {
		if !slices.Contains(lines, l) {
			t.Errorf("console lacks %q", l)
		}
	}
	// Two board pictures: the start and after the move.
	var pics []string
	for i, l := range lines {
		if l == "-------------------------" && i+16 < len(lines) && (i == 0 || !strings.HasPrefix(lines[i-1], "|")) {
			pics = append(pics, strings.Join(lines[i:i+17], "\n")+"\n")
		}
	}
	if len(pics) != 2 || pics[0] != string(appendHostBoardPicture(nil, start)) || pics[1] != string(appendHostBoardPicture(nil, final)) {
		t.Errorf("board pictures: %q", pics)
	}
	tr := hostReadTranscriptFrom(t, r.Transcript, start)
	if tr.Black != "BLACK" || tr.White != "WHITE" || len(tr.Moves) != 1 || tr.Moves[0] != othello.Place(othello.A1) {
		t.Errorf("transcript %+v", tr)
	}
}

// TestHostBoardPicture checks the picture of the TUS start against
// the real server's (testdata release game 1, lines 7-23).
func TestHostBoardPicture(t *testing.T) {
	want := "-------------------------\n" +
		"|  |  |  |  |  |  |  |  |\n-------------------------\n" +
		"|  |  |  |  |  |  |  |  |\n-------------------------\n" +
		"|  |  |  |  |  |  |  |  |\n-------------------------\n" +
		"|  |  |  |●|○|  |  |  |\n-------------------------\n" +
		"|  |  |  |○|●|  |  |  |\n-------------------------\n" +
		"|  |  |  |  |  |  |  |  |\n-------------------------\n" +
		"|  |  |  |  |  |  |  |  |\n-------------------------\n" +
		"|  |  |  |  |  |  |  |  |\n-------------------------\n"
	if got := string(appendHostBoardPicture(nil, othello.TUS.Start)); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestHostShutdown checks that Serve returns when its context ends,
// closing waiting and playing connections and reporting the game in play as
// unfinished.
func TestHostShutdown(t *testing.T) {
	t.Parallel()
	ctx := hostTestContext(t)
	h := &Host{Pairing: PairFIFO}
	records := hostRecords(h)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	must(t, err)
	sctx, cancel := context.WithCancel(ctx)
	errc := make(chan error, 1)
	go func() { errc <- h.Serve(sctx, ln) }()
	addr := ln.Addr().String()
	b, w := hostPair(t, ctx, addr, othello.TUS.Start)
	lone := hostTestDial(t, addr)
	must(t, lone.send("NICK lone"))
	must(t, b.send("PUT 4 2"))
	next := hostPlay(t, othello.TUS.Start, 4, 2)
	must(t, b.expect(ctx, hostBoardLine(next), "TURN -1"))
	cancel()
	select {
	case err := <-errc:
		if err != nil {
			t.Errorf("Serve: %v", err)
		}
	case <-ctx.Done():
		t.Fatal("Serve did not return")
	}
	// Every connection is closed (w may first get lines queued before the
	// end).
	for _, c := range []*hostTestClient{b, lone, w} {
		for {
			line, err := c.next(ctx)
			if err == nil && c == w {
				continue
			}
			if err == nil || errors.Is(err, os.ErrDeadlineExceeded) {
				t.Errorf("connection not closed: %q, %v", line, err)
			}
			break
		}
	}
	r := hostNextRecord(t, ctx, records)
	if r.Result.Reason != othello.Unfinished || r.End != "" || len(r.Moves) != 1 || r.Result.Black != 4 {
		t.Errorf("record %+v", r)
	}
	if _, err := net.Dial("tcp", addr); err == nil {
		t.Error("listener still open")
	}
}

// ExampleHost serves one game between two raw TCP clients: black
// moves, then leaves, and loses.
func ExampleHost() {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Println(err)
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	results := make(chan GameRecord, 1)
	h := &Host{
		Pairing:   PairFIFO, // the first to connect plays black
		OnGameEnd: func(r GameRecord) { results <- r },
	}
	served := make(chan error, 1)
	go func() { served <- h.Serve(ctx, ln) }()

	black, _ := net.Dial("tcp", ln.Addr().String())
	defer black.Close()
	fmt.Fprint(black, "NICK alice\nPUT 4 2\nCLOSE\n") // run once the game starts
	white, _ := net.Dial("tcp", ln.Addr().String())
	defer white.Close()
	sc := bufio.NewScanner(white)
	for sc.Scan() {
		if line := sc.Text(); strings.HasPrefix(line, "BOARD ") {
			fmt.Println("BOARD ...")
		} else {
			fmt.Println(line)
		}
	}
	r := <-results
	fmt.Println(r.Black, "vs", r.White+":", r.Result)
	cancel()
	fmt.Println("Serve:", <-served)
	// Output:
	// START -1
	// BOARD ...
	// TURN 1
	// BOARD ...
	// TURN -1
	// END Win:[WHITE] alice:4 WHITE:1
	// CLOSE
	// alice vs WHITE: white wins 4-1 (disconnect)
	// Serve: <nil>
}

// TestHostConfig checks that Serve refuses bad settings.
func TestHostConfig(t *testing.T) {
	for _, h := range []*Host{{Timeout: -1}, {MaxErrors: -1}, {PairInterval: -1}, {Pairing: 9}} {
		ln := newHostPipeListener()
		if err := h.Serve(context.Background(), ln); err == nil {
			t.Errorf("%+v: no error", h)
		}
	}
}

// TestPairingText checks the -pairing flag's text form.
func TestPairingText(t *testing.T) {
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var p Pairing
	fs.TextVar(&p, "pairing", PairRandom, "")
	if err := fs.Parse([]string{"-pairing", "fifo"}); err != nil || p != PairFIFO {
		t.Errorf("fifo: %v, %v", p, err)
	}
	if err := fs.Parse([]string{"-pairing", "FIFO"}); err == nil {
		t.Error("FIFO accepted")
	}
	if b, err := PairRandom.MarshalText(); err != nil || string(b) != "random" {
		t.Errorf("random: %q %v", b, err)
	}
	if _, err := Pairing(5).MarshalText(); err == nil || Pairing(5).String() != "Pairing(5)" {
		t.Error("Pairing(5) marshalled")
	}
}

// FuzzPairingText: UnmarshalText then MarshalText gives the input
// back, or UnmarshalText fails; nothing panics.
func FuzzPairingText(f *testing.F) {
	for _, s := range []string{"random", "fifo", "", "Random", "fifo "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var p Pairing
		if err := p.UnmarshalText([]byte(s)); err != nil {
			return
		}
		b, err := p.MarshalText()
		if err != nil || string(b) != s {
			t.Errorf("%q -> %v -> %q, %v", s, p, b, err)
		}
	})
}

// hostOfflineGame is a game between two connections without sockets, for
// driving the command handling directly, with the clock reading now.
func hostOfflineGame(h *Host, now func() time.Time) (*hostGame, [2]*hostConn) {
	s := &hostServer{
		h:     h,
		ctx:   context.Background(),
		log:   slog.New(slog.DiscardHandler),
		rules: othello.TUS,
		conns: map[*hostConn]struct{}{},
	}
	var p [2]*hostConn
	for i := range p {
		p[i] = &hostConn{s: s, out: make(chan hostOut, hostQueueLines), done: make(chan struct{}), state: hostPlaying, color: othello.Color(i)}
	}
	g := s.newGame(0, p[0], p[1])
	g.clock = newHostTurnClock(h.Timeout, now)
	for i := range p {
		p[i].game = g
	}
	return g, p
}

// hostDrain returns the lines queued for c, without LF, and runs their
// written callbacks as the writer would.
func hostDrain(c *hostConn) []string {
	var lines []string
	for {
		select {
		case it := <-c.out:
			if it.close {
				continue
			}
			lines = append(lines, strings.TrimSuffix(string(it.line), "\n"))
			if it.written != nil {
				it.written()
			}
			continue
		default:
		}
		return lines
	}
}

// TestHostClockRules checks the per-TURN clock on a fake time
// source: the clock starts when TURN is written, an ERROR does not restart
// it, and a legal PUT after the deadline loses on time.
func TestHostClockRules(t *testing.T) {
	t0 := time.Now()
	now := t0
	g, p := hostOfflineGame(&Host{Timeout: time.Second}, func() time.Time { return now })
	defer g.clock.disarm()
	g.broadcastBoard()
	g.announceTurn()
	hostDrain(p[1])
	now = now.Add(time.Hour) // the TURN waits in the queue: no clock yet
	hostDrain(p[0])          // TURN written to black: the clock starts
	if seq := <-g.written; seq != g.turnSeq {
		t.Fatalf("written %d, want %d", seq, g.turnSeq)
	}
	g.clock.start(othello.Black)
	if dl, ok := g.clock.clock.Deadline(); !ok || dl.Sub(now) != time.Second+time.Millisecond {
		t.Fatalf("deadline %v after the TURN", dl.Sub(now))
	}
	now = now.Add(900 * time.Millisecond)
	g.handle(othello.Black, "PUT 0 0")
	if got := hostDrain(p[0]); !slices.Equal(got, []string{"ERROR 2"}) {
		t.Fatalf("got %q", got)
	}
	now = now.Add(200 * time.Millisecond) // 1.1 s after TURN, 0.2 s after the ERROR
	g.handle(othello.Black, "PUT 4 2")
	want := []string{"END Win:[WHITE] BLACK:2 WHITE:2"}
	if got := hostDrain(p[0]); !slices.Equal(got, want) {
		t.Fatalf("late PUT: got %q, want %q", got, want)
	}
	if r, _ := g.g.Result(); r.Reason != othello.Timeout || g.g.Ply() != 0 {
		t.Errorf("result %v after %d plies", r, g.g.Ply())
	}
}

// FuzzHostLines drives a game's command handling directly (no
// sockets) with arbitrary lines from both players: nothing panics, every
// line the host sends parses as a TUS event, a BOARD always shows the
// game's position, and the game only ends once.
func FuzzHostLines(f *testing.F) {
	f.Add("PUT 4 2\nPUT 5 4\nBOARD\nSAY hi\nNICK a\nCLOSE\n", uint8(0))
	f.Add("PUT 4 2\nPUT 4 2\nX\n\nPUT 1\nPUT -1 99999999999999999999\n", uint8(3))
	f.Add("NICK :\nSAY\nBOARD x\nput 4 2\n\x00\xff\nPUT 2 4\nPUT 2 5\n", uint8(1))
	f.Fuzz(func(t *testing.T, input string, maxErrors uint8) {
		g, p := hostOfflineGame(&Host{MaxErrors: int(maxErrors % 8)}, time.Now)
		drain := func() {
			for _, c := range p {
				for _, line := range hostDrain(c) {
					e, err := ParseEvent(line)
					if err != nil {
						t.Fatalf("host sent %q: %v", line, err)
					}
					if e.Kind == Board && (e.Black != g.g.Position().Black() || e.White != g.g.Position().White()) {
						t.Fatalf("BOARD %q is not the game's %s", line, g.g.Position())
					}
				}
			}
		}
		g.broadcastBoard()
		g.announceTurn()
		drain()
		for i, line := range strings.Split(input, "\n") {
			if g.over {
				break
			}
			g.handle(othello.Color(i%2), line)
			drain()
		}
		if _, over := g.g.Result(); over != g.over {
			t.Fatalf("game over %v, host thinks %v", over, g.over)
		}
		g.clock.stop()
	})
}

// TestHostOnMove plays a whole game between two clients and checks
// that OnMove saw the start and then every move of the record, forced passes
// included, each with the position after it.
func TestHostOnMove(t *testing.T) {
	t.Parallel()
	ctx := hostTestContext(t)
	var mu sync.Mutex
	var events []MoveEvent
	h := &Host{Pairing: PairFIFO, OnMove: func(e MoveEvent) {
		mu.Lock()
		events = append(events, e)
		mu.Unlock()
	}}
	records := hostRecords(h)
	addr := hostTestServe(t, h)
	rng := rand.New(rand.NewPCG(5, 6))
	var rngMu sync.Mutex
	random := othello.PlayerFunc(func(_ context.Context, p othello.Position) (othello.Move, error) {
		moves := p.AppendLegalMoves(nil)
		rngMu.Lock()
		defer rngMu.Unlock()
		return moves[rng.IntN(len(moves))], nil
	})
	var wg sync.WaitGroup
	for _, nick := range []string{"b", "w"} { // FIFO: the first to connect is black
		conn, err := net.Dial("tcp", addr)
		must(t, err)
		defer conn.Close()
		c := &Client{Nick: nick}
		wg.Go(func() { c.Run(ctx, conn, random) })
	}
	wg.Wait()
	rec := hostNextRecord(t, ctx, records)
	mu.Lock()
	defer mu.Unlock()
	if len(events) != len(rec.Moves)+1 {
		t.Fatalf("%d events for %d moves", len(events), len(rec.Moves))
	}
	p := rec.Start
	for i, e := range events {
		if i > 0 {
			if e.Move != rec.Moves[i-1] {
				t.Fatalf("event %d: move %v, record %v", i, e.Move, rec.Moves[i-1])
			}
			p = p.PlayUnchecked(e.Move)
		} else if e.Move != othello.NoMove {
			t.Fatalf("start event with move %v", e.Move)
		}
		if e.Ply != i || e.Position != p {
			t.Fatalf("event %d: %+v, want ply %d position %v", i, e, i, p)
		}
	}
	if last := events[len(events)-1]; !p.IsOver() || last.Black != "b" || last.White != "w" {
		t.Errorf("last event %+v: want a finished game between b and w", last)
	}
}

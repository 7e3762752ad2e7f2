package tus

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/botarena/botarena/othello"
	"github.com/botarena/botarena/record"
)

// hostTestOverBudget is the SAY a client gets when it sent more than it may
// before pairing.
var hostTestOverBudget = fmt.Sprintf("SAY SERVER: closing: more than %d lines or %d bytes sent before the game started", hostPendingMax, hostPendingBytes)

// hostTestRefused is the SAY a connection past MaxConns = n gets.
func hostTestRefused(n int) string {
	return fmt.Sprintf("SAY SERVER: refused: the server has its maximum of %d connections open; try again later", n)
}

// waitForAll waits until one line contains every string of subs.
func (k *hostTestConsole) waitForAll(ctx context.Context, subs ...string) error {
	for {
		k.mu.Lock()
		for _, l := range k.lines {
			ok := true
			for _, s := range subs {
				ok = ok && strings.Contains(l, s)
			}
			if ok {
				k.mu.Unlock()
				return nil
			}
		}
		ch := k.changed
		k.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			return fmt.Errorf("no console line with %q: %w", subs, ctx.Err())
		}
	}
}

// hostTestGame plays a whole game between two connected clients with
// hostTestBot (which sends the nicks, if not empty) and returns the lines
// each one got, END last.
func hostTestGame(t *testing.T, ctx context.Context, c [2]*hostTestClient, nicks [2]string) [2][]string {
	t.Helper()
	var got [2][]string
	var wg sync.WaitGroup
	for i := range c {
		wg.Go(func() {
			lines, err := hostTestBot(ctx, c[i], nicks[i])
			if err != nil {
				t.Errorf("%s: %v after %q", othello.Color(i), err, lines)
			}
			got[i] = lines
		})
	}
	wg.Wait()
	return got
}

// hostTestDebugHost is a FIFO host whose console and debug log go to the
// returned console.
func hostTestDebugHost() (*Host, *hostTestConsole) {
	console := newHostTestConsole()
	return &Host{Pairing: PairFIFO, Console: console,
		Logger: slog.New(slog.NewTextHandler(console, &slog.HandlerOptions{Level: slog.LevelDebug}))}, console
}

// TestHostPendingBudget checks the byte budget of a connection
// before pairing: lines up to hostPendingBytes wait for the game and run
// after its first TURN; one byte more gets ERROR 4 and a SAY saying why,
// and the connection is closed, while a game in play goes on and later
// clients pair and play.
func TestHostPendingBudget(t *testing.T) {
	t.Parallel()
	ctx := hostTestContext(t)
	h, console := hostTestDebugHost()
	records := hostRecords(h)
	addr := hostTestServe(t, h)

	// A game in play while a waiting client goes over its budget.
	b, w := hostPair(t, ctx, addr, othello.TUS.Start)
	// Two lines of 4096 bytes with their LFs: the whole budget.
	say := "SAY " + strings.Repeat("x", hostPendingBytes/2-len("SAY ")-1)
	big := hostTestDial(t, addr)
	must(t, big.send("NICK big", say, say, "X"))
	must(t, big.expect(ctx, "ERROR 4", hostTestOverBudget))
	must(t, big.expectEOF(ctx))
	must(t, console.waitForAll(ctx, "too much sent before pairing", "nick=big", "bytes=8194", "max_bytes=8192"))

	// The game in play finishes. (hostTestBot reads from START on: replay
	// what hostPair read.)
	start := othello.TUS.Start
	must(t, b.send("PUT 4 2"))
	next := hostPlay(t, start, 4, 2)
	must(t, b.expect(ctx, hostBoardLine(next), "TURN -1"))
	must(t, w.expect(ctx, hostBoardLine(next), "TURN -1"))
	must(t, w.send("CLOSE"))
	must(t, b.expect(ctx, "END Win:[BLACK] BLACK:4 WHITE:1", "CLOSE"))
	if r := hostNextRecord(t, ctx, records); r.Result.Reason != othello.Disconnect || r.Result.Winner != othello.Black {
		t.Errorf("game in play: %v", r.Result)
	}

	// A client that sends exactly its budget is paired and its lines run.
	full := hostTestDial(t, addr)
	must(t, full.send("NICK full", say, say))
	must(t, console.waitFor(ctx, "Recv from full:SAY xxx"))
	other := hostTestDial(t, addr)
	must(t, other.send("NICK other"))
	relay := "SAY full: " + say[len("SAY "):]
	got := hostTestGame(t, ctx, [2]*hostTestClient{full, other}, [2]string{})
	for i, want := range [][]string{
		{"START 1", hostBoardLine(start), "TURN 1", relay, relay},
		{"START -1", hostBoardLine(start), "TURN 1", relay, relay},
	} {
		if len(got[i]) < len(want) || !slices.Equal(got[i][:len(want)], want) {
			t.Errorf("%s: got %.5q, want %.5q", othello.Color(i), got[i], want)
		}
	}
	if r := hostNextRecord(t, ctx, records); r.Black != "full" || r.White != "other" || r.Result.Reason != othello.Discs {
		t.Errorf("game after the flood: %s vs %s, %v", r.Black, r.White, r.Result)
	}
}

// TestHostMaxConns checks the connection cap: a connection past
// MaxConns gets a SAY saying so and is closed, and the refusal is logged;
// the game in play is not touched; a slot freed by a closed connection takes
// the next one.
func TestHostMaxConns(t *testing.T) {
	t.Parallel()
	ctx := hostTestContext(t)
	h, console := hostTestDebugHost()
	h.MaxConns = 3
	records := hostRecords(h)
	addr := hostTestServe(t, h)

	b, w := hostTestDial(t, addr), hostTestDial(t, addr)
	must(t, b.expect(ctx, "START 1"))
	must(t, w.expect(ctx, "START -1"))
	waiting := hostTestDial(t, addr)
	must(t, waiting.send("NICK waiting"))
	must(t, console.waitFor(ctx, "Recv from WAITING:NICK waiting"))
	for range 2 {
		refused := hostTestDial(t, addr)
		must(t, refused.send("NICK refused"))
		must(t, refused.expect(ctx, hostTestRefused(3)))
		must(t, refused.expectEOF(ctx))
	}
	must(t, console.waitForAll(ctx, "connection refused: the server is full", "open=3", "max_conns=3", "refused=1"))
	if got := strings.Join(console.all(), "\n"); strings.Contains(got, "refused:NICK") || strings.Contains(got, "Recv from refused") {
		t.Errorf("a refused connection was read:\n%s", got)
	}

	// The game in play goes on to its end.
	start := othello.TUS.Start
	must(t, b.expect(ctx, hostBoardLine(start), "TURN 1"))
	must(t, w.expect(ctx, hostBoardLine(start), "TURN 1"))
	must(t, b.send("PUT 4 2"))
	next := hostPlay(t, start, 4, 2)
	must(t, w.expect(ctx, hostBoardLine(next), "TURN -1"))
	must(t, b.send("CLOSE"))
	must(t, w.expect(ctx, "END Win:[WHITE] BLACK:4 WHITE:1", "CLOSE"))
	must(t, w.expectEOF(ctx))
	b.conn.Close()
	w.conn.Close()
	if r := hostNextRecord(t, ctx, records); r.Result.Reason != othello.Disconnect || r.Result.Winner != othello.White || len(r.Moves) != 1 {
		t.Errorf("game in play: %v after %d moves", r.Result, len(r.Moves))
	}

	// Both players are gone: their slots take two more connections, and the
	// waiting client is paired with the first.
	must(t, console.waitForAll(ctx, "connection closed", "open=1"))
	late := hostTestDial(t, addr)
	must(t, late.send("NICK late"))
	must(t, waiting.expect(ctx, "START 1"))
	must(t, late.expect(ctx, "START -1"))
	third := hostTestDial(t, addr)
	must(t, third.send("NICK third"))
	must(t, console.waitFor(ctx, "Recv from WAITING:NICK third"))
	refused := hostTestDial(t, addr)
	must(t, refused.expect(ctx, hostTestRefused(3)))
	must(t, refused.expectEOF(ctx))
}

// TestHostPairsAfterNick checks, for both pairings, that a client is
// paired only once it sent NICK, so that the transcript header, the console
// and the record name both players, even when a NICK comes well after the
// connection (the grace here is a minute: only NICK pairs).
func TestHostPairsAfterNick(t *testing.T) {
	t.Parallel()
	for _, pairing := range []Pairing{PairFIFO, PairRandom} {
		t.Run(pairing.String(), func(t *testing.T) {
			t.Parallel()
			ctx := hostTestContext(t)
			h, console := hostTestDebugHost()
			h.Pairing, h.PairInterval, h.nickGrace = pairing, time.Millisecond, time.Minute
			h.TransDir = t.TempDir()
			records := hostRecords(h)
			addr := hostTestServe(t, h)
			b := hostTestDial(t, addr)
			must(t, b.send("NICK alice"))
			must(t, console.waitFor(ctx, "Recv from WAITING:NICK alice"))
			w := hostTestDial(t, addr)
			// The host has had bob's connection for a while before his NICK.
			must(t, console.waitForAll(ctx, `"othello host: connection" conn=2`))
			must(t, w.send("NICK bob"))
			got := hostTestGame(t, ctx, [2]*hostTestClient{b, w}, [2]string{})
			r := hostNextRecord(t, ctx, records)
			// Random pairing draws the colours: find alice's.
			want := [2]string{"alice", "bob"}
			if got[0][0] == "START -1" {
				want = [2]string{"bob", "alice"}
			}
			if r.Black != want[0] || r.White != want[1] {
				t.Errorf("record: %s vs %s, want %s vs %s", r.Black, r.White, want[0], want[1])
			}
			f, err := os.Open(r.Transcript)
			must(t, err)
			defer f.Close()
			tr, err := record.ReadOthelloTranscript(f, othello.TUS.Start)
			must(t, err)
			if tr.Black != want[0] || tr.White != want[1] || len(tr.Moves) != len(r.Moves) {
				t.Errorf("transcript: B:%s,W:%s with %d moves; want B:%s,W:%s with %d", tr.Black, tr.White, len(tr.Moves), want[0], want[1], len(r.Moves))
			}
			must(t, console.waitFor(ctx, want[0]+","+want[1])) // the console's end of the game
		})
	}
}

// TestHostNickGrace checks that a client that never sends NICK is
// still paired, once hostNickGrace has passed since it connected, and is
// named WHITE; its opponent's NICK is in the header.
func TestHostNickGrace(t *testing.T) {
	t.Parallel()
	ctx := hostTestContext(t)
	h, console := hostTestDebugHost()
	h.nickGrace = hostNickGrace
	h.TransDir = t.TempDir()
	records := hostRecords(h)
	addr := hostTestServe(t, h)
	b := hostTestDial(t, addr)
	must(t, b.send("NICK named"))
	must(t, console.waitFor(ctx, "Recv from WAITING:NICK named"))
	dialed := time.Now()
	w := hostTestDial(t, addr)
	must(t, w.expect(ctx, "START -1"))
	if waited := time.Since(dialed); waited < hostNickGrace {
		t.Errorf("paired %v after connecting without NICK; the grace is %v", waited, hostNickGrace)
	}
	must(t, b.expect(ctx, "START 1"))
	must(t, console.waitFor(ctx, "Started recording transcript: "))
	b.conn.Close()
	r := hostNextRecord(t, ctx, records)
	f, err := os.Open(r.Transcript)
	must(t, err)
	defer f.Close()
	tr, err := record.ReadOthelloTranscript(f, othello.TUS.Start)
	must(t, err)
	if tr.Black != "named" || tr.White != "WHITE" || r.Black != "named" || r.White != "WHITE" {
		t.Errorf("transcript B:%s,W:%s, record %s vs %s; want named vs WHITE", tr.Black, tr.White, r.Black, r.White)
	}
}

// TestHostNames checks Names: the transcript header, the record and
// the move events give the host's names, while the players and the END line
// keep their nicknames; a name the header cannot hold gives way to the
// nickname there, with a warning.
func TestHostNames(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		names      [2]string
		header     [2]string
		warning    string
		recordName [2]string
	}{
		{[2]string{"Alice, the bot", "bob's engine 2"}, [2]string{"Alice, the bot", "bob's engine 2"}, "", [2]string{"Alice, the bot", "bob's engine 2"}},
		{[2]string{"", "only white"}, [2]string{"a", "only white"}, "", [2]string{"a", "only white"}},
		{[2]string{"two\nlines", "w"}, [2]string{"a", "b"}, "the header cannot hold the names", [2]string{"two\nlines", "w"}},
	} {
		t.Run(tc.header[0]+"-"+tc.header[1], func(t *testing.T) {
			t.Parallel()
			ctx := hostTestContext(t)
			h, console := hostTestDebugHost()
			h.Names, h.nickGrace, h.TransDir = tc.names, time.Minute, t.TempDir()
			var mu sync.Mutex
			var moveNames [][2]string
			h.OnMove = func(e MoveEvent) {
				mu.Lock()
				moveNames = append(moveNames, [2]string{e.Black, e.White})
				mu.Unlock()
			}
			records := hostRecords(h)
			addr := hostTestServe(t, h)
			b, w := hostTestDial(t, addr), hostTestDial(t, addr)
			got := hostTestGame(t, ctx, [2]*hostTestClient{b, w}, [2]string{"a", "b"})
			r := hostNextRecord(t, ctx, records)
			if end := got[0][len(got[0])-1]; !strings.Contains(end, " a:") || !strings.Contains(end, " b:") {
				t.Errorf("END %q does not name the nicknames", end)
			}
			if r.Black != tc.recordName[0] || r.White != tc.recordName[1] {
				t.Errorf("record: %q vs %q", r.Black, r.White)
			}
			mu.Lock()
			if len(moveNames) == 0 || moveNames[0] != tc.recordName || moveNames[len(moveNames)-1] != tc.recordName {
				t.Errorf("move events named %q", moveNames)
			}
			mu.Unlock()
			f, err := os.Open(r.Transcript)
			must(t, err)
			defer f.Close()
			tr, err := record.ReadOthelloTranscript(f, othello.TUS.Start)
			must(t, err)
			if tr.Black != tc.header[0] || tr.White != tc.header[1] {
				t.Errorf("header B:%q,W:%q, want B:%q,W:%q", tr.Black, tr.White, tc.header[0], tc.header[1])
			}
			if tc.warning != "" {
				must(t, console.waitFor(ctx, tc.warning))
			}
		})
	}
}

package main

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
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/botarena/botarena/othello"
	"github.com/botarena/botarena/protocol/tus"
	"github.com/botarena/botarena/record"
	"github.com/botarena/botarena/timer"
)

// servedOthello is a running "arena serve othello".
type servedOthello struct {
	pid    int
	port   string      // from its banner
	stderr *syncBuffer // what it printed there
	// stop stops it with Ctrl-C and fails the test unless it exits
	// cleanly; the test's end calls it too, and calls after the first do
	// nothing.
	stop func()
}

// startServeOthello runs the built "arena serve othello -port 0 args..." in
// dir.
func startServeOthello(t *testing.T, ctx context.Context, dir string, args ...string) servedOthello {
	t.Helper()
	cmd := arenaCommand(t, ctx, dir, append([]string{"serve", "othello", "-port", "0"}, args...)...)
	stderr := &syncBuffer{}
	cmd.Stderr = stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(stdout)
	port := ""
	for port == "" && sc.Scan() {
		if m := regexp.MustCompile(`^Othello Server ver \S+ start: \(tcp port:(\d+)\)$`).FindStringSubmatch(sc.Text()); m != nil {
			port = m[1]
		}
	}
	if port == "" {
		cmd.Process.Kill()
		t.Fatalf("no banner: %v\n%s", cmd.Wait(), stderr)
	}
	go io.Copy(io.Discard, stdout)
	stop := sync.OnceFunc(func() {
		cmd.Process.Signal(syscall.SIGINT)
		if err := cmd.Wait(); err != nil {
			t.Errorf("serve after Ctrl-C: %v\n%s", err, stderr)
		}
	})
	t.Cleanup(stop)
	return servedOthello{pid: cmd.Process.Pid, port: port, stderr: stderr, stop: stop}
}

// othelloServePlay plays one game between two greedy clients with the given
// nicks on the server at port, and returns their outcomes; the colours are
// the server's choice.
func othelloServePlay(t *testing.T, ctx context.Context, conns [2]net.Conn, nicks [2]string) [2]tus.Outcome {
	t.Helper()
	var outcomes [2]tus.Outcome
	var errs [2]error
	var wg sync.WaitGroup
	for i := range conns {
		p, _ := newOthelloBot("greedy", uint64(i), timer.Control{})
		wg.Go(func() {
			outcomes[i], errs[i] = (&tus.Client{Nick: nicks[i]}).Run(ctx, conns[i], p)
		})
	}
	wg.Wait()
	for i, o := range outcomes {
		if errs[i] != nil || !o.Ended || o.Result.Reason != othello.Discs {
			t.Fatalf("client %s: %+v, %v", nicks[i], o, errs[i])
		}
	}
	if outcomes[0].Color == outcomes[1].Color || outcomes[0].Result != outcomes[1].Result {
		t.Errorf("the clients disagree: %+v / %+v", outcomes[0], outcomes[1])
	}
	return outcomes
}

// dialOthello connects to the server at port on loopback; the test's end
// closes the connection.
func dialOthello(t *testing.T, port string) net.Conn {
	t.Helper()
	c, err := net.Dial("tcp", "127.0.0.1:"+port)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// TestArenaServeOthelloNamesAndCap runs "arena serve othello -maxconns 2":
// a third connection gets a line saying the server is full and is closed,
// the server logs it, and the two connections in play are not touched; their
// game's transcript names both by the NICKs they sent (the server pairs a
// connection after its NICK).
func TestArenaServeOthelloNamesAndCap(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel) // after the server's stop
	srv := startServeOthello(t, ctx, dir, "-maxconns", "2", "-pairing", "fifo")
	port, stderr := srv.port, srv.stderr
	players := [2]net.Conn{dialOthello(t, port), dialOthello(t, port)}
	third := dialOthello(t, port)
	third.SetDeadline(time.Now().Add(time.Minute))
	got, err := io.ReadAll(third)
	if want := "SAY SERVER: refused: the server has its maximum of 2 connections open; try again later\n"; string(got) != want || err != nil {
		t.Errorf("third connection got %q, %v; want %q and EOF", got, err, want)
	}
	outcomes := othelloServePlay(t, ctx, players, [2]string{"p0", "p1"})
	trans, _ := filepath.Glob(filepath.Join(dir, "gamelog_*.txt"))
	if len(trans) != 1 {
		t.Fatalf("transcripts: %q", trans)
	}
	b, err := os.ReadFile(trans[0])
	if err != nil {
		t.Fatal(err)
	}
	tr, err := record.ReadOthelloTranscript(bytes.NewReader(b), othello.TUS.Start)
	if err != nil {
		t.Fatal(err)
	}
	want := [2]string{"p0", "p1"}
	if outcomes[0].Color == othello.White {
		want = [2]string{"p1", "p0"}
	}
	if tr.Black != want[0] || tr.White != want[1] {
		t.Errorf("transcript header B:%s,W:%s, want B:%s,W:%s", tr.Black, tr.White, want[0], want[1])
	}
	if !strings.Contains(stderr.String(), "connection refused: the server is full") {
		t.Errorf("the refusal is not in the log:\n%s", stderr)
	}
	var out, errOut bytes.Buffer
	if err := run(ctx, []string{"serve", "othello", "-maxconns", "0"}, &out, &errOut); err == nil || !strings.Contains(err.Error(), "-maxconns 0") {
		t.Errorf("-maxconns 0: %v", err)
	}
}

// othelloFloodConns, othelloFloodLines and othelloFloodLimit are the load of
// TestArenaServeOthelloFlood: connections that each send lines of
// tus.MaxLine bytes before they are paired, and the most the
// server's peak resident memory may grow under them. The server before the
// byte budget grew by 370-540 MB under this load (answering none of it);
// with it, by about 36 MB.
const (
	othelloFloodConns = 1000
	othelloFloodLines = 64
	othelloFloodLimit = 150 << 20
)

// othelloFlood is the load generator: it opens conns connections to port,
// each of which sends lines lines of tus.MaxLine bytes at once
// before it is paired, and waits until every one has its answer (its first
// line, and for ERROR 4 the SAY after it), keeping them all open, as a
// hostile client would. It then calls measure, and reads each connection
// until the server closes it. It returns how many connections got each
// first line, and an error if the server left one open until ctx ended.
func othelloFlood(ctx context.Context, port string, conns, lines int, measure func()) (map[string]int, error) {
	line := "SAY " + strings.Repeat("x", tus.MaxLine-len("SAY ")) + "\n"
	payload := []byte(strings.Repeat(line, lines))
	var mu sync.Mutex
	first := map[string]int{}
	open := 0
	var answered, wg sync.WaitGroup
	measured := make(chan struct{})
	deadline, _ := ctx.Deadline()
	for range conns {
		c, err := net.Dial("tcp", "127.0.0.1:"+port)
		if err != nil {
			close(measured)
			wg.Wait()
			return first, err
		}
		answered.Add(1)
		wg.Go(func() {
			defer c.Close()
			c.SetDeadline(deadline)
			go c.Write(payload) // the server may stop reading: do not wait for it
			br := bufio.NewReader(c)
			l, err := br.ReadString('\n')
			if err == nil && l == "ERROR 4\n" {
				_, err = br.ReadString('\n')
			}
			answered.Done()
			<-measured
			if err == nil && !strings.HasPrefix(l, "START") {
				// A paired one leaves (its game would wait for its move); the
				// others wait for the server to close.
				_, err = io.Copy(io.Discard, br)
			}
			mu.Lock()
			defer mu.Unlock()
			first[strings.TrimSuffix(l, "\n")]++
			if errors.Is(err, os.ErrDeadlineExceeded) {
				open++
			}
		})
	}
	answered.Wait()
	measure()
	close(measured)
	wg.Wait()
	if open > 0 {
		return first, fmt.Errorf("the server left %d connections open until the load gave up", open)
	}
	return first, nil
}

// peakRSS is the peak resident memory of process pid (VmHWM), in bytes.
func peakRSS(t *testing.T, pid int) int64 {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Skipf("no /proc: %v", err)
	}
	m := regexp.MustCompile(`(?m)^VmHWM:\s+(\d+) kB$`).FindSubmatch(b)
	if m == nil {
		t.Skipf("no VmHWM in /proc/%d/status", pid)
	}
	kb, _ := strconv.ParseInt(string(m[1]), 10, 64)
	return kb << 10
}

// TestArenaServeOthelloFlood measures a real "arena serve othello" under
// 1,000 connections that each send 64 lines of 4 KB before pairing: every
// one is answered ERROR 4 and a SAY (or, if the random pairing drew it
// first, START) and closed, the server's peak resident memory grows by less
// than othelloFloodLimit, and two clients then play a game on it.
func TestArenaServeOthelloFlood(t *testing.T) {
	if testing.Short() {
		t.Skip("1,000 connections")
	}
	if runtime.GOOS != "linux" {
		t.Skip("reads the server's memory in /proc")
	}
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel) // after the server's stop
	srv := startServeOthello(t, ctx, dir, "-trans=false")
	pid, port, stderr := srv.pid, srv.port, srv.stderr
	idle := peakRSS(t, pid)
	var peak int64
	// The load's clients give up a minute before the server is stopped.
	floodCtx, stopFlood := context.WithTimeout(ctx, time.Minute)
	defer stopFlood()
	first, err := othelloFlood(floodCtx, port, othelloFloodConns, othelloFloodLines, func() { peak = peakRSS(t, pid) })
	if err != nil {
		t.Errorf("first lines %v: %v", first, err)
	}
	t.Logf("server peak RSS: %.1f MB idle, %.1f MB under %d connections of %d lines of %d bytes; first lines %v",
		float64(idle)/(1<<20), float64(peak)/(1<<20), othelloFloodConns, othelloFloodLines, tus.MaxLine, first)
	if peak-idle > othelloFloodLimit {
		t.Errorf("peak RSS grew by %.1f MB, over %d MB", float64(peak-idle)/(1<<20), othelloFloodLimit>>20)
	}
	if n := first["ERROR 4"] + first["START 1"] + first["START -1"]; n != othelloFloodConns {
		t.Errorf("first lines %v: want ERROR 4 (or START) on all %d", first, othelloFloodConns)
	}
	if first["ERROR 4"] == 0 {
		t.Errorf("no connection went over its budget: %v", first)
	}
	othelloServePlay(t, ctx, [2]net.Conn{dialOthello(t, port), dialOthello(t, port)}, [2]string{"after", "flood"})
	if strings.Contains(stderr.String(), "panic") {
		t.Errorf("stderr:\n%s", stderr)
	}
}

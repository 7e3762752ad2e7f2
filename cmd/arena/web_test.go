package main

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/botarena/botarena/internal/browsertest"
	"github.com/botarena/botarena/internal/sharedtest"
	"github.com/botarena/botarena/othello"
	"github.com/botarena/botarena/viewer"
)

// get fetches url and returns the status and the body.
func get(t testing.TB, u string) (int, string) {
	t.Helper()
	resp, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(b)
}

// transcript is a real Othello -trans transcript of the test data.
func transcript(t testing.TB) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(sharedtest.Dir(t, "othello"), "client-001-server-game-1-2026-07-22.txt"))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// othelloFrames plays the first n plies of the TUS start (always the
// first legal move) as frames.
func othelloFrames(n int) []viewer.Frame {
	p := othello.TUS.Start
	fs := []viewer.Frame{viewer.OthelloFrame(p, 0, othello.NoMove, "", [2]string{"1:00.0", "1:00.0"})}
	for i := 1; i <= n && !p.IsOver(); i++ {
		m := p.AppendLegalMoves(nil)[0]
		p, _ = p.Play(m)
		fs = append(fs, viewer.OthelloFrame(p, i, m, "", [2]string{"0:59.0", "0:58.0"}))
	}
	return fs
}

// TestStartViewer: the viewer prints its URL, serves, and stops when ctx is
// done even with an event stream open; a bad address is an error.
func TestStartViewer(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var out bytes.Buffer
	w, wait, err := startViewer(ctx, "127.0.0.1:0", &out, []string{t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`^Viewer: (http://127\.0\.0\.1:\d+/)\n$`).FindStringSubmatch(out.String())
	if m == nil {
		t.Fatalf("printed %q", out.String())
	}
	w.Begin(viewer.GameInfo{ID: "x", Title: "x"}, othelloFrames(0)[0])
	if code, _ := get(t, m[1]); code != 200 {
		t.Errorf("index: %d", code)
	}
	// An open event stream does not keep the viewer from stopping.
	er, done := browsertest.OpenEvents(t, m[1]+"events/x")
	defer done()
	er.NextState()
	cancel()
	wait()
	if _, err := http.Get(m[1]); err == nil {
		t.Errorf("the viewer still answers after ctx is done")
	}
	if _, _, err := startViewer(context.Background(), "127.0.0.1:99999", io.Discard, nil); err == nil {
		t.Errorf("a bad address is accepted")
	}
}

// TestViewerURL: the printed URL of a wildcard, an IPv4 and an IPv6
// address.
func TestViewerURL(t *testing.T) {
	for addr, want := range map[string]string{
		":0":          `^http://localhost:\d+/$`,
		"127.0.0.1:0": `^http://127\.0\.0\.1:\d+/$`,
		"[::1]:0":     `^http://\[::1\]:\d+/$`,
	} {
		ln, err := net.Listen("tcp", addr)
		if err != nil {
			continue // no IPv6 here
		}
		if got := viewerURL(ln.Addr()); !regexp.MustCompile(want).MatchString(got) {
			t.Errorf("%s: %s", addr, got)
		}
		ln.Close()
	}
}

// TestViewCmd: "arena view" refuses a missing path, serves the records of a
// directory, and ends when ctx is done.
func TestViewCmd(t *testing.T) {
	var stderr bytes.Buffer
	err := viewCmd(context.Background(), []string{"-web", "127.0.0.1:0", "/no/such/dir"}, io.Discard, &stderr)
	if err == nil || !strings.Contains(err.Error(), "/no/such/dir") {
		t.Errorf("a missing directory: %v", err)
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "g.txt"), transcript(t), 0o644)
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	errc := make(chan error, 1)
	go func() {
		errc <- viewCmd(ctx, []string{"-web", "127.0.0.1:0", dir}, pw, &stderr)
		pw.Close()
	}()
	sc := bufio.NewScanner(pr)
	var base string
	for sc.Scan() {
		if m := regexp.MustCompile(`^Viewer: (http://\S+/)$`).FindStringSubmatch(sc.Text()); m != nil {
			base = m[1]
			break
		}
	}
	go io.Copy(io.Discard, pr)
	if base == "" {
		t.Fatal("no Viewer line")
	}
	code, body := get(t, base)
	if code != 200 || !strings.Contains(body, ">g.txt</a>") {
		t.Errorf("index: %d", code)
	}
	if code, _ := get(t, base+"replay?file="+url.QueryEscape(filepath.Join(dir, "g.txt"))); code != 200 {
		t.Errorf("replay: %d", code)
	}
	cancel()
	if err := <-errc; err != nil {
		t.Errorf("view ended with %v", err)
	}
}

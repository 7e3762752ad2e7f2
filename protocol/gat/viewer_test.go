package gat

import (
	"bufio"
	"context"
	"crypto/rand"
	"crypto/sha1"
	"encoding/base64"
	"encoding/binary"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/botarena/botarena/geister"
)

// TestHostViewerStates replays random-game-1 with a viewer: the
// strings the Java server's viewer broadcast during that game (sampled every
// 500 ms) must all be among ours, in order, and ours must follow the Java
// labels: MOV: after the first SET, MV0:/MV1: for each MOV?, WI0: at the end.
// With Reveal ours are the Java server's; by default the same with the
// colours of the ghosts on the board hidden until the end.
func TestHostViewerStates(t *testing.T) {
	for _, reveal := range []bool{true, false} {
		t.Run(fmt.Sprint("reveal=", reveal), func(t *testing.T) { testGeisterHostViewerStates(t, reveal) })
	}
}

func testGeisterHostViewerStates(t *testing.T, reveal bool) {
	var mu sync.Mutex
	var states []string
	v := &Viewer{Reveal: reveal, onPublish: func(s string) {
		mu.Lock()
		states = append(states, s)
		mu.Unlock()
	}}
	jgReplay(t, &Host{Viewer: v}, jgScriptOf(t, "random-game-1.txt", nil))
	mu.Lock()
	defer mu.Unlock()
	rows := jgViewerRows(t)
	if !reveal {
		for k, r := range rows {
			rows[k] = hideViewerString(t, r)
		}
		for _, s := range states[:len(states)-1] {
			if shownColours(s[4:]) != 0 {
				t.Errorf("state %q shows colours of ghosts on the board", s)
			}
		}
		if shownColours(states[len(states)-1][4:]) == 0 {
			t.Errorf("the last state %q hides the colours", states[len(states)-1])
		}
	}
	i := 0
	for _, s := range states {
		if i < len(rows) && s == rows[i] {
			i++
		}
	}
	if i != len(rows) {
		t.Errorf("the Java viewer's string %d, %q, is not among ours after the earlier ones", i, rows[i])
	}
	// One MOV: per SET but the one that starts play, one MV per ply.
	if len(states) != 1+185+1 || !strings.HasPrefix(states[0], "MOV:") || !strings.HasPrefix(states[len(states)-1], "WI0:") {
		t.Errorf("%d states: first %q, last %q", len(states), states[0], states[len(states)-1])
	}
	for k, s := range states[1 : len(states)-1] {
		if want := fmt.Sprint("MV", k%2, ":"); !strings.HasPrefix(s, want) {
			t.Errorf("state %d is %q, want %s", k+1, s, want)
			break
		}
	}
	if v.State() != states[len(states)-1] {
		t.Errorf("current state %q", v.State())
	}
}

// wsTestClient is a minimal WebSocket client for tests.
type wsTestClient struct {
	conn net.Conn
	br   *bufio.Reader
}

// wsDial opens a WebSocket to addr's ViewerPath, as the Java
// server's viewer.html opened from a file does (Origin: null), and checks
// the handshake.
func wsDial(t *testing.T, addr string) *wsTestClient {
	t.Helper()
	c, resp := wsDialOrigin(t, addr, "null")
	if c == nil {
		t.Fatalf("handshake: %s %v", resp.Status, resp.Header)
	}
	return c
}

// wsDialOrigin opens a WebSocket to addr's ViewerPath with the Origin
// header origin (none when ""): the client, or nil and the refusal.
func wsDialOrigin(t *testing.T, addr, origin string) (*wsTestClient, *http.Response) {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	jgMust(t, err)
	t.Cleanup(func() { conn.Close() })
	var raw [16]byte
	rand.Read(raw[:])
	key := base64.StdEncoding.EncodeToString(raw[:])
	hdr := ""
	if origin != "" {
		hdr = "Origin: " + origin + "\r\n"
	}
	fmt.Fprintf(conn, "GET %s HTTP/1.1\r\nHost: %s\r\nUpgrade: websocket\r\nConnection: keep-alive, Upgrade\r\nSec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\n%s\r\n", ViewerPath, addr, key, hdr)
	br := bufio.NewReader(conn)
	conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	resp, err := http.ReadResponse(br, nil)
	jgMust(t, err)
	if resp.StatusCode != http.StatusSwitchingProtocols {
		return nil, resp
	}
	if resp.Header.Get("Sec-WebSocket-Accept") != wsAccept(key) {
		t.Fatalf("handshake: %s %v", resp.Status, resp.Header)
	}
	return &wsTestClient{conn: conn, br: br}, resp
}

// wsAccept is RFC 6455's accept value for key (its example: the key
// "dGhlIHNhbXBsZSBub25jZQ==" gives "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=").
func wsAccept(key string) string {
	h := sha1.Sum([]byte(key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"))
	return base64.StdEncoding.EncodeToString(h[:])
}

// frame reads one frame: its opcode and payload.
func (c *wsTestClient) frame(t *testing.T) (byte, string) {
	t.Helper()
	c.conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	var hdr [2]byte
	_, err := io.ReadFull(c.br, hdr[:])
	jgMust(t, err)
	if hdr[1]&0x80 != 0 || hdr[0]&0x80 == 0 {
		t.Fatalf("server frame header %x: masked or not final", hdr)
	}
	n := int(hdr[1] & 0x7F)
	if n == 126 {
		var ext [2]byte
		_, err := io.ReadFull(c.br, ext[:])
		jgMust(t, err)
		n = int(binary.BigEndian.Uint16(ext[:]))
	}
	p := make([]byte, n)
	_, err = io.ReadFull(c.br, p)
	jgMust(t, err)
	return hdr[0] & 0x0F, string(p)
}

// text reads frames until a text frame, and returns it.
func (c *wsTestClient) text(t *testing.T) string {
	t.Helper()
	for {
		op, p := c.frame(t)
		if op == wsText {
			return p
		}
		t.Fatalf("frame %x %q, want text", op, p)
	}
}

// send writes a masked client frame.
func (c *wsTestClient) send(t *testing.T, opcode byte, payload string, masked bool) {
	t.Helper()
	b := []byte{0x80 | opcode}
	mask := [4]byte{1, 2, 3, 4}
	m := byte(0)
	if masked {
		m = 0x80
	}
	switch n := len(payload); {
	case n < 126:
		b = append(b, m|byte(n))
	default:
		b = append(b, m|126)
		b = binary.BigEndian.AppendUint16(b, uint16(n))
	}
	if masked {
		b = append(b, mask[:]...)
	}
	for i := range len(payload) {
		c := payload[i]
		if masked {
			c ^= mask[i%4]
		}
		b = append(b, c)
	}
	_, err := c.conn.Write(b)
	jgMust(t, err)
}

// wsServe runs v on a fresh port until the test ends, and returns the
// address.
func wsServe(t *testing.T, v *Viewer) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	jgMust(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() { errc <- v.Serve(ctx, ln) }()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-errc:
			if err != nil {
				t.Errorf("Serve: %v", err)
			}
		case <-time.After(10 * time.Second):
			t.Error("Serve did not return")
		}
	})
	return ln.Addr().String()
}

func TestViewerWebSocket(t *testing.T) {
	if got := wsAccept("dGhlIHNhbXBsZSBub25jZQ=="); got != "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=" {
		t.Fatalf("accept of RFC 6455's example: %s", got)
	}
	v := &Viewer{Interval: -1, Reveal: true, Origins: []string{"null"}}
	addr := wsServe(t, v)
	c := wsDial(t, addr)
	if s := c.text(t); s != "null" {
		t.Errorf("first state %q, want null", s)
	}
	p, err := geister.Start(geister.RedsAt(0), geister.RedsAt(69))
	jgMust(t, err)
	st := ViewerState{Kind: ViewerToMove, Board: ResultBoard(p, geister.Second)}
	v.Publish(st)
	if s := c.text(t); s != st.String() || s != "MV0:"+p.Board(geister.Second) {
		t.Errorf("state %q, want %q", s, st)
	}
	// A second viewer gets the current state at once.
	c2 := wsDial(t, addr)
	if s := c2.text(t); s != st.String() {
		t.Errorf("second viewer's first state %q", s)
	}
	// Frames from viewers are ignored; a ping is answered; a close closes.
	c.send(t, wsText, "hello", true)
	c.send(t, wsPing, "ping!", true)
	if op, pl := c.frame(t); op != wsPong || pl != "ping!" {
		t.Errorf("got %x %q, want a pong", op, pl)
	}
	c.send(t, wsClose, "\x03\xe8", true)
	if op, pl := c.frame(t); op != wsClose || pl != "\x03\xe8" {
		t.Errorf("got %x %q, want the close echoed", op, pl)
	}
	if _, err := c.br.ReadByte(); err == nil {
		t.Error("connection still open after the close")
	}
	// An unmasked client frame is a protocol error: close 1002.
	c2.send(t, wsText, "x", false)
	if op, pl := c2.frame(t); op != wsClose || pl != "\x03\xea" {
		t.Errorf("got %x %q, want close 1002", op, pl)
	}
	// A frame over 64 KiB: close 1009.
	c3 := wsDial(t, addr)
	c3.text(t)
	c3.conn.Write([]byte{0x82, 0xFF, 0, 0, 0, 0, 0, 2, 0, 0, 1, 2, 3, 4})
	if op, pl := c3.frame(t); op != wsClose || pl != "\x03\xf1" {
		t.Errorf("got %x %q, want close 1009", op, pl)
	}
	// Not WebSocket, or elsewhere.
	for _, tc := range []struct {
		path, upgrade string
		code          int
	}{
		{ViewerPath, "", http.StatusUpgradeRequired},
		{"/", "websocket", http.StatusNotFound},
	} {
		req, _ := http.NewRequest(http.MethodGet, "http://"+addr+tc.path, nil)
		if tc.upgrade != "" {
			req.Header.Set("Upgrade", tc.upgrade)
			req.Header.Set("Connection", "Upgrade")
		}
		resp, err := http.DefaultClient.Do(req)
		jgMust(t, err)
		resp.Body.Close()
		if resp.StatusCode != tc.code {
			t.Errorf("GET %s: %s, want %d", tc.path, resp.Status, tc.code)
		}
	}
}

// TestViewerInterval: the state is sent again every Interval, and a
// viewer that reads nothing holds up neither Publish nor the others.
func TestViewerInterval(t *testing.T) {
	v := &Viewer{Interval: 10 * time.Millisecond}
	addr := wsServe(t, v)
	stuck := wsDial(t, addr) // never reads
	_ = stuck
	c := wsDial(t, addr)
	for range 3 {
		if s := c.text(t); s != "null" {
			t.Fatalf("state %q", s)
		}
	}
	st := ViewerState{Kind: ViewerWon, Board: geisterSetupBoard([2]geister.Reds{}, [2]bool{}, geister.Second)}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for range 100000 {
			v.Publish(st)
		}
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Publish blocked")
	}
	for {
		if s := c.text(t); s == st.String() {
			break
		}
	}
}

// TestViewerHandler mounts the viewer on an http.Server of the
// caller's, and checks that bad handshakes are refused.
func TestViewerHandler(t *testing.T) {
	v := &Viewer{Interval: -1}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	jgMust(t, err)
	srv := &http.Server{Handler: v}
	go srv.Serve(ln)
	defer srv.Close()
	addr := ln.Addr().String()
	c := wsDial(t, addr)
	if s := c.text(t); s != "null" {
		t.Errorf("state %q", s)
	}
	for _, tc := range []struct {
		method  string
		headers map[string]string
		code    int
	}{
		{http.MethodPost, map[string]string{"Upgrade": "websocket", "Connection": "Upgrade", "Sec-WebSocket-Version": "13", "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ=="}, http.StatusMethodNotAllowed},
		{http.MethodGet, map[string]string{"Upgrade": "websocket", "Connection": "Upgrade", "Sec-WebSocket-Version": "8", "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ=="}, http.StatusUpgradeRequired},
		{http.MethodGet, map[string]string{"Upgrade": "websocket", "Connection": "Upgrade", "Sec-WebSocket-Version": "13", "Sec-WebSocket-Key": "short"}, http.StatusBadRequest},
	} {
		req, _ := http.NewRequest(tc.method, "http://"+addr+"/anything", nil)
		for k, val := range tc.headers {
			req.Header.Set(k, val)
		}
		resp, err := http.DefaultClient.Do(req)
		jgMust(t, err)
		resp.Body.Close()
		if resp.StatusCode != tc.code {
			t.Errorf("%s %v: %s, want %d", tc.method, tc.headers, resp.Status, tc.code)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := v.ListenAndServe(ctx, "127.0.0.1:0"); err != nil {
		t.Errorf("ListenAndServe with a done context: %v", err)
	}
	if err := v.ListenAndServe(context.Background(), "256.0.0.1:0"); err == nil {
		t.Error("ListenAndServe on a bad address")
	}
}

// hideViewerString is a viewer state string with the colours of the ghosts
// on the board made 'u', but at the end of a game (WI0:, WI1:, DRW:).
func hideViewerString(t *testing.T, s string) string {
	t.Helper()
	if s == "null" || strings.HasPrefix(s, "WI") || strings.HasPrefix(s, "DRW") {
		return s
	}
	b := []byte(s)
	for i := 4; i+2 < len(b); i += 3 {
		if b[i] <= '5' && b[i+1] <= '5' {
			b[i+2] = 'u'
		}
	}
	return string(b)
}

// shownColours counts the ghosts on the board of a 48-character board
// string whose colour shows.
func shownColours(board string) int {
	n := 0
	for i := 0; i+2 < len(board); i += 3 {
		if board[i] <= '5' && board[i+1] <= '5' && board[i+2] != 'u' {
			n++
		}
	}
	return n
}

// TestViewerColours: a WebSocket client over TCP sees, mid-game, the
// ghosts on the board without their colours, the captured ones with theirs;
// with Reveal, every colour, as the Java server sends it; at the end, every
// colour either way.
func TestViewerColours(t *testing.T) {
	mid := jgReplayMoves(t, "random-game-1.txt", 60) // captures on both sides by then
	for _, reveal := range []bool{false, true} {
		t.Run(fmt.Sprint("reveal=", reveal), func(t *testing.T) {
			v := &Viewer{Interval: -1, Reveal: reveal}
			addr := wsServe(t, v)
			c, resp := wsDialOrigin(t, addr, "") // a program, not a browser
			if c == nil {
				t.Fatalf("handshake: %s", resp.Status)
			}
			c.text(t) // null
			st := ViewerState{Kind: ViewerToMove, Side: mid.Turn(), Board: ResultBoard(mid, geister.Second)}
			full := st.String()
			if shownColours(full[4:]) != 16-strings.Count(full, "99") || !strings.ContainsAny(full[4:], "rb") {
				t.Fatalf("the test's position: %q", full)
			}
			v.Publish(st)
			got := c.text(t)
			switch {
			case reveal && got != full:
				t.Errorf("revealed: %q, want the Java server's %q", got, full)
			case !reveal && (got != hideViewerString(t, full) || shownColours(got[4:]) != 0):
				t.Errorf("hidden: %q, from %q", got, full)
			}
			if !reveal {
				// The captured ghosts keep their colours.
				for i := 4; i+2 < len(full); i += 3 {
					if full[i] == '9' && got[i+2] != full[i+2] {
						t.Errorf("captured ghost %d: %q, want %q", (i-4)/3, got[i+2], full[i+2])
					}
				}
				if _, err := ParseViewerState(got); err != nil {
					t.Errorf("the hidden state does not read: %v", err)
				}
			}
			end := ViewerState{Kind: ViewerWon, Side: geister.First, Board: ResultBoard(mid, geister.Second)}
			v.Publish(end)
			if got := c.text(t); got != end.String() {
				t.Errorf("at the end: %q, want %q", got, end.String())
			}
			if v.State() != end.String() {
				t.Errorf("State() = %q", v.State())
			}
		})
	}
}

// TestViewerOrigin: the handshake of a browser page of another site
// is refused (403); no Origin, the viewer's own host (any port), an Origin
// of Origins and, unless Reveal, "null" (a page opened from a file) are
// accepted.
func TestViewerOrigin(t *testing.T) {
	for _, tc := range []struct {
		reveal  bool
		origins []string
		origin  string
		ok      bool
	}{
		{false, nil, "", true},
		{false, nil, "http://127.0.0.1:9999", true},
		{false, nil, "null", true},
		{false, nil, "http://evil.example", false},
		{false, nil, "http://127.0.0.1.evil.example", false},
		{false, nil, "garbage", false},
		{false, []string{"http://viewer.example:8000"}, "http://VIEWER.example:8000", true},
		{false, []string{"http://viewer.example:8000"}, "http://viewer.example:8001", false},
		{true, nil, "null", false},
		{true, nil, "http://127.0.0.1", true},
		{true, nil, "https://evil.example", false},
		{true, []string{"null"}, "null", true},
		{true, []string{"*"}, "https://evil.example", true},
	} {
		v := &Viewer{Interval: -1, Reveal: tc.reveal, Origins: tc.origins}
		addr := wsServe(t, v)
		c, resp := wsDialOrigin(t, addr, tc.origin)
		if (c != nil) != tc.ok {
			t.Errorf("reveal %v, origins %q, Origin %q: %s; want accepted %v", tc.reveal, tc.origins, tc.origin, resp.Status, tc.ok)
			continue
		}
		if c == nil {
			body, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != http.StatusForbidden || !strings.Contains(string(body), "not allowed") || !strings.Contains(string(body), "-ws-origin") {
				t.Errorf("refusal of %q: %s %q", tc.origin, resp.Status, body)
			}
		} else if s := c.text(t); s != "null" {
			t.Errorf("Origin %q: first state %q", tc.origin, s)
		}
	}
}

// TestViewerFlags: -ws-reveal and -ws-origin reach the viewer; a bad
// origin is an error naming it.
func TestViewerFlags(t *testing.T) {
	var o HostOptions
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	o.RegisterFlags(fs)
	jgMust(t, fs.Parse([]string{"-ws-reveal", "-ws-origin", "http://a.example:8000/, null ,*"}))
	h, err := o.Host()
	jgMust(t, err)
	if !h.Viewer.Reveal || !slices.Equal(h.Viewer.Origins, []string{"http://a.example:8000", "null", "*"}) {
		t.Errorf("viewer: reveal %v, origins %q", h.Viewer.Reveal, h.Viewer.Origins)
	}
	o = DefaultHostOptions()
	if h, err := o.Host(); err != nil || h.Viewer.Reveal || h.Viewer.Origins != nil {
		t.Errorf("defaults: %v, %+v", err, h.Viewer)
	}
	for _, bad := range []string{"evil.example", "http://a.example/path", "ftp://", "http://a.example?x"} {
		o.WSOrigin = bad
		if _, err := o.Host(); err == nil || !strings.Contains(err.Error(), strconv.Quote(bad)) || !strings.Contains(err.Error(), "--ws-origin") {
			t.Errorf("-ws-origin %q: %v", bad, err)
		}
	}
}

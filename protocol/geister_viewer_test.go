package protocol

import (
	"bufio"
	"context"
	"crypto/rand"
	"crypto/sha1"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/botarena/botarena/geister"
)

// TestGeisterHostViewerStates replays random-game-1 with a viewer: the
// strings the Java server's viewer broadcast during that game (sampled every
// 500 ms) must all be among ours, in order, and ours must follow the Java
// labels: MOV: after the first SET, MV0:/MV1: for each MOV?, WI0: at the end.
func TestGeisterHostViewerStates(t *testing.T) {
	var mu sync.Mutex
	var states []string
	v := &GeisterViewer{onPublish: func(s string) {
		mu.Lock()
		states = append(states, s)
		mu.Unlock()
	}}
	jgReplay(t, &GeisterHost{Viewer: v}, jgScriptOf(t, "random-game-1.txt", nil))
	mu.Lock()
	defer mu.Unlock()
	rows := jgViewerRows(t)
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

// wsDial opens a WebSocket to addr's GeisterViewerPath and checks the
// handshake.
func wsDial(t *testing.T, addr string) *wsTestClient {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	jgMust(t, err)
	t.Cleanup(func() { conn.Close() })
	var raw [16]byte
	rand.Read(raw[:])
	key := base64.StdEncoding.EncodeToString(raw[:])
	fmt.Fprintf(conn, "GET %s HTTP/1.1\r\nHost: %s\r\nUpgrade: websocket\r\nConnection: keep-alive, Upgrade\r\nSec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\nOrigin: null\r\n\r\n", GeisterViewerPath, addr, key)
	br := bufio.NewReader(conn)
	conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	resp, err := http.ReadResponse(br, nil)
	jgMust(t, err)
	if resp.StatusCode != http.StatusSwitchingProtocols || resp.Header.Get("Sec-WebSocket-Accept") != wsAccept(key) {
		t.Fatalf("handshake: %s %v", resp.Status, resp.Header)
	}
	return &wsTestClient{conn: conn, br: br}
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
func wsServe(t *testing.T, v *GeisterViewer) string {
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

func TestGeisterViewerWebSocket(t *testing.T) {
	if got := wsAccept("dGhlIHNhbXBsZSBub25jZQ=="); got != "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=" {
		t.Fatalf("accept of RFC 6455's example: %s", got)
	}
	v := &GeisterViewer{Interval: -1}
	addr := wsServe(t, v)
	c := wsDial(t, addr)
	if s := c.text(t); s != "null" {
		t.Errorf("first state %q, want null", s)
	}
	p, err := geister.Start(geister.RedsAt(0), geister.RedsAt(69))
	jgMust(t, err)
	st := GeisterViewerState{Kind: GeisterViewerToMove, Board: GeisterResultBoard(p, geister.Second)}
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
		{GeisterViewerPath, "", http.StatusUpgradeRequired},
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

// TestGeisterViewerInterval: the state is sent again every Interval, and a
// viewer that reads nothing holds up neither Publish nor the others.
func TestGeisterViewerInterval(t *testing.T) {
	v := &GeisterViewer{Interval: 10 * time.Millisecond}
	addr := wsServe(t, v)
	stuck := wsDial(t, addr) // never reads
	_ = stuck
	c := wsDial(t, addr)
	for range 3 {
		if s := c.text(t); s != "null" {
			t.Fatalf("state %q", s)
		}
	}
	st := GeisterViewerState{Kind: GeisterViewerWaiting, Board: geisterSetupBoard([2]geister.Reds{}, [2]bool{}, geister.Second)}
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

// TestGeisterViewerHandler mounts the viewer on an http.Server of the
// caller's, and checks that bad handshakes are refused.
func TestGeisterViewerHandler(t *testing.T) {
	v := &GeisterViewer{Interval: -1}
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

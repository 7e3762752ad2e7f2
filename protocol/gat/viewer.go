package gat

import (
	"bufio"
	"context"
	"crypto/sha1"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/botarena/botarena/geister"
)

// ViewerPath is the WebSocket endpoint of the Java server's viewer
// page, which [Viewer.Serve] serves.
const ViewerPath = "/ws/geister"

// The viewer's fixed limits.
const (
	geisterViewerInterval     = 500 * time.Millisecond // Viewer.Interval's default
	geisterViewerWriteTimeout = 10 * time.Second       // a frame that cannot be written in this time drops the viewer
	geisterViewerMaxFrame     = 1 << 16                // the largest frame a viewer may send us
)

// Viewer broadcasts the state of a Geister host's games to WebSocket
// viewers, as the Java server does on ws://<host>:8080/ws/geister:
// one current state string ([ViewerState]: "null" before any
// game event, then a label and the second player's board), sent to every
// viewer when it connects, whenever it changes, and again every Interval.
// Frames from viewers are read and ignored (a ping is answered, a close
// closes).
//
// Unlike the Java server, which shows every colour at all times, the
// viewer hides what a spectator may not see while a game goes on: the
// colour of every ghost on the board is sent as 'u' (unknown), which the
// Java viewer page draws as a ghost of no colour, until the game is over
// (WI0:, WI1:, DRW:), when the whole board is sent. The captured and
// escaped ghosts, whose colours both players know, are always shown. Any
// player could otherwise open the viewer and read the opponent's colours.
// Reveal sends every colour at all times, as the Java server does, for an
// operator.
//
// A browser's WebSocket handshake carries the page's Origin; a page of
// another site must not read the stream from the browser of someone who can
// reach the viewer. The handshake is accepted when it has no Origin (not a
// browser), when the Origin's host is the request's host (the port aside),
// when the Origin is in Origins, and, unless Reveal, when it is "null", the
// Origin of a page opened from a file, as the Java server's viewer.html is
// (the stream then holds nothing secret). Others get 403.
//
// A [Host] publishes to the viewer in its Viewer field; anything else
// may call Publish. A viewer that does not keep up only misses states, since
// each is sent the latest state when it can take it: a slow viewer never
// delays a game.
//
// Viewer is an http.Handler for the WebSocket endpoint; Serve and
// ListenAndServe run it on its own port at [ViewerPath]. The zero
// Viewer is ready to use. It must not be copied after first use.
type Viewer struct {
	// Interval is how often the current state is sent again to every
	// viewer. Zero means 500 ms, the Java server's; a negative value sends
	// it only on connection and on change.
	Interval time.Duration
	// Logger receives the viewer's log. Nil discards it.
	Logger *slog.Logger
	// Reveal sends the colours of the ghosts on the board while a game goes
	// on, as the Java server does; by default they are sent as 'u' until
	// the game is over.
	Reveal bool
	// Origins are the Origin headers accepted besides the viewer's own host:
	// "scheme://host[:port]" as a browser sends it (compared without regard
	// to case), "null", or "*" for any. See [ParseViewerOrigins].
	Origins []string

	mu    sync.Mutex
	state string // "" means "null"
	subs  map[*geisterWS]struct{}
	// onPublish, for tests, sees every state published (as sent), in order.
	onPublish func(string)
}

// Publish makes st the current state and sends it to every viewer: with the
// colours of the ghosts on the board hidden while the game goes on, unless
// Reveal. It never blocks on a viewer.
func (v *Viewer) Publish(st ViewerState) {
	if !v.Reveal {
		st = hideGeisterViewerState(st)
	}
	s := st.String()
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.onPublish != nil {
		v.onPublish(s)
	}
	if s == v.state {
		return
	}
	v.state = s
	for ws := range v.subs {
		select {
		case ws.notify <- struct{}{}:
		default:
		}
	}
}

// hideGeisterViewerState is st as a spectator may see it: while the game
// goes on (any label but WI0:, WI1: and DRW:), the ghosts on the board
// without their colours.
func hideGeisterViewerState(st ViewerState) ViewerState {
	if st.Kind == ViewerWon || st.Kind == ViewerDraw {
		return st
	}
	for i := range st.Board.Squares {
		for g, sq := range st.Board.Squares[i] {
			if sq.Valid() {
				st.Board.Colors[i][g] = geister.Unknown
			}
		}
	}
	return st
}

// ParseViewerOrigins reads a comma-separated list of Origins for
// [Viewer.Origins] (the -ws-origin flag): each "scheme://host[:port]"
// (http, https, or another scheme a page may have), "null", or "*"; blanks
// around the commas are dropped, and "" is no Origin beyond the defaults.
func ParseViewerOrigins(list string) ([]string, error) {
	var out []string
	for o := range strings.SplitSeq(list, ",") {
		o = strings.TrimSpace(o)
		switch {
		case o == "":
			continue
		case o == "*" || o == "null":
		default:
			u, err := url.Parse(o)
			if err != nil || u.Scheme == "" || u.Host == "" || (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" || u.User != nil {
				return nil, fmt.Errorf("gat: origin %q: want scheme://host[:port] as a browser sends it (http://localhost:8000), null, or *", o)
			}
			o = strings.TrimSuffix(o, "/")
		}
		out = append(out, o)
	}
	return out, nil
}

// originAllowed reports whether a handshake with r's Origin header is
// accepted (see [Viewer]).
func (v *Viewer) originAllowed(r *http.Request) bool {
	origin := r.Header.Get("Origin")
	if len(r.Header.Values("Origin")) == 0 {
		return true // not a browser
	}
	for _, o := range v.Origins {
		if o == "*" || strings.EqualFold(o, origin) {
			return true
		}
	}
	if origin == "null" {
		return !v.Reveal
	}
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" {
		return false
	}
	host := r.Host
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	return strings.EqualFold(u.Hostname(), strings.Trim(host, "[]"))
}

// State returns the current state string.
func (v *Viewer) State() string {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.state == "" {
		return "null"
	}
	return v.state
}

// ListenAndServe listens on the TCP address addr (":8080" when "") and calls
// Serve.
func (v *Viewer) ListenAndServe(ctx context.Context, addr string) error {
	if addr == "" {
		addr = DefaultViewerAddr
	}
	var lc net.ListenConfig
	ln, err := lc.Listen(ctx, "tcp", addr)
	if err != nil {
		return err
	}
	return v.Serve(ctx, ln)
}

// Serve serves the WebSocket endpoint [ViewerPath] on ln until ctx is
// done or ln fails; other paths get 404. It then closes ln and the
// connections of the viewers it accepted, waits for its goroutines, and
// returns nil when ctx ended it, else the error of http.Server.Serve.
func (v *Viewer) Serve(ctx context.Context, ln net.Listener) error {
	var track geisterWSSet
	mux := http.NewServeMux()
	mux.HandleFunc(ViewerPath, func(w http.ResponseWriter, r *http.Request) {
		v.serveWS(w, r, &track)
	})
	srv := &http.Server{
		Handler:           mux,
		ReadHeaderTimeout: 10 * time.Second,
		BaseContext:       func(net.Listener) context.Context { return ctx },
	}
	stop := context.AfterFunc(ctx, func() {
		srv.Close()
		track.closeAll()
	})
	defer stop()
	err := srv.Serve(ln)
	srv.Close()
	track.closeAll()
	track.wg.Wait()
	if ctx.Err() != nil || errors.Is(err, http.ErrServerClosed) {
		return nil
	}
	return err
}

// ServeHTTP upgrades a WebSocket request (RFC 6455, version 13) and streams
// the states to it until it closes; other requests get 400 or 426. It
// returns when the viewer is gone.
func (v *Viewer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	v.serveWS(w, r, nil)
}

// geisterWSSet tracks the viewer connections that one Serve accepted.
type geisterWSSet struct {
	mu     sync.Mutex
	conns  map[*geisterWS]struct{}
	closed bool
	wg     sync.WaitGroup
}

func (t *geisterWSSet) add(ws *geisterWS) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		return false
	}
	if t.conns == nil {
		t.conns = make(map[*geisterWS]struct{})
	}
	t.conns[ws] = struct{}{}
	t.wg.Add(1)
	return true
}

func (t *geisterWSSet) remove(ws *geisterWS) {
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.conns, ws)
	t.wg.Done()
}

func (t *geisterWSSet) closeAll() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.closed = true
	for ws := range t.conns {
		ws.kill()
	}
}

// geisterWS is one viewer's WebSocket connection.
type geisterWS struct {
	conn    net.Conn
	notify  chan struct{} // the state changed
	control chan []byte   // frames the reader wants written (pong, close)
	done    chan struct{}
	once    sync.Once
}

func (ws *geisterWS) kill() {
	ws.once.Do(func() {
		close(ws.done)
		ws.conn.Close()
	})
}

// geisterWSGUID is RFC 6455's key suffix.
const geisterWSGUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

// headerHasToken reports whether the comma-separated header h holds token,
// ignoring case.
func headerHasToken(h http.Header, name, token string) bool {
	for _, v := range h.Values(name) {
		for t := range strings.SplitSeq(v, ",") {
			if strings.EqualFold(strings.TrimSpace(t), token) {
				return true
			}
		}
	}
	return false
}

// serveWS upgrades r and runs the viewer; track, if not nil, is the Serve
// call that owns it.
func (v *Viewer) serveWS(w http.ResponseWriter, r *http.Request, track *geisterWSSet) {
	log := v.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	key := r.Header.Get("Sec-WebSocket-Key")
	raw, err := base64.StdEncoding.DecodeString(key)
	switch {
	case r.Method != http.MethodGet:
		http.Error(w, "a WebSocket handshake is a GET", http.StatusMethodNotAllowed)
		return
	case !v.originAllowed(r):
		log.Info("geister viewer: origin refused", "remote", r.RemoteAddr, "origin", r.Header.Get("Origin"))
		http.Error(w, "origin "+strconv.Quote(r.Header.Get("Origin"))+" not allowed: this viewer accepts pages of its own host; the operator may allow others (-ws-origin)", http.StatusForbidden)
		return
	case !headerHasToken(r.Header, "Upgrade", "websocket") || !headerHasToken(r.Header, "Connection", "upgrade"):
		w.Header().Set("Upgrade", "websocket")
		http.Error(w, "this endpoint speaks WebSocket only", http.StatusUpgradeRequired)
		return
	case r.Header.Get("Sec-WebSocket-Version") != "13":
		w.Header().Set("Sec-WebSocket-Version", "13")
		http.Error(w, "WebSocket version 13 only", http.StatusUpgradeRequired)
		return
	case err != nil || len(raw) != 16:
		http.Error(w, "bad Sec-WebSocket-Key", http.StatusBadRequest)
		return
	}
	conn, brw, err := http.NewResponseController(w).Hijack()
	if err != nil {
		http.Error(w, "cannot upgrade this connection", http.StatusInternalServerError)
		return
	}
	sum := sha1.Sum([]byte(key + geisterWSGUID))
	conn.SetWriteDeadline(time.Now().Add(geisterViewerWriteTimeout))
	brw.WriteString("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ")
	brw.WriteString(base64.StdEncoding.EncodeToString(sum[:]))
	brw.WriteString("\r\n\r\n")
	if err := brw.Flush(); err != nil {
		conn.Close()
		return
	}
	ws := &geisterWS{conn: conn, notify: make(chan struct{}, 1), control: make(chan []byte, 4), done: make(chan struct{})}
	if track != nil && !track.add(ws) {
		conn.Close()
		return
	}
	v.mu.Lock()
	if v.subs == nil {
		v.subs = make(map[*geisterWS]struct{})
	}
	v.subs[ws] = struct{}{}
	v.mu.Unlock()
	log.Debug("geister viewer: connected", "remote", conn.RemoteAddr().String())

	readerDone := make(chan struct{})
	go func() {
		defer close(readerDone)
		ws.read(brw.Reader)
	}()
	ws.write(v, readerDone)
	ws.kill()
	<-readerDone
	v.mu.Lock()
	delete(v.subs, ws)
	v.mu.Unlock()
	if track != nil {
		track.remove(ws)
	}
	log.Debug("geister viewer: gone", "remote", conn.RemoteAddr().String())
}

// write is the viewer's writer: the current state at once, then on every
// change and every Interval, and the control frames the reader asks for,
// until the connection fails or closes, or the reader ends.
func (ws *geisterWS) write(v *Viewer, readerDone <-chan struct{}) {
	interval := v.Interval
	if interval == 0 {
		interval = geisterViewerInterval
	}
	var tick <-chan time.Time
	if interval > 0 {
		t := time.NewTicker(interval)
		defer t.Stop()
		tick = t.C
	}
	var buf []byte
	send := func(opcode byte, payload []byte) bool {
		buf = appendWSFrame(buf[:0], opcode, payload)
		ws.conn.SetWriteDeadline(time.Now().Add(geisterViewerWriteTimeout))
		_, err := ws.conn.Write(buf)
		return err == nil
	}
	if !send(wsText, []byte(v.State())) {
		return
	}
	for {
		select {
		case <-ws.notify:
		case <-tick:
		case f := <-ws.control:
			if !send(f[0], f[1:]) || f[0] == wsClose {
				return
			}
			continue
		case <-readerDone:
			// The client closed, perhaps with a close frame to answer.
			select {
			case f := <-ws.control:
				send(f[0], f[1:])
			default:
			}
			return
		case <-ws.done:
			return
		}
		if !send(wsText, []byte(v.State())) {
			return
		}
	}
}

// The WebSocket opcodes used here.
const (
	wsText  = 0x1
	wsClose = 0x8
	wsPing  = 0x9
	wsPong  = 0xA
)

// appendWSFrame appends one unmasked, final server frame.
func appendWSFrame(b []byte, opcode byte, payload []byte) []byte {
	b = append(b, 0x80|opcode)
	switch n := len(payload); {
	case n < 126:
		b = append(b, byte(n))
	case n <= 0xFFFF:
		b = append(b, 126)
		b = binary.BigEndian.AppendUint16(b, uint16(n))
	default:
		b = append(b, 127)
		b = binary.BigEndian.AppendUint64(b, uint64(n))
	}
	return append(b, payload...)
}

// read is the viewer's reader: it reads the client's frames, which must be
// masked, answers pings, and returns on a close frame, a protocol error or
// the connection's end. Data frames are discarded.
func (ws *geisterWS) read(r *bufio.Reader) {
	ask := func(opcode byte, payload []byte) {
		f := append([]byte{opcode}, payload...)
		select {
		case ws.control <- f:
		case <-ws.done:
		}
	}
	var hdr [14]byte
	for {
		if _, err := io.ReadFull(r, hdr[:2]); err != nil {
			return
		}
		opcode, masked, n := hdr[0]&0x0F, hdr[1]&0x80 != 0, uint64(hdr[1]&0x7F)
		switch n {
		case 126:
			if _, err := io.ReadFull(r, hdr[2:4]); err != nil {
				return
			}
			n = uint64(binary.BigEndian.Uint16(hdr[2:4]))
		case 127:
			if _, err := io.ReadFull(r, hdr[2:10]); err != nil {
				return
			}
			n = binary.BigEndian.Uint64(hdr[2:10])
		}
		control := opcode >= 0x8
		if !masked || hdr[0]&0x70 != 0 || (control && (n > 125 || hdr[0]&0x80 == 0)) {
			ask(wsClose, []byte{0x03, 0xEA}) // 1002: protocol error
			return
		}
		if n > geisterViewerMaxFrame {
			ask(wsClose, []byte{0x03, 0xF1}) // 1009: message too big
			return
		}
		var mask [4]byte
		if _, err := io.ReadFull(r, mask[:]); err != nil {
			return
		}
		if !control {
			if _, err := io.CopyN(io.Discard, r, int64(n)); err != nil {
				return
			}
			continue
		}
		payload := make([]byte, n)
		if _, err := io.ReadFull(r, payload); err != nil {
			return
		}
		for i := range payload {
			payload[i] ^= mask[i%4]
		}
		switch opcode {
		case wsPing:
			ask(wsPong, payload)
		case wsClose:
			if len(payload) >= 2 {
				payload = payload[:2]
			}
			ask(wsClose, payload)
			return
		}
	}
}

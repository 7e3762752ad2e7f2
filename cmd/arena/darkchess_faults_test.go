package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/botarena/botarena/darkchess"
	"github.com/botarena/botarena/internal/longtest"
	"github.com/botarena/botarena/internal/proctest"
	"github.com/botarena/botarena/protocol"
	"github.com/botarena/botarena/protocol/cdcsocket"
	"github.com/botarena/botarena/protocol/mgtp"
	"github.com/botarena/botarena/protocol/readmode"
	"github.com/botarena/botarena/record"
	"github.com/botarena/botarena/timer"
)

// dcPeerMark, as the first argument, makes this test binary a scripted dark
// chess engine that misbehaves on purpose:
//
//	<test binary> dc-fault-peer PROTOCOL FAULT POINT [127.0.0.1 PORT]
//
// PROTOCOL is mgtp, legacy or readmode; the engine plays legal random plies
// until POINT, where it does FAULT instead of what the protocol wants.
// Points: handshake (the first handshake message: "1 name", "/start_"),
// genmove (asked for its ply: "12 genmove", its turn, a read-mode run),
// echo (the report of its own ply, after it moved) and opponent (the report
// of the opponent's ply); a read-mode engine has only genmove. Faults:
// crash (exit 3), hang (never answer again), slow (answer dcSlow late),
// garbage (junk where an answer or a message goes, then go on), disconnect
// (close the connection or standard output, and live on) and illegal (a
// ply no rule allows: a1-b2).
//
// It is caught in init, before TestMain makes the binary arena.
const dcPeerMark = "dc-fault-peer"

// dcShort is the limit a test sets where a timeout is the point. The
// referee's limits are the same for both seats, so the opponent plays under
// it too, for a ply or two, a handshake or a few acknowledgements: it is
// short for a hang to cost little, long for a busy machine not to make the
// opponent miss it. dcSlow is how late a slow engine answers: three times
// dcShort.
const (
	dcShort = 2 * time.Second
	dcSlow  = 3 * dcShort
)

func init() {
	if len(os.Args) > 4 && os.Args[1] == dcPeerMark {
		os.Exit(dcFaultPeer(os.Args[2], os.Args[3], os.Args[4], os.Args[5:]))
	}
}

// dcFaultPeer runs the scripted engine and returns its exit code.
func dcFaultPeer(proto, fault, point string, args []string) int {
	bot, err := newDarkchessBot("random", uint64(os.Getpid()), timer.Control{})
	if err != nil {
		return 2
	}
	ctx := context.Background()
	switch proto {
	case "mgtp":
		in := &dcFaultStdin{sc: bufio.NewScanner(os.Stdin), fault: fault, point: point}
		mgtp.Serve(ctx, in, os.Stdout, bot)
	case "legacy":
		if len(args) != 2 {
			return 2
		}
		conn, err := net.Dial("tcp", net.JoinHostPort(args[0], args[1]))
		if err != nil {
			return 1
		}
		fc := &dcFaultConn{Conn: conn, fault: fault, point: point}
		var c cdcsocket.Client
		c.Run(ctx, fc, dcFaultPlayer{fc: fc, bot: bot})
	case "readmode":
		return dcFaultReadMode(ctx, fault, point, bot)
	default:
		return 2
	}
	return 0
}

// dcMisbehave does fault where it needs no protocol: it exits, or sleeps
// (for ever, or dcSlow). It reports false for the faults it leaves to the
// caller.
func dcMisbehave(fault string) bool {
	switch fault {
	case "crash":
		os.Exit(3)
	case "hang":
		time.Sleep(time.Hour)
	case "slow":
		time.Sleep(dcSlow)
		return true
	}
	return false
}

// dcFaultStdin is an MGTP engine's standard input that does the fault when
// its point's command arrives.
type dcFaultStdin struct {
	sc           *bufio.Scanner
	buf          []byte
	fault, point string
	asked        bool // the last ply command follows a genmove: the echo
	done         bool
}

func (r *dcFaultStdin) Read(p []byte) (int, error) {
	for len(r.buf) == 0 {
		if !r.sc.Scan() {
			return 0, io.EOF
		}
		line := r.sc.Text()
		if !r.act(line) {
			r.buf = append(r.buf, line+"\n"...)
		}
	}
	n := copy(p, r.buf)
	r.buf = r.buf[n:]
	return n, nil
}

// act does the fault if line is its point, and reports whether line is
// answered (so not passed on).
func (r *dcFaultStdin) act(line string) bool {
	c, err := mgtp.ParseCommand(line)
	if err != nil {
		return false
	}
	point := ""
	switch c.ID {
	case mgtp.CmdName:
		point = "handshake"
	case mgtp.CmdGenmove:
		point, r.asked = "genmove", true
	case mgtp.CmdMove, mgtp.CmdFlip:
		point = "opponent"
		if r.asked {
			point, r.asked = "echo", false
		}
	}
	if r.done || point != r.point {
		return false
	}
	r.done = true
	if dcMisbehave(r.fault) {
		return false
	}
	switch r.fault {
	case "disconnect":
		os.Stdout.Close()
		time.Sleep(time.Hour)
	case "garbage":
		if c.ID == mgtp.CmdGenmove {
			os.Stdout.WriteString("=12 zz top\n")
			return true
		}
		// Junk between replies is skipped: the game goes on.
		os.Stdout.WriteString("\x00\xff junk =99 ?3\n")
	case "illegal":
		os.Stdout.WriteString("=12 a1 b2\n")
		return true
	}
	return false
}

// dcFaultConn is a legacy engine's connection that does the fault when its
// point's message arrives.
type dcFaultConn struct {
	net.Conn
	fault, point string
	pending      []byte
	mu           sync.Mutex
	sent         bool // the engine sent a ply not yet reported back
	done         bool
}

func (c *dcFaultConn) Read(p []byte) (int, error) {
	for len(c.pending) == 0 {
		payload, err := cdcsocket.ReadFrame(c.Conn, nil)
		if err != nil {
			return 0, err
		}
		c.act(string(payload))
		c.pending, _ = cdcsocket.AppendFrame(nil, payload)
	}
	n := copy(p, c.pending)
	c.pending = c.pending[n:]
	return n, nil
}

func (c *dcFaultConn) Write(p []byte) (int, error) {
	if len(p) > 2 && (bytes.HasPrefix(p[2:], []byte("/move")) || bytes.HasPrefix(p[2:], []byte("/flip"))) {
		c.mu.Lock()
		c.sent = true
		c.mu.Unlock()
	}
	return c.Conn.Write(p)
}

// act does the fault if the message is its point.
func (c *dcFaultConn) act(payload string) {
	point := ""
	switch {
	case strings.HasPrefix(payload, "/start_"):
		point = "handshake"
	case strings.HasPrefix(payload, "/move"), strings.HasPrefix(payload, "/flip"):
		point = "opponent"
	}
	c.mu.Lock()
	if point == "opponent" && c.sent {
		point, c.sent = "echo", false
	}
	now := !c.done && point == c.point
	c.done = c.done || now
	c.mu.Unlock()
	if now {
		c.misbehave()
	}
}

// misbehave does the fault on the connection.
func (c *dcFaultConn) misbehave() {
	if dcMisbehave(c.fault) {
		return
	}
	switch c.fault {
	case "disconnect":
		c.Conn.Close()
		time.Sleep(time.Hour)
	case "garbage":
		c.Conn.Write([]byte("\xff\xff junk"))
	case "illegal":
		b, _ := cdcsocket.AppendFrame(nil, []byte("/move 0 0 1 1"))
		c.Conn.Write(b)
		time.Sleep(time.Hour)
	}
}

// dcFaultPlayer is a legacy engine's player, which does the fault of the
// genmove point.
type dcFaultPlayer struct {
	fc  *dcFaultConn
	bot darkchess.Player
}

func (p dcFaultPlayer) Play(ctx context.Context, v darkchess.View) (darkchess.Move, error) {
	p.fc.mu.Lock()
	now := p.fc.point == "genmove" && !p.fc.done
	p.fc.done = p.fc.done || now
	p.fc.mu.Unlock()
	if now {
		p.fc.misbehave()
		if p.fc.fault == "garbage" {
			time.Sleep(time.Hour)
		}
	}
	return p.bot.Play(context.WithoutCancel(ctx), v)
}

// dcFaultReadMode is one run of a read-mode engine. (The engine that
// crashes after its move, every run of a whole game, is a script around
// the example engine, which starts faster.)
func dcFaultReadMode(ctx context.Context, fault, point string, bot darkchess.Player) int {
	if point != "genmove" {
		return 2
	}
	dcMisbehave(fault)
	switch fault {
	case "garbage":
		os.WriteFile(readmode.MoveFile, []byte("zz top\n"), 0o644)
		return 0
	case "illegal":
		os.WriteFile(readmode.MoveFile, []byte("0\na1\nb2\n0\n"), 0o644)
		return 0
	}
	if err := readmode.Run(ctx, ".", bot); err != nil {
		return 1
	}
	return 0
}

// dcFaultCase is one misbehaviour of one engine.
type dcFaultCase struct {
	proto, fault, point string
}

// expect returns how the misbehaving engine loses (reason and kind), or
// ok false when its misbehaviour costs it nothing.
func (c dcFaultCase) expect() (reason string, kind protocol.DarkChessFaultKind, ok bool) {
	if c.point == "start" {
		if c.proto == "readmode" {
			return "MoveError", protocol.DarkChessNotStarted, true
		}
		return "TimeOut", protocol.DarkChessNotStarted, true
	}
	if c.proto == "readmode" {
		switch {
		case c.point == "echo":
			return "", 0, false // a crash after writing move.txt is no fault
		case c.fault == "crash":
			return "MoveError", protocol.DarkChessCrashed, true
		case c.fault == "garbage" || c.fault == "illegal":
			return "MoveError", protocol.DarkChessIllegal, true
		}
		return "TimeOut", protocol.DarkChessTimedOut, true
	}
	switch c.fault {
	case "crash":
		return "TimeOut", protocol.DarkChessCrashed, true
	case "hang":
		return "TimeOut", protocol.DarkChessTimedOut, true
	case "disconnect":
		return "TimeOut", protocol.DarkChessDisconnected, true
	case "illegal":
		return "MoveError", protocol.DarkChessIllegal, true
	case "slow":
		if c.proto == "legacy" && (c.point == "echo" || c.point == "opponent") {
			return "", 0, false // nothing waits for an answer then
		}
		return "TimeOut", protocol.DarkChessTimedOut, true
	case "garbage":
		switch {
		case c.proto == "mgtp" && c.point == "genmove":
			return "MoveError", protocol.DarkChessIllegal, true
		case c.proto == "mgtp":
			return "", 0, false // junk between replies is skipped
		case c.point == "handshake":
			return "TimeOut", protocol.DarkChessIllegal, true // the handshake failed
		}
		return "MoveError", protocol.DarkChessIllegal, true
	}
	panic("unknown fault " + c.fault)
}

// arenaKind is the fault arena charges for the referee's kind in case c:
// the same but for talk that is no ply (garbage), and a disconnection,
// which broke the protocol.
func (c dcFaultCase) arenaKind(kind protocol.DarkChessFaultKind) faultKind {
	switch kind {
	case protocol.DarkChessNotStarted:
		return faultStart
	case protocol.DarkChessCrashed:
		return faultCrash
	case protocol.DarkChessTimedOut:
		return faultTimeout
	case protocol.DarkChessIllegal:
		if c.fault == "illegal" {
			return faultIllegal
		}
		return faultProtocol
	case protocol.DarkChessDisconnected:
		return faultProtocol
	}
	return noFault
}

// limits returns the -time and -startup of the case's games, and the
// referee's tell timeout: short (dcShort) where a timeout is the point,
// generous everywhere else.
func (c dcFaultCase) limits() (control string, startup, tell time.Duration) {
	control, startup, tell = "60s", 30*time.Second, 20*time.Second
	if _, _, fault := c.expect(); !fault {
		return "900s", startup, tell // a whole game
	}
	if c.fault != "hang" && c.fault != "slow" {
		return control, startup, tell
	}
	switch {
	case c.point == "handshake":
		startup = dcShort
	case c.point == "genmove":
		control = fmt.Sprint(dcShort)
	case c.proto == "mgtp":
		tell = dcShort // its acknowledgement
	case c.proto == "legacy" && c.fault == "hang":
		control = fmt.Sprint(dcShort) // found at its next turn
	}
	return control, startup, tell
}

// dcFaultCases lists every misbehaviour at every point it can happen, for
// each protocol.
func dcFaultCases() []dcFaultCase {
	var cs []dcFaultCase
	for _, proto := range []string{"mgtp", "legacy", "readmode"} {
		cs = append(cs, dcFaultCase{proto, "missing", "start"})
		points := []string{"handshake", "genmove", "echo", "opponent"}
		faults := []string{"crash", "hang", "slow", "garbage", "disconnect", "illegal"}
		if proto == "readmode" {
			// One run per ply: no handshake, nothing to hear between.
			cs = append(cs, dcFaultCase{proto, "crash", "echo"})
			points, faults = []string{"genmove"}, []string{"crash", "hang", "slow", "garbage", "illegal"}
		}
		for _, point := range points {
			for _, fault := range faults {
				if fault == "illegal" && point != "genmove" {
					continue
				}
				cs = append(cs, dcFaultCase{proto, fault, point})
			}
		}
	}
	return cs
}

// dcFaultLog is a slog handler that keeps the pids of the programs
// started and the kind of each fault the referee charged.
type dcFaultLog struct {
	proctest.PIDLog
	mu    sync.Mutex
	kinds map[int64]string // seat → kind
}

// seen returns the kind of fault charged to each seat, by seat.
func (h *dcFaultLog) seen() map[int64]string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return maps.Clone(h.kinds)
}

func (h *dcFaultLog) WithAttrs([]slog.Attr) slog.Handler { return h }
func (h *dcFaultLog) WithGroup(string) slog.Handler      { return h }

func (h *dcFaultLog) Handle(ctx context.Context, r slog.Record) error {
	if r.Message == "dark chess: engine loses" {
		var seat int64
		var kind string
		r.Attrs(func(a slog.Attr) bool {
			switch a.Key {
			case "seat":
				seat = a.Value.Int64()
			case "kind":
				kind = a.Value.String()
			}
			return true
		})
		h.mu.Lock()
		if h.kinds == nil {
			h.kinds = map[int64]string{}
		}
		h.kinds[seat] = kind
		h.mu.Unlock()
	}
	return h.PIDLog.Handle(ctx, r)
}

// TestDarkchessFaultRecords: every record the referee writes reads back and
// replays to the referee's result, whatever an engine does wrong, wherever,
// in each protocol and in each seat: a scripted program misbehaves at one
// point of the game against a real engine, and the game's board.txt, read
// with record.ReadDarkChessBoard and replayed with Game, must end with the
// winner and the reason the referee gave (an engine that dies before
// acknowledging its own ply loses having just moved). The misbehaving
// engine must lose with the reason and the kind its fault calls for, or, for
// the few that cost nothing, the game must end by the rules (in the quick
// tier a short game: see dcQuickNoProgress). The quick tier plays each case
// in one seat, the long tier in both.
func TestDarkchessFaultRecords(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a hundred games with real programs")
	}
	t.Parallel() // it mostly waits: for short limits and dead programs
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	opp := dcPlayer(t, "darkchess-mgtp", "mgtp", buildProgram(t, "examples/darkchess-mgtp"))
	// Most games wait for a short limit: several at a time.
	sem := make(chan struct{}, 6)
	var wg sync.WaitGroup
	for i, c := range dcFaultCases() {
		for seat := range 2 {
			if !longtest.Enabled() && seat != i%2 && !(c.point == "handshake" && (c.fault == "hang" || c.fault == "slow")) {
				// The quick tier plays each case once, in one seat (the
				// cases take turns); the long tier in both.
				continue
			}
			if seat == 1 && c.point == "handshake" && (c.fault == "hang" || c.fault == "slow") {
				// Under a short -startup the opponent might miss it too
				// on a busy machine, and the first player's fault is the
				// one charged: only the first player hangs here (the
				// second player's hang in the handshake is held until the
				// first ply, which protocol's tests show with a Go
				// opponent).
				continue
			}
			wg.Go(func() {
				sem <- struct{}{}
				defer func() { <-sem }()
				t.Run(fmt.Sprintf("%s/%s@%s/seat%d", c.proto, c.fault, c.point, seat), func(t *testing.T) {
					dcFaultGame(t, c, seat, exe, opp)
				})
			})
		}
	}
	wg.Wait()
}

// TestDarkchessFaultRecordsResumed: in a game resumed from a record, both
// colours are known from the start, so a program that cannot start loses at
// once, whether it is to move or not, and the record says so and replays.
func TestDarkchessFaultRecordsResumed(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a program")
	}
	start := dcTestdata(t, "records/alsov4/100_ai_wins_TimeOut.txt") // 119 plies: the second player to move
	opp := dcPlayer(t, "darkchess-mgtp", "mgtp", buildProgram(t, "examples/darkchess-mgtp"))
	for seat := range 2 {
		t.Run(fmt.Sprintf("seat%d", seat), func(t *testing.T) {
			t.Parallel()
			players := [2]*playerSpec{opp, opp}
			players[seat] = dcPlayer(t, "bad", "mgtp", filepath.Join(t.TempDir(), "no-such-engine"))
			r := dcRunner(t, matchConfig{Start: start})
			var log dcFaultLog
			res, sc := dcPlay(t, r, players[0], players[1], 0, 11, slog.New(&log))
			log.CheckReaped(t)
			if res.Winner != 1-seat || res.Plies != 119 || res.Reason != "TimeOut" || log.seen()[int64(seat)] != protocol.DarkChessNotStarted.String() {
				t.Errorf("want the seat %d program to lose at ply 119 as it could not start: %+v, kinds %v", seat, res, log.seen())
			}
			dcCheckReplay(t, res, sc)
		})
	}
}

// dcFaultGame plays one game of case c, the misbehaving engine in seat.
func dcFaultGame(t *testing.T, c dcFaultCase, seat int, exe string, opp *playerSpec) {
	control, startup, tell := c.limits()
	bad := dcPlayer(t, "bad", c.proto, exe, dcPeerMark, c.proto, c.fault, c.point)
	switch {
	case c.point == "start":
		bad = dcPlayer(t, "bad", c.proto, filepath.Join(t.TempDir(), "no-such-engine"))
	case c.proto == "readmode" && c.point == "echo":
		// It writes move.txt, then crashes.
		example := buildProgram(t, "examples/darkchess-readmode")
		bad = dcPlayer(t, "bad", c.proto, dcScript(t, "'"+strings.ReplaceAll(example, "'", `'\''`)+"'\nexit 3\n"))
	}
	cfg := matchConfig{Time: control, Startup: startup}
	rules := darkchess.NTU2021
	if _, _, faulty := c.expect(); !faulty && !longtest.Enabled() {
		// A fault that costs nothing is played for a whole game: in the
		// quick tier a short one, drawn after 4 plies with no capture and
		// no flip (a read-mode game of the preset's 60 starts hundreds of
		// programs).
		cfg.MaxPlies = dcQuickNoProgress
		rules.NoProgressPlies = dcQuickNoProgress
	}
	r := dcRunner(t, cfg)
	r.(*darkchessRunner).tell = tell
	players := [2]*playerSpec{opp, opp}
	players[seat] = bad
	var log dcFaultLog
	res, sc := dcPlay(t, r, players[0], players[1], 0, 11, slog.New(&log))
	log.CheckReaped(t)

	dcCheckReplayRules(t, res, sc, rules)

	// The misbehaving engine loses as its fault calls for.
	reason, kind, faulty := c.expect()
	kinds := log.seen()
	switch {
	case !faulty:
		if res.Faults != [2]fault{} || res.Reason == "TimeOut" || res.Reason == "MoveError" {
			t.Errorf("a fault that costs nothing: %+v", res)
		}
	case res.Winner != 1-seat || res.Reason != reason || res.Faults[seat].Kind != c.arenaKind(kind) || res.Faults[1-seat] != (fault{}) ||
		res.Ending != c.arenaKind(kind).ending() || len(kinds) != 1 || kinds[int64(seat)] != kind.String():
		t.Errorf("want the seat %d engine to lose by %s (%s, arena's %s); got %+v, kinds %v", seat, reason, kind, c.arenaKind(kind), res, kinds)
	}
	t.Logf("%d plies, %s: %s", res.Plies, res.Reason, res.Detail)
}

// dcCheckReplay checks that the board.txt of a game the runner played
// (res, with its sidecar sc) reads back and replays to the referee's
// result: the same winner, reason and result.
func dcCheckReplay(t *testing.T, res gameResult, sc darkchessSidecar) {
	t.Helper()
	dcCheckReplayRules(t, res, sc, darkchess.NTU2021)
}

// dcQuickNoProgress is the no-capture-no-flip draw limit of the quick
// tier's whole games in TestDarkchessFaultRecords and
// TestDarkchessExamplePrograms.
const dcQuickNoProgress = 4

// dcCheckReplayRules is dcCheckReplay for a game played under rules.
func dcCheckReplayRules(t *testing.T, res gameResult, sc darkchessSidecar, rules darkchess.Rules) {
	t.Helper()
	data, err := os.ReadFile(res.Record)
	if err != nil {
		t.Fatal(err)
	}
	b, err := record.ReadDarkChessBoard(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	g, err := b.Game(rules, nil)
	if err != nil {
		t.Fatalf("the record does not replay: %v\n%s", err, data)
	}
	got, over := g.Result()
	if !over || got.String() != sc.Result || got.Reason.String() != res.Reason || dcWinnerSeat(g) != res.Winner {
		t.Errorf("the record replays to %v (winner seat %d), the referee said %s (%s, winner seat %d)\n%s",
			got, dcWinnerSeat(g), sc.Result, res.Reason, res.Winner, data)
	}
}

// dcWinnerSeat returns the seat that won g (0 the first player), -1 for a
// draw, -2 for a game in play.
func dcWinnerSeat(g *darkchess.Game) int {
	r, over := g.Result()
	switch {
	case !over:
		return -2
	case r.Draw:
		return -1
	case !r.Winner.Valid() || r.Winner != g.FirstColor():
		return 1
	}
	return 0
}

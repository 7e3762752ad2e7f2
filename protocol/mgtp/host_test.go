package mgtp_test

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/botarena/botarena/darkchess"
	"github.com/botarena/botarena/internal/proctest"
	"github.com/botarena/botarena/protocol"
	"github.com/botarena/botarena/protocol/mgtp"
	"github.com/botarena/botarena/timer"
)

// The engines of the host tests are this test binary run again as
// "<binary> -test.run=^TestMGTPPeer$ -- mgtp-peer <mode> [args]", and the
// example program, built once.
const peerMark = "mgtp-peer"

// TestMGTPPeer is not a test: it is the engine program of the host tests
// (it skips in a normal run).
func TestMGTPPeer(t *testing.T) {
	args := flag.Args()
	if len(args) < 2 || args[0] != peerMark {
		t.Skip("the engine of the host tests, run by them")
	}
	os.Exit(peer(args[1], args[2:]))
}

func randomPlayer(seed uint64) darkchess.Player {
	r := rand.New(rand.NewPCG(seed, 1))
	return darkchess.PlayerFunc(func(_ context.Context, v darkchess.View) (darkchess.Move, error) {
		moves := v.AppendLegalMoves(nil)
		if len(moves) == 0 {
			return darkchess.NoMove, errors.New("no legal move")
		}
		return moves[r.IntN(len(moves))], nil
	})
}

// peer runs the engine of the given mode on stdin and stdout.
func peer(mode string, args []string) int {
	ctx := context.Background()
	switch mode {
	case "replay":
		return replayPeer(args[0], args[1] == "die")
	case "noisy":
		os.Stderr.WriteString("noisy: starting\n")
		out := &noisyWriter{w: os.Stdout}
		if err := mgtp.Serve(ctx, os.Stdin, out, randomPlayer(uint64(os.Getpid()))); err != nil {
			return 1
		}
		return 0
	case "ignorequit":
		in := &quitFilter{sc: bufio.NewScanner(os.Stdin)}
		mgtp.Serve(ctx, in, os.Stdout, randomPlayer(uint64(os.Getpid())))
		time.Sleep(time.Hour)
		return 0
	case "exit":
		return 0
	case "record":
		// A random engine that writes every line it hears to args[0].
		f, err := os.Create(args[0])
		if err != nil {
			return 2
		}
		defer f.Close()
		if err := mgtp.Serve(ctx, io.TeeReader(os.Stdin, f), os.Stdout, randomPlayer(uint64(os.Getpid()))); err != nil {
			return 1
		}
		return 0
	}
	sc := bufio.NewScanner(os.Stdin)
	for sc.Scan() {
		c, err := mgtp.ParseCommand(sc.Text())
		if err != nil {
			continue
		}
		reply := fmt.Sprintf("=%d", c.ID)
		switch {
		case mode == "silent":
			continue
		case c.ID == mgtp.CmdQuit:
			fmt.Println(reply)
			return 0
		case c.ID == mgtp.CmdGenmove:
			switch mode {
			case "stall":
				continue
			case "crash":
				return 3
			case "garbage":
				reply = "=12 hello"
			case "refuse":
				reply = "?12 no idea"
			case "resign":
				reply = "=12 a0 a0"
			case "illegal":
				reply = "=12 a1 a2"
			case "noecho":
				reply = "=12 a1 a1"
			case "closeout":
				os.Stdout.Close()
				time.Sleep(time.Hour)
			}
		case c.ID == mgtp.CmdMove || c.ID == mgtp.CmdFlip:
			if mode == "noecho" {
				continue
			}
		}
		fmt.Println(reply)
	}
	return 0
}

// noisyWriter prints noise before every reply: debug lines, a board, a
// reply with another id, and once a line over MaxLine.
type noisyWriter struct {
	w    io.Writer
	long bool
}

func (n *noisyWriter) Write(p []byte) (int, error) {
	noise := "# call flip(): noise\nget= 7\n  a b c d\n8 X X X X\n=99 stray\n?3\n"
	if !n.long {
		n.long = true
		noise += strings.Repeat("#", mgtp.MaxLine+100) + "\n"
	}
	if _, err := io.WriteString(n.w, noise); err != nil {
		return 0, err
	}
	fmt.Fprintln(os.Stderr, "noisy: replying", strings.TrimSpace(string(p)))
	return n.w.Write(p)
}

// quitFilter passes its lines on, except quit, and never ends.
type quitFilter struct {
	sc  *bufio.Scanner
	buf []byte
}

func (q *quitFilter) Read(p []byte) (int, error) {
	for len(q.buf) == 0 {
		if !q.sc.Scan() {
			time.Sleep(time.Hour)
		}
		if l := q.sc.Text(); !strings.HasPrefix(l, "5 ") {
			q.buf = append(q.buf, l+"\n"...)
		}
	}
	n := copy(p, q.buf)
	q.buf = q.buf[n:]
	return n, nil
}

// replayPeer answers as the logging engine of a transcript did, with noise
// on stdout and stderr; a genmove the transcript leaves unanswered gets no
// answer (the peer stalls, or dies).
func replayPeer(path string, die bool) int {
	tr, err := parseTranscript(path)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	sc := bufio.NewScanner(os.Stdin)
	out := bufio.NewWriter(os.Stdout)
	for i := 0; sc.Scan(); i++ {
		line := sc.Text()
		if i >= len(tr.ex) || line != tr.ex[i].cmd {
			fmt.Fprintf(os.Stderr, "replay: command %d is %q, the transcript says %q\n", i, line, tr.ex[min(i, len(tr.ex)-1)].cmd)
			return 2
		}
		e := tr.ex[i]
		if e.cmd == "5 quit" {
			return 0
		}
		if !e.answered {
			if die {
				return 1
			}
			io.Copy(io.Discard, os.Stdin)
			return 0
		}
		if strings.HasPrefix(e.cmd, "12 ") {
			fmt.Fprintf(out, "# call flip(): thinking\n=99 stray\n?3\nget= 12\n")
			fmt.Fprintln(os.Stderr, "replay: genmove", i)
		}
		fmt.Fprintf(out, "=%s\n", e.reply)
		out.Flush()
	}
	return 0
}

// flipFirst plays a flip of s as its first ply, then as p.
func flipFirst(s darkchess.Square, p darkchess.Player) darkchess.Player {
	return darkchess.PlayerFunc(func(ctx context.Context, v darkchess.View) (darkchess.Move, error) {
		if len(v.History) == 0 {
			return darkchess.Flip(s), nil
		}
		return p.Play(ctx, v)
	})
}

// peerProgram returns the program of the given peer mode.
func peerProgram(t *testing.T, mode string, args ...string) mgtp.Program {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return mgtp.Program{
		Path:     exe,
		Args:     append([]string{"-test.run=^TestMGTPPeer$", "--", peerMark, mode}, args...),
		Dir:      t.TempDir(),
		QuitWait: 500 * time.Millisecond,
	}
}

// buildExample builds examples/darkchess-mgtp once.
var buildExample = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "darkchess-mgtp")
	if err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "darkchess-mgtp")
	out, err := exec.Command("go", "build", "-o", bin, "../../examples/darkchess-mgtp").CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("go build: %v\n%s", err, out)
	}
	return bin, nil
})

func examplePath(t *testing.T) string {
	t.Helper()
	bin, err := buildExample()
	if err != nil {
		t.Fatal(err)
	}
	return bin
}

// checkReaped fails t unless want engines were started and all were reaped.
func checkReaped(t *testing.T, pids *proctest.PIDLog, want int) {
	t.Helper()
	if n := len(pids.PIDs()); n != want {
		t.Errorf("%d engines started, want %d", n, want)
	}
	pids.CheckReaped(t)
}

// goldenClock is the fake time of a golden replay: each ply takes what the
// transcript's time_left says it took.
type goldenClock struct {
	mu   sync.Mutex
	now  time.Time
	tr   *transcript
	n    int // plies asked so far
	last [2]time.Duration
}

func (c *goldenClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// advance moves the fake time on by what ply n took.
func (c *goldenClock) advance(n int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if n >= len(c.tr.plies) {
		return
	}
	col := c.tr.movers[n]
	c.now = c.now.Add(c.last[col] - c.tr.lefts[n])
	c.last[col] = c.tr.lefts[n]
}

// timeOut moves the fake time past the mover's allowance.
func (c *goldenClock) timeOut(col darkchess.Color) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(c.last[col] + time.Second)
}

// goldenSeat wraps a seat so that each ply takes its recorded time; the
// opponent's seat (inner nil) plays the recorded plies.
type goldenSeat struct {
	inner protocol.DarkChessSeat
	c     *goldenClock
	stall bool // the final unanswered genmove stalls (rather than dies)
}

func (s *goldenSeat) Begin(ctx context.Context, b protocol.DarkChessBegin) error {
	if s.inner == nil {
		return nil
	}
	return s.inner.Begin(ctx, b)
}

func (s *goldenSeat) Ask(ctx context.Context, v darkchess.View) (darkchess.Move, error) {
	s.c.mu.Lock()
	n := s.c.n
	s.c.n++
	s.c.mu.Unlock()
	if s.inner == nil {
		if n >= len(s.c.tr.plies) {
			return darkchess.NoMove, errors.New("the record has no more plies")
		}
		s.c.advance(n)
		return s.c.tr.plies[n].Move, nil
	}
	if n >= len(s.c.tr.plies) && s.stall {
		// The recorded time-out: the engine gets no more time than it had.
		s.c.timeOut(v.Turn())
		short, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
		defer cancel()
		return s.inner.Ask(short, v)
	}
	m, err := s.inner.Ask(ctx, v)
	s.c.advance(n)
	return m, err
}

func (s *goldenSeat) Tell(ctx context.Context, t protocol.DarkChessTell) error {
	if s.inner == nil {
		return nil
	}
	return s.inner.Tell(ctx, t)
}

func (s *goldenSeat) End(ctx context.Context, r darkchess.Result) error {
	if s.inner == nil {
		return nil
	}
	return s.inner.End(ctx, r)
}

// TestHostGolden replays every transcript through the host: the logging
// engine is a real process answering as it answered, the opponent plays the
// recorded plies, the deal is the recorded flips, and each ply takes its
// recorded time on a fake clock. The host must send exactly what the 2021
// system sent (the .command file, byte for byte), through the engine's
// noise, and end the game as the record says.
func TestHostGolden(t *testing.T) {
	for _, tr := range transcripts(t) {
		t.Run(tr.name, func(t *testing.T) {
			t.Parallel()
			path, err := filepath.Abs(filepath.Join(mgtpDir(t), tr.name))
			if err != nil {
				t.Fatal(err)
			}
			stall := tr.finalAsked && !strings.Contains(tr.name, "v2__38")
			mode := "die"
			if stall {
				mode = "stall"
			}
			var trans, output bytes.Buffer
			var pids proctest.PIDLog
			prog := peerProgram(t, "replay", path, mode)
			prog.Transcript, prog.Output, prog.Logger = &trans, &output, slog.New(&pids)
			clock := &goldenClock{now: time.Date(2022, 1, 10, 9, 7, 16, 0, time.UTC), tr: tr,
				last: [2]time.Duration{900 * time.Second, 900 * time.Second}}
			logSeat := &goldenSeat{inner: prog.Seat(), c: clock, stall: stall}
			oppSeat := &goldenSeat{c: clock}
			seats := [2]protocol.DarkChessSeat{logSeat, oppSeat}
			if !tr.first {
				seats = [2]protocol.DarkChessSeat{oppSeat, logSeat}
			}
			ref := protocol.DarkChessReferee{FreeFirstPly: true, Now: clock.Now}
			g := darkchess.NewGameFrom(darkchess.NTU2021, tr.deal(t), nil)
			ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
			defer cancel()
			rec, err := ref.Play(ctx, g, seats)
			if err != nil {
				t.Fatal(err)
			}
			if got := trans.String(); got != string(tr.raw) {
				t.Errorf("transcript differs:\n%s", lineDiff(string(tr.raw), got))
			}
			if len(rec.Plies) != len(tr.plies) {
				t.Errorf("%d plies, the transcript has %d", len(rec.Plies), len(tr.plies))
			}
			reason, winner := tr.recordResult(t)
			want := map[string][]darkchess.Reason{
				"NoMove":        {darkchess.NoPieces, darkchess.NoLegalPly},
				"TimeOut":       {darkchess.TimeOut},
				"NoEatFlipDraw": {darkchess.NoEatFlipDraw},
			}[reason]
			if strings.HasPrefix(reason, "PositionRepetitionDraw,") {
				want = []darkchess.Reason{darkchess.PositionRepetitionDraw}
				if fmt.Sprintf("PositionRepetitionDraw,%d,%d", rec.Result.Repetitions, rec.Result.Cycle) != reason {
					t.Errorf("result %v, the record says %s", rec.Result, reason)
				}
			}
			gotWinner := -1
			if !rec.Result.Draw {
				gotWinner = 1
				if rec.Result.Winner == rec.FirstColor {
					gotWinner = 0
				}
			}
			if !containsReason(want, rec.Result.Reason) || gotWinner != winner {
				t.Errorf("result %v (winner seat %d), the record says %s (winner seat %d)", rec.Result, gotWinner, reason, winner)
			}
			if !strings.Contains(output.String(), "# call flip(): thinking") || !strings.Contains(output.String(), "replay: genmove") {
				t.Errorf("the engine's noise is not in its output log: %.200q", output.String())
			}
			if s := logSeat.inner.(*mgtp.Seat); s.EngineName() != "MyAI" || s.EngineVersion() != "1.0.0" {
				t.Errorf("engine %q %q", s.EngineName(), s.EngineVersion())
			}
			checkReaped(t, &pids, 1)
		})
	}
}

func containsReason(rs []darkchess.Reason, r darkchess.Reason) bool {
	for _, x := range rs {
		if x == r {
			return true
		}
	}
	return false
}

// lineDiff shows the first differing line of two texts.
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := range max(len(w), len(g)) {
		var a, b string
		if i < len(w) {
			a = w[i]
		}
		if i < len(g) {
			b = g[i]
		}
		if a != b {
			return fmt.Sprintf("line %d: want %q, got %q", i+1, a, b)
		}
	}
	return "(same lines)"
}

// TestHostGames plays whole games between real engine processes: the
// example against itself, and a noisy engine against a Go player.
func TestHostGames(t *testing.T) {
	t.Run("example", func(t *testing.T) {
		t.Parallel()
		bin := examplePath(t)
		var pids proctest.PIDLog
		var trans [2]bytes.Buffer
		var seats [2]protocol.DarkChessSeat
		for i := range seats {
			p := mgtp.Program{Path: bin, Dir: t.TempDir(), Transcript: &trans[i], Logger: slog.New(&pids), SendRules: true, SendGameOver: true}
			seats[i] = p.Seat()
		}
		ref := protocol.DarkChessReferee{Control: timer.Control{Main: 20 * time.Second}}
		ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
		defer cancel()
		rec, err := ref.Play(ctx, darkchess.NewGame(darkchess.NTU2021, rand.New(rand.NewPCG(5, 5))), seats)
		if err != nil {
			t.Fatal(err)
		}
		checkFinished(t, rec)
		for i := range trans {
			tr := trans[i].String()
			if !strings.HasPrefix(tr, "1 name\n>>1 botarena\n2 version\n>>2 1.0.0\n7 reset_board\n>>7\n15 time_setting 20000\n>>15\n"+
				"16 time_left red 20000\n>>16\n16 time_left black 20000\n>>16\n8 num_repetition 3\n>>8\n9 num_moves_to_draw 60\n>>9\n14 ready\n>>14\n") ||
				!strings.Contains(tr, "\n13 game_over ") || !strings.HasSuffix(tr, "\n5 quit\n") {
				t.Errorf("transcript %d:\n%s", i, tr)
			}
		}
		checkReaped(t, &pids, 2)
	})
	t.Run("noisy", func(t *testing.T) {
		t.Parallel()
		var pids proctest.PIDLog
		var output bytes.Buffer
		p := peerProgram(t, "noisy")
		p.Output, p.Logger = &output, slog.New(&pids)
		ref := protocol.DarkChessReferee{Control: timer.Control{Main: 20 * time.Second}}
		ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
		defer cancel()
		seats := [2]protocol.DarkChessSeat{protocol.NewDarkChessPlayerSeat(randomPlayer(9)), p.Seat()}
		rec, err := ref.Play(ctx, darkchess.NewGame(darkchess.NTU2021, rand.New(rand.NewPCG(6, 6))), seats)
		if err != nil {
			t.Fatal(err)
		}
		checkFinished(t, rec)
		if out := output.String(); !strings.Contains(out, "=99 stray") || !strings.Contains(out, "noisy: replying") {
			t.Errorf("output log: %.300q", out)
		}
		checkReaped(t, &pids, 1)
	})
}

func checkFinished(t *testing.T, rec protocol.DarkChessGameRecord) {
	t.Helper()
	switch rec.Result.Reason {
	case darkchess.NoPieces, darkchess.NoLegalPly, darkchess.NoEatFlipDraw, darkchess.PositionRepetitionDraw:
	default:
		t.Fatalf("game ended %v after %d plies; faults %v", rec.Result, len(rec.Plies), rec.Faults)
	}
	g := darkchess.NewGameFrom(darkchess.NTU2021, rec.Start, nil)
	for i, p := range rec.Plies {
		if err := g.PlayPly(p); err != nil {
			t.Fatalf("replay: ply %d %v: %v", i+1, p, err)
		}
	}
	if r, _ := g.Result(); r != rec.Result {
		t.Errorf("replay ends %v, the record says %v", r, rec.Result)
	}
}

// TestHostFaults: each misbehaving engine loses its game with the
// platform's reason, the host never hangs, and every child is reaped.
func TestHostFaults(t *testing.T) {
	for _, tt := range []struct {
		mode      string
		seat      int
		reason    darkchess.Reason
		kind      protocol.DarkChessFaultKind
		control   time.Duration
		handshake time.Duration
		tell      time.Duration
		minPlies  int
		tail      string // the transcript's end
	}{
		{mode: "exit", seat: 0, reason: darkchess.TimeOut, kind: protocol.DarkChessCrashed, tail: "1 name\n5 quit\n>>\n"},
		{mode: "silent", seat: 1, reason: darkchess.TimeOut, kind: protocol.DarkChessTimedOut, handshake: 300 * time.Millisecond, minPlies: 1, tail: "1 name\n5 quit\n>>\n"},
		{mode: "stall", seat: 0, reason: darkchess.TimeOut, kind: protocol.DarkChessTimedOut, control: 300 * time.Millisecond, tail: "12 genmove unknown\n5 quit\n>>\n"},
		{mode: "stall", seat: 1, reason: darkchess.TimeOut, kind: protocol.DarkChessTimedOut, control: 300 * time.Millisecond, minPlies: 1, tail: "12 genmove {c}\n5 quit\n>>\n"},
		{mode: "crash", seat: 1, reason: darkchess.TimeOut, kind: protocol.DarkChessCrashed, minPlies: 1, tail: "12 genmove {c}\n5 quit\n>>\n"},
		{mode: "closeout", seat: 1, reason: darkchess.TimeOut, kind: protocol.DarkChessDisconnected, minPlies: 1, tail: "12 genmove {c}\n5 quit\n>>\n"},
		{mode: "garbage", seat: 0, reason: darkchess.BadMove, kind: protocol.DarkChessIllegal, tail: "12 genmove unknown\n>>12 hello\n5 quit\n"},
		{mode: "refuse", seat: 1, reason: darkchess.BadMove, kind: protocol.DarkChessIllegal, minPlies: 1, tail: "12 genmove {c}\n>>?12 no idea\n5 quit\n"},
		{mode: "resign", seat: 1, reason: darkchess.Resign, kind: protocol.DarkChessResigned, minPlies: 1, tail: "12 genmove {c}\n>>12 a0 a0\n5 quit\n"},
		{mode: "illegal", seat: 0, reason: darkchess.BadMove, kind: protocol.DarkChessIllegal, tail: "12 genmove unknown\n>>12 a1 a2\n5 quit\n"},
		{mode: "noecho", seat: 0, reason: darkchess.TimeOut, kind: protocol.DarkChessTimedOut, tell: 300 * time.Millisecond, minPlies: 1, tail: "11 flip a1 {a1}\n5 quit\n>>\n"},
		{mode: "ignorequit", seat: 0, control: 20 * time.Second},
	} {
		t.Run(fmt.Sprintf("%s/seat%d", tt.mode, tt.seat), func(t *testing.T) {
			t.Parallel()
			var pids proctest.PIDLog
			var trans bytes.Buffer
			p := peerProgram(t, tt.mode)
			p.Logger, p.Transcript = slog.New(&pids), &trans
			seats := [2]protocol.DarkChessSeat{}
			seats[tt.seat] = p.Seat()
			seats[1-tt.seat] = protocol.NewDarkChessPlayerSeat(flipFirst(darkchess.A1, randomPlayer(3)))
			ref := protocol.DarkChessReferee{
				Control:          timer.Control{Main: cmp.Or(tt.control, 10*time.Second)},
				HandshakeTimeout: cmp.Or(tt.handshake, 5*time.Second),
				TellTimeout:      cmp.Or(tt.tell, 5*time.Second),
			}
			ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
			defer cancel()
			// The first player flips a1.
			g := darkchess.NewGame(darkchess.NTU2021, rand.New(rand.NewPCG(1, 2)))
			a1 := g.Position().DealAt(darkchess.A1)
			tail := strings.NewReplacer("{a1}", a1.String(), "{c}", a1.Color().Opponent().String()).Replace(tt.tail)
			start := time.Now()
			rec, err := ref.Play(ctx, g, seats)
			if err != nil {
				t.Fatal(err)
			}
			if tt.mode == "ignorequit" {
				// A healthy engine that ignores quit is killed after
				// QuitWait.
				checkFinished(t, rec)
				checkReaped(t, &pids, 1)
				return
			}
			if rec.Result.Reason != tt.reason || rec.Faults[tt.seat] == nil || rec.Faults[1-tt.seat] != nil {
				t.Fatalf("result %v after %d plies, faults %v; want the seat %d engine to lose by %v\n%s",
					rec.Result, len(rec.Plies), rec.Faults, tt.seat, tt.reason, trans.String())
			}
			var want [2]protocol.DarkChessFaultKind
			if want[tt.seat] = tt.kind; rec.FaultKinds != want {
				t.Errorf("fault kinds %v, want %v (%v)", rec.FaultKinds, want, rec.Faults[tt.seat])
			}
			loser := rec.FirstColor
			if tt.seat == 1 {
				loser = loser.Opponent()
			}
			if rec.Result.Draw || rec.Result.Winner != loser.Opponent() {
				t.Errorf("winner %v, want the opponent of %v", rec.Result.Winner, loser)
			}
			if len(rec.Plies) < tt.minPlies {
				t.Errorf("%d plies, want at least %d", len(rec.Plies), tt.minPlies)
			}
			if !strings.HasSuffix(trans.String(), tail) {
				t.Errorf("transcript ends %q, want %q", trans.String()[max(0, trans.Len()-80):], tail)
			}
			if d := time.Since(start); d > 8*time.Second {
				t.Errorf("the game took %v", d)
			}
			checkReaped(t, &pids, 1)
		})
	}
}

// TestHostResume: a game resumed after some plies is recreated for the
// engine with move and flip commands after reset_board, and a setup
// without history with init_board.
func TestHostResume(t *testing.T) {
	g := darkchess.NewGame(darkchess.NTU2021, rand.New(rand.NewPCG(3, 3)))
	for _, m := range []darkchess.Move{darkchess.Flip(darkchess.A1), darkchess.Flip(darkchess.B2)} {
		if err := g.Play(m); err != nil {
			t.Fatal(err)
		}
	}
	var trans bytes.Buffer
	p := mgtp.Program{Path: examplePath(t), Transcript: &trans, QuitWait: time.Second}
	ref := protocol.DarkChessReferee{Control: timer.Control{Main: 20 * time.Second}}
	rec, err := ref.Play(t.Context(), g, [2]protocol.DarkChessSeat{p.Seat(), protocol.NewDarkChessPlayerSeat(randomPlayer(4))})
	if err != nil {
		t.Fatal(err)
	}
	checkFinished(t, rec)
	plies := g.Plies()
	want := fmt.Sprintf("7 reset_board\n>>7\n11 flip a1 %v\n>>11\n11 flip b2 %v\n>>11\n15 time_setting 20000\n>>15\n16 time_left red 20000\n>>16\n16 time_left black 20000\n>>16\n14 ready\n",
		plies[0].Piece, plies[1].Piece)
	if !strings.Contains(trans.String(), want) {
		t.Errorf("transcript:\n%.600s\nwant it to hold\n%s", trans.String(), want)
	}

	pos, err := darkchess.ParsePosition("P-P-/-K-g/-R--/-mp-/r-c-/c-PP/gk--/---- b 00000000000000 0")
	if err != nil {
		t.Fatal(err)
	}
	trans.Reset()
	g = darkchess.NewGameFrom(darkchess.NTU2021, pos, nil)
	rec, err = ref.Play(t.Context(), g, [2]protocol.DarkChessSeat{p.Seat(), protocol.NewDarkChessPlayerSeat(randomPlayer(4))})
	if err != nil {
		t.Fatal(err)
	}
	checkFinished(t, rec)
	if want := "7 reset_board\n>>7\n" + mgtp.InitBoardCommand(pos.View(darkchess.Black)).String() + "\n>>18\n15 time_setting"; !strings.Contains(trans.String(), want) {
		t.Errorf("transcript:\n%.600s\nwant it to hold\n%s", trans.String(), want)
	}
}

// TestHostClocks: an engine hears both clocks before its first genmove
// when the control is not the 2021 system's 900 s (a 2021-template engine
// otherwise plans a 900 s game), and exactly the 2021 handshake under it.
// The engine is a real program that writes down every line it hears.
func TestHostClocks(t *testing.T) {
	for _, tt := range []struct {
		control string
		seat    int
		heard   string // what the engine hears before its first genmove
	}{
		{"900s", 0, "1 name\n2 version\n7 reset_board\n15 time_setting 900000\n14 ready\n"},
		{"70s", 0, "1 name\n2 version\n7 reset_board\n15 time_setting 70000\n16 time_left red 70000\n16 time_left black 70000\n14 ready\n"},
		{"70s", 1, "1 name\n2 version\n7 reset_board\n15 time_setting 70000\n16 time_left red 70000\n16 time_left black 70000\n14 ready\n" +
			"11 flip a1 {a1}\n16 time_left {c1} 70000\n"},
		{"900s+2s", 0, "1 name\n2 version\n7 reset_board\n15 time_setting 900000\n16 time_left red 900000\n16 time_left black 900000\n14 ready\n"},
		{"10s/move", 0, "1 name\n2 version\n7 reset_board\n15 time_setting 10000\n16 time_left red 10000\n16 time_left black 10000\n14 ready\n"},
	} {
		t.Run(fmt.Sprintf("%s/seat%d", tt.control, tt.seat), func(t *testing.T) {
			t.Parallel()
			control, err := timer.Parse(tt.control)
			if err != nil {
				t.Fatal(err)
			}
			var pids proctest.PIDLog
			heard := filepath.Join(t.TempDir(), "heard.txt")
			p := peerProgram(t, "record", heard)
			p.Logger = slog.New(&pids)
			seats := [2]protocol.DarkChessSeat{}
			seats[tt.seat] = p.Seat()
			// The opponent flips a1 first, and its ply is free (as in 2021).
			seats[1-tt.seat] = protocol.NewDarkChessPlayerSeat(flipFirst(darkchess.A1, randomPlayer(5)))
			ref := protocol.DarkChessReferee{Control: control, FreeFirstPly: true}
			ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
			defer cancel()
			g := darkchess.NewGame(darkchess.NTU2021, rand.New(rand.NewPCG(8, 8)))
			a1 := g.Position().DealAt(darkchess.A1)
			rec, err := ref.Play(ctx, g, seats)
			if err != nil {
				t.Fatal(err)
			}
			checkFinished(t, rec)
			checkReaped(t, &pids, 1)
			data, err := os.ReadFile(heard)
			if err != nil {
				t.Fatal(err)
			}
			got, _, ok := strings.Cut(string(data), "12 genmove ")
			if !ok {
				t.Fatalf("the engine heard no genmove:\n%s", data)
			}
			want := strings.NewReplacer("{a1}", a1.String(), "{c1}", a1.Color().String()).Replace(tt.heard)
			if got != want {
				t.Errorf("before its first genmove the engine heard\n%s\nwant\n%s", got, want)
			}
		})
	}
}

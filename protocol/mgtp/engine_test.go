package mgtp_test

import (
	"bufio"
	"context"
	"errors"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/botarena/botarena/darkchess"
	"github.com/botarena/botarena/protocol/mgtp"
	"github.com/botarena/botarena/timer"
)

// engineConn runs Engine.Serve in the test's process over pipes.
type engineConn struct {
	t    *testing.T
	in   *io.PipeWriter
	out  *bufio.Reader
	done chan error
}

func startEngine(t *testing.T, e *mgtp.Engine, p darkchess.Player) *engineConn {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	c := &engineConn{t: t, in: inW, out: bufio.NewReader(outR), done: make(chan error, 1)}
	go func() {
		err := e.Serve(t.Context(), inR, outW, p)
		outW.Close()
		inR.Close()
		c.done <- err
	}()
	t.Cleanup(func() { inW.Close(); outR.Close() })
	return c
}

func (c *engineConn) send(line string) {
	c.t.Helper()
	if _, err := io.WriteString(c.in, line+"\n"); err != nil {
		c.t.Fatalf("send %q: %v", line, err)
	}
}

func (c *engineConn) recv() string {
	c.t.Helper()
	type res struct {
		s   string
		err error
	}
	ch := make(chan res, 1)
	go func() {
		s, err := c.out.ReadString('\n')
		ch <- res{s, err}
	}()
	select {
	case r := <-ch:
		if r.err != nil {
			c.t.Fatalf("recv: %v (got %q)", r.err, r.s)
		}
		return strings.TrimSuffix(r.s, "\n")
	case <-time.After(10 * time.Second):
		c.t.Fatal("recv: no reply in 10 s")
	}
	return ""
}

func (c *engineConn) ask(line, want string) {
	c.t.Helper()
	c.send(line)
	if got := c.recv(); got != want {
		c.t.Errorf("%q: got %q, want %q", line, got, want)
	}
}

func (c *engineConn) wait() error {
	c.t.Helper()
	select {
	case err := <-c.done:
		return err
	case <-time.After(10 * time.Second):
		c.t.Fatal("Serve did not return")
	}
	return nil
}

// scriptPlayer answers genmove with the moves of a transcript, records the
// views, and blocks (until its context ends) when the script has no answer.
type scriptPlayer struct {
	mu    sync.Mutex
	moves []darkchess.Move
	views []darkchess.View
}

func (p *scriptPlayer) Play(ctx context.Context, v darkchess.View) (darkchess.Move, error) {
	p.mu.Lock()
	p.views = append(p.views, v)
	n := len(p.views)
	p.mu.Unlock()
	if n > len(p.moves) {
		<-ctx.Done()
		return darkchess.NoMove, ctx.Err()
	}
	if _, ok := ctx.Deadline(); !ok {
		return darkchess.NoMove, errors.New("no deadline")
	}
	return p.moves[n-1], nil
}

// TestEngineGolden feeds every transcript's commands to Serve and checks
// that it answers what the logging engine answered (its genmove answers
// come from a scripted player), and that the player sees the game as the
// commands tell it.
func TestEngineGolden(t *testing.T) {
	for _, tr := range transcripts(t) {
		t.Run(tr.name, func(t *testing.T) {
			t.Parallel()
			p := &scriptPlayer{}
			for _, e := range tr.ex {
				if strings.HasPrefix(e.cmd, "12 ") && e.answered {
					m, err := (mgtp.Reply{ID: mgtp.CmdGenmove, OK: true, Payload: strings.TrimPrefix(e.reply, "12 ")}).Move()
					if err != nil {
						t.Fatal(err)
					}
					p.moves = append(p.moves, m)
				}
			}
			eng := startEngine(t, &mgtp.Engine{Name: "MyAI", Version: "1.0.0"}, p)
			type want struct {
				turn    darkchess.Color
				plies   int
				left    time.Duration
				history []darkchess.Ply
			}
			var wants []want
			left := [2]time.Duration{}
			plies := 0
			for _, e := range tr.ex {
				c, _ := mgtp.ParseCommand(e.cmd)
				switch c.ID {
				case mgtp.CmdGenmove:
					col, _ := c.Color()
					w := want{turn: col, plies: plies, history: tr.plies[:plies]}
					if col.Valid() {
						w.left = left[col]
					}
					wants = append(wants, w)
				case mgtp.CmdMove, mgtp.CmdFlip:
					plies++
				case mgtp.CmdTimeSetting:
					d, _ := c.Millis()
					left = [2]time.Duration{d, d}
				case mgtp.CmdTimeLeft:
					col, d, _ := c.TimeLeft()
					left[col] = d
				}
				if c.ID == mgtp.CmdQuit {
					eng.send(e.cmd)
					if tr.finalAsked {
						// The unanswered genmove is cancelled by quit and
						// answered first.
						if got := eng.recv(); !strings.HasPrefix(got, "?12") {
							t.Errorf("the cancelled genmove was answered %q", got)
						}
					}
					if got := eng.recv(); got != "=5" {
						t.Errorf("quit answered %q", got)
					}
					break
				}
				if !e.answered {
					eng.send(e.cmd)
					continue
				}
				eng.ask(e.cmd, "="+e.reply)
			}
			if err := eng.wait(); err != nil {
				t.Errorf("Serve: %v", err)
			}
			if len(p.views) != len(wants) {
				t.Fatalf("player asked %d times, want %d", len(p.views), len(wants))
			}
			for i, v := range p.views {
				w := wants[i]
				var gotLeft time.Duration
				if w.turn.Valid() {
					gotLeft = v.TimeLeft[w.turn]
				}
				if v.Turn() != w.turn || len(v.History) != w.plies || gotLeft != w.left || v.Rules != darkchess.NTU2021 {
					t.Errorf("genmove %d: turn %v, %d plies, left %v, rules %v; want %v, %d, %v",
						i, v.Turn(), len(v.History), gotLeft, v.Rules, w.turn, w.plies, w.left)
				}
				if w.turn.Valid() && v.Viewer() != w.turn {
					t.Errorf("genmove %d: viewer %v", i, v.Viewer())
				}
				for j, ply := range w.history {
					if v.History[j] != ply {
						t.Errorf("genmove %d: history[%d] = %v, want %v", i, j, v.History[j], ply)
						break
					}
				}
			}
		})
	}
}

// TestEngineCommands covers the commands the 2021 host never sends, and
// refusals.
func TestEngineCommands(t *testing.T) {
	p := &scriptPlayer{moves: []darkchess.Move{darkchess.Flip(darkchess.B8), darkchess.NewMove(darkchess.A1, darkchess.A2)}}
	eng := startEngine(t, &mgtp.Engine{}, p)
	for _, tt := range [][2]string{
		{"0 protocol_version", "=0 1.1.0"},
		{"1 name", "=1 botarena"},
		{"2 version", "=2 1.0.0"},
		{"3 known_command genmove", "=3 true"},
		{"3 known_command time_setting", "=3 true"},
		{"3 known_command time_settings", "=3 true"},
		{"3 known_command fly", "=3 false"},
		{"6 boardsize 4 8", "=6"},
		{"8 num_repetition 4", "=8"},
		{"9 num_moves_to_draw 180", "=9"},
		{"8 num_repetition x", "?8 mgtp: no integer argument at offset 18 of \"8 num_repetition x\""},
		{"99 fly", "?99 unknown command"},
		{"14 ready", "=14"},
		{"17 showboard", "=17"},
		{"13 game_over red", "=13"},
	} {
		eng.ask(tt[0], tt[1])
	}
	eng.send("4 list_commands")
	if got := eng.recv(); got != "=4 protocol_version" {
		t.Errorf("list_commands starts %q", got)
	}
	for range 18 {
		eng.recv()
	}
	eng.send("not a command")
	eng.ask("10 move a1 a2", "?10 darkchess: a1-a2 for unknown: the first ply must be a flip")
	eng.ask("11 flip a1 Q", "?11 mgtp: not a piece letter at offset 11 of \"11 flip a1 Q\"")
	eng.ask("16 time_left green 5", "?16 mgtp: not red or black at offset 13 of \"16 time_left green 5\"")
	eng.ask("15 time_setting x", "?15 mgtp: not a number of milliseconds at offset 16 of \"15 time_setting x\"")
	eng.ask("15 time_settings 200", "=15")
	eng.ask("12 genmove unknown", "=12 b8 b8")
	eng.ask("11 flip b8 K", "=11")
	// An illegal answer of the player is refused.
	eng.ask("12 genmove black", "?12 illegal move a1-a2")
	// init_board: the endgame, with black to move.
	pos, _ := darkchess.ParsePosition("P-P-/-K-g/-R--/-mp-/r-c-/c-PP/gk--/---- b 00000000000000 0")
	eng.ask(mgtp.InitBoardCommand(pos.View(darkchess.Black)).String(), "=18")
	eng.ask("18 init_board X", "?18 mgtp: want 32 squares and 14 counts at offset 15 of \"18 init_board X\"")
	eng.send("12 genmove black")
	if got := eng.recv(); !strings.HasPrefix(got, "?12") {
		t.Errorf("genmove with the script exhausted: %q", got)
	}
	eng.ask("7 reset_board", "=7")
	eng.ask("5 quit", "=5")
	if err := eng.wait(); err != nil {
		t.Errorf("Serve: %v", err)
	}
	if len(p.views) != 3 {
		t.Fatalf("%d views", len(p.views))
	}
	if v := p.views[1]; v.Turn() != darkchess.Black || v.Rules.RepetitionCycles != 4 || v.Rules.NoProgressPlies != 180 || v.TimeLeft[darkchess.Black] != 200*time.Millisecond {
		t.Errorf("view of the second genmove: %v, rules %+v, left %v", v, v.Rules, v.TimeLeft)
	}
	if v := p.views[2]; v.String() != pos.String() {
		t.Errorf("view after init_board: %v, want %v", v, pos)
	}
}

// TestEngineEnd: the end of input and a cancelled context end Serve, and
// a player that ignores quit does not keep it.
func TestEngineEnd(t *testing.T) {
	eng := startEngine(t, &mgtp.Engine{}, &scriptPlayer{})
	eng.ask("1 name", "=1 botarena")
	eng.in.Close()
	if err := eng.wait(); err != nil {
		t.Errorf("Serve at the end of input: %v", err)
	}

	ctx, cancel := context.WithCancel(t.Context())
	inR, inW := io.Pipe()
	defer inW.Close()
	done := make(chan error, 1)
	go func() { done <- mgtp.Serve(ctx, inR, io.Discard, &scriptPlayer{}) }()
	io.WriteString(inW, "12 genmove unknown\n")
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("Serve after cancel: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Serve did not return after cancel")
	}
	if err := mgtp.Serve(t.Context(), strings.NewReader(""), io.Discard, nil); err == nil {
		t.Error("Serve accepted a nil player")
	}
	if err := (&mgtp.Engine{Margin: -1}).Serve(t.Context(), strings.NewReader(""), io.Discard, &scriptPlayer{}); err == nil {
		t.Error("Serve accepted a negative margin")
	}
	// A long line is cut, not fatal.
	eng = startEngine(t, &mgtp.Engine{}, &scriptPlayer{})
	eng.send("1 name " + strings.Repeat("x", mgtp.MaxLine+10))
	if got := eng.recv(); got != "=1 botarena" {
		t.Errorf("long line answered %q", got)
	}
	eng.ask("5 quit", "=5")
	eng.wait()
}

// FuzzServe feeds any text to the engine side as the host's commands:
// Serve answers or ignores every line, never panics, and returns at the
// end of its input.
func FuzzServe(f *testing.F) {
	f.Add("1 name\n7 reset_board\n12 genmove unknown\n11 flip a1 k\n16 time_left black 5\n12 genmove red\n5 quit\n")
	f.Add("18 init_board " + strings.Repeat("X ", 31) + "K 1 2 2 2 2 2 1 5 2 2 2 2 2 1\n12 genmove black\n10 move a8 a7\n")
	f.Add("15 time_settings 1\n8 num_repetition 0\n9 num_moves_to_draw -5\n12 genmove\n3 known_command\n17 showboard\n")
	f.Fuzz(func(t *testing.T, input string) {
		first := darkchess.PlayerFunc(func(_ context.Context, v darkchess.View) (darkchess.Move, error) {
			moves := v.AppendLegalMoves(nil)
			if len(moves) == 0 {
				return darkchess.NoMove, errors.New("no move")
			}
			return moves[len(moves)-1], nil
		})
		var out strings.Builder
		e := mgtp.Engine{Margin: time.Millisecond}
		if err := e.Serve(context.Background(), strings.NewReader(input), &out, first); err != nil {
			t.Fatalf("Serve: %v", err)
		}
		if strings.Contains(out.String(), "=4 ") {
			return // list_commands: a payload of several lines
		}
		for l := range strings.Lines(out.String()) {
			if _, err := mgtp.ParseReply(l); err != nil {
				t.Fatalf("Serve wrote %q", l)
			}
		}
	})
}

// statusPlayer records the timer.Status on the ctx of each genmove (and
// the ctx's deadline) and plays the first legal move.
type statusPlayer struct {
	mu   sync.Mutex
	seen []statusSeen
}

type statusSeen struct {
	st       timer.Status
	ok       bool
	deadline time.Time
	now      time.Time
}

func (p *statusPlayer) Play(ctx context.Context, v darkchess.View) (darkchess.Move, error) {
	st, ok := timer.StatusFrom(ctx)
	d, _ := ctx.Deadline()
	p.mu.Lock()
	p.seen = append(p.seen, statusSeen{st, ok, d, time.Now()})
	p.mu.Unlock()
	return v.AppendLegalMoves(nil)[0], nil
}

// TestEngineStatus: the player's ctx carries a timer.Status with the
// control of time_setting, told, both colours' time_left, the plies the
// player gave, Start when genmove arrived and the ctx's deadline; with no
// time_setting, nothing told and no deadline.
func TestEngineStatus(t *testing.T) {
	p := &statusPlayer{}
	eng := startEngine(t, &mgtp.Engine{}, p)
	before := time.Now()
	genmove := func(line string) {
		t.Helper()
		eng.send(line)
		if got := eng.recv(); !strings.HasPrefix(got, "=12 ") {
			t.Errorf("%q: got %q", line, got)
		}
	}
	genmove("12 genmove unknown")
	eng.ask("7 reset_board", "=7")
	eng.ask("15 time_setting 900000", "=15")
	genmove("12 genmove unknown")
	eng.ask("11 flip b8 K", "=11")
	eng.ask("16 time_left red 890000", "=16")
	eng.ask("16 time_left black 880000", "=16")
	genmove("12 genmove black")
	eng.ask("5 quit", "=5")
	if err := eng.wait(); err != nil {
		t.Fatalf("Serve: %v", err)
	}
	if len(p.seen) != 3 {
		t.Fatalf("%d genmoves seen, want 3", len(p.seen))
	}
	for i, want := range []struct {
		control   timer.Control
		told      bool
		own, opp  time.Duration
		played    int
		hasExpiry bool
	}{
		{timer.Control{}, false, 0, 0, 0, false},
		{timer.Control{Main: 900 * time.Second}, true, 900 * time.Second, 900 * time.Second, 0, true},
		{timer.Control{Main: 900 * time.Second}, true, 880 * time.Second, 890 * time.Second, 1, true},
	} {
		c := p.seen[i]
		st := c.st
		switch {
		case !c.ok:
			t.Errorf("genmove %d: no Status on the ctx", i)
		case st.Control != want.control || st.ControlTold != want.told:
			t.Errorf("genmove %d: Control %v told %v, want %v told %v", i, st.Control, st.ControlTold, want.control, want.told)
		case st.Own.Told != want.told || st.Opponent.Told != want.told || st.Own.Main != want.own || st.Opponent.Main != want.opp:
			t.Errorf("genmove %d: clocks %+v %+v, want told %v, %v and %v", i, st.Own, st.Opponent, want.told, want.own, want.opp)
		case st.Played != want.played:
			t.Errorf("genmove %d: Played %d, want %d", i, st.Played, want.played)
		case st.Start.Before(before) || st.Start.After(c.now):
			t.Errorf("genmove %d: Start %v not between %v and the call's %v", i, st.Start, before, c.now)
		case !st.Deadline.Equal(c.deadline) || st.Deadline.IsZero() == want.hasExpiry:
			t.Errorf("genmove %d: Deadline %v, ctx's %v", i, st.Deadline, c.deadline)
		}
		before = st.Start
	}
}

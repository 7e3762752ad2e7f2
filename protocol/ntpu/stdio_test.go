package ntpu_test

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/botarena/botarena/geister"
	"github.com/botarena/botarena/protocol/gat"
	"github.com/botarena/botarena/protocol/ntpu"
	"github.com/botarena/botarena/timer"
)

// ntpuFirstMover is a geister.Player that sets BCDE and plays its first
// legal move, recording the views it was shown.
type ntpuFirstMover struct {
	views []geister.View
}

func (p *ntpuFirstMover) Setup(context.Context) (geister.Reds, error) {
	return geister.ParseReds("BCDE")
}

func (p *ntpuFirstMover) Play(_ context.Context, v geister.View) (geister.Move, error) {
	p.views = append(p.views, v)
	return v.AppendLegalMoves(nil)[0], nil
}

const (
	ntpuStartBoard  = "14B24R34R44R15R25B35B45B41u31u21u11u40u30u20u10u"
	ntpuSecondBoard = "14B24R34R44R15R25B35B45B41u31u21u11u40u30u20u00u" // random-game-1, the second player's first MOV?
)

func serveSTDIO(t *testing.T, p geister.Player, in string) (string, error) {
	t.Helper()
	var out bytes.Buffer
	err := ntpu.ServeSTDIO(t.Context(), strings.NewReader(in), &out, p)
	return out.String(), err
}

func TestSTDIOExchange(t *testing.T) {
	p := &ntpuFirstMover{}
	in := "SET?\nOK \nMOV?" + ntpuStartBoard + "\nOK \n" +
		"MOV?14B24R34R44R15R25B35B45B41u31u21u11u40u30u20u00u\n" +
		"NG \nNG \nNG \nLST:" + ntpuStartBoard + "\n/exit\nMOV?" + ntpuStartBoard + "\n"
	out, err := serveSTDIO(t, p, in)
	if err != nil {
		t.Fatal(err)
	}
	want := "SET:BCDE\n\nMOV:A,NORTH\n\nMOV:A,NORTH\nMOV:A,NORTH\nMOV:A,NORTH\n\n\n"
	if out != want {
		t.Errorf("output %q, want %q", out, want)
	}
	if len(p.views) != 4 {
		t.Fatalf("%d views", len(p.views))
	}
	if v := p.views[0]; v.Viewer() != geister.First || v.Ply() != 0 || v.String() != ntpuStartBoard {
		t.Errorf("first view %v, %d, %s", v.Viewer(), v.Ply(), v)
	}
	if v := p.views[1]; v.Viewer() != geister.First || v.Ply() != 2 || p.views[2] != v || p.views[3] != v {
		t.Errorf("later views %v", p.views)
	}
}

func TestSTDIOSecondPlayer(t *testing.T) {
	p := &ntpuFirstMover{}
	// CRLF, blank lines (no answer), an unknown line and a long one (an
	// empty answer each), and no /exit: the end of input after the result.
	in := "SET?\r\n\r\n\nOK \r\nMOV?" + ntpuSecondBoard + "\r\nOK\r\nhello\r\n" + strings.Repeat("x", 5000) + "\r\n" +
		"MOV?" + ntpuSecondBoard + "\r\nOKB\r\nWON:" + ntpuSecondBoard + "\r\n"
	out, err := serveSTDIO(t, p, in)
	if err != nil {
		t.Fatal(err)
	}
	if want := "SET:BCDE\n\nMOV:A,NORTH\n\n\n\nMOV:A,NORTH\n\n\n"; out != want {
		t.Errorf("output %q, want %q", out, want)
	}
	if len(p.views) != 2 || p.views[0].Viewer() != geister.Second || p.views[0].Ply() != 1 || p.views[1].Ply() != 3 {
		t.Errorf("views %v", p.views)
	}
	if !p.views[0].IsLegal(geister.NewMove(geister.A, geister.North)) || p.views[0].Turn() != geister.Second {
		t.Errorf("the second player's view: turn %v", p.views[0].Turn())
	}
}

func TestSTDIOErrors(t *testing.T) {
	good := &ntpuFirstMover{}
	if _, err := serveSTDIO(t, good, "SET?\nMOV?"+ntpuStartBoard+"\n"); !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("end of input before the result: %v", err)
	}
	fail := errors.New("no idea")
	setupErr := geister.PlayerFunc(func(context.Context, geister.View) (geister.Move, error) { return geister.NoMove, fail })
	out, err := serveSTDIO(t, setupErr, "MOV?"+ntpuStartBoard+"\n")
	var pe *gat.PlayerError
	if !errors.As(err, &pe) || !errors.Is(err, fail) || pe.Setup || out != "" {
		t.Errorf("Play error: %q, %v", out, err)
	}
	illegal := geister.PlayerFunc(func(context.Context, geister.View) (geister.Move, error) {
		return geister.NewMove(geister.A, geister.South), nil // onto its own E
	})
	if out, err := serveSTDIO(t, illegal, "MOV?"+ntpuStartBoard+"\n"); !errors.As(err, &pe) || pe.Move != geister.NewMove(geister.A, geister.South) || out != "" {
		t.Errorf("illegal move: %q, %v", out, err)
	}
	if out, err := serveSTDIO(t, badReds{}, "SET?\n"); !errors.As(err, &pe) || !pe.Setup || out != "" {
		t.Errorf("bad reds: %q, %v", out, err)
	}
	if err := ntpu.ServeSTDIO(t.Context(), strings.NewReader(""), io.Discard, nil); err == nil {
		t.Error("nil player")
	}
	if err := ntpu.ServeSTDIO(t.Context(), nil, io.Discard, good); err == nil {
		t.Error("nil input")
	}
	s := ntpu.STDIO{MoveTime: -1}
	if err := s.Serve(t.Context(), strings.NewReader(""), io.Discard, good); err == nil {
		t.Error("negative MoveTime")
	}
	if err := ntpu.ServeSTDIO(t.Context(), strings.NewReader("SET?\n"), ntpuFailWriter{}, good); err == nil {
		t.Error("failed write")
	}
}

type badReds struct{}

func (badReds) Setup(context.Context) (geister.Reds, error) { return geister.RedsOf(geister.A), nil }
func (badReds) Play(context.Context, geister.View) (geister.Move, error) {
	return geister.NoMove, nil
}

type ntpuFailWriter struct{}

func (ntpuFailWriter) Write([]byte) (int, error) { return 0, errors.New("broken") }

// TestGeisterSTDIOFlush checks that every answer leaves a buffered writer
// at once: the host reads it while Serve waits for the next line.
func TestSTDIOFlush(t *testing.T) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- ntpu.ServeSTDIO(t.Context(), inR, bufio.NewWriter(outW), &ntpuFirstMover{})
		outW.Close()
	}()
	lines := bufio.NewReader(outR)
	for _, step := range []struct{ send, want string }{
		{"SET?\n", "SET:BCDE\n"},
		{"MOV?" + ntpuStartBoard + "\n", "MOV:A,NORTH\n"},
		{"LST:" + ntpuStartBoard + "\n", "\n"},
	} {
		io.WriteString(inW, step.send)
		got, err := lines.ReadString('\n')
		if err != nil || got != step.want {
			t.Fatalf("after %q: %q, %v", step.send, got, err)
		}
	}
	io.WriteString(inW, "/exit\n")
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if rest, _ := io.ReadAll(lines); len(rest) != 0 {
		t.Errorf("output after /exit: %q", rest)
	}
}

// TestGeisterSTDIOContext checks that Serve returns when ctx ends, both
// while it waits for a line and while the player thinks.
func TestSTDIOContext(t *testing.T) {
	inR, inW := io.Pipe()
	defer inW.Close()
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { done <- ntpu.ServeSTDIO(ctx, inR, io.Discard, &ntpuFirstMover{}) }()
	io.WriteString(inW, "SET?\n") // Serve is reading when this returns
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled while reading: %v", err)
	}

	slow := geister.PlayerFunc(func(ctx context.Context, _ geister.View) (geister.Move, error) {
		<-ctx.Done()
		return geister.NoMove, ctx.Err()
	})
	s := ntpu.STDIO{MoveTime: 10 * time.Millisecond}
	err := s.Serve(t.Context(), strings.NewReader("MOV?"+ntpuStartBoard+"\n"), io.Discard, slow)
	var pe *gat.PlayerError
	if !errors.As(err, &pe) || !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("MoveTime: %v", err)
	}
}

func FuzzSTDIO(f *testing.F) {
	for _, s := range []string{
		"SET?\nOK \nMOV?" + ntpuStartBoard + "\nOK \nNG \nLST:" + ntpuStartBoard + "\n/exit\n",
		"MOV:" + ntpuSecondBoard + "\r\nOKR\r\nDRW:" + ntpuSecondBoard + "\r\n",
		"MOV?99r99r99r99r99b99b99b45B99r35u99r99r50u30u11u00u\n",
		"\n\n\r\nSET?SET?\n/exit",
		"",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		rng := rand.New(rand.NewPCG(uint64(len(in)), 1))
		random := geister.PlayerFunc(func(_ context.Context, v geister.View) (geister.Move, error) {
			ms := v.AppendLegalMoves(nil)
			if len(ms) == 0 {
				return geister.NoMove, fmt.Errorf("no move in %s", v)
			}
			return ms[rng.IntN(len(ms))], nil
		})
		var out bytes.Buffer
		ntpu.ServeSTDIO(t.Context(), strings.NewReader(in), &out, random)
		inLines := 0
		for l := range strings.Lines(in) {
			if strings.TrimSpace(l) != "" {
				inLines++
			}
		}
		outLines := strings.Split(out.String(), "\n")
		if out.Len() > 0 && !strings.HasSuffix(out.String(), "\n") {
			t.Fatalf("output %q does not end in a line end", out.String())
		}
		outLines = outLines[:len(outLines)-1]
		if len(outLines) > inLines {
			t.Fatalf("%d output lines for %d input lines", len(outLines), inLines)
		}
		for _, l := range outLines {
			if l == "" {
				continue
			}
			if _, err := gat.ParseCommand(l); err != nil {
				t.Fatalf("output line %q: %v", l, err)
			}
		}
	})
}

// ntpuStatusRecorder is a geister.Player that records the timer.Status
// on the ctx of each call (and the ctx's deadline) and plays its first
// legal move.
type ntpuStatusRecorder struct {
	seen []ntpuSeen
}

type ntpuSeen struct {
	st       timer.Status
	ok       bool
	deadline time.Time
	now      time.Time
}

func (p *ntpuStatusRecorder) record(ctx context.Context) {
	st, ok := timer.StatusFrom(ctx)
	d, _ := ctx.Deadline()
	p.seen = append(p.seen, ntpuSeen{st, ok, d, time.Now()})
}

func (p *ntpuStatusRecorder) Setup(ctx context.Context) (geister.Reds, error) {
	p.record(ctx)
	return geister.ParseReds("BCDE")
}

func (p *ntpuStatusRecorder) Play(ctx context.Context, v geister.View) (geister.Move, error) {
	p.record(ctx)
	return v.AppendLegalMoves(nil)[0], nil
}

// TestSTDIOStatus: the player's ctx carries a timer.Status: the
// launcher's default control, not told, no clocks, our side and plies
// played, Start when the request was read, and the ctx's deadline
// (MoveTime after Start, or none).
func TestSTDIOStatus(t *testing.T) {
	def, err := timer.NTPU(timer.NTPUAbsolute, 900*time.Second, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, moveTime := range []time.Duration{time.Hour, 0} {
		t.Run(moveTime.String(), func(t *testing.T) {
			p := &ntpuStatusRecorder{}
			s := ntpu.STDIO{MoveTime: moveTime}
			in := "SET?\nOK \nMOV?" + ntpuStartBoard + "\nOK \nMOV?" + ntpuStartBoard + "\n/exit\n"
			before := time.Now()
			if err := s.Serve(t.Context(), strings.NewReader(in), io.Discard, p); err != nil {
				t.Fatal(err)
			}
			if len(p.seen) != 3 {
				t.Fatalf("%d calls, want 3", len(p.seen))
			}
			for i, c := range p.seen {
				st := c.st
				played := max(i-1, 0)
				switch {
				case !c.ok:
					t.Errorf("call %d: no Status on the ctx", i)
				case st.Control != def || st.ControlTold:
					t.Errorf("call %d: Control %v told %v, want %v untold", i, st.Control, st.ControlTold, def)
				case st.Own.Told || st.Opponent.Told:
					t.Errorf("call %d: clocks told: %+v %+v", i, st.Own, st.Opponent)
				case st.Side != timer.First || st.Played != played:
					t.Errorf("call %d: Side %v Played %d, want first, %d", i, st.Side, st.Played, played)
				case st.Start.Before(before) || st.Start.After(c.now):
					t.Errorf("call %d: Start %v not between %v and the call's %v", i, st.Start, before, c.now)
				case !st.Deadline.Equal(c.deadline):
					t.Errorf("call %d: Deadline %v, ctx's %v", i, st.Deadline, c.deadline)
				case moveTime > 0 && !st.Deadline.Equal(st.Start.Add(moveTime)):
					t.Errorf("call %d: Deadline %v after Start, want %v", i, st.Deadline.Sub(st.Start), moveTime)
				}
				before = st.Start
			}
		})
	}
}

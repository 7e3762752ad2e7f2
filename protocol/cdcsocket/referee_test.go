package cdcsocket_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/botarena/botarena/darkchess"
	"github.com/botarena/botarena/internal/proc"
	"github.com/botarena/botarena/internal/proctest"
	"github.com/botarena/botarena/protocol"
	"github.com/botarena/botarena/protocol/mgtp"
	"github.com/botarena/botarena/record"
	"github.com/botarena/botarena/timer"
)

// fakeSeat is an in-process seat whose calls can fail on purpose.
type fakeSeat struct {
	player   darkchess.Player
	beginErr error
	tellErr  error // returned by every Tell
	ownErr   error // returned by the Tell of the engine's own ply
	askErr   error // returned by every Ask
	mu       sync.Mutex
	tells    []protocol.DarkChessTell
	begins   []protocol.DarkChessBegin
	ended    bool
	result   darkchess.Result
}

func (s *fakeSeat) Begin(_ context.Context, b protocol.DarkChessBegin) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.begins = append(s.begins, b)
	return s.beginErr
}

func (s *fakeSeat) Ask(ctx context.Context, v darkchess.View) (darkchess.Move, error) {
	if s.askErr != nil {
		return darkchess.NoMove, s.askErr
	}
	return s.player.Play(ctx, v)
}

func (s *fakeSeat) Tell(_ context.Context, t protocol.DarkChessTell) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.tells = append(s.tells, t)
	if s.ownErr != nil && t.Mover == t.Color {
		return s.ownErr
	}
	return s.tellErr
}

func (s *fakeSeat) End(_ context.Context, r darkchess.Result) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ended, s.result = true, r
	return nil
}

// fakeNow is a clock that moves only when told.
type fakeNow struct {
	mu  sync.Mutex
	now time.Time
}

func (f *fakeNow) Now() time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.now
}

func (f *fakeNow) add(d time.Duration) {
	f.mu.Lock()
	f.now = f.now.Add(d)
	f.mu.Unlock()
}

func newGame(seed uint64) *darkchess.Game {
	return darkchess.NewGame(darkchess.NTU2021, rand.New(rand.NewPCG(seed, seed)))
}

func TestRefereeGame(t *testing.T) {
	clock := &fakeNow{now: time.Unix(1e9, 0)}
	slow := func(p darkchess.Player) darkchess.Player {
		return darkchess.PlayerFunc(func(ctx context.Context, v darkchess.View) (darkchess.Move, error) {
			clock.add(10 * time.Millisecond)
			return p.Play(ctx, v)
		})
	}
	a := &fakeSeat{player: slow(randomPlayer(1))}
	b := &fakeSeat{player: slow(randomPlayer(2))}
	ref := protocol.DarkChessReferee{FreeFirstPly: true, Now: clock.Now}
	rec, err := ref.Play(t.Context(), newGame(1), [2]protocol.DarkChessSeat{a, b})
	if err != nil {
		t.Fatal(err)
	}
	if !a.ended || !b.ended || a.result != rec.Result || b.result != rec.Result {
		t.Error("the seats were not ended with the result")
	}
	if len(a.begins) != 1 || !a.begins[0].First || b.begins[0].First || a.begins[0].Left != 900*time.Second ||
		a.begins[0].Color != darkchess.NoColor || a.begins[0].Control != protocol.DarkChessDefaultControl {
		t.Errorf("begins: %+v %+v", a.begins, b.begins)
	}
	if len(a.tells) != len(rec.Plies) || len(b.tells) != len(rec.Plies) {
		t.Fatalf("%d and %d tells for %d plies", len(a.tells), len(b.tells), len(rec.Plies))
	}
	// The first ply is free; every other costs its mover 10 ms.
	spent := [2]time.Duration{}
	for i, tl := range a.tells {
		if tl.Ply != rec.Plies[i] || tl.Color != rec.FirstColor || b.tells[i].Color != rec.FirstColor.Opponent() {
			t.Fatalf("tell %d: %+v", i, tl)
		}
		if i > 0 {
			spent[tl.Mover] += 10 * time.Millisecond
		}
		if tl.TimeLeft[tl.Mover] != 900*time.Second-spent[tl.Mover] {
			t.Fatalf("tell %d: %v left for the mover, want %v", i, tl.TimeLeft[tl.Mover], 900*time.Second-spent[tl.Mover])
		}
		if tl.Over != (i == len(a.tells)-1) {
			t.Errorf("tell %d: Over %v", i, tl.Over)
		}
	}
	if !rec.Times[1].After(rec.Times[0]) || rec.Began != time.Unix(1e9, 0) {
		t.Errorf("times: began %v, %v", rec.Began, rec.Times[:2])
	}
	replayDC(t, darkchess.NTU2021, rec)
}

// TestRefereeClockFrom: a referee given ClockFrom goes on from those
// clocks (a game played again from an earlier ply after a take-back): the
// seats begin with the time left there, each ply charges on from it, and a
// side already out of time loses at its first ply.
func TestRefereeClockFrom(t *testing.T) {
	clock := &fakeNow{now: time.Unix(1e9, 0)}
	control := timer.Control{Main: 60 * time.Second}
	// A game's first 30 seconds: the first player spent 20 s, the
	// second 10 s.
	before := timer.NewClock(control, clock.Now)
	for i, d := range []time.Duration{20 * time.Second, 10 * time.Second} {
		if err := before.Start(timer.Side(i)); err != nil {
			t.Fatal(err)
		}
		clock.add(d)
		if _, err := before.Stop(); err != nil {
			t.Fatal(err)
		}
	}
	from := before.Snapshot().Players
	slow := func(p darkchess.Player) darkchess.Player {
		return darkchess.PlayerFunc(func(ctx context.Context, v darkchess.View) (darkchess.Move, error) {
			clock.add(time.Second)
			return p.Play(ctx, v)
		})
	}
	a := &fakeSeat{player: slow(randomPlayer(3))}
	b := &fakeSeat{player: slow(randomPlayer(4))}
	ref := protocol.DarkChessReferee{Control: control, ClockFrom: &from, Now: clock.Now}
	g := newGame(3)
	rec, err := ref.Play(t.Context(), g, [2]protocol.DarkChessSeat{a, b})
	if err != nil {
		t.Fatal(err)
	}
	if a.begins[0].Left != 40*time.Second || b.begins[0].Left != 50*time.Second {
		t.Errorf("the seats began with %v and %v left, want 40s and 50s", a.begins[0].Left, b.begins[0].Left)
	}
	// Each ply costs a second: the first player's 40 seconds last 40
	// plies, and it runs out at its 41st; the second player's would last
	// 50.
	if rec.Result.Reason != darkchess.TimeOut || rec.Result.Winner != rec.FirstColor.Opponent() || len(rec.Plies) != 2*40 {
		t.Errorf("result %v after %d plies, want the first player's TimeOut after 80", rec.Result, len(rec.Plies))
	}
	if used := rec.Clock.Players[1].Used; used != 10*time.Second+40*time.Second {
		t.Errorf("the second player used %v, want 50s", used)
	}

	// A side out of time at the start loses at once.
	out := from
	out[0].Out, out[0].Left, out[0].Main = true, 0, 0
	ref.ClockFrom = &out
	a, b = &fakeSeat{player: randomPlayer(5)}, &fakeSeat{player: randomPlayer(6)}
	rec, err = ref.Play(t.Context(), newGame(4), [2]protocol.DarkChessSeat{a, b})
	if err != nil {
		t.Fatal(err)
	}
	if rec.Result.Reason != darkchess.TimeOut || len(rec.Plies) != 0 || rec.FaultKinds[0] != protocol.DarkChessTimedOut {
		t.Errorf("out of time at the start: %v after %d plies, faults %v", rec.Result, len(rec.Plies), rec.FaultKinds)
	}
}

// TestDarkChessRefereeFaults: each way a seat fails costs its engine the
// game with the right reason.
func TestRefereeFaults(t *testing.T) {
	failing := func(err error) darkchess.Player {
		return darkchess.PlayerFunc(func(context.Context, darkchess.View) (darkchess.Move, error) { return darkchess.NoMove, err })
	}
	ignoring := darkchess.PlayerFunc(func(ctx context.Context, v darkchess.View) (darkchess.Move, error) {
		time.Sleep(200 * time.Millisecond) // ignores its deadline
		return v.AppendLegalMoves(nil)[0], nil
	})
	for _, tt := range []struct {
		name   string
		seat   int
		bad    protocol.DarkChessSeat
		reason darkchess.Reason
		kind   protocol.DarkChessFaultKind
		plies  int
	}{
		{"player error", 0, protocol.NewDarkChessPlayerSeat(failing(errors.New("no idea"))), darkchess.BadMove, protocol.DarkChessIllegal, 0},
		{"player panic", 1, protocol.NewDarkChessPlayerSeat(darkchess.PlayerFunc(func(context.Context, darkchess.View) (darkchess.Move, error) {
			panic("boom")
		})), darkchess.BadMove, protocol.DarkChessCrashed, 1},
		{"illegal", 1, protocol.NewDarkChessPlayerSeat(darkchess.PlayerFunc(func(context.Context, darkchess.View) (darkchess.Move, error) {
			return darkchess.NewMove(darkchess.A1, darkchess.A2), nil
		})), darkchess.BadMove, protocol.DarkChessIllegal, 1},
		{"late", 0, protocol.NewDarkChessPlayerSeat(ignoring), darkchess.TimeOut, protocol.DarkChessTimedOut, 0},
		{"resign", 1, &fakeSeat{askErr: &protocol.DarkChessFault{Reason: darkchess.Resign, Err: errors.New("a0 a0")}}, darkchess.Resign, protocol.DarkChessResigned, 1},
		{"dead", 1, &fakeSeat{askErr: errors.New("broken pipe")}, darkchess.TimeOut, protocol.DarkChessCrashed, 1},
		{"not started", 0, &fakeSeat{beginErr: fmt.Errorf("%w: ./engine", proc.ErrStart)}, darkchess.TimeOut, protocol.DarkChessNotStarted, 0},
		{"handshake first", 0, &fakeSeat{beginErr: errors.New("no")}, darkchess.TimeOut, protocol.DarkChessCrashed, 0},
		{"handshake second", 1, &fakeSeat{beginErr: context.DeadlineExceeded, player: randomPlayer(1)}, darkchess.TimeOut, protocol.DarkChessTimedOut, 1},
		{"tell", 1, &fakeSeat{tellErr: errors.New("no echo"), player: randomPlayer(1)}, darkchess.TimeOut, protocol.DarkChessCrashed, 1},
		// A fault on the report of its own ply: the ply stays played,
		// and the engine loses not being the one to move.
		{"own ply first", 0, &fakeSeat{ownErr: &protocol.DarkChessFault{Reason: darkchess.TimeOut, Kind: protocol.DarkChessDisconnected, Err: io.EOF}, player: randomPlayer(1)}, darkchess.TimeOut, protocol.DarkChessDisconnected, 1},
		{"own ply second", 1, &fakeSeat{ownErr: &protocol.DarkChessFault{Reason: darkchess.BadMove, Err: errors.New("garbage")}, player: randomPlayer(1)}, darkchess.BadMove, protocol.DarkChessIllegal, 2},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			seats := [2]protocol.DarkChessSeat{}
			seats[tt.seat] = tt.bad
			seats[1-tt.seat] = protocol.NewDarkChessPlayerSeat(randomPlayer(7))
			ref := protocol.DarkChessReferee{Control: timer.Control{Main: 50 * time.Millisecond}}
			if tt.name == "tell" {
				ref.Control = timer.Control{}
			}
			rec, err := ref.Play(t.Context(), newGame(2), seats)
			if err != nil {
				t.Fatal(err)
			}
			if rec.Result.Reason != tt.reason || rec.Faults[tt.seat] == nil || rec.Faults[1-tt.seat] != nil || len(rec.Plies) != tt.plies {
				t.Fatalf("result %v after %d plies, faults %v; want seat %d to lose by %v after %d",
					rec.Result, len(rec.Plies), rec.Faults, tt.seat, tt.reason, tt.plies)
			}
			loser := rec.FirstColor
			if tt.seat == 1 {
				loser = loser.Opponent()
			}
			if rec.Result.Winner != loser.Opponent() {
				t.Errorf("winner %v", rec.Result.Winner)
			}
			var want [2]protocol.DarkChessFaultKind
			if want[tt.seat] = tt.kind; rec.FaultKinds != want {
				t.Errorf("fault kinds %v, want %v (%v)", rec.FaultKinds, want, rec.Faults[tt.seat])
			}
			roundTripDC(t, darkchess.NTU2021, rec)
		})
	}
}

// roundTripDC writes rec as board.txt, reads it back and checks that it
// replays to rec's result.
func roundTripDC(t *testing.T, rules darkchess.Rules, rec protocol.DarkChessGameRecord) {
	t.Helper()
	g := darkchess.NewGameFrom(rules, rec.Start, nil)
	for i, p := range rec.Plies {
		if err := g.PlayPly(p); err != nil {
			t.Fatalf("ply %d %v: %v", i+1, p, err)
		}
	}
	if res, over := g.Result(); !over {
		loser := rec.Result.Winner.Opponent()
		if rec.Result.Winner == darkchess.NoColor {
			loser = darkchess.NoColor
		}
		if err := g.Forfeit(loser, rec.Result.Reason); err != nil {
			t.Fatalf("forfeit %v: %v", rec.Result, err)
		}
	} else if res != rec.Result {
		t.Fatalf("the plies end %v, the record says %v", res, rec.Result)
	}
	var buf bytes.Buffer
	if err := record.WriteDarkChessBoard(&buf, record.NewDarkChessBoard(g, "first", "second"), record.DarkChessServer2021); err != nil {
		t.Fatal(err)
	}
	b, err := record.ReadDarkChessBoard(&buf)
	if err != nil {
		t.Fatal(err)
	}
	back, err := b.Game(rules, nil)
	if err != nil {
		t.Fatalf("the record does not replay: %v", err)
	}
	if res, _ := back.Result(); res != rec.Result {
		t.Errorf("the record replays to %v, the referee said %v", res, rec.Result)
	}
}

func TestRefereeMisuse(t *testing.T) {
	var ref protocol.DarkChessReferee
	seat := protocol.NewDarkChessPlayerSeat(randomPlayer(1))
	if _, err := ref.Play(t.Context(), newGame(1), [2]protocol.DarkChessSeat{seat, nil}); err == nil {
		t.Error("Play with one seat")
	}
	if _, err := ref.Play(t.Context(), nil, [2]protocol.DarkChessSeat{seat, seat}); err == nil {
		t.Error("Play without a game")
	}
	g := newGame(1)
	g.Forfeit(darkchess.NoColor, darkchess.Resign)
	if _, err := ref.Play(t.Context(), g, [2]protocol.DarkChessSeat{seat, seat}); !errors.Is(err, darkchess.ErrGameOver) {
		t.Errorf("Play of a finished game: %v", err)
	}
	bad := protocol.DarkChessReferee{Control: timer.Control{Main: -1}}
	if _, err := bad.Play(t.Context(), newGame(1), [2]protocol.DarkChessSeat{seat, seat}); err == nil {
		t.Error("Play with an invalid control")
	}
	// A cancelled game ends both seats and is unfinished.
	ctx, cancel := context.WithCancel(t.Context())
	a := &fakeSeat{player: darkchess.PlayerFunc(func(ctx context.Context, v darkchess.View) (darkchess.Move, error) {
		if len(v.History) == 4 {
			cancel()
		}
		return randomPlayer(1).Play(ctx, v)
	})}
	b := &fakeSeat{player: randomPlayer(2)}
	rec, err := ref.Play(ctx, newGame(3), [2]protocol.DarkChessSeat{a, b})
	if !errors.Is(err, context.Canceled) || rec.Result.Reason != darkchess.Unfinished || !a.ended || !b.ended {
		t.Errorf("cancelled game: %v, %v, ended %v %v", err, rec.Result, a.ended, b.ended)
	}
}

// TestDarkChessCrossProtocol: a legacy socket engine meets an MGTP engine,
// both real programs.
func TestCrossProtocol(t *testing.T) {
	t.Parallel()
	bin := filepath.Join(t.TempDir(), "darkchess-mgtp")
	if out, err := exec.Command("go", "build", "-o", bin, "../../examples/darkchess-mgtp").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	var log proctest.PIDLog
	legacy := dcEngine(t, "random", &log)
	m := mgtp.Program{Path: bin}
	ref := protocol.DarkChessReferee{Control: timer.Control{Main: 20 * time.Second}}
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	rec, err := ref.Play(ctx, newGame(4), [2]protocol.DarkChessSeat{m.Seat(), legacy.Seat()})
	if err != nil {
		t.Fatal(err)
	}
	switch rec.Result.Reason {
	case darkchess.NoPieces, darkchess.NoLegalPly, darkchess.NoEatFlipDraw, darkchess.PositionRepetitionDraw:
	default:
		t.Fatalf("game ended %v after %d plies; faults %v", rec.Result, len(rec.Plies), rec.Faults)
	}
	replayDC(t, darkchess.NTU2021, rec)
	log.CheckReaped(t)
}

// TestDarkChessRefereeOnPly: OnPly reports every ply in order, by seat,
// with the position after it and the result on the last one.
func TestRefereeOnPly(t *testing.T) {
	var events []protocol.DarkChessPlyEvent
	ref := protocol.DarkChessReferee{OnPly: func(e protocol.DarkChessPlyEvent) { events = append(events, e) }}
	g := newGame(3)
	seats := [2]protocol.DarkChessSeat{protocol.NewDarkChessPlayerSeat(randomPlayer(5)), protocol.NewDarkChessPlayerSeat(randomPlayer(6))}
	rec, err := ref.Play(t.Context(), g, seats)
	if err != nil {
		t.Fatal(err)
	}
	if len(events) != len(rec.Plies) {
		t.Fatalf("%d events for %d plies", len(events), len(rec.Plies))
	}
	for i, e := range events {
		want, _ := g.PositionAt(i + 1)
		if e.N != i+1 || e.Ply != rec.Plies[i] || e.Seat != i%2 || e.Position != want {
			t.Fatalf("event %d: %+v", i, e)
		}
		if wantMover := rec.FirstColor; (i%2 == 0) != (e.Mover == wantMover) {
			t.Fatalf("event %d: mover %v, first colour %v", i, e.Mover, wantMover)
		}
		if last := i == len(events)-1; (e.Result.Reason != darkchess.Unfinished) != last {
			t.Fatalf("event %d: result %v", i, e.Result)
		}
		if e.Clock.Players[0].Left <= 0 {
			t.Fatalf("event %d: clock %+v", i, e.Clock)
		}
	}
	if events[len(events)-1].Result != rec.Result {
		t.Errorf("last event's result %v, record's %v", events[len(events)-1].Result, rec.Result)
	}
}

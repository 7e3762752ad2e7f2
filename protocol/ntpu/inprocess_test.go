package ntpu_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/botarena/botarena/geister"
	"github.com/botarena/botarena/protocol/gat"
	"github.com/botarena/botarena/protocol/ntpu"
	"github.com/botarena/botarena/record"
	"github.com/botarena/botarena/timer"
)

// randomPlayer plays a random legal move, from a seeded source.
func randomPlayer(seed uint64) geister.Player {
	rng := rand.New(rand.NewPCG(seed, 1))
	return geister.PlayerFunc(func(_ context.Context, v geister.View) (geister.Move, error) {
		moves := v.AppendLegalMoves(nil)
		return moves[rng.IntN(len(moves))], nil
	})
}

// resignAt plays random moves and resigns on its ply-th call of Play.
type resignAt struct {
	p     geister.Player
	ply   int
	calls int
}

func (r *resignAt) Setup(ctx context.Context) (geister.Reds, error) {
	if r.ply == 0 {
		return 0, fmt.Errorf("no setup: %w", ntpu.ErrResign)
	}
	return geister.ParseReds("ABCD")
}

func (r *resignAt) Play(ctx context.Context, v geister.View) (geister.Move, error) {
	r.calls++
	if r.calls == r.ply {
		return geister.NoMove, ntpu.ErrResign
	}
	return r.p.Play(ctx, v)
}

// TestHostInProcess: two in-process players play a whole game through the
// host, as programs would: the game ends by the rules, the record replays
// to the result and names the players.
func TestHostInProcess(t *testing.T) {
	for seed := range uint64(4) {
		h := &ntpu.Host{Time: mustControl(t, "60s"), ExitGrace: 5 * time.Second}
		var plies int
		h.OnPly = func(gat.PlyEvent) { plies++ }
		g, err := h.Play(context.Background(), ntpu.Program{Name: "alice", Player: randomPlayer(seed)}, ntpu.Program{Player: randomPlayer(seed + 100)})
		if err != nil {
			t.Fatalf("seed %d: Play: %v", seed, err)
		}
		if g.Result.Reason == geister.Unfinished || g.Result.Reason > geister.GamePlyLimitDraw {
			t.Fatalf("seed %d: result %v, want one by the rules; players %+v", seed, g.Result, g.Players)
		}
		if g.Record.First != "alice" || g.Record.Second != "second" {
			t.Errorf("seed %d: record names %q vs %q, want alice vs second", seed, g.Record.First, g.Record.Second)
		}
		if plies != len(g.Record.Moves)+1 {
			t.Errorf("seed %d: %d ply events for %d moves", seed, plies, len(g.Record.Moves))
		}
		data, err := record.AppendGeisterBoard(nil, g.Record)
		if err != nil {
			t.Fatal(err)
		}
		rb, err := record.ReadGeisterBoard(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		rg, err := rb.Game(geister.NTPU)
		if err != nil {
			t.Fatalf("seed %d: the record does not replay: %v\n%s", seed, err, data)
		}
		if r, _ := rg.Result(); r != g.Result {
			t.Errorf("seed %d: the record replays to %v, the game was %v", seed, r, g.Result)
		}
		for c, p := range g.Players {
			if p.Fault != "" {
				t.Errorf("seed %d: %s player fault %q", seed, geister.Color(c), p.Fault)
			}
		}
	}
}

// TestHostInProcessResign: an in-process player that returns ErrResign
// loses by Resign, in play or at the setup; the record says so; a player
// that fails otherwise loses as a program that exits does.
func TestHostInProcessResign(t *testing.T) {
	for _, tc := range []struct {
		name  string
		ply   int
		side  geister.Color
		plies int
	}{
		{"first at its third move", 3, geister.First, 4},
		{"second at its first move", 1, geister.Second, 1},
		{"first at the setup", 0, geister.First, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			progs := [2]ntpu.Program{{Player: randomPlayer(1)}, {Player: randomPlayer(2)}}
			progs[tc.side].Player = &resignAt{p: randomPlayer(3), ply: tc.ply}
			h := &ntpu.Host{Time: mustControl(t, "60s"), ExitGrace: 5 * time.Second}
			g, err := h.Play(context.Background(), progs[0], progs[1])
			if err != nil {
				t.Fatal(err)
			}
			want := geister.Result{Reason: geister.Resign, Winner: tc.side.Opponent()}
			if g.Result != want {
				t.Fatalf("result %v, want %v; players %+v", g.Result, want, g.Players)
			}
			if len(g.Record.Moves) != tc.plies {
				t.Errorf("%d plies recorded, want %d", len(g.Record.Moves), tc.plies)
			}
			data, err := record.AppendGeisterBoard(nil, g.Record)
			if err != nil {
				t.Fatal(err)
			}
			if want := fmt.Sprintf("* Resign %s wins", tc.side.Opponent()); !bytes.Contains(data, []byte(want)) {
				t.Errorf("record without %q:\n%s", want, data)
			}
		})
	}
	t.Run("a failing player", func(t *testing.T) {
		fail := geister.PlayerFunc(func(context.Context, geister.View) (geister.Move, error) {
			return geister.NoMove, errors.New("broken")
		})
		h := &ntpu.Host{Time: mustControl(t, "60s"), ExitGrace: 5 * time.Second}
		g, err := h.Play(context.Background(), ntpu.Program{Player: fail}, ntpu.Program{Player: randomPlayer(1)})
		if err != nil {
			t.Fatal(err)
		}
		if want := (geister.Result{Reason: geister.Disconnect, Winner: geister.Second}); g.Result != want {
			t.Errorf("result %v, want %v", g.Result, want)
		}
		if g.Players[0].Fault == "" {
			t.Error("no fault for the failing player")
		}
	})
}

// TestHostClocks: a game given the players' clocks goes on with them: a
// player with one second left of the control's minute runs out after it,
// and the other's clock is as it was given.
func TestHostClocks(t *testing.T) {
	ctl := mustControl(t, "60s")
	clocks := timer.NewClock(ctl, nil).Snapshot().Players
	clocks[0].Main, clocks[0].Left, clocks[0].Used = time.Second, time.Second, 59*time.Second
	clocks[1].Main, clocks[1].Left, clocks[1].Used = 30*time.Second, 30*time.Second, 30*time.Second
	silent := geister.PlayerFunc(func(ctx context.Context, _ geister.View) (geister.Move, error) {
		<-ctx.Done()
		return geister.NoMove, ctx.Err()
	})
	var first gat.PlyEvent
	h := &ntpu.Host{Time: ctl, Clocks: &clocks, ExitGrace: 5 * time.Second, OnPly: func(e gat.PlyEvent) {
		if e.Move == geister.NoMove {
			first = e
		}
	}}
	began := time.Now()
	g, err := h.Play(context.Background(), ntpu.Program{Player: silent}, ntpu.Program{Player: randomPlayer(1)})
	if err != nil {
		t.Fatal(err)
	}
	if want := (geister.Result{Reason: geister.TimeOut, Winner: geister.Second}); g.Result != want {
		t.Fatalf("result %v, want %v", g.Result, want)
	}
	if d := time.Since(began); d > 30*time.Second {
		t.Errorf("the first player ran out after %v: its clock was not the one given (1s left)", d)
	}
	if p := first.Clock.Players; p[0].Main != time.Second || p[1].Main != 30*time.Second || p[1].Used != 30*time.Second {
		t.Errorf("the clocks as play began: %+v, want the ones given", p)
	}
	if p := g.Clock.Players; !p[0].Out || p[1].Main != 30*time.Second {
		t.Errorf("Game.Clock at the end: %+v, want the first out of time and the second's 30s untouched", p)
	}
	if _, err := (&ntpu.Host{Clocks: &clocks}).Play(context.Background(), ntpu.Program{Player: silent}, ntpu.Program{Player: silent}); err == nil {
		t.Error("Clocks without a control: no error")
	}
}

// mustControl parses a time control.
func mustControl(t *testing.T, s string) timer.Control {
	t.Helper()
	c, err := timer.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

//go:build linux && (amd64 || arm64)

package ntpu_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/botarena/botarena/geister"
	"github.com/botarena/botarena/protocol/gat"
	"github.com/botarena/botarena/protocol/ntpu"
	"github.com/botarena/botarena/timer"
)

// TestGeisterNTPUHostOnPly: OnPly reports the start of play, then every
// move in order, each position following from the one before by its move,
// with the clock, and the last with the game's result; a program that
// cannot be started is a *ntpu.StartError naming its side.
func TestHostOnPly(t *testing.T) {
	t.Parallel() // it waits on programs more than it computes: overlap its build and games with the other hosts' tests
	progs := buildNTPUPrograms(t)
	random := ntpu.Program{Name: "random", Path: progs.random}

	t.Run("plies", func(t *testing.T) {
		t.Parallel()
		h := ntpuTestHost(2 * time.Second)
		var got []gat.PlyEvent // Play's goroutine calls OnPly; read after Play
		h.OnPly = func(e gat.PlyEvent) { got = append(got, e) }
		g := play(t, h, random, random)
		if len(got) != len(g.Record.Moves)+1 {
			t.Fatalf("%d events for %d moves", len(got), len(g.Record.Moves))
		}
		if e := got[0]; e.Move != geister.NoMove || e.N != 0 || e.Mover != geister.First || e.Position.Ply() != 0 || e.Players != [2]string{"random", "random"} {
			t.Errorf("start event %+v", e)
		}
		for i, e := range got[1:] {
			prev := got[i].Position
			if e.Move != g.Record.Moves[i] || e.N != i+1 || e.Mover != prev.Turn() {
				t.Errorf("event %d: move %v by %v at %d, want %v by %v at %d", i+1, e.Move, e.Mover, e.N, g.Record.Moves[i], prev.Turn(), i+1)
			}
			if next, err := prev.Play(e.Move); err != nil || next != e.Position {
				t.Errorf("event %d: position does not follow from the one before by %v (%v)", i+1, e.Move, err)
			}
			if e.Capture != g.Record.Captures[i] {
				t.Errorf("event %d: capture %v, record %v", i+1, e.Capture, g.Record.Captures[i])
			}
			if e.Clock.Control != h.Time || e.Clock.Players[e.Mover].Plies != (i+2-int(e.Mover))/2 {
				t.Errorf("event %d: clock %+v", i+1, e.Clock)
			}
		}
		last := got[len(got)-1]
		if last.Position != g.Final {
			t.Errorf("last event's position is not the final one")
		}
		if r := g.Result; r.Reason <= geister.GamePlyLimitDraw && last.Result != r {
			t.Errorf("last event's result %v, the game's %v", last.Result, r)
		}
		for _, e := range got[:len(got)-1] {
			if e.Result.Reason != geister.Unfinished {
				t.Errorf("event %d has a result: %v", e.N, e.Result)
			}
		}
	})

	t.Run("unlimited clock", func(t *testing.T) {
		t.Parallel()
		h := &ntpu.Host{Rules: geister.Rules{Name: "short", PlyLimit: 6}}
		n := 0
		h.OnPly = func(e gat.PlyEvent) {
			n++
			if e.Clock != (timer.Snapshot{}) {
				t.Errorf("a clock snapshot without a clock: %+v", e.Clock)
			}
		}
		g := play(t, h, random, random)
		if n != g.Final.Ply()+1 {
			t.Errorf("%d events for %d plies", n, g.Final.Ply())
		}
	})

	t.Run("missing program", func(t *testing.T) {
		t.Parallel()
		missing := filepath.Join(t.TempDir(), "no-such-bot")
		notExec := filepath.Join(t.TempDir(), "not-exec")
		if err := os.WriteFile(notExec, []byte("#!/bin/sh\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, tc := range []struct {
			first, second string
			side          geister.Color
		}{{missing, progs.random, geister.First}, {progs.random, notExec, geister.Second}} {
			h := ntpuTestHost(2 * time.Second)
			h.OnPly = func(e gat.PlyEvent) { t.Errorf("a ply without a game: %+v", e) }
			_, err := h.Play(t.Context(), ntpu.Program{Path: tc.first}, ntpu.Program{Path: tc.second})
			var se *ntpu.StartError
			if !errors.As(err, &se) || se.Side != tc.side || (se.Path != tc.first && se.Path != tc.second) {
				t.Errorf("Play(%s, %s): %v, want a StartError for the %v player", tc.first, tc.second, err, tc.side)
			}
		}
	})
}

package main

import (
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/botarena/botarena/viewer"
)

// slowStarter writes a script that sleeps for delay, then runs the built
// arena's built-in random player of game with the script's arguments (the
// host and port of a TCP mode).
func slowStarter(t *testing.T, game string, delay time.Duration) string {
	t.Helper()
	quote := func(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
	path := filepath.Join(t.TempDir(), "slow.sh")
	script := fmt.Sprintf("#!/bin/sh\nsleep %g\nexec %s bot %s random \"$@\"\n", delay.Seconds(), quote(arenaBinary(t)), game)
	if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestStartup: a program that takes 3 s to start loses before its first
// move under -startup 1s and plays under -startup 30s, where -startup bounds
// a program's connection: Geister's TCP mode and Othello (dark chess:
// TestDarkchessStartup). The slow program plays first, so that a slow
// machine cannot make the other the loser, and moves get a generous time.
//
// In Geister's STDIO mode a program's start ends when it sets its red
// ghosts, within the setup time of the control (here 4 s): -startup adds to
// it what it gives beyond its default, so that a program that takes 8 s
// loses by default and plays under -startup 30s.
func TestStartup(t *testing.T) {
	t.Parallel() // its games mostly wait: for slow starts and time limits
	if testing.Short() {
		t.Skip("builds and runs programs")
	}
	for _, tc := range []struct {
		game, proto string
		slow        *playerSpec
		time        string
		startups    []time.Duration // the first too short, the second enough
	}{
		{"geister", "stdio", gsPlayer("slow", "stdio", slowStarter(t, "geister", 8*time.Second)), "4s/move", []time.Duration{defaultStartup, 30 * time.Second}},
		{"geister", "tcp", gsPlayer("slow", "tcp", slowStarter(t, "geister", 3*time.Second)), "30s/move", []time.Duration{time.Second, 30 * time.Second}},
		{"othello", "tcp", &playerSpec{Name: "slow", Protocol: "tcp", Command: []string{slowStarter(t, "othello", 3*time.Second)}}, "30s/move", []time.Duration{time.Second, 30 * time.Second}},
	} {
		for i, startup := range tc.startups {
			t.Run(fmt.Sprintf("%s/%s/%v", tc.game, tc.proto, startup), func(t *testing.T) {
				t.Parallel()
				def, _ := findGame(tc.game)
				cfg := matchConfig{Game: def, Time: tc.time, Rules: def.Presets[0], Startup: startup, Players: []*playerSpec{tc.slow, gsPlayer("random", "")}}
				r, err := def.NewRunner(&cfg)
				if err != nil {
					t.Fatal(err)
				}
				job := &gameJob{N: 1, Seats: [2]*playerSpec{tc.slow, cfg.Players[1]}, Seed: 3, Dir: t.TempDir(), ID: "s", Watch: viewer.Discard{}, Log: discardLog()}
				res := r.Play(t.Context(), job)
				if res.Err != nil {
					t.Fatal(res.Err)
				}
				if i == 0 {
					if res.Winner != 1 || res.Plies != 0 || res.Faults[0].Kind != faultTimeout {
						t.Errorf("-startup %v: the slow starter did not lose before its first move, timed out: %+v", startup, res)
					}
					return
				}
				if res.Faults != [2]fault{} || res.Winner < -1 || res.Plies == 0 {
					t.Errorf("-startup %v: the slow starter could not play: %+v", startup, res)
				}
			})
		}
	}
}

// discardLog is a logger that drops everything.
func discardLog() *slog.Logger { return slog.New(slog.DiscardHandler) }

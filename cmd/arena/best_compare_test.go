package main

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/botarena/botarena/darkchess"
	"github.com/botarena/botarena/pdd"
	"github.com/botarena/botarena/search"
	"github.com/botarena/botarena/timer"
)

// TestDarkchessBestSameAsExpecti: under -time none, search's
// DarkChessBestPlayer at arena's depth plays every ply arena's expecti
// plays, in whole games (each side's pair keeping its own history).
func TestDarkchessBestSameAsExpecti(t *testing.T) {
	none, _ := timer.Parse("none")
	for seed := range uint64(3) {
		rules := []darkchess.Rules{darkchess.NTU2021, darkchess.ICGA, darkchess.Classic}[seed]
		g := darkchess.NewGame(rules, rand.New(rand.NewPCG(seed, 7)))
		old := [2]darkchess.Player{newDarkchessExpecti(none), newDarkchessExpecti(none)}
		neu := [2]darkchess.Player{search.DarkChessBestPlayer(search.DepthOptions{Depth: darkchessExpectiDepth}), search.DarkChessBestPlayer(search.DepthOptions{Depth: darkchessExpectiDepth})}
		for ply := 0; !g.IsOver() && ply < 150; ply++ {
			seat := ply % 2
			if g.FirstColor().Valid() && g.Turn() != g.FirstColor() {
				seat = 1
			} else if g.FirstColor().Valid() {
				seat = 0
			}
			v := g.View(g.Turn())
			want, err := old[seat].Play(context.Background(), v)
			if err != nil {
				t.Fatal(err)
			}
			got, err := neu[seat].Play(context.Background(), v)
			if err != nil {
				t.Fatal(err)
			}
			if got != want {
				t.Fatalf("seed %d ply %d (%s): best plays %s, expecti %s", seed, ply, v, got, want)
			}
			if err := g.Play(want); err != nil {
				t.Fatal(err)
			}
		}
		t.Logf("seed %d: %d plies, %v", seed, g.Ply(), g.IsOver())
	}
}

// TestPDDBestSameAsAlphabeta: under -time none, search's PDDBestPlayer at
// arena's depth plays every move arena's alphabeta plays, in whole games.
func TestPDDBestSameAsAlphabeta(t *testing.T) {
	none, _ := timer.Parse("none")
	for _, rules := range []pdd.Rules{pdd.Course, pdd.Official} {
		old, err := newPDDBot("alphabeta", 1, none)
		if err != nil {
			t.Fatal(err)
		}
		neu := search.PDDBestPlayer(search.DepthOptions{Depth: pddABDepth})
		g := pdd.NewGame(rules)
		n := 0
		for ; !g.IsOver() && n < 200; n++ {
			p := g.Position()
			if len(p.AppendLegalMoves(nil)) == 0 {
				break
			}
			want, err := old.Play(context.Background(), p)
			if err != nil {
				t.Fatal(err)
			}
			got, err := neu.Play(context.Background(), p)
			if err != nil {
				t.Fatal(err)
			}
			if got != want {
				t.Fatalf("%v move %d (%s): best plays %s, alphabeta %s", rules, n, p, got, want)
			}
			if err := g.Play(want); err != nil {
				t.Fatal(err)
			}
		}
		t.Logf("%v: %d moves, over %v", rules, n, g.IsOver())
	}
}

//go:build unix

package permove_test

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/botarena/botarena/pdd"
	"github.com/botarena/botarena/protocol/permove"
	"github.com/botarena/botarena/record"
	"github.com/google/go-cmp/cmp"
)

// A referee with a Start goes on from the position its actions reach: the
// start's lines (and its skip) open the record and stepLog.txt, the programs
// play the rest, and OnMove sees every new action, with the position after
// it and the clock, before the next program runs.
func TestRefereeStartAndOnMove(t *testing.T) {
	bots, _ := buildPDDPrograms(t)
	g := pddGameWithSkip(t)
	moves := g.Moves()
	full := record.NewPDDStepLog(g)

	// Cut the game one line after its first skip, so that the start holds
	// the skip.
	skip := slices.Index(moves, pdd.Pass)
	lines := 0
	for _, m := range moves[:skip] {
		if m != pdd.Pass {
			lines++
		}
	}
	lines++
	if lines >= len(full.Steps) {
		t.Skip("the skip is at the end of the game")
	}
	start := record.PDDStepLog{Steps: full.Steps[:lines]}

	// The programs play the rest as scripted (pddbots picks the line by the
	// count of its own lines in stepLog.txt, so the script has the start's
	// too).
	var scripts [2][]string
	for _, s := range full.Steps {
		scripts[s.Color-pdd.White] = append(scripts[s.Color-pdd.White], s.Move.String())
	}
	var events []permove.MoveEvent
	ref := &permove.Referee{
		Start:  start,
		OnMove: func(e permove.MoveEvent) { events = append(events, e) },
	}
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	dir := filepath.Join(t.TempDir(), "game")
	rec, err := ref.Play(ctx, dir,
		permove.Program{Command: append([]string{bots}, scripts[0]...)},
		permove.Program{Command: append([]string{bots}, scripts[1]...)})
	if err != nil {
		t.Fatal(err)
	}
	if rec.Violation != nil {
		t.Fatalf("violation %v", rec.Violation)
	}
	if diff := cmp.Diff(moves, rec.Game.Moves()); diff != "" {
		t.Errorf("moves (-want +got):\n%s", diff)
	}
	if want, _ := g.Result(); rec.Result != want {
		t.Errorf("result %v, want %v", rec.Result, want)
	}
	if rec.StartPlies != lines || len(rec.Skips) == 0 || rec.Skips[0].BeforeTurn != lines {
		t.Errorf("start plies %d, skips %+v; want %d start plies and a skip before turn %d", rec.StartPlies, rec.Skips, lines, lines)
	}
	for i, m := range rec.Moves[:lines] {
		if m.Step != full.Steps[i] || m.Elapsed != 0 {
			t.Errorf("start move %d: %+v, want %v", i+1, m, full.Steps[i])
		}
	}
	checkPDDGameDir(t, rec)
	if rf := rec.ResultFile(); rf.StartPlies != lines {
		t.Errorf("result.json start_plies %d, want %d", rf.StartPlies, lines)
	}

	// OnMove: one event per new line, in order.
	if len(events) != len(full.Steps)-lines {
		t.Fatalf("%d events for %d new actions", len(events), len(full.Steps)-lines)
	}
	for i, e := range events {
		ply := lines + i + 1
		if e.Ply != ply || e.Move.Step != full.Steps[ply-1] || e.Dir != rec.Dir {
			t.Errorf("event %d: ply %d, step %v, dir %s; want ply %d, step %v", i, e.Ply, e.Move.Step, e.Dir, ply, full.Steps[ply-1])
		}
		want, err := record.ReplayPDDStepLog(record.PDDStepLog{Steps: full.Steps[:ply]}, pdd.Course)
		if err != nil {
			t.Fatal(err)
		}
		if e.Position != want.Position() {
			t.Errorf("event %d: position\n%s\nwant\n%s", i, e.Position.Diagram(), want.Position().Diagram())
		}
		if e.Clock.Running || e.Clock.Control.MoveCap != 5*time.Second { // the zero Control is 5 s per move
			t.Errorf("event %d: clock %+v", i, e.Clock)
		}
	}
	if e := events[len(events)-1]; e.Clock.Players[0].Plies+e.Clock.Players[1].Plies != len(events) {
		t.Errorf("the clock counts %d+%d plies after %d moves", e.Clock.Players[0].Plies, e.Clock.Players[1].Plies, len(events))
	}
}

// A Start that does not replay is refused before anything is run.
func TestRefereeBadStart(t *testing.T) {
	bad := record.PDDStepLog{Steps: []record.PDDStep{
		{Color: pdd.White, Turn: 1, Move: pdd.Chess(0, 1)},
		{Color: pdd.Black, Turn: 2, Move: pdd.Chess(0, 2)}, // 0,0 is White's
	}}
	ref := &permove.Referee{Start: bad}
	prog := permove.Program{Command: []string{"true"}}
	rec, err := ref.Play(t.Context(), filepath.Join(t.TempDir(), "g"), prog, prog)
	if err == nil || rec != nil || !strings.Contains(err.Error(), "PDD start") {
		t.Errorf("bad start: %v, %v", rec, err)
	}
}

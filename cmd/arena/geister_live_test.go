package main

import (
	"flag"
	"fmt"
	"regexp"
	"testing"

	"github.com/botarena/botarena/geister"
	"github.com/botarena/botarena/protocol/gat"
	"github.com/botarena/botarena/timer"
	"github.com/botarena/botarena/viewer"
)

// gsBoardColour matches a ghost drawn on the board (not in the captured
// panel, where ghosts are drawn small) in its colour.
var gsBoardColour = regexp.MustCompile(`class="ghost (first|second) (red|blue)" transform="translate\(\d+ \d+\)">`)

// gsBoardColours counts the ghosts on the board of a picture whose colour
// shows.
func gsBoardColours(svg string) int { return len(gsBoardColour.FindAllString(svg, -1)) }

// gsLiveGame feeds l the ply events of a game of n plies (ghost A of each
// side stepping forward and back), as a host reports them.
func gsLiveGame(t *testing.T, l *geisterLive, n int) {
	t.Helper()
	p, err := geister.Start(geister.RedsAt(3), geister.RedsAt(40))
	if err != nil {
		t.Fatal(err)
	}
	l.begin(viewer.GameInfo{ID: "g", Game: "geister"}, timer.Control{})
	l.ply(gat.PlyEvent{Position: p, Players: [2]string{"a", "b"}})
	for i := range n {
		d := geister.North
		if i/2%2 == 1 {
			d = geister.South
		}
		m := geister.NewMove(geister.A, d)
		mover := p.Turn()
		if p, err = p.Play(m); err != nil {
			t.Fatal(err)
		}
		l.ply(gat.PlyEvent{N: i + 1, Move: m, Mover: mover, Position: p})
	}
}

// TestGeisterLiveHidesColours: the live frames of a game in progress show
// a spectator (anyone who opens the viewer) no colour of a ghost on the
// board and no player's view; the last frame, once the game is over, shows
// both; with reveal (the operator's -ws-reveal), every frame does.
func TestGeisterLiveHidesColours(t *testing.T) {
	for _, reveal := range []bool{false, true} {
		t.Run(fmt.Sprint("reveal=", reveal), func(t *testing.T) {
			w := &testWatcher{}
			l := newGeisterLive(w, "g")
			l.reveal = reveal
			gsLiveGame(t, l, 6)
			l.finish(gameResult{Winner: 0, Reason: "TimeOut"}, "")
			if len(w.frames) != 9 {
				t.Fatalf("%d frames, want 9: setup, start, 6 plies, end", len(w.frames))
			}
			for i, f := range w.frames[1 : len(w.frames)-1] {
				shown := gsBoardColours(f.Board)
				if !reveal && (shown != 0 || len(f.Views) != 0) {
					t.Errorf("frame of ply %d: %d colours shown, %d views", i, shown, len(f.Views))
				}
				if reveal && (shown != 16 || len(f.Views) != 2) {
					t.Errorf("revealed frame of ply %d: %d colours shown, %d views", i, shown, len(f.Views))
				}
			}
			last := w.frames[len(w.frames)-1]
			if gsBoardColours(last.Board) != 16 || len(last.Views) != 2 || last.ToMove != -1 || last.Ply != 6 {
				t.Errorf("the last frame: %d colours shown, %d views, to move %d, ply %d", gsBoardColours(last.Board), len(last.Views), last.ToMove, last.Ply)
			}
		})
	}
}

// TestGeisterServeLiveReveal: "arena serve geister" shows its games to the
// web viewer with the colours hidden, unless -ws-reveal.
func TestGeisterServeLiveReveal(t *testing.T) {
	for _, reveal := range []bool{false, true} {
		w := &testWatcher{}
		s := &geisterServeLive{w: w, reveal: reveal}
		p, _ := geister.Start(geister.RedsAt(0), geister.RedsAt(0))
		s.ply(gat.PlyEvent{Game: 0, Position: p, Players: [2]string{"a", "b"}})
		m := geister.NewMove(geister.A, geister.North)
		next, _ := p.Play(m)
		s.ply(gat.PlyEvent{Game: 0, N: 1, Move: m, Mover: geister.First, Position: next})
		f := w.frames[len(w.frames)-1]
		if shown := gsBoardColours(f.Board) > 0; shown != reveal {
			t.Errorf("reveal %v: colours shown %v", reveal, shown)
		}
	}
}

// TestGeisterMatchReveal: "arena match geister -reveal" shows the colours
// on the live boards while the game goes on.
func TestGeisterMatchReveal(t *testing.T) {
	def := geisterDef()
	fs := flag.NewFlagSet("match", flag.ContinueOnError)
	def.Flags(fs)
	if err := fs.Parse([]string{"-reveal"}); err != nil {
		t.Fatal(err)
	}
	a, b := gsPlayer("random", ""), gsPlayer("greedy", "")
	r, err := def.NewRunner(&matchConfig{Game: def, Players: []*playerSpec{a, b}, Time: "10s/move"})
	if err != nil {
		t.Fatal(err)
	}
	res, w := gsPlay(t, t.Context(), r, a, b, 3, nil)
	if res.Plies < 2 {
		t.Skipf("a game of %d plies", res.Plies)
	}
	// The frame after the first ply.
	if f := w.frames[2]; f.Ply != 1 || gsBoardColours(f.Board) == 0 || len(f.Views) != 2 {
		t.Errorf("ply 1 with -reveal: ply %d, %d colours shown, %d views", f.Ply, gsBoardColours(f.Board), len(f.Views))
	}
}

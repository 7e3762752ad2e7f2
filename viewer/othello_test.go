package viewer

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/botarena/botarena/internal/browsertest"
	"github.com/botarena/botarena/internal/sharedtest"
	"github.com/botarena/botarena/othello"
)

// othelloTranscripts returns the -trans transcripts of the test data (the
// files whose first line is the B:...,W:... header), with their contents.
func othelloTranscripts(t testing.TB) map[string][]byte {
	t.Helper()
	dir := sharedtest.Dir(t, "othello")
	files, err := filepath.Glob(filepath.Join(dir, "*.txt"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no Othello transcripts in %s (%v)", dir, err)
	}
	out := map[string][]byte{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if bytes.HasPrefix(b, []byte("B:")) {
			out[filepath.Base(f)] = b
		}
	}
	return out
}

// TestReplayOthelloTranscripts replays every transcript of the test data
// and checks the frames against the README's table: the plies (passes
// included) and the final counts.
func TestReplayOthelloTranscripts(t *testing.T) {
	want := map[string]struct {
		plies  int
		result string
	}{
		"release-v1.0.0-gamelog-game-1-2026-07-22.txt": {60, "V1ReleaseB1 (black) wins 33-31 (discs)"},
		"release-v1.0.0-gamelog-game-2-2026-07-22.txt": {60, "V1ReleaseB2 (black) wins 33-31 (discs)"},
		"search-017-wld-gamelog-game-1-2026-07-22.txt": {61, "WldFinal1 (black) wins 37-27 (discs)"},
		"search-017-wld-gamelog-game-2-2026-07-22.txt": {61, "WldFinal4 (black) wins 37-27 (discs)"},
		"client-001-server-game-1-2026-07-22.txt":      {61, "PonderC (black) wins 40-24 (discs)"},
		"client-001-server-game-2-2026-07-22.txt":      {61, "PonderE (black) wins 36-28 (discs)"},
	}
	files := othelloTranscripts(t)
	if len(files) != len(want) {
		t.Errorf("%d transcripts in the test data, want %d", len(files), len(want))
	}
	for name, data := range files {
		t.Run(name, func(t *testing.T) {
			rp, err := ReplayOthello(name, data)
			if err != nil {
				t.Fatal(err)
			}
			w, ok := want[name]
			if !ok {
				t.Fatalf("a transcript the test does not know")
			}
			if rp.Game != "othello" || len(rp.frames()) != w.plies+1 || rp.Result != w.result {
				t.Errorf("game %q, %d frames, result %q; want othello, %d frames, %q", rp.Game, len(rp.frames()), rp.Result, w.plies+1, w.result)
			}
			for i, f := range rp.frames() {
				if f.Ply != i {
					t.Fatalf("frame %d has ply %d", i, f.Ply)
				}
				if (i == 0) != (f.Move == "") {
					t.Fatalf("frame %d has move %q", i, f.Move)
				}
				browsertest.CheckSVG(t, f.Board)
			}
			first, last := rp.frames()[0], rp.frames()[len(rp.frames())-1]
			// The TUS start: black d4 e5, white e4 d5; the first move e3 (4,2).
			if !strings.Contains(first.Board, `class="disc black" data-square="d4"`) || !strings.Contains(first.Board, `class="disc white" data-square="e4"`) {
				t.Errorf("the start is not the TUS one:\n%s", first.Board)
			}
			if rp.frames()[1].Move != "e3" || !strings.Contains(rp.frames()[1].Board, `class="last" data-square="e3"`) {
				t.Errorf("first move %q, want e3 marked", rp.frames()[1].Move)
			}
			if last.ToMove != -1 || !strings.HasPrefix(last.Status, "game over: black wins") {
				t.Errorf("last frame: to move %d, status %q", last.ToMove, last.Status)
			}
			if n := strings.Count(last.Board, `class="disc `); n != 64 {
				t.Errorf("last board has %d discs, want 64", n)
			}
			if strings.Contains(last.Board, `class="legal"`) {
				t.Errorf("a finished board shows legal moves")
			}
		})
	}
}

// TestReplayOthelloMoveList reads the README's move lists (standard start)
// and checks that they end as their transcripts do.
func TestReplayOthelloMoveList(t *testing.T) {
	list := "d3c5f6f5e6f7c6c7b5a4g6h6f8e3d6g5b6d7c8e7a5a6f3d8e8f4g4g3h4h5h7c3e2g7h3b4c4b3c2d1c1f2d2f1b8e1g1g2b2a1a3b7h1h2g8h8a8a7b1a2\n"
	rp, err := ReplayOthello("wld.txt", []byte(list))
	if err != nil {
		t.Fatal(err)
	}
	if len(rp.frames()) != 62 || rp.Result != "black wins 37-27 (discs)" || rp.Players != [2]string{} {
		t.Errorf("%d frames, result %q, players %q; want 62, black's 37-27 and no names (a move list names nobody)", len(rp.frames()), rp.Result, rp.Players)
	}
	if !strings.Contains(rp.frames()[0].Board, `class="disc black" data-square="e4"`) {
		t.Errorf("the start is not the standard one")
	}
	passes := 0
	for _, f := range rp.frames() {
		if f.Move == "pass" {
			passes++
		}
	}
	if passes != 1 {
		t.Errorf("%d passes, want 1", passes)
	}
}

// TestReplayOthelloRefuses checks that files of other kinds are refused with
// an error saying what is accepted.
func TestReplayOthelloRefuses(t *testing.T) {
	for _, data := range []string{"", "\n\n", "hello world", "B:x,W:y\n9,9,1\n", "B:x\n", "f5f5", "MOV 1 2\n", "\x00\xff"} {
		_, err := ReplayOthello("x.txt", []byte(data))
		if err == nil {
			t.Errorf("%q read as an Othello game", data)
			continue
		}
		if !strings.Contains(err.Error(), "x.txt") {
			t.Errorf("%q: error %q does not name the file", data, err)
		}
	}
}

// TestOthelloFrame checks the picture's key elements: the board, the labels
// in the TUS orientation, the discs, the legal moves and the last move.
func TestOthelloFrame(t *testing.T) {
	p := othello.TUS.Start
	f := OthelloFrame(p, 0, othello.NoMove, "", [2]string{"9:59.9", "10:00.0"})
	browsertest.CheckSVG(t, f.Board)
	for _, want := range []string{
		`xmlns="http://www.w3.org/2000/svg"`, `viewBox="0 0 460 460"`, `fill="#2e7d32"`,
		`<text x="55" y="15">a</text>`, `<text x="405" y="15">h</text>`, `<text x="15" y="55">1</text>`, `<text x="15" y="405">8</text>`,
		`class="disc black" data-square="d4" cx="205" cy="205"`, `class="disc black" data-square="e5"`,
		`class="disc white" data-square="e4" cx="255" cy="205"`, `class="disc white" data-square="d5"`,
		`<circle data-square="e3" cx="255" cy="155" r="6"/>`,
	} {
		if !strings.Contains(f.Board, want) {
			t.Errorf("board lacks %s", want)
		}
	}
	if strings.Contains(f.Board, `class="last"`) || f.Move != "" || f.ToMove != 0 || f.Status != "black to move; black 2, white 2" || f.Clocks[1] != "10:00.0" {
		t.Errorf("start frame: %+v", f)
	}
	if n := strings.Count(f.Board, "<circle data-square="); n != 4 {
		t.Errorf("%d legal moves drawn, want 4", n)
	}
	e3, _ := othello.ParseMove("e3")
	q, err := p.Play(e3)
	if err != nil {
		t.Fatal(err)
	}
	g := OthelloFrame(q, 1, e3, "custom", [2]string{})
	if g.Move != "e3" || g.ToMove != 1 || g.Status != "custom" || !strings.Contains(g.Board, `class="last" data-square="e3"`) {
		t.Errorf("after e3: %+v", g)
	}
	if OthelloFrame(q, 1, e3, "", [2]string{}).Board != g.Board {
		t.Errorf("the picture is not deterministic")
	}
	// The 6x6 board greys its rim.
	s := OthelloFrame(othello.Board6x6.Start, 0, othello.NoMove, "", [2]string{})
	if n := strings.Count(s.Board, `fill="#6b6b6b"`); n != 28 {
		t.Errorf("6x6 board: %d squares greyed, want 28", n)
	}
}

// FuzzOthelloReplay reads any input as an Othello record: no panic, and what
// is read is consistent (a frame per ply, each a well-formed picture).
func FuzzOthelloReplay(f *testing.F) {
	for _, b := range othelloTranscripts(f) {
		f.Add(b)
	}
	for _, s := range []string{"f5d6c3d3c4", "F5 d6\nc3", "B:a,W:b\n4,2,1\n", "B:a,W:b\r\n4,2,1\r\n5,4,-1", "pa", "", "B:", "f5d6c3d3c4f4f6f3e6e7d7"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		rp, err := ReplayOthello("fuzz", data)
		if err != nil {
			return
		}
		if len(rp.frames()) < 1 {
			t.Fatalf("a replay with %d frames", len(rp.frames()))
		}
		for i, fr := range rp.frames() {
			if fr.Ply != i || fr.Board == "" {
				t.Fatalf("frame %d: ply %d", i, fr.Ply)
			}
		}
		browsertest.CheckSVG(t, rp.frames()[len(rp.frames())-1].Board)
	})
}

package main

import (
	"bytes"
	"context"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/botarena/botarena/internal/browsertest"
	"github.com/botarena/botarena/internal/longtest"
	"github.com/botarena/botarena/record"
)

// TestBrowserSaveStart saves a mid-game position from the replay page in
// a real chromium and plays from it: a dark chess record's page stepped to
// ply 12 with the arrow keys, its "Save position" link followed, the file
// it gives read as a board.txt of 12 plies, and "arena match -start" with
// that file playing a game that goes on from there. The page's output
// panel shows the programs' output of the ply shown.
func TestBrowserSaveStart(t *testing.T) {
	longtest.Skip(t, "a replay page in chromium and a game: the quick tier saves start files through viewer's and arena's own tests (TestReplayStart...)")
	b := browsertest.Start(t, 1280, 860)
	dir := t.TempDir()
	game := filepath.Join(dir, "001-greedy-vs-random")
	copyDir(t, filepath.Join("..", "..", "viewer", "testdata", "arena-records", "darkchess-20261127-132142", "001-greedy-vs-random"), game)
	ctx, cancel := context.WithCancel(context.Background())
	var out bytes.Buffer
	_, wait, err := startViewer(ctx, "127.0.0.1:0", &out, []string{dir})
	if err != nil {
		t.Fatal(err)
	}
	defer wait()
	defer cancel()
	m := regexp.MustCompile(`Viewer: (http://\S+/)`).FindStringSubmatch(out.String())
	if m == nil {
		t.Fatalf("startViewer printed %q, no URL", out.String())
	}
	b.Open(m[1] + "replay?" + url.Values{"file": {filepath.Join(game, "board.txt")}, "game": {"darkchess"}}.Encode())
	const ply = 12
	for range ply {
		b.Press(browsertest.KeyArrowRight)
	}
	var saved struct {
		Ply, Href, Name, Text string
	}
	b.Await(`const done = arguments[arguments.length - 1], t0 = performance.now();
(function check() {
  const a = document.getElementById("save-start"), ply = document.getElementById("ply").textContent;
  const href = a ? a.getAttribute("href") : "";
  if ((ply !== "12" || !/[?&]ply=12(&|$)/.test(href)) && performance.now() - t0 < 20000) { setTimeout(check, 20); return; }
  fetch(href).then(r => r.text().then(text => done({ply: ply, href: href, name: r.headers.get("Content-Disposition") || "", text: text})));
})();`, &saved)
	if saved.Ply != "12" || !strings.Contains(saved.Name, "attachment") {
		t.Fatalf("the page at ply %s saves %q (%q)", saved.Ply, saved.Href, saved.Name)
	}
	var output string
	b.Await(`const done = arguments[arguments.length - 1], t0 = performance.now();
(function check() {
  const text = document.getElementById("output").textContent;
  if (text.includes(".log") || performance.now() - t0 > 20000) done(text); else setTimeout(check, 20);
})();`, &output)
	if !strings.Contains(output, "first.log") || !strings.Contains(output, "second.log") {
		t.Errorf("the output panel shows %q, not the programs' logs", output)
	}
	board, err := record.ReadDarkChessBoard(strings.NewReader(saved.Text))
	if err != nil || len(board.Plies) != ply || board.Result != nil {
		t.Fatalf("the saved file: %v, %d plies, result %v:\n%s", err, len(board.Plies), board.Result, saved.Text)
	}
	start := filepath.Join(t.TempDir(), "board-ply12.txt")
	if err := os.WriteFile(start, []byte(saved.Text), 0o644); err != nil {
		t.Fatal(err)
	}
	runs := t.TempDir()
	var stdout, stderr bytes.Buffer
	if err := run(t.Context(), []string{"match", "darkchess", "-out", runs, "-games", "1", "-seed", "3", "-plies", "4", "-start", start, "random", "random"}, &stdout, &stderr); err != nil {
		t.Fatalf("arena match -start: %v\n%s\n%s", err, stdout.String(), stderr.String())
	}
	recs, _ := filepath.Glob(filepath.Join(runs, "*", "board.txt"))
	if len(recs) != 1 {
		t.Fatalf("records %q\n%s", recs, stdout.String())
	}
	played, err := record.ReadDarkChessBoard(bytes.NewReader(mustRead(t, recs[0])))
	if err != nil || len(played.Plies) <= ply {
		t.Fatalf("the game from the saved position: %v, %d plies", err, len(played.Plies))
	}
	for i := range ply {
		if played.Plies[i] != board.Plies[i] {
			t.Errorf("ply %d: the game has %v, the saved position %v", i+1, played.Plies[i], board.Plies[i])
		}
	}
}

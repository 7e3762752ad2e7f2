package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"flag"
	"io"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/botarena/botarena/internal/browsertest"
	"github.com/botarena/botarena/internal/longtest"
	"github.com/botarena/botarena/viewer"
)

// TestBrowserGames watches real games in a headless chromium: each game's
// runner feeding the viewer ply by ply (its live page follows), and "arena
// match -web" (its index, live page and record's replay). The long tier
// watches every game both ways; the quick tier each game one way (see
// quickBrowse), each way for two games. It runs alone (not in parallel with
// this package's other tests): the page's scripts must not starve.
func TestBrowserGames(t *testing.T) {
	b := browsertest.Start(t, 1280, 860)
	shots := browsertest.ShotDir(t)
	ctx, cancel := context.WithCancel(context.Background())
	var out bytes.Buffer
	w, wait, err := startViewer(ctx, "127.0.0.1:0", &out, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer wait()
	defer cancel()
	m := regexp.MustCompile(`Viewer: (http://\S+/)`).FindStringSubmatch(out.String())
	if m == nil {
		t.Fatalf("startViewer printed %q, no URL", out.String())
	}
	base := strings.TrimSuffix(m[1], "/")
	t.Logf("screenshots in %s", shots)

	for _, def := range gameDefs() {
		t.Run("realtime/"+def.Name, func(t *testing.T) {
			if def.Name == "pdd" && raceEnabled {
				t.Skip("a PDD game runs a process per move: a minute under -race; run without -race")
			}
			if !quickBrowse(def.Name, true) {
				longtest.Skip(t, "the quick tier watches geister and othello live, darkchess and pdd through a match")
			}
			if testing.Short() {
				t.Skip("-short: no game")
			}
			b.T = t
			browseRealtime(t, b, def, w, base, shots)
		})
	}
	for _, def := range gameDefs() {
		t.Run("match/"+def.Name, func(t *testing.T) {
			if def.Name == "pdd" && raceEnabled {
				t.Skip("a PDD match runs a process per move: a minute under -race; run without -race")
			}
			if !quickBrowse(def.Name, false) {
				longtest.Skip(t, "the quick tier watches geister and othello live, darkchess and pdd through a match")
			}
			if testing.Short() {
				t.Skip("-short: no match")
			}
			b.T = t
			browseMatch(t, b, def, shots)
		})
	}
}

// quickBrowse tells whether the quick tier watches game's games fed ply by
// ply (realtime) or through "arena match -web" (not realtime): Geister and
// Othello the first way, dark chess (long games) and PDD (a program started
// per move) the second.
func quickBrowse(game string, realtime bool) bool {
	return longtest.Enabled() || (game == "geister" || game == "othello") == realtime
}

// browseMatch runs "arena match <game> -web 127.0.0.1:0" in-process between
// two random bots, and, while the viewer stays up after the game, checks the
// index lists the finished game, its live page shows the last board and the
// result, and its record (the file the game wrote) replays.
func browseMatch(t *testing.T, b *browsertest.Browser, def *gameDef, shots string) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pr, pw := io.Pipe()
	errc := make(chan error, 1)
	go func() {
		args := []string{"match", def.Name, "-games", "1", "-seed", "7", "-web", "127.0.0.1:0", "-out", t.TempDir(), "random", "random"}
		err := run(ctx, args, pw, io.Discard)
		pw.Close()
		errc <- err
	}()
	var out []string
	base, up := "", false
	sc := bufio.NewScanner(pr)
	for !up && sc.Scan() {
		line := sc.Text()
		out = append(out, line)
		if m := regexp.MustCompile(`^Viewer: (http://\S+)/$`).FindStringSubmatch(line); m != nil {
			base = m[1]
		}
		up = strings.HasPrefix(line, "The viewer stays up")
	}
	go io.Copy(io.Discard, pr)
	if base == "" || !up {
		cancel()
		t.Fatalf("arena match -web: no viewer (%v); printed:\n%s", <-errc, strings.Join(out, "\n"))
	}
	b.Open(base + "/")
	var links struct {
		Live   string
		Replay string
		Rows   int
	}
	b.Run(`const rows = document.querySelectorAll("#finished tr");
		const a = document.querySelector("#finished tr td a"), r = document.querySelector("#finished a[href^='/replay']");
		return {rows: rows.length, live: a ? a.getAttribute("href") : "", replay: r ? r.getAttribute("href") : ""};`, &links)
	if links.Rows != 1 || links.Live == "" {
		t.Fatalf("the index lists %d finished games (live link %q); arena printed:\n%s", links.Rows, links.Live, strings.Join(out, "\n"))
	}
	// The live page of the finished game: the last board and the result.
	b.Open(base + links.Live)
	var ply string
	b.Await(`const done = arguments[arguments.length-1], t0 = performance.now();
		(function check() { const r = document.getElementById("result");
		  if (!r.hidden) done(document.getElementById("ply").textContent);
		  else if (performance.now() - t0 > 30000) done("no result"); else setTimeout(check, 10); })();`, &ply)
	box := b.BoardAt(atoi(t, ply))
	img := b.Screenshot()
	browsertest.SaveShot(t, shots, "match-"+def.Name+"-live", img)
	browsertest.CheckBoardShot(t, def.Name, img, box)
	if links.Replay == "" {
		t.Fatalf("the finished game has no replay link; arena printed:\n%s", strings.Join(out, "\n"))
	}
	// Its record replays, to the same last ply.
	b.Open(base + links.Replay + "#ply=99999")
	var total string
	b.Run(`const d = document.getElementById("data"); return d ? String(JSON.parse(d.textContent).moves.length) : document.title`, &total)
	end := b.BoardAt(atoi(t, total))
	img = b.Screenshot()
	browsertest.SaveShot(t, shots, "match-"+def.Name+"-replay", img)
	browsertest.CheckBoardShot(t, def.Name, img, end)
	if total != ply {
		t.Errorf("the record replays %s plies, the live page showed %s", total, ply)
	}
	cancel()
	select {
	case err := <-errc:
		if err != nil && !errors.Is(err, errInterrupted) {
			t.Errorf("arena match ended with %v", err)
		}
	case <-time.After(20 * time.Second):
		t.Errorf("arena match -web did not end within 20 s of ctx done")
	}
}

// atoi reads a number the page shows.
func atoi(t testing.TB, s string) int {
	t.Helper()
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil {
		t.Fatalf("the page shows %q, not a number", s)
	}
	return n
}

// gatedWatcher passes a game's frames on to the viewer, and holds the game
// after each Update until the test lets it go on, so that the browser sees
// a real game in progress, ply by ply.
type gatedWatcher struct {
	viewer.Watcher
	begun chan viewer.GameInfo // the game's info, once it has begun
	shown chan int             // the ply of each frame passed on and held
	step  chan struct{}        // lets a held Update return
	open  atomic.Bool          // no more holding
	once  sync.Once
}

func (g *gatedWatcher) Begin(info viewer.GameInfo, f viewer.Frame) {
	g.Watcher.Begin(info, f)
	g.once.Do(func() { g.begun <- info })
}

func (g *gatedWatcher) Update(id string, f viewer.Frame) {
	g.Watcher.Update(id, f)
	if g.open.Load() {
		return
	}
	g.shown <- f.Ply
	<-g.step
}

// browseRealtime plays a real game of def between two random bots through
// the game's runner (its protocol and referee in the loop), the viewer
// watching it, and checks in the browser that its live page follows it:
// the board after one ply, after the next, then the result.
func browseRealtime(t *testing.T, b *browsertest.Browser, def *gameDef, w viewer.Watcher, base, shots string) {
	cfg := &matchConfig{Game: def, Games: 1, Time: def.DefaultTime, Rules: def.Presets[0], Seed: 11, Out: t.TempDir(), Stderr: io.Discard}
	if def.Flags != nil {
		fs := flag.NewFlagSet("test", flag.ContinueOnError)
		def.Flags(fs)
		fs.Parse(nil)
	}
	for range 2 {
		p, err := parsePlayer(def, "random")
		if err != nil {
			t.Fatal(err)
		}
		cfg.Players = append(cfg.Players, p)
	}
	uniqueNames(cfg.Players)
	r, err := def.NewRunner(cfg)
	if err != nil {
		t.Fatal(err)
	}
	gate := &gatedWatcher{Watcher: w, begun: make(chan viewer.GameInfo, 1), shown: make(chan int), step: make(chan struct{})}
	dir := filepath.Join(cfg.Out, "game")
	os.MkdirAll(dir, 0o755)
	job := &gameJob{N: 1, Seats: [2]*playerSpec{cfg.Players[0], cfg.Players[1]}, Seed: 11, Dir: dir,
		ID: "realtime-" + def.Name, Watch: gate, Log: slog.New(slog.NewTextHandler(io.Discard, nil))}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan gameResult, 1)
	go func() { done <- r.Play(ctx, job) }()
	ended := false
	defer func() { // on a failure: let the game end, and wait for it
		if ended {
			return
		}
		cancel()
		gate.open.Store(true)
		for {
			select {
			case <-gate.shown:
				gate.step <- struct{}{}
			case <-done:
				return
			}
		}
	}()
	var info viewer.GameInfo
	select {
	case info = <-gate.begun:
	case res := <-done:
		t.Fatalf("the game ended before it began: %+v", res)
	}
	ply := <-gate.shown // the first ply, held
	b.Open(base + "/live/" + url.PathEscape(info.ID))
	box := b.BoardAt(ply)
	first := b.Screenshot()
	r1 := browsertest.CheckBoardShot(t, def.Name, first, box)
	gate.step <- struct{}{}
	ply2 := <-gate.shown // the next, held
	box = b.BoardAt(ply2)
	second := b.Screenshot()
	browsertest.SaveShot(t, shots, "realtime-"+def.Name, second)
	browsertest.CheckBoardShot(t, def.Name, second, box)
	if d := browsertest.Changed(first, second, r1); d < 0.0005 {
		t.Errorf("%s: the live board did not change from ply %d to %d", def.Name, ply, ply2)
	}
	var moves int
	b.Run(`return document.querySelectorAll("#moves li").length`, &moves)
	if moves != ply2 {
		t.Errorf("%s: %d moves listed at ply %d", def.Name, moves, ply2)
	}
	// Let the game run to its end: the page shows the result.
	gate.open.Store(true)
	gate.step <- struct{}{}
	res := <-done
	ended = true
	if res.Err != nil {
		t.Fatalf("the game failed: %v", res.Err)
	}
	var result string
	b.Await(`const done = arguments[arguments.length-1], t0 = performance.now();
		(function check() { const r = document.getElementById("result");
		  if (!r.hidden) done(r.textContent); else if (performance.now() - t0 > 30000) done("no result shown"); else setTimeout(check, 10); })();`, &result)
	if !strings.HasPrefix(result, "Result: ") || strings.Contains(result, "no result shown") {
		t.Errorf("%s: the live page shows %q at the end", def.Name, result)
	}
}

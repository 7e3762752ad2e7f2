package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"io/fs"
	"log/slog"
	"maps"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/botarena/botarena/internal/sharedtest"
)

// screenshotDirEnv names a directory for the browser tests' screenshots, for
// people to look at; without it they go to a temporary directory.
const screenshotDirEnv = "BOTARENA_SCREENSHOTS"

// sampleRecordDirs are where each game's real records are, for the browser
// tests (relative paths are from cmd/arena).
func sampleRecordDirs() map[string][]string {
	shared := func(elem ...string) string {
		path, _ := sharedtest.Lookup(elem...)
		return path
	}
	return map[string][]string{
		"othello":   {shared("othello", "client-001-server-game-1-2026-07-22.txt"), shared("othello")},
		"geister":   {shared("geister"), "../../geister/testdata"},
		"darkchess": {shared("darkchess", "records"), shared("darkchess"), "../../darkchess/testdata"},
		"pdd":       {"../../pdd/testdata/fixtures", "../../pdd/testdata", "../../record/testdata"},
	}
}

// sampleRecord finds a real record of def that its Replay reads into a game
// of at least 10 plies (or the longest found), looking at a bounded number
// of files under the game's sample directories.
func sampleRecord(t testing.TB, def *gameDef) (string, replay) {
	t.Helper()
	var best string
	var bestRp replay
	tried := 0
	for _, root := range sampleRecordDirs()[def.Name] {
		filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || tried >= 400 || len(bestRp.Moves) >= 10 {
				return fs.SkipAll
			}
			if d.IsDir() || strings.HasSuffix(path, ".md") || strings.HasSuffix(path, ".tsv") {
				return nil
			}
			data, err := os.ReadFile(path)
			if err != nil || len(data) > 1<<20 {
				return nil
			}
			tried++
			rp, err := safeReplay(def, filepath.Base(path), data)
			if err == nil && (best == "" || len(rp.Moves) > len(bestRp.Moves)) {
				best, bestRp = path, rp
			}
			return nil
		})
		if len(bestRp.Moves) >= 10 {
			break
		}
	}
	if best == "" || len(bestRp.Moves) < 2 {
		t.Skipf("no record of %s with 2 plies or more under %v (%d files tried)", def.Title, sampleRecordDirs()[def.Name], tried)
	}
	return best, bestRp
}

// shotDir is where the screenshots go.
func shotDir(t testing.TB) string {
	if d := os.Getenv(screenshotDirEnv); d != "" {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		return d
	}
	return t.TempDir()
}

// saveShot writes a screenshot as name.png in the screenshot directory.
func saveShot(t testing.TB, dir, name string, img image.Image) {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name+".png"), b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// boardBox is where the page drew the board, as its script reports it once
// the picture is decoded and painted.
type boardBox struct {
	X, Y, W, H float64
	VW, VH     float64 // the window
	Ply        string
	Status     string
	Error      string
}

// waitBoard waits in the page until the ply counter shows ply and the board
// picture is decoded and painted, and returns where the board is.
const waitBoard = `
const want = String(arguments[0]), done = arguments[arguments.length - 1];
const t0 = performance.now();
function check() {
  const ply = document.getElementById("ply"), img = document.getElementById("board");
  const now = ply ? ply.textContent : "";
  if (img && img.getAttribute("src") && now === want) {
    img.decode().then(() => requestAnimationFrame(() => requestAnimationFrame(() => {
      const r = img.getBoundingClientRect();
      done({x: r.left, y: r.top, w: r.width, h: r.height, vw: innerWidth, vh: innerHeight, ply: now,
            status: document.getElementById("status").textContent});
    })), e => done({error: "the board picture does not decode: " + e}));
    return;
  }
  if (performance.now() - t0 > 10000) { done({error: "the ply counter shows " + JSON.stringify(now) + ", not " + want}); return; }
  setTimeout(check, 10);
}
check();`

// waitPicture waits until the page's board shows the picture svg.
func (b *browser) waitPicture(svg string) {
	b.t.Helper()
	var ok bool
	b.await(`const want = arguments[0], done = arguments[arguments.length - 1], t0 = performance.now();
		(function check() {
		  const src = document.getElementById("board").getAttribute("src") || "";
		  if (decodeURIComponent(src.split(",").slice(1).join(",")) === want) done(true);
		  else if (performance.now() - t0 > 10000) done(false); else setTimeout(check, 10);
		})();`, &ok, svg)
	if !ok {
		b.t.Fatal("the board does not show the picture wanted")
	}
}

// boardAt waits for ply and returns the board's box.
func (b *browser) boardAt(ply int) boardBox {
	b.t.Helper()
	var box boardBox
	b.await(waitBoard, &box, ply)
	if box.Error != "" {
		b.t.Fatal(box.Error)
	}
	return box
}

// rect is box in the screenshot's pixels.
func (box boardBox) rect(img image.Image) image.Rectangle {
	sx := float64(img.Bounds().Dx()) / box.VW
	r := image.Rect(int(box.X*sx), int(box.Y*sx), int((box.X+box.W)*sx), int((box.Y+box.H)*sx))
	return r.Intersect(img.Bounds())
}

// colourStats counts the colours of img within r, each channel cut to 4
// bits.
type colourStats struct {
	total  int
	counts map[uint16]int
}

func quantize(c color.Color) uint16 {
	r, g, b, _ := c.RGBA()
	return uint16(r>>12)<<8 | uint16(g>>12)<<4 | uint16(b>>12)
}

func statsOf(img image.Image, r image.Rectangle) colourStats {
	s := colourStats{counts: map[uint16]int{}}
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			s.counts[quantize(img.At(x, y))]++
			s.total++
		}
	}
	return s
}

// share is the part of the pixels within tolerance tol (per channel, 0-255)
// of the colour c ("#rrggbb").
func share(img image.Image, r image.Rectangle, c string, tol int) float64 {
	var want [3]int
	fmt.Sscanf(c, "#%02x%02x%02x", &want[0], &want[1], &want[2])
	n, total := 0, 0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			cr, cg, cb, _ := img.At(x, y).RGBA()
			got := [3]int{int(cr >> 8), int(cg >> 8), int(cb >> 8)}
			ok := true
			for i := range 3 {
				if d := got[i] - want[i]; d > tol || d < -tol {
					ok = false
				}
			}
			if ok {
				n++
			}
			total++
		}
	}
	if total == 0 {
		return 0
	}
	return float64(n) / float64(total)
}

// checkBoardShot checks that the screenshot shows a board where the page
// says it is: large, mostly covered by one board colour that is not the
// page's, with several other colours (grid, pieces, labels) in clear
// amounts. It returns the board's rectangle in the picture.
func checkBoardShot(t testing.TB, game string, img image.Image, box boardBox) image.Rectangle {
	t.Helper()
	r := box.rect(img)
	if float64(r.Dx()) < 0.3*float64(img.Bounds().Dx()) || r.Dx() < 300 || r.Dy() < 200 {
		t.Errorf("%s: the board is %v in a %v window: too small", game, r.Size(), img.Bounds().Size())
	}
	if mid := float64(r.Min.Y+r.Max.Y) / 2; mid > 0.75*float64(img.Bounds().Dy()) {
		t.Errorf("%s: the board's middle is at y %.0f of %d: not on screen", game, mid, img.Bounds().Dy())
	}
	s := statsOf(img, r)
	type kv struct {
		c uint16
		n int
	}
	var top []kv
	for c, n := range s.counts {
		top = append(top, kv{c, n})
	}
	slices.SortFunc(top, func(a, b kv) int { return b.n - a.n })
	page := map[uint16]bool{quantize(color.RGBA{0xf4, 0xf1, 0xea, 255}): true, quantize(color.RGBA{0xff, 0xfd, 0xf8, 255}): true, quantize(color.RGBA{0xff, 0xff, 0xff, 255}): true}
	pageShare := 0.0
	for c := range page {
		pageShare += float64(s.counts[c]) / float64(s.total)
	}
	if pageShare > 0.6 {
		t.Errorf("%s: %.0f%% of the board's area is the page's background: no board drawn", game, 100*pageShare)
	}
	if len(top) == 0 || float64(top[0].n) < 0.12*float64(s.total) {
		t.Errorf("%s: no colour covers 12%% of the board's area: no board background", game)
	}
	visible := 0
	for _, e := range top {
		if float64(e.n) >= 0.002*float64(s.total) {
			visible++
		}
	}
	if visible < 4 {
		t.Errorf("%s: only %d colours cover 0.2%% of the board each: no pieces or grid", game, visible)
	}
	return r
}

// changed is the part of the pixels of r that differ between a and b.
func changed(a, b image.Image, r image.Rectangle) float64 {
	n, total := 0, 0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if quantize(a.At(x, y)) != quantize(b.At(x, y)) {
				n++
			}
			total++
		}
	}
	if total == 0 {
		return 0
	}
	return float64(n) / float64(total)
}

// checkOthelloColours checks the Othello picture's own colours: the green
// board (at least minGreen of the picture: less as discs fill it), black and
// white discs.
func checkOthelloColours(t testing.TB, img image.Image, r image.Rectangle, minGreen float64) {
	t.Helper()
	if g := share(img, r, "#2e7d32", 10); g < minGreen {
		t.Errorf("othello: the green board covers %.0f%% of the picture, want %.0f%% or more", 100*g, 100*minGreen)
	}
	if b := share(img, r, "#111111", 10); b < 0.005 {
		t.Errorf("othello: black discs cover %.2f%% of the picture", 100*b)
	}
	if w := share(img, r, "#f7f7f7", 6); w < 0.005 {
		t.Errorf("othello: white discs cover %.2f%% of the picture", 100*w)
	}
}

// TestBrowser opens the viewer in a real headless chromium: the replay page
// of a real record of each game (screenshot checked to show the board,
// stepped with the keyboard), and the live page of games fed through the
// watcher.
func TestBrowser(t *testing.T) {
	b := startBrowser(t, 1280, 860)
	shots := shotDir(t)
	ctx, cancel := context.WithCancel(context.Background())
	var out bytes.Buffer
	var dirs []string
	for _, ds := range sampleRecordDirs() {
		dirs = append(dirs, ds...)
	}
	w, wait, err := startViewer(ctx, "127.0.0.1:0", &out, dirs)
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
		t.Run("replay/"+def.Name, func(t *testing.T) {
			if def.Replay == nil {
				t.Skipf("%s has no Replay yet", def.Title)
			}
			b.t = t
			path, rp := sampleRecord(t, def)
			last := len(rp.Moves)
			b.open(base + "/replay?" + url.Values{"file": {path}, "game": {def.Name}}.Encode())
			box := b.boardAt(0)
			start := b.screenshot()
			saveShot(t, shots, "replay-"+def.Name, start)
			r := checkBoardShot(t, def.Name, start, box)
			if def.Name == "othello" {
				checkOthelloColours(t, start, r, 0.35)
			}
			b.press(keyArrowRight)
			b.boardAt(1)
			one := b.screenshot()
			if d := changed(start, one, r); d < 0.0005 {
				t.Errorf("ArrowRight: the board did not change (%.3f%% of pixels)", 100*d)
			}
			b.press(keyEnd)
			endBox := b.boardAt(last)
			end := b.screenshot()
			saveShot(t, shots, "replay-"+def.Name+"-end", end)
			checkBoardShot(t, def.Name, end, endBox)
			if d := changed(one, end, r); d < 0.0005 {
				t.Errorf("End: the board did not change (%.3f%% of pixels)", 100*d)
			}
			if want := rp.Frame(last).Status; endBox.Status != want {
				t.Errorf("End: status %q, want %q", endBox.Status, want)
			}
			b.press(keyPageUp)
			b.boardAt(max(last-10, 0))
			b.press(keyArrowLeft)
			b.boardAt(max(last-11, 0))
			b.press(keyHome)
			b.boardAt(0)
			b.press(keyPageDown)
			b.boardAt(min(10, last))
			// The ply is in the hash: a link opens there, a click on the move list goes there.
			var hash string
			b.run(`return location.hash`, &hash)
			if want := fmt.Sprintf("#ply=%d", min(10, last)); hash != want {
				t.Errorf("hash %q, want %q", hash, want)
			}
			b.open(base + "/replay?" + url.Values{"file": {path}, "game": {def.Name}}.Encode() + "#ply=2")
			b.boardAt(2)
			b.run(`document.querySelector('#moves li[data-ply="1"] a').click()`, nil)
			b.boardAt(1)
			// A player's view, where the game has them: the picture becomes
			// the view, and stays so while stepping.
			if views := rp.Frame(1).Views; len(views) > 0 {
				var name string
				b.run(`const s = document.getElementById("view"); s.value = s.options[1].value; s.dispatchEvent(new Event("change")); return s.value`, &name)
				if views[name] == "" {
					t.Fatalf("the view menu offers %q; the frame's views are %v", name, slices.Collect(maps.Keys(views)))
				}
				b.waitPicture(views[name])
				saveShot(t, shots, "replay-"+def.Name+"-view", b.screenshot())
				b.press(keyArrowRight)
				b.boardAt(2)
				b.waitPicture(rp.Frame(2).Views[name])
				b.run(`const s = document.getElementById("view"); s.value = ""; s.dispatchEvent(new Event("change"));`, nil)
				b.waitPicture(rp.Frame(2).Board)
			}
		})
	}

	t.Run("upload", func(t *testing.T) {
		b.t = t
		// The index's form: a record file chosen, any game, Replay.
		b.open(base + "/")
		path, err := filepath.Abs(filepath.Join(sharedtest.Dir(t, "othello"), "search-017-wld-gamelog-game-1-2026-07-22.txt"))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(path); err != nil {
			t.Skip(err)
		}
		b.typeInto(b.element(`form.upload input[type=file]`), path)
		b.click(b.element(`form.upload button[type=submit]`))
		b.loaded()
		b.boardAt(0)
		var kind string
		b.run(`return document.getElementById("kind").textContent`, &kind)
		if !strings.Contains(kind, "recognised as Othello") || !strings.Contains(kind, "uploaded") {
			t.Errorf("the uploaded record's page says %q", kind)
		}
		b.press(keyEnd)
		box := b.boardAt(61)
		img := b.screenshot()
		saveShot(t, shots, "upload-othello", img)
		checkOthelloColours(t, img, checkBoardShot(t, "othello", img, box), 0.15)
	})

	t.Run("live", func(t *testing.T) {
		b.t = t
		for _, def := range gameDefs() {
			if def.Replay == nil {
				t.Logf("live %s: skipped, no Replay yet", def.Name)
				continue
			}
			_, rp := sampleRecord(t, def)
			id := "live-" + def.Name
			info := gameInfo{ID: id, Game: def.Name, Title: "Game 1: " + rp.Players[0] + " vs " + rp.Players[1], Players: rp.Players, Seats: def.Seats}
			f0 := rp.Frame(0)
			f0.Clocks = [2]string{"5:00.0", "5:00.0"}
			w.Begin(info, f0)
			b.open(base + "/live/" + id)
			box := b.boardAt(0)
			start := b.screenshot()
			r := checkBoardShot(t, def.Name, start, box)
			n := min(6, len(rp.Moves))
			for i := 1; i <= n; i++ {
				f := rp.Frame(i)
				f.Clocks = [2]string{fmt.Sprintf("4:5%d.0", 9-i), "4:59.5"}
				w.Update(id, f)
			}
			box = b.boardAt(n)
			now := b.screenshot()
			saveShot(t, shots, "live-"+def.Name, now)
			checkBoardShot(t, def.Name, now, box)
			if d := changed(start, now, r); d < 0.0005 {
				t.Errorf("%s live: the board did not change after %d plies", def.Name, n)
			}
			var side struct {
				Clock string
				Moves int
			}
			b.run(`return {clock: document.getElementById("clock0").textContent, moves: document.querySelectorAll("#moves li").length}`, &side)
			if side.Clock != fmt.Sprintf("4:5%d.0", 9-n) || side.Moves != n {
				t.Errorf("%s live: clock %q, %d moves listed; want %q, %d", def.Name, side.Clock, side.Moves, fmt.Sprintf("4:5%d.0", 9-n), n)
			}
			// A perspective, where the game has them: the picture becomes the view.
			if fn := rp.Frame(n); len(fn.Views) > 0 {
				var shown bool
				b.run(`const s = document.getElementById("view"); s.value = s.options[1].value; s.dispatchEvent(new Event("change"));
					return decodeURIComponent(document.getElementById("board").src.split(",").slice(1).join(",")) === arguments[0][s.value];`, &shown, fn.Views)
				if !shown {
					t.Errorf("%s live: choosing a player's view does not show it", def.Name)
				}
				box = b.boardAt(n)
				saveShot(t, shots, "live-"+def.Name+"-view", b.screenshot())
				b.run(`const s = document.getElementById("view"); s.value = ""; s.dispatchEvent(new Event("change"));`, nil)
			}
			w.Finish(id, rp.Frame(n), "first player wins (test)", "")
			var result string
			b.await(`const done = arguments[arguments.length-1], t0 = performance.now();
				(function check() { const r = document.getElementById("result");
				  if (!r.hidden) done(r.textContent); else if (performance.now() - t0 > 10000) done("timeout"); else setTimeout(check, 10); })();`, &result)
			if !strings.Contains(result, "first player wins (test)") {
				t.Errorf("%s live: result shown %q", def.Name, result)
			}
		}
		// The index lists the finished games.
		b.open(base + "/")
		var rows int
		b.run(`return document.querySelectorAll("#finished tr a").length`, &rows)
		if rows == 0 {
			t.Errorf("the index lists no finished game")
		}
		saveShot(t, shots, "index", b.screenshot())
	})

	for _, def := range gameDefs() {
		t.Run("realtime/"+def.Name, func(t *testing.T) {
			if def.Name == "pdd" && raceEnabled {
				t.Skip("a PDD game runs a process per move: a minute under -race; run without -race")
			}
			if testing.Short() {
				t.Skip("-short: no game")
			}
			b.t = t
			browseRealtime(t, b, def, w, base, shots)
		})
	}
	for _, def := range gameDefs() {
		t.Run("match/"+def.Name, func(t *testing.T) {
			if def.Name == "pdd" && raceEnabled {
				t.Skip("a PDD match runs a process per move: a minute under -race; run without -race")
			}
			if testing.Short() {
				t.Skip("-short: no match")
			}
			b.t = t
			browseMatch(t, b, def, shots)
		})
	}
}

// browseMatch runs "arena match <game> -web 127.0.0.1:0" in-process between
// two random bots, and, while the viewer stays up after the game, checks the
// index lists the finished game, its live page shows the last board and the
// result, and its record (the file the game wrote) replays.
func browseMatch(t *testing.T, b *browser, def *gameDef, shots string) {
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
	b.open(base + "/")
	var links struct {
		Live   string
		Replay string
		Rows   int
	}
	b.run(`const rows = document.querySelectorAll("#finished tr");
		const a = document.querySelector("#finished tr td a"), r = document.querySelector("#finished a[href^='/replay']");
		return {rows: rows.length, live: a ? a.getAttribute("href") : "", replay: r ? r.getAttribute("href") : ""};`, &links)
	if links.Rows != 1 || links.Live == "" {
		t.Fatalf("the index lists %d finished games (live link %q); arena printed:\n%s", links.Rows, links.Live, strings.Join(out, "\n"))
	}
	// The live page of the finished game: the last board and the result.
	b.open(base + links.Live)
	var ply string
	b.await(`const done = arguments[arguments.length-1], t0 = performance.now();
		(function check() { const r = document.getElementById("result");
		  if (!r.hidden) done(document.getElementById("ply").textContent);
		  else if (performance.now() - t0 > 10000) done("no result"); else setTimeout(check, 10); })();`, &ply)
	box := b.boardAt(atoi(t, ply))
	img := b.screenshot()
	saveShot(t, shots, "match-"+def.Name+"-live", img)
	checkBoardShot(t, def.Name, img, box)
	if links.Replay == "" {
		t.Fatalf("the finished game has no replay link; arena printed:\n%s", strings.Join(out, "\n"))
	}
	// Its record replays, to the same last ply.
	b.open(base + links.Replay + "#ply=99999")
	var total string
	b.run(`const d = document.getElementById("data"); return d ? String(JSON.parse(d.textContent).moves.length) : document.title`, &total)
	end := b.boardAt(atoi(t, total))
	img = b.screenshot()
	saveShot(t, shots, "match-"+def.Name+"-replay", img)
	checkBoardShot(t, def.Name, img, end)
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
	watcher
	begun chan gameInfo // the game's info, once it has begun
	shown chan int      // the ply of each frame passed on and held
	step  chan struct{} // lets a held Update return
	open  atomic.Bool   // no more holding
	once  sync.Once
}

func (g *gatedWatcher) Begin(info gameInfo, f frame) {
	g.watcher.Begin(info, f)
	g.once.Do(func() { g.begun <- info })
}

func (g *gatedWatcher) Update(id string, f frame) {
	g.watcher.Update(id, f)
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
func browseRealtime(t *testing.T, b *browser, def *gameDef, w watcher, base, shots string) {
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
	gate := &gatedWatcher{watcher: w, begun: make(chan gameInfo, 1), shown: make(chan int), step: make(chan struct{})}
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
	var info gameInfo
	select {
	case info = <-gate.begun:
	case res := <-done:
		t.Fatalf("the game ended before it began: %+v", res)
	}
	ply := <-gate.shown // the first ply, held
	b.open(base + "/live/" + url.PathEscape(info.ID))
	box := b.boardAt(ply)
	first := b.screenshot()
	r1 := checkBoardShot(t, def.Name, first, box)
	gate.step <- struct{}{}
	ply2 := <-gate.shown // the next, held
	box = b.boardAt(ply2)
	second := b.screenshot()
	saveShot(t, shots, "realtime-"+def.Name, second)
	checkBoardShot(t, def.Name, second, box)
	if d := changed(first, second, r1); d < 0.0005 {
		t.Errorf("%s: the live board did not change from ply %d to %d", def.Name, ply, ply2)
	}
	var moves int
	b.run(`return document.querySelectorAll("#moves li").length`, &moves)
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
	b.await(`const done = arguments[arguments.length-1], t0 = performance.now();
		(function check() { const r = document.getElementById("result");
		  if (!r.hidden) done(r.textContent); else if (performance.now() - t0 > 10000) done("no result shown"); else setTimeout(check, 10); })();`, &result)
	if !strings.HasPrefix(result, "Result: ") || strings.Contains(result, "no result shown") {
		t.Errorf("%s: the live page shows %q at the end", def.Name, result)
	}
}

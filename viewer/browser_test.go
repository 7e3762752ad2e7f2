package viewer

import (
	"context"
	"fmt"
	"io/fs"
	"maps"
	"net"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/botarena/botarena/internal/browsertest"
	"github.com/botarena/botarena/internal/longtest"
	"github.com/botarena/botarena/internal/sharedtest"
)

// sampleRecordDirs are where each game's real records are, for the browser
// tests (relative paths are from the viewer's directory).
func sampleRecordDirs() map[string][]string {
	shared := func(elem ...string) string {
		path, _ := sharedtest.Lookup(elem...)
		return path
	}
	return map[string][]string{
		"othello":   {shared("othello", "client-001-server-game-1-2026-07-22.txt"), shared("othello")},
		"geister":   {shared("geister"), "../geister/testdata"},
		"darkchess": {shared("darkchess", "records"), shared("darkchess"), "../darkchess/testdata"},
		"pdd":       {"../pdd/testdata/fixtures", "../pdd/testdata", "../record/testdata"},
	}
}

// sampleRecord finds a real record of def that its Replay reads into a game
// of at least 10 plies (or the longest found), looking at a bounded number
// of files under the game's sample directories.
func sampleRecord(t testing.TB, def *Game) (string, Replay) {
	t.Helper()
	var best string
	var bestRp Replay
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

// TestBrowser opens the viewer in a real headless chromium: the replay page
// of a real record of each game (screenshot checked to show the board,
// stepped with the keyboard), an upload, and the live page of games fed
// through the Watcher. cmd/arena's TestBrowserGames watches real games.
//
// The quick tier watches one game live, Geister's (its page offers the
// players' views; the replays above draw every game's board); the long tier
// (BOTARENA_LONG=1) watches each game live. The test runs in parallel with
// the package's others: most of its time is the browser's.
func TestBrowser(t *testing.T) {
	t.Parallel()
	b := browsertest.Start(t, 1280, 860)
	shots := browsertest.ShotDir(t)
	var dirs []string
	for _, ds := range sampleRecordDirs() {
		dirs = append(dirs, ds...)
	}
	w, err := New(Options{Records: dirs})
	if err != nil {
		t.Fatal(err)
	}
	// The pages' event streams end with ctx, so that Close need not wait
	// for the browser to leave them.
	ctx, cancel := context.WithCancel(context.Background())
	srv := httptest.NewUnstartedServer(w)
	srv.Config.BaseContext = func(net.Listener) context.Context { return ctx }
	srv.Start()
	defer srv.Close()
	defer cancel()
	base := srv.URL
	t.Logf("screenshots in %s", shots)

	for _, def := range Games() {
		def := &def
		t.Run("replay/"+def.Name, func(t *testing.T) {
			if def.Replay == nil {
				t.Skipf("%s has no Replay yet", def.Title)
			}
			if def.Name != "othello" && def.Name != "darkchess" {
				// The quick tier replays Othello and dark chess (its
				// characters need the CJK font); the long tier every game.
				longtest.Skip(t, "the quick tier replays othello and darkchess in the browser")
			}
			b.T = t
			path, rp := sampleRecord(t, def)
			last := len(rp.Moves)
			b.Open(base + "/replay?" + url.Values{"file": {path}, "game": {def.Name}}.Encode())
			box := b.BoardAt(0)
			start := b.Screenshot()
			browsertest.SaveShot(t, shots, "replay-"+def.Name, start)
			r := browsertest.CheckBoardShot(t, def.Name, start, box)
			if def.Name == "othello" {
				browsertest.CheckOthelloColours(t, start, r, 0.35)
			}
			b.Press(browsertest.KeyArrowRight)
			b.BoardAt(1)
			one := b.Screenshot()
			if d := browsertest.Changed(start, one, r); d < 0.0005 {
				t.Errorf("ArrowRight: the board did not change (%.3f%% of pixels)", 100*d)
			}
			b.Press(browsertest.KeyEnd)
			endBox := b.BoardAt(last)
			end := b.Screenshot()
			browsertest.SaveShot(t, shots, "replay-"+def.Name+"-end", end)
			browsertest.CheckBoardShot(t, def.Name, end, endBox)
			if d := browsertest.Changed(one, end, r); d < 0.0005 {
				t.Errorf("End: the board did not change (%.3f%% of pixels)", 100*d)
			}
			if want := rp.Frame(last).Status; endBox.Status != want {
				t.Errorf("End: status %q, want %q", endBox.Status, want)
			}
			b.Press(browsertest.KeyPageUp)
			b.BoardAt(max(last-10, 0))
			b.Press(browsertest.KeyArrowLeft)
			b.BoardAt(max(last-11, 0))
			b.Press(browsertest.KeyHome)
			b.BoardAt(0)
			b.Press(browsertest.KeyPageDown)
			b.BoardAt(min(10, last))
			// The ply is in the hash: a link opens there, a click on the move list goes there.
			var hash string
			b.Run(`return location.hash`, &hash)
			if want := fmt.Sprintf("#ply=%d", min(10, last)); hash != want {
				t.Errorf("hash %q, want %q", hash, want)
			}
			b.Open(base + "/replay?" + url.Values{"file": {path}, "game": {def.Name}}.Encode() + "#ply=2")
			b.BoardAt(2)
			b.Run(`document.querySelector('#moves li[data-ply="1"] a').click()`, nil)
			b.BoardAt(1)
			// A player's view, where the game has them: the picture becomes
			// the view, and stays so while stepping.
			if views := rp.Frame(1).Views; len(views) > 0 {
				var name string
				b.Run(`const s = document.getElementById("view"); s.value = s.options[1].value; s.dispatchEvent(new Event("change")); return s.value`, &name)
				if views[name] == "" {
					t.Fatalf("the view menu offers %q; the frame's views are %v", name, slices.Collect(maps.Keys(views)))
				}
				b.WaitPicture(views[name])
				browsertest.SaveShot(t, shots, "replay-"+def.Name+"-view", b.Screenshot())
				b.Press(browsertest.KeyArrowRight)
				b.BoardAt(2)
				b.WaitPicture(rp.Frame(2).Views[name])
				b.Run(`const s = document.getElementById("view"); s.value = ""; s.dispatchEvent(new Event("change"));`, nil)
				b.WaitPicture(rp.Frame(2).Board)
			}
		})
	}

	t.Run("upload", func(t *testing.T) {
		// The upload's handler has its tests over HTTP; this is its form
		// in the browser.
		longtest.Skip(t, "an upload through the index page's form")
		b.T = t
		// The index's form: a record file chosen, any game, Replay.
		b.Open(base + "/")
		path, err := filepath.Abs(filepath.Join(sharedtest.Dir(t, "othello"), "search-017-wld-gamelog-game-1-2026-07-22.txt"))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(path); err != nil {
			t.Skip(err)
		}
		b.TypeInto(b.Element(`form.upload input[type=file]`), path)
		b.Click(b.Element(`form.upload button[type=submit]`))
		b.Loaded()
		b.BoardAt(0)
		var kind string
		b.Run(`return document.getElementById("kind").textContent`, &kind)
		if !strings.Contains(kind, "recognised as Othello") || !strings.Contains(kind, "uploaded") {
			t.Errorf("the uploaded record's page says %q", kind)
		}
		b.Press(browsertest.KeyEnd)
		box := b.BoardAt(61)
		img := b.Screenshot()
		browsertest.SaveShot(t, shots, "upload-othello", img)
		browsertest.CheckOthelloColours(t, img, browsertest.CheckBoardShot(t, "othello", img, box), 0.15)
	})

	t.Run("live", func(t *testing.T) {
		b.T = t
		for _, def := range Games() {
			def := &def
			if def.Replay == nil {
				t.Logf("live %s: skipped, no Replay yet", def.Name)
				continue
			}
			if !longtest.Enabled() && def.Name != "geister" {
				continue // the long tier watches it
			}
			_, rp := sampleRecord(t, def)
			id := "live-" + def.Name
			info := GameInfo{ID: id, Game: def.Name, Title: "Game 1: " + rp.Players[0] + " vs " + rp.Players[1], Players: rp.Players, Seats: def.Seats}
			f0 := rp.Frame(0)
			f0.Clocks = [2]string{"5:00.0", "5:00.0"}
			w.Begin(info, f0)
			b.Open(base + "/live/" + id)
			box := b.BoardAt(0)
			start := b.Screenshot()
			r := browsertest.CheckBoardShot(t, def.Name, start, box)
			n := min(6, len(rp.Moves))
			for i := 1; i <= n; i++ {
				f := rp.Frame(i)
				f.Clocks = [2]string{fmt.Sprintf("4:5%d.0", 9-i), "4:59.5"}
				w.Update(id, f)
			}
			box = b.BoardAt(n)
			now := b.Screenshot()
			browsertest.SaveShot(t, shots, "live-"+def.Name, now)
			browsertest.CheckBoardShot(t, def.Name, now, box)
			if d := browsertest.Changed(start, now, r); d < 0.0005 {
				t.Errorf("%s live: the board did not change after %d plies", def.Name, n)
			}
			var side struct {
				Clock string
				Moves int
			}
			b.Run(`return {clock: document.getElementById("clock0").textContent, moves: document.querySelectorAll("#moves li").length}`, &side)
			if side.Clock != fmt.Sprintf("4:5%d.0", 9-n) || side.Moves != n {
				t.Errorf("%s live: clock %q, %d moves listed; want %q, %d", def.Name, side.Clock, side.Moves, fmt.Sprintf("4:5%d.0", 9-n), n)
			}
			// A perspective, where the game has them: the picture becomes the view.
			if fn := rp.Frame(n); len(fn.Views) > 0 {
				var shown bool
				b.Run(`const s = document.getElementById("view"); s.value = s.options[1].value; s.dispatchEvent(new Event("change"));
					return decodeURIComponent(document.getElementById("board").src.split(",").slice(1).join(",")) === arguments[0][s.value];`, &shown, fn.Views)
				if !shown {
					t.Errorf("%s live: choosing a player's view does not show it", def.Name)
				}
				box = b.BoardAt(n)
				browsertest.SaveShot(t, shots, "live-"+def.Name+"-view", b.Screenshot())
				b.Run(`const s = document.getElementById("view"); s.value = ""; s.dispatchEvent(new Event("change"));`, nil)
			}
			w.Finish(id, rp.Frame(n), "first player wins (test)", "")
			var result string
			b.Await(`const done = arguments[arguments.length-1], t0 = performance.now();
				(function check() { const r = document.getElementById("result");
				  if (!r.hidden) done(r.textContent); else if (performance.now() - t0 > 30000) done("timeout"); else setTimeout(check, 10); })();`, &result)
			if !strings.Contains(result, "first player wins (test)") {
				t.Errorf("%s live: result shown %q", def.Name, result)
			}
		}
		// The index lists the finished games.
		b.Open(base + "/")
		var rows int
		b.Run(`return document.querySelectorAll("#finished tr a").length`, &rows)
		if rows == 0 {
			t.Errorf("the index lists no finished game")
		}
		browsertest.SaveShot(t, shots, "index", b.Screenshot())
	})

}

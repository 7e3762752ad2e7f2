// Package browsertest drives a headless chromium through chromedriver for
// the viewer's browser tests: it opens pages, presses keys, runs scripts,
// takes screenshots and checks that they show a board. Without chromium and
// chromedriver a test that starts a browser skips, or fails when
// BOTARENA_REQUIRE_BROWSER=1 (as in CI). It also reads the viewer's event
// streams ([OpenEvents]) and checks its board pictures ([CheckSVG]), for the
// tests of package viewer, boardsvg and cmd/arena alike.
package browsertest

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A Browser drives a headless chromium through chromedriver's WebDriver
// interface (W3C, JSON over plain HTTP): enough to open pages, press keys,
// Run scripts and take screenshots, with the standard library only.
type Browser struct {
	T       testing.TB // the test that fails on an error: set it in each subtest
	base    string     // chromedriver's URL, http://127.0.0.1:port
	session string
	client  *http.Client
}

// RequireEnv makes a missing Browser a failure rather than a skip
// (CI sets it, having installed chromium).
const RequireEnv = "BOTARENA_REQUIRE_BROWSER"

// findProgram returns the first of the candidates that is an executable
// file or found in PATH.
func findProgram(candidates ...string) string {
	for _, c := range candidates {
		if strings.Contains(c, "/") {
			if fi, err := os.Stat(c); err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0 {
				return c
			}
			continue
		}
		if p, err := exec.LookPath(c); err == nil {
			return p
		}
	}
	return ""
}

// Start starts chromedriver and a headless chromium session with a
// fresh profile, both ended at the test's cleanup. Without chromium it
// skips the test, or fails it when BOTARENA_REQUIRE_BROWSER=1.
func Start(t testing.TB, width, height int) *Browser {
	t.Helper()
	chromium := findProgram("/usr/bin/chromium", "chromium", "/usr/bin/chromium-browser", "chromium-browser")
	driver := findProgram("/usr/bin/chromedriver", "chromedriver", "/usr/lib/chromium/chromedriver")
	if chromium == "" || driver == "" {
		msg := fmt.Sprintf("headless Browser tests need chromium and chromedriver (found %q, %q): apt-get install chromium chromium-driver", chromium, driver)
		if os.Getenv(RequireEnv) == "1" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	cmd := exec.Command(driver, "--port=0")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = cmd.Stdout
	if err := cmd.Start(); err != nil {
		t.Fatalf("chromedriver: %v", err)
	}
	t.Cleanup(func() {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		cmd.Wait()
	})
	// chromedriver says "ChromeDriver was started successfully on port N."
	portc := make(chan string, 1)
	go func() {
		re := regexp.MustCompile(`started successfully on port (\d+)`)
		sc := bufio.NewScanner(out)
		sent := false
		for sc.Scan() {
			if m := re.FindStringSubmatch(sc.Text()); m != nil && !sent {
				portc <- m[1]
				sent = true
			}
		}
		if !sent {
			close(portc)
		}
		io.Copy(io.Discard, out)
	}()
	timeout := time.NewTimer(20 * time.Second)
	defer timeout.Stop()
	var port string
	select {
	case p, ok := <-portc:
		if !ok {
			t.Fatal("chromedriver ended without starting")
		}
		port = p
	case <-timeout.C:
		t.Fatal("chromedriver did not start within 20 s")
	}
	b := &Browser{T: t, base: "http://127.0.0.1:" + port, client: &http.Client{Timeout: 60 * time.Second}}
	caps := map[string]any{"capabilities": map[string]any{"alwaysMatch": map[string]any{
		"browserName": "chrome",
		"goog:chromeOptions": map[string]any{
			"binary": chromium,
			"args": []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
				"--disable-background-networking", "--disable-component-update", "--disable-sync",
				"--disable-dev-shm-usage", "--hide-scrollbars", "--force-device-scale-factor=1",
				fmt.Sprintf("--window-size=%d,%d", width, height), "--user-data-dir=" + t.TempDir()},
		},
		// Generous: on a loaded machine (a load of 10 on 2 cores) the
		// browser's own timers ran late enough for a 15 s script timeout
		// to cut a wait of the page's short.
		"timeouts": map[string]int{"script": 60000, "pageLoad": 60000},
	}}}
	var sess struct {
		SessionID string `json:"sessionId"`
	}
	if err := b.call("POST", "/session", caps, &sess); err != nil {
		t.Fatalf("starting chromium through chromedriver: %v", err)
	}
	b.session = sess.SessionID
	t.Cleanup(func() { b.call("DELETE", "/session/"+b.session, nil, nil) })
	return b
}

// call makes one WebDriver request and decodes its "value" into out.
func (b *Browser) call(method, path string, body, out any) error {
	var rd io.Reader
	if body != nil {
		j, err := json.Marshal(body)
		if err != nil {
			return err
		}
		rd = bytes.NewReader(j)
	}
	req, err := http.NewRequestWithContext(context.Background(), method, b.base+path, rd)
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := b.client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	var env struct {
		Value json.RawMessage `json:"value"`
	}
	if err := json.Unmarshal(data, &env); err != nil {
		return fmt.Errorf("%s %s: HTTP %d: %.300s", method, path, resp.StatusCode, data)
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s %s: HTTP %d: %.600s", method, path, resp.StatusCode, env.Value)
	}
	if out != nil {
		return json.Unmarshal(env.Value, out)
	}
	return nil
}

// sessionCall is call on the session.
func (b *Browser) sessionCall(method, path string, body, out any) {
	b.T.Helper()
	if err := b.call(method, "/session/"+b.session+path, body, out); err != nil {
		b.T.Fatal(err)
	}
}

// Open loads url and waits until the document and its scripts have loaded.
func (b *Browser) Open(url string) {
	b.T.Helper()
	b.sessionCall("POST", "/url", map[string]string{"url": url}, nil)
	b.Loaded()
}

// Loaded waits until the page's document has loaded (its scripts run).
func (b *Browser) Loaded() {
	b.T.Helper()
	var state string
	b.Await(`const done = arguments[arguments.length - 1], t0 = performance.now();
		(function check() {
		  if (document.readyState === "complete") done("complete");
		  else if (performance.now() - t0 > 10000) done(document.readyState);
		  else setTimeout(check, 10);
		})();`, &state)
	if state != "complete" {
		b.T.Fatalf("the page is still %q after 10 s", state)
	}
}

// Element finds the first element the CSS selector matches and returns its
// WebDriver reference.
func (b *Browser) Element(css string) string {
	b.T.Helper()
	var ref map[string]string
	b.sessionCall("POST", "/element", map[string]string{"using": "css selector", "value": css}, &ref)
	for _, id := range ref {
		return id
	}
	b.T.Fatalf("no element %s", css)
	return ""
}

// TypeInto types text into an element (for a file input: the file's path).
func (b *Browser) TypeInto(el, text string) {
	b.T.Helper()
	b.sessionCall("POST", "/element/"+el+"/value", map[string]string{"text": text}, nil)
}

// Click clicks an element.
func (b *Browser) Click(el string) {
	b.T.Helper()
	b.sessionCall("POST", "/element/"+el+"/click", map[string]any{}, nil)
}

// Run runs a script in the page and decodes its result into out (if not
// nil).
func (b *Browser) Run(script string, out any, args ...any) {
	b.T.Helper()
	if args == nil {
		args = []any{}
	}
	b.sessionCall("POST", "/execute/sync", map[string]any{"script": script, "args": args}, out)
}

// Await runs an asynchronous script (it calls its last argument with the
// result) and decodes its result into out; the script timeout bounds it.
func (b *Browser) Await(script string, out any, args ...any) {
	b.T.Helper()
	if args == nil {
		args = []any{}
	}
	b.sessionCall("POST", "/execute/async", map[string]any{"script": script, "args": args}, out)
}

// Press types keys (WebDriver key codes such as "\uE014" for ArrowRight)
// into the page, as a user at the keyboard would.
func (b *Browser) Press(keys ...string) {
	b.T.Helper()
	var acts []map[string]string
	for _, k := range keys {
		acts = append(acts, map[string]string{"type": "keyDown", "value": k}, map[string]string{"type": "keyUp", "value": k})
	}
	b.sessionCall("POST", "/actions", map[string]any{"actions": []any{map[string]any{"type": "key", "id": "keyboard", "actions": acts}}}, nil)
	b.sessionCall("DELETE", "/actions", nil, nil)
}

// WebDriver's codes of the keys the replay page answers.
const (
	KeyArrowLeft  = "\uE012"
	KeyArrowRight = "\uE014"
	KeyHome       = "\uE011"
	KeyEnd        = "\uE010"
	KeyPageUp     = "\uE00E"
	KeyPageDown   = "\uE00F"
	KeyEscape     = "\uE00C"
)

// ClickAt clicks the page at (x, y), in CSS pixels from the window's
// top-left corner, with the mouse, as a user would (the element there gets
// the pointer events and the click).
func (b *Browser) ClickAt(x, y float64) {
	b.T.Helper()
	move := map[string]any{"type": "pointerMove", "duration": 0, "origin": "viewport", "x": int(x + 0.5), "y": int(y + 0.5)}
	acts := []any{move, map[string]any{"type": "pointerDown", "button": 0}, map[string]any{"type": "pointerUp", "button": 0}}
	b.sessionCall("POST", "/actions", map[string]any{"actions": []any{map[string]any{
		"type": "pointer", "id": "mouse", "parameters": map[string]string{"pointerType": "mouse"}, "actions": acts}}}, nil)
	b.sessionCall("DELETE", "/actions", nil, nil)
}

// pictureAt finds where the point (x, y) of the board picture (#board),
// in the units of its viewBox, is in the window: the img shows the picture
// whole within its box, centred (object-fit: contain).
const pictureAt = `
const img = document.getElementById("board");
const src = decodeURIComponent((img.getAttribute("src") || "").split(",").slice(1).join(","));
const m = /viewBox="([^"]*)"/.exec(src);
if (!m) return {error: "the board picture has no viewBox"};
const [vx, vy, vw, vh] = m[1].trim().split(/[\s,]+/).map(Number);
const r = img.getBoundingClientRect(), a = vw / vh;
let cw = r.width, ch = r.height;
if (cw / ch > a) cw = ch * a; else ch = cw / a;
const left = r.left + (r.width - cw) / 2, top = r.top + (r.height - ch) / 2;
return {x: left + (arguments[0] - vx) / vw * cw, y: top + (arguments[1] - vy) / vh * ch};`

// ClickPicture clicks the board picture (the img #board of the viewer's
// pages) at (x, y) in the units of the picture's viewBox, as a user would
// click that point of the board: the centre of a square, say.
func (b *Browser) ClickPicture(x, y float64) {
	b.T.Helper()
	var at struct {
		X, Y  float64
		Error string
	}
	b.Run(pictureAt, &at, x, y)
	if at.Error != "" {
		b.T.Fatal(at.Error)
	}
	b.ClickAt(at.X, at.Y)
}

// Screenshot takes a picture of the window.
func (b *Browser) Screenshot() image.Image {
	b.T.Helper()
	var s string
	b.sessionCall("GET", "/screenshot", nil, &s)
	raw, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		b.T.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(raw))
	if err != nil {
		b.T.Fatalf("the screenshot is not a PNG: %v", err)
	}
	return img
}

// ScreenshotDirEnv names a directory for the Browser tests' screenshots, for
// people to look at; without it they go to a temporary directory.
const ScreenshotDirEnv = "BOTARENA_SCREENSHOTS"

// ShotDir is where the screenshots go.
func ShotDir(t testing.TB) string {
	if d := os.Getenv(ScreenshotDirEnv); d != "" {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		return d
	}
	return t.TempDir()
}

// SaveShot writes a screenshot as name.png in the screenshot directory.
func SaveShot(t testing.TB, dir, name string, img image.Image) {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name+".png"), b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// BoardBox is where the page drew the board, as its script reports it once
// the picture is decoded and painted.
type BoardBox struct {
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

// WaitPicture waits until the page's board shows the picture svg.
func (b *Browser) WaitPicture(svg string) {
	b.T.Helper()
	var ok bool
	b.Await(`const want = arguments[0], done = arguments[arguments.length - 1], t0 = performance.now();
		(function check() {
		  const src = document.getElementById("board").getAttribute("src") || "";
		  if (decodeURIComponent(src.split(",").slice(1).join(",")) === want) done(true);
		  else if (performance.now() - t0 > 10000) done(false); else setTimeout(check, 10);
		})();`, &ok, svg)
	if !ok {
		b.T.Fatal("the board does not show the picture wanted")
	}
}

// BoardAt waits for ply and returns the board's box.
func (b *Browser) BoardAt(ply int) BoardBox {
	b.T.Helper()
	var box BoardBox
	b.Await(waitBoard, &box, ply)
	if box.Error != "" {
		b.T.Fatal(box.Error)
	}
	return box
}

// rect is box in the screenshot's pixels.
func (box BoardBox) rect(img image.Image) image.Rectangle {
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

// Share is the part of the pixels within tolerance tol (per channel, 0-255)
// of the colour c ("#rrggbb").
func Share(img image.Image, r image.Rectangle, c string, tol int) float64 {
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

// CheckBoardShot checks that the screenshot shows a board where the page
// says it is: large, mostly covered by one board colour that is not the
// page's, with several other colours (grid, pieces, labels) in clear
// amounts. It returns the board's rectangle in the picture.
func CheckBoardShot(t testing.TB, game string, img image.Image, box BoardBox) image.Rectangle {
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

// Changed is the part of the pixels of r that differ between a and b.
func Changed(a, b image.Image, r image.Rectangle) float64 {
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

// CheckOthelloColours checks the Othello picture's own colours: the green
// board (at least minGreen of the picture: less as discs fill it), black and
// white discs.
func CheckOthelloColours(t testing.TB, img image.Image, r image.Rectangle, minGreen float64) {
	t.Helper()
	if g := Share(img, r, "#2e7d32", 10); g < minGreen {
		t.Errorf("othello: the green board covers %.0f%% of the picture, want %.0f%% or more", 100*g, 100*minGreen)
	}
	if b := Share(img, r, "#111111", 10); b < 0.005 {
		t.Errorf("othello: black discs cover %.2f%% of the picture", 100*b)
	}
	if w := Share(img, r, "#f7f7f7", 6); w < 0.005 {
		t.Errorf("othello: white discs cover %.2f%% of the picture", 100*w)
	}
}

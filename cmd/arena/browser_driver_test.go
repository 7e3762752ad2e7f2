package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"io"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A browser drives a headless chromium through chromedriver's WebDriver
// interface (W3C, JSON over plain HTTP): enough to open pages, press keys,
// run scripts and take screenshots, with the standard library only.
type browser struct {
	t       testing.TB
	base    string // chromedriver's URL, http://127.0.0.1:port
	session string
	client  *http.Client
}

// requireBrowserEnv makes a missing browser a failure rather than a skip
// (CI sets it, having installed chromium).
const requireBrowserEnv = "BOTARENA_REQUIRE_BROWSER"

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

// startBrowser starts chromedriver and a headless chromium session with a
// fresh profile, both ended at the test's cleanup. Without chromium it
// skips the test, or fails it when BOTARENA_REQUIRE_BROWSER=1.
func startBrowser(t testing.TB, width, height int) *browser {
	t.Helper()
	chromium := findProgram("/usr/bin/chromium", "chromium", "/usr/bin/chromium-browser", "chromium-browser")
	driver := findProgram("/usr/bin/chromedriver", "chromedriver", "/usr/lib/chromium/chromedriver")
	if chromium == "" || driver == "" {
		msg := fmt.Sprintf("headless browser tests need chromium and chromedriver (found %q, %q): apt-get install chromium chromium-driver", chromium, driver)
		if os.Getenv(requireBrowserEnv) == "1" {
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
	b := &browser{t: t, base: "http://127.0.0.1:" + port, client: &http.Client{Timeout: 60 * time.Second}}
	caps := map[string]any{"capabilities": map[string]any{"alwaysMatch": map[string]any{
		"browserName": "chrome",
		"goog:chromeOptions": map[string]any{
			"binary": chromium,
			"args": []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
				"--disable-background-networking", "--disable-component-update", "--disable-sync",
				"--disable-dev-shm-usage", "--hide-scrollbars", "--force-device-scale-factor=1",
				fmt.Sprintf("--window-size=%d,%d", width, height), "--user-data-dir=" + t.TempDir()},
		},
		"timeouts": map[string]int{"script": 15000, "pageLoad": 20000},
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
func (b *browser) call(method, path string, body, out any) error {
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
func (b *browser) sessionCall(method, path string, body, out any) {
	b.t.Helper()
	if err := b.call(method, "/session/"+b.session+path, body, out); err != nil {
		b.t.Fatal(err)
	}
}

// open loads url and waits until the document and its scripts have loaded.
func (b *browser) open(url string) {
	b.t.Helper()
	b.sessionCall("POST", "/url", map[string]string{"url": url}, nil)
	b.loaded()
}

// loaded waits until the page's document has loaded (its scripts run).
func (b *browser) loaded() {
	b.t.Helper()
	var state string
	b.await(`const done = arguments[arguments.length - 1], t0 = performance.now();
		(function check() {
		  if (document.readyState === "complete") done("complete");
		  else if (performance.now() - t0 > 10000) done(document.readyState);
		  else setTimeout(check, 10);
		})();`, &state)
	if state != "complete" {
		b.t.Fatalf("the page is still %q after 10 s", state)
	}
}

// element finds the first element the CSS selector matches and returns its
// WebDriver reference.
func (b *browser) element(css string) string {
	b.t.Helper()
	var ref map[string]string
	b.sessionCall("POST", "/element", map[string]string{"using": "css selector", "value": css}, &ref)
	for _, id := range ref {
		return id
	}
	b.t.Fatalf("no element %s", css)
	return ""
}

// typeInto types text into an element (for a file input: the file's path).
func (b *browser) typeInto(el, text string) {
	b.t.Helper()
	b.sessionCall("POST", "/element/"+el+"/value", map[string]string{"text": text}, nil)
}

// click clicks an element.
func (b *browser) click(el string) {
	b.t.Helper()
	b.sessionCall("POST", "/element/"+el+"/click", map[string]any{}, nil)
}

// run runs a script in the page and decodes its result into out (if not
// nil).
func (b *browser) run(script string, out any, args ...any) {
	b.t.Helper()
	if args == nil {
		args = []any{}
	}
	b.sessionCall("POST", "/execute/sync", map[string]any{"script": script, "args": args}, out)
}

// await runs an asynchronous script (it calls its last argument with the
// result) and decodes its result into out; the script timeout bounds it.
func (b *browser) await(script string, out any, args ...any) {
	b.t.Helper()
	if args == nil {
		args = []any{}
	}
	b.sessionCall("POST", "/execute/async", map[string]any{"script": script, "args": args}, out)
}

// press types keys (WebDriver key codes such as "\uE014" for ArrowRight)
// into the page, as a user at the keyboard would.
func (b *browser) press(keys ...string) {
	b.t.Helper()
	var acts []map[string]string
	for _, k := range keys {
		acts = append(acts, map[string]string{"type": "keyDown", "value": k}, map[string]string{"type": "keyUp", "value": k})
	}
	b.sessionCall("POST", "/actions", map[string]any{"actions": []any{map[string]any{"type": "key", "id": "keyboard", "actions": acts}}}, nil)
	b.sessionCall("DELETE", "/actions", nil, nil)
}

// WebDriver's codes of the keys the replay page answers.
const (
	keyArrowLeft  = "\uE012"
	keyArrowRight = "\uE014"
	keyHome       = "\uE011"
	keyEnd        = "\uE010"
	keyPageUp     = "\uE00E"
	keyPageDown   = "\uE00F"
)

// screenshot takes a picture of the window.
func (b *browser) screenshot() image.Image {
	b.t.Helper()
	var s string
	b.sessionCall("GET", "/screenshot", nil, &s)
	raw, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		b.t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(raw))
	if err != nil {
		b.t.Fatalf("the screenshot is not a PNG: %v", err)
	}
	return img
}

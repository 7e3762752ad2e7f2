package viewer

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/botarena/botarena/internal/browsertest"
	"github.com/botarena/botarena/internal/sharedtest"
	"github.com/botarena/botarena/othello"
)

// testViewer serves a viewer of dirs on a test server. Its games are
// Othello (the real replay) and "broken", whose Replay panics, so that the
// tests do not depend on the other games' readers.
func testViewer(t testing.TB, limits Limits, dirs ...string) (*Viewer, *httptest.Server) {
	t.Helper()
	v, err := New(Options{Records: dirs, Limits: limits, Games: []Game{
		{Name: "othello", Title: "Othello", Seats: [2]string{"black", "white"}, Replay: ReplayOthello, Formats: Games()[0].Formats},
		{Name: "broken", Title: "Broken", Replay: func(string, []byte) (Replay, error) { panic("broken reader") }},
	}})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(v)
	t.Cleanup(srv.Close)
	return v, srv
}

// get fetches url and returns the status and the body.
func get(t testing.TB, u string) (int, string) {
	t.Helper()
	resp, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(b)
}

// transcript is a real Othello -trans transcript of the test data.
func transcript(t testing.TB) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(sharedtest.Dir(t, "othello"), "client-001-server-game-1-2026-07-22.txt"))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// othelloFrames plays the first n plies of the TUS start (always the
// first legal move) as frames.
func othelloFrames(n int) []Frame {
	p := othello.TUS.Start
	fs := []Frame{OthelloFrame(p, 0, othello.NoMove, "", [2]string{"1:00.0", "1:00.0"})}
	for i := 1; i <= n && !p.IsOver(); i++ {
		m := p.AppendLegalMoves(nil)[0]
		p, _ = p.Play(m)
		fs = append(fs, OthelloFrame(p, i, m, "", [2]string{"0:59.0", "0:58.0"}))
	}
	return fs
}

// TestViewerIndex: the index lists the live games (title, players, ply,
// clocks), the finished ones with their result and replay link, the record
// files and the upload form, loads nothing from outside, and its event
// stream follows the games.
func TestViewerIndex(t *testing.T) {
	dir := t.TempDir()
	rec := filepath.Join(dir, "game-2", "trans.txt")
	os.MkdirAll(filepath.Dir(rec), 0o755)
	os.WriteFile(rec, transcript(t), 0o644)
	os.WriteFile(filepath.Join(dir, ".hidden"), []byte("x"), 0o644)
	v, srv := testViewer(t, DefaultLimits(), dir)
	fs := othelloFrames(3)
	v.Begin(GameInfo{ID: "g1", Game: "othello", Title: "Game 1: alpha (black) vs <beta> (white)", Players: [2]string{"alpha", "<beta>"}, Seats: [2]string{"black", "white"}}, fs[0])
	v.Update("g1", fs[1])
	v.Begin(GameInfo{ID: "g2", Game: "othello", Title: "Game 2", Players: [2]string{"gamma", "delta"}}, fs[0])
	v.Finish("g2", fs[3], "gamma wins 40-24", rec)

	code, body := get(t, srv.URL+"/")
	if code != http.StatusOK {
		t.Fatalf("index: %d", code)
	}
	for _, want := range []string{
		`href="/live/g1">Game 1: alpha (black) vs &lt;beta&gt; (white)</a>`, "<td>1</td>", "0:59.0 0:58.0",
		`href="/live/g2">Game 2</a>`, "gamma wins 40-24", `href="/replay?file=` + url.QueryEscape(rec) + `&amp;game=othello"`,
		`>game-2/trans.txt</a>`, `action="/replay"`, `enctype="multipart/form-data"`, `<option value="othello">`,
		`src="/static/index.js"`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("index lacks %s", want)
		}
	}
	if strings.Contains(body, ".hidden") || strings.Contains(body, "<beta>") {
		t.Errorf("index shows a hidden file or unescaped text")
	}
	// Everything the page loads is the viewer's own.
	resp, err := http.Get(srv.URL + "/")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if csp := resp.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'none'") || !strings.Contains(csp, "script-src 'self'") {
		t.Errorf("Content-Security-Policy %q", csp)
	}
	if regexp.MustCompile(`(src|href)="(https?:)?//`).MatchString(body) {
		t.Errorf("the index loads something from outside")
	}
	for _, f := range []string{"style.css", "common.js", "index.js", "live.js", "replay.js"} {
		if code, b := get(t, srv.URL+"/static/"+f); code != http.StatusOK || len(b) < 100 || strings.Contains(b, "http://") || strings.Contains(b, "https://") {
			t.Errorf("/static/%s: %d, %d bytes, or an outside URL", f, code, len(b))
		}
	}
	if code, body := get(t, srv.URL+"/nowhere"); code != http.StatusNotFound || !strings.Contains(body, "/nowhere") {
		t.Errorf("/nowhere: %d", code)
	}
	// The index's stream: the games, then a message after each change.
	er, done := browsertest.OpenEvents(t, srv.URL+"/events")
	defer done()
	ev, data, _ := er.Next()
	var st indexState
	if err := json.Unmarshal(data, &st); ev != "index" || err != nil || len(st.Live) != 1 || len(st.Finished) != 1 || st.Finished[0].Replay == "" {
		t.Fatalf("index event %q %s (%v)", ev, data, err)
	}
	v.Finish("g1", fs[2], "alpha wins", "")
	_, data, _ = er.Next()
	st = indexState{}
	json.Unmarshal(data, &st)
	if len(st.Live) != 0 || st.NFinished != 2 || st.Finished[0].ID != "g1" || st.Finished[0].Result != "alpha wins" {
		t.Errorf("after the finish: %s", data)
	}
}

// TestViewerLiveEvents: a game's live page, and its event stream carrying
// Begin, each Update (the new moves only) and Finish, then ending.
func TestViewerLiveEvents(t *testing.T) {
	v, srv := testViewer(t, DefaultLimits())
	fs := othelloFrames(4)
	info := GameInfo{ID: "m 1/x", Game: "othello", Title: "Game 1: a vs b", Players: [2]string{"a", "b"}, Seats: [2]string{"black", "white"}}
	v.Begin(info, fs[0])
	id := url.PathEscape(info.ID)
	code, body := get(t, srv.URL+"/live/"+id)
	if code != http.StatusOK || !strings.Contains(body, "Game 1: a vs b") || !strings.Contains(body, `src="/static/live.js"`) || !strings.Contains(body, `id="data" type="application/json"`) {
		t.Fatalf("live page: %d\n%s", code, body)
	}
	if code, _ := get(t, srv.URL+"/live/nope"); code != http.StatusNotFound {
		t.Errorf("/live/nope: %d", code)
	}
	if code, _ := get(t, srv.URL+"/events/nope"); code != http.StatusNotFound {
		t.Errorf("/events/nope: %d", code)
	}
	er, done := browsertest.OpenEvents(t, srv.URL+"/events/"+id)
	defer done()
	st := browsertest.DecodeState[gameState](er)
	if st.Info.ID != info.ID || st.Frame.Ply != 0 || st.From != 0 || len(st.Moves) != 0 || st.Finished || !strings.Contains(st.Frame.Board, "<svg") {
		t.Fatalf("first state: %+v", st)
	}
	v.Update(info.ID, fs[1])
	st = browsertest.DecodeState[gameState](er)
	if st.Frame.Ply != 1 || st.From != 0 || len(st.Moves) != 1 || st.Moves[0] != fs[1].Move || st.Frame.Clocks[0] != "0:59.0" {
		t.Fatalf("after ply 1: %+v", st)
	}
	v.Update(info.ID, fs[2])
	st = browsertest.DecodeState[gameState](er)
	if st.Frame.Ply != 2 || st.From != 1 || len(st.Moves) != 1 || st.Moves[0] != fs[2].Move {
		t.Fatalf("after ply 2: from %d moves %v", st.From, st.Moves)
	}
	v.Update("another", fs[3]) // an unknown game: ignored
	v.Finish(info.ID, fs[3], "a wins", "/tmp/rec.txt")
	st = browsertest.DecodeState[gameState](er)
	if !st.Finished || st.Result != "a wins" || st.Frame.Ply != 3 || st.Frame.ToMove != -1 || st.From != 2 || len(st.Moves) != 1 || st.Replay == "" {
		t.Fatalf("finish: %+v", st)
	}
	if ev, _, ok := er.Next(); ok {
		t.Errorf("the stream goes on after the finish: %q", ev)
	}
	// A browser that comes after the finish gets the whole game at once.
	er2, done2 := browsertest.OpenEvents(t, srv.URL+"/events/"+id)
	defer done2()
	st = browsertest.DecodeState[gameState](er2)
	if !st.Finished || st.From != 0 || len(st.Moves) != 3 {
		t.Errorf("late browser: %+v", st)
	}
}

// TestViewerReplayFile: the replay page of a record under a record
// directory, by absolute and relative path, with and without the game named.
func TestViewerReplayFile(t *testing.T) {
	dir := t.TempDir()
	data := transcript(t)
	path := filepath.Join(dir, "sub", "game.txt")
	os.MkdirAll(filepath.Dir(path), 0o755)
	os.WriteFile(path, data, 0o644)
	_, srv := testViewer(t, DefaultLimits(), dir)
	code, body := get(t, srv.URL+"/replay?file="+url.QueryEscape(path))
	if code != http.StatusOK {
		t.Fatalf("replay: %d\n%s", code, body)
	}
	for _, want := range []string{"Othello record (recognised as Othello)", "PonderC", "PonderD", "PonderC (black) wins 40-24 (discs)", `src="/static/replay.js"`, `id="plies"`} {
		if !strings.Contains(body, want) {
			t.Errorf("replay page lacks %q", want)
		}
	}
	d := pageData(t, body)
	if d.Game != "othello" || len(d.Moves) != 61 || d.Moves[60] != "g1" {
		t.Errorf("replay data: game %q, %d moves", d.Game, len(d.Moves))
	}
	// The page carries no picture: the frames come one at a time.
	if strings.Contains(body, "<svg") || strings.Contains(body, `\u003csvg`) {
		t.Errorf("the replay page carries a picture")
	}
	for ply, want := range map[int]string{0: "", 1: d.Moves[0], 61: "g1"} {
		code, f := getFrame(t, srv.URL, d, ply, "")
		if code != http.StatusOK || f.Ply != ply || f.Move != want || !strings.HasPrefix(f.Board, "<svg") || f.Plies != 61 || f.Status == "" {
			t.Errorf("frame %d: %d, ply %d, move %q, %d plies, status %q", ply, code, f.Ply, f.Move, f.Plies, f.Status)
		}
	}
	if code, f := getFrame(t, srv.URL, d, 62, ""); code != http.StatusNotFound || !strings.Contains(f.Error, "has 61 plies") {
		t.Errorf("frame 62: %d %q", code, f.Error)
	}
	if code, body := get(t, srv.URL+d.Frame+"&ply=x"); code != http.StatusBadRequest || !strings.Contains(body, "want a number") {
		t.Errorf("frame x: %d %s", code, body)
	}
	code, body = get(t, srv.URL+"/replay?game=othello&file="+url.QueryEscape(path))
	if code != http.StatusOK || strings.Contains(body, "recognised") {
		t.Errorf("replay with game=othello: %d", code)
	}
	// A relative path works too.
	wd, _ := os.Getwd()
	if rel, err := filepath.Rel(wd, path); err == nil {
		if code, _ := get(t, srv.URL+"/replay?file="+url.QueryEscape(rel)); code != http.StatusOK {
			t.Errorf("relative path %s: %d", rel, code)
		}
	}
}

// pageData is the data a replay page gives its script.
func pageData(t testing.TB, body string) replayData {
	t.Helper()
	m := regexp.MustCompile(`(?s)<script id="data" type="application/json">(.*?)</script>`).FindStringSubmatch(body)
	if m == nil {
		t.Fatalf("no replay data in the page:\n%s", body)
	}
	var d replayData
	if err := json.Unmarshal([]byte(m[1]), &d); err != nil {
		t.Fatalf("replay data: %v", err)
	}
	return d
}

// frameAnswer is an answer of /replay/frame: a frame, or an error.
type frameAnswer struct {
	frameReply
	Error string `json:"error"`
}

// getFrame fetches frame ply of the replay page's data d, as view sees it.
func getFrame(t testing.TB, base string, d replayData, ply int, view string) (int, frameAnswer) {
	t.Helper()
	u := base + d.Frame + "&ply=" + fmt.Sprint(ply)
	if view != "" {
		u += "&view=" + url.QueryEscape(view)
	}
	code, body := get(t, u)
	var f frameAnswer
	if err := json.Unmarshal([]byte(body), &f); err != nil {
		t.Fatalf("GET %s: %d, not JSON: %v\n%s", u, code, err, body)
	}
	return code, f
}

// TestViewerReplayRefused: files outside the record directories (by "..",
// by a symbolic link, by an absolute path) and missing ones get the same
// 404, naming no directory; oversized, empty or files of no game are
// refused with a 4xx page saying why and what is accepted.
func TestViewerReplayRefused(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "recdir-q7")
	os.MkdirAll(dir, 0o755)
	secret := filepath.Join(root, "secret.txt")
	os.WriteFile(secret, transcript(t), 0o644)
	os.WriteFile(filepath.Join(dir, "big.txt"), bytes.Repeat([]byte("f5"), 1000), 0o644)
	os.WriteFile(filepath.Join(dir, "junk.txt"), []byte("not a record at all\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "empty.txt"), nil, 0o644)
	if err := os.Symlink(secret, filepath.Join(dir, "link.txt")); err != nil {
		t.Fatal(err)
	}
	limits := DefaultLimits()
	limits.MaxRecordBytes = 1024
	_, srv := testViewer(t, limits, dir)
	for _, c := range []struct {
		file string
		code int
		want string
	}{
		{"", 400, "needs a record file"},
		{filepath.Join(dir, "..", "secret.txt"), 404, "no such record file"},
		{dir + "/../secret.txt", 404, "no such record file"},
		{secret, 404, "no such record file"},
		{"/etc/passwd", 404, "no such record file"},
		{filepath.Join(dir, "link.txt"), 404, "no such record file"},
		{filepath.Join(dir, "missing.txt"), 404, "no such record file"},
		{filepath.Join(root, "missing.txt"), 404, "no such record file"},
		{root, 404, "no such record file"},
		{dir, 400, "not a regular file"},
		{filepath.Join(dir, "big.txt"), 413, "larger than 1024 bytes"},
		{filepath.Join(dir, "empty.txt"), 422, "is empty"},
		{filepath.Join(dir, "junk.txt"), 422, "not a record file any game reads"},
		{"a\x00b", 400, "NUL"},
	} {
		code, body := get(t, srv.URL+"/replay?file="+url.QueryEscape(c.file))
		if code != c.code || !strings.Contains(body, c.want) {
			t.Errorf("file %q: %d, want %d with %q:\n%s", c.file, code, c.code, c.want, body)
		}
	}
	// A file outside, one that is not there, a directory outside, a link
	// out: one answer, byte for byte, naming no directory; the frames too.
	var first, firstFrame string
	for _, file := range []string{secret, filepath.Join(root, "missing.txt"), root, filepath.Join(dir, "link.txt"), filepath.Join(dir, "missing.txt"), "/etc/passwd", "/nonexistent/x"} {
		code, body := get(t, srv.URL+"/replay?file="+url.QueryEscape(file))
		if first == "" {
			first = body
		}
		if code != http.StatusNotFound || body != first {
			t.Errorf("file %q: %d, an answer of its own:\n%s", file, code, body)
		}
		if strings.Contains(body, root) || strings.Contains(body, filepath.Base(dir)) {
			t.Errorf("the 404 names a directory:\n%s", body)
		}
		code, body = get(t, srv.URL+"/replay/frame?ply=0&game=othello&file="+url.QueryEscape(file))
		if firstFrame == "" {
			firstFrame = body
		}
		if code != http.StatusNotFound || body != firstFrame {
			t.Errorf("frame of %q: %d, an answer of its own:\n%s", file, code, body)
		}
	}
	// Not a record: the page names each game's complaint and the formats.
	_, body := get(t, srv.URL+"/replay?file="+url.QueryEscape(filepath.Join(dir, "junk.txt")))
	for _, want := range []string{"Othello: junk.txt: neither an Othello -trans transcript", "Broken: junk.txt: the Broken reader failed: broken reader", "-trans transcript (B:&lt;black&gt;,W:&lt;white&gt;"} {
		if !strings.Contains(body, want) {
			t.Errorf("the error page lacks %q:\n%s", want, body)
		}
	}
	if code, body := get(t, srv.URL+"/replay?game=chess&file="+url.QueryEscape(filepath.Join(dir, "junk.txt"))); code != 400 || !strings.Contains(body, "the games are othello, broken") {
		t.Errorf("unknown game: %d\n%s", code, body)
	}
	if code, body := get(t, srv.URL+"/replay?game=othello&file="+url.QueryEscape(filepath.Join(dir, "junk.txt"))); code != 422 || !strings.Contains(body, "Accepted for Othello") {
		t.Errorf("not an Othello record: %d\n%s", code, body)
	}
}

// TestViewerReplayTooLong: a record of more plies than a replay page lists
// is refused with a page saying so.
func TestViewerReplayTooLong(t *testing.T) {
	limits := DefaultLimits()
	limits.MaxPlies = 150
	v, srv := testViewer(t, limits)
	v.defs = []*Game{{Name: "long", Title: "Long", Replay: func(string, []byte) (Replay, error) {
		return Replay{Moves: make([]string, 199), Frame: func(i int) Frame { return Frame{Ply: i} }}, nil
	}}}
	code, body := upload(t, srv.URL, "long.txt", "", []byte("anything"))
	if code != http.StatusUnprocessableEntity || !strings.Contains(body, "long.txt is a Long record of 199 plies, more than the 150") {
		t.Errorf("%d\n%s", code, body)
	}
}

// TestViewerGameRecords: the record a game wrote can be replayed wherever
// it is, until the viewer forgets the game.
func TestViewerGameRecords(t *testing.T) {
	limits := DefaultLimits()
	limits.MaxFinished = 1
	v, srv := testViewer(t, limits, t.TempDir())
	rec := filepath.Join(t.TempDir(), "game.txt")
	os.WriteFile(rec, transcript(t), 0o644)
	link := srv.URL + replayLink(rec, "othello")
	if code, _ := get(t, link); code != http.StatusNotFound {
		t.Errorf("a record no game wrote: %d", code)
	}
	fs := othelloFrames(1)
	v.Begin(GameInfo{ID: "a", Game: "othello"}, fs[0])
	v.Finish("a", fs[1], "over", rec)
	if code, _ := get(t, link); code != http.StatusOK {
		t.Errorf("the record of a finished game: %d", code)
	}
	v.Begin(GameInfo{ID: "b", Game: "othello"}, fs[0])
	v.Finish("b", fs[1], "over", "")
	if code, _ := get(t, link); code != http.StatusNotFound {
		t.Errorf("the record of a forgotten game: %d", code)
	}
}

// upload posts data as the file of the upload form.
func upload(t testing.TB, u, name, game string, data []byte) (int, string) {
	t.Helper()
	var b bytes.Buffer
	mw := multipart.NewWriter(&b)
	if game != "" {
		mw.WriteField("game", game)
	}
	fw, _ := mw.CreateFormFile("file", name)
	fw.Write(data)
	mw.Close()
	resp, err := http.Post(u+"/replay", mw.FormDataContentType(), &b)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}

// TestViewerUpload: a record uploaded by the form or as the body is
// replayed; an oversized one is refused with 413, one of no game with 422.
func TestViewerUpload(t *testing.T) {
	limits := DefaultLimits()
	limits.MaxRecordBytes = 4096
	_, srv := testViewer(t, limits)
	data := transcript(t)
	if code, body := upload(t, srv.URL, "mine.txt", "auto", data); code != 200 || !strings.Contains(body, "mine.txt") || !strings.Contains(body, "uploaded") || !strings.Contains(body, "PonderC") {
		t.Errorf("upload: %d\n%s", code, body)
	}
	if code, _ := upload(t, srv.URL, "../../etc/mine.txt", "othello", data); code != 200 {
		t.Errorf("upload with game: %d", code)
	}
	if code, body := upload(t, srv.URL, "big.txt", "", bytes.Repeat([]byte("f5"), 3000)); code != 413 || !strings.Contains(body, "larger than 4096 bytes") {
		t.Errorf("big upload: %d\n%s", code, body)
	}
	if code, body := upload(t, srv.URL, "x.bin", "", []byte("\x00\x01garbage")); code != 422 || !strings.Contains(body, "Accepted") {
		t.Errorf("garbage upload: %d\n%s", code, body)
	}
	// The body itself, as curl --data-binary @file sends it.
	resp, err := http.Post(srv.URL+"/replay?name=raw.txt", "text/plain", bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(body), "raw.txt") {
		t.Errorf("raw upload: %d", resp.StatusCode)
	}
	resp, err = http.Post(srv.URL+"/replay", "text/plain", bytes.NewReader(make([]byte, 1<<20)))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 413 {
		t.Errorf("big raw upload: %d", resp.StatusCode)
	}
	// A form without a file.
	var b bytes.Buffer
	mw := multipart.NewWriter(&b)
	mw.WriteField("game", "othello")
	mw.Close()
	resp, err = http.Post(srv.URL+"/replay", mw.FormDataContentType(), &b)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 400 {
		t.Errorf("form without a file: %d", resp.StatusCode)
	}
}

// TestViewerStuckClient: a browser that never reads its event stream does
// not hold up the game: Update keeps returning, and another browser gets the
// latest frame.
func TestViewerStuckClient(t *testing.T) {
	v, srv := testViewer(t, DefaultLimits())
	big := Frame{Board: `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><!--` + strings.Repeat("x", 256<<10) + `--></svg>`}
	v.Begin(GameInfo{ID: "g", Game: "othello", Title: "stuck"}, big)
	conn, err := net.Dial("tcp", srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "GET /events/g HTTP/1.1\r\nHost: x\r\n\r\n") // and never read
	// Wait until the stuck stream is registered.
	er, done := browsertest.OpenEvents(t, srv.URL+"/events/g")
	defer done()
	browsertest.DecodeState[gameState](er)
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		for i := 1; i <= 2000; i++ {
			f := big
			f.Ply, f.Move = i, fmt.Sprint("m", i)
			v.Update("g", f)
		}
	}()
	select {
	case <-finished:
	case <-time.After(30 * time.Second):
		t.Fatal("Update is blocked by a browser that does not read")
	}
	// The reading browser catches up to the last frame (skipping some).
	for {
		st := browsertest.DecodeState[gameState](er)
		if st.Frame.Ply == 2000 {
			if st.From+len(st.Moves) != 2000 {
				t.Errorf("moves up to %d", st.From+len(st.Moves))
			}
			break
		}
	}
}

// TestViewerBounds: the viewer keeps at most MaxFinished finished games,
// MaxLive live ones and MaxMoves moves per game.
func TestViewerBounds(t *testing.T) {
	limits := DefaultLimits()
	limits.MaxFinished, limits.MaxMoves, limits.MaxLive = 3, 5, 4
	v, srv := testViewer(t, limits)
	fs := othelloFrames(12)
	for i := range 6 {
		id := fmt.Sprint("g", i)
		v.Begin(GameInfo{ID: id, Game: "othello", Title: id}, fs[0])
		for _, f := range fs[1:] {
			v.Update(id, f)
		}
		v.Finish(id, fs[len(fs)-1], "done", "")
	}
	v.mu.Lock()
	n, kept := len(v.finished), len(v.games)
	v.mu.Unlock()
	if n != 3 || kept != 3 {
		t.Errorf("%d finished games kept, %d games; want 3", n, kept)
	}
	if code, _ := get(t, srv.URL+"/live/g0"); code != http.StatusNotFound {
		t.Errorf("an old game is still there: %d", code)
	}
	er, done := browsertest.OpenEvents(t, srv.URL+"/events/g5")
	defer done()
	if st := browsertest.DecodeState[gameState](er); len(st.Moves) != 5 || st.Frame.Ply != 12 {
		t.Errorf("moves kept %d, ply %d; want 5, 12", len(st.Moves), st.Frame.Ply)
	}
	for i := range 6 {
		v.Begin(GameInfo{ID: fmt.Sprint("l", i)}, fs[0])
	}
	v.mu.Lock()
	live := len(v.live)
	v.mu.Unlock()
	if live != 4 {
		t.Errorf("%d live games, want at most 4", live)
	}
}

// TestViewerDetectsEveryGame: a real record of each game is read as that
// game when no game is named (the first Replay that accepts it wins, so
// each game's reader must refuse the others' records).
func TestViewerDetectsEveryGame(t *testing.T) {
	defs := testGames()
	for _, def := range defs {
		t.Run(def.Name, func(t *testing.T) {
			if def.Replay == nil {
				t.Skipf("%s has no Replay yet", def.Title)
			}
			path, _ := sampleRecord(t, def)
			data, _ := os.ReadFile(path)
			_, got, detected, err := readReplay(defs, "", filepath.Base(path), data)
			if err != nil || got.Name != def.Name || !detected {
				name := ""
				if got != nil {
					name = got.Name
				}
				t.Errorf("%s read as %q (%v)", path, name, err)
			}
		})
	}
}

// FuzzWebReplayRequest sends any file name and any upload to the viewer:
// never a panic or a 5xx, always a page.
func FuzzWebReplayRequest(f *testing.F) {
	root := f.TempDir()
	os.WriteFile(filepath.Join(root, "g.txt"), transcript(f), 0o644)
	v, err := New(Options{Records: []string{root}})
	if err != nil {
		f.Fatal(err)
	}
	h := v
	f.Add("g.txt", "", []byte("f5d6c3"))
	f.Add("../g.txt", "othello", []byte("B:a,W:b\n4,2,1\n"))
	f.Add("/etc/passwd", "geister", []byte{})
	f.Add("%00", "pdd", []byte("\xff\xfe"))
	f.Fuzz(func(t *testing.T, file, game string, data []byte) {
		q := url.Values{"file": {filepath.Join(root, file)}, "game": {game}}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", "/replay?"+q.Encode(), nil))
		if rec.Code >= 500 {
			t.Fatalf("GET %q: %d %s", file, rec.Code, rec.Body)
		}
		rec = httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("POST", "/replay?"+url.Values{"game": {game}, "name": {file}}.Encode(), bytes.NewReader(data)))
		if rec.Code >= 500 || (rec.Code != http.StatusSeeOther && !strings.Contains(rec.Body.String(), "<h1>")) {
			t.Fatalf("POST: %d %s", rec.Code, rec.Body)
		}
		if rec.Code == http.StatusSeeOther {
			// The replay page of the upload, and its frames.
			page := rec.Header().Get("Location")
			rec = httptest.NewRecorder()
			h.ServeHTTP(rec, httptest.NewRequest("GET", page, nil))
			if rec.Code != http.StatusOK {
				t.Fatalf("GET %s after the upload: %d %s", page, rec.Code, rec.Body)
			}
			d := pageData(t, rec.Body.String())
			for _, ply := range []int{0, len(d.Moves)} {
				rec = httptest.NewRecorder()
				h.ServeHTTP(rec, httptest.NewRequest("GET", d.Frame+"&ply="+fmt.Sprint(ply), nil))
				if rec.Code != http.StatusOK {
					t.Fatalf("frame %d: %d %s", ply, rec.Code, rec.Body)
				}
			}
		}
	})
}

// BenchmarkViewerUpdate measures the watcher's Update with four browsers
// following the game over real event streams: updates/s the game can send,
// and events/s the browsers get (fewer: each gets the latest frame, the
// ones it had no time for skipped).
func BenchmarkViewerUpdate(b *testing.B) {
	v, srv := testViewer(b, DefaultLimits())
	fs := othelloFrames(60)
	v.Begin(GameInfo{ID: "g", Game: "othello", Title: "bench"}, fs[0])
	const browsers = 4
	var got sync.WaitGroup
	counts := make([]int, browsers)
	for i := range browsers {
		er, done := browsertest.OpenEvents(b, srv.URL+"/events/g")
		defer done()
		browsertest.DecodeState[gameState](er)
		got.Add(1)
		go func() {
			defer got.Done()
			for {
				ev, data, ok := er.Next()
				if !ok || ev != "state" {
					return
				}
				counts[i]++
				if bytes.Contains(data, []byte(`"finished":true`)) {
					return
				}
			}
		}()
	}
	b.ResetTimer()
	for n := range b.N {
		f := fs[1+n%60]
		f.Ply = n + 1
		v.Update("g", f)
	}
	v.Finish("g", fs[60], "done", "")
	got.Wait()
	b.StopTimer()
	total := 0
	for _, c := range counts {
		total += c
	}
	sec := b.Elapsed().Seconds()
	b.ReportMetric(float64(b.N)/sec, "updates/s")
	b.ReportMetric(float64(total)/sec, "events/s")
}

// BenchmarkViewerEvent measures one browser's event stream, one update at a
// time: the update, the event written and read back (a frame of about 8 KB).
func BenchmarkViewerEvent(b *testing.B) {
	v, srv := testViewer(b, DefaultLimits())
	fs := othelloFrames(60)
	v.Begin(GameInfo{ID: "g", Game: "othello", Title: "bench"}, fs[0])
	er, done := browsertest.OpenEvents(b, srv.URL+"/events/g")
	defer done()
	browsertest.DecodeState[gameState](er)
	b.ResetTimer()
	for n := range b.N {
		f := fs[1+n%60]
		f.Ply = n + 1
		v.Update("g", f)
		if st := browsertest.DecodeState[gameState](er); st.Frame.Ply != n+1 {
			b.Fatalf("ply %d, want %d", st.Frame.Ply, n+1)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "events/s")
}

// testGames are Games(), by pointer, as the viewer keeps them.
func testGames() []*Game {
	games := Games()
	defs := make([]*Game, len(games))
	for i := range games {
		defs[i] = &games[i]
	}
	return defs
}

// TestViewerSpectatorsGetNoViews: while persons play a game (it has seats
// open), its players' views (one player's hidden information each) reach
// neither the live page nor its event stream; once it is over they do. A
// game of programs shows the views its host gives.
func TestViewerSpectatorsGetNoViews(t *testing.T) {
	v, srv := testViewer(t, DefaultLimits())
	info := GameInfo{ID: "g1", Game: "geister", Title: "Game 1", Players: [2]string{"a", "b"}, Seats: [2]string{"first", "second"}}
	f := Frame{Board: "<svg>spectator</svg>", Views: map[string]string{"first": "<svg>FIRSTSECRET</svg>", "second": "<svg>SECONDSECRET</svg>"}}
	v.Begin(GameInfo{ID: "bots", Game: "geister", Seats: info.Seats}, f)
	if _, body := get(t, srv.URL+"/live/bots"); !strings.Contains(body, "FIRSTSECRET") {
		t.Errorf("the live page of a game of programs hides the views its host gave:\n%s", body)
	}
	if _, err := v.OpenSeat(info.ID, 0); err != nil {
		t.Fatal(err)
	}
	v.Begin(info, f)
	f.Ply = 1
	v.Update(info.ID, f)
	if _, body := get(t, srv.URL+"/live/g1"); strings.Contains(body, "SECRET") || !strings.Contains(body, "spectator") {
		t.Errorf("the live page of a game in progress shows a player's view:\n%s", body)
	}
	er, done := browsertest.OpenEvents(t, srv.URL+"/events/g1")
	defer done()
	if st := browsertest.DecodeState[gameState](er); st.Frame.Views != nil || st.Frame.Board != f.Board {
		t.Errorf("the event stream of a game in progress carries views %q", st.Frame.Views)
	}
	v.Finish(info.ID, f, "a wins", "")
	if st := browsertest.DecodeState[gameState](er); !st.Finished || st.Frame.Views["first"] != f.Views["first"] {
		t.Errorf("the finished game's views: %q", st.Frame.Views)
	}
}

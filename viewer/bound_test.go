package viewer

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"mime/multipart"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/botarena/botarena/geister"
	"github.com/botarena/botarena/othello"
	"github.com/botarena/botarena/pdd"
	"github.com/botarena/botarena/record"
)

// longDarkchess is a legal dark chess board.txt of n plies, the longest a
// replay shows when n is dcMaxReplayPlies: two flips and a capture open a
// square beside a red rook and a black rook, far apart, which then step
// back and forth. Every ply is legal; the draw rules would have ended the
// game long before, so no preset's result fits and the replay shows the
// plies as they are.
func longDarkchess(n int) []byte {
	var b bytes.Buffer
	b.WriteString("* 1:16pm Jan 13, 2022\n* a vs b\n* 1 2 2 2 2 2 5 1 2 2 2 2 2 5\n")
	for range 8 {
		b.WriteString("* X X X X\n")
	}
	b.WriteString("* first 0\n* time 900\n")
	plies := []string{"a1(R)", "a2(p)", "a1-a2", "d8(r)", "d7(P)", "d8-d7"}
	for i := 0; len(plies) < n; i++ {
		plies = append(plies, [2]string{"a2-a1", "a1-a2"}[i%2])
		if len(plies) < n {
			plies = append(plies, [2]string{"d7-d8", "d8-d7"}[i%2])
		}
	}
	plies = plies[:n]
	for i := 0; i < len(plies); i += 2 {
		fmt.Fprintf(&b, "* %d. %s", i/2+1, plies[i])
		if i+1 < len(plies) {
			b.WriteString(" " + plies[i+1])
		}
		b.WriteString("\n")
	}
	return b.Bytes()
}

// longGeister is an NTPU board.txt of n plies (no ply limit): each side's
// ghost A steps forward and back.
func longGeister(t testing.TB, n int) []byte {
	t.Helper()
	start, err := geister.Start(geister.RedsAt(0), geister.RedsAt(0))
	if err != nil {
		t.Fatal(err)
	}
	g := geister.NewGame(geister.Rules{Name: "long", IllegalMove: geister.Lose}, start)
	for i := 0; i < n; i++ {
		d := geister.North
		if i/2%2 == 1 {
			d = geister.South
		}
		if err := g.Play(geister.NewMove(geister.A, d)); err != nil {
			t.Fatalf("ply %d: %v", i+1, err)
		}
	}
	b, err := record.NewGeisterBoard(g, "a", "b")
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := record.WriteGeisterBoard(&out, b); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// longOthello is a whole Othello game from the standard start as a plain
// move list, each ply the last legal move.
func longOthello() []byte {
	p := othello.Standard.Start
	var b strings.Builder
	for !p.IsOver() {
		ms := p.AppendLegalMoves(nil)
		if p.MustPass() {
			b.WriteString("pa")
			p, _ = p.Play(othello.Pass)
			continue
		}
		m := ms[len(ms)-1]
		b.WriteString(m.String())
		p, _ = p.Play(m)
	}
	return []byte(b.String())
}

// longPDD is the stepLog.txt of a whole Course game, each ply the first
// legal move (a PDD game lasts some 50 plies: the board fills).
func longPDD(t testing.TB) []byte {
	t.Helper()
	g := pdd.NewGame(pdd.Course)
	for !g.IsOver() && g.Ply() < 2000 {
		ms := g.Position().AppendLegalMoves(nil)
		if len(ms) == 0 {
			break
		}
		if err := g.Play(ms[0]); err != nil {
			t.Fatal(err)
		}
	}
	var out bytes.Buffer
	if err := record.WritePDDStepLog(&out, record.NewPDDStepLog(g)); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// longRecords are, per game, the longest record the test makes, and its
// plies.
func longRecords(t testing.TB) map[string][]byte {
	return map[string][]byte{
		"darkchess": longDarkchess(dcMaxReplayPlies),
		"geister":   longGeister(t, geisterMaxReplayPlies),
		"othello":   longOthello(),
		"pdd":       longPDD(t),
	}
}

// realViewer serves a viewer of every game on a test server.
func realViewer(t testing.TB, limits Limits, dirs ...string) (*Viewer, string) {
	t.Helper()
	v, err := New(Options{Records: dirs, Limits: limits})
	if err != nil {
		t.Fatal(err)
	}
	srv := newTestServer(t, v)
	return v, srv
}

// newTestServer serves v on 127.0.0.1 and returns its base URL.
func newTestServer(t testing.TB, v *Viewer) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: v}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return "http://" + ln.Addr().String()
}

// TestViewerReplayPageBound: the replay page of the longest record of each
// game weighs at most maxReplayPageBytes (it lists the moves; no picture),
// and the frames of its first and last plies come one at a time. On the
// old viewer, which put every picture in the page, dark chess's was 150 MB.
func TestViewerReplayPageBound(t *testing.T) {
	_, base := realViewer(t, DefaultLimits())
	for game, data := range longRecords(t) {
		t.Run(game, func(t *testing.T) {
			code, body := upload(t, base, game+"-long.txt", game, data)
			if code != http.StatusOK {
				t.Fatalf("upload: %d\n%.2000s", code, body)
			}
			d := pageData(t, body)
			t.Logf("%s: a record of %d bytes, %d plies: a page of %d bytes", game, len(data), len(d.Moves), len(body))
			if len(body) > maxReplayPageBytes {
				t.Errorf("the page is %d bytes, more than %d", len(body), maxReplayPageBytes)
			}
			if (game == "darkchess" || game == "geister") && len(d.Moves) < 1000 || len(d.Moves) < 40 {
				t.Errorf("only %d plies: not a long record", len(d.Moves))
			}
			for _, ply := range []int{0, len(d.Moves) / 2, len(d.Moves)} {
				code, f := getFrame(t, base, d, ply, "")
				if code != http.StatusOK || f.Ply != ply || !strings.HasPrefix(f.Board, "<svg") || f.Plies != len(d.Moves) {
					t.Errorf("frame %d: %d %q", ply, code, f.Error)
				}
				if ply > 0 && f.Move != d.Moves[ply-1] {
					t.Errorf("frame %d: move %q, the page says %q", ply, f.Move, d.Moves[ply-1])
				}
			}
		})
	}
}

// TestViewerUploadMemory: eight uploads at once of the longest dark chess
// record a replay shows allocate a few MB each, not the hundreds of MB a
// page of every picture took, and each gets a small page.
func TestViewerUploadMemory(t *testing.T) {
	_, base := realViewer(t, DefaultLimits())
	data := longDarkchess(dcMaxReplayPlies)
	const uploads = 8
	// The records differ (by the players' names), so that none is read
	// from the store.
	records := make([][]byte, uploads)
	for i := range records {
		records[i] = bytes.Replace(data, []byte("* a vs b"), fmt.Appendf(nil, "* a%d vs b", i), 1)
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	var wg sync.WaitGroup
	sizes := make([]int, uploads)
	codes := make([]int, uploads)
	for i := range uploads {
		wg.Go(func() {
			codes[i], sizes[i] = uploadSize(base, "long.txt", "darkchess", records[i])
		})
	}
	wg.Wait()
	runtime.ReadMemStats(&after)
	perUpload := (after.TotalAlloc - before.TotalAlloc) / uploads
	t.Logf("%d uploads of %d bytes at once: pages of %v bytes; %d MB allocated per upload", uploads, len(data), sizes, perUpload>>20)
	for i := range uploads {
		if codes[i] != http.StatusOK && codes[i] != http.StatusServiceUnavailable || sizes[i] > maxReplayPageBytes {
			t.Errorf("upload %d: %d, %d bytes", i, codes[i], sizes[i])
		}
	}
	if perUpload > 32<<20 {
		t.Errorf("%d MB allocated per upload", perUpload>>20)
	}
}

// uploadSize posts data as the upload form does, following the redirect,
// and returns the status and the page's size.
func uploadSize(base, name, game string, data []byte) (int, int) {
	var b bytes.Buffer
	mw := multipart.NewWriter(&b)
	mw.WriteField("game", game)
	fw, _ := mw.CreateFormFile("file", name)
	fw.Write(data)
	mw.Close()
	resp, err := http.Post(base+"/replay", mw.FormDataContentType(), &b)
	if err != nil {
		return 0, 0
	}
	defer resp.Body.Close()
	n, _ := io.Copy(io.Discard, resp.Body)
	return resp.StatusCode, int(n)
}

// heldUpload is an upload that holds a turn of the heavy requests.
type heldUpload struct {
	conn net.Conn
	br   *bufio.Reader
}

// holdHeavy starts an upload that takes a turn and keeps it: its body is
// announced with "Expect: 100-continue", and the viewer asks for it (sends
// "100 Continue") only once the handler has its turn and reads. It returns
// once the turn is taken.
func holdHeavy(t *testing.T, base string) *heldUpload {
	t.Helper()
	u, _ := url.Parse(base)
	conn, err := net.Dial("tcp", u.Host)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	fmt.Fprintf(conn, "POST /replay?name=x.txt HTTP/1.1\r\nHost: %s\r\nContent-Type: text/plain\r\nContent-Length: 10\r\nExpect: 100-continue\r\n\r\n", u.Host)
	br := bufio.NewReader(conn)
	line, err := br.ReadString('\n')
	if err != nil || !strings.Contains(line, "100 Continue") {
		t.Fatalf("the held upload: %q, %v", line, err)
	}
	if _, err := br.ReadString('\n'); err != nil { // the blank line after the 100
		t.Fatal(err)
	}
	return &heldUpload{conn: conn, br: br}
}

// finish sends the held upload's body (no record) and reads the answer:
// the handler has given its turn back once the answer is sent.
func (h *heldUpload) finish(t *testing.T) {
	t.Helper()
	h.conn.Write([]byte("not a rec\n"))
	resp, err := http.ReadResponse(h.br, nil)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnprocessableEntity {
		t.Errorf("the held upload: %s", resp.Status)
	}
}

// TestViewerHeavyBound: with MaxHeavy requests reading a record, another
// replay page, upload or frame gets 503 saying the viewer is busy (and the
// index lists no file it has not checked); once one ends, they are served.
func TestViewerHeavyBound(t *testing.T) {
	dir := t.TempDir()
	rec := filepath.Join(dir, "g.txt")
	os.WriteFile(rec, transcript(t), 0o644)
	limits := DefaultLimits()
	limits.MaxHeavy, limits.HeavyWait = 2, 0
	_, base := realViewer(t, limits, dir)
	page := base + replayLink(rec, "othello")
	code, body := get(t, page)
	if code != http.StatusOK {
		t.Fatalf("replay: %d", code)
	}
	d := pageData(t, body)
	held := []*heldUpload{holdHeavy(t, base), holdHeavy(t, base)}
	if code, body := get(t, page); code != http.StatusServiceUnavailable || !strings.Contains(body, "already reading or drawing 2 replays") {
		t.Errorf("replay page while busy: %d\n%s", code, body)
	}
	if code, f := getFrame(t, base, d, 3, ""); code != http.StatusServiceUnavailable || !strings.Contains(f.Error, "busy") {
		t.Errorf("frame while busy: %d %q", code, f.Error)
	}
	if code, _ := upload(t, base, "g.txt", "", transcript(t)); code != http.StatusServiceUnavailable {
		t.Errorf("upload while busy: %d", code)
	}
	if code, body := get(t, base+"/"); code != http.StatusOK || strings.Contains(body, ">g.txt<") || !strings.Contains(body, "busy") {
		t.Errorf("index while busy: %d, lists the unchecked file or says nothing", code)
	}
	// Static files are not heavy.
	if code, _ := get(t, base+"/static/replay.js"); code != http.StatusOK {
		t.Errorf("static while busy: %d", code)
	}
	held[0].finish(t)
	if code, f := getFrame(t, base, d, 3, ""); code != http.StatusOK || f.Ply != 3 {
		t.Errorf("frame once a turn is free: %d %q", code, f.Error)
	}
	if code, body := get(t, base+"/"); code != http.StatusOK || !strings.Contains(body, ">g.txt<") {
		t.Errorf("index once a turn is free: %d, g.txt not listed", code)
	}
	held[1].finish(t)
}

// postUpload uploads data as name and returns the status and the URL of
// the page it was sent to.
func postUpload(t testing.TB, base, name string, data []byte) (int, string) {
	t.Helper()
	resp, err := http.Post(base+"/replay?name="+url.QueryEscape(name), "text/plain", bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode, resp.Request.URL.String()
}

// othelloPrefix is the move list of the first n plies of longOthello.
func othelloPrefix(n int) []byte { return longOthello()[:2*n] }

// TestViewerUploadsKept: the viewer keeps at most MaxUploads uploads and
// MaxUploadBytes of them, the oldest going first: the page of one gone says
// so (404), its frames too; the same record uploaded again is kept once; at
// most MaxParsed records are kept read.
func TestViewerUploadsKept(t *testing.T) {
	limits := DefaultLimits()
	limits.MaxUploads, limits.MaxParsed = 3, 2
	v, base := realViewer(t, limits)
	var pages []string
	for n := 1; n <= 4; n++ {
		code, page := postUpload(t, base, fmt.Sprint("u", n, ".txt"), othelloPrefix(n))
		if code != http.StatusOK || !strings.Contains(page, "/replay?upload=") {
			t.Fatalf("upload %d: %d %s", n, code, page)
		}
		pages = append(pages, page)
	}
	code, body := get(t, pages[0])
	if code != http.StatusNotFound || !strings.Contains(body, "no longer kept: the viewer keeps the last 3 uploads") {
		t.Errorf("the oldest upload: %d\n%s", code, body)
	}
	code, body = get(t, strings.Replace(pages[0], "/replay?", "/replay/frame?ply=0&", 1))
	if code != http.StatusNotFound || !strings.Contains(body, "no longer kept") {
		t.Errorf("a frame of the oldest upload: %d %s", code, body)
	}
	for _, p := range pages[1:] {
		if code, body := get(t, p); code != http.StatusOK {
			t.Errorf("%s: %d\n%s", p, code, body)
		}
	}
	// The same record again: kept once, now the newest.
	if code, page := postUpload(t, base, "again.txt", othelloPrefix(2)); code != http.StatusOK || page != pages[1] {
		t.Errorf("upload again: %d %s, want %s", code, page, pages[1])
	}
	postUpload(t, base, "u5.txt", othelloPrefix(5))
	if code, _ := get(t, pages[2]); code != http.StatusNotFound {
		t.Errorf("upload 3, now the oldest, is kept")
	}
	if code, body := get(t, pages[1]); code != http.StatusOK || !strings.Contains(body, "again.txt") {
		t.Errorf("upload 2, uploaded again: %d", code)
	}
	v.store.mu.Lock()
	n, parsed := len(v.store.uploads), len(v.store.parsed)
	v.store.mu.Unlock()
	if n != 3 || parsed > 2 {
		t.Errorf("%d uploads kept, %d records read kept; want 3 and at most 2", n, parsed)
	}

	// The bytes: two records' worth.
	limits = DefaultLimits()
	limits.MaxUploadBytes = int64(len(othelloPrefix(10)) + len(othelloPrefix(11)))
	_, base = realViewer(t, limits)
	_, p10 := postUpload(t, base, "a.txt", othelloPrefix(10))
	_, p11 := postUpload(t, base, "b.txt", othelloPrefix(11))
	if code, _ := get(t, p10); code != http.StatusOK {
		t.Errorf("two uploads within the bytes: the first is gone")
	}
	postUpload(t, base, "c.txt", othelloPrefix(3))
	if code, _ := get(t, p10); code != http.StatusNotFound {
		t.Errorf("past the bytes: the oldest is kept")
	}
	if code, _ := get(t, p11); code != http.StatusOK {
		t.Errorf("past the bytes: the second is gone")
	}
}

// TestViewerIndexListsReplayable: the index lists the record files a game
// reads, with the game, and leaves out the others (junk, a PDD bridge.txt,
// which alone cannot be replayed, an empty file); it reads at most
// MaxCheckBytes per listing, saying so when files are left unchecked.
func TestViewerIndexListsReplayable(t *testing.T) {
	dir := t.TempDir()
	files := map[string][]byte{
		"othello.txt":    transcript(t),
		"moves.txt":      othelloPrefix(20),
		"dark/board.txt": longDarkchess(40),
		"junk.txt":       []byte("not a record\n"),
		"engine.log":     bytes.Repeat([]byte("thinking...\n"), 100),
		"pdd/bridge.txt": []byte("0 0 0\n"),
		"empty.txt":      nil,
	}
	for name, data := range files {
		path := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(path), 0o755)
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	_, base := realViewer(t, DefaultLimits(), dir)
	code, body := get(t, base+"/")
	if code != http.StatusOK {
		t.Fatalf("index: %d", code)
	}
	for _, want := range []string{">othello.txt</a></td><td>Othello<", ">moves.txt</a></td><td>Othello<", ">dark/board.txt</a></td><td>Chinese dark chess<",
		`href="/replay?file=` + url.QueryEscape(filepath.Join(dir, "dark", "board.txt")) + `&amp;game=darkchess"`} {
		if !strings.Contains(body, want) {
			t.Errorf("the index lacks %s", want)
		}
	}
	for _, not := range []string{"junk.txt", "engine.log", "pdd/bridge.txt", "empty.txt"} {
		if strings.Contains(body, ">"+not+"</a>") {
			t.Errorf("the index lists %s, which no game replays", not)
		}
	}
	// Every file listed replays.
	for _, m := range regexpAll(`href="(/replay\?file=[^"]+)"`, body) {
		if code, _ := get(t, base+strings.ReplaceAll(m, "&amp;", "&")); code != http.StatusOK {
			t.Errorf("%s: %d", m, code)
		}
	}
	// A listing reads at most MaxCheckBytes.
	limits := DefaultLimits()
	limits.MaxCheckBytes = int64(len(files["othello.txt"]))
	_, base = realViewer(t, limits, dir)
	_, body = get(t, base+"/")
	if !strings.Contains(body, "files not checked yet are left out") {
		t.Errorf("the index does not say files were left unchecked:\n%s", body)
	}
}

// regexpAll returns the first group of every match of expr in s.
func regexpAll(expr, s string) []string {
	var out []string
	for _, m := range regexp.MustCompile(expr).FindAllStringSubmatch(s, -1) {
		out = append(out, m[1])
	}
	return out
}

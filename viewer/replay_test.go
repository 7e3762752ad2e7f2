package viewer

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/botarena/botarena/darkchess"
	"github.com/botarena/botarena/internal/sharedtest"
	"github.com/botarena/botarena/record"
)

// TestReplayGeister replays every Geister record of the test data (the Java
// server's logs) and checks that the other files are errors, not panics.
func TestReplayGeister(t *testing.T) {
	dir := sharedtest.Dir(t, "geister")
	files, _ := filepath.Glob(filepath.Join(dir, "*"))
	if len(files) == 0 {
		t.Fatal("no test data in " + dir)
	}
	records := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Base(f)
		rp, err := ReplayGeister(name, data)
		if !strings.HasPrefix(name, "server-log-") {
			if err == nil {
				t.Errorf("%s: not a record, but it replays", name)
			}
			continue
		}
		records++
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		l, _ := record.ReadGeisterServerLog(bytes.NewReader(data))
		if len(rp.frames()) != len(l.Moves)+1 {
			t.Errorf("%s: %d frames for %d moves", name, len(rp.frames()), len(l.Moves))
		}
		for i, f := range rp.frames() {
			if f.Ply != i || f.Board == "" || len(f.Views) != 2 || (i > 0) != (f.Move != "") {
				t.Fatalf("%s: frame %d: ply %d move %q", name, i, f.Ply, f.Move)
			}
		}
		if last := rp.frames()[len(rp.frames())-1]; last.ToMove != -1 || rp.Result == "" {
			t.Errorf("%s: last frame %q, result %q", name, last.Status, rp.Result)
		}
	}
	if records != 3 {
		t.Errorf("%d records replayed, want the 3 server logs", records)
	}

	// A record too long to draw is refused.
	var long bytes.Buffer
	for i := range geisterMaxReplayPlies/2 + 1 {
		fmt.Fprintf(&long, "* %d. %s\n", i+1, []string{"A,NORTH A,NORTH", "A,SOUTH A,SOUTH"}[i%2])
	}
	if _, err := ReplayGeister("long.txt", long.Bytes()); err == nil || !strings.Contains(err.Error(), "plies, more than") {
		t.Errorf("a record of %d plies: %v", geisterMaxReplayPlies+1, err)
	}
}

// FuzzGeisterReplay: no input makes Replay panic, and what it accepts has a
// frame per ply.
func FuzzGeisterReplay(f *testing.F) {
	dir, _ := sharedtest.Lookup("geister")
	files, _ := filepath.Glob(filepath.Join(dir, "server-log-*"))
	for _, path := range files {
		if data, err := os.ReadFile(path); err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte("* a1 vs a2\n* 4 4 4 4\n* - h g f e -\n* - d c b a -\n* - - - - - -\n* - - - - - -\n* - A B C D -\n* - E F G H -\n* time 600\n* 1. A,WEST A,NORTH\n* red EFGH bcde\n"))
	f.Add([]byte("player=0,SET:ABCD\nplayer=1,SET:EFGH\nplayer=0,MOV:A,N\n"))
	f.Add([]byte("* 1. A,WEST\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		rp, err := ReplayGeister("fuzz.txt", data)
		if err != nil {
			return
		}
		frames := rp.frames()
		if len(frames) == 0 {
			t.Fatal("a replay without frames")
		}
		for i, f := range frames[1:] {
			if f.Ply != frames[i].Ply+1 {
				t.Fatalf("frame %d: ply %d after %d", i+1, f.Ply, frames[i].Ply)
			}
		}
	})
}

// TestDarkchessReplayTestdata: every variant of board.txt replays, one frame
// per ply, and the finished ones end with their result.
func TestDarkchessReplayTestdata(t *testing.T) {
	files := dcReplayFiles(t)
	variants := map[string]int{}
	for _, p := range files {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		b, err := record.ReadDarkChessBoard(bytes.NewReader(data))
		if err != nil {
			continue // not a board.txt (a .full.txt's tail is still one)
		}
		rp, err := ReplayDarkChess(filepath.Base(p), data)
		if err != nil {
			t.Errorf("%s: %v", p, err)
			continue
		}
		if len(rp.frames()) != len(b.Plies)+1 || rp.Game != "darkchess" || rp.Players != [2]string{b.First, b.Second} {
			t.Errorf("%s: %d frames for %d plies, players %q", p, len(rp.frames()), len(b.Plies), rp.Players)
		}
		if b.Result != nil && rp.Result == "" {
			t.Errorf("%s: no result", p)
		}
		last := rp.frames()[len(rp.frames())-1]
		if b.Result != nil && last.ToMove != -1 {
			t.Errorf("%s: the last frame has a player to move", p)
		}
		variants[dcVariant(b, data)]++
	}
	t.Logf("replayed %d files: %v", len(files), variants)
	for _, v := range []string{"2021", "2021 snapshot", "2017 server", "2017 client", "2019 client"} {
		if variants[v] == 0 {
			t.Errorf("no %s board.txt replayed", v)
		}
	}
	// One frame drawn in full.
	rp, err := ReplayDarkChess("x", dcRead(t, dcTestdata(t, "records/alsov4/85_Draw_PositionRepetitionDraw(3-4).txt")))
	if err != nil {
		t.Fatal(err)
	}
	if rp.Result != "draw: PositionRepetitionDraw,3,4" || rp.frames()[1].Move != "b8(C)" || rp.frames()[28].ToMove != -1 {
		t.Errorf("replay: %q, %q", rp.Result, rp.frames()[1].Move)
	}
}

// FuzzDarkchessReplay: no input makes the replay panic, and a replay has
// a frame per ply.
func FuzzDarkchessReplay(f *testing.F) {
	for _, rel := range []string{
		"records/alsov4/85_Draw_PositionRepetitionDraw(3-4).txt",
		"records/alsov4/100_ai_wins_TimeOut.txt",
		"legacy/2017-linux-client-3.1/CreateRoom_Search_board.txt",
		"legacy/2019-windows-competition-client/CreateRoom_Search_board.txt",
	} {
		if path, ok := sharedtest.Lookup("darkchess", filepath.FromSlash(rel)); !ok {
			continue
		} else if data, err := os.ReadFile(path); err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte("* x\n* a vs b\n* 1 2 2 2 2 2 5 1 2 2 2 2 2 5\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		rp, err := ReplayDarkChess("fuzz", data)
		if err != nil {
			return
		}
		if len(rp.frames()) == 0 {
			t.Fatal("a replay with no frame")
		}
		for _, fr := range rp.frames() {
			if !strings.HasPrefix(fr.Board, "<svg") {
				t.Fatal("a frame with no board")
			}
		}
	})
}

// TestDarkchessReplayTooLong: a record longer than any game under the
// presets is refused, not drawn board by board.
func TestDarkchessReplayTooLong(t *testing.T) {
	start, err := darkchess.ParsePosition("k---/----/----/----/----/----/----/K--- r 00000000000000 0")
	if err != nil {
		t.Fatal(err)
	}
	b := &record.DarkChessBoard{Date: "x", First: "a", Second: "b", Start: start, FirstColor: darkchess.Red, Time: 900}
	cycle := []string{"a1-b1", "a8-b8", "b1-a1", "b8-a8"}
	for i := range dcMaxReplayPlies + 1 {
		b.Plies = append(b.Plies, dcMustPly(t, cycle[i%4]))
	}
	var buf bytes.Buffer
	if err := record.WriteDarkChessBoard(&buf, b, record.DarkChessReadMode); err != nil {
		t.Fatal(err)
	}
	if _, err := ReplayDarkChess("long.txt", buf.Bytes()); err == nil || !strings.Contains(err.Error(), "at most") {
		t.Errorf("a record of %d plies: %v", len(b.Plies), err)
	}
	b.Plies = b.Plies[:8]
	buf.Reset()
	if err := record.WriteDarkChessBoard(&buf, b, record.DarkChessReadMode); err != nil {
		t.Fatal(err)
	}
	if rp, err := ReplayDarkChess("short.txt", buf.Bytes()); err != nil || len(rp.frames()) != 9 {
		t.Errorf("a record of 8 plies: %v", err)
	}
}

// Replay reads the fixtures: the course's example stepLog (a frame per line) and each
// chess.txt (one frame); bridge.txt alone and junk are refused.
func TestPDDReplayFixtures(t *testing.T) {
	rp, err := ReplayPDD("stepLog.txt", []byte(pddFixture(t, "seed-stepLog.txt")))
	if err != nil {
		t.Fatal(err)
	}
	if rp.Game != "pdd" || len(rp.frames()) != 6 || rp.frames()[2].Move != "B_2_Change_2,0_2,2" || rp.frames()[0].ToMove != 0 || rp.frames()[5].ToMove != 1 {
		t.Errorf("seed stepLog: %d frames, %+v", len(rp.frames()), rp.frames()[2])
	}
	for _, f := range []string{"F1", "F2", "M1", "S1", "S3"} {
		rp, err := ReplayPDD("chess.txt", []byte(pddFixture(t, f+"/chess.txt")))
		if err != nil || len(rp.frames()) != 1 || !strings.Contains(rp.frames()[0].Board, `class="tile`) {
			t.Errorf("%s/chess.txt: %v, %d frames", f, err, len(rp.frames()))
		}
		if _, err := ReplayPDD("bridge.txt", []byte(pddFixture(t, f+"/bridge.txt"))); err == nil || !strings.Contains(err.Error(), "whose bridges") {
			t.Errorf("%s/bridge.txt: %v", f, err)
		}
	}
	if rp, err := ReplayPDD("stepLog.txt", nil); err != nil || len(rp.frames()) != 1 {
		t.Errorf("empty stepLog: %v, %+v", err, rp)
	}
	for _, junk := range []string{"hello", "W_1_Chess_0,0_0,0\n", "W_1_Chess_0,0_1,0\nW_2_Chess_2,0_3,0\n", "{}", "{\"rules\":\"blitz\"}"} {
		if _, err := ReplayPDD("x", []byte(junk)); err == nil {
			t.Errorf("%q: no error", junk)
		}
	}
}

func FuzzPDDReplay(f *testing.F) {
	for _, name := range []string{"seed-stepLog.txt", "F1/chess.txt", "S1/chess.txt", "F2/bridge.txt"} {
		f.Add(filepath.Base(name), []byte(pddFixture(f, name)))
	}
	f.Add("result.json", []byte(`{"rules":"course","programs":{"W":"a","B":"b"},"winner":"W","reason":"score","score":{"W":{"points":1,"islands":1,"bridges":0},"B":{"points":0,"islands":0,"bridges":0}},"plies":1,"skips":[],"moves":[{"turn":1,"color":"W","action":"Chess","p1":"0,0","p2":"1,0","elapsed_ms":3}]}`))
	f.Add("stepLog.txt", []byte("W_1_Chess_0,0_1,0\r\nB_2_Change_0,0_1,0\r\n"))
	f.Fuzz(func(t *testing.T, name string, data []byte) {
		rp, err := ReplayPDD(name, data)
		if err != nil {
			return
		}
		if len(rp.frames()) == 0 {
			t.Fatal("no frames")
		}
		for _, fr := range rp.frames() {
			if !strings.HasPrefix(fr.Board, "<svg") || !strings.HasSuffix(fr.Board, "</svg>") {
				t.Fatal("a frame with no board")
			}
		}
	})
}

// dcReplayFiles returns the board.txt files to replay: every legacy one
// and every 2021 record in the mgtp folder, one folder of the 2021 records
// and, with -short, a sample of the rest.
func dcReplayFiles(t testing.TB) []string {
	t.Helper()
	root := dcTestdata(t, "")
	var files []string
	n := 0
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".txt") {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		switch {
		case strings.HasSuffix(p, "Log_record.txt"), strings.HasSuffix(p, "competition-result.txt"), strings.HasSuffix(p, "README.txt"):
			return nil
		}
		// A sample: every kind of file is in it.
		n++
		switch {
		case strings.HasPrefix(rel, "records/") && !strings.Contains(rel, "temp"):
			if n%200 != 0 {
				return nil
			}
		case n%4 != 0 && !strings.Contains(rel, "2019"):
			return nil
		}
		files = append(files, p)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// dcVariant names the layout of a board.txt.
func dcVariant(b *record.DarkChessBoard, data []byte) string {
	crlf := bytes.Contains(data, []byte("\r\n"))
	switch {
	case b.Banner == "INITIAL":
		return "2021"
	case b.Banner != "":
		return "2021 snapshot"
	case crlf && b.Time >= 100000:
		return "2019 client"
	case crlf:
		return "2017 server"
	}
	return "2017 client"
}

// dcMustPly reads a ply, or fails t.
func dcMustPly(t testing.TB, s string) darkchess.Ply {
	t.Helper()
	p, err := darkchess.ParsePly(s)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// dcTestdata returns the path of a file of the shared dark chess test data,
// or skips the test when it is absent.
func dcTestdata(t testing.TB, rel string) string {
	t.Helper()
	return sharedtest.Dir(t, "darkchess", filepath.FromSlash(rel))
}

// dcRead returns the contents of a file, or fails t.
func dcRead(t testing.TB, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// dcCheckSVG fails t unless s is one well-formed <svg> element with a
// viewBox, no script and no external reference.
func dcCheckSVG(t testing.TB, s string) {
	t.Helper()
	if !strings.HasPrefix(s, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="`) || !strings.HasSuffix(s, "</svg>") ||
		strings.Contains(s, "<script") || strings.Contains(s, "href") {
		t.Fatalf("not a self-contained svg: %.200s", s)
	}
	d := xml.NewDecoder(strings.NewReader(s))
	for {
		if _, err := d.Token(); err == io.EOF {
			break
		} else if err != nil {
			t.Fatalf("svg: %v", err)
		}
	}
}

// pddFixture reads a golden fixture.
func pddFixture(t testing.TB, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "pdd", "testdata", "fixtures", filepath.FromSlash(name)))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

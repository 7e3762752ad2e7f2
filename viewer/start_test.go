package viewer

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/botarena/botarena/darkchess"
	"github.com/botarena/botarena/geister"
	"github.com/botarena/botarena/internal/sharedtest"
	"github.com/botarena/botarena/othello"
	"github.com/botarena/botarena/pdd"
	"github.com/botarena/botarena/record"
)

// arenaRecord reads a file of the arena records in testdata.
func arenaRecord(t testing.TB, rel string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "arena-records", filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// startCase is a record whose start files are checked: read reads a start
// file back as the -start of its game does and returns the plies it holds.
type startCase struct {
	name   string
	data   []byte
	replay func(string, []byte) (Replay, error)
	read   func(data []byte) (plies int, err error)
}

// startCases are a record of each game and format the replay page saves
// from, each with the reader of its game's -start.
func startCases(t *testing.T) []startCase {
	othelloRead := func(data []byte) (int, error) {
		// As -start does: a transcript from the TUS start, else a move list.
		if tr, err := record.ReadOthelloTranscript(bytes.NewReader(data), othello.TUS.Start); err == nil {
			g, err := tr.Game()
			if err != nil {
				return 0, err
			}
			return g.Ply(), nil
		}
		g, err := record.ParseOthelloMoveList(strings.TrimSpace(string(data)))
		if err != nil {
			return 0, err
		}
		return g.Ply(), nil
	}
	geisterRead := func(data []byte) (int, error) {
		b, err := record.ReadGeisterBoard(bytes.NewReader(data))
		if err != nil {
			return 0, err
		}
		if b.Result.Reason != geister.Unfinished {
			return 0, fmt.Errorf("a result line: %v", b.Result)
		}
		if b.ColorsKnown() {
			_, err = b.StartPosition([2]geister.Reds{})
		} else {
			_, err = b.MidGame(len(b.Moves))
		}
		return len(b.Moves), err
	}
	darkchessRead := func(data []byte) (int, error) {
		b, err := record.ReadDarkChessBoard(bytes.NewReader(data))
		if err != nil {
			return 0, err
		}
		if b.Result != nil {
			return 0, fmt.Errorf("a result line: %+v", b.Result)
		}
		g, err := b.Game(darkchess.NTU2021, nil)
		if err != nil {
			return 0, err
		}
		return g.Ply(), nil
	}
	pddRead := func(data []byte) (int, error) {
		l, err := record.ReadPDDStepLog(bytes.NewReader(data), record.PDDLenient)
		if err != nil {
			return 0, err
		}
		if _, err := record.ReplayPDDStepLog(l, pdd.Course); err != nil {
			return 0, err
		}
		return len(l.Steps), nil
	}
	cases := []startCase{
		{"gamelog_arena.txt", arenaRecord(t, "othello-20261127-132141/001-alphabeta-vs-random/gamelog_arena.txt"), ReplayOthello, othelloRead},
		{"moves.txt", arenaRecord(t, "othello-20261127-132141/002-random-vs-alphabeta/moves.txt"), ReplayOthello, othelloRead},
		{"board.txt", arenaRecord(t, "darkchess-20261127-132142/001-greedy-vs-random/board.txt"), ReplayDarkChess, darkchessRead},
		{"stepLog.txt", arenaRecord(t, "pdd-20261127-132129/001-greedy-vs-random/stepLog.txt"), ReplayPDD, pddRead},
		{"result.json", arenaRecord(t, "pdd-20261127-132129/002-random-vs-greedy/result.json"), ReplayPDD, pddRead},
	}
	// Geister: the board.txt of a game played here (the first legal
	// move, or the last, in turn), and a Java server log of the shared
	// test data with the board.txt of its game.
	start, err := geister.Start(geister.RedsAt(0), geister.RedsAt(5))
	if err != nil {
		t.Fatal(err)
	}
	g := geister.NewGame(geister.GAT, start)
	for i := 0; i < 40 && !g.IsOver(); i++ {
		ms := g.Position().AppendLegalMoves(nil)
		if err := g.Play(ms[(i%2)*(len(ms)-1)]); err != nil {
			t.Fatal(err)
		}
	}
	played, err := record.NewGeisterBoard(g, "alice", "bob")
	if err != nil {
		t.Fatal(err)
	}
	playedData, err := record.AppendGeisterBoard(nil, played)
	if err != nil {
		t.Fatal(err)
	}
	cases = append(cases, startCase{"played-board.txt", playedData, ReplayGeister, geisterRead})
	// Geister: a Java server log, and the board.txt of its game.
	if dir, ok := sharedtest.Lookup("geister"); ok {
		logs, _ := filepath.Glob(filepath.Join(dir, "server-log-*"))
		for _, f := range logs[:min(len(logs), 1)] {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			l, err := record.ReadGeisterServerLog(bytes.NewReader(data))
			if err != nil {
				t.Fatal(err)
			}
			g, err := l.Game()
			if err != nil {
				t.Fatal(err)
			}
			b, err := record.NewGeisterBoard(g, "alice", "bob")
			if err != nil {
				t.Fatal(err)
			}
			board, err := record.AppendGeisterBoard(nil, b)
			if err != nil {
				t.Fatal(err)
			}
			cases = append(cases, startCase{filepath.Base(f), data, ReplayGeister, geisterRead},
				startCase{"board.txt", board, ReplayGeister, geisterRead})
		}
	} else {
		t.Log("no shared Geister test data: the Geister start files are not checked")
	}
	return cases
}

// TestReplayStartRoundTrip: the start file of every game at the start, the
// first ply, the middle and the last reads back as the game's -start reads
// it, with the plies cut there, and replays to the same picture as the
// record at that ply. A ply where the game is over is refused, saying so;
// one out of range too.
func TestReplayStartRoundTrip(t *testing.T) {
	for _, c := range startCases(t) {
		t.Run(c.name, func(t *testing.T) {
			rp, err := c.replay(c.name, c.data)
			if err != nil {
				t.Fatal(err)
			}
			n := len(rp.Moves)
			if n < 4 {
				t.Fatalf("a record of %d plies: too short to cut", n)
			}
			for _, i := range []int{0, 1, n / 2, n - 1, n} {
				name, data, err := rp.StartAt(i)
				// Over by the rules: a Geister draw at the ply limit is not
				// (a game goes on from there under a higher limit).
				over := i == n && rp.Frame(n).ToMove == -1 && !strings.Contains(rp.Result, "PlyLimit")
				if over {
					if err == nil || !strings.Contains(err.Error(), "over") {
						t.Errorf("ply %d, the game over: %q, %v", i, name, err)
					}
					continue
				}
				if err != nil {
					t.Fatalf("ply %d: %v", i, err)
				}
				if want := fmt.Sprintf("-ply%d.txt", i); !strings.HasSuffix(name, want) {
					t.Errorf("ply %d: the file is named %q", i, name)
				}
				plies, err := c.read(data)
				if err != nil {
					t.Fatalf("ply %d: the start file does not read back: %v\n%s", i, err, data)
				}
				if plies != i && !(rp.Game == "othello" && plies == i-1 && rp.Moves[i-1] == othello.Pass.String()) {
					t.Errorf("ply %d: the start file holds %d plies", i, plies)
				}
				if i == 0 && rp.Game == "othello" {
					continue // an empty move list is no record to replay
				}
				back, err := c.replay(name, data)
				if err != nil {
					t.Fatalf("ply %d: the start file does not replay: %v\n%s", i, err, data)
				}
				if len(back.Moves) != i {
					t.Errorf("ply %d: the start file replays %d plies", i, len(back.Moves))
				}
				if got, want := back.Frame(len(back.Moves)).Board, rp.Frame(i).Board; got != want {
					t.Errorf("ply %d: the start file's position is not the record's", i)
				}
			}
			for _, i := range []int{-1, n + 1} {
				if _, _, err := rp.StartAt(i); !errors.Is(err, ErrNoStart) {
					t.Errorf("ply %d: %v, want ErrNoStart", i, err)
				}
			}
		})
	}
	// A chess.txt alone has no moves to cut: it says so.
	rp, err := ReplayPDD("chess.txt", arenaRecord(t, "pdd-20261127-132129/001-greedy-vs-random/chess.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := rp.StartAt(0); err == nil || !strings.Contains(err.Error(), "stepLog.txt") {
		t.Errorf("chess.txt: %v", err)
	}
	// No Start function, or one that panics: an error.
	if _, _, err := (Replay{Moves: []string{"a"}}).StartAt(1); !errors.Is(err, ErrNoStart) {
		t.Errorf("no Start: %v", err)
	}
	bad := Replay{Start: func(int) (string, []byte, error) { panic("boom") }}
	if _, _, err := bad.StartAt(0); err == nil || !strings.Contains(err.Error(), "boom") {
		t.Errorf("a Start that panics: %v", err)
	}
}

// copyRecord copies the arena record rel to dir/name.
func copyRecord(t *testing.T, rel, dir, name string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name), arenaRecord(t, rel), 0o644); err != nil {
		t.Fatal(err)
	}
}

// writeFile writes data to dir/name, making its directories.
func writeFile(t *testing.T, dir, name string, data []byte) {
	t.Helper()
	path := filepath.Join(dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// outputAnswer is an answer of /replay/output.
type outputAnswer struct {
	outputReply
	Error string `json:"error"`
}

// getOutput fetches the program output of ply of the replay page's data d.
func getOutput(t *testing.T, base string, d replayData, ply string) (int, outputAnswer, string) {
	t.Helper()
	code, body := get(t, base+d.Output+"&ply="+ply)
	var o outputAnswer
	if err := json.Unmarshal([]byte(body), &o); err != nil {
		t.Fatalf("output of ply %s: %d, not JSON: %v\n%s", ply, code, err, body)
	}
	return code, o, body
}

// TestViewerReplayStartAndOutput: the replay page links the start file and
// has the output panel; /replay/start answers the start file as a download,
// and 4xx pages for a bad ply; /replay/output gives the mover's output of
// a PDD turn, escaped and bounded, the end of each engine's log for dark
// chess, nothing through a symbolic link out of the record directories, and
// says an upload has none.
func TestViewerReplayStartAndOutput(t *testing.T) {
	dir := t.TempDir()
	outside := t.TempDir()
	v, err := New(Options{Records: []string{dir}})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(v)
	t.Cleanup(srv.Close)

	// A PDD game with the logs a referee leaves.
	game := filepath.Join(dir, "pdd", "001")
	copyRecord(t, "pdd-20261127-132129/001-greedy-vs-random/stepLog.txt", game, "stepLog.txt")
	writeFile(t, game, "logs/1-W.stdout", []byte("<script>alert(1)</script> & \xff\n"))
	writeFile(t, game, "logs/1-W.stderr", []byte("thinking\n"))
	big := strings.Repeat("é", maxPlyOutputBytes) + "THE END\n" // longer than the bound, a character cut at its start
	writeFile(t, game, "logs/2-B.stderr", []byte(big))
	writeFile(t, outside, "secret", []byte("SECRET\n"))
	if err := os.Symlink(filepath.Join(outside, "secret"), filepath.Join(game, "logs", "3-W.stdout")); err != nil {
		t.Fatal(err)
	}

	code, body := get(t, srv.URL+"/replay?file="+url.QueryEscape(filepath.Join(game, "stepLog.txt")))
	if code != http.StatusOK || !strings.Contains(body, `id="save-start"`) || !strings.Contains(body, `id="output"`) {
		t.Fatalf("replay page: %d\n%s", code, body)
	}
	d := pageData(t, body)

	// The start file at ply 2: the first two lines, as a download.
	resp, err := http.Get(srv.URL + d.Start + "&ply=2")
	if err != nil {
		t.Fatal(err)
	}
	got := new(bytes.Buffer)
	got.ReadFrom(resp.Body)
	resp.Body.Close()
	lines := strings.SplitAfter(string(arenaRecord(t, "pdd-20261127-132129/001-greedy-vs-random/stepLog.txt")), "\n")
	_, params, _ := mime.ParseMediaType(resp.Header.Get("Content-Disposition"))
	if resp.StatusCode != http.StatusOK || got.String() != lines[0]+lines[1] || params["filename"] != "stepLog-ply2.txt" ||
		!strings.HasPrefix(resp.Header.Get("Content-Disposition"), "attachment") {
		t.Errorf("start file at ply 2: %d %q %q", resp.StatusCode, resp.Header.Get("Content-Disposition"), got)
	}
	for ply, want := range map[string]int{"x": 400, "-1": 400, "": 400, "9999": 404} {
		if code, body := get(t, srv.URL+d.Start+"&ply="+url.QueryEscape(ply)); code != want || !strings.Contains(body, "ply") {
			t.Errorf("start file at ply %q: %d, want %d\n%s", ply, code, want, body)
		}
	}
	if code, _ := get(t, srv.URL+"/replay/start?file="+url.QueryEscape(filepath.Join(outside, "secret"))+"&ply=0"); code != http.StatusNotFound {
		t.Errorf("start file of a file outside the record directories: %d", code)
	}

	// Turn 1: White's output, escaped in the JSON, invalid UTF-8 replaced.
	code, o, raw := getOutput(t, srv.URL, d, "1")
	if code != http.StatusOK || len(o.Parts) != 2 || o.Parts[0].Name != "logs/1-W.stdout" || !o.Parts[0].Mover ||
		o.Parts[0].Text != "<script>alert(1)</script> & \uFFFD\n" || o.Parts[1].Text != "thinking\n" {
		t.Errorf("output of turn 1: %d %+v", code, o)
	}
	if strings.Contains(raw, "<script>") {
		t.Errorf("the output's answer holds markup as is: %s", raw)
	}
	// Turn 2: the end of Black's stderr, within the bound.
	_, o, _ = getOutput(t, srv.URL, d, "2")
	if len(o.Parts) != 1 || !o.Parts[0].Mover || len(o.Parts[0].Text) > maxPlyOutputBytes || o.Parts[0].Cut == 0 ||
		!strings.HasSuffix(o.Parts[0].Text, "THE END\n") || !strings.HasPrefix(o.Parts[0].Text, "é") {
		t.Errorf("output of turn 2: %d parts, cut %d, %d bytes", len(o.Parts), o.Parts[0].Cut, len(o.Parts[0].Text))
	}
	// Turn 3: a link out of the record directories is not followed.
	_, o, raw = getOutput(t, srv.URL, d, "3")
	if len(o.Parts) != 0 || strings.Contains(raw, "SECRET") || !strings.Contains(o.Note, "No program output") {
		t.Errorf("output of turn 3: %s", raw)
	}
	if _, o, _ = getOutput(t, srv.URL, d, "0"); len(o.Parts) != 0 || !strings.Contains(o.Note, "start") {
		t.Errorf("output of the start: %+v", o)
	}
	for ply, want := range map[string]int{"x": 400, "9999": 404} {
		if code, o, _ := getOutput(t, srv.URL, d, ply); code != want || o.Error == "" {
			t.Errorf("output of ply %q: %d %+v, want %d", ply, code, o, want)
		}
	}

	// Dark chess: the end of each engine's log, the mover's first.
	dc := filepath.Join(dir, "darkchess", "001")
	copyRecord(t, "darkchess-20261127-132142/001-greedy-vs-random/board.txt", dc, "board.txt")
	writeFile(t, dc, "first.log", []byte("first engine\n"))
	writeFile(t, dc, "second.log", []byte("second engine\n"))
	_, body = get(t, srv.URL+"/replay?file="+url.QueryEscape(filepath.Join(dc, "board.txt")))
	dd := pageData(t, body)
	_, o, _ = getOutput(t, srv.URL, dd, "2")
	if len(o.Parts) != 2 || o.Parts[0].Name != "second.log" || !o.Parts[0].Mover || o.Parts[1].Text != "first engine\n" || !strings.Contains(o.Note, "not tied to plies") {
		t.Errorf("dark chess output of ply 2: %+v", o)
	}
	if resp, err := http.Get(srv.URL + dd.Start + "&ply=3"); err != nil || resp.StatusCode != http.StatusOK {
		t.Errorf("dark chess start file: %v %v", resp, err)
	} else {
		b := new(bytes.Buffer)
		b.ReadFrom(resp.Body)
		resp.Body.Close()
		if rb, err := record.ReadDarkChessBoard(b); err != nil || len(rb.Plies) != 3 {
			t.Errorf("dark chess start file at ply 3: %v", err)
		}
	}

	// An upload: its start file, and no output.
	code, body = upload(t, srv.URL, "stepLog.txt", "pdd", arenaRecord(t, "pdd-20261127-132129/001-greedy-vs-random/stepLog.txt"))
	if code != http.StatusOK {
		t.Fatalf("upload: %d\n%s", code, body)
	}
	du := pageData(t, body)
	if !strings.Contains(du.Start, "upload=") {
		t.Errorf("the upload's start URL %q", du.Start)
	}
	if code, body := get(t, srv.URL+du.Start+"&ply=1"); code != http.StatusOK || body != lines[0] {
		t.Errorf("the upload's start file at ply 1: %d %q", code, body)
	}
	if _, o, _ := getOutput(t, srv.URL, du, "1"); len(o.Parts) != 0 || !strings.Contains(o.Note, "No program output with an upload") {
		t.Errorf("the upload's output: %+v", o)
	}
}

package viewer

import (
	"html"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// indexEntry is one record listed on the index: the file its link
// replays, and the players, plies and result shown beside it.
type indexEntry struct {
	Rel, Game, Players, Plies, Result string
}

// indexEntries reads the record entries of an index page.
func indexEntries(t testing.TB, body string) []indexEntry {
	t.Helper()
	row := regexp.MustCompile(`<tr class="record"><td class="path"><a href="[^"]*" title="[^"]*">([^<]*)</a></td><td>([^<]*)</td><td class="players">([^<]*)</td><td class="num">([^<]*)</td><td class="result">([^<]*)</td>`)
	var out []indexEntry
	for _, m := range row.FindAllStringSubmatch(body, -1) {
		out = append(out, indexEntry{html.UnescapeString(m[1]), m[2], html.UnescapeString(m[3]), m[4], html.UnescapeString(m[5])})
	}
	return out
}

// TestViewerIndexOneEntryPerGame: the index lists each game of the records
// "arena match" writes exactly once, by the record that replays it with the
// players' names and the result (a PDD game's result.json, not its
// stepLog.txt or chess.txt; an Othello game's transcript, not its
// moves.txt); a folder holding several games' transcripts lists each one,
// and a move list beside the transcript of its game is a part of it.
func TestViewerIndexOneEntryPerGame(t *testing.T) {
	arena := filepath.Join("testdata", "arena-records")
	logs := t.TempDir() // a server's log folder: two games, and a move list of the first
	for name, from := range map[string]string{
		"gamelog_host_1.txt": "othello-20261127-132141/001-alphabeta-vs-random/gamelog_arena.txt",
		"gamelog_host_2.txt": "othello-20261127-132141/002-random-vs-alphabeta/gamelog_arena.txt",
		"moves.txt":          "othello-20261127-132141/001-alphabeta-vs-random/moves.txt",
	} {
		data, err := os.ReadFile(filepath.Join(arena, from))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(logs, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	_, base := realViewer(t, DefaultLimits(), arena, logs)
	code, body := get(t, base+"/")
	if code != http.StatusOK {
		t.Fatalf("index: %d", code)
	}
	got := indexEntries(t, body)
	want := []indexEntry{
		{"darkchess-20261127-132142/001-greedy-vs-random/board.txt", "Chinese dark chess", "greedy – random", "81", ""},
		{"geister-20261127-132141/001-greedy-vs-random/board.txt", "Geister", "greedy – random", "33", ""},
		{"othello-20261127-132141/001-alphabeta-vs-random/gamelog_arena.txt", "Othello", "alphabeta – random", "60", "alphabeta (black) wins 45-19 (discs)"},
		{"othello-20261127-132141/002-random-vs-alphabeta/gamelog_arena.txt", "Othello", "random – alphabeta", "63", "alphabeta (white) wins 16-48 (discs)"},
		{"pdd-20261127-132129/001-greedy-vs-random/result.json", "Ponte del Diavolo", "greedy – random", "50", "white (greedy) wins by score; points/islands/bridges white 14/7/6, black 0/0/7"},
		{"pdd-20261127-132129/002-random-vs-greedy/result.json", "Ponte del Diavolo", "random – greedy", "52", "black (greedy) wins by score; points/islands/bridges white 6/3/8, black 15/8/7"},
		{"gamelog_host_1.txt", "Othello", "alphabeta – random", "60", "alphabeta (black) wins 45-19 (discs)"},
		{"gamelog_host_2.txt", "Othello", "random – alphabeta", "63", "alphabeta (white) wins 16-48 (discs)"},
	}
	for i := range want {
		want[i].Rel = filepath.FromSlash(want[i].Rel)
	}
	// The results of the dark chess and Geister records are their own words:
	// checked to be there, not spelt out.
	for i := range got {
		if (got[i].Game == "Chinese dark chess" || got[i].Game == "Geister") && got[i].Result != "" {
			got[i].Result = ""
		} else if got[i].Game == "Chinese dark chess" || got[i].Game == "Geister" {
			t.Errorf("%s: no result listed", got[i].Rel)
		}
	}
	if !slices.Equal(got, want) {
		t.Errorf("the index lists\n%s\nwant\n%s", entriesText(got), entriesText(want))
	}
	// The parts are left out of the list, and still open by their path.
	for _, part := range []string{"stepLog.txt", "chess.txt", "moves.txt"} {
		if strings.Contains(body, ">"+part+"<") || strings.Contains(body, "/"+part+"<") {
			t.Errorf("the index lists a %s", part)
		}
	}
	for _, part := range []string{
		filepath.Join(arena, "pdd-20261127-132129", "001-greedy-vs-random", "stepLog.txt"),
		filepath.Join(arena, "pdd-20261127-132129", "001-greedy-vs-random", "chess.txt"),
		filepath.Join(logs, "moves.txt"),
	} {
		if code, _ := get(t, base+replayLink(part, "")); code != http.StatusOK {
			t.Errorf("%s does not open: %d", part, code)
		}
	}
}

// entriesText is entries one a line, for a test message.
func entriesText(entries []indexEntry) string {
	var b strings.Builder
	for _, e := range entries {
		b.WriteString("  " + strings.Join([]string{e.Rel, e.Game, e.Players, e.Plies, e.Result}, " | ") + "\n")
	}
	return b.String()
}

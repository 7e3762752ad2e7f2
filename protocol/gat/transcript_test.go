package gat

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/botarena/botarena/internal/sharedtest"
)

// The Java server captures (testdata/geister/README.md): one row
// per TCP read, "<ms> <P0|P1> <direction> <JSON-quoted bytes>".

// jgRow is one row of a capture.
type jgRow struct {
	ms   int
	side int    // 0 = P0, the first player
	dir  string // S>C, C>S, C-CLOSE, S>C-EOF, C>S-EOF
	data string // the bytes of one read
}

// jgMessages splits the bytes of a read on CRLF; a trailing partial message
// is kept.
func jgMessages(data string) []string {
	var msgs []string
	for m := range strings.SplitSeq(data, "\r\n") {
		if m != "" {
			msgs = append(msgs, m)
		}
	}
	return msgs
}

// jgDir is the folder of the captures, or "" (the test is skipped) if it is
// missing.
func jgDir(t testing.TB) string {
	t.Helper()
	return sharedtest.Dir(t, "geister")
}

// jgRead reads a capture.
func jgRead(t testing.TB, name string) []jgRow {
	t.Helper()
	path := filepath.Join(jgDir(t), name)
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rows []jgRow
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if strings.HasPrefix(line, "#") || strings.TrimSpace(line) == "" {
			continue
		}
		fields := strings.Fields(line)
		q := strings.IndexByte(line, '"')
		if len(fields) < 4 || q < 0 {
			t.Fatalf("%s:%d: %q", name, n, line)
		}
		ms, err := strconv.Atoi(fields[0])
		if err != nil {
			t.Fatalf("%s:%d: %v", name, n, err)
		}
		r := jgRow{ms: ms, dir: fields[2]}
		switch fields[1] {
		case "P0":
		case "P1":
			r.side = 1
		default:
			t.Fatalf("%s:%d: side %q", name, n, fields[1])
		}
		if err := json.Unmarshal([]byte(line[q:]), &r.data); err != nil {
			t.Fatalf("%s:%d: %v", name, n, err)
		}
		rows = append(rows, r)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(rows) == 0 {
		t.Fatalf("%s: no rows", name)
	}
	return rows
}

// readFileString reads a file of the captures' folder.
func readFileString(t testing.TB, name string) (string, error) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(jgDir(t), name))
	return string(b), err
}

// jgCaptures lists the protocol captures (not the logs nor the viewer).
func jgCaptures(t testing.TB) []string {
	t.Helper()
	dir := jgDir(t)
	var names []string
	for _, pat := range []string{"random-game-*.txt", "scenario-*.txt"} {
		m, err := filepath.Glob(filepath.Join(dir, pat))
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range m {
			names = append(names, filepath.Base(p))
		}
	}
	if len(names) != 12 {
		t.Fatalf("found %d captures, want 12: %v", len(names), names)
	}
	return names
}

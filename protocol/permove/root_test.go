//go:build unix

package permove_test

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/botarena/botarena/pdd"
	"github.com/botarena/botarena/protocol/permove"
	"github.com/botarena/botarena/timer"
	"github.com/google/go-cmp/cmp"
)

// pddOutside is a directory beside a game directory that the referee must
// never read or write: a sentinel file with content of its own and an
// empty directory d.
type pddOutside struct {
	base     string // the directory holding the game directory and this one
	dir      string // base/outside
	sentinel string // dir/sentinel
	marker   string // the sentinel's content
}

func newPDDOutside(t *testing.T) pddOutside {
	t.Helper()
	base := t.TempDir()
	o := pddOutside{base: base, dir: filepath.Join(base, "outside")}
	o.sentinel = filepath.Join(o.dir, "sentinel")
	o.marker = "SENTINEL " + t.Name() + "\n"
	if err := os.MkdirAll(filepath.Join(o.dir, "d"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(o.sentinel, []byte(o.marker), 0o644); err != nil {
		t.Fatal(err)
	}
	return o
}

// snapshot lists everything under root (symlinks not followed): the
// content of each regular file, the kind of anything else.
func pddSnapshot(t *testing.T, root string) map[string]string {
	t.Helper()
	snap := map[string]string{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		switch {
		case d.Type().IsRegular():
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			snap[rel] = string(b)
		case d.IsDir():
			snap[rel] = "dir"
		default:
			snap[rel] = d.Type().String()
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return snap
}

// A program that plants symlinks (and hard links, pipes) in its game
// directory, or moves the directory, loses, and the referee neither reads
// nor writes anything outside the game directory: the sentinel file and
// directory beside it are untouched, nothing appears beside it, nothing
// of the sentinel is copied into the record, and the record is complete
// at the game directory's path afterwards.
func TestRefereeStaysInGameDir(t *testing.T) {
	bots, _ := buildPDDPrograms(t)
	type rootCase struct {
		name         string
		white, black func(o pddOutside) []string
		wantName     string
		wantColor    pdd.Color
		wantTurn     int
		wantDetail   func(o pddOutside) string
		// outside, when set, checks the outside directory instead of the
		// default (unchanged).
		outside func(t *testing.T, o pddOutside, before, after map[string]string)
		check   func(t *testing.T, o pddOutside, rec *permove.GameRecord)
	}
	script := func(s ...string) func(pddOutside) []string { return func(pddOutside) []string { return s } }
	detail := func(s string) func(pddOutside) string { return func(pddOutside) string { return s } }
	noViolationFile := func(name string) func(*testing.T, pddOutside, *permove.GameRecord) {
		return func(t *testing.T, _ pddOutside, rec *permove.GameRecord) {
			if _, err := os.Lstat(filepath.Join(rec.Dir, "violation", name)); err == nil {
				t.Errorf("violation/%s was saved from a file the referee must not read", name)
			}
		}
	}
	cases := []rootCase{
		{name: "chess.txt symlink out",
			white:    func(o pddOutside) []string { return []string{"link:chess.txt=" + o.sentinel} },
			wantName: "ErrFileFormat", wantColor: pdd.White, wantTurn: 1,
			wantDetail: func(o pddOutside) string { return "chess.txt: not a regular file (a symlink to " + o.sentinel + ")" },
			check:      noViolationFile("chess.txt")},
		{name: "bridge.txt symlink up and out",
			white:    script("first"),
			black:    script("link:bridge.txt=../outside/sentinel"),
			wantName: "ErrFileFormat", wantColor: pdd.Black, wantTurn: 2,
			wantDetail: detail("bridge.txt: not a regular file (a symlink to ../outside/sentinel)"),
			check:      noViolationFile("bridge.txt")},
		{name: "stepLog.txt symlink out",
			white:    func(o pddOutside) []string { return []string{"link:stepLog.txt=" + o.sentinel} },
			wantName: "ErrStepLogWritten", wantColor: pdd.White, wantTurn: 1,
			wantDetail: func(o pddOutside) string { return "stepLog.txt: not a regular file (a symlink to " + o.sentinel + ")" }},
		{name: "chess.txt hard link out",
			white:    func(o pddOutside) []string { return []string{"hardlink:chess.txt=" + o.sentinel} },
			wantName: "ErrFileFormat", wantColor: pdd.White, wantTurn: 1,
			wantDetail: detail("chess.txt: not a regular file of the game directory alone (2 hard links)"),
			check:      noViolationFile("chess.txt")},
		{name: "chess.txt named pipe",
			white:    script("fifo:chess.txt"),
			wantName: "ErrFileFormat", wantColor: pdd.White, wantTurn: 1,
			wantDetail: detail("chess.txt: not a regular file (a named pipe)")},
		{name: "violation symlink out",
			white:    func(o pddOutside) []string { return []string{"link:violation=" + filepath.Join(o.dir, "d")} },
			wantName: "ErrStepLogWritten", wantColor: pdd.White, wantTurn: 1,
			wantDetail: func(o pddOutside) string {
				return "the game directory's violation is a symlink to " + filepath.Join(o.dir, "d")
			},
			check: func(t *testing.T, _ pddOutside, rec *permove.GameRecord) {
				if fi, err := os.Lstat(filepath.Join(rec.Dir, "violation")); err != nil || !fi.IsDir() {
					t.Errorf("violation/ is not the referee's directory: %v, %v", fi, err)
				}
			}},
		{name: "logs symlink out",
			white:    func(o pddOutside) []string { return []string{"noisy", "link:logs=" + filepath.Join(o.dir, "d")} },
			black:    script("first"),
			wantName: "ErrStepLogWritten", wantColor: pdd.White, wantTurn: 3,
			wantDetail: func(o pddOutside) string {
				return "the game directory's logs is a symlink to " + filepath.Join(o.dir, "d")
			},
			check: func(t *testing.T, _ pddOutside, rec *permove.GameRecord) {
				// The turn's output is in a logs/ of the referee's own.
				if b, err := os.ReadFile(filepath.Join(rec.Dir, "logs", "3-W.stdout")); err != nil || !strings.HasPrefix(string(b), "planting link logs=") {
					t.Errorf("logs/3-W.stdout = %q, %v", b, err)
				}
			}},
		{name: "logs symlink to parent",
			white:    script("noisy", "link:logs=.."),
			black:    script("first"),
			wantName: "ErrStepLogWritten", wantColor: pdd.White, wantTurn: 3,
			wantDetail: detail("the game directory's logs is a symlink to .."),
		},
		{name: "symlink at another name",
			white:    func(o pddOutside) []string { return []string{"link:notes=" + o.sentinel} },
			wantName: "ErrStepLogWritten", wantColor: pdd.White, wantTurn: 1,
			wantDetail: func(o pddOutside) string { return "the game directory's notes is a symlink to " + o.sentinel },
			check: func(t *testing.T, _ pddOutside, rec *permove.GameRecord) {
				if _, err := os.Lstat(filepath.Join(rec.Dir, "notes")); err == nil {
					t.Error("the planted symlink was left in the record")
				}
			}},
		{name: "game directory made unreadable",
			white:    script("chmod:.=0"),
			wantName: "ErrStepLogWritten", wantColor: pdd.White, wantTurn: 1,
			wantDetail: detail("the permissions of the game directory were changed from -rwx"),
			check: func(t *testing.T, _ pddOutside, rec *permove.GameRecord) {
				if fi, err := os.Stat(rec.Dir); err != nil || fi.Mode().Perm()&0o700 != 0o700 {
					t.Errorf("the game directory's permissions were not put back: %v, %v", fi, err)
				}
			}},
		{name: "logs made unwritable",
			white:    script("noisy", "chmod:logs=0500"),
			black:    script("first"),
			wantName: "ErrStepLogWritten", wantColor: pdd.White, wantTurn: 3,
			wantDetail: detail("the permissions of the game directory's logs were changed from -rwx"),
			check: func(t *testing.T, _ pddOutside, rec *permove.GameRecord) {
				if _, err := os.Stat(filepath.Join(rec.Dir, "logs", "3-W.stdout")); err != nil {
					t.Error(err)
				}
			}},
		{name: "game directory swapped for a symlink out",
			white:    script("first"),
			black:    func(o pddOutside) []string { return []string{"swapdir:" + filepath.Join(o.dir, "d")} },
			wantName: "ErrStepLogWritten", wantColor: pdd.Black, wantTurn: 2,
			wantDetail: func(o pddOutside) string {
				return "was replaced by a symlink to " + filepath.Join(o.dir, "d")
			},
			check: func(t *testing.T, o pddOutside, rec *permove.GameRecord) {
				// Put back at its path, logs and all.
				if fi, err := os.Lstat(rec.Dir); err != nil || !fi.IsDir() {
					t.Fatalf("the game directory is not back: %v, %v", fi, err)
				}
				if _, err := os.Stat(filepath.Join(rec.Dir, "logs", "2-B.stdout")); err != nil {
					t.Error(err)
				}
				if _, err := os.Lstat(rec.Dir + ".moved"); err == nil {
					t.Error("the moved directory is still there")
				}
			}},
		{name: "game directory moved out",
			white:    func(o pddOutside) []string { return []string{"movedir:" + filepath.Join(o.dir, "moved")} },
			wantName: "ErrStepLogWritten", wantColor: pdd.White, wantTurn: 1,
			wantDetail: func(o pddOutside) string {
				return "was replaced by a symlink to " + filepath.Join(o.dir, "moved")
			},
			// The program moved the game directory itself there: the
			// referee went on in it (its logs/, violation/), but nothing
			// else outside changed.
			outside: func(t *testing.T, o pddOutside, before, after map[string]string) {
				for name := range after {
					if name == "moved" || strings.HasPrefix(name, "moved"+string(filepath.Separator)) {
						delete(after, name)
					}
				}
				if diff := cmp.Diff(before, after); diff != "" {
					t.Errorf("outside the game directory (-before +after):\n%s", diff)
				}
			},
			check: func(t *testing.T, o pddOutside, rec *permove.GameRecord) {
				// A new directory at the path holds the record again.
				if fi, err := os.Lstat(rec.Dir); err != nil || !fi.IsDir() {
					t.Fatalf("no game directory at the path: %v, %v", fi, err)
				}
				if _, err := os.Stat(filepath.Join(o.dir, "moved", "logs", "1-W.stdout")); err != nil {
					t.Errorf("the moved game directory lacks its logs: %v", err)
				}
			}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			o := newPDDOutside(t)
			before := pddSnapshot(t, o.dir)
			var progs [2]permove.Program
			for i, s := range [2]func(pddOutside) []string{c.white, c.black} {
				progs[i].Command = []string{bots}
				if s != nil {
					progs[i].Command = append(progs[i].Command, s(o)...)
				}
			}
			ctx, cancel := context.WithTimeout(t.Context(), 5*time.Minute)
			defer cancel()
			// A generous limit: no program here must time out.
			ref := &permove.Referee{Control: timer.PerMove(time.Minute)}
			rec, err := ref.Play(ctx, filepath.Join(o.base, "game"), progs[0], progs[1])
			if err != nil {
				t.Fatal(err)
			}
			v := rec.Violation
			if v == nil {
				t.Fatalf("no violation, result %v; want %s by %s on turn %d", rec.Result, c.wantName, c.wantColor, c.wantTurn)
			}
			if v.Name() != c.wantName || v.Color != c.wantColor || v.Turn != c.wantTurn || !strings.Contains(v.Error(), c.wantDetail(o)) {
				t.Fatalf("violation %v (%s); want %s by %s on turn %d, with %q", v, v.Name(), c.wantName, c.wantColor, c.wantTurn, c.wantDetail(o))
			}

			// Nothing outside was written or read.
			after := pddSnapshot(t, o.dir)
			if c.outside != nil {
				c.outside(t, o, before, after)
			} else if diff := cmp.Diff(before, after); diff != "" {
				t.Errorf("outside the game directory (-before +after):\n%s", diff)
			}
			entries, _ := os.ReadDir(o.base)
			var names []string
			for _, e := range entries {
				names = append(names, e.Name())
			}
			if diff := cmp.Diff([]string{"game", "outside"}, names); diff != "" {
				t.Errorf("beside the game directory (-want +got):\n%s", diff)
			}
			for path, content := range pddSnapshot(t, rec.Dir) {
				if strings.Contains(content, o.marker) {
					t.Errorf("%s holds the sentinel's content: the referee read it", path)
				}
			}
			checkPDDGameDir(t, rec)
			if c.check != nil {
				c.check(t, o, rec)
			}
		})
	}
}

// The referee refuses a game directory that is a symlink, even to an empty
// directory, and writes nothing where it leads.
func TestRefereeRefusesSymlinkedDir(t *testing.T) {
	o := newPDDOutside(t)
	game := filepath.Join(o.base, "game")
	if err := os.Symlink(filepath.Join(o.dir, "d"), game); err != nil {
		t.Fatal(err)
	}
	prog := permove.Program{Command: []string{"true"}}
	_, err := (&permove.Referee{}).Play(t.Context(), game, prog, prog)
	if err == nil || !strings.Contains(err.Error(), "is a symlink (to "+filepath.Join(o.dir, "d")+"); give the directory itself") {
		t.Errorf("Play in a symlinked directory: %v", err)
	}
	if entries, _ := os.ReadDir(filepath.Join(o.dir, "d")); len(entries) != 0 {
		t.Errorf("the referee wrote where the symlink leads: %v", entries)
	}
	// A directory above the game directory may be a symlink: the caller's
	// own layout.
	if err := os.Symlink(o.dir, filepath.Join(o.base, "up")); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := (&permove.Referee{}).Play(ctx, filepath.Join(o.base, "up", "d"), prog, prog); err != context.Canceled {
		t.Errorf("a game directory below a symlink: %v", err)
	}
}

// A program that floods its output every turn costs at most permove.LogLimit of
// logs/ in a game: the latest turns' logs are kept, each with its head and
// tail, and W.truncated says which turns were dropped.
func TestRefereeLogsBounded(t *testing.T) {
	bots, _ := buildPDDPrograms(t)
	white := []string{bots}
	for range 8 {
		white = append(white, "flood")
	}
	white = append(white, "nothing")
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Minute)
	defer cancel()
	// A generous limit: a flood of 2 MiB must not time out on a busy machine.
	ref := &permove.Referee{Control: timer.PerMove(time.Minute)}
	rec, err := ref.Play(ctx, filepath.Join(t.TempDir(), "game"), permove.Program{Command: white}, permove.Program{Command: []string{bots}})
	if err != nil {
		t.Fatal(err)
	}
	if v := rec.Violation; v == nil || v.Name() != "ErrUnknownAction" || v.Turn != 17 {
		t.Fatalf("violation %v, want the scripted nothing on turn 17", rec.Result)
	}
	logs := filepath.Join(rec.Dir, "logs")
	var total int64
	snap := pddSnapshot(t, logs)
	for name, content := range snap {
		if strings.HasSuffix(name, "-W.stdout") || strings.HasSuffix(name, "-W.stderr") {
			total += int64(len(content))
			if !strings.Contains(content, "\n[truncated ") {
				t.Errorf("%s: %d bytes without a [truncated N bytes] line", name, len(content))
			}
		}
	}
	if total > permove.LogLimit || total == 0 {
		t.Errorf("W's logs hold %d bytes; the limit is %d", total, permove.LogLimit)
	}
	// The end is kept: the last flood's logs are there.
	for _, name := range []string{"15-W.stdout", "15-W.stderr"} {
		if _, ok := snap[name]; !ok {
			t.Errorf("the last turn's %s was not kept", name)
		}
	}
	note := snap["W.truncated"]
	if !strings.HasPrefix(note, "[truncated ") || !strings.Contains(note, "turns 1, 3,") {
		t.Errorf("W.truncated = %q", note)
	}
	if !bytes.Contains([]byte(snap["15-W.stdout"]), bytes.Repeat([]byte("x"), 1023)) {
		t.Error("the kept log lost its content")
	}
}

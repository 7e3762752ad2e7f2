package main

import (
	"bytes"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/botarena/botarena/viewer"
)

// asArenaEnv makes the test binary act as the arena binary: selfCommand runs
// os.Executable, which under "go test" is the test binary, and its children
// get this variable, so "<test binary> bot pdd random ..." runs main.
const asArenaEnv = "BOTARENA_TEST_AS_ARENA"

func TestMain(m *testing.M) {
	if os.Getenv(asArenaEnv) == "1" && !slices.ContainsFunc(os.Args, isFuzzWorkerFlag) {
		main()
		os.Exit(0)
	}
	os.Setenv(asArenaEnv, "1")
	// Most of this package's tests wait: on programs they start, sockets,
	// and the time limits they test. Two parallel tests a core (unless
	// -parallel says otherwise) keep the cores busy where the default, one
	// a core, leaves them idle half the time. Measured on two cores, "go
	// test ./..." from a fresh clone (every test binary compiled first,
	// this package's last) took 189 s with one a core, 162 s with two;
	// with the test binaries built already, one a core was quicker: 174 s
	// against 182 s.
	flag.Parse()
	parallelSet := false
	flag.Visit(func(f *flag.Flag) { parallelSet = parallelSet || f.Name == "test.parallel" })
	if !parallelSet {
		flag.Set("test.parallel", strconv.Itoa(2*runtime.GOMAXPROCS(0)))
	}
	code := m.Run()
	if builds.dir != "" {
		os.RemoveAll(builds.dir)
	}
	os.Exit(code)
}

// isFuzzWorkerFlag tells the flag that makes "go test -fuzz" run the test
// binary as a fuzzing worker, which inherits the environment but must fuzz.
func isFuzzWorkerFlag(arg string) bool {
	return strings.HasPrefix(arg, "-test.fuzzworker")
}

// builds caches the programs built by buildProgram, one build per package
// per test binary run.
var builds struct {
	sync.Mutex
	dir   string
	paths map[string]string
}

// buildProgram builds the main package pkg (a path relative to the module
// root, such as "cmd/arena" or "examples/geister-stdio") and returns the
// binary's path. Builds are shared by the tests of one run.
func buildProgram(t testing.TB, pkg string) string {
	t.Helper()
	builds.Lock()
	defer builds.Unlock()
	if p, ok := builds.paths[pkg]; ok {
		return p
	}
	if builds.dir == "" {
		dir, err := os.MkdirTemp("", "arena-test-bin-")
		if err != nil {
			t.Fatal(err)
		}
		builds.dir = dir
		builds.paths = map[string]string{}
	}
	out := filepath.Join(builds.dir, filepath.Base(pkg))
	// Without the symbol table and DWARF: a fifth less to map and fault in
	// at each of the thousand program starts of a run (stack traces keep
	// their function names and lines).
	cmd := exec.Command("go", "build", "-ldflags=-s -w", "-o", out, "./"+pkg)
	cmd.Dir = filepath.Join("..", "..")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build %s: %v\n%s", pkg, err, b)
	}
	builds.paths[pkg] = out
	return out
}

// arenaBinary builds cmd/arena itself, for the end-to-end tests that run it.
func arenaBinary(t testing.TB) string {
	t.Helper()
	return buildProgram(t, "cmd/arena")
}

// testWatcher records what games show the viewer, for the runners' tests.
type testWatcher struct {
	mu       sync.Mutex
	infos    []viewer.GameInfo  // one per Begin
	frames   []viewer.Frame     // every frame: Begin's, Update's and Finish's
	finished []string           // one "result|record" per Finish
	onUpdate func(viewer.Frame) // when not nil, called after every Update, outside the lock
}

func (w *testWatcher) Begin(info viewer.GameInfo, f viewer.Frame) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.infos = append(w.infos, info)
	w.frames = append(w.frames, f)
}

func (w *testWatcher) Update(_ string, f viewer.Frame) {
	w.mu.Lock()
	w.frames = append(w.frames, f)
	cb := w.onUpdate
	w.mu.Unlock()
	if cb != nil {
		cb(f)
	}
}

func (w *testWatcher) Finish(_ string, f viewer.Frame, result, rec string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.frames = append(w.frames, f)
	w.finished = append(w.finished, result+"|"+rec)
}

// info is the last game announced (the zero gameInfo if none was).
func (w *testWatcher) info() viewer.GameInfo {
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.infos) == 0 {
		return viewer.GameInfo{}
	}
	return w.infos[len(w.infos)-1]
}

// last is the last Finish's result and record ("" if none came).
func (w *testWatcher) last() (result, record string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.finished) == 0 {
		return "", ""
	}
	s := w.finished[len(w.finished)-1]
	i := strings.LastIndexByte(s, '|') // a result may hold '|', the tests' record paths do not
	return s[:i], s[i+1:]
}

// runArena runs an arena command line in this process and returns what it
// printed on standard output; an error fails the test.
func runArena(t *testing.T, args ...string) string {
	t.Helper()
	var out, errOut bytes.Buffer
	if err := run(t.Context(), args, &out, &errOut); err != nil {
		t.Fatalf("arena %q: %v\n%s\n%s", args, err, out.String(), errOut.String())
	}
	return out.String()
}

// matchAll fails the test for every regular expression text lacks.
func matchAll(t *testing.T, text string, res ...string) {
	t.Helper()
	for _, re := range res {
		if !regexp.MustCompile(re).MatchString(text) {
			t.Errorf("output lacks %s:\n%s", re, text)
		}
	}
}

// recordsIn lists the files called name in the game directories of a run's
// records directory.
func recordsIn(dir, name string) []string {
	files, _ := filepath.Glob(filepath.Join(dir, "*", name))
	return files
}

// benchGames plays game n = 1, 2, ... with play for as long as the benchmark
// runs, fails on an arena error, a program's fault or a game without a
// result, and reports games/s and plies/game.
func benchGames(b *testing.B, play func(n int) gameResult) {
	plies, n := 0, 0
	for b.Loop() {
		n++
		res := play(n)
		if res.Err != nil || res.Faults != [2]fault{} || res.Winner < -1 {
			b.Fatalf("game %d: %+v", n, res)
		}
		plies += res.Plies
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "games/s")
	b.ReportMetric(float64(plies)/float64(n), "plies/game")
}

// benchJob is game n of a benchmark between the seats, in a directory of its
// own.
func benchJob(b *testing.B, n int, first, second *playerSpec) *gameJob {
	return &gameJob{N: n, Index: n - 1, Seats: [2]*playerSpec{first, second}, Seed: uint64(n), Dir: b.TempDir(),
		ID: "bench", Watch: viewer.Discard{}, Log: slog.New(slog.DiscardHandler)}
}

// frames draws every frame of rp: the start, then one after each ply.
func frames(rp viewer.Replay) []viewer.Frame {
	fs := make([]viewer.Frame, 0, len(rp.Moves)+1)
	for i := 0; i <= len(rp.Moves); i++ {
		fs = append(fs, rp.Frame(i))
	}
	return fs
}

// replayRecord reads a record of the game named game with the viewer's
// Replay of that game.
func replayRecord(game, name string, data []byte) (viewer.Replay, error) {
	for _, g := range viewer.Games() {
		if g.Name == game {
			return g.Replay(name, data)
		}
	}
	return viewer.Replay{}, fmt.Errorf("the viewer has no game %q", game)
}

// lineWriter is a writer whose lines a test can wait for: it sends each
// whole line written to it, without its newline, to lines.
type lineWriter struct {
	mu    sync.Mutex
	buf   bytes.Buffer
	lines chan string
}

func (w *lineWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf.Write(p)
	for {
		line, err := w.buf.ReadString('\n')
		if err != nil {
			w.buf.WriteString(line)
			return len(p), nil
		}
		w.lines <- strings.TrimRight(line, "\n")
	}
}

// next returns the next line that matches re, failing after 30 s.
func (w *lineWriter) next(t *testing.T, re *regexp.Regexp) []string {
	t.Helper()
	timeout := time.After(30 * time.Second)
	for {
		select {
		case l := <-w.lines:
			if m := re.FindStringSubmatch(l); m != nil {
				return m
			}
		case <-timeout:
			t.Fatalf("no line like %v", re)
		}
	}
}

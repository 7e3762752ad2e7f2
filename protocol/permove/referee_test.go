//go:build unix

package permove_test

import (
	"bytes"
	"context"
	"errors"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/botarena/botarena/internal/longtest"
	"github.com/botarena/botarena/internal/proctest"
	"github.com/botarena/botarena/pdd"
	"github.com/botarena/botarena/protocol/permove"
	"github.com/botarena/botarena/record"
	"github.com/botarena/botarena/timer"
	"github.com/google/go-cmp/cmp"
)

// F2 (the position after the course's example stepLog) and that stepLog.
var (
	pddF2Chess     = pddGolden("F2/chess.txt")
	pddF2Bridge    = pddGolden("F2/bridge.txt")
	pddSeedStepLog = pddGolden("seed-stepLog.txt")
)

// pddGolden returns the file name of the golden fixtures, kept
// once for every package's tests in pdd/testdata/fixtures. A missing file
// reads as text that no PDD reader accepts, so the tests using it fail.
func pddGolden(name string) string {
	b, err := os.ReadFile(filepath.Join("..", "..", "pdd", "testdata", "fixtures", filepath.FromSlash(name)))
	if err != nil {
		return "missing fixture: " + err.Error()
	}
	return string(b)
}

// buildPDDPrograms builds the scripted test bot and the example random
// strategy into a temporary directory.
func buildPDDPrograms(t *testing.T) (bots, random string) {
	t.Helper()
	gocmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to build the test programs")
	}
	dir := t.TempDir()
	cmd := exec.Command(gocmd, "build", "-o", dir+string(filepath.Separator), "./testdata/pddbots", "../../examples/pdd-random")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return filepath.Join(dir, "pddbots"), filepath.Join(dir, "pdd-random")
}

// pddTrailingSkipsRemoved returns the position of g before any Course skips
// at its end, which the files cannot show.
func pddTrailingSkipsRemoved(g *pdd.Game) pdd.Position {
	ms := g.Moves()
	n := len(ms)
	for n > 0 && ms[n-1] == pdd.Pass && g.Rules() == pdd.Course {
		n--
	}
	p, _ := g.PositionAt(n)
	return p
}

// checkPDDGameDir checks what a game left in its directory: the files
// replay to the referee's game, and result.json says what the record says.
func checkPDDGameDir(t *testing.T, rec *permove.GameRecord) {
	t.Helper()
	read := func(name string) []byte {
		b, err := os.ReadFile(filepath.Join(rec.Dir, name))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	stepLog := read("stepLog.txt")
	want, _ := rec.StepLog().MarshalText()
	if !bytes.Equal(bytes.ReplaceAll(stepLog, []byte("\r\n"), []byte("\n")), bytes.ReplaceAll(want, []byte("\r\n"), []byte("\n"))) {
		t.Errorf("stepLog.txt %q, want %q", stepLog, want)
	}
	g, err := record.ReadPDDGame(bytes.NewReader(read("chess.txt")), bytes.NewReader(read("bridge.txt")), bytes.NewReader(stepLog), rec.Rules)
	if err != nil {
		t.Fatalf("the game directory does not replay: %v", err)
	}
	if got, want := g.Position(), pddTrailingSkipsRemoved(rec.Game); got != want {
		t.Errorf("replay\n%s\nwant\n%s", got.Diagram(), want.Diagram())
	}
	if rec.Violation == nil {
		if res, _ := g.Result(); res != rec.Result && g.IsOver() {
			t.Errorf("replayed result %v, recorded %v", res, rec.Result)
		}
	}
	f, err := os.Open(filepath.Join(rec.Dir, "result.json"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rf, err := permove.ReadResultFile(f)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(rec.ResultFile(), rf); diff != "" {
		t.Errorf("result.json (-want +got):\n%s", diff)
	}
	if lines := len(record.NewPDDStepLog(g).Steps); rf.Plies != lines || len(rf.Moves) != rf.Plies {
		t.Errorf("result.json: %d plies, %d moves; the stepLog has %d", rf.Plies, len(rf.Moves), lines)
	}
	for i, m := range rf.Moves {
		if m.Turn != i+1 {
			t.Errorf("move %d has turn %d", i+1, m.Turn)
		}
	}
	steps, err := rf.StepLog()
	if err != nil {
		t.Fatalf("result.json's StepLog: %v", err)
	}
	if diff := cmp.Diff(record.NewPDDStepLog(g).Steps, steps.Steps); diff != "" {
		t.Errorf("result.json's StepLog (-stepLog.txt +result.json):\n%s", diff)
	}
}

type pddScenario struct {
	name         string
	white, black []string // the scripts (bots) or commands (Command set)
	command      [2][]string
	rules        pdd.Rules
	limit        time.Duration
	noLimit      bool // Referee.NoTimeLimit
	crlf         bool
	wantName     string // "" for no violation
	wantColor    pdd.Color
	wantTurn     int
	wantDetail   string
	check        func(t *testing.T, rec *permove.GameRecord)
}

// TestPDDReferee referees games between real processes: the scripted bot
// misbehaving in every way, and whole games.
func TestReferee(t *testing.T) {
	bots, random := buildPDDPrograms(t)
	proctest.Subreaper(t)

	logFile := func(t *testing.T, rec *permove.GameRecord, name string) string {
		b, err := os.ReadFile(filepath.Join(rec.Dir, "logs", name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	childKilled := func(t *testing.T, rec *permove.GameRecord, log string) {
		pid, err := strconv.Atoi(strings.TrimSpace(logFile(t, rec, log)))
		if err != nil {
			t.Fatal(err)
		}
		proctest.CheckChildKilled(t, pid)
	}
	violationFile := func(t *testing.T, rec *permove.GameRecord, name string) string {
		b, err := os.ReadFile(filepath.Join(rec.Dir, "violation", name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}

	scenarios := []pddScenario{
		{name: "timeout", white: []string{"sleep"}, limit: 300 * time.Millisecond,
			wantName: "ErrTimeout", wantColor: pdd.White, wantTurn: 1,
			check: func(t *testing.T, rec *permove.GameRecord) {
				if _, err := os.Stat(filepath.Join(rec.Dir, "logs", "1-W.stderr")); err != nil {
					t.Log("killed before it started its child") // a loaded machine
					return
				}
				childKilled(t, rec, "1-W.stderr") // the child sleep died with the program
			}},
		{name: "no time limit", white: []string{"wait:1s"}, limit: 300 * time.Millisecond, noLimit: true,
			check: func(t *testing.T, rec *permove.GameRecord) {
				if rec.Moves[0].Elapsed < time.Second || !rec.Game.IsOver() {
					t.Errorf("turn 1 took %v; over: %v", rec.Moves[0].Elapsed, rec.Game.IsOver())
				}
			}},
		{name: "fallback moves", white: []string{"first", "late", "first", "late"}, black: []string{"late"},
			check: func(t *testing.T, rec *permove.GameRecord) {
				var turns []int
				for _, m := range rec.Moves {
					if m.Fallback {
						turns = append(turns, m.Step.Turn)
					}
				}
				if !slices.Equal(turns, []int{2, 3, 7}) || rec.Fallbacks(pdd.White) != 2 || rec.Fallbacks(pdd.Black) != 1 {
					t.Errorf("fallback moves on turns %v, W %d, B %d; want turns 2, 3, 7", turns, rec.Fallbacks(pdd.White), rec.Fallbacks(pdd.Black))
				}
				if f := rec.ResultFile().Fallbacks; f == nil || *f != (permove.ResultFallbacks{W: 2, B: 1}) {
					t.Errorf("result.json fallbacks %+v", f)
				}
				if log := logFile(t, rec, "3-W.stderr"); !strings.Contains(log, permove.FallbackMarker) {
					t.Errorf("logs/3-W.stderr = %q", log)
				}
				if !rec.Game.IsOver() || rec.Result.Reason == pdd.Violation {
					t.Errorf("result %v", rec.Result)
				}
			}},
		{name: "writes stepLog", white: []string{"steplog"}, wantName: "ErrStepLogWritten", wantColor: pdd.White, wantTurn: 1},
		{name: "exit 3", white: []string{"exit3"}, wantName: "ErrExitStatus", wantColor: pdd.White, wantTurn: 1, wantDetail: "exit status 3"},
		{name: "crash", white: []string{"crash"}, wantName: "ErrExitStatus", wantColor: pdd.White, wantTurn: 1, wantDetail: "signal: aborted"},
		{name: "go panic", white: []string{"first", "panic"}, wantName: "ErrExitStatus", wantColor: pdd.White, wantTurn: 3, wantDetail: "exit status 2",
			check: func(t *testing.T, rec *permove.GameRecord) {
				if !strings.Contains(logFile(t, rec, "3-W.stderr"), "panic: a Go panic") {
					t.Error("the panic is not in the logs")
				}
			}},
		{name: "garbage", white: []string{"garbage"}, wantName: "ErrFileFormat", wantColor: pdd.White, wantTurn: 1,
			check: func(t *testing.T, rec *permove.GameRecord) {
				if got := violationFile(t, rec, "chess.txt"); got != "this is not a board\n" {
					t.Errorf("violation/chess.txt = %q", got)
				}
			}},
		{name: "11 lines", white: []string{"lines11"}, wantName: "ErrFileFormat", wantColor: pdd.White, wantTurn: 1, wantDetail: "chess.txt: line 11"},
		{name: "spaces", white: []string{"spaces"}, wantName: "ErrFileFormat", wantColor: pdd.White, wantTurn: 1, wantDetail: "field 2"},
		{name: "symlink", white: []string{"symlink"}, wantName: "ErrFileFormat", wantColor: pdd.White, wantTurn: 1, wantDetail: "not a regular file"},
		{name: "deletes bridge.txt", black: []string{"delete"}, wantName: "ErrFileFormat", wantColor: pdd.Black, wantTurn: 2},
		{name: "does nothing", white: []string{"nothing"}, wantName: "ErrUnknownAction", wantColor: pdd.White, wantTurn: 1, wantDetail: "nothing was done"},
		{name: "3 tiles", white: []string{"chess:0,0=1+chess:5,5=1+chess:9,9=1"}, wantName: "ErrUnknownAction", wantColor: pdd.White, wantTurn: 1, wantDetail: "3 new tiles"},
		{name: "wrong colour", white: []string{"chess:0,0=2+chess:5,5=2"}, wantName: "ErrWrongColor", wantColor: pdd.White, wantTurn: 1},
		{name: "on an opponent tile", white: []string{"Chess_0,0_9,9"}, black: []string{"chess:0,0=2+chess:5,5=2"},
			wantName: "ErrOccupied", wantColor: pdd.Black, wantTurn: 2},
		{name: "tiles and a bridge", white: []string{"Chess_0,0_2,0", "bridge:0,0=1+bridge:2,0=1+chess:5,5=1+chess:7,7=1"}, black: []string{"Chess_0,9_2,9"},
			wantName: "ErrUnknownAction", wantColor: pdd.White, wantTurn: 3, wantDetail: "2 new tiles and bridge 1"},
		{name: "second bridge on a tile",
			white:    []string{"Chess_0,0_2,0", "Chess_4,0_9,5", "Bridge_0,0_2,0", "bridge:2,0=2+bridge:4,0=2"},
			black:    []string{"Chess_0,9_2,9", "Chess_4,9_6,9", "Chess_8,9_9,7"},
			wantName: "ErrBridgeEnds", wantColor: pdd.White, wantTurn: 7, wantDetail: "bridge 1 stands on 1 cell"},
		{name: "bridge number K0+2", white: []string{"Chess_0,0_2,0", "bridge:0,0=2+bridge:2,0=2"}, black: []string{"Chess_0,9_2,9"},
			wantName: "ErrFileFormat", wantColor: pdd.White, wantTurn: 3, wantDetail: "bridge 2, but no bridge 1"},
		{name: "corner crossing",
			white:    []string{"Chess_4,4_6,6", "Bridge_4,4_6,6", "Chess_0,0_9,0"},
			black:    []string{"Chess_3,6_5,4", "Chess_0,9_9,9", "Bridge_3,6_5,4"},
			wantName: "ErrBridgeCrossing", wantColor: pdd.Black, wantTurn: 6},
		{name: "island touches", white: []string{"Chess_1,1_2,1", "Chess_1,2_2,2", "Chess_3,3_7,7"},
			wantName: "ErrIslandTouches", wantColor: pdd.White, wantTurn: 5, wantDetail: "island"},
		{name: "late child", white: []string{"latechild"}, black: []string{"nothing"},
			wantName: "ErrUnknownAction", wantColor: pdd.Black, wantTurn: 2,
			check: func(t *testing.T, rec *permove.GameRecord) {
				childKilled(t, rec, "1-W.stderr") // killed before it could rewrite chess.txt
				want := record.NewPDDChess(rec.Game.Position()).String()
				if got := violationFile(t, rec, "chess.txt"); got != want {
					t.Errorf("violation/chess.txt = %q, want %q", got, want)
				}
			}},
		{name: "noisy", white: []string{"noisy", "nothing"}, wantName: "ErrUnknownAction", wantColor: pdd.White, wantTurn: 3,
			check: func(t *testing.T, rec *permove.GameRecord) {
				if logFile(t, rec, "1-W.stdout") != "thinking hard\n" || logFile(t, rec, "1-W.stderr") != "some debug output\n" {
					t.Error("logs differ")
				}
				if _, err := os.Stat(filepath.Join(rec.Dir, "logs", "2-B.stdout")); !errors.Is(err, os.ErrNotExist) {
					t.Errorf("an empty output was logged: %v", err)
				}
				if rec.Moves[0].Fallback || rec.ResultFile().Fallbacks != nil {
					t.Error("debug output on stderr counted as a fallback move")
				}
			}},
		{name: "sabotage", white: []string{"sabotage"}, wantName: "ErrStepLogWritten", wantColor: pdd.White, wantTurn: 1, wantDetail: "logs is a regular file the referee did not make",
			check: func(t *testing.T, rec *permove.GameRecord) {
				outside := strings.TrimSpace(logFile(t, rec, "1-W.stdout"))
				defer os.RemoveAll(outside)
				if entries, err := os.ReadDir(outside); err != nil || len(entries) != 0 {
					t.Errorf("the referee wrote outside the game directory: %v, %v", entries, err)
				}
				violationFile(t, rec, "chess.txt")
			}},
		{name: "CRLF files", white: []string{"crlf", "nothing"}, black: []string{"crlf"}, wantName: "ErrUnknownAction", wantColor: pdd.White, wantTurn: 3},
		{name: "program not found", command: [2][]string{{"/nonexistent/pdd-bot"}, nil}, wantName: "ErrProgramStart", wantColor: pdd.White, wantTurn: 1},
		{name: "Change when not available", white: []string{"Chess_0,0_2,0", "Chess_5,5_9,9"}, black: []string{"Chess_0,9_2,9", "Change"},
			wantName: "ErrOccupied", wantColor: pdd.Black, wantTurn: 4},
		{name: "seed Change game", white: []string{"Chess_2,0_2,2", "Chess_0,2_1,3", "Chess_8,8_9,9"}, black: []string{"Change", "Bridge_2,0_2,2", "nothing"},
			wantName: "ErrUnknownAction", wantColor: pdd.Black, wantTurn: 6,
			check: func(t *testing.T, rec *permove.GameRecord) {
				for name, want := range map[string]string{"stepLog.txt": pddSeedStepLog, "chess.txt": pddF2Chess, "bridge.txt": pddF2Bridge} {
					if got, _ := os.ReadFile(filepath.Join(rec.Dir, name)); string(got) != want {
						t.Errorf("%s = %q, want %q", name, got, want)
					}
				}
			}},
		{name: "random CRLF", command: [2][]string{{random}, {random}}, crlf: true,
			check: func(t *testing.T, rec *permove.GameRecord) {
				if got, _ := os.ReadFile(filepath.Join(rec.Dir, "chess.txt")); !bytes.HasSuffix(got, []byte("\r\n")) || len(got) != 210 {
					t.Errorf("chess.txt is not CRLF: %q", got)
				}
				if rec.Result.Reason == pdd.Violation || rec.Result.Reason == pdd.Unfinished || !rec.Game.IsOver() {
					t.Errorf("result %v", rec.Result)
				}
			}},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			t.Parallel()
			runPDDScenario(t, bots, s)
		})
	}

	// Two example strategies play to the end: a decision by score, or a
	// draw; the directory replays. The quick tier plays that game with CRLF
	// files only ("random CRLF" above); the long tier (BOTARENA_LONG=1)
	// plays it with LF files too, as the scripted whole games below do.
	t.Run("random game", func(t *testing.T) {
		longtest.Skip(t, "a second whole game of the random strategies, with LF files")
		t.Parallel()
		rec := runPDDScenario(t, bots, pddScenario{command: [2][]string{{random}, {random}}})
		if rec.Result.Reason == pdd.Violation || rec.Result.Reason == pdd.Unfinished || !rec.Game.IsOver() {
			t.Errorf("result %v", rec.Result)
		}
	})

	// An Official game over files: supplies, voluntary and
	// forced passes as stepLog lines, the end by passing.
	t.Run("official game", func(t *testing.T) {
		t.Parallel()
		rec := runPDDScenario(t, bots, pddScenario{white: []string{"@official"}, black: []string{"@official"}, rules: pdd.Official})
		if rec.Result.Reason == pdd.Violation || !rec.Game.IsOver() || !slices.Contains(rec.Game.Moves(), pdd.Pass) {
			t.Errorf("result %v, moves %v", rec.Result, rec.Game.Moves())
		}
	})

	// A scripted game with a skip: the side without a move is skipped, and
	// the game is the one scripted, pass for pass.
	t.Run("skip game", func(t *testing.T) {
		t.Parallel()
		g := pddGameWithSkip(t)
		var scripts [2][]string
		for i, m := range g.Moves() {
			if m == pdd.Pass {
				continue
			}
			p, _ := g.PositionAt(i)
			scripts[p.Turn()-pdd.White] = append(scripts[p.Turn()-pdd.White], m.String())
		}
		rec := runPDDScenario(t, bots, pddScenario{white: scripts[0], black: scripts[1]})
		if len(rec.Skips) == 0 {
			t.Fatal("no skip recorded")
		}
		if diff := cmp.Diff(g.Moves(), rec.Game.Moves()); diff != "" {
			t.Errorf("moves (-want +got):\n%s", diff)
		}
		want, _ := g.Result()
		if rec.Result != want {
			t.Errorf("result %v, want %v", rec.Result, want)
		}
	})
}

// runPDDScenario plays one game of the scenario in a new directory and
// checks the violation and the directory.
func runPDDScenario(t *testing.T, bots string, s pddScenario) *permove.GameRecord {
	t.Helper()
	progs := [2]permove.Program{}
	for i, script := range [2][]string{s.white, s.black} {
		progs[i].Command = append([]string{bots}, script...)
		if s.command[i] != nil {
			progs[i].Command = s.command[i]
		}
	}
	ref := &permove.Referee{CRLF: s.crlf, Rules: s.rules}
	if s.limit > 0 {
		ref.Control = timer.PerMove(s.limit)
	}
	ref.NoTimeLimit = s.noLimit
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	rec, err := ref.Play(ctx, filepath.Join(t.TempDir(), "game"), progs[0], progs[1])
	if err != nil {
		t.Fatal(err)
	}
	v := rec.Violation
	switch {
	case s.wantName == "" && v != nil:
		t.Fatalf("violation %v (%s)", v, v.Name())
	case s.wantName != "" && v == nil:
		t.Fatalf("no violation, result %v", rec.Result)
	case v != nil && (v.Name() != s.wantName || v.Color != s.wantColor || v.Turn != s.wantTurn || !strings.Contains(v.Error(), s.wantDetail)):
		t.Fatalf("violation %v (%s); want %s by %s on turn %d, with %q", v, v.Name(), s.wantName, s.wantColor, s.wantTurn, s.wantDetail)
	}
	if v != nil && (rec.Result.Reason != pdd.Violation || rec.Result.Winner != v.Color.Opponent()) {
		t.Errorf("result %v after %v", rec.Result, v)
	}
	checkPDDGameDir(t, rec)
	if s.check != nil {
		s.check(t, rec)
	}
	return rec
}

// pddGameWithSkip returns a uniformly random Course game, played to the
// end, in which a side is skipped.
func pddGameWithSkip(t *testing.T) *pdd.Game {
	for seed := uint64(1); seed < 1000; seed++ {
		r := rand.New(rand.NewPCG(seed, 2))
		g := pdd.NewGame(pdd.Course)
		for !g.IsOver() {
			ms := g.Position().AppendLegalMoves(nil)
			if err := g.Play(ms[r.IntN(len(ms))]); err != nil {
				t.Fatal(err)
			}
		}
		if slices.Contains(g.Moves(), pdd.Pass) {
			return g
		}
	}
	t.Fatal("no game with a skip")
	return nil
}

// The referee refuses a directory that is not empty and a bad
// configuration, and stops with ctx.
func TestRefereeErrors(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "old"), nil, 0o644)
	ref := &permove.Referee{}
	prog := permove.Program{Command: []string{"true"}}
	if _, err := ref.Play(t.Context(), dir, prog, prog); err == nil || !strings.Contains(err.Error(), "not empty") {
		t.Errorf("non-empty directory: %v", err)
	}
	if _, err := (&permove.Referee{Rules: 7}).Play(t.Context(), t.TempDir(), prog, prog); err == nil {
		t.Error("rules 7 accepted")
	}
	if _, err := (&permove.Referee{Control: timer.Control{Main: -1}}).Play(t.Context(), t.TempDir(), prog, prog); err == nil {
		t.Error("negative control accepted")
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	rec, err := ref.Play(ctx, filepath.Join(t.TempDir(), "g"), prog, prog)
	if !errors.Is(err, context.Canceled) || rec == nil || rec.Result.Reason != pdd.Unfinished {
		t.Errorf("canceled: %v, %+v", err, rec)
	}
}

// TestRefereeInProcessPlayer: a Program with a Player plays in the
// referee's process through the same files and checks: a whole game
// between two such players is recorded and replays from the game
// directory; a player that ignores its deadline has a fallback move played
// and counted, and is told the referee's clock as a per-move cap.
func TestRefereeInProcessPlayer(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	random := pdd.PlayerFunc(func(_ context.Context, p pdd.Position) (pdd.Move, error) {
		moves := p.AppendLegalMoves(nil)
		return moves[rng.IntN(len(moves))], nil
	})
	// The first call outlives its deadline, so it still runs when the
	// next move is asked: the player must be safe for concurrent use.
	var calls atomic.Int32
	statusCh := make(chan timer.Status, 1)
	slow := pdd.PlayerFunc(func(ctx context.Context, p pdd.Position) (pdd.Move, error) {
		if calls.Add(1) == 1 {
			s, _ := timer.StatusFrom(ctx)
			statusCh <- s
			<-ctx.Done() // misses its deadline
			time.Sleep(10 * time.Millisecond)
		}
		return p.AppendLegalMoves(nil)[0], nil
	})
	// 2 s a move: the runner keeps 400 ms back to write the fallback move,
	// time enough on a loaded machine.
	ref := &permove.Referee{Control: timer.PerMove(2 * time.Second)}
	rec, err := ref.Play(t.Context(), filepath.Join(t.TempDir(), "game"), permove.Program{Name: "slow", Player: slow}, permove.Program{Player: random})
	if err != nil {
		t.Fatal(err)
	}
	if rec.Violation != nil || !rec.Game.IsOver() || len(rec.Moves) < 10 {
		t.Fatalf("violation %v, over %v after %d moves; want a whole game", rec.Violation, rec.Game.IsOver(), len(rec.Moves))
	}
	if rec.White != "slow" || rec.Black != "player" {
		t.Errorf("names %q and %q; want slow and player", rec.White, rec.Black)
	}
	if n := rec.Fallbacks(pdd.White); n != 1 || !rec.Moves[0].Fallback {
		t.Errorf("white's fallbacks: %d, first move a fallback %v; want its first move only", n, rec.Moves[0].Fallback)
	}
	if n := rec.Fallbacks(pdd.Black); n != 0 {
		t.Errorf("black's fallbacks: %d, want 0", n)
	}
	status := <-statusCh
	if d := status.Deadline.Sub(status.Start); status.Control != timer.PerMove(2*time.Second) || !status.ControlTold || d > 1700*time.Millisecond || d < 1400*time.Millisecond {
		t.Errorf("the player's Status %+v; want the referee's 2 s a move, told, its deadline about 1.6 s after its start", status)
	}
	checkPDDGameDir(t, rec)
}

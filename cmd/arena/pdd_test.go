package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/botarena/botarena/internal/longtest"
	"github.com/botarena/botarena/pdd"
	"github.com/botarena/botarena/protocol/permove"
	"github.com/botarena/botarena/record"
	"github.com/botarena/botarena/timer"
	"github.com/botarena/botarena/viewer"
	"github.com/google/go-cmp/cmp"
)

// pddPlayInProcess plays a Course game between two built-in players without
// processes, and returns its result.
func pddPlayInProcess(t testing.TB, players [2]pdd.Player) pdd.Result {
	t.Helper()
	g := pdd.NewGame(pdd.Course)
	turn := 1
	for !g.IsOver() {
		p := g.Position()
		if p.MustPass() {
			if err := g.Play(pdd.Pass); err != nil {
				t.Fatal(err)
			}
			continue
		}
		m, err := players[p.Turn()-pdd.White].Play(context.Background(), p)
		if err != nil {
			t.Fatal(err)
		}
		if err := g.Play(m); err != nil {
			t.Fatalf("turn %d: %v", turn, err)
		}
		turn++
	}
	res, _ := g.Result()
	return res
}

// The stronger built-in beats random clearly, with either colour.
func TestPDDGreedyBeatsRandom(t *testing.T) {
	t.Parallel()
	games := 20
	if testing.Short() {
		games = 6
	}
	wins := 0
	for i := range games {
		greedy, _ := newPDDBot("greedy", uint64(2*i+1), timer.Control{})
		random, _ := newPDDBot("random", uint64(2*i+2), timer.Control{})
		players := [2]pdd.Player{greedy, random}
		greedyColor := pdd.White
		if i%2 == 1 {
			players[0], players[1] = random, greedy
			greedyColor = pdd.Black
		}
		res := pddPlayInProcess(t, players)
		if !res.Draw && res.Winner == greedyColor {
			wins++
		}
	}
	t.Logf("greedy won %d of %d", wins, games)
	if wins*10 < games*7 {
		t.Errorf("greedy won %d of %d games against random, want at least 70%%", wins, games)
	}
}

func TestPDDDef(t *testing.T) {
	d := pddDef()
	if d.Name != "pdd" || d.Title != "Ponte del Diavolo" || !slices.Equal(d.Builtins, []string{"random", "greedy", "alphabeta", "mcts", "best"}) ||
		!slices.Equal(d.Protocols, []string{"strategy"}) || d.Seats != [2]string{"white", "black"} ||
		!slices.Equal(d.Presets, []string{"course", "official"}) || d.DefaultTime != "5s/move" ||
		d.Serve != nil || d.NewRunner == nil || d.Bot == nil || d.Flags == nil ||
		d.Defaults != [2]string{"greedy", "random"} {
		t.Errorf("pddDef: %+v", d)
	}
	// -eol and -workdir land in the runner.
	fs := flag.NewFlagSet("match", flag.ContinueOnError)
	d.Flags(fs)
	dir := t.TempDir()
	if err := fs.Parse([]string{"-eol", "crlf", "-workdir", dir}); err != nil {
		t.Fatal(err)
	}
	r, err := d.NewRunner(&matchConfig{Game: d, Rules: "official", Players: []*playerSpec{pddPlayer("random", ""), pddPlayer("greedy", "")}})
	if err != nil {
		t.Fatal(err)
	}
	ref := r.(*pddRunner).ref
	if !ref.CRLF || ref.WorkDir != dir || ref.Rules != pdd.Official || ref.Control.MoveCap.Seconds() != 5 {
		t.Errorf("referee %+v", ref)
	}
}

// pddPlayer returns a player spec as the framework makes it: a built-in
// (proto "") or a strategy program.
func pddPlayer(name, proto string, command ...string) *playerSpec {
	if proto == "" {
		return &playerSpec{Spec: name, Name: name, Builtin: name}
	}
	return &playerSpec{Spec: proto + ":" + strings.Join(command, " "), Name: name, Protocol: proto, Command: command}
}

// pddTestRunner makes the runner of a match between the players.
func pddTestRunner(t testing.TB, cfg matchConfig, players ...*playerSpec) *pddRunner {
	t.Helper()
	cfg.Game = pddDef()
	cfg.Players = players
	r, err := newPDDRunner(&cfg, "", "")
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// pddJob is a game between white and black in a fresh directory.
func pddJob(t testing.TB, n int, white, black *playerSpec, w viewer.Watcher) *gameJob {
	return &gameJob{N: n, Seats: [2]*playerSpec{white, black}, Seed: uint64(n), Dir: filepath.Join(t.TempDir(), "game"),
		ID: fmt.Sprintf("pdd-%d", n), Watch: w, Log: slog.New(slog.DiscardHandler)}
}

// checkPDDGame checks a finished game's directory and what the viewer was
// shown: the start, a frame per stepLog line and the last, and a replay of
// the stepLog with the same boards; the record is result.json, whose replay
// names the players (white, black) and shows the same game.
func checkPDDGame(t *testing.T, res gameResult, w *testWatcher, startPlies int, players [2]string) {
	t.Helper()
	if res.Err != nil {
		t.Fatalf("arena error: %v", res.Err)
	}
	if filepath.Base(res.Record) != "result.json" {
		t.Errorf("the record is %s, want the game directory's result.json", res.Record)
	}
	dir := filepath.Dir(res.Record)
	data, err := os.ReadFile(filepath.Join(dir, "stepLog.txt"))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"chess.txt", "bridge.txt", "result.json"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Error(err)
		}
	}
	rp, err := viewer.ReplayPDD("stepLog.txt", data)
	if err != nil {
		t.Fatal(err)
	}
	if len(frames(rp)) != res.Plies+1 {
		t.Errorf("replay: %d frames for %d plies", len(frames(rp)), res.Plies)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	// Begin, one Update per new line, Finish.
	if want := res.Plies - startPlies + 2; len(w.frames) != want {
		t.Fatalf("the viewer got %d frames, want %d", len(w.frames), want)
	}
	rpFrames := frames(rp)
	for i, f := range w.frames[:len(w.frames)-1] {
		ply := startPlies + i
		if f.Ply != ply || f.Board != rpFrames[ply].Board || f.Move != rpFrames[ply].Move {
			t.Errorf("live frame %d (ply %d, %q) differs from the replay's (ply %d, %q)", i, f.Ply, f.Move, rpFrames[ply].Ply, rpFrames[ply].Move)
		}
		if f.Clocks[0] == "" || f.Clocks[1] == "" {
			t.Errorf("frame %d: no clocks %q", i, f.Clocks)
		}
	}
	last := w.frames[len(w.frames)-1]
	if last.ToMove != -1 || len(w.finished) != 1 || !strings.HasSuffix(w.finished[0], "|"+res.Record) {
		t.Errorf("last frame %+v, finished %q", last, w.finished)
	}
	rf, err := permove.ReadResultFile(bytes.NewReader(mustRead(t, filepath.Join(dir, "result.json"))))
	if err != nil {
		t.Fatal(err)
	}
	if rf.Plies != res.Plies || rf.StartPlies != startPlies {
		t.Errorf("result.json: %d plies (%d from the start), the result %d", rf.Plies, rf.StartPlies, res.Plies)
	}
	rj, err := viewer.ReplayPDD("result.json", mustRead(t, res.Record))
	if err != nil {
		t.Fatal(err)
	}
	if len(frames(rj)) != len(frames(rp)) || frames(rj)[len(frames(rj))-1].Board != frames(rp)[len(frames(rp))-1].Board || rj.Result == "" {
		t.Errorf("result.json replay: %d frames, result %q", len(frames(rj)), rj.Result)
	}
	if rj.Players != players {
		t.Errorf("the record's replay names the players %q, want %q", rj.Players, players)
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Built-ins play as real child processes (this test binary acting as
// arena, "arena bot pdd NAME ..."), one per move, through the referee.
func TestPDDBuiltinsAsPrograms(t *testing.T) {
	t.Parallel()
	white, black := pddPlayer("greedy", ""), pddPlayer("random", "")
	r := pddTestRunner(t, matchConfig{}, white, black)
	w := &testWatcher{}
	res := r.Play(t.Context(), pddJob(t, 1, white, black, w))
	if res.Winner != 0 || res.Faults != [2]fault{} || !slices.Contains([]string{"score", "islands", "bridges"}, res.Reason) ||
		!strings.HasPrefix(res.Detail, "points/islands/bridges white ") || res.Plies < 20 {
		t.Errorf("greedy vs random: %+v", res)
	}
	checkPDDGame(t, res, w, 0, [2]string{"greedy", "random"})
	if w.infos[0].Players != [2]string{"greedy", "random"} || w.infos[0].Seats != [2]string{"white", "black"} || w.infos[0].Game != "pdd" {
		t.Errorf("game info %+v", w.infos[0])
	}

	// The same game again from the middle of this one (-start, a stepLog
	// cut after 30 lines): the record goes on from there.
	l, err := record.ReadPDDStepLog(bytes.NewReader(mustRead(t, filepath.Join(filepath.Dir(res.Record), "stepLog.txt"))), record.PDDStrict)
	if err != nil {
		t.Fatal(err)
	}
	// The start is a game directory: its stepLog.txt, checked against its
	// chess.txt and bridge.txt.
	l.Steps = l.Steps[:30]
	start := t.TempDir()
	b, _ := l.MarshalText()
	mid, err := record.ReplayPDDStepLog(l, pdd.Course)
	if err != nil {
		t.Fatal(err)
	}
	cb, _ := record.NewPDDChess(mid.Position()).MarshalText()
	bb, _ := record.NewPDDBridges(mid.Position()).MarshalText()
	for name, data := range map[string][]byte{"stepLog.txt": b, "chess.txt": cb, "bridge.txt": bb} {
		if err := os.WriteFile(filepath.Join(start, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r2 := pddTestRunner(t, matchConfig{Start: start}, white, black)
	w2 := &testWatcher{}
	res2 := r2.Play(t.Context(), pddJob(t, 2, white, black, w2))
	if res2.Plies <= 30 || res2.Winner < -1 {
		t.Errorf("from the start record: %+v", res2)
	}
	checkPDDGame(t, res2, w2, 30, [2]string{"greedy", "random"})
	if got := mustRead(t, filepath.Join(filepath.Dir(res2.Record), "stepLog.txt")); !bytes.HasPrefix(got, b) {
		t.Errorf("the stepLog does not open with the start's lines:\n%s", got)
	}

	// The record a match lists, result.json, is a start too: here the
	// first game's, cut after 30 moves.
	rf, err := permove.ReadResultFile(bytes.NewReader(mustRead(t, res.Record)))
	if err != nil {
		t.Fatal(err)
	}
	rf.Moves = rf.Moves[:30]
	js, _ := json.Marshal(rf)
	cut := filepath.Join(t.TempDir(), "result.json")
	if err := os.WriteFile(cut, js, 0o644); err != nil {
		t.Fatal(err)
	}
	r3 := pddTestRunner(t, matchConfig{Start: cut}, black, white)
	if diff := cmp.Diff(l.Steps, r3.ref.Start.Steps); diff != "" || r3.start != mid.Position() {
		t.Errorf("result.json as the start (-want +got):\n%s", diff)
	}
}

// pddScript writes an executable shell script that first writes its pid,
// as arena sees it, to pidFile: "$$" is its pid in its own PID namespace,
// but /proc is arena's, and the shell opens a builtin's redirection
// itself, so its /proc/self/stat names it as arena does.
func pddScript(t *testing.T, name, body string) (path, pidFile string) {
	t.Helper()
	dir := t.TempDir()
	path, pidFile = filepath.Join(dir, name), filepath.Join(dir, "pid")
	if err := os.WriteFile(path, []byte("#!/bin/sh\nread pid _ </proc/self/stat; echo $pid > "+pidFile+"\n"+body+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return path, pidFile
}

// checkReaped checks that the process whose pid is in pidFile is gone.
func checkReaped(t *testing.T, pidFile string) {
	t.Helper()
	b, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatalf("the program did not run: %v", err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
		t.Errorf("program %d not reaped: kill(0) = %v", pid, err)
	}
}

// Programs that are missing, crash, hang or write garbage lose their game
// with the reason, are reaped, and the runner goes on with the next game,
// here one of a real program built from examples/pdd-random.
func TestPDDBadPrograms(t *testing.T) {
	t.Parallel()
	crash, crashPID := pddScript(t, "crash", "exit 3")
	hang, hangPID := pddScript(t, "hang", "exec sleep 30")
	garbage, garbagePID := pddScript(t, "garbage", `echo "this is not a board" > "$3"`)
	random := pddPlayer("random", "")
	// Only the program that hangs gets a short limit; the others must not
	// time out however busy the machine is.
	cases := []struct {
		player    *playerSpec
		pidFile   string
		time      string
		violation string // in result.json
		kind      faultKind
		want      string
	}{
		{pddPlayer("missing", "strategy", filepath.Join(t.TempDir(), "no-such-bot")), "", "60s/move", "ErrProgramStart", faultStart, "program not found: "},
		{pddPlayer("crash", "strategy", crash), crashPID, "60s/move", "ErrExitStatus", faultCrash, "turn 1: exit status 3"},
		{pddPlayer("hang", "strategy", hang), hangPID, "1s/move", "ErrTimeout", faultTimeout, "turn 1: "},
		{pddPlayer("garbage", "strategy", garbage), garbagePID, "60s/move", "ErrFileFormat", faultProtocol, "turn 1: chess.txt"},
	}
	var players []*playerSpec
	for _, c := range cases {
		players = append(players, c.player)
	}
	for i, c := range cases {
		// The bad program plays white and fails on the first move.
		r := pddTestRunner(t, matchConfig{Time: c.time}, append(players, random)...)
		res := r.Play(t.Context(), pddJob(t, i+1, c.player, random, &testWatcher{}))
		if res.Err != nil || res.Winner != 1 || res.Reason != "violation" || res.Plies != 0 || res.Faults[1] != (fault{}) ||
			res.Faults[0].Kind != c.kind || !strings.Contains(res.Faults[0].Reason, c.want) || strings.Contains(res.Faults[0].Reason, "protocol:") {
			t.Errorf("%s: %+v", c.player.Name, res)
		}
		if c.pidFile != "" {
			checkReaped(t, c.pidFile)
		}
		rf, err := permove.ReadResultFile(bytes.NewReader(mustRead(t, filepath.Join(filepath.Dir(res.Record), "result.json"))))
		if err != nil || rf.Violation == nil || rf.Violation.Name != c.violation || rf.Winner != "B" {
			t.Errorf("%s: result.json %+v, %v", c.player.Name, rf, err)
		}
	}
	// The runner still plays: a whole game after them, between a real
	// program built from examples/pdd-random and a built-in.
	example := pddPlayer("pdd-random", "strategy", buildProgram(t, "examples/pdd-random"))
	r := pddTestRunner(t, matchConfig{Time: "60s/move"}, append(players, random, example)...)
	w := &testWatcher{}
	res := r.Play(t.Context(), pddJob(t, 9, example, random, w))
	if res.Winner < -1 || res.Faults != [2]fault{} {
		t.Errorf("pdd-random vs random: %+v", res)
	}
	checkPDDGame(t, res, w, 0, [2]string{"pdd-random", "random"})
}

// Cancelling ctx ends a game at once as unfinished, and kills the program
// that is thinking.
func TestPDDCancel(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	fifo := filepath.Join(dir, "started")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no fifo:", err)
	}
	hang, hangPID := pddScript(t, "hang", "echo started > "+fifo+"\nexec sleep 30")
	white := pddPlayer("hang", "strategy", hang)
	r := pddTestRunner(t, matchConfig{Time: "none"}, white, pddPlayer("random", ""))
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	go func() {
		// Opening the fifo waits for the program to open it.
		if f, err := os.Open(fifo); err == nil {
			io.ReadAll(f)
			f.Close()
		}
		cancel()
	}()
	w := &testWatcher{}
	res := r.Play(ctx, pddJob(t, 1, white, pddPlayer("random", ""), w))
	if res.Winner != -2 || res.Err != nil || res.Reason != "" {
		t.Errorf("cancelled: %+v", res)
	}
	checkReaped(t, hangPID)
	if len(w.finished) != 1 {
		t.Errorf("finished %q", w.finished)
	}
}

// NewRunner refuses bad options, saying what is accepted.
func TestPDDRunnerOptions(t *testing.T) {
	over := filepath.Join(t.TempDir(), "over")
	os.Mkdir(over, 0o755)
	g := pdd.NewGame(pdd.Course)
	for i := 0; !g.IsOver(); i++ {
		ms := g.Position().AppendLegalMoves(nil)
		g.Play(ms[i*7919%len(ms)])
	}
	b, _ := record.NewPDDStepLog(g).MarshalText()
	os.WriteFile(filepath.Join(over, "stepLog.txt"), b, 0o644)
	// A directory whose chess.txt is not what its stepLog.txt plays to.
	mismatch := t.TempDir()
	os.WriteFile(filepath.Join(mismatch, "stepLog.txt"), []byte("W_1_Chess_0,0_1,0\n"), 0o644)
	os.WriteFile(filepath.Join(mismatch, "chess.txt"), []byte(strings.Repeat("0,0,0,0,0,0,0,0,0,0\n", 10)), 0o644)
	os.WriteFile(filepath.Join(mismatch, "bridge.txt"), []byte(strings.Repeat("0,0,0,0,0,0,0,0,0,0\n", 10)), 0o644)
	// A stepLog.txt alone is a start.
	cfg := matchConfig{Game: pddDef(), Players: []*playerSpec{pddPlayer("random", "")}, Start: filepath.Join(mismatch, "stepLog.txt")}
	if r, err := newPDDRunner(&cfg, "", ""); err != nil || r.start.Tiles(pdd.White).Count() != 2 || len(r.ref.Start.Steps) != 1 {
		t.Errorf("a stepLog.txt as the start: %v", err)
	}
	notALog := filepath.Join(t.TempDir(), "x.txt")
	os.WriteFile(notALog, []byte("hello\n"), 0o644)
	file := filepath.Join(t.TempDir(), "file")
	os.WriteFile(file, nil, 0o644)
	players := []*playerSpec{pddPlayer("random", ""), pddPlayer("greedy", "")}
	for _, c := range []struct {
		cfg          matchConfig
		eol, workdir string
		want         string
	}{
		{cfg: matchConfig{Rules: "fast"}, want: "presets: course, official"},
		{cfg: matchConfig{Time: "5 seconds"}, want: "accepted: 5s/move"},
		{cfg: matchConfig{MaxPlies: 10}, want: "no ply limit"},
		{eol: "cr", want: "want lf or crlf"},
		{workdir: file, want: "not a directory"},
		{workdir: filepath.Join(file, "x"), want: "-workdir"},
		{cfg: matchConfig{Start: filepath.Join(over, "nothing")}, want: "want a pdd game directory, its stepLog.txt or its result.json"},
		{cfg: matchConfig{Start: notALog}, want: "stepLog.txt"},
		{cfg: matchConfig{Start: over}, want: "the game is over"},
		{cfg: matchConfig{Start: mismatch}, want: "stepLog.txt replays to 1 at 0,0"},
	} {
		c.cfg.Game, c.cfg.Players = pddDef(), players
		if _, err := newPDDRunner(&c.cfg, c.eol, c.workdir); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v %q %q: %v, want %q", c.cfg, c.eol, c.workdir, err, c.want)
		}
	}
	cfg = matchConfig{Game: pddDef(), Players: []*playerSpec{pddPlayer("deepblue", "")}}
	if _, err := newPDDRunner(&cfg, "", ""); err == nil || !strings.Contains(err.Error(), "random, greedy") {
		t.Errorf("unknown built-in: %v", err)
	}
}

// "arena bot pdd NAME ..." plays one move on the files, and refuses unknown
// bots and bad invocations.
func TestPDDBotCommand(t *testing.T) {
	dir := t.TempDir()
	chess, bridge, stepLog := filepath.Join(dir, "chess.txt"), filepath.Join(dir, "bridge.txt"), filepath.Join(dir, "stepLog.txt")
	empty := strings.Repeat("0,0,0,0,0,0,0,0,0,0\n", 10)
	os.WriteFile(chess, []byte(empty), 0o644)
	os.WriteFile(bridge, []byte(empty), 0o644)
	os.WriteFile(stepLog, nil, 0o644)
	var stderr bytes.Buffer
	if code := pddBot(t.Context(), "greedy", []string{"-seed", "7", "W", "N", chess, bridge, stepLog}, nil, io.Discard, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	c, err := record.ReadPDDChess(bytes.NewReader(mustRead(t, chess)), record.PDDStrict)
	if err != nil {
		t.Fatal(err)
	}
	if n := slices.Index(c.Cells[:], pdd.White); n < 0 || strings.Count(c.String(), "1") != 2 {
		t.Errorf("after greedy's move:\n%s", c)
	}
	// best plays the first move too, under -time none at its fixed depth.
	stderr.Reset()
	os.WriteFile(chess, []byte(empty), 0o644)
	if code := pddBot(t.Context(), "best", []string{"-seed", "7", "-time", "none", "W", "N", chess, bridge, stepLog}, nil, io.Discard, &stderr); code != 0 || stderr.Len() > 0 {
		t.Fatalf("best: exit %d: %s", code, stderr.String())
	}
	if c := string(mustRead(t, chess)); strings.Count(c, "1") != 2 {
		t.Errorf("after best's move:\n%s", c)
	}
	stderr.Reset()
	if code := pddBot(t.Context(), "deepblue", []string{"W", "N", chess, bridge, stepLog}, nil, io.Discard, &stderr); code != 2 || !strings.Contains(stderr.String(), "random, greedy") {
		t.Errorf("unknown bot: exit %d, %q", code, stderr.String())
	}
	stderr.Reset()
	if code := pddBot(t.Context(), "random", []string{"X", "N", chess, bridge, stepLog}, nil, io.Discard, &stderr); code != 2 || !strings.Contains(stderr.String(), "want W or B") {
		t.Errorf("bad colour: exit %d, %q", code, stderr.String())
	}
	stderr.Reset()
	if code := pddBot(t.Context(), "random", []string{"-rules", "fast", "W", "N", chess, bridge, stepLog}, nil, io.Discard, &stderr); code != 2 || !strings.Contains(stderr.String(), "course or official") {
		t.Errorf("bad rules: exit %d, %q", code, stderr.String())
	}
}

// "arena match pdd" runs in-process: two strategy programs (the built-ins
// as the arena binary runs them, named on the command line), the result
// printed, a record per game with the line ends of -eol. The game starts
// from ply 40 of a recorded one (pddLateStart).
func TestPDDMatchCommand(t *testing.T) {
	t.Parallel()
	arena := arenaBinary(t)
	out := t.TempDir()
	var stdout, stderr bytes.Buffer
	err := run(t.Context(), []string{"match", "pdd", "-out", out, "-games", "1", "-eol", "crlf", "-seed", "5", "-start", pddLateStart(t),
		"greedy=strategy:" + arena + " bot pdd greedy", "random=strategy:" + arena + " bot pdd random"}, &stdout, &stderr)
	if err != nil {
		t.Fatalf("%v\n%s\n%s", err, stdout.String(), stderr.String())
	}
	if !strings.Contains(stdout.String(), "game 1: greedy (white) vs random (black): ") || !strings.Contains(stdout.String(), "plies; record ") {
		t.Errorf("output:\n%s", stdout.String())
	}
	logs, _ := filepath.Glob(filepath.Join(out, "*", "stepLog.txt"))
	if len(logs) != 1 || !bytes.Contains(mustRead(t, logs[0]), []byte("\r\n")) {
		t.Errorf("records %q", logs)
	}
}

// pddLateStart writes the first 40 plies of a recorded game to a
// stepLog.txt of its own and returns its path: a -start from which a game
// takes a few of the moves a whole game would, each a program started (or
// two) for a strategy program.
func pddLateStart(t *testing.T) string {
	t.Helper()
	data := mustRead(t, filepath.Join("..", "..", "viewer", "testdata", "arena-records", "pdd-20261127-132129", "001-greedy-vs-random", record.PDDStepLogFile))
	lines := strings.SplitAfter(string(data), "\n")
	if len(lines) < 41 {
		t.Fatalf("the recorded game has %d plies, want more than 40", len(lines)-1)
	}
	path := filepath.Join(t.TempDir(), record.PDDStepLogFile)
	if err := os.WriteFile(path, []byte(strings.Join(lines[:40], "")), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// BenchmarkMatchPDD: random against random, each move a child process
// (this binary as "arena bot pdd random") on the files, as a match plays
// them; games/s.
func BenchmarkMatchPDD(b *testing.B) {
	random := pddPlayer("random", "")
	r := pddTestRunner(b, matchConfig{}, random, random)
	benchGames(b, func(n int) gameResult { return r.Play(b.Context(), pddJob(b, n, random, random, viewer.Discard{})) })
}

// "arena match pdd" and "arena tournament pdd" write records that name the
// players: the record each line of results.tsv lists (the game directory's
// result.json) reads back, as the replay page reads it, with that game's
// white and black: the built-ins' names, a program's base name, a name
// given with NAME=. The games start from ply 40 of a recorded one.
func TestPDDRecordsNamePlayers(t *testing.T) {
	t.Parallel()
	arena := arenaBinary(t)
	example := buildProgram(t, "examples/pdd-random")
	out := t.TempDir()
	start := pddLateStart(t)
	for _, c := range []struct {
		name  string
		args  []string
		games int
		names []string
	}{
		{"match", []string{"match", "pdd", "-games", "2", "random", "greedy"}, 2, []string{"random", "greedy"}},
		{"tournament", []string{"tournament", "pdd", "-games", "1", "greedy", "me=strategy:" + example, "strategy:" + example}, 3, []string{"greedy", "me", "pdd-random"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := filepath.Join(out, c.name)
			// A generous limit: a program started per move must not time
			// out on a busy machine.
			args := append([]string{c.args[0], c.args[1], "-seed", "7", "-time", "60s/move", "-j", "2", "-out", dir, "-start", start}, c.args[2:]...)
			cmd := exec.Command(arena, args...)
			cmd.Dir = t.TempDir()
			if b, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("arena %q: %v\n%s", args, err, b)
			}
			lines := strings.Split(string(mustRead(t, filepath.Join(dir, resultsFileName))), "\n")
			if lines[0] != resultsHeader {
				t.Fatalf("%s header %q", resultsFileName, lines[0])
			}
			seen := map[string]bool{}
			games := 0
			for _, line := range lines[1:] {
				if line == "" {
					break
				}
				// game pairing index first second ... record first_fallbacks second_fallbacks
				f := strings.Split(line, "\t")
				if len(f) != 15 || f[13] != "0" || f[14] != "0" {
					t.Fatalf("%s line %q", resultsFileName, line)
				}
				n, first, second, rec := f[0], f[3], f[4], f[12]
				games++
				if filepath.Base(rec) != "result.json" {
					t.Errorf("game %s: the record is %s, want its result.json", n, rec)
				}
				rp, err := viewer.ReplayPDD(filepath.Base(rec), mustRead(t, rec))
				if err != nil {
					t.Fatalf("game %s: %v", n, err)
				}
				if want := [2]string{first, second}; rp.Players != want {
					t.Errorf("game %s: the record names %q, want %q", n, rp.Players, want)
				}
				if !strings.Contains(rp.Result, "("+first+")") && !strings.Contains(rp.Result, "("+second+")") && !strings.HasPrefix(rp.Result, "draw") {
					t.Errorf("game %s: the result %q names neither player", n, rp.Result)
				}
				seen[first], seen[second] = true, true
			}
			if games != c.games {
				t.Errorf("%d games in %s, want %d", games, resultsFileName, c.games)
			}
			for _, name := range c.names {
				if !seen[name] {
					t.Errorf("no record names %s", name)
				}
			}
		})
	}
}

// pddScripted builds the permove package's scripted test strategy, which
// plays one scripted action a turn: "late" is a player that misses its
// deadline under the strategy runner (a fallback move), "wait:6s" sleeps
// before it moves, "first" plays the first legal move.
func pddScripted(t *testing.T) string {
	return buildProgram(t, "protocol/permove/testdata/pddbots")
}

// A real strategy program whose player misses its deadline plays fallback
// moves: arena counts them per seat and shows them in the result line,
// result.txt, results.tsv and result.json, and reads them back.
func TestPDDFallbackMoves(t *testing.T) {
	t.Parallel()
	bots := pddScripted(t)
	out := filepath.Join(t.TempDir(), "run")
	stdout := runArena(t, "match", "pdd", "-out", out, "-games", "1", "-time", "60s/move", "-seed", "3",
		"late=strategy:"+bots+" first late late", "steady=strategy:"+bots)
	note := "; late: 2 fallback moves (the player missed its deadline or failed; the program moved in its place)"
	if !strings.Contains(stdout, "game 1: late (white) vs steady (black): ") || !strings.Contains(stdout, note) || strings.Contains(stdout, "steady: ") {
		t.Errorf("output lacks %q:\n%s", note, stdout)
	}
	games, err := readResults(out)
	if err != nil {
		t.Fatal(err)
	}
	g := games[1]
	if g.Result.Fallbacks != [2]int{2, 0} || g.Result.Winner < -1 {
		t.Errorf("results.tsv: %+v", g.Result)
	}
	if txt := string(mustRead(t, filepath.Join(filepath.Dir(g.Result.Record), "result.txt"))); !strings.Contains(txt, note) {
		t.Errorf("result.txt %q lacks %q", txt, note)
	}
	rf, err := permove.ReadResultFile(bytes.NewReader(mustRead(t, g.Result.Record)))
	if err != nil || rf.Fallbacks == nil || *rf.Fallbacks != (permove.ResultFallbacks{W: 2}) {
		t.Errorf("result.json fallbacks %+v, %v", rf.Fallbacks, err)
	}
	var turns []int
	for _, m := range rf.Moves {
		if m.Fallback {
			turns = append(turns, m.Turn)
		}
	}
	if !slices.Equal(turns, []int{3, 5}) {
		t.Errorf("result.json: fallback moves on turns %v, want 3, 5", turns)
	}
}

// Under -time none the referee sets no limit (its zero control would be
// the platform's 5 s) and the built-ins think without a deadline; a
// program that thinks 6 s on a move plays on (long tier: it waits 6 s).
func TestPDDTimeNone(t *testing.T) {
	t.Parallel()
	r := pddTestRunner(t, matchConfig{Time: "none"}, pddPlayer("random", ""))
	if !r.ref.NoTimeLimit || !r.unlimit {
		t.Errorf("-time none: referee %+v", r.ref)
	}
	if prog := r.program(pddPlayer("random", ""), 1); prog.Player == nil || len(prog.Command) != 0 || !r.ctl.Unlimited() {
		t.Errorf("-time none: the built-in runs as %+v under %v; want in-process with no limit", prog, r.ctl)
	}
	r = pddTestRunner(t, matchConfig{Time: "5s/move"}, pddPlayer("random", ""))
	if r.ref.NoTimeLimit {
		t.Error("-time 5s/move: no time limit")
	}
	longtest.Skip(t, "a program that thinks 6 s on its first move under -time none")
	bots := pddScripted(t)
	slow, steady := pddPlayer("slow", "strategy", bots, "wait:6s"), pddPlayer("steady", "strategy", bots)
	r = pddTestRunner(t, matchConfig{Time: "none"}, slow, steady)
	res := r.Play(t.Context(), pddJob(t, 1, slow, steady, &testWatcher{}))
	if res.Faults != [2]fault{} || res.Winner < -1 || res.Err != nil {
		t.Errorf("a 6 s move under -time none: %+v", res)
	}
}

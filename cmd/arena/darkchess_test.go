package main

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/botarena/botarena/darkchess"
	"github.com/botarena/botarena/internal/longtest"
	"github.com/botarena/botarena/internal/proctest"
	"github.com/botarena/botarena/internal/sharedtest"
	"github.com/botarena/botarena/protocol"
	"github.com/botarena/botarena/record"
	"github.com/botarena/botarena/timer"
	"github.com/botarena/botarena/viewer"
)

// TestDarkchessGreedyBeatsRandom: the stronger built-in wins clearly, in
// 40 seeded games in process, paired deals with the seats swapped.
func TestDarkchessGreedyBeatsRandom(t *testing.T) {
	wins, losses, draws := 0, 0, 0
	for i := range 40 {
		g := darkchess.NewGame(darkchess.NTU2021, rand.New(rand.NewPCG(uint64(i/2), 7)))
		greedy, _ := newDarkchessBot("greedy", uint64(i), timer.Control{})
		random, _ := newDarkchessBot("random", uint64(i), timer.Control{})
		seats := [2]protocol.DarkChessSeat{protocol.NewDarkChessPlayerSeat(greedy), protocol.NewDarkChessPlayerSeat(random)}
		gs := 0
		if i%2 == 1 {
			seats[0], seats[1] = seats[1], seats[0]
			gs = 1
		}
		rec, err := (&protocol.DarkChessReferee{}).Play(t.Context(), g, seats)
		if err != nil {
			t.Fatal(err)
		}
		switch w := darkchessWinnerSeat(rec); {
		case w < 0:
			draws++
		case w == gs:
			wins++
		default:
			losses++
		}
	}
	t.Logf("greedy vs random: %d wins, %d draws, %d losses", wins, draws, losses)
	if decided := wins + losses; decided == 0 || wins*10 < decided*7 {
		t.Errorf("greedy won %d of %d decided games (%d draws): want 70%% or more", wins, decided, draws)
	}
}

func TestDarkchessDef(t *testing.T) {
	d := darkchessDef()
	if d.Name != "darkchess" || d.Title != "Chinese dark chess" || d.Builtins[0] != "random" || len(d.Builtins) < 2 ||
		!slices.Equal(d.Protocols, []string{"mgtp", "legacy", "readmode"}) || d.Seats != [2]string{"first", "second"} ||
		!slices.Equal(d.Presets, []string{"ntu2021", "classic", "icga"}) || d.DefaultTime != "900s" ||
		d.Serve != nil || d.NewRunner == nil || d.Bot == nil {
		t.Errorf("darkchessDef: %+v", d)
	}
	if !slices.Contains(d.Builtins, d.Defaults[0]) || d.Defaults[1] != "random" {
		t.Errorf("defaults %q", d.Defaults)
	}
}

// dcPlayer returns a player spec as the framework makes it.
func dcPlayer(t testing.TB, name, proto string, command ...string) *playerSpec {
	t.Helper()
	if proto == "" {
		return &playerSpec{Spec: name, Name: name, Builtin: name}
	}
	return &playerSpec{Spec: proto + ":" + strings.Join(command, " "), Name: name, Protocol: proto, Command: command}
}

// dcRunner makes a runner for players with the options given.
func dcRunner(t testing.TB, cfg matchConfig, players ...*playerSpec) runner {
	t.Helper()
	cfg.Game = darkchessDef()
	cfg.Players = players
	r, err := darkchessDef().NewRunner(&cfg)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// dcPlay plays one game of r between a (first) and b and checks what every
// game must leave behind: the record, which replays to the result, the
// sidecar, and one frame per ply.
func dcPlay(t *testing.T, r runner, a, b *playerSpec, index int, seed uint64, log *slog.Logger) (gameResult, darkchessSidecar) {
	t.Helper()
	dir := t.TempDir()
	w := &testWatcher{}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	job := &gameJob{N: index + 1, Index: index, Seats: [2]*playerSpec{a, b}, Seed: seed, Dir: dir, ID: "dc", Watch: w, Log: log}
	res := r.Play(t.Context(), job)
	if res.Err != nil {
		t.Fatalf("Play: %v", res.Err)
	}
	if res.Record != filepath.Join(dir, "board.txt") {
		t.Fatalf("record %q", res.Record)
	}
	data, err := os.ReadFile(res.Record)
	if err != nil {
		t.Fatal(err)
	}
	board, err := record.ReadDarkChessBoard(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("the record does not read: %v\n%s", err, data)
	}
	if board.Banner != "INITIAL" || board.First != a.Name || board.Second != b.Name || len(board.Plies) != res.Plies ||
		len(board.Times) != res.Plies+1 {
		t.Errorf("record: %+v", board)
	}
	if res.Winner >= -1 && board.Result == nil {
		t.Errorf("a finished game's record has no result line:\n%s", data)
	}
	var sc darkchessSidecar
	js, err := os.ReadFile(res.Record + ".json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(js, &sc); err != nil {
		t.Fatal(err)
	}
	if sc.Seed != seed || sc.Index != index || sc.Pair != index/2 || len(sc.Deal) != 39 || sc.Reason != res.Reason || sc.Plies != res.Plies {
		t.Errorf("sidecar: %s", js)
	}
	// The replay page shows the same game.
	rp, err := viewer.ReplayDarkChess("board.txt", data)
	if err != nil {
		t.Fatal(err)
	}
	if len(frames(rp)) != res.Plies+1 || rp.Players != [2]string{a.Name, b.Name} {
		t.Errorf("replay: %d frames for %d plies, players %q", len(frames(rp)), res.Plies, rp.Players)
	}
	// Live: a start frame, one per ply, the last one.
	w.mu.Lock()
	defer w.mu.Unlock()
	first := w.frames[0].Ply // the plies of a -start record
	if len(w.infos) != 1 || len(w.finished) != 1 || len(w.frames) != res.Plies-first+2 {
		t.Errorf("viewer: %d begins, %d finishes, %d frames for %d plies from %d", len(w.infos), len(w.finished), len(w.frames), res.Plies, first)
	}
	if f := w.frames[0]; first == 0 && (!strings.Contains(f.Status, "a flip gives the colours") || strings.Contains(f.Board, "(red)")) {
		t.Errorf("the start frame gives colours: %q", f.Status)
	}
	for i, f := range w.frames[:len(w.frames)-1] {
		if f.Ply != first+i {
			t.Fatalf("frame %d: ply %d", i, f.Ply)
		}
		dcCheckSVG(t, f.Board)
	}
	if last := w.frames[len(w.frames)-1]; last.ToMove != -1 || last.Ply != res.Plies && res.Plies > 0 {
		t.Errorf("last frame: ply %d, to move %d", last.Ply, last.ToMove)
	}
	return res, sc
}

// TestDarkchessBuiltinsThroughMGTP: two built-ins, each this binary run as
// an MGTP engine, play a pair of games with the same deal, seats swapped.
func TestDarkchessBuiltinsThroughMGTP(t *testing.T) {
	var pids proctest.PIDLog
	log := slog.New(&pids)
	r := dcRunner(t, matchConfig{Time: "60s"})
	g, rnd := dcPlayer(t, "greedy", ""), dcPlayer(t, "random", "")
	res0, sc0 := dcPlay(t, r, g, rnd, 0, 42, log)
	res1, sc1 := dcPlay(t, r, rnd, g, 1, 42, log)
	if sc0.Deal != sc1.Deal || sc0.Start != sc1.Start {
		t.Errorf("the games of a pair have different deals: %q, %q", sc0.Deal, sc1.Deal)
	}
	// The sidecar's seed and pair make the deal again.
	if again := darkchess.NewGame(darkchess.NTU2021, rand.New(rand.NewPCG(sc0.Seed, uint64(sc0.Pair)))); again.Position().String() != sc0.Start {
		t.Errorf("seed %d, pair %d deal %q, the sidecar says %q", sc0.Seed, sc0.Pair, again.Position().String(), sc0.Start)
	}
	// The next pair's deal differs.
	if next := darkchess.NewGame(darkchess.NTU2021, rand.New(rand.NewPCG(42, 1))); strings.HasSuffix(next.Position().String(), sc0.Deal) {
		t.Errorf("the next pair has the same deal %q", sc0.Deal)
	}
	for _, res := range []gameResult{res0, res1} {
		if res.Winner < -1 || res.Reason == "" || res.Detail == "" || res.Faults != [2]fault{} {
			t.Errorf("result %+v", res)
		}
		// Under -time 60s each engine hears both clocks before ready.
		for _, seat := range []string{"first", "second"} {
			tr, err := os.ReadFile(filepath.Join(filepath.Dir(res.Record), seat+".command"))
			if err != nil {
				t.Fatal(err)
			}
			if want := "15 time_setting 60000\n>>15\n16 time_left red 60000\n>>16\n16 time_left black 60000\n>>16\n14 ready\n>>14\n12 genmove "; seat == "first" && !strings.Contains(string(tr), want) ||
				!strings.Contains(string(tr), want[:len(want)-len("12 genmove ")]) {
				t.Errorf("%s.command does not hold\n%s\n%.400s", seat, want, tr)
			}
		}
	}
	if len(pids.PIDs()) != 4 {
		t.Errorf("%d programs started, want 4", len(pids.PIDs()))
	}
	pids.CheckReaped(t)
}

// TestDarkchessExamplePrograms: real engines built from examples/, one per
// protocol, and the built-in bots through the legacy socket protocol and read
// mode.
func TestDarkchessExamplePrograms(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds programs")
	}
	mgtpBin := buildProgram(t, "examples/darkchess-mgtp")
	readBin := buildProgram(t, "examples/darkchess-readmode")
	// The built-ins as legacy and read-mode programs: arena itself (built
	// without -race: read mode starts a process per ply).
	self := arenaBinary(t)
	var pids proctest.PIDLog
	log := slog.New(&pids)
	// The quick tier's games are drawn after 4 plies with no capture and no
	// flip (read mode starts a program a ply); the long tier's by the
	// preset's 60.
	r := dcRunner(t, matchConfig{Time: "60s", MaxPlies: longtest.Pick(dcQuickNoProgress, 0)})
	for _, tc := range []struct {
		name string
		a, b *playerSpec
	}{
		{"mgtp example", dcPlayer(t, "darkchess-mgtp", "mgtp", mgtpBin), dcPlayer(t, "greedy", "")},
		{"readmode example", dcPlayer(t, "greedy", ""), dcPlayer(t, "darkchess-readmode", "readmode", readBin)},
		{"legacy built-in", dcPlayer(t, "legacy-greedy", "legacy", self, "bot", "darkchess", "greedy"), dcPlayer(t, "darkchess-mgtp", "mgtp", mgtpBin)},
		{"readmode built-in", dcPlayer(t, "legacy-random", "legacy", self, "bot", "darkchess", "random"), dcPlayer(t, "read-greedy", "readmode", self, "bot", "darkchess", "greedy", "-readmode")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.name == "readmode built-in" {
				// A program started a ply: the quick tier runs the
				// read-mode built-in in TestProgramsCannotEscape.
				longtest.Skip(t, "a read-mode game of arena's built-in, a program a ply")
			}
			res, _ := dcPlay(t, r, tc.a, tc.b, 0, 7, log)
			if res.Faults != [2]fault{} || res.Reason == "TimeOut" || res.Reason == "MoveError" {
				t.Errorf("result %+v", res)
			}
			t.Logf("%s vs %s: %d, %s, %s, %d plies", tc.a.Name, tc.b.Name, res.Winner, res.Reason, res.Detail, res.Plies)
		})
	}
	pids.CheckReaped(t)
}

// dcScript writes an executable shell script.
func dcScript(t testing.TB, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "engine.sh")
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestDarkchessBadPrograms: a program that is missing, crashes or hangs
// loses its game with the reason, is reaped, and the next game is played.
func TestDarkchessBadPrograms(t *testing.T) {
	t.Parallel() // it mostly waits: for time limits and signals
	if testing.Short() {
		t.Skip("builds a program")
	}
	crash := dcScript(t, "exit 3\n")
	// Answers the handshake, then never its genmove.
	hang := dcScript(t, "while read id rest; do case $id in 12) exec sleep 600;; *) echo \"=$id\";; esac; done\n")
	var pids proctest.PIDLog
	log := slog.New(&pids)
	r := dcRunner(t, matchConfig{Time: "2s"})
	// Answers the handshake, then nonsense to genmove.
	garbage := dcScript(t, "while read id rest; do case $id in 12) echo \"=12 zz top\";; *) echo \"=$id\";; esac; done\n")
	t.Run("bad", func(t *testing.T) { dcBadPrograms(t, r, log, crash, hang, garbage) })
	// The next game still runs.
	if res, _ := dcPlay(t, r, dcPlayer(t, "greedy", ""), dcPlayer(t, "random", ""), 0, 3, log); res.Faults != [2]fault{} {
		t.Errorf("after the bad programs: %+v", res)
	}
	pids.CheckReaped(t)
}

// dcBadPrograms plays each bad program in each seat, in parallel.
func dcBadPrograms(t *testing.T, r runner, log *slog.Logger, crash, hang, garbage string) {
	for _, tc := range []struct {
		name   string
		bad    *playerSpec
		reason string
		kind   faultKind
		fault  string
	}{
		{"missing mgtp", dcPlayer(t, "ghost", "mgtp", "./no-such-engine"), "TimeOut", faultStart, "program not found: ./no-such-engine"},
		{"missing readmode", dcPlayer(t, "ghost", "readmode", "./no-such-engine"), "MoveError", faultStart, "program not found: ./no-such-engine"},
		{"missing legacy", dcPlayer(t, "ghost", "legacy", "./no-such-engine"), "TimeOut", faultStart, "program not found: ./no-such-engine"},
		{"crash mgtp", dcPlayer(t, "crash", "mgtp", crash), "TimeOut", faultCrash, ""},
		{"crash readmode", dcPlayer(t, "crash", "readmode", crash), "MoveError", faultCrash, "exit status 3"},
		{"hang mgtp", dcPlayer(t, "hang", "mgtp", hang), "TimeOut", faultTimeout, ""},
		{"garbage mgtp", dcPlayer(t, "garbage", "mgtp", garbage), "MoveError", faultProtocol, "zz"},
		{"hang readmode", dcPlayer(t, "hang", "readmode", dcScript(t, "exec sleep 600\n")), "TimeOut", faultTimeout, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel() // most wait for a clock
			for seat := range 2 {
				// The opponent: a quick program (the built-ins are this test binary, slow to start under -race).
				opp := dcPlayer(t, "darkchess-mgtp", "mgtp", buildProgram(t, "examples/darkchess-mgtp"))
				players := [2]*playerSpec{opp, opp}
				players[seat] = tc.bad
				res, _ := dcPlay(t, r, players[0], players[1], 0, 3, log)
				if res.Winner != 1-seat || res.Reason != tc.reason || res.Faults[seat].Kind != tc.kind || res.Faults[1-seat] != (fault{}) ||
					!strings.Contains(res.Faults[seat].Reason, tc.fault) {
					t.Errorf("seat %d: %+v, want a fault of kind %v", seat, res, tc.kind)
				}
			}
		})
	}
}

// TestDarkchessStartup: -startup is how long a program has to start and
// finish its handshake, for MGTP and legacy engines alike: an engine that
// sleeps 3 s before it answers loses before ply 1 under -startup 1s, and
// plays under -startup 30s.
func TestDarkchessStartup(t *testing.T) {
	t.Parallel() // its games mostly wait: for slow starts and time limits
	if testing.Short() {
		t.Skip("builds programs")
	}
	quote := func(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
	mgtpBin := buildProgram(t, "examples/darkchess-mgtp")
	opp := dcPlayer(t, "darkchess-mgtp", "mgtp", mgtpBin)
	slow := map[string]*playerSpec{
		"mgtp":   dcPlayer(t, "slow", "mgtp", dcScript(t, "sleep 3\nexec "+quote(mgtpBin)+"\n")),
		"legacy": dcPlayer(t, "slow", "legacy", dcScript(t, "sleep 3\nexec "+quote(arenaBinary(t))+` bot darkchess random "$@"`+"\n")),
	}
	for _, proto := range []string{"mgtp", "legacy"} {
		for _, startup := range []time.Duration{time.Second, 30 * time.Second} {
			t.Run(fmt.Sprintf("%s/%v", proto, startup), func(t *testing.T) {
				t.Parallel()
				var log dcFaultLog
				// The slow engine moves first: were the opponent slow to
				// start too, the first player would still be the one to
				// lose.
				r := dcRunner(t, matchConfig{Time: "60s", Startup: startup})
				res, _ := dcPlay(t, r, slow[proto], opp, 0, 5, slog.New(&log))
				log.CheckReaped(t)
				if startup < 3*time.Second {
					if res.Winner != 1 || res.Plies != 0 || res.Faults[0].Kind != faultTimeout || log.seen()[0] != protocol.DarkChessTimedOut.String() {
						t.Errorf("-startup %v: the slow starter did not lose before ply 1: %+v, kinds %v", startup, res, log.seen())
					}
					return
				}
				if res.Faults != [2]fault{} || res.Winner < -1 || res.Plies == 0 {
					t.Errorf("-startup %v: the slow starter could not play: %+v", startup, res)
				}
			})
		}
	}
}

// TestDarkchessCancel: ctx's end stops the game as unfinished and reaps the
// programs.
func TestDarkchessCancel(t *testing.T) {
	var pids proctest.PIDLog
	r := dcRunner(t, matchConfig{})
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	w := &testWatcher{onUpdate: func(viewer.Frame) { cancel() }}
	job := &gameJob{N: 1, Seats: [2]*playerSpec{dcPlayer(t, "random", ""), dcPlayer(t, "random", "")}, Seed: 1, Dir: t.TempDir(), ID: "x", Watch: w, Log: slog.New(&pids)}
	res := r.Play(ctx, job)
	if res.Winner != -2 || res.Err != nil || res.Plies != 1 || res.Reason != "Unfinished" {
		t.Errorf("cancelled game: %+v", res)
	}
	data, err := os.ReadFile(res.Record)
	if err != nil {
		t.Fatal(err)
	}
	if b, err := record.ReadDarkChessBoard(bytes.NewReader(data)); err != nil || b.Result != nil || len(b.Plies) != 1 {
		t.Errorf("record of the cancelled game: %v\n%s", err, data)
	}
	pids.CheckReaped(t)
}

// TestDarkchessRunnerOptions: the preset, the time control, the ply limit
// and a start record, and what is refused.
func TestDarkchessRunnerOptions(t *testing.T) {
	two := []*playerSpec{dcPlayer(t, "random", ""), dcPlayer(t, "greedy", "")}
	bad := []struct {
		cfg  matchConfig
		want string
	}{
		{matchConfig{Rules: "chess"}, "ntu2021, "},
		{matchConfig{Time: "forever"}, "accepted"},
		{matchConfig{MaxPlies: -1}, "-plies"},
		{matchConfig{Start: "/no/such/board.txt"}, "-start"},
	}
	if over, ok := sharedtest.Lookup("darkchess", "records", "alsov4", "85_Draw_PositionRepetitionDraw(3-4).txt"); ok {
		bad = append(bad, struct {
			cfg  matchConfig
			want string
		}{matchConfig{Start: over}, "over"})
	}
	for _, tc := range bad {
		tc.cfg.Game, tc.cfg.Players = darkchessDef(), two
		if _, err := newDarkchessRunner(&tc.cfg, 0); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: error %v, want one with %q", tc.cfg, err, tc.want)
		}
	}
	for _, p := range []*playerSpec{dcPlayer(t, "alphabeta", ""), {Spec: "tcp:x", Name: "x", Protocol: "tcp", Command: []string{"x"}}} {
		cfg := matchConfig{Game: darkchessDef(), Players: []*playerSpec{p, two[0]}}
		if _, err := newDarkchessRunner(&cfg, 0); err == nil {
			t.Errorf("player %q accepted", p.Spec)
		}
	}
	if _, err := newDarkchessRunner(&matchConfig{Game: darkchessDef(), Players: two}, -2); err == nil || !strings.Contains(err.Error(), "-repetition") {
		t.Errorf("-repetition -2: %v", err)
	}
	for rep, want := range map[int]int{-1: 0, 0: 3, 5: 5} {
		r, err := newDarkchessRunner(&matchConfig{Game: darkchessDef(), Players: two}, rep)
		if err != nil || r.(*darkchessRunner).rules.RepetitionCycles != want {
			t.Errorf("-repetition %d: %v, %+v", rep, err, r)
		}
	}
	r := dcRunner(t, matchConfig{Rules: "icga", MaxPlies: 20, Time: "none"}, two...).(*darkchessRunner)
	if r.rules.Name != darkchess.ICGA.Name || r.rules.NoProgressPlies != 20 || !r.control.Unlimited() || r.startup != defaultStartup {
		t.Errorf("runner: %+v", r)
	}
	if r := dcRunner(t, matchConfig{Startup: time.Minute}, two...).(*darkchessRunner); r.startup != time.Minute {
		t.Errorf("-startup 1m: the runner has %v", r.startup)
	}
	res, sc := dcPlay(t, r, two[0], two[1], 0, 9, nil)
	if sc.N != 20 || sc.Rules != darkchess.ICGA.Name || res.Reason == "NoEatFlipDraw" && !strings.Contains(res.Detail, "20 plies") {
		t.Errorf("ply limit: %+v, %+v", res, sc)
	}

	// A game that ended by a time-out goes on from where it stopped.
	start := dcTestdata(t, "records/alsov4/100_ai_wins_TimeOut.txt")
	r = dcRunner(t, matchConfig{Start: start}, two...).(*darkchessRunner)
	res, sc = dcPlay(t, r, two[0], two[1], 0, 9, nil)
	if res.Plies <= 119 || !strings.Contains(sc.From, "119 plies") {
		t.Errorf("from %s: %+v, %+v", start, res, sc)
	}
	data, _ := os.ReadFile(start)
	b, _ := record.ReadDarkChessBoard(bytes.NewReader(data))
	rec, _ := os.ReadFile(res.Record)
	b2, err := record.ReadDarkChessBoard(bytes.NewReader(rec))
	if err != nil || !slices.Equal(b2.Plies[:119], b.Plies) {
		t.Errorf("the record does not hold the start's plies: %v", err)
	}
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

func TestDarkchessBotCommand(t *testing.T) {
	var out, errb bytes.Buffer
	if code := darkchessBot(t.Context(), "alphabeta", nil, strings.NewReader(""), &out, &errb); code != 2 || !strings.Contains(errb.String(), "random, greedy") {
		t.Errorf("unknown bot: code %d, %q", code, errb.String())
	}
	errb.Reset()
	if code := darkchessBot(t.Context(), "random", []string{"a", "b", "c"}, strings.NewReader(""), &out, &errb); code != 2 {
		t.Errorf("three arguments: code %d, %q", code, errb.String())
	}
	// MGTP on stdin and stdout.
	in := "1 name\n7 reset_board\n12 genmove unknown\n5 quit\n"
	out.Reset()
	if code := darkchessBot(t.Context(), "greedy", []string{"-seed", "5"}, strings.NewReader(in), &out, &errb); code != 0 {
		t.Fatalf("mgtp: code %d, %s", code, errb.String())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 4 || lines[0] != "=1 greedy" || !strings.HasPrefix(lines[2], "=12 ") || lines[3] != "=5" {
		t.Errorf("mgtp answers: %q", lines)
	}
}

// BenchmarkMatchDarkchess: random against random, each a child process
// speaking MGTP, as a match plays them; games/s.
func BenchmarkMatchDarkchess(b *testing.B) {
	random, random2 := dcPlayer(b, "random", ""), dcPlayer(b, "random", "")
	r := dcRunner(b, matchConfig{}, random, random2)
	benchGames(b, func(n int) gameResult { return r.Play(b.Context(), benchJob(b, n, random, random2)) })
}

// TestMatchDarkchess: "arena match darkchess" end to end, in process: a
// built-in against the MGTP example program, a pair of games with the same
// deal, the seats swapped.
func TestMatchDarkchess(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a program")
	}
	engine := buildProgram(t, "examples/darkchess-mgtp")
	dir := t.TempDir()
	text := runArena(t, "match", "darkchess", "-games", "2", "-seed", "11", "-time", "60s", "-rules", "classic", "-repetition", "4", "-out", dir, "greedy", "mgtp:"+engine)
	matchAll(t, text,
		`game 1: greedy \(first\) vs darkchess-mgtp \(second\): .*, \d+ plies; record .*board\.txt`,
		`game 2: darkchess-mgtp \(first\) vs greedy \(second\): .*, \d+ plies; record .*board\.txt`,
		`greedy +\d wins, \d draws, \d losses`,
		`Elo difference`,
	)
	files := recordsIn(dir, "board.txt")
	if len(files) != 2 {
		t.Fatalf("records %v", files)
	}
	var deals []string
	for _, f := range files {
		data, _ := os.ReadFile(f)
		if _, err := viewer.ReplayDarkChess(filepath.Base(f), data); err != nil {
			t.Errorf("%s: %v", f, err)
		}
		var sc darkchessSidecar
		if err := json.Unmarshal(dcRead(t, f+".json"), &sc); err != nil {
			t.Fatal(err)
		}
		if sc.Rules != "classic" || sc.R != 4 || sc.N != 60 {
			t.Errorf("%s: rules %q", f, sc.Rules)
		}
		deals = append(deals, sc.Deal)
		for _, tr := range []string{"first.command", "second.command"} {
			// Rules other than the 2021 system's are told to the engines.
			data, err := os.ReadFile(filepath.Join(filepath.Dir(f), tr))
			if err != nil || !bytes.Contains(data, []byte("\n8 num_repetition 4\n")) || !bytes.Contains(data, []byte("\n9 num_moves_to_draw 60\n")) {
				t.Errorf("transcript %s: %v\n%.300s", tr, err, data)
			}
		}
	}
	if deals[0] != deals[1] {
		t.Errorf("the pair's deals differ: %q", deals)
	}
	// There is no dark chess server.
	if err := run(t.Context(), []string{"serve", "darkchess"}, io.Discard, io.Discard); err == nil || !strings.Contains(err.Error(), "no server") {
		t.Errorf("serve darkchess: %v", err)
	}
}

// TestTournamentDarkchess runs a round robin of three built-ins, two games at
// a time.
func TestTournamentDarkchess(t *testing.T) {
	dir := t.TempDir()
	out := runArena(t, "tournament", "darkchess", "-games", "2", "-j", "2", "-seed", "5", "-plies", "30", "-out", dir, "random", "greedy", "r2=random")
	if files := recordsIn(dir, "board.txt"); len(files) != 6 {
		t.Errorf("%d records, want 6:\n%s", len(files), out)
	}
}

package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/botarena/botarena/geister"
	"github.com/botarena/botarena/internal/proctest"
	"github.com/botarena/botarena/protocol/gat"
	"github.com/botarena/botarena/record"
	"github.com/botarena/botarena/timer"
	"github.com/botarena/botarena/viewer"
)

// gsPlayer is a player spec as arena's command line makes it.
func gsPlayer(name, proto string, command ...string) *playerSpec {
	if proto == "" {
		return &playerSpec{Spec: name, Name: name, Builtin: name}
	}
	return &playerSpec{Spec: proto + ":" + strings.Join(command, " "), Name: name, Protocol: proto, Command: command}
}

// gsRunner makes a runner for cfg and the players.
func gsRunner(t testing.TB, cfg matchConfig, players ...*playerSpec) runner {
	t.Helper()
	cfg.Game = geisterDef()
	cfg.Players = players
	if cfg.Time == "" {
		cfg.Time = "10s/move"
	}
	r, err := cfg.Game.NewRunner(&cfg)
	if err != nil {
		t.Fatalf("NewRunner: %v", err)
	}
	return r
}

// gsPlay plays one game in a fresh directory and checks what holds for every
// game: the record is in the directory and replays to the result.
func gsPlay(t *testing.T, ctx context.Context, r runner, a, b *playerSpec, seed uint64, log *slog.Logger) (gameResult, *testWatcher) {
	t.Helper()
	w := &testWatcher{}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	job := &gameJob{N: 1, Seats: [2]*playerSpec{a, b}, Seed: seed, Dir: t.TempDir(), ID: "g1", Watch: w, Log: log}
	res := r.Play(ctx, job)
	if res.Err != nil {
		t.Fatalf("Play: arena error %v", res.Err)
	}
	if res.Record != filepath.Join(job.Dir, "board.txt") {
		t.Fatalf("record %q, want board.txt in the game's directory", res.Record)
	}
	data, err := os.ReadFile(res.Record)
	if err != nil {
		t.Fatal(err)
	}
	rb, err := record.ReadGeisterBoard(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("the record does not read: %v\n%s", err, data)
	}
	if res.Winner >= -1 && rb.Result.Reason.String() != res.Reason {
		t.Errorf("record result %v, game %+v", rb.Result, res)
	}
	if res.Winner >= 0 && int(rb.Result.Winner) != res.Winner {
		t.Errorf("record winner %v, game %+v", rb.Result.Winner, res)
	}
	rp, err := viewer.ReplayGeister("board.txt", data)
	if err != nil {
		t.Fatalf("the record does not replay: %v\n%s", err, data)
	}
	if len(frames(rp)) != len(rb.Moves)+1 {
		t.Errorf("replay: %d frames for %d moves", len(frames(rp)), len(rb.Moves))
	}
	if rp.Players != [2]string{geisterRecordName(a.Name, 0), geisterRecordName(b.Name, 1)} {
		t.Errorf("replay players %q", rp.Players)
	}
	for i, f := range frames(rp) {
		if (i < len(rb.Times)) != (f.Clocks[0] != "" && f.Clocks[1] != "") {
			t.Errorf("replay frame %d of %d with %d timestamps: clocks %q", i, len(frames(rp)), len(rb.Times), f.Clocks)
			break
		}
	}
	if _, rec := w.last(); len(w.infos) != 1 || len(w.finished) != 1 || rec != res.Record {
		t.Errorf("watcher: begun %d, finished %q, record %q", len(w.infos), w.finished, rec)
	}
	return res, w
}

// gsInProcess plays a game between two players on the rules engine, without
// the protocol, and returns its result.
func gsInProcess(t testing.TB, players [2]geister.Player) geister.Result {
	t.Helper()
	ctx := context.Background()
	var reds [2]geister.Reds
	for i, p := range players {
		r, err := p.Setup(ctx)
		if err != nil {
			t.Fatal(err)
		}
		reds[i] = r
	}
	start, err := geister.Start(reds[0], reds[1])
	if err != nil {
		t.Fatal(err)
	}
	g := geister.NewGame(geister.GAT, start)
	for !g.IsOver() {
		c := g.Turn()
		m, err := players[c].Play(ctx, g.View(c))
		if err != nil {
			t.Fatal(err)
		}
		if err := g.Play(m); err != nil {
			t.Fatalf("%s played %v: %v", c, m, err)
		}
	}
	r, _ := g.Result()
	return r
}

// TestGeisterGreedyBeatsRandom: the stronger built-in wins at least 70% of
// 40 seeded games against random, half of them as the second player.
func TestGeisterGreedyBeatsRandom(t *testing.T) {
	const games = 40
	wins := 0
	reasons := map[string]int{}
	for i := range games {
		greedy, _ := newGeisterBot("greedy", uint64(2*i+1), timer.Control{}, 0)
		random, _ := newGeisterBot("random", uint64(2*i+2), timer.Control{}, 0)
		players := [2]geister.Player{greedy, random}
		seat := geister.Color(i % 2)
		if seat == geister.Second {
			players[0], players[1] = random, greedy
		}
		r := gsInProcess(t, players)
		if !r.Draw && r.Winner == seat {
			wins++
		}
		reasons[r.String()]++
	}
	t.Logf("greedy won %d of %d: %v", wins, games, reasons)
	if wins < games*7/10 {
		t.Errorf("greedy won %d of %d games against random, want at least 70%%", wins, games)
	}
}

// TestGeisterRushAndBest: the built-ins rush and best are there, and play
// whole games: best (at its fixed playouts under -time none) beats rush in
// both seats.
func TestGeisterRushAndBest(t *testing.T) {
	t.Parallel()
	for i := range 2 {
		rush, err := newGeisterBot("rush", uint64(2*i+1), timer.Control{}, 0)
		if err != nil {
			t.Fatal(err)
		}
		best, err := newGeisterBot("best", uint64(2*i+2), timer.Control{}, 0)
		if err != nil {
			t.Fatal(err)
		}
		players := [2]geister.Player{best, rush}
		seat := geister.Color(i % 2)
		if seat == geister.Second {
			players[0], players[1] = rush, best
		}
		if r := gsInProcess(t, players); r.Draw || r.Winner != seat {
			t.Errorf("game %d: best as %s against rush: %s", i, seat, r)
		}
	}
}

// TestGeisterRunnerBuiltins plays built-ins against each other with the
// protocol in the loop: each is this binary run as "arena bot geister".
func TestGeisterRunnerBuiltins(t *testing.T) {
	r := gsRunner(t, matchConfig{Rules: "ntpu"}, gsPlayer("greedy", ""), gsPlayer("random", ""))
	var log proctest.PIDLog
	res, w := gsPlay(t, t.Context(), r, gsPlayer("greedy", ""), gsPlayer("random", ""), 7, slog.New(&log))
	if res.Winner < -1 || res.Faults != [2]fault{} || res.Detail == "" || res.Plies == 0 {
		t.Errorf("result %+v", res)
	}
	log.CheckReaped(t)
	if len(log.PIDs()) != 2 {
		t.Errorf("programs started: %v, want 2", log.PIDs())
	}
	// Frames: the setup, the start, one per ply, the end; clocks shown.
	if len(w.frames) != res.Plies+3 {
		t.Errorf("%d frames for %d plies", len(w.frames), res.Plies)
	}
	if info := w.info(); info.Players != [2]string{"greedy", "random"} || info.Seats != [2]string{"first", "second"} || info.Game != "geister" {
		t.Errorf("info %+v", info)
	}
	// While the game goes on, no colour of a ghost on the board and no
	// player's view (the spectator's board); at the end, both.
	for i, f := range w.frames[1 : len(w.frames)-1] {
		if f.Clocks[0] == "" || f.Clocks[1] == "" || f.Board == "" || len(f.Views) != 0 && i < res.Plies || gsBoardColours(f.Board) != 0 && i < res.Plies {
			t.Fatalf("frame %d: clocks %q, board %d bytes, %d views, %d colours shown", i+1, f.Clocks, len(f.Board), len(f.Views), gsBoardColours(f.Board))
		}
		if f.Ply != i {
			t.Errorf("frame %d: ply %d", i+1, f.Ply)
		}
	}
	if last := w.frames[len(w.frames)-1]; last.ToMove != -1 || !strings.Contains(last.Status, " by "+res.Ending.String()) || len(last.Views) != 2 || gsBoardColours(last.Board) == 0 {
		t.Errorf("last frame: %q, to move %d, %d views, %d colours shown", last.Status, last.ToMove, len(last.Views), gsBoardColours(last.Board))
	}
}

// TestGeisterRunnerPrograms: real programs built from examples/, in both
// connect modes, against each other and against a built-in.
func TestGeisterRunnerPrograms(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds programs")
	}
	stdio := buildProgram(t, "examples/geister-stdio")
	tcp := buildProgram(t, "examples/geister-random") // takes HOST PORT: the TCP mode
	r := gsRunner(t, matchConfig{}, gsPlayer("random", ""))
	pairs := [][2]*playerSpec{
		{gsPlayer("geister-stdio", "stdio", stdio), gsPlayer("random", "")},
		{gsPlayer("geister-random", "tcp", tcp), gsPlayer("geister-stdio", "stdio", stdio)},
		{gsPlayer("greedy", ""), gsPlayer("geister-random", "tcp", tcp)},
	}
	for i, p := range pairs {
		var log proctest.PIDLog
		res, _ := gsPlay(t, t.Context(), r, p[0], p[1], uint64(i+1), slog.New(&log))
		if res.Winner < -1 || res.Faults != [2]fault{} {
			t.Errorf("%s vs %s: %+v", p[0].Name, p[1].Name, res)
		}
		log.CheckReaped(t)
	}
}

// gsScript writes an executable shell script into a fresh directory.
func gsScript(t testing.TB, body string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "bot.sh")
	if err := os.WriteFile(path, []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestGeisterRunnerBadPrograms: a program that is missing, not executable,
// crashes or hangs loses its game with the reason, is reaped, and the next
// game runs.
func TestGeisterRunnerBadPrograms(t *testing.T) {
	t.Parallel() // it mostly waits: for time limits and signals
	notExec := filepath.Join(t.TempDir(), "bot")
	if err := os.WriteFile(notExec, []byte("#!/bin/sh\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	random := gsPlayer("random", "")
	cases := []struct {
		name   string
		player *playerSpec
		reason string
		fault  *regexp.Regexp
	}{
		{"missing", gsPlayer("missing", "stdio", filepath.Join(t.TempDir(), "no-such-bot")), "Disconnect", regexp.MustCompile(`^start failure, program not found: .*no-such-bot$`)},
		{"not executable", gsPlayer("notexec", "tcp", notExec), "Disconnect", regexp.MustCompile(`^start failure, program not executable: `)},
		{"crash", gsPlayer("crash", "stdio", gsScript(t, "exit 3")), "Disconnect", regexp.MustCompile(`^crash, .*(closed its output|input closed).*\(exit status 3\)$`)},
		{"crash in play", gsPlayer("crash", "stdio", gsScript(t, `read l; echo SET:ABCD; read l; echo 'cannot go on' >&2; exit 3`)), "Disconnect", regexp.MustCompile(`^crash, .*(closed its output|input closed).*\(exit status 3\); stderr: cannot go on$`)},
		{"hang", gsPlayer("hang", "stdio", gsScript(t, "sleep 1000")), "TimeOut", regexp.MustCompile(`^time, did not set its red ghosts in time`)},
		{"hang in play", gsPlayer("hang", "stdio", gsScript(t, `read l; echo SET:ABCD; sleep 1000`)), "TimeOut", regexp.MustCompile(`^time, no move within its time`)},
		{"garbage", gsPlayer("garbage", "stdio", gsScript(t, `read l; echo SET:ABCD; while read l; do case $l in MOV*) echo MOV:Z,UP;; esac; done`)), "IllegalMove", regexp.MustCompile(`^protocol error, .*MOV:Z,UP`)},
	}
	r := gsRunner(t, matchConfig{Time: "2s/move", MaxPlies: 60}, random)
	t.Run("group", func(t *testing.T) {
		for _, tc := range cases {
			gsBadProgram(t, r, tc.name, tc.player, tc.reason, tc.fault)
		}
	})
	// The next game, in the same runner, still runs.
	next, _ := gsPlay(t, t.Context(), r, random, random, 4, nil)
	if next.Winner < -1 || next.Faults != [2]fault{} {
		t.Errorf("the next game: %+v", next)
	}
}

// gsBadProgram plays player against random in a parallel subtest: it must
// lose by reason with a fault like fault, and be reaped.
func gsBadProgram(t *testing.T, r runner, name string, player *playerSpec, reason string, want *regexp.Regexp) {
	t.Run(name, func(t *testing.T) {
		t.Parallel()
		var log proctest.PIDLog
		res, w := gsPlay(t, t.Context(), r, player, gsPlayer("random", ""), 3, slog.New(&log))
		if res.Winner != 1 || res.Reason != reason || !want.MatchString(res.Faults[0].String()) || res.Faults[1] != (fault{}) {
			t.Errorf("result %+v, want random to win by %s with a fault like %v", res, reason, want)
		}
		if result, _ := w.last(); !strings.Contains(result, "random wins by "+res.Ending.String()) {
			t.Errorf("viewer result %q", result)
		}
		log.CheckReaped(t)
		// What the program printed on its standard error is kept in the
		// game's directory, for the replay page.
		if got, _ := os.ReadFile(filepath.Join(filepath.Dir(res.Record), player.Name+".stderr")); strings.Contains(res.Faults[0].String(), "stderr: ") && !strings.Contains(string(got), "cannot go on") {
			t.Errorf("%s.stderr holds %q", player.Name, got)
		}
	})
}

// TestGeisterRunnerInterrupted: a game whose context ends is unfinished,
// its programs killed, its record written without a result.
func TestGeisterRunnerInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	hang := gsPlayer("hang", "stdio", gsScript(t, `read l; echo SET:ABCD; sleep 1000`))
	r := gsRunner(t, matchConfig{Time: "none"}, hang)
	var log proctest.PIDLog
	updated := make(chan struct{}, 1)
	w := &testWatcher{onUpdate: func(viewer.Frame) {
		select {
		case updated <- struct{}{}:
		default:
		}
	}}
	go func() {
		<-updated // play began: the hanging program has its MOV?
		cancel()
	}()
	job := &gameJob{N: 1, Seats: [2]*playerSpec{hang, gsPlayer("random", "")}, Seed: 1, Dir: t.TempDir(), ID: "g1", Watch: w, Log: slog.New(&log)}
	res := r.Play(ctx, job)
	if res.Winner != -2 || res.Err != nil || res.Detail != "interrupted" {
		t.Errorf("result %+v, want unfinished", res)
	}
	data, err := os.ReadFile(res.Record)
	if err != nil {
		t.Fatal(err)
	}
	if b, err := record.ReadGeisterBoard(bytes.NewReader(data)); err != nil || b.Result.Reason != geister.Unfinished || !b.ColorsKnown() {
		t.Errorf("record: %v %+v", err, b)
	}
	log.CheckReaped(t)
}

// TestGeisterRunnerOptions: the options NewRunner refuses, with what is
// accepted, and a game from a mid-game start file with a ply limit.
func TestGeisterRunnerOptions(t *testing.T) {
	def := geisterDef()
	for _, tc := range []struct {
		cfg  matchConfig
		want string
	}{
		{matchConfig{Rules: "chess"}, "accepted: gat"},
		{matchConfig{Time: "10 minutes"}, "accepted: none, 900s"},
		{matchConfig{MaxPlies: -1}, "must be positive"},
		{matchConfig{Start: "/no/such/file"}, "-start"},
		{matchConfig{Players: []*playerSpec{{Spec: "mgtp:x", Protocol: "mgtp", Command: []string{"x"}}}}, "accepted for geister: stdio, tcp"},
	} {
		tc.cfg.Game = def
		if _, err := def.NewRunner(&tc.cfg); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("NewRunner(%+v): %v, want an error with %q", tc.cfg, err, tc.want)
		}
	}
	if def.DefaultTime != "600s+10s/move" || def.Defaults != [2]string{"greedy", "random"} {
		t.Errorf("def %+v", def)
	}

	// A start file: a game of 10 plies cut at ply 6, with a limit of 12
	// plies in all.
	random, greedy := gsPlayer("random", ""), gsPlayer("greedy", "")
	r := gsRunner(t, matchConfig{Rules: "ntpu", MaxPlies: 10}, random, greedy)
	full, _ := gsPlay(t, t.Context(), r, random, greedy, 5, nil)
	data, err := os.ReadFile(full.Record)
	if err != nil {
		t.Fatal(err)
	}
	b, err := record.ReadGeisterBoard(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Moves) < 6 {
		t.Skipf("the game ended after %d plies, too early to cut at 6", len(b.Moves))
	}
	mid, err := b.MidGame(6)
	if err != nil {
		t.Fatal(err)
	}
	start := filepath.Join(t.TempDir(), "mid.txt")
	var buf bytes.Buffer
	if err := record.WriteGeisterBoard(&buf, mid); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(start, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	r = gsRunner(t, matchConfig{Rules: "ntpu", MaxPlies: 12, Start: start}, random, greedy)
	res, w := gsPlay(t, t.Context(), r, random, greedy, 6, nil)
	if res.Plies < 7 || res.Plies > 12 || (res.Reason == "GamePlyLimitDraw") != (res.Plies == 12 && res.Reason == "GamePlyLimitDraw") {
		t.Errorf("from the start file: %+v", res)
	}
	if res.Plies < 12 && res.Reason == "GamePlyLimitDraw" {
		t.Errorf("a draw by the ply limit at ply %d", res.Plies)
	}
	got, _ := os.ReadFile(res.Record)
	gb, err := record.ReadGeisterBoard(bytes.NewReader(got))
	if err != nil {
		t.Fatal(err)
	}
	for i := range 6 {
		if gb.Moves[i] != b.Moves[i] {
			t.Fatalf("the record's ply %d is %v, the start file's %v", i+1, gb.Moves[i], b.Moves[i])
		}
	}
	if f := w.frames[1]; f.Ply != 6 {
		t.Errorf("the first frame of play is at ply %d, want 6", f.Ply)
	}
	// A start file past the limit is refused.
	cfg := matchConfig{Game: def, Rules: "ntpu", MaxPlies: 6, Start: start}
	if _, err := def.NewRunner(&cfg); err == nil || !strings.Contains(err.Error(), "ply limit") {
		t.Errorf("a start file at the ply limit: %v", err)
	}
}

// TestGeisterBot: "arena bot geister" in STDIO mode and against a server,
// and its errors.
func TestGeisterBot(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := geisterBot(t.Context(), "nobody", nil, strings.NewReader(""), &out, &errOut); code != 2 || !strings.Contains(errOut.String(), "random, greedy") {
		t.Errorf("unknown bot: exit %d, %q", code, errOut.String())
	}
	errOut.Reset()
	if code := geisterBot(t.Context(), "random", []string{"localhost"}, strings.NewReader(""), &out, &errOut); code != 2 || !strings.Contains(errOut.String(), "HOST PORT") {
		t.Errorf("one argument: exit %d, %q", code, errOut.String())
	}

	// STDIO: one answer per line, the setup, a move, nothing after /exit.
	start, _ := geister.Start(geister.RedsAt(0), geister.RedsAt(5))
	in := "SET?\nOK \nMOV?" + start.View(geister.First).String() + "\nOK \nLST:" + start.Board(geister.First) + "\n/exit\n"
	out.Reset()
	if code := geisterBot(t.Context(), "greedy", []string{"-seed", "3"}, strings.NewReader(in), &out, io.Discard); code != 0 {
		t.Fatalf("STDIO bot: exit %d", code)
	}
	lines := strings.Split(out.String(), "\n")
	if len(lines) != 6 || !strings.HasPrefix(lines[0], "SET:") || !strings.HasPrefix(lines[2], "MOV:") {
		t.Errorf("STDIO bot wrote %q", out.String())
	}

	// TCP: both seats of a Java-compatible server.
	// The server's live frames go to the watcher as "arena serve geister
	// -web" sends them.
	h := &gat.Host{}
	done := make(chan gat.GameRecord, 1)
	w := &testWatcher{}
	live := &geisterServeLive{w: w}
	h.OnPly = live.ply
	h.OnGameEnd = func(r gat.GameRecord) { live.end(r); done <- r }
	var lns [2]net.Listener
	for i := range lns {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		lns[i] = ln
	}
	ctx, cancel := context.WithCancel(t.Context())
	served := make(chan error, 1)
	go func() { served <- h.Serve(ctx, lns[0], lns[1]) }()
	var wg sync.WaitGroup
	var outs [2]bytes.Buffer
	for i, name := range []string{"greedy", "random"} {
		_, port, _ := net.SplitHostPort(lns[i].Addr().String())
		wg.Go(func() {
			if code := geisterBot(ctx, name, []string{"127.0.0.1", port}, nil, &outs[i], io.Discard); code != 0 {
				t.Errorf("%s: exit %d", name, code)
			}
		})
	}
	wg.Wait()
	rec := <-done
	cancel()
	if err := <-served; err != nil {
		t.Errorf("Serve: %v", err)
	}
	if rec.Result.Reason == geister.Unfinished || !strings.HasPrefix(outs[0].String(), "first player: ") || !strings.HasPrefix(outs[1].String(), "second player: ") {
		t.Errorf("game %v; bots said %q, %q", rec.Result, outs[0].String(), outs[1].String())
	}
	if w.info().ID != "serve-1" || len(w.infos) != 1 || len(w.finished) != 1 || len(w.frames) != len(rec.Moves)+3 {
		t.Errorf("viewer: game %q, begun %d, finished %q, %d frames for %d moves", w.info().ID, len(w.infos), w.finished, len(w.frames), len(rec.Moves))
	}
	if last := w.frames[len(w.frames)-1]; last.ToMove != -1 || last.Ply != len(rec.Moves) {
		t.Errorf("viewer: last frame %+v", last)
	}
}

// TestServeGeister runs "arena serve geister" on free ports with real TCP
// clients: the banner, a game, its record, and a clean stop.
func TestServeGeister(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "records")
	out := &lineWriter{lines: make(chan string, 100)}
	ctx, cancel := context.WithCancel(t.Context())
	served := make(chan error, 1)
	go func() {
		served <- serveGeister(ctx, []string{"--port0=0", "--port1", "0", "--ws-port=0", "--max-turn=60", "--records", dir, "-web", "127.0.0.1:0"}, out, io.Discard)
	}()
	web := out.next(t, regexp.MustCompile(`^Viewer: (http://\S+)$`))[1]
	m := out.next(t, regexp.MustCompile(`^1st player port: (\d+), 2nd player port: (\d+)$`))
	var wg sync.WaitGroup
	var outcomes [2]gat.Outcome
	for i, port := range m[1:] {
		bot, _ := newGeisterBot("random", uint64(i+1), timer.Control{}, 0)
		wg.Go(func() {
			o, err := gat.Dial(ctx, net.JoinHostPort("127.0.0.1", port), bot)
			if err != nil {
				t.Errorf("client %d: %v", i, err)
			}
			outcomes[i] = o
		})
	}
	wg.Wait()
	line := out.next(t, regexp.MustCompile(`^game 1: .* \(first\) vs .* \(second\): (.*), (\d+) plies; record (.*); log (.*)$`))
	// The viewer knows the game.
	resp, err := http.Get(web + "live/serve-1")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("GET %slive/serve-1: %s", web, resp.Status)
	}
	cancel()
	select {
	case err := <-served:
		if err != nil {
			t.Errorf("serve: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("serve did not stop with its context")
	}
	if outcomes[0].Color != geister.First || outcomes[1].Color != geister.Second || !outcomes[0].Ended || !outcomes[1].Ended {
		t.Errorf("outcomes %+v", outcomes)
	}
	data, err := os.ReadFile(line[3])
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Dir(line[3]) != dir {
		t.Errorf("record %s not in %s", line[3], dir)
	}
	rp, err := viewer.ReplayGeister(filepath.Base(line[3]), data)
	if err != nil {
		t.Fatalf("the record does not replay: %v\n%s", err, data)
	}
	if rp.Result != line[1] || fmt.Sprint(len(frames(rp))-1) != line[2] {
		t.Errorf("replay: %q, %d frames; the server said %q, %s plies", rp.Result, len(frames(rp)), line[1], line[2])
	}
	// The Java server's log of the same game replays to the same moves.
	logData, err := os.ReadFile(line[4])
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Dir(line[4]) != dir || !strings.HasPrefix(filepath.Base(line[4]), "log-") {
		t.Errorf("log %s", line[4])
	}
	jl, err := record.ReadGeisterServerLog(bytes.NewReader(logData))
	if err != nil {
		t.Fatalf("the Java log does not read: %v\n%s", err, logData)
	}
	if fmt.Sprint(len(jl.Moves)) != line[2] {
		t.Errorf("the Java log has %d moves, the game %s", len(jl.Moves), line[2])
	}

	// Bad options are errors that say what is wrong.
	if err := serveGeister(t.Context(), []string{"--preset", "chess", "--port0=0", "--port1=0", "--ws-port=0"}, io.Discard, io.Discard); err == nil {
		t.Error("a bad preset is accepted")
	}
	if err := serveGeister(t.Context(), []string{"extra"}, io.Discard, io.Discard); err == nil || !strings.Contains(err.Error(), "extra") {
		t.Errorf("an extra argument: %v", err)
	}
}

// BenchmarkMatchGeister plays random against random, each a built-in run as
// a STDIO program, through the NTPU host: games/s with the protocol in the
// loop.
func BenchmarkMatchGeister(b *testing.B) {
	random := gsPlayer("random", "")
	random2 := gsPlayer("random-2", "")
	random2.Builtin = "random"
	r := gsRunner(b, matchConfig{Time: "none"}, random, random2)
	benchGames(b, func(n int) gameResult { return r.Play(b.Context(), benchJob(b, n, random, random2)) })
}

// TestMatchGeister runs "arena match geister" in process: two games, the
// seats swapped, a built-in against a STDIO program, the records written.
func TestMatchGeister(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a program")
	}
	stdio := buildProgram(t, "examples/geister-stdio")
	dir := t.TempDir()
	text := runArena(t, "match", "geister", "-games", "2", "-seed", "11", "-time", "10s/move", "-rules", "ntpu", "-out", dir, "greedy", "stdio:"+stdio)
	matchAll(t, text,
		`game 1: greedy \(first\) vs geister-stdio \(second\): .*, \d+ plies; record .*board\.txt`,
		`game 2: geister-stdio \(first\) vs greedy \(second\): .*, \d+ plies; record .*board\.txt`,
		`greedy +\d wins, \d draws, \d losses`,
		`Elo difference`,
	)
	files := recordsIn(dir, "board.txt")
	if len(files) != 2 {
		t.Fatalf("records %v", files)
	}
	for _, f := range files {
		data, _ := os.ReadFile(f)
		if _, err := viewer.ReplayGeister(filepath.Base(f), data); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
}

// TestTournamentGeister runs a round robin of three built-ins, two games at
// a time.
func TestTournamentGeister(t *testing.T) {
	dir := t.TempDir()
	out := runArena(t, "tournament", "geister", "-games", "2", "-j", "2", "-seed", "5", "-plies", "80", "-out", dir, "random", "greedy", "r2=random")
	if files := recordsIn(dir, "board.txt"); len(files) != 6 {
		t.Errorf("%d records, want 6:\n%s", len(files), out)
	}
}

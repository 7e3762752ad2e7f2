package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/botarena/botarena/othello"
	"github.com/botarena/botarena/protocol/tus"
	"github.com/botarena/botarena/record"
	"github.com/botarena/botarena/timer"
)

// TestMatchOthello runs the README's main job with two games, so the colours
// swap, and checks what it prints and the records it writes.
func TestMatchOthello(t *testing.T) {
	dir := t.TempDir()
	var out, errOut bytes.Buffer
	err := run(context.Background(), []string{"match", "othello", "greedy", "random", "-seed", "7", "-out", dir}, &out, &errOut)
	if err != nil {
		t.Fatalf("match: %v\nstderr: %s", err, errOut.String())
	}
	text := out.String()
	for _, want := range []string{
		"Othello match: greedy vs random, 2 games, rules tus, time 10s/move, seed 7",
		"game 1: greedy (black) vs random (white): ",
		"game 2: random (black) vs greedy (white): ",
		"Result of greedy vs random after 2 games:",
		"Elo difference (greedy - random): ",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("output lacks %q:\n%s", want, text)
		}
	}
	// Each game's -trans transcript replays to a finished game whose counts
	// the result line gives.
	results := regexp.MustCompile(`game (\d): .* by discs \((\d+)-(\d+)\), \d+ plies; record (\S+)`).FindAllStringSubmatch(text, -1)
	if len(results) != 2 {
		t.Fatalf("results: %q\n%s", results, text)
	}
	for _, m := range results {
		r, err := os.Open(m[4])
		if err != nil {
			t.Fatal(err)
		}
		tr, err := record.ReadOthelloTranscript(r, othello.TUS.Start)
		r.Close()
		if err != nil {
			t.Fatalf("%s: %v", m[4], err)
		}
		g, err := tr.Game()
		if err != nil || !g.IsOver() {
			t.Fatalf("%s: replay over=%v err=%v", m[4], g != nil && g.IsOver(), err)
		}
		p := g.Position()
		if got := fmt.Sprintf("%d-%d", p.Count(othello.Black), p.Count(othello.White)); got != m[2]+"-"+m[3] {
			t.Errorf("game %s: record ends %s, result says %s-%s", m[1], got, m[2], m[3])
		}
		if _, err := os.Stat(filepath.Join(filepath.Dir(m[4]), "result.txt")); err != nil {
			t.Errorf("game %s: %v", m[1], err)
		}
	}
	if b, err := os.ReadFile(filepath.Join(dir, "results.txt")); err != nil || !strings.Contains(string(b), "greedy") {
		t.Errorf("results.txt: %v\n%s", err, b)
	}
}

// TestMatchOthelloSameBot plays a bot against itself: the names are made
// distinct.
func TestMatchOthelloSameBot(t *testing.T) {
	var out bytes.Buffer
	if err := run(context.Background(), []string{"match", "othello", "-seed", "3", "-games", "1", "-rules", "standard", "-out", t.TempDir(), "random", "random"}, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "game 1: random (black) vs random-2 (white)") || !strings.Contains(out.String(), "rules standard") {
		t.Errorf("output:\n%s", out.String())
	}
}

func TestBadCommandLines(t *testing.T) {
	t.Chdir(t.TempDir())
	for _, tt := range []struct {
		args []string
		want string
	}{
		{nil, "no command"},
		{[]string{"dance"}, `unknown command "dance" (commands: match, tournament, merge, serve, view, bot, train, help, version)`},
		{[]string{"match"}, "name the game (games: othello, geister, darkchess, pdd)"},
		{[]string{"match", "chess"}, `unknown game "chess" (games: othello, geister, darkchess, pdd)`},
		{[]string{"match", "othello", "deepblue"}, `unknown player "deepblue" (built-in players: random, greedy, alphabeta, best, mcts; or a program as PROTOCOL:COMMAND with PROTOCOL one of tcp`},
		{[]string{"match", "othello", "mgtp:./x"}, `unknown protocol "mgtp" for othello`},
		{[]string{"match", "othello", "tcp:"}, `no program after "tcp:"`},
		{[]string{"match", "othello", "a", "b", "c"}, "a match has two players, got 3"},
		{[]string{"tournament", "othello", "random"}, "a tournament needs at least two players, got 1"},
		{[]string{"match", "othello", "-games", "0"}, "-games 0"},
		{[]string{"match", "othello", "-time", "fast"}, `-time "fast"`},
		{[]string{"match", "othello", "-time", "900s"}, "the TUS server limits each move only"},
		{[]string{"match", "othello", "-plies", "10"}, "there is no ply limit"},
		{[]string{"match", "othello", "-plies", "-1"}, "-plies -1"},
		{[]string{"match", "othello", "-rules", "mirror"}, `-rules "mirror": unknown preset for othello (presets: tus, standard)`},
		{[]string{"match", "othello", "-start", "nowhere.txt"}, "-start: stat nowhere.txt"},
		{[]string{"match", "othello", "-j", "0"}, "-j 0"},
		{[]string{"match", "othello", "-bogus"}, "flag provided but not defined: -bogus"},
		{[]string{"serve", "othello", "-timeout", "-5"}, `timer: -timeout "-5": negative duration`},
		{[]string{"serve", "othello", "-pairing", "best"}, `unknown pairing "best"`},
		{[]string{"serve", "othello", "-port", "0", "extra"}, `unexpected argument "extra"`},
		{[]string{"serve", "othello", "-maxerrors", "-2"}, "-maxerrors -2"},
		{[]string{"bot", "othello"}, "name the bot (built-in: random, greedy, alphabeta, best, mcts)"},
	} {
		err := run(context.Background(), tt.args, io.Discard, io.Discard)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("run(%q) = %v, want an error with %q", tt.args, err, tt.want)
		}
	}
}

// syncBuffer is a bytes.Buffer safe for one writer and one reader.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestServeOthello starts the server as a user would, reads the port from its
// banner, plays a game between two real TCP clients and stops it with the
// context, as Ctrl-C does.
func TestServeOthello(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir) // -trans writes to the working directory
	t.Setenv("HOME", dir)
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"serve", "othello", "-port", "0", "-timeout", "5", "-pairing", "fifo", "-trans", "-score", "-debug"}, pw, io.Discard)
		pw.Close()
	}()
	sc := bufio.NewScanner(pr)
	var banner []string
	port := ""
	for sc.Scan() {
		line := sc.Text()
		banner = append(banner, line)
		if m := regexp.MustCompile(`^Othello Server ver \S+ start: \(tcp port:(\d+)\)$`).FindStringSubmatch(line); m != nil {
			port = m[1]
		}
		if strings.HasPrefix(line, "Host: ") {
			break
		}
	}
	if port == "" || banner[0] != "Set Timeout: 5 sec" || banner[2] != "Debug mode: ON" {
		t.Fatalf("banner: %q", banner)
	}
	console := &syncBuffer{}
	copied := make(chan struct{})
	go func() { io.Copy(console, pr); close(copied) }()

	playOthelloOnServer(t, ctx, port, "first", "second")
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("serve: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("serve did not stop")
	}
	// Serve has returned, so OnGameEnd (the score file) has run.
	trans, _ := filepath.Glob(filepath.Join(dir, "gamelog_*.txt"))
	if len(trans) != 1 {
		t.Errorf("transcripts: %v", trans)
	}
	host, _ := os.Hostname()
	score, err := os.ReadFile(filepath.Join(dir, "jwww", "OthelloScore_"+host+".html"))
	if err != nil || !strings.Contains(string(score), "<td>first</td>") || !strings.Contains(string(score), "unranked") {
		t.Errorf("score file: %v\n%s", err, score)
	}
	<-copied
	// A NICK may be read before or after pairing (as on the real server), so
	// the first START goes to "first" or to the default name BLACK.
	for _, want := range []string{`Game-0 Start\.`, `Send to (first|BLACK):START 1`, `Recv from second:PUT \d \d`} {
		if !regexp.MustCompile(want).MatchString(console.String()) {
			t.Errorf("console lacks %s", want)
		}
	}
}

// playOthelloOnServer plays a game between two greedy clients on the FIFO
// server at 127.0.0.1:port, nicknamed black and white (the first connection
// plays black: dialling in order is enough, the listener accepts connections
// in the order they were made), and checks that both saw the same finished
// game.
func playOthelloOnServer(t *testing.T, ctx context.Context, port, black, white string) {
	t.Helper()
	var conns [2]net.Conn
	for i := range conns {
		c, err := net.Dial("tcp", "127.0.0.1:"+port)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		conns[i] = c
	}
	var wg sync.WaitGroup
	var outcomes [2]tus.Outcome
	var errs [2]error
	for i, nick := range []string{black, white} {
		p, _ := newOthelloBot("greedy", uint64(i), timer.Control{})
		wg.Go(func() {
			outcomes[i], errs[i] = (&tus.Client{Nick: nick}).Run(ctx, conns[i], p)
		})
	}
	wg.Wait()
	for i, o := range outcomes {
		if errs[i] != nil || !o.Ended || o.Color != othello.Color(i) {
			t.Fatalf("client %d: %+v, %v", i, o, errs[i])
		}
	}
	if outcomes[0].Result != outcomes[1].Result || outcomes[0].Result.Reason != othello.Discs {
		t.Errorf("results differ: %v / %v", outcomes[0].Result, outcomes[1].Result)
	}
}

// TestParsePlayer checks the player forms and the names they get.
func TestParsePlayer(t *testing.T) {
	dir := t.TempDir()
	prog := filepath.Join(dir, "engine")
	if err := os.WriteFile(prog, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	def := darkchessDef()
	for _, tt := range []struct {
		spec, name, builtin, proto string
		command                    []string
	}{
		{"greedy", "greedy", "greedy", "", nil},
		{"mgtp:" + prog + " -d 3", "engine", "", "mgtp", []string{prog, "-d", "3"}},
		{prog, "engine", "", "mgtp", []string{prog}},
		{"legacy:python3 search.py", "search", "", "legacy", []string{"python3", "search.py"}},
		{"alice=readmode:./search", "alice", "", "readmode", []string{"./search"}},
		{"mgtp:/bin/arena bot darkchess greedy", "greedy", "", "mgtp", []string{"/bin/arena", "bot", "darkchess", "greedy"}},
		// A program is named after its executable, not an argument.
		{"mgtp:" + prog + " 5", "engine", "", "mgtp", []string{prog, "5"}},
		{"mgtp:./wrap.sh exec.final", "wrap.sh", "", "mgtp", []string{"./wrap.sh", "exec.final"}},
		{"mgtp:./engine bot darkchess greedy", "engine", "", "mgtp", []string{"./engine", "bot", "darkchess", "greedy"}},
		// An interpreter's script names it.
		{"mgtp:python3 -u bot.py 5", "bot", "", "mgtp", []string{"python3", "-u", "bot.py", "5"}},
		{"mgtp:java -jar engine.jar", "engine", "", "mgtp", []string{"java", "-jar", "engine.jar"}},
		{"mgtp:/usr/bin/python3.12 search.py", "search", "", "mgtp", []string{"/usr/bin/python3.12", "search.py"}},
	} {
		p, err := parsePlayer(def, tt.spec)
		if err != nil {
			t.Errorf("%q: %v", tt.spec, err)
			continue
		}
		if p.Name != tt.name || p.Builtin != tt.builtin || p.Protocol != tt.proto || !slices.Equal(p.Command, tt.command) {
			t.Errorf("%q: %+v", tt.spec, p)
		}
	}
	players := []*playerSpec{{Name: "a"}, {Name: "a"}, {Name: "a-2"}, {Name: "a"}}
	uniqueNames(players)
	var names []string
	for _, p := range players {
		names = append(names, p.Name)
	}
	if want := []string{"a", "a-2", "a-2-2", "a-3"}; !slices.Equal(names, want) {
		t.Errorf("unique names %q, want %q", names, want)
	}
}

// TestVersion: "arena version" names arena's version and the module, from
// the build information, on stdout.
func TestVersion(t *testing.T) {
	for _, args := range [][]string{{"version"}, {"--version"}} {
		var out, errOut bytes.Buffer
		if err := run(t.Context(), args, &out, &errOut); err != nil || errOut.Len() > 0 {
			t.Fatalf("arena %q: %v; stderr %q", args, err, errOut.String())
		}
		matchAll(t, out.String(), `^arena `+regexp.QuoteMeta(version)+`\n`, `\nmodule github\.com/botarena/botarena \S+\n`, `\n(revision [0-9a-f]+|revision unknown)`, `\ngo1\.\d+`)
	}
	if err := run(t.Context(), []string{"version", "x"}, io.Discard, io.Discard); err == nil {
		t.Error("arena version x: no error")
	}
}

// TestHelpAndUsageStreams: help that is asked for goes to stdout with no
// error and nothing on stderr; a command line arena cannot read (an unknown
// command, game, flag, bot, or help on one of them) is an error, with
// nothing on stdout, whatever the command.
func TestHelpAndUsageStreams(t *testing.T) {
	t.Chdir(t.TempDir())
	for _, args := range [][]string{
		{"help"}, {"-h"}, {"--help"}, {"help", "match"}, {"help", "match", "pdd"}, {"help", "tournament", "geister"},
		{"help", "serve", "othello"}, {"help", "bot", "darkchess"}, {"help", "view"}, {"help", "merge"}, {"help", "version"},
		{"help", "results"}, {"match", "othello", "-h"}, {"merge", "-h"}, {"view", "-h"}, {"serve", "geister", "-h"},
		{"bot", "othello", "random", "-h"}, {"help", "train"}, {"train", "-h"}, {"train", "othello", "-h"},
	} {
		var out, errOut bytes.Buffer
		err := run(t.Context(), args, &out, &errOut)
		if (err != nil && !errors.Is(err, flag.ErrHelp)) || out.Len() == 0 || errOut.Len() > 0 {
			t.Errorf("arena %q: %v; %d bytes on stdout, stderr %q; want help on stdout alone", args, err, out.Len(), errOut.String())
		}
	}
	for _, args := range [][]string{
		nil, {"nosuch"}, {"help", "nosuch"}, {"help", "match", "nosuch"}, {"match", "nosuch"}, {"match", "othello", "-bogus"},
		{"tournament", "geister", "-bogus"}, {"merge", "-bogus"}, {"view", "-bogus"}, {"serve", "othello", "-bogus"},
		{"serve", "pdd"}, {"bot", "othello", "nosuch"}, {"bot", "pdd", "random", "-bogus"}, {"match", "othello", "random"},
		{"train", "othello", "-bogus"},
	} {
		var out, errOut bytes.Buffer
		err := run(t.Context(), args, &out, &errOut)
		if err == nil || errors.Is(err, flag.ErrHelp) || out.Len() > 0 {
			t.Errorf("arena %q: %v; stdout %q; want an error and nothing on stdout", args, err, out.String())
		}
	}
}

// TestMatchOnePlayerRefused: a match with one player named is refused,
// naming a second player to give; with none it plays the defaults.
func TestMatchOnePlayerRefused(t *testing.T) {
	t.Chdir(t.TempDir())
	for _, def := range gameDefs() {
		err := run(t.Context(), []string{"match", def.Name, "random", "-games", "1"}, io.Discard, io.Discard)
		want := fmt.Sprintf("a match has two players, got one (random): name the second (arena match %s random ", def.Name)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("arena match %s random: %v; want an error with %q", def.Name, err, want)
		}
	}
	if _, err := os.Stat("arena-records"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a refused match wrote its records directory: %v", err)
	}
}

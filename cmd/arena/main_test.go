package main

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/botarena/botarena/othello"
	"github.com/botarena/botarena/protocol"
	"github.com/botarena/botarena/record"
)

// TestMatchOthello runs the README's main job, with two games so the colours
// swap, and checks what it prints.
func TestMatchOthello(t *testing.T) {
	dir := t.TempDir()
	var out, errOut bytes.Buffer
	err := run(context.Background(), []string{"match", "othello", "-games", "2", "-seed", "7", "-trans", dir, "greedy", "random"}, &out, &errOut)
	if err != nil {
		t.Fatalf("match: %v\nstderr: %s", err, errOut.String())
	}
	text := out.String()
	for _, want := range []string{
		"Game 1: greedy (black) vs random (white)",
		"Game 2: random (black) vs greedy (white)",
		"move list (standard orientation): f5",
		"Result: ",
		"END Win:[",
		"Match: greedy ",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("output lacks %q:\n%s", want, text)
		}
	}
	// Each game's -trans transcript replays to the END line's counts.
	files, _ := filepath.Glob(filepath.Join(dir, "gamelog_*.txt"))
	if len(files) != 2 {
		t.Fatalf("transcripts: %v", files)
	}
	ends := regexp.MustCompile(`Result: \w+ wins (\d+)-(\d+)|Result: draw (\d+)-(\d+)`).FindAllStringSubmatch(text, -1)
	if len(ends) != 2 {
		t.Fatalf("results: %v", ends)
	}
	for _, f := range files {
		r, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		tr, err := record.ReadOthelloTranscript(r, othello.TUS.Start)
		r.Close()
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		g, err := tr.Game()
		if err != nil || !g.IsOver() {
			t.Fatalf("%s: replay over=%v err=%v", f, g != nil && g.IsOver(), err)
		}
	}
}

func TestMatchOthelloSameBot(t *testing.T) {
	var out bytes.Buffer
	if err := run(context.Background(), []string{"match", "othello", "-seed", "3", "-start", "standard", "random", "random"}, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "(white)") || !strings.Contains(out.String(), "start standard") {
		t.Errorf("output:\n%s", out.String())
	}
}

func TestBadCommandLines(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{nil, "no command"},
		{[]string{"dance"}, `unknown command "dance"`},
		{[]string{"match"}, "name the game"},
		{[]string{"match", "chess"}, `unknown game "chess" (games: othello)`},
		{[]string{"match", "othello", "deepblue"}, `unknown othello player "deepblue" (built-in players: random, greedy, alphabeta)`},
		{[]string{"match", "othello", "a", "b", "c"}, "at most two players"},
		{[]string{"match", "othello", "-games", "0"}, "-games 0"},
		{[]string{"match", "othello", "-timeout", "-1"}, `timer: -timeout "-1": negative duration`},
		{[]string{"serve", "othello", "-timeout", "-5"}, `timer: -timeout "-5": negative duration`},
		{[]string{"match", "othello", "-start", "mirror"}, `unknown start "mirror"`},
		{[]string{"match", "othello", "-bogus"}, "flag provided but not defined: -bogus"},
		{[]string{"serve", "othello", "-pairing", "best"}, `unknown pairing "best"`},
		{[]string{"serve", "othello", "-port", "0", "extra"}, `unexpected argument "extra"`},
		{[]string{"serve", "othello", "-maxerrors", "-2"}, "-maxerrors -2"},
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

	// FIFO pairing: the first connection plays black. Dialling in order is
	// enough: the listener accepts connections in the order they were made.
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
	outcomes := make([]protocol.OthelloOutcome, 2)
	errs := make([]error, 2)
	for i, nick := range []string{"first", "second"} {
		p, _ := newOthelloBot("greedy", uint64(i))
		wg.Go(func() {
			outcomes[i], errs[i] = (&protocol.OthelloClient{Nick: nick}).Run(ctx, conns[i], p)
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

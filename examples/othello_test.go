package examples_test

import (
	"bufio"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
)

// build compiles the example program in dir into a temporary directory.
func build(t *testing.T, dir string) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), filepath.Base(dir))
	out, err := exec.Command("go", "build", "-o", bin, "./"+dir).CombinedOutput()
	if err != nil {
		t.Fatalf("go build ./%s: %v\n%s", dir, err, out)
	}
	return bin
}

// TestOthelloExamples runs the examples as a user would: the embedded host
// listens, two copies of the random bot connect to it and play a game, and
// Ctrl-C stops the host, which prints its win table.
func TestOthelloExamples(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the example programs")
	}
	host := exec.Command(build(t, "othello-host"), "-addr", "127.0.0.1:0", "-timeout", "10s")
	stdout, err := host.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := host.Start(); err != nil {
		t.Fatal(err)
	}
	defer host.Process.Kill()
	lines := bufio.NewScanner(stdout)
	if !lines.Scan() {
		t.Fatal("host printed nothing")
	}
	m := regexp.MustCompile(`^Othello host listening on 127\.0\.0\.1:(\d+)$`).FindStringSubmatch(lines.Text())
	if m == nil {
		t.Fatalf("host banner %q", lines.Text())
	}
	bot := build(t, "othello-random")
	var bots []*exec.Cmd
	for _, nick := range []string{"alice", "bob"} {
		c := exec.Command(bot, "-nick", nick, "127.0.0.1", m[1])
		c.Stderr = &strings.Builder{}
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		bots = append(bots, c)
	}
	for _, c := range bots {
		if err := c.Wait(); err != nil {
			t.Fatalf("bot: %v\n%s", err, c.Stderr)
		}
		if log := c.Stderr.(*strings.Builder).String(); !regexp.MustCompile(`played (black|white): .* \(discs\)`).MatchString(log) {
			t.Errorf("bot log: %q", log)
		}
	}
	if !lines.Scan() || !regexp.MustCompile(`^game 0: (alice|bob) \(black\) vs (alice|bob) \(white\): .*\(discs\)$`).MatchString(lines.Text()) {
		t.Fatalf("host result line %q", lines.Text())
	}
	if err := host.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	rest, _ := io.ReadAll(stdout)
	if err := host.Wait(); err != nil {
		t.Fatalf("host exit: %v", err)
	}
	if !strings.Contains(string(rest), ": 1 wins") && !strings.Contains(lines.Text(), "draw") {
		t.Errorf("win table: %q", rest)
	}
}

// TestBotsAreShort holds every example bot to the 30 lines the issues promise
// (the hosts and referees are not bots).
func TestBotsAreShort(t *testing.T) {
	mains, err := filepath.Glob("*/main.go")
	if err != nil || len(mains) == 0 {
		t.Fatalf("no examples: %v", err)
	}
	for _, m := range mains {
		if strings.Contains(m, "host") || strings.Contains(m, "referee") {
			continue
		}
		b, err := os.ReadFile(m)
		if err != nil {
			t.Fatal(err)
		}
		if n := strings.Count(string(b), "\n"); n > 30 {
			t.Errorf("%s has %d lines, more than 30", m, n)
		}
	}
}

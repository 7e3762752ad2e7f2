package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestRunLock: a directory has one holder at a time; a second hold is
// refused at once, naming the first; Close releases it (twice is fine) and
// removes the file; the hold names a command line on one bounded line.
func TestRunLock(t *testing.T) {
	dir := t.TempDir()
	first, err := lockRun(dir, "arena tournament othello a\nb")
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, lockFileName))
	if want := fmt.Sprintf("pid %d on ", os.Getpid()); err != nil || !strings.HasPrefix(string(b), want) || !strings.HasSuffix(string(b), ": arena tournament othello a b\n") {
		t.Errorf("the lock file holds %q (%v), want %q... ending in the command line on one line", b, err, want)
	}
	_, err = lockRun(dir, "arena tournament -resume "+dir)
	if !errors.Is(err, errRunHeld) || !strings.Contains(err.Error(), fmt.Sprintf("pid %d ", os.Getpid())) || !strings.Contains(err.Error(), "arena tournament othello a b") {
		t.Errorf("a second hold: %v; want %v naming the holder", err, errRunHeld)
	}
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}
	if err := first.Close(); err != nil {
		t.Errorf("a second Close: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, lockFileName)); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("after Close: %v; want the lock file removed", err)
	}
	again, err := lockRun(dir, strings.Repeat("x", 10*maxLockInfo))
	if err != nil {
		t.Fatalf("a hold after the first was released: %v", err)
	}
	defer again.Close()
	if b, _ := os.ReadFile(filepath.Join(dir, lockFileName)); len(b) > maxLockInfo {
		t.Errorf("the lock file of a huge command line has %d bytes, want at most %d", len(b), maxLockInfo)
	}
}

// TestRunDirectoryOneWriter: while a real arena plays a tournament into a
// directory, a second arena that would write there (-resume DIR, or a new
// run with -out DIR) is refused at once with the first one's pid, and writes
// nothing; the first run goes on.
func TestRunDirectoryOneWriter(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := arenaCommand(t, ctx, dir, "tournament", "othello", "random", "greedy", "-games", "100000", "-j", "1", "-seed", "5", "-time", "none", "-out", "run")
	progress, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Wait()
	defer cmd.Process.Signal(syscall.SIGKILL)
	sc := bufio.NewScanner(progress)
	for sc.Scan() && !strings.HasPrefix(sc.Text(), "[") { // a progress line: the run is under way
	}
	go func() { // keep the pipe drained
		for sc.Scan() {
		}
	}()
	run := filepath.Join(dir, "run")
	before, err := readResults(run)
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"tournament", "-resume", run},
		{"tournament", "othello", "random", "greedy", "-out", run},
		{"match", "othello", "-out", run},
	} {
		var out, errOut strings.Builder
		err := runWithin(t, args, &out, &errOut)
		if !errors.Is(err, errRunHeld) || !strings.Contains(err.Error(), fmt.Sprintf("pid %d ", cmd.Process.Pid)) {
			t.Errorf("arena %q while another arena plays there: %v; want %v naming pid %d\n%s%s", args, err, errRunHeld, cmd.Process.Pid, out.String(), errOut.String())
		}
	}
	after, err := readResults(run)
	if err != nil || len(after) < len(before) {
		t.Errorf("results.tsv held %d games, then %d (%v): the first run lost games", len(before), len(after), err)
	}
	if err := cmd.Process.Signal(syscall.Signal(0)); err != nil {
		t.Errorf("the first run ended: %v", err)
	}
}

// runWithin runs an arena command line in this process and returns its
// error; it must return within a minute (a refusal is at once).
func runWithin(t *testing.T, args []string, stdout, stderr *strings.Builder) error {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	return run(ctx, args, stdout, stderr)
}

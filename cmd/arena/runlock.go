package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// A run directory has one writer. arena match and tournament (a new run,
// -out DIR or -resume DIR) and arena merge -out DIR hold the directory for as
// long as they write into it, by an exclusive advisory lock on lockFileName
// inside it, which names the holder. The kernel drops the lock when its
// process ends, however it ends (kill -9 included), so a killed run leaves
// no hold behind: only the stale file, which the next run takes over. A run
// that ends removes the file.
const lockFileName = "arena.lock"

// maxLockInfo bounds what is read of a lock file to name its holder.
const maxLockInfo = 1 << 10

// errRunHeld is the error of a directory that another arena holds.
var errRunHeld = errors.New("in use by another arena")

// runLock is the hold of one run directory; Close releases it.
type runLock struct {
	f    *os.File
	path string
}

// lockRun takes the hold of dir for the command line what, or says who
// holds it: an error wrapping errRunHeld that names the holder (its pid,
// host, start and command line, as it wrote them). It never waits.
func lockRun(dir, what string) (*runLock, error) {
	path := filepath.Join(dir, lockFileName)
	// The file may be removed by a holder that ends between our open and
	// our lock; then the lock is on a file no longer in the directory, and
	// we try again on the new one.
	for range 8 {
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
		if err != nil {
			return nil, err
		}
		held, err := tryLock(f)
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		if held {
			holder := readHolder(f)
			f.Close()
			return nil, fmt.Errorf("%s is %w (%s): wait for it to end or stop it; one directory has one writer", dir, errRunHeld, holder)
		}
		if !samePath(f, path) {
			f.Close()
			continue
		}
		host, _ := os.Hostname()
		info := fmt.Sprintf("pid %d on %s since %s: %s", os.Getpid(), orNone(host), time.Now().Format(time.RFC3339), what)
		info = oneLine(info, maxLockInfo-1) + "\n"
		if err := f.Truncate(0); err == nil {
			_, err = f.WriteAt([]byte(info), 0)
		}
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		return &runLock{f: f, path: path}, nil
	}
	return nil, fmt.Errorf("%s: could not take the hold: its file keeps changing", path)
}

// readHolder returns the first line of the lock file f, as its holder wrote
// it, bounded; "holder unknown" if it wrote nothing yet.
func readHolder(f *os.File) string {
	buf := make([]byte, maxLockInfo)
	n, _ := f.ReadAt(buf, 0)
	line, _, _ := strings.Cut(string(buf[:n]), "\n")
	line = strings.ToValidUTF8(strings.TrimSpace(line), "?")
	if line == "" {
		return "holder unknown: it is starting"
	}
	return "held by " + line
}

// oneLine returns s with its control characters as blanks, cut to at most
// max bytes (on a rune boundary).
func oneLine(s string, max int) string {
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return ' '
		}
		return r
	}, strings.ToValidUTF8(s, "?"))
	for len(s) > max {
		_, size := utf8.DecodeLastRuneInString(s)
		s = s[:len(s)-size]
	}
	return s
}

// samePath reports whether the open file f is still the file at path.
func samePath(f *os.File, path string) bool {
	a, err := f.Stat()
	if err != nil {
		return false
	}
	b, err := os.Lstat(path)
	return err == nil && os.SameFile(a, b)
}

// Close removes the lock file and releases the hold. It is idempotent and
// safe on a nil hold.
func (l *runLock) Close() error {
	if l == nil || l.f == nil {
		return nil
	}
	// Removed while still held, so that no one takes a hold on a file that
	// is about to go (see lockRun's check).
	err := os.Remove(l.path)
	if cerr := l.f.Close(); err == nil {
		err = cerr
	}
	l.f = nil
	return err
}

// Package sharedtest finds the shared test data of botarena's tests: the
// transcripts captured from the real servers and the real game records that
// live beside the repository, in ../shared/testdata, and not in it.
//
// Every test that reads them finds them here, by a path relative to the
// module's root (never an absolute path), and skips with a message saying
// where it looked when they are absent, so that a clone placed anywhere,
// with or without ../shared, passes its tests.
//
//	dir := sharedtest.Dir(t, "othello") // ../shared/testdata/othello, or t.Skip
//
// The environment variable BOTARENA_SHARED, when set, is the shared
// directory to use instead of ../shared.
package sharedtest

import (
	"os"
	"path/filepath"
	"testing"
)

// EnvVar names the environment variable that, when set, gives the shared
// directory (the one holding testdata/) in place of ../shared beside the
// module's root.
const EnvVar = "BOTARENA_SHARED"

// Lookup returns the path of the shared test data named by elem ("othello",
// "darkchess/records"), and whether it exists. With no elem it is the
// testdata directory itself.
func Lookup(elem ...string) (string, bool) {
	var path string
	if shared := os.Getenv(EnvVar); shared != "" {
		path = filepath.Join(append([]string{shared, "testdata"}, elem...)...)
	} else if root, ok := moduleRoot(); ok {
		path = filepath.Join(append([]string{root, "..", "shared", "testdata"}, elem...)...)
		if rel, err := relative(path); err == nil {
			path = rel
		}
	} else {
		return filepath.Join(append([]string{"..", "shared", "testdata"}, elem...)...), false
	}
	_, err := os.Stat(path)
	return path, err == nil
}

// Dir returns the path of the shared test data named by elem, as [Lookup],
// and skips the test when it is absent, saying where it looked.
func Dir(tb testing.TB, elem ...string) string {
	tb.Helper()
	path, ok := Lookup(elem...)
	if !ok {
		tb.Skipf("shared test data %s not found (it lives in ../shared/testdata beside the repository; set %s to the shared directory to use another): skipped", path, EnvVar)
	}
	return path
}

// moduleRoot returns the nearest directory holding go.mod, from the working
// directory up (a test's working directory is its package's).
func moduleRoot() (string, bool) {
	dir, err := os.Getwd()
	if err != nil {
		return "", false
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, true
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", false
		}
		dir = parent
	}
}

// relative makes path relative to the working directory, so that messages
// and records name it as the tests do, whatever the clone's location.
func relative(path string) (string, error) {
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	return filepath.Rel(wd, abs)
}

// Package longtest is the switch between botarena's two tiers of tests.
//
// The quick tier is what "go test ./..." runs: every package within a few
// minutes on two cores, loaded or not, with bots on fixed playout or node
// budgets. The long tier adds the tests that play many games or whole timed
// matches (strength against random, long matches, soak): it runs when the
// environment variable BOTARENA_LONG is 1, as CI's own stage does:
//
//	BOTARENA_LONG=1 go test ./...
//
// A long test starts with [Skip]; a test that is quick with a small sample
// and long with the full one asks [Enabled] which to play.
package longtest

import (
	"os"
	"testing"
)

// EnvVar is the environment variable that turns the long tier on: its
// value "1".
const EnvVar = "BOTARENA_LONG"

// Enabled reports whether the long tier runs (BOTARENA_LONG=1).
func Enabled() bool {
	return os.Getenv(EnvVar) == "1"
}

// Skip skips the test unless the long tier runs, saying why it is long and
// how to run it.
func Skip(tb testing.TB, why string) {
	tb.Helper()
	if !Enabled() {
		tb.Skipf("long test (%s): runs with %s=1", why, EnvVar)
	}
}

// Pick returns long when the long tier runs, quick otherwise: the size of a
// sample (games, positions, iterations) that the quick tier keeps small.
func Pick[T any](quick, long T) T {
	if Enabled() {
		return long
	}
	return quick
}

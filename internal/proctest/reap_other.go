//go:build unix && !linux

package proctest

import "testing"

// Subreaper does nothing here: without a subreaper the orphans belong to
// init, so the checks that need one are left to Linux.
func Subreaper(testing.TB) {}

// CheckChildKilled does nothing here (see Subreaper).
func CheckChildKilled(testing.TB, int) {}

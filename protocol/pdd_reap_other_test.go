//go:build unix && !linux

package protocol_test

import "testing"

// Without a subreaper the orphans belong to init, so these checks are left
// to Linux.
func pddSubreaper(*testing.T) {}

func checkPDDChildKilled(*testing.T, int) {}

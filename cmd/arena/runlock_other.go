//go:build !unix

package main

import "os"

// tryLock is a no-op where there is no flock: a run directory is not
// guarded against a second writer there.
func tryLock(f *os.File) (held bool, err error) { return false, nil }

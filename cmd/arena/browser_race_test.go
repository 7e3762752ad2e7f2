//go:build race

package main

// raceEnabled: the test binary is built with -race, under which a child
// process per move (PDD's strategies) makes a match too slow to browse.
const raceEnabled = true

//go:build !race

package main

// raceEnabled: the test binary is built without -race.
const raceEnabled = false

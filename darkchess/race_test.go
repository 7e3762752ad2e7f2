//go:build race

package darkchess_test

const raceEnabled = true

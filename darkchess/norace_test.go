//go:build !race

package darkchess_test

const raceEnabled = false

//go:build race

package othello_test

const raceEnabled = true

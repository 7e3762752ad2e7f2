//go:build race

package geister_test

const raceEnabled = true

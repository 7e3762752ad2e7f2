package main

import (
	"fmt"
	"os"
)

// selfCommand returns the command line that runs this arena binary with args,
// for referees that run only programs: a built-in bot then runs as
// "arena bot <game> <name> ...", speaking the game's program interface.
func selfCommand(args ...string) ([]string, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("cannot find the arena binary to run a built-in bot: %w", err)
	}
	return append([]string{exe}, args...), nil
}

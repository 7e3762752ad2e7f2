package main

import (
	"fmt"
	"io"

	"github.com/botarena/botarena/internal/proc"
)

// noteContainment says once, before a run's games, what holds the programs
// among players when it is the last resort: one whose descendant can
// outlive its game by leaving its process group and session, clearing its
// environment and losing its parent. Built-in players and persons run
// nothing, so a run of them alone says nothing.
func noteContainment(w io.Writer, players []*playerSpec) {
	for _, p := range players {
		if p.Builtin != "" || p.Human {
			continue
		}
		if c := proc.Probe(); c.Escapable() {
			fmt.Fprintf(w, "Containment: %s only: a process a program starts can outlive its game if it leaves its session and loses its parent (a PID namespace needs unprivileged user namespaces; a cgroup needs a writable cgroup v2).\n", c)
		}
		return
	}
}

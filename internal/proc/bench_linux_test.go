//go:build linux

package proc_test

import (
	"testing"

	"github.com/botarena/botarena/internal/proc"
)

// BenchmarkRun measures the cost of a short program's life under proc (a
// PDD referee runs one per move), with each way of containment (the
// namespace one with a cgroup too where one is writable).
func BenchmarkRun(b *testing.B) {
	for _, way := range []struct {
		name string
		c    proc.Config
	}{
		{"namespace", proc.Config{Path: "true"}},
		{"cgroup", proc.WithoutNamespace(proc.Config{Path: "true"})},
		{"scan", scanOnly(proc.Config{Path: "true"})},
	} {
		b.Run(way.name, func(b *testing.B) {
			for b.Loop() {
				res, err := proc.Run(b.Context(), way.c)
				if err != nil || !res.Success() {
					b.Fatalf("%+v, %v", res, err)
				}
			}
		})
	}
}

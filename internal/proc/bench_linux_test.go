//go:build linux

package proc_test

import (
	"os"
	"testing"

	"github.com/botarena/botarena/internal/proc"
)

// BenchmarkRun measures the cost of a short program's life under proc (a
// PDD referee runs one per move), with each way of containment (the
// namespace one with a cgroup too where one is writable).
func BenchmarkRun(b *testing.B) {
	benchRun(b, runWays(), nil)
}

// A runWay is a way of containment that the benchmarks measure: a
// Config that runs true.
type runWay struct {
	name string
	c    proc.Config
}

// runWays returns the ways of containment, the strongest first.
func runWays() []runWay {
	return []runWay{
		{"namespace", proc.Config{Path: "true"}},
		{"cgroup", proc.WithoutNamespace(proc.Config{Path: "true"})},
		{"scan", scanOnly(proc.Config{Path: "true"})},
	}
}

// benchRun measures a life of true under each of ways, one sub-benchmark
// each, calling between (when not nil) after each life.
func benchRun(b *testing.B, ways []runWay, between func()) {
	for _, way := range ways {
		b.Run(way.name, func(b *testing.B) {
			for b.Loop() {
				res, err := proc.Run(b.Context(), way.c)
				if err != nil || !res.Success() {
					b.Fatalf("%+v, %v", res, err)
				}
				if between != nil {
					between()
				}
			}
		})
	}
}

// busyHostHeap is the heap that BenchmarkRunBusyHost's host keeps and
// rewrites between starts: 200 MiB.
const busyHostHeap = 200 << 20

// BenchmarkRunBusyHost is BenchmarkRun from a host with a large heap that
// it rewrites, a page at a time (busyHostHeap/page pages), after each
// program's life: the namespace's init is started by a whole fork of the
// host, after which each first write to a page of the host is a page
// fault, where the cgroup way starts the program by vfork.
func BenchmarkRunBusyHost(b *testing.B) {
	heap := make([]byte, busyHostHeap)
	page := os.Getpagesize()
	benchRun(b, runWays()[:2], func() {
		for i := 0; i < len(heap); i += page {
			heap[i]++
		}
	})
}

//go:build unix

// Package proctest helps tests of hosts that start programs check that every
// program was reaped.
package proctest

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"syscall"
	"testing"
)

// PIDLog is a [slog.Handler] that keeps the "pid" attribute of every record
// logged through it: give a host slog.New(&log) and it learns the pids of the
// programs the host started. The zero PIDLog is ready to use.
type PIDLog struct {
	mu   sync.Mutex
	pids []int
}

// Enabled reports true: every record is looked at.
func (h *PIDLog) Enabled(context.Context, slog.Level) bool { return true }

// WithAttrs returns h: attributes given up front are not looked at.
func (h *PIDLog) WithAttrs([]slog.Attr) slog.Handler { return h }

// WithGroup returns h.
func (h *PIDLog) WithGroup(string) slog.Handler { return h }

// Handle keeps the record's "pid" attribute, if it has one.
func (h *PIDLog) Handle(_ context.Context, r slog.Record) error {
	r.Attrs(func(a slog.Attr) bool {
		if a.Key == "pid" {
			h.mu.Lock()
			h.pids = append(h.pids, int(a.Value.Int64()))
			h.mu.Unlock()
		}
		return true
	})
	return nil
}

// PIDs returns the pids seen so far, in the order they were logged.
func (h *PIDLog) PIDs() []int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]int(nil), h.pids...)
}

// CheckReaped fails t for every pid seen that is still a process (a zombie
// included): a program the host started and did not reap.
func (h *PIDLog) CheckReaped(t testing.TB) {
	t.Helper()
	for _, pid := range h.PIDs() {
		if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
			t.Errorf("program %d not reaped: kill(0) = %v", pid, err)
		}
	}
}

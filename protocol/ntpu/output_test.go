//go:build unix

package ntpu_test

import (
	"bytes"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/botarena/botarena/internal/proc"
	"github.com/botarena/botarena/protocol/ntpu"
	"github.com/botarena/botarena/timer"
)

// An NTPU program's standard error is kept up to proc.LogLimit, the start
// and the end: an engine's log of a game (80-270 KB) is kept whole up to
// the limit, and beyond it the end, where the fault shows, is not lost.
func TestStderrKeepsTheEnd(t *testing.T) {
	for _, size := range []int{200_000, 400_000} {
		// It writes size bytes of log, then its fault, and crashes.
		const fault = "the fault\n"
		script := `read l; echo SET:ABCD; read l; read l; head -c ` + strconv.Itoa(size) + ` /dev/zero | tr '\0' x >&2; echo 'the fault' >&2; kill -SEGV $$`
		crash := ntpu.Program{Name: "crash", Path: "/bin/sh", Args: []string{"-c", script}}
		setter := ntpu.Program{Name: "setter", Path: "/bin/sh", Args: []string{"-c", `read l; echo SET:ABCD; cat >/dev/null`}}
		h := &ntpu.Host{Time: timer.Control{MoveCap: 30 * time.Second}, ExitGrace: time.Second}
		g, err := h.Play(t.Context(), crash, setter)
		if err != nil {
			t.Fatal(err)
		}
		p := g.Players[0]
		total := int64(len(p.Stderr)) + p.StderrDropped
		if !bytes.HasSuffix(p.Stderr, []byte("xx"+fault)) || !bytes.HasPrefix(p.Stderr, []byte("xxx")) {
			t.Errorf("%d bytes: stderr %q...%q", size, p.Stderr[:min(20, len(p.Stderr))], p.Stderr[max(0, len(p.Stderr)-20):])
		}
		switch {
		case size+len(fault) <= proc.LogLimit:
			if p.StderrDropped != 0 || len(p.Stderr) != size+len(fault) {
				t.Errorf("%d bytes: kept %d, dropped %d: want all of it", size, len(p.Stderr), p.StderrDropped)
			}
		default:
			line := "\n" + proc.TruncatedLine(p.StderrDropped) + "\n"
			if len(p.Stderr) != proc.LogLimit+len(line) || !strings.Contains(string(p.Stderr), line) || total != int64(size+len(fault)+len(line)) {
				t.Errorf("%d bytes: kept %d, dropped %d", size, len(p.Stderr), p.StderrDropped)
			}
		}
	}
}

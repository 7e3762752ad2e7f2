//go:build unix

package protocol_test

import (
	"bytes"
	"context"
	"math/rand/v2"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/botarena/botarena/darkchess"
	"github.com/botarena/botarena/internal/proc"
	"github.com/botarena/botarena/protocol"
	"github.com/botarena/botarena/protocol/cdcsocket"
	"github.com/botarena/botarena/protocol/readmode"
	"github.com/botarena/botarena/timer"
)

// flood is a program that prints 400 KB on each of its standard output and
// error, its fault last, and exits without moving.
const flood = `head -c 400000 /dev/zero | tr '\0' o; head -c 400000 /dev/zero | tr '\0' e >&2; printf '\nengine: the fault\n' >&2`

// checkBoundedLog checks that log holds at most proc.LogLimit bytes and the
// truncation line, and ends with the program's last line.
func checkBoundedLog(t *testing.T, log []byte) {
	t.Helper()
	m := regexp.MustCompile(`\n\[truncated (\d+) bytes\]\n`).FindAllSubmatch(log, -1)
	if len(m) == 0 {
		t.Fatalf("%d bytes of log without a truncation line", len(log))
	}
	dropped, _ := strconv.ParseInt(string(m[len(m)-1][1]), 10, 64)
	if limit := proc.LogLimit + len("\n"+proc.TruncatedLine(dropped)+"\n"); len(log) > limit {
		t.Errorf("the log has %d bytes, over %d", len(log), limit)
	}
	if !bytes.HasPrefix(log, []byte("ooo")) || !bytes.HasSuffix(log, []byte("eee\nengine: the fault\n")) {
		t.Errorf("the log is %q...%q", log[:min(len(log), 20)], log[max(0, len(log)-40):])
	}
}

// A read-mode engine's log (Output) keeps at most proc.LogLimit bytes per
// game, its start and its end, where the fault shows; the result quotes the
// last line it printed.
func TestDarkChessReadModeOutputIsBounded(t *testing.T) {
	var log bytes.Buffer
	a := readmode.Program{Path: "/bin/sh", Args: []string{"-c", flood + "; exit 3"}, Dir: t.TempDir(), Output: &log}
	b := readmode.Program{Path: "/bin/sh", Args: []string{"-c", "exit 1"}, Dir: t.TempDir()}
	ref := protocol.DarkChessReferee{Control: timer.Control{Main: time.Minute}}
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	g := darkchess.NewGame(darkchess.NTU2021, rand.New(rand.NewPCG(1, 2)))
	rec, err := ref.Play(ctx, g, [2]protocol.DarkChessSeat{a.Seat(), b.Seat()})
	if err != nil {
		t.Fatal(err)
	}
	if rec.Faults[0] == nil || !strings.Contains(rec.Faults[0].Error(), `"engine: the fault"`) {
		t.Errorf("faults %v: want the first engine's, quoting its last line", rec.Faults)
	}
	checkBoundedLog(t, log.Bytes())
}

// A legacy socket engine's log likewise, for one that floods and exits
// without connecting.
func TestDarkChessLegacyOutputIsBounded(t *testing.T) {
	var log bytes.Buffer
	a := cdcsocket.Program{Path: "/bin/sh", Args: []string{"-c", flood}, FirstPort: -1, Output: &log}
	ref := protocol.DarkChessReferee{Control: timer.Control{Main: time.Minute}, HandshakeTimeout: 30 * time.Second}
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	g := darkchess.NewGame(darkchess.NTU2021, rand.New(rand.NewPCG(1, 2)))
	player := protocol.NewDarkChessPlayerSeat(darkchess.PlayerFunc(func(_ context.Context, v darkchess.View) (darkchess.Move, error) {
		return v.AppendLegalMoves(nil)[0], nil
	}))
	rec, err := ref.Play(ctx, g, [2]protocol.DarkChessSeat{a.Seat(), player})
	if err != nil {
		t.Fatal(err)
	}
	if rec.Faults[0] == nil {
		t.Errorf("faults %v: want the first engine's", rec.Faults)
	}
	checkBoundedLog(t, log.Bytes())
}

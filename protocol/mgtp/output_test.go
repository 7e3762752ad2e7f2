package mgtp_test

import (
	"bytes"
	"context"
	"math/rand/v2"
	"os/exec"
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/botarena/botarena/darkchess"
	"github.com/botarena/botarena/internal/proc"
	"github.com/botarena/botarena/protocol"
	"github.com/botarena/botarena/protocol/mgtp"
	"github.com/botarena/botarena/timer"
)

// An engine that prints junk without end during the handshake leaves a log
// of at most proc.LogLimit bytes and the truncation line: the start of the
// junk, then its end and the engine's standard error, where its fault shows.
func TestHostOutputIsBounded(t *testing.T) {
	if _, err := exec.LookPath("awk"); err != nil {
		t.Skip("no awk here")
	}
	var log bytes.Buffer
	junk := mgtp.Program{
		Path:   "/bin/sh",
		Args:   []string{"-c", `echo "engine: clearing the hash table" >&2; exec awk 'BEGIN { for (i = 0; ; i++) print "junk line " i }'`},
		Output: &log,
	}
	ref := protocol.DarkChessReferee{
		Control:          timer.Control{Main: 10 * time.Second},
		HandshakeTimeout: time.Second, // the junk engine never answers
	}
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	g := darkchess.NewGame(darkchess.NTU2021, rand.New(rand.NewPCG(1, 2)))
	rec, err := ref.Play(ctx, g, [2]protocol.DarkChessSeat{junk.Seat(), protocol.NewDarkChessPlayerSeat(randomPlayer(1))})
	if err != nil {
		t.Fatal(err)
	}
	if rec.Faults[0] == nil || rec.Result.Reason != darkchess.TimeOut {
		t.Errorf("result %v, faults %v: want the junk engine to lose by TimeOut", rec.Result, rec.Faults)
	}
	got := log.Bytes()
	m := regexp.MustCompile(`\n\[truncated (\d+) bytes\]\n`).FindSubmatchIndex(got)
	if m == nil {
		t.Fatalf("%d bytes of log without a truncation line", len(got))
	}
	dropped, _ := strconv.ParseInt(string(got[m[2]:m[3]]), 10, 64)
	if limit := proc.LogLimit + len("\n"+proc.TruncatedLine(dropped)+"\n"); len(got) > limit {
		t.Errorf("the log has %d bytes, over %d", len(got), limit)
	}
	head, tail := got[:m[0]], got[m[1]:]
	if len(head) != proc.LogLimit/2 || len(tail) != proc.LogLimit/2 || dropped <= 0 {
		t.Errorf("kept %d bytes, dropped %d, kept %d", len(head), dropped, len(tail))
	}
	if !bytes.HasPrefix(head, []byte("junk line 0\njunk line 1\n")) {
		t.Errorf("the log starts %q", head[:min(len(head), 40)])
	}
	// The end: the last junk lines, then the standard error.
	if !bytes.HasSuffix(tail, []byte("\nengine: clearing the hash table\n")) {
		t.Errorf("the log ends %q", tail[max(0, len(tail)-80):])
	}
	lines := regexp.MustCompile(`junk line (\d+)\n`).FindAllSubmatch(tail, -1)
	first := regexp.MustCompile(`junk line (\d+)\n`).FindAllSubmatch(head, -1)
	if len(lines) == 0 || len(first) == 0 {
		t.Fatal("no junk line kept")
	}
	// (The very last line may be cut short where the engine was killed.)
	last, _ := strconv.Atoi(string(lines[max(0, len(lines)-2)][1]))
	headLast, _ := strconv.Atoi(string(first[len(first)-1][1]))
	if last <= headLast {
		t.Errorf("the tail ends at junk line %d, not after the head's %d", last, headLast)
	}
	t.Logf("log: %d bytes; the engine printed %d bytes", len(got), int64(len(head)+len(tail))+dropped)
}

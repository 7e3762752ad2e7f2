package gat

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/botarena/botarena/geister"
	"github.com/botarena/botarena/record"
	"github.com/botarena/botarena/timer"
)

// jgScript is a capture turned into a replay through our host: the rows in
// order, and for each side the server messages our host must send, up to
// its first result.
type jgScript struct {
	rows []jgRow
	want [2][]string
}

// jgScriptOf reads a capture and applies edit, if not nil, to the expected
// messages of each side (for the Java defects our host leaves out).
func jgScriptOf(t *testing.T, name string, edit func(side int, msgs []string) []string) jgScript {
	t.Helper()
	sc := jgScript{rows: jgRead(t, name)}
	var ended [2]bool
	for _, r := range sc.rows {
		if r.dir != "S>C" || ended[r.side] {
			continue
		}
		for _, m := range jgMessages(r.data) {
			if ended[r.side] {
				break
			}
			sc.want[r.side] = append(sc.want[r.side], m)
			e, err := ParseEvent(m)
			ended[r.side] = err == nil && e.Kind.IsResult()
		}
	}
	for side := range sc.want {
		if !ended[side] {
			t.Fatalf("%s: no result for P%d", name, side)
		}
		if edit != nil {
			sc.want[side] = edit(side, sc.want[side])
		}
	}
	return sc
}

// jgReplay plays sc through a host: two scripted clients send the
// capture's commands in the capture's order, each only after its side has
// received every server message the capture shows before it (across both
// sides, as they share one clock); then each must have got exactly the
// expected messages, byte for byte, and the connection closed.
func jgReplay(t *testing.T, h *Host, sc jgScript) {
	t.Helper()
	addrs := jgServe(t, h)
	ctx := jgContext(t)
	var c [2]*jgClient
	// The first player connects first, as in every capture.
	for i := range c {
		c[i] = jgDial(t, addrs[i])
	}
	var got [2][]string
	var eof [2]bool
	// read takes the next message of side i, unless its result is in.
	read := func(i int) {
		t.Helper()
		if len(got[i]) == len(sc.want[i]) {
			return
		}
		line, err := c[i].next(ctx)
		if err != nil {
			t.Fatalf("P%d: after %q: %v", i, got[i], err)
		}
		got[i] = append(got[i], line)
	}
	var seen [2]int // server messages the capture shows so far, per side
	for _, r := range sc.rows {
		switch r.dir {
		case "S>C":
			seen[r.side] += len(jgMessages(r.data))
		case "C>S":
			for i := range c {
				for len(got[i]) < min(seen[i], len(sc.want[i])) {
					read(i)
				}
			}
			if eof[r.side] {
				continue
			}
			if err := c[r.side].sendRaw(r.data); err != nil {
				eof[r.side] = true // the host closed after the result
			}
		}
	}
	for i := range c {
		for len(got[i]) < len(sc.want[i]) {
			read(i)
		}
		if d := cmp.Diff(sc.want[i], got[i]); d != "" {
			t.Errorf("P%d: messages differ from the capture (-want +got):\n%s", i, d)
		}
		if err := c[i].expectEOF(ctx); err != nil {
			t.Errorf("P%d: after the result: %v", i, err)
		}
	}
}

// TestHostGolden replays every capture through our host:
// the clients' bytes in, the server's bytes out, compared per side after
// splitting on CRLF, up to each side's first result. Where the Java server
// was wrong, the expected messages are ours: D7, the escape
// acked "OK " in random-game-2; D4, the player who was thinking loses on
// time in scenario-bug-spurious-timeout; D5, nothing after the first
// result. The captures with --budget=3 --timeout=2 run on a clock ten
// times faster, which changes no byte.
func TestHostGolden(t *testing.T) {
	fast, err := timer.Parse("0.3s+0.2s/move")
	if err != nil {
		t.Fatal(err)
	}
	retry := geister.GAT
	retry.IllegalMove = geister.Retry
	for _, tc := range []struct {
		name string
		host Host
		edit func(side int, msgs []string) []string
	}{
		{name: "random-game-1.txt"},
		{name: "random-game-2.txt", edit: func(side int, msgs []string) []string {
			// D7: the escape G,NORTH right after G captured a red.
			if side == 0 && msgs[len(msgs)-2] == "OKR" {
				msgs[len(msgs)-2] = "OK "
			} else if side == 0 {
				t.Errorf("random-game-2: P0 ends %q", msgs[len(msgs)-2:])
			}
			return msgs
		}},
		{name: "scenario-escape-north-badset-wrongturn.txt"},
		{name: "scenario-escape-west.txt"},
		{name: "scenario-escape-second-player.txt"},
		{name: "scenario-red-escape-attempt-ng.txt"},
		{name: "scenario-draw-300-plies.txt"},
		{name: "scenario-illegal-move-ng-terminate.txt"},
		{name: "scenario-bad-direction-ng-terminate.txt"},
		{name: "scenario-no-ng-terminate-retry-then-timeout.txt", host: Host{Rules: retry, Time: fast}},
		{name: "scenario-bug-spurious-timeout.txt", host: Host{Rules: retry, Time: fast}, edit: func(side int, msgs []string) []string {
			// D4: P1 had answered; P0, silent after its MOV?, is the one
			// out of time.
			last := msgs[len(msgs)-1]
			want := map[int]string{0: "WON:", 1: "LST:"}[side]
			if !strings.HasPrefix(last, want) {
				t.Errorf("bug-spurious-timeout: P%d ends %q", side, last)
			}
			msgs[len(msgs)-1] = map[int]string{0: "LST:", 1: "WON:"}[side] + last[4:]
			return msgs
		}},
	} {
		t.Run(strings.TrimSuffix(tc.name, ".txt"), func(t *testing.T) {
			t.Parallel()
			jgReplay(t, &tc.host, jgScriptOf(t, tc.name, tc.edit))
		})
	}
}

// TestHostMaxTurn replays the capture the Java server ran with
// --max-turn=10, which it ignored (D6): our host honours it, so after the
// tenth ply both players get DRW: with their global boards, and the moves
// the clients send after that are ignored.
func TestHostMaxTurn(t *testing.T) {
	const name = "scenario-bug-spurious-timeout-long-game.txt"
	rules := geister.GAT
	rules.PlyLimit, rules.IllegalMove = 10, geister.Retry
	var final geister.Position
	sc := jgScriptOf(t, name, func(side int, msgs []string) []string {
		// Keep each side's messages up to the ack of its fifth move, then
		// the draw.
		oks := 0
		for i, m := range msgs {
			if m == "OK " {
				oks++
			}
			if oks == 1+5 { // the SET's OK, then five moves
				msgs = msgs[:i+1]
				break
			}
		}
		if final == (geister.Position{}) {
			final = jgReplayMoves(t, name, 10)
		}
		return append(msgs, "DRW:"+final.Board(geister.Color(side)))
	})
	jgReplay(t, &Host{Rules: rules}, sc)
}

// jgReplayMoves plays the first plies accepted moves of a capture whose
// commands are all accepted, and returns the position.
func jgReplayMoves(t *testing.T, name string, plies int) geister.Position {
	t.Helper()
	var reds [2]geister.Reds
	var moves [2][]geister.Move
	for _, r := range jgRead(t, name) {
		if r.dir != "C>S" {
			continue
		}
		for _, m := range jgMessages(r.data) {
			cmd, err := ParseCommand(m)
			if err != nil {
				t.Fatalf("%s: %q: %v", name, m, err)
			}
			switch cmd.Kind {
			case Set:
				reds[r.side] = cmd.Reds
			case Move:
				moves[r.side] = append(moves[r.side], cmd.Move)
			}
		}
	}
	p, err := geister.Start(reds[0], reds[1])
	if err != nil {
		t.Fatal(err)
	}
	for ply := range plies {
		if p, err = p.Play(moves[ply%2][ply/2]); err != nil {
			t.Fatalf("%s: ply %d: %v", name, ply, err)
		}
	}
	return p
}

// jgContext bounds a test's waiting.
func jgContext(t *testing.T) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 15*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// TestHostRecordFile replays the game of the documented board.txt
// example and checks the file our host writes: the same lines but for the
// date, the names (our host names players by address) and the times.
func TestHostRecordFile(t *testing.T) {
	h := &Host{RecordDir: t.TempDir()} // the Java server's clock: "time 600"
	recs := jgRecords(h)
	jgReplay(t, h, jgScriptOf(t, "scenario-escape-north-badset-wrongturn.txt", nil))
	rec := <-recs
	data, err := os.ReadFile(rec.RecordFile)
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	name0, name1 := rec.Remote[0], rec.Remote[1]
	want := []string{
		"* " + name0 + " vs " + name1,
		"* 4 4 4 4",
		"* - h g f e -", "* - d c b a -", "* - - - - - -", "* - - - - - -", "* - A B C D -", "* - E F G H -",
		"* time 600",
		"* 1. A,WEST A,NORTH", "* 2. A,NORTH A,SOUTH", "* 3. A,NORTH A,NORTH", "* 4. A,NORTH A,SOUTH", "* 5. A,NORTH A,NORTH", "* 6. A,WEST",
		"* ChessEscape " + name0 + " wins 1,0",
		"* Comment 0 0",
	}
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	if len(lines) < 1+len(want) || cmp.Diff(want, lines[1:1+len(want)]) != "" {
		t.Errorf("board.txt (-want +got):\n%s", cmp.Diff(want, lines[1:min(len(lines), 1+len(want))]))
	}
	tail := lines[1+len(want):]
	if len(tail) != 12+6+1 || !strings.HasPrefix(tail[0], "0. ") || tail[12] != "1. 0 0" || tail[17] != "6. 0" || tail[18] != "* red EFGH bcde" {
		t.Errorf("board.txt times, captures and reds:\n%s", strings.Join(tail, "\n"))
	}
	b, err := record.ReadGeisterBoard(strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	if b.Result != rec.Result || len(b.Moves) != 11 || b.Reds != rec.Reds || len(b.Times) != 12 || b.Times[0].After(b.Times[11]) {
		t.Errorf("read back: %+v", b)
	}
}

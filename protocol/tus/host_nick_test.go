package tus

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/botarena/botarena/othello"
)

// hostWaitUntil waits until t (a delay that is the point of a test: a
// client that does something late, as a real one does).
func hostWaitUntil(t time.Time) {
	if d := time.Until(t); d > 0 {
		<-time.After(d)
	}
}

// TestHostLateNick: clients that send NICK 1.5 s after connecting, as the
// course's clients do (0.9-1.2 s), are paired first, under BLACK and WHITE
// (the host pairs a second after connecting); black names itself before its
// first move, white only after black's first move, before its own. The
// transcript's header is written with the first move, naming black, and at
// the end of the game it names both, as the END line, the console's last
// line and the GameRecord do.
func TestHostLateNick(t *testing.T) {
	t.Parallel()
	ctx := hostTestContext(t)
	console := newHostTestConsole()
	dir := t.TempDir()
	h := &Host{Pairing: PairFIFO, TransDir: dir, TransName: "game.txt", Console: console, nickGrace: hostNickGrace}
	records := hostRecords(h)
	addr := hostTestServe(t, h)
	path := filepath.Join(dir, "game.txt")
	const late = 1500 * time.Millisecond

	b := hostTestDial(t, addr)
	bAt := time.Now()
	must(t, console.waitFor(ctx, "Connect from: ")) // black waits first: FIFO makes it black
	w := hostTestDial(t, addr)
	wAt := time.Now()
	start := othello.TUS.Start
	must(t, b.expect(ctx, "START 1", hostBoardLine(start), "TURN 1"))
	must(t, w.expect(ctx, "START -1", hostBoardLine(start), "TURN 1"))

	// Black: NICK 1.5 s after connecting, then its first move.
	hostWaitUntil(bAt.Add(late))
	first := start.AppendLegalMoves(nil)[0].Square()
	must(t, b.send("NICK lateBlack", fmt.Sprintf("PUT %d %d", first.X(), first.Y())))
	p1 := hostPlay(t, start, first.X(), first.Y())
	must(t, w.expect(ctx, hostBoardLine(p1)))
	// The move is in the transcript before its BOARD is sent: the header,
	// written with it, names black, and white as it is named still.
	want := fmt.Sprintf("B:lateBlack,W:WHITE\n%d,%d,1\n", first.X(), first.Y())
	if got, err := os.ReadFile(path); err != nil || string(got) != want {
		t.Errorf("the transcript after the first move: %q (%v), want %q", got, err, want)
	}

	// White: NICK 1.5 s after connecting and after black's first move,
	// before its own; then both play to the end.
	hostWaitUntil(wAt.Add(late))
	must(t, w.send("NICK lateWhite"))
	type ended struct {
		lines []string
		err   error
	}
	bDone, wDone := make(chan ended, 1), make(chan ended, 1)
	go func() { l, err := hostTestPlay(ctx, b, othello.Black, Event{}); bDone <- ended{l, err} }()
	go func() {
		e, _ := ParseEvent(hostBoardLine(p1))
		l, err := hostTestPlay(ctx, w, othello.White, e)
		wDone <- ended{l, err}
	}()
	be, we := <-bDone, <-wDone
	must(t, be.err)
	must(t, we.err)
	r := hostNextRecord(t, ctx, records)
	end := "END " + FormatEnd(r.Result, "lateBlack", "lateWhite")
	if be.lines[len(be.lines)-1] != end || we.lines[len(we.lines)-1] != end {
		t.Errorf("END lines %q and %q, want %q", be.lines[len(be.lines)-1], we.lines[len(we.lines)-1], end)
	}
	if r.Black != "lateBlack" || r.White != "lateWhite" || r.Transcript != path {
		t.Errorf("the record names %q and %q, transcript %q", r.Black, r.White, r.Transcript)
	}
	tr := hostReadTranscriptFrom(t, path, start)
	if tr.Black != "lateBlack" || tr.White != "lateWhite" || !slices.Equal(tr.Moves, r.Moves) {
		t.Errorf("the transcript names %q and %q, %d moves; want lateBlack and lateWhite, the game's %d", tr.Black, tr.White, len(tr.Moves), len(r.Moves))
	}
	lines := console.all()
	for _, l := range []string{"Send to BLACK:START 1", "Send to WHITE:START -1", "Game-0:End Game: " + strings.TrimPrefix(end, "END "), "lateBlack,lateWhite"} {
		if !slices.Contains(lines, l) {
			t.Errorf("the console lacks %q", l)
		}
	}
}

// TestHostNickNoMove: a game that ends before its first move (black
// disconnects) still leaves a transcript, its header written at the end
// with the NICKs sent after pairing.
func TestHostNickNoMove(t *testing.T) {
	t.Parallel()
	ctx := hostTestContext(t)
	dir := t.TempDir()
	h := &Host{Pairing: PairFIFO, TransDir: dir, TransName: "game.txt"}
	records := hostRecords(h)
	addr := hostTestServe(t, h)
	b, w := hostPair(t, ctx, addr, othello.TUS.Start)
	// White's BOARD answered: its NICK, sent before, has been applied.
	must(t, w.send("NICK lateWhite", "BOARD"))
	must(t, w.expect(ctx, hostBoardLine(othello.TUS.Start)))
	must(t, b.send("NICK lateBlack", "CLOSE"))
	r := hostNextRecord(t, ctx, records)
	got, err := os.ReadFile(filepath.Join(dir, "game.txt"))
	if err != nil || string(got) != "B:lateBlack,W:lateWhite\n" || r.Black != "lateBlack" || r.White != "lateWhite" {
		t.Errorf("transcript %q (%v), record names %q and %q; want the header naming lateBlack and lateWhite", got, err, r.Black, r.White)
	}
}

package permove_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/botarena/botarena/pdd"
	"github.com/botarena/botarena/protocol/permove"
	"github.com/botarena/botarena/record"
	"github.com/botarena/botarena/timer"
)

// scriptedPlayer answers its turns from a script, in order: a move's text,
// or one of permove's endings; past the script, the first legal move. It
// counts its turns. It is safe for concurrent use.
type scriptedPlayer struct {
	mu     sync.Mutex
	script []any // string (a move) or error
	turns  int
}

func (s *scriptedPlayer) Play(ctx context.Context, p pdd.Position) (pdd.Move, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.turns++
	if len(s.script) == 0 {
		return p.AppendLegalMoves(nil)[0], nil
	}
	next := s.script[0]
	s.script = s.script[1:]
	if err, ok := next.(error); ok {
		return pdd.NoMove, err
	}
	return pdd.ParseMove(next.(string))
}

// readResult reads the result.json of a game directory.
func readResult(t *testing.T, dir string) permove.ResultFile {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "result.json"))
	if err != nil {
		t.Fatal(err)
	}
	f, err := permove.ReadResultFile(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// stepLines returns the stepLog lines of a game directory.
func stepLines(t *testing.T, dir string) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, record.PDDStepLogFile))
	if err != nil {
		t.Fatal(err)
	}
	l, err := record.ReadPDDStepLog(bytes.NewReader(b), record.PDDLenient)
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, s := range l.Steps {
		lines = append(lines, s.String())
	}
	return lines
}

// An in-process player takes back: a take-back before it has moved is
// refused (it is asked again), a later one undoes its action and the
// opponent's answer, and OnMove is told; the record holds the game as
// finally played, with the times of the actions kept. Then it resigns: it
// loses by "resignation", and stepLog.txt ends with the last action.
func TestRefereeTakeBackAndResign(t *testing.T) {
	white := &scriptedPlayer{script: []any{
		permove.ErrTakeBack,                      // refused: nothing to take back
		"Chess_0,0_1,0",                          // W_1
		permove.ErrTakeBack,                      // undoes W_1 and B_2
		fmt.Errorf("x: %w", permove.ErrTakeBack), // again, wrapped: nothing left of its own; refused
		"Chess_5,5_6,5",                          // W_1 anew
		permove.ErrResign,
	}}
	black := &scriptedPlayer{script: []any{"Chess_9,9_8,9", "Chess_9,0_9,1"}}
	var events []permove.MoveEvent
	ref := &permove.Referee{
		Control: timer.Control{Main: time.Hour},
		OnMove:  func(e permove.MoveEvent) { events = append(events, e) },
	}
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	dir := filepath.Join(t.TempDir(), "game")
	rec, err := ref.Play(ctx, dir, permove.Program{Name: "person", Player: white}, permove.Program{Name: "bot", Player: black})
	if err != nil {
		t.Fatal(err)
	}
	if rec.Violation != nil || rec.Result.Reason != pdd.Resign || rec.Result.Winner != pdd.Black || rec.Result.Draw {
		t.Fatalf("result %v, violation %v; want black wins by resignation", rec.Result, rec.Violation)
	}
	if white.turns != 6 || black.turns != 2 {
		t.Errorf("white asked %d times, black %d; want 6 and 2", white.turns, black.turns)
	}
	want := []string{"W_1_Chess_5,5_6,5", "B_2_Chess_9,0_9,1"}
	if got := stepLines(t, dir); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("stepLog.txt %q, want %q", got, want)
	}
	if got := rec.Game.Moves(); len(got) != 2 || got[0].String() != "Chess_5,5_6,5" {
		t.Errorf("the game's moves %v", got)
	}
	f := readResult(t, dir)
	if f.Reason != "resignation" || f.Winner != "B" || f.Plies != 2 || f.Programs.W != "person" || len(f.Moves) != 2 || f.Moves[0].P1 != "5,5" {
		t.Errorf("result.json %+v", f)
	}
	// OnMove: W_1, B_2, the take-back (to no action, White to move), W_1,
	// B_2; the clock went on through the take-back.
	if len(events) != 5 {
		t.Fatalf("%d events, want 5: %+v", len(events), events)
	}
	tb := events[2]
	if !tb.TakeBack || tb.Ply != 0 || tb.Position != pdd.Course.Start() || tb.Move != (permove.MoveRecord{}) {
		t.Errorf("take-back event %+v", tb)
	}
	for i, e := range events {
		if e.TakeBack != (i == 2) {
			t.Errorf("event %d: TakeBack %v", i, e.TakeBack)
		}
	}
	if events[3].Ply != 1 || events[3].Move.Step.String() != "W_1_Chess_5,5_6,5" {
		t.Errorf("the move after the take-back: %+v", events[3])
	}
	if w := events[4].Clock.Players[timer.First].Plies; w < 2 {
		t.Errorf("White's clock counts %d plies after the take-back; want the taken-back one counted too", w)
	}
}

// A take-back undoes the player's last action only when the opponent has
// not answered it (here, Black's take-back right after its own move would
// need White to have answered: the undone plies are Black's and White's).
// Start's actions are never taken back. The agreed draw ends the game drawn.
func TestRefereeTakeBackStartAndDraw(t *testing.T) {
	start, err := record.ReadPDDStepLog(bytes.NewReader([]byte("W_1_Chess_0,0_1,0\nB_2_Chess_9,9_8,9\n")), record.PDDLenient)
	if err != nil {
		t.Fatal(err)
	}
	white := &scriptedPlayer{script: []any{
		permove.ErrTakeBack, // refused: the start's actions stay
		"Chess_5,5_6,5",     // W_3
		"Chess_3,3_3,4",     // W_5
		permove.ErrDrawAgreed,
	}}
	black := &scriptedPlayer{script: []any{
		"Chess_9,0_9,1",     // B_4
		permove.ErrTakeBack, // undoes B_4 and W_5
		"Chess_0,9_1,9",     // B_4 anew
	}}
	ref := &permove.Referee{Start: start}
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	dir := filepath.Join(t.TempDir(), "game")
	rec, err := ref.Play(ctx, dir, permove.Program{Player: white}, permove.Program{Player: black})
	if err != nil {
		t.Fatal(err)
	}
	if rec.Violation != nil || rec.Result.Reason != pdd.AgreedDraw || !rec.Result.Draw {
		t.Fatalf("result %v, violation %v; want an agreed draw", rec.Result, rec.Violation)
	}
	want := []string{"W_1_Chess_0,0_1,0", "B_2_Chess_8,9_9,9", "W_3_Chess_5,5_6,5", "B_4_Chess_0,9_1,9"}
	if got := stepLines(t, dir); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("stepLog.txt %q, want %q", got, want)
	}
	if f := readResult(t, dir); f.Reason != "agreement" || f.Winner != "none" || f.StartPlies != 2 || f.Plies != 4 {
		t.Errorf("result.json %+v", f)
	}
}

// StartClock starts the game with the clocks it gives: White's first
// action is charged to White's 30 s left, and Black keeps its 20 s.
func TestRefereeStartClock(t *testing.T) {
	var events []permove.MoveEvent
	ctl := timer.Control{Main: time.Hour}
	ref := &permove.Referee{
		Control:    ctl,
		StartClock: &[2]timer.PlayerState{{Main: 30 * time.Second}, {Main: 20 * time.Second}},
		OnMove:     func(e permove.MoveEvent) { events = append(events, e) },
	}
	var told time.Duration
	white := pdd.PlayerFunc(func(ctx context.Context, p pdd.Position) (pdd.Move, error) {
		if st, ok := timer.StatusFrom(ctx); ok {
			told = st.Own.Main
		}
		return pdd.NoMove, permove.ErrResign
	})
	black := &scriptedPlayer{}
	first := &scriptedPlayer{script: []any{"Chess_0,0_1,0"}}
	// White moves once (first), then resigns (white) on its second turn.
	both := pdd.PlayerFunc(func(ctx context.Context, p pdd.Position) (pdd.Move, error) {
		if len(first.script) > 0 {
			return first.Play(ctx, p)
		}
		return white.Play(ctx, p)
	})
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	rec, err := ref.Play(ctx, filepath.Join(t.TempDir(), "game"), permove.Program{Player: both}, permove.Program{Player: black})
	if err != nil {
		t.Fatal(err)
	}
	if rec.Result.Reason != pdd.Resign || len(events) != 2 {
		t.Fatalf("result %v after %d events", rec.Result, len(events))
	}
	w, b := events[0].Clock.Players[timer.First].Main, events[0].Clock.Players[timer.Second].Main
	if w > 30*time.Second || w < 20*time.Second || b != 20*time.Second {
		t.Errorf("after White's first action the clocks are %v and %v; want White's below 30s and Black's 20s", w, b)
	}
	if told > 30*time.Second || told <= 0 {
		t.Errorf("White was told %v left; want at most 30s", told)
	}
	if errors.Is(err, permove.ErrResign) {
		t.Error("an ending is not Play's error")
	}
}

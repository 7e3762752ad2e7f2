package permove_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/botarena/botarena/pdd"
	"github.com/botarena/botarena/protocol/permove"
	"github.com/botarena/botarena/record"
	"github.com/botarena/botarena/timer"
)

// pddTurnDir writes the three files of game g into a new directory and
// returns their paths.
func pddTurnDir(t *testing.T, g *pdd.Game, crlf bool) (chess, bridge, stepLog string) {
	t.Helper()
	dir := t.TempDir()
	p := g.Position()
	c, b, l := record.NewPDDChess(p), record.NewPDDBridges(p), record.NewPDDStepLog(g)
	c.CRLF, b.CRLF, l.CRLF = crlf, crlf, crlf
	write := func(name string, data []byte, err error) string {
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, data, 0o640); err != nil {
			t.Fatal(err)
		}
		return path
	}
	cb, err := c.MarshalText()
	chess = write("chess.txt", cb, err)
	bb, err := b.MarshalText()
	bridge = write("bridge.txt", bb, err)
	lb, err := l.MarshalText()
	stepLog = write("stepLog.txt", lb, err)
	return chess, bridge, stepLog
}

func playPDD(t *testing.T, moves ...pdd.Move) *pdd.Game {
	t.Helper()
	g := pdd.NewGame(pdd.Course)
	for _, m := range moves {
		if err := g.Play(m); err != nil {
			t.Fatal(err)
		}
	}
	return g
}

func pddSq(x, y int) pdd.Square { return pdd.SquareAt(x, y) }

func runPDDStrategy(t *testing.T, args []string, player pdd.Player, opts permove.Options) (int, string) {
	t.Helper()
	var stderr strings.Builder
	code := permove.RunArgs(t.Context(), append([]string{"/usr/local/bin/mybot"}, args...), &stderr, player, opts)
	return code, stderr.String()
}

var pddFirstMove = pdd.PlayerFunc(func(_ context.Context, p pdd.Position) (pdd.Move, error) {
	return p.AppendLegalMoves(nil)[0], nil
})

func TestRunStrategyUsage(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"W", "N", "c"}, "mybot: permove: usage: PROG <W|B> <Y|N> <chess.txt> <bridge.txt> <stepLog.txt> (got 3 arguments)\n"},
		{nil, "mybot: permove: usage: PROG <W|B> <Y|N> <chess.txt> <bridge.txt> <stepLog.txt> (got 0 arguments)\n"},
		{[]string{"w", "N", "c", "b", "s"}, "mybot: permove: argument 1 (color): want W or B, got \"w\"\n"},
		{[]string{"W", "yes", "c", "b", "s"}, "mybot: permove: argument 2 (change flag): want Y or N, got \"yes\"\n"},
		{[]string{"W", "N", "", "b", "s"}, "mybot: permove: argument 3 (chess.txt path): want a path, got \"\"\n"},
		{[]string{"W", "N", "c", "b", ""}, "mybot: permove: argument 5 (stepLog.txt path): want a path, got \"\"\n"},
	}
	for _, tt := range tests {
		code, stderr := runPDDStrategy(t, tt.args, pddFirstMove, permove.Options{})
		if code != 2 || stderr != tt.want {
			t.Errorf("%q: exit %d, stderr %q; want 2, %q", tt.args, code, stderr, tt.want)
		}
	}
	_, err := permove.ParseArgs([]string{"B", "Y", "c"})
	if !errors.Is(err, permove.ErrUsage) {
		t.Errorf("count: %v", err)
	}
	_, err = permove.ParseArgs([]string{"B", "y", "c", "b", "s"})
	var ae *permove.ArgError
	if !errors.As(err, &ae) || ae.Index != 2 || !errors.Is(err, permove.ErrUsage) {
		t.Errorf("flag: %v", err)
	}
	a, err := permove.ParseArgs([]string{"B", "Y", "c", "b", "s"})
	if err != nil || a != (permove.Args{Color: pdd.Black, Change: true, Chess: "c", Bridge: "b", StepLog: "s"}) || strings.Join(a.Strings(), " ") != "B Y c b s" {
		t.Errorf("ParseArgs = %+v, %v", a, err)
	}
}

func TestRunStrategyPlays(t *testing.T) {
	g := playPDD(t, pdd.Chess(pddSq(2, 0), pddSq(2, 2)), pdd.Chess(pddSq(5, 5), pddSq(7, 7)))
	for _, crlf := range []bool{false, true} {
		chess, bridge, stepLog := pddTurnDir(t, g, crlf)
		before, _ := os.ReadFile(bridge)
		stepBefore, _ := os.ReadFile(stepLog)
		var got pdd.Position
		player := pdd.PlayerFunc(func(ctx context.Context, p pdd.Position) (pdd.Move, error) {
			got = p
			if _, ok := ctx.Deadline(); !ok {
				return pdd.NoMove, errors.New("no deadline")
			}
			return pdd.Chess(pddSq(0, 9), pddSq(9, 9)), nil
		})
		code, stderr := runPDDStrategy(t, []string{"W", "N", chess, bridge, stepLog}, player, permove.Options{})
		if code != 0 || stderr != "" {
			t.Fatalf("exit %d, stderr %q", code, stderr)
		}
		if got.Turn() != pdd.White || got.ChangeAvailable() || got != g.Position() {
			t.Errorf("position %v", got)
		}
		next, _ := g.Position().Play(pdd.Chess(pddSq(0, 9), pddSq(9, 9)))
		want := record.NewPDDChess(next)
		want.CRLF = crlf
		if b, _ := os.ReadFile(chess); string(b) != want.String() {
			t.Errorf("chess.txt = %q, want %q", b, want.String())
		}
		if fi, _ := os.Stat(chess); fi.Mode().Perm() != 0o640 {
			t.Errorf("chess.txt mode %v", fi.Mode())
		}
		if b, _ := os.ReadFile(bridge); string(b) != string(before) {
			t.Error("bridge.txt changed for a Chess move")
		}
		if b, _ := os.ReadFile(stepLog); string(b) != string(stepBefore) {
			t.Error("stepLog.txt changed")
		}
		if entries, _ := os.ReadDir(filepath.Dir(chess)); len(entries) != 3 {
			t.Errorf("left %d files", len(entries))
		}
	}

	// A bridge writes bridge.txt only.
	g = playPDD(t, pdd.Chess(pddSq(2, 0), pddSq(2, 2)), pdd.Chess(pddSq(5, 5), pddSq(7, 7)), pdd.Chess(pddSq(0, 9), pddSq(9, 9)))
	chess, bridge, stepLog := pddTurnDir(t, g, false)
	chessBefore, _ := os.ReadFile(chess)
	bridgeMove := pdd.Bridge(pddSq(5, 5), pddSq(7, 7))
	code, stderr := runPDDStrategy(t, []string{"B", "N", chess, bridge, stepLog}, pdd.PlayerFunc(func(context.Context, pdd.Position) (pdd.Move, error) {
		return bridgeMove, nil
	}), permove.Options{})
	if code != 0 || stderr != "" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	if b, _ := os.ReadFile(chess); string(b) != string(chessBefore) {
		t.Error("chess.txt changed for a Bridge")
	}
	next, _ := g.Position().Play(bridgeMove)
	if b, _ := os.ReadFile(bridge); string(b) != record.NewPDDBridges(next).String() {
		t.Errorf("bridge.txt = %q", b)
	}

	// Change, with the flag.
	g = playPDD(t, pdd.Chess(pddSq(2, 0), pddSq(2, 2)))
	chess, bridge, stepLog = pddTurnDir(t, g, false)
	code, stderr = runPDDStrategy(t, []string{"B", "Y", chess, bridge, stepLog}, pdd.PlayerFunc(func(_ context.Context, p pdd.Position) (pdd.Move, error) {
		if !p.ChangeAvailable() {
			return pdd.NoMove, errors.New("no Change")
		}
		return pdd.Change, nil
	}), permove.Options{})
	if b, _ := os.ReadFile(chess); code != 0 || stderr != "" || !strings.HasPrefix(string(b), "0,0,2,0") {
		t.Errorf("Change: exit %d, %q, chess.txt %q", code, stderr, b)
	}
}

func TestRunStrategyFallback(t *testing.T) {
	g := playPDD(t, pdd.Chess(pddSq(2, 0), pddSq(2, 2)))
	first := g.Position().AppendLegalMoves(nil)[0]
	want, _ := g.Position().Play(first)
	block := make(chan struct{})
	defer close(block)
	for name, player := range map[string]pdd.Player{
		"error": pdd.PlayerFunc(func(context.Context, pdd.Position) (pdd.Move, error) { return pdd.NoMove, errors.New("no idea") }),
		"panic": pdd.PlayerFunc(func(context.Context, pdd.Position) (pdd.Move, error) { panic("boom") }),
		"illegal": pdd.PlayerFunc(func(context.Context, pdd.Position) (pdd.Move, error) {
			return pdd.Chess(pddSq(2, 0), pddSq(5, 5)), nil
		}),
		"late": pdd.PlayerFunc(func(ctx context.Context, _ pdd.Position) (pdd.Move, error) {
			<-ctx.Done()
			return pdd.NoMove, ctx.Err()
		}),
		"ignores ctx": pdd.PlayerFunc(func(context.Context, pdd.Position) (pdd.Move, error) {
			<-block
			return pdd.NoMove, nil
		}),
	} {
		t.Run(name, func(t *testing.T) {
			var called []pdd.Move
			opts := permove.Options{Budget: 50 * time.Millisecond, OnFallback: func(m pdd.Move, why error) {
				if why == nil {
					t.Error("OnFallback without a reason")
				}
				called = append(called, m)
			}}
			chess, bridge, stepLog := pddTurnDir(t, g, false)
			code, stderr := runPDDStrategy(t, []string{"B", "N", chess, bridge, stepLog}, player, opts)
			if code != 0 || !strings.HasPrefix(stderr, "mybot: "+permove.FallbackMarker) || !strings.HasSuffix(stderr, "; playing "+first.String()+" instead\n") ||
				strings.Count(stderr, "\n") != 1 || strings.Contains(stderr, "fallback: permove:") {
				t.Errorf("exit %d, stderr %q", code, stderr)
			}
			if !slices.Equal(called, []pdd.Move{first}) {
				t.Errorf("OnFallback got %v, want %v", called, first)
			}
			if b, _ := os.ReadFile(chess); string(b) != record.NewPDDChess(want).String() {
				t.Errorf("chess.txt = %q", b)
			}
			// NoFallback: exit 1, nothing written.
			chess, bridge, stepLog = pddTurnDir(t, g, false)
			before, _ := os.ReadFile(chess)
			opts.NoFallback = true
			code, stderr = runPDDStrategy(t, []string{"B", "N", chess, bridge, stepLog}, player, opts)
			if b, _ := os.ReadFile(chess); code != 1 || !strings.HasPrefix(stderr, "mybot: permove: ") || string(b) != string(before) ||
				strings.Contains(stderr, permove.FallbackMarker) || len(called) != 1 {
				t.Errorf("NoFallback: exit %d, stderr %q, OnFallback %v", code, stderr, called)
			}
		})
	}
}

// NoTimeLimit gives the player a context without a deadline, whatever the
// budget: it plays its own move, however long it takes.
func TestRunStrategyNoTimeLimit(t *testing.T) {
	g := playPDD(t, pdd.Chess(pddSq(2, 0), pddSq(2, 2)))
	moves := g.Position().AppendLegalMoves(nil)
	last := moves[1] // not the fallback, moves[0]
	want, _ := g.Position().Play(last)
	for _, noLimit := range []bool{false, true} {
		player := pdd.PlayerFunc(func(ctx context.Context, _ pdd.Position) (pdd.Move, error) {
			if _, ok := ctx.Deadline(); ok {
				return pdd.NoMove, errors.New("a deadline")
			}
			return last, nil
		})
		chess, bridge, stepLog := pddTurnDir(t, g, false)
		code, stderr := runPDDStrategy(t, []string{"B", "N", chess, bridge, stepLog}, player, permove.Options{Budget: time.Millisecond, NoTimeLimit: noLimit})
		b, _ := os.ReadFile(chess)
		played := string(b) == record.NewPDDChess(want).String()
		if code != 0 || played != noLimit || strings.Contains(stderr, permove.FallbackMarker) == noLimit {
			t.Errorf("NoTimeLimit %v: exit %d, played its own move %v, stderr %q", noLimit, code, played, stderr)
		}
	}
}

func TestRunStrategyBadFiles(t *testing.T) {
	g := playPDD(t, pdd.Chess(pddSq(2, 0), pddSq(2, 2)))
	chess, bridge, stepLog := pddTurnDir(t, g, false)
	args := []string{"B", "N", chess, bridge, stepLog}

	os.WriteFile(chess, []byte(strings.Replace(record.NewPDDChess(g.Position()).String(), "0,0,1", "0,0,7", 1)), 0o644)
	code, stderr := runPDDStrategy(t, args, pddFirstMove, permove.Options{})
	if want := "mybot: record: " + chess + ": line 1, column 5: field 3: want 0, 1 or 2, got \"7\"\n"; code != 1 || stderr != want {
		t.Errorf("exit %d, stderr %q; want %q", code, stderr, want)
	}

	// An impossible board: 5 white tiles in a row.
	var c record.PDDChess
	for x := range 5 {
		c.Cells[pddSq(x, 4)] = pdd.White
	}
	os.WriteFile(chess, []byte(c.String()), 0o644)
	code, stderr = runPDDStrategy(t, args, pddFirstMove, permove.Options{})
	if code != 1 || !strings.Contains(stderr, chess+": line 5, column 9: field 5: impossible board at 4,4") {
		t.Errorf("impossible: exit %d, stderr %q", code, stderr)
	}

	os.Remove(bridge)
	code, stderr = runPDDStrategy(t, args, pddFirstMove, permove.Options{})
	if code != 1 || !strings.Contains(stderr, "no such file") {
		t.Errorf("missing: exit %d, stderr %q", code, stderr)
	}
	code, stderr = runPDDStrategy(t, args, nil, permove.Options{})
	if code != 1 || !strings.Contains(stderr, "nil pdd.Player") {
		t.Errorf("nil player: exit %d, stderr %q", code, stderr)
	}
}

func TestRunStrategyWarnings(t *testing.T) {
	g := playPDD(t, pdd.Chess(pddSq(2, 0), pddSq(2, 2)), pdd.Chess(pddSq(5, 5), pddSq(7, 7)))
	// Y given to W.
	chess, bridge, stepLog := pddTurnDir(t, g, false)
	code, stderr := runPDDStrategy(t, []string{"W", "Y", chess, bridge, stepLog}, pddFirstMove, permove.Options{})
	if code != 0 || stderr != "mybot: warning: permove: argument 2 (change flag): Y given to W; ignored\n" {
		t.Errorf("Y to W: exit %d, stderr %q", code, stderr)
	}
	// Y to B when the board does not allow Change.
	g2 := playPDD(t, pdd.Chess(pddSq(2, 0), pddSq(2, 2)), pdd.Chess(pddSq(5, 5), pddSq(7, 7)), pdd.Chess(pddSq(0, 9), pddSq(9, 9)))
	chess, bridge, stepLog = pddTurnDir(t, g2, false)
	var canChange bool
	code, stderr = runPDDStrategy(t, []string{"B", "Y", chess, bridge, stepLog}, pdd.PlayerFunc(func(ctx context.Context, p pdd.Position) (pdd.Move, error) {
		canChange = p.ChangeAvailable()
		return pddFirstMove(ctx, p)
	}), permove.Options{})
	if code != 0 || canChange || !strings.Contains(stderr, "taken as N") {
		t.Errorf("Y to B: exit %d, stderr %q", code, stderr)
	}
	// A stepLog that does not match the files: the files win.
	chess, bridge, stepLog = pddTurnDir(t, g, false)
	os.WriteFile(stepLog, []byte("W_1_Chess_2,0_2,2\n"), 0o644)
	code, stderr = runPDDStrategy(t, []string{"W", "N", chess, bridge, stepLog}, pddFirstMove, permove.Options{})
	if code != 0 || !strings.Contains(stderr, "warning: record: "+chess+": line 6, column 11: field 6: stepLog.txt replays to 0 at 5,5, the file has 2 (playing from chess.txt and bridge.txt)") {
		t.Errorf("mismatch: exit %d, stderr %q", code, stderr)
	}

	// No legal move: a warning, and the files stay as they are.
	r := rand.New(rand.NewPCG(3, 4))
	over := pdd.NewGame(pdd.Course)
	for !over.IsOver() {
		ms := over.Position().AppendLegalMoves(nil)
		over.Play(ms[r.IntN(len(ms))])
	}
	chess, bridge, stepLog = pddTurnDir(t, over, false)
	before, _ := os.ReadFile(chess)
	code, stderr = runPDDStrategy(t, []string{"B", "N", chess, bridge, stepLog}, pddFirstMove, permove.Options{})
	if b, _ := os.ReadFile(chess); code != 0 || !strings.Contains(stderr, "has no legal move") || string(b) != string(before) {
		t.Errorf("no move: exit %d, stderr %q", code, stderr)
	}
}

// TestRunStrategyStatus: the player's context carries a timer.Status: the
// budget as a per-move cap (told when the options set it, the default not
// told; none with NoTimeLimit), the deadline on the context, the program's
// side in the order of play and the plies its colour played.
func TestRunStrategyStatus(t *testing.T) {
	g := playPDD(t, pdd.Chess(pddSq(2, 0), pddSq(2, 2)), pdd.Chess(pddSq(3, 3), pddSq(4, 4)))
	cases := []struct {
		name  string
		color string
		opts  permove.Options
		want  timer.Status // Start and Deadline aside
	}{
		{"default", "W", permove.Options{}, timer.Status{Control: timer.PerMove(permove.DefaultBudget), Played: 1}},
		{"budget", "B", permove.Options{Budget: 2 * time.Second}, timer.Status{
			Control: timer.PerMove(2 * time.Second), ControlTold: true, Side: timer.Second, Played: 1,
			Own: timer.Remaining{Told: true}, Opponent: timer.Remaining{Told: true}}},
		{"no limit", "W", permove.Options{NoTimeLimit: true}, timer.Status{
			ControlTold: true, Played: 1, Own: timer.Remaining{Told: true}, Opponent: timer.Remaining{Told: true}}},
	}
	for _, c := range cases {
		var got timer.Status
		var ok, deadlineOK bool
		player := pdd.PlayerFunc(func(ctx context.Context, p pdd.Position) (pdd.Move, error) {
			got, ok = timer.StatusFrom(ctx)
			d, has := ctx.Deadline()
			deadlineOK = has == !c.opts.NoTimeLimit && d.Equal(got.Deadline)
			return p.AppendLegalMoves(nil)[0], nil
		})
		chess, bridge, stepLog := pddTurnDir(t, g, false)
		before := time.Now()
		code, stderr := runPDDStrategy(t, []string{c.color, "N", chess, bridge, stepLog}, player, c.opts)
		if code != 0 || !ok {
			t.Fatalf("%s: exit %d, Status on the context %v, stderr %q", c.name, code, ok, stderr)
		}
		if !deadlineOK {
			t.Errorf("%s: the Status's deadline %v is not the context's", c.name, got.Deadline)
		}
		if got.Start.Before(before) || time.Since(got.Start) < 0 {
			t.Errorf("%s: Start %v is not the run's start", c.name, got.Start)
		}
		got.Start, got.Deadline = time.Time{}, time.Time{}
		if got != c.want {
			t.Errorf("%s: Status\n%+v\nwant\n%+v", c.name, got, c.want)
		}
	}
}

// TestRunStrategyStart: the budget counts from Options.Start when it is
// earlier than the run (the program's start), and the Status says so; a
// later Start is ignored.
func TestRunStrategyStart(t *testing.T) {
	g := playPDD(t, pdd.Chess(pddSq(2, 0), pddSq(2, 2)))
	for _, ago := range []time.Duration{time.Second, -time.Hour} {
		start := time.Now().Add(-ago)
		var got timer.Status
		var deadline time.Time
		player := pdd.PlayerFunc(func(ctx context.Context, p pdd.Position) (pdd.Move, error) {
			got, _ = timer.StatusFrom(ctx)
			deadline, _ = ctx.Deadline()
			return p.AppendLegalMoves(nil)[0], nil
		})
		chess, bridge, stepLog := pddTurnDir(t, g, false)
		budget := 10 * time.Second
		before := time.Now()
		if code, stderr := runPDDStrategy(t, []string{"B", "N", chess, bridge, stepLog}, player, permove.Options{Budget: budget, Start: start}); code != 0 {
			t.Fatalf("Start %v ago: exit %d, stderr %q", ago, code, stderr)
		}
		want := start
		if ago < 0 {
			want = got.Start // the run's start
			if want.Before(before) {
				t.Errorf("a later Start: the Status's start %v is before the run", want)
			}
		}
		if !got.Start.Equal(want) || !deadline.Equal(want.Add(budget)) || !got.Deadline.Equal(deadline) {
			t.Errorf("Start %v ago: Status start %v, deadline %v, ctx deadline %v; want %v and %v", ago, got.Start, got.Deadline, deadline, want, want.Add(budget))
		}
	}
}

// TestProgramStart: where the system tells it, the program started before
// now and not before the test binary was built and run.
func TestProgramStart(t *testing.T) {
	s := permove.ProgramStart()
	if s.IsZero() {
		if runtime.GOOS == "linux" {
			t.Fatal("ProgramStart: not known on Linux")
		}
		t.Skip("the program's start is not known on", runtime.GOOS)
	}
	if age := time.Since(s); age <= 0 || age > time.Hour {
		t.Errorf("ProgramStart: %v ago; want a time before now, within the hour", age)
	}
}

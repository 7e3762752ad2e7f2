package readmode

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/botarena/botarena/darkchess"
	"github.com/botarena/botarena/record"
	"github.com/botarena/botarena/timer"
)

// The read-mode client's safety margin: a tenth of the time left, at most
// this much.
const darkChessReadModeMaxMargin = time.Second

// Run plays one ply of read mode for p in directory dir
// ("" or "." for the working directory, where the platform runs the
// program): it is the whole of a read-mode program's main, with the defaults
// of [Client].
//
//	func main() {
//		if err := Run(context.Background(), ".", bot); err != nil {
//			log.Fatal(err)
//		}
//	}
func Run(ctx context.Context, dir string, p darkchess.Player) error {
	c := Client{Dir: dir}
	return c.Run(ctx, p)
}

// Client is the engine side of read mode:
// a program that the platform runs once per ply, which reads board.txt in
// its directory, chooses a ply and leaves it in move.txt.
//
// The player's context has a deadline: the time it may still use, less a
// safety margin (a tenth, at most 1 s). Unless Budget is set, the time it
// may use is the "* time" setting ([record.DarkChessBoard.TimeSetting])
// less the time its own plies took by board.txt's timestamps (one per ply,
// or one more for the game's start, as this package's host writes them),
// counted from the end of the last ply: the platform's default control is a
// total per game (回合制). When that leaves nothing, the setting is taken to
// be a limit per ply (單手制) and the whole of it is given. A board without
// a time setting gives no deadline. The [timer.Status] on the context
// carries the time setting as a control for the game, told (without one,
// the ICGA 900 s, not told), that time left as the player's own clock,
// its side and plies played by the plies in board.txt.
//
// The zero value reads the working directory with these defaults.
type Client struct {
	// Dir is the directory of board.txt and move.txt; "" means the
	// working directory.
	Dir string
	// Rules are passed to the player in the view ([darkchess.View.Rules]);
	// board.txt does not say them, so the zero value leaves them unknown.
	Rules darkchess.Rules
	// Budget, when positive, is the time the player may use, from when Run
	// starts, instead of what board.txt implies; the margin is still taken
	// off.
	Budget time.Duration
	// Now reads the time; nil means time.Now.
	Now func() time.Time
}

// Run reads board.txt, replays it to the position to move in, calls p.Play
// with the view of the side to move (its History the plies of board.txt),
// and writes the move to move.txt through a temporary file and a rename, so
// that the host never sees half a file. It writes nothing and returns an
// error if board.txt does not read, if the side to move has already lost,
// or if the player fails, panics, or returns a move that is not legal.
func (c *Client) Run(ctx context.Context, p darkchess.Player) error {
	if p == nil {
		return errors.New("readmode: nil darkchess.Player")
	}
	now := time.Now
	if c.Now != nil {
		now = c.Now
	}
	f, err := os.Open(filepath.Join(c.Dir, BoardFile))
	if err != nil {
		return fmt.Errorf("readmode: dark chess read mode: %w", err)
	}
	b, err := record.ReadDarkChessBoard(f)
	f.Close()
	if err != nil {
		return fmt.Errorf("readmode: dark chess read mode: board.txt: %w", err)
	}
	v, err := b.View()
	if err != nil {
		return fmt.Errorf("readmode: dark chess read mode: board.txt: %w", err)
	}
	if v.IsOver() {
		return fmt.Errorf("readmode: dark chess read mode: %s to move has lost already: %w", v.Turn(), darkchess.ErrGameOver)
	}
	v.Rules = c.Rules

	start := now()
	left, from, limited := c.Budget, start, c.Budget > 0
	if !limited {
		left, from, limited = darkChessReadModeLeft(b, start)
	}
	st := darkChessReadModeStatus(b, from)
	if limited {
		if c := v.Turn(); c.Valid() {
			v.TimeLeft[c] = left
		}
		deadline := from.Add(left - min(left/10, darkChessReadModeMaxMargin))
		st.Own, st.Deadline = timer.Remaining{Told: true, Main: max(left, 0)}, deadline
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, deadline)
		defer cancel()
	}
	ctx = timer.WithStatus(ctx, st)

	m, err := darkChessPlaySafely(ctx, p, v)
	if err != nil {
		return fmt.Errorf("readmode: dark chess read mode: the player: %w", err)
	}
	if !v.IsLegal(m) {
		return fmt.Errorf("readmode: dark chess read mode: the player's move %v is not legal in %s: %w", m, v, darkchess.ErrIllegalMove)
	}
	return darkChessWriteMove(c.Dir, m)
}

// darkChessPlaySafely calls p.Play, turning a panic into an error.
func darkChessPlaySafely(ctx context.Context, p darkchess.Player, v darkchess.View) (m darkchess.Move, err error) {
	defer func() {
		if x := recover(); x != nil {
			m, err = darkchess.NoMove, fmt.Errorf("panic: %v", x)
		}
	}()
	return p.Play(ctx, v)
}

// darkChessReadModeStatus is the [timer.Status] of a read-mode turn on b
// starting at from, before the clocks: the control is the time setting
// board.txt tells, or with none the ICGA 900 s for the game, not told;
// side and plies played follow from the plies in b. The caller sets Own
// and Deadline when the turn is limited.
func darkChessReadModeStatus(b *record.DarkChessBoard, from time.Time) timer.Status {
	st := timer.Untold(timer.ICGADarkChess(), from)
	if total := b.TimeSetting(); total > 0 {
		st.Control, st.ControlTold = timer.Control{Main: total}, true
	}
	n := len(b.Plies)
	st.Side, st.Played = timer.Side(n%2), n/2
	return st
}

// darkChessReadModeLeft returns the time the side to move may still use by
// b's time setting and timestamps, and the instant it counts from; limited
// is false when b sets no time.
func darkChessReadModeLeft(b *record.DarkChessBoard, now time.Time) (left time.Duration, from time.Time, limited bool) {
	total := b.TimeSetting()
	if total <= 0 {
		return 0, now, false
	}
	n := len(b.Plies)
	// ends[j] is when ply j (1-based) ended, ends[0] when the game began (0
	// if unknown); ply j took ends[j] - ends[j-1]. The side to move plays
	// plies n+1, n-1, ...: ply i+1 for i = n%2, n%2+2, ...
	var ends []int64
	switch len(b.Times) {
	case n + 1:
		ends = b.Times
	case n:
		ends = append([]int64{0}, b.Times...) // the first ply's start is unknown
	default:
		return total, now, true
	}
	var used time.Duration
	for i := n % 2; i < n && used <= total; i += 2 {
		if d := ends[i+1] - ends[i]; ends[i] != 0 && d > 0 {
			used += time.Duration(min(d, total.Milliseconds()+1)) * time.Millisecond
		}
	}
	from = now
	// The end of the last ply, if it is a stamp of this turn and not of a
	// clock far off.
	if last := time.UnixMilli(ends[len(ends)-1]); !last.After(now) && now.Sub(last) < total {
		from = last
	}
	left = total - used
	if left <= 0 {
		left = total
	}
	return left, from, true
}

// darkChessWriteMove writes move.txt in dir through a temporary file and a
// rename.
func darkChessWriteMove(dir string, m darkchess.Move) error {
	data, err := record.AppendDarkChessMove(nil, m)
	if err != nil {
		return fmt.Errorf("readmode: dark chess read mode: %w", err)
	}
	if dir == "" {
		dir = "."
	}
	f, err := os.CreateTemp(dir, ".move.txt.*")
	if err != nil {
		return fmt.Errorf("readmode: dark chess read mode: %w", err)
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), filepath.Join(dir, MoveFile))
	}
	if err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("readmode: dark chess read mode: writing move.txt: %w", err)
	}
	return nil
}

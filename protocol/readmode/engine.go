package readmode

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"strings"
	"time"

	"github.com/botarena/botarena/darkchess"
	"github.com/botarena/botarena/internal/fsguard"
	"github.com/botarena/botarena/internal/proc"
	"github.com/botarena/botarena/protocol"
	"github.com/botarena/botarena/record"
)

// The files of read mode, in the engine's directory.
const (
	BoardFile = "board.txt" // what the host writes before each ply
	MoveFile  = "move.txt"  // what the engine leaves
)

// Program is a program that plays dark chess in read mode, as
// the 2013-2019 platform ran it: once per ply, in its directory,
// with no arguments. Before each of the engine's plies the host writes
// board.txt there (the [record.DarkChessReadMode] profile), removes move.txt,
// runs the program in its own process group and waits for it to exit, then
// reads move.txt. [Program.Seat] gives a seat for one game
// under a [protocol.DarkChessReferee]:
//
//	ref := protocol.DarkChessReferee{Control: timer.Control{Main: 900 * time.Second}}
//	a := Program{Path: "./search", Dir: "engines/a"}
//	b := Program{Path: "./search", Dir: "engines/b"}
//	rec, err := ref.Play(ctx, darkchess.NewGame(darkchess.Classic, rng), [2]protocol.DarkChessSeat{a.Seat(), b.Seat()})
//
// The seat's faults, with the platform's reasons: a program still running
// when its time is up is killed, with its whole process group, and loses by
// TimeOut (the 2017 platform's RoundTimeout); a program that leaves no
// move.txt (it crashed, could not be started, or wrote nothing), a move.txt
// that is not a regular file or does not read ([record.ReadDarkChessMove]),
// and an illegal ply lose by BadMove (MoveError), of kind
// protocol.DarkChessNotStarted, protocol.DarkChessCrashed (no good move.txt and a failed
// exit) or protocol.DarkChessIllegal. As on the platform, the
// exit status is only logged: a program that crashes after writing a good
// move.txt has moved. Every run is reaped before its ply is judged, with
// every process it started, and the program's output is kept for Output
// (at most 256 KiB per game, its start and its end).
//
// board.txt holds the game from the position the seat began in: the start of
// the game, or, for a game the referee took over mid-way, the position then
// as a mid-game start (board.txt has no place for the plies before it, nor
// for the no-capture-no-flip counter). Its timestamps are, in milliseconds
// since 1970, the time the seat began and the time each ply was played.
//
// The host opens Dir once, when the seat begins, and writes board.txt and
// reads move.txt only through that open directory (an [os.Root]): a link
// the program leaves there cannot lead the host out of it, and a program
// that moves its directory away or puts a symlink (or another directory)
// in its place does not take the host's reads and writes along. Before
// and after each run the host checks that Dir still leads to the
// directory it opened; when it does not, the seat loses by BadMove (kind
// protocol.DarkChessIllegal), the error saying what is at Dir now.
type Program struct {
	// Path is the program: "search" in the platform's folder. A name
	// without a path separator is looked up in PATH; give "./search" for the
	// one in Dir.
	Path string
	// Args are given to the program; the platform gives none.
	Args []string
	// Dir is the program's working directory, where board.txt and move.txt
	// are; "" means the host's.
	Dir string
	// Players are the names on board.txt's players line, the first
	// player's first: "* Player1(<first>) vs Player2(<second>)".
	Players [2]string
	// Output, when not nil, receives what the program printed on its
	// standard output and standard error, run after run: at most 256 KiB
	// per game (internal/proc.LogLimit), the first half as it comes, the
	// last half when the seat ends, with a "[truncated N bytes]" line
	// between.
	Output io.Writer
	// Logger receives the seat's events; nil discards them.
	Logger *slog.Logger
}

// Seat returns a seat that runs the program for one game.
func (e *Program) Seat() protocol.DarkChessSeat {
	s := &dcReadModeSeat{e: *e, log: e.Logger}
	s.e.Args = append([]string(nil), e.Args...)
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	s.log = s.log.With("engine", e.Path)
	if e.Output != nil {
		s.out = proc.NewBoundedWriter(e.Output, proc.LogLimit)
	}
	return s
}

// dcReadModeSeat is the host's end of one read-mode engine for one game.
type dcReadModeSeat struct {
	e     Program
	log   *slog.Logger
	out   *proc.BoundedWriter   // Output, bounded; nil without Output
	board record.DarkChessBoard // the game so far, as board.txt says it
	skip  int                   // plies of the game before Begin, not in board.txt
	began bool
	dir   string      // Dir, or "." for the host's
	root  *os.Root    // Dir, opened at Begin
	info  fs.FileInfo // Dir as opened, to recognise it
}

// Begin prepares board.txt's header: the position now as its start, the
// names, the date and the time setting. It starts nothing.
func (s *dcReadModeSeat) Begin(_ context.Context, b protocol.DarkChessBegin) error {
	if s.e.Path == "" {
		return &protocol.DarkChessFault{Reason: darkchess.BadMove, Kind: protocol.DarkChessNotStarted, Err: errors.New("readmode: Program.Path is empty")}
	}
	if err := s.openDir(); err != nil {
		return err
	}
	now := time.Now()
	setup := b.View.Position().Setup()
	setup.Quiet = 0
	start, err := darkchess.NewPosition(setup)
	if err != nil {
		return fmt.Errorf("readmode: dark chess read mode: the start: %w", err)
	}
	s.skip = len(b.View.History)
	names := s.e.Players
	if s.skip%2 == 1 {
		// The player to move now, the second player of the game, is the
		// first of board.txt.
		names[0], names[1] = names[1], names[0]
	}
	s.board = record.DarkChessBoard{
		Date:   record.DarkChessDate(now, record.DarkChessReadMode),
		First:  names[0],
		Second: names[1],
		Start:  start,
		Time:   dcTimeSetting(b.Control.Main, b.Control.MoveCap),
		Times:  []int64{now.UnixMilli()},
	}
	// The side to move first, or NoColor before the first flip, which
	// gives it.
	s.board.FirstColor = start.Turn()
	if _, err := record.AppendDarkChessBoard(nil, &s.board, record.DarkChessReadMode); err != nil {
		return fmt.Errorf("readmode: dark chess read mode: board.txt cannot be written: %w", err)
	}
	s.began = true
	return nil
}

// dcTimeSetting returns board.txt's "* time": the main time, or else the
// per-ply cap, in seconds rounded up.
func dcTimeSetting(main, cap time.Duration) int {
	d := main
	if d <= 0 {
		d = cap
	}
	if d <= 0 {
		return 0
	}
	return int(min((d+time.Second-1)/time.Second, 1<<31-1))
}

// Tell stamps the ply's time.
func (s *dcReadModeSeat) Tell(context.Context, protocol.DarkChessTell) error {
	if s.began {
		s.board.Times = append(s.board.Times, time.Now().UnixMilli())
	}
	return nil
}

// Ask writes board.txt, removes move.txt, runs the program until it exits
// or ctx ends, and reads move.txt.
func (s *dcReadModeSeat) Ask(ctx context.Context, v darkchess.View) (darkchess.Move, error) {
	if !s.began {
		return darkchess.NoMove, errors.New("readmode: dark chess read mode: Ask before Begin")
	}
	if len(v.History) < s.skip {
		return darkchess.NoMove, fmt.Errorf("readmode: dark chess read mode: the view has %d plies, fewer than the %d at the start", len(v.History), s.skip)
	}
	b := s.board
	b.Plies = v.History[s.skip:]
	for _, ply := range b.Plies {
		if b.FirstColor != darkchess.NoColor {
			break
		}
		if ply.Move.IsFlip() {
			b.FirstColor = ply.Piece.Color()
		}
	}
	// One timestamp for the start and one per ply, whatever Tell saw.
	for len(b.Times) < len(b.Plies)+1 {
		b.Times = append(b.Times, b.Times[len(b.Times)-1])
	}
	b.Times = b.Times[:len(b.Plies)+1]
	data, err := record.AppendDarkChessBoard(nil, &b, record.DarkChessReadMode)
	if err != nil {
		return darkchess.NoMove, fmt.Errorf("readmode: dark chess read mode: writing board.txt: %w", err)
	}
	if err := s.checkDir("before the program's run"); err != nil {
		return darkchess.NoMove, err
	}
	if err := dcWriteFresh(s.root, BoardFile, data); err != nil {
		return darkchess.NoMove, err
	}
	if err := s.root.Remove(MoveFile); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return darkchess.NoMove, fmt.Errorf("readmode: dark chess read mode: %w", err)
	}

	res, err := proc.Run(ctx, proc.Config{Path: s.e.Path, Args: s.e.Args, Dir: s.e.Dir})
	if err != nil {
		if errors.Is(err, proc.ErrStart) {
			s.log.Warn("dark chess read mode: program not started", "err", err)
			return darkchess.NoMove, &protocol.DarkChessFault{Reason: darkchess.BadMove, Kind: protocol.DarkChessNotStarted, Err: fmt.Errorf("no move.txt: %w", err)}
		}
		return darkchess.NoMove, err
	}
	s.log.Debug("dark chess read mode: program ended", "ply", len(v.History)+1, "status", res.Status, "elapsed", res.Elapsed)
	if s.out != nil {
		s.out.Write(res.Stdout)
		s.out.Write(res.Stderr)
	}
	switch {
	case res.TimedOut:
		s.log.Info("dark chess read mode: out of time, killed", "elapsed", res.Elapsed)
		return darkchess.NoMove, fmt.Errorf("readmode: dark chess read mode: the program was still running after %v: %w", res.Elapsed.Round(time.Millisecond), context.DeadlineExceeded)
	case res.Canceled || res.Killed:
		return darkchess.NoMove, fmt.Errorf("readmode: dark chess read mode: the program was stopped: %w", context.Cause(ctx))
	}
	if err := s.checkDir("after the program's run"); err != nil {
		return darkchess.NoMove, err
	}
	m, err := dcReadMoveFile(s.root)
	if err != nil {
		if res.ExitCode != 0 {
			err = fmt.Errorf("%w (the program ended with %s: %s)", err, res.Status, dcTail(res.Stderr))
		}
		s.log.Info("dark chess read mode: bad move.txt", "err", err)
		kind := protocol.DarkChessIllegal
		if res.ExitCode != 0 {
			kind = protocol.DarkChessCrashed
		}
		return darkchess.NoMove, &protocol.DarkChessFault{Reason: darkchess.BadMove, Kind: kind, Err: err}
	}
	if res.ExitCode != 0 {
		s.log.Warn("dark chess read mode: the program failed after writing move.txt", "status", res.Status)
	}
	return m, nil
}

// openDir opens the program's directory as an os.Root and notes what it
// is, for checkDir.
func (s *dcReadModeSeat) openDir() error {
	s.dir = s.e.Dir
	if s.dir == "" {
		s.dir = "."
	}
	root, err := os.OpenRoot(s.dir)
	if err != nil {
		return &protocol.DarkChessFault{Reason: darkchess.BadMove, Kind: protocol.DarkChessNotStarted, Err: fmt.Errorf("readmode: the program's directory: %w", err)}
	}
	info, err := root.Stat(".")
	if err != nil {
		root.Close()
		return fmt.Errorf("readmode: the program's directory: %w", err)
	}
	s.root, s.info = root, info
	return nil
}

// checkDir returns the seat's fault if Dir no longer leads to the
// directory opened at Begin (the program moved it, or put a symlink or
// another directory in its place); when says when it was found.
func (s *dcReadModeSeat) checkDir(when string) error {
	fi, err := os.Stat(s.dir)
	if err == nil && os.SameFile(fi, s.info) {
		return nil
	}
	what := fsguard.Replaced(s.dir)
	err = fmt.Errorf("readmode: the program's directory %s was moved or replaced (%s, found there %s); a program may write move.txt only", s.dir, what, when)
	s.log.Warn("dark chess read mode: the program's directory changed", "err", err)
	return &protocol.DarkChessFault{Reason: darkchess.BadMove, Kind: protocol.DarkChessIllegal, Err: err}
}

// dcWriteFresh writes data to a new file name in root, replacing whatever
// was there without following it (the engine may have left a link).
func dcWriteFresh(root *os.Root, name string, data []byte) error {
	if err := root.Remove(name); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("readmode: dark chess read mode: %w", err)
	}
	f, err := root.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return fmt.Errorf("readmode: dark chess read mode: %w", err)
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("readmode: dark chess read mode: writing %s: %w", name, err)
	}
	return nil
}

// dcReadMoveFile reads move.txt in root, which must be a regular file (a
// pipe or a device would block or never end).
func dcReadMoveFile(root *os.Root) (darkchess.Move, error) {
	fi, err := root.Lstat(MoveFile)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return darkchess.NoMove, errors.New("no move.txt")
	case err != nil:
		return darkchess.NoMove, err
	case !fi.Mode().IsRegular():
		return darkchess.NoMove, fmt.Errorf("move.txt is not a regular file (%v)", fi.Mode().Type())
	}
	f, err := root.OpenFile(MoveFile, os.O_RDONLY, 0)
	if err != nil {
		return darkchess.NoMove, err
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return darkchess.NoMove, errors.New("move.txt is not a regular file")
	}
	return record.ReadDarkChessMove(f)
}

// dcTail returns the last line of what a program printed, for a message.
func dcTail(b []byte) string {
	s := strings.TrimSpace(string(b))
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		s = s[i+1:]
	}
	if len(s) > 200 {
		s = s[len(s)-200:]
	}
	return fmt.Sprintf("%q", s)
}

// End writes the kept end of the program's output to Output; every run was
// reaped in its Ask.
func (s *dcReadModeSeat) End(context.Context, darkchess.Result) error {
	if s.root != nil {
		s.root.Close()
		s.root = nil
	}
	if s.out != nil {
		return s.out.Close()
	}
	return nil
}

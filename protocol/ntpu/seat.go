package ntpu

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/botarena/botarena/geister"
	"github.com/botarena/botarena/internal/proc"
	"github.com/botarena/botarena/protocol/gat"
)

// ntpuLine is one line a program sent, or the error that ended reading.
type ntpuLine struct {
	text    string
	tooLong bool
	err     error
	at      time.Time
}

// ntpuWriter is where a seat's messages go: the program's standard input,
// or its connection.
type ntpuWriter interface {
	io.Writer
	SetWriteDeadline(time.Time) error
}

// errNTPUGone is the error of a send to a program that is gone.
var errNTPUGone = errors.New("ntpu: the program is gone")

// ntpuSeat is one player's program and the channel to it.
type ntpuSeat struct {
	side geister.Color
	prog Program
	name string
	log  *slog.Logger
	eol  string

	proc   *proc.Process
	conn   net.Conn       // TCP mode, once connected
	out    ntpuWriter     // nil until there is one
	inproc *ntpuInProcess // an in-process player (Program.Player), nil for a program

	lines      chan ntpuLine
	stop       chan struct{} // closed when nobody reads lines any more
	readerDone chan struct{} // closed when the reader goroutine returns

	gone     bool // no more messages: the program left, or a write failed
	finished bool // its result (and /exit) has been sent
	run      ProgramRun

	// The lines of the program's output that were not commands (skipped)
	// or came when nothing was awaited (dropped), on their way to the log:
	// at most proc.LogLimit bytes of them, the head as they come, the tail
	// at the end.
	noise    *proc.BoundedWriter
	noiseLog *ntpuLogLines
}

func newNTPUSeat(side geister.Color, p Program, crlf bool, log *slog.Logger) *ntpuSeat {
	s := &ntpuSeat{
		side:       side,
		prog:       p,
		name:       ntpuProgramName(p, side),
		eol:        "\n",
		lines:      make(chan ntpuLine),
		stop:       make(chan struct{}),
		readerDone: make(chan struct{}),
	}
	if crlf || p.Mode == TCPMode {
		s.eol = "\r\n"
	}
	s.log = log.With("player", s.name, "side", side.String())
	s.run.Name = s.name
	s.noiseLog = &ntpuLogLines{log: s.log}
	s.noise = proc.NewBoundedWriter(s.noiseLog, proc.LogLimit)
	return s
}

// procConfig is the proc configuration of the program, with extra
// arguments.
func (s *ntpuSeat) procConfig(extra ...string) proc.Config {
	args := append(append([]string(nil), s.prog.Args...), extra...)
	path := s.prog.Path
	dir := ntpuProgramDir(s.prog)
	if strings.ContainsRune(path, '/') || strings.ContainsRune(path, '\\') {
		// exec resolves a relative path against Dir: make it absolute.
		if abs, err := filepath.Abs(path); err == nil {
			path = abs
		}
	}
	return proc.Config{Path: path, Args: args, Dir: dir, Env: s.prog.Env, Capture: proc.LogLimit}
}

// startSTDIO starts a STDIO-mode program and its reader.
func (s *ntpuSeat) startSTDIO(ctx context.Context) error {
	c := s.procConfig()
	c.PipeStdin, c.PipeStdout = true, true
	p, err := proc.Start(ctx, c)
	if err != nil {
		close(s.readerDone)
		return err
	}
	s.proc, s.out = p, p.Stdin()
	s.log.Info("geister ntpu: started", "mode", "stdio", "pid", p.Pid(), "path", c.Path, "args", c.Args, "dir", c.Dir)
	go s.read(p.Stdout())
	return nil
}

// ntpuInProcess is a player run in the host's process (Program.Player):
// STDIO.Serve on two in-memory pipes, in a goroutine of its own.
type ntpuInProcess struct {
	cancel context.CancelFunc
	done   chan error // Serve's error, sent once, before its output closes
	err    error      // that error, once received
	ended  bool       // err was received
}

// startInProcess starts the seat's in-process player: STDIO.Serve with
// the player, reading what the host writes to one pipe and writing its
// answers to the other, which the seat's reader reads. The pipes are the
// kernel's, buffered and with deadlines, as a program's standard input
// and output are.
func (s *ntpuSeat) startInProcess(ctx context.Context) error {
	toR, toW, err := os.Pipe()
	if err != nil {
		close(s.readerDone)
		return err
	}
	fromR, fromW, err := os.Pipe()
	if err != nil {
		toR.Close()
		toW.Close()
		close(s.readerDone)
		return err
	}
	pctx, cancel := context.WithCancel(ctx)
	ip := &ntpuInProcess{cancel: cancel, done: make(chan error, 1)}
	s.inproc, s.out = ip, toW
	stdio := &STDIO{Logger: s.log}
	player := s.prog.Player
	go func() {
		err := stdio.Serve(pctx, toR, fromW, player)
		ip.done <- err
		fromW.Close()
		toR.Close()
	}()
	s.log.Info("geister ntpu: started", "mode", "in-process")
	go func() {
		s.read(fromR)
		fromR.Close()
	}()
	return nil
}

// inProcessErr waits for the in-process player's Serve to return (its
// output has ended, so it has) and returns its error.
func (s *ntpuSeat) inProcessErr() error {
	ip := s.inproc
	if !ip.ended {
		ip.err, ip.ended = <-ip.done, true
	}
	return ip.err
}

// startTCP listens on a free loopback port and starts a TCP-mode program
// with the address; connect then waits for its connection.
func (s *ntpuSeat) startTCP(ctx context.Context) (net.Listener, error) {
	var lc net.ListenConfig
	ln, err := lc.Listen(ctx, "tcp", "127.0.0.1:0")
	if err != nil {
		close(s.readerDone)
		return nil, fmt.Errorf("ntpu: geister ntpu: listening for the %s player: %w", s.side, err)
	}
	addr := ln.Addr().(*net.TCPAddr)
	c := s.procConfig(addr.IP.String(), strconv.Itoa(addr.Port))
	p, err := proc.Start(ctx, c)
	if err != nil {
		ln.Close()
		close(s.readerDone)
		return nil, err
	}
	s.proc = p
	s.log.Info("geister ntpu: started", "mode", "tcp", "pid", p.Pid(), "path", c.Path, "args", c.Args, "dir", c.Dir)
	return ln, nil
}

// connect waits, at most timeout, for the TCP-mode program's connection on
// ln, then closes ln and starts the reader. Without a connection the seat's
// reader reports the failure as its first line.
func (s *ntpuSeat) connect(ctx context.Context, ln net.Listener, timeout time.Duration) {
	type accepted struct {
		conn net.Conn
		err  error
	}
	ch := make(chan accepted, 1)
	go func() {
		c, err := ln.Accept()
		ch <- accepted{c, err}
	}()
	t := time.NewTimer(timeout)
	defer t.Stop()
	var why error
	select {
	case a := <-ch:
		ln.Close()
		if a.err != nil {
			why = a.err
		} else {
			s.conn = a.conn
		}
	case <-s.proc.Exited():
		why = errors.New("the program exited before it connected")
	case <-t.C:
		why = fmt.Errorf("the program did not connect within %v", timeout)
		s.run.TimedOut = true
	case <-ctx.Done():
		why = context.Cause(ctx)
	}
	if why != nil {
		ln.Close()
		if a := <-ch; a.conn != nil { // Accept returns once ln is closed
			a.conn.Close()
		}
		s.gone = true
		s.run.Fault = why.Error()
		s.log.Warn("geister ntpu: no connection", "err", why)
		go s.fail(fmt.Errorf("%w: %w", io.EOF, why))
		return
	}
	if tc, ok := s.conn.(*net.TCPConn); ok {
		tc.SetNoDelay(true)
	}
	s.out = s.conn
	s.log.Info("geister ntpu: connected", "remote", s.conn.RemoteAddr().String())
	go s.read(s.conn)
}

// fail is the reader of a seat that has no channel: it reports err.
func (s *ntpuSeat) fail(err error) {
	defer close(s.readerDone)
	select {
	case s.lines <- ntpuLine{err: err, at: time.Now()}:
	case <-s.stop:
	}
}

// read is the reader goroutine: it hands every line, then the error that
// ended reading, to the game until stop is closed.
func (s *ntpuSeat) read(r io.Reader) {
	defer close(s.readerDone)
	lr := newNTPULineReader(r, gat.MaxLine)
	for {
		text, long, err := lr.next()
		select {
		case s.lines <- ntpuLine{text: text, tooLong: long, err: err, at: time.Now()}:
		case <-s.stop:
			return
		}
		if err != nil {
			return
		}
	}
}

// send writes one message (an gat.AppendEvent line) with the seat's line
// end, within timeout. A failed write makes the seat gone.
func (s *ntpuSeat) send(e gat.Event, timeout time.Duration) error {
	if s.gone || s.out == nil {
		return errNTPUGone
	}
	b := gat.AppendEvent(nil, e)
	b = append(bytes.TrimSuffix(b, []byte("\r\n")), s.eol...)
	return s.write(b, timeout)
}

func (s *ntpuSeat) write(b []byte, timeout time.Duration) error {
	s.log.Debug("geister ntpu: send", "line", strings.TrimRight(string(b), "\r\n"))
	s.out.SetWriteDeadline(time.Now().Add(timeout))
	if _, err := s.out.Write(b); err != nil {
		s.gone = true
		s.log.Warn("geister ntpu: write failed; the program is gone", "err", err)
		return err
	}
	return nil
}

// finish ends the seat after the game: "/exit" (STDIO) or a half-close
// (TCP) if the program is still there, at most grace for it to exit (the
// lines it still sends are dropped), then a kill of its process group,
// the reaping, and the end of the reader. now asks for the kill at once.
func (s *ntpuSeat) finish(grace time.Duration, now bool) {
	timeout := geisterNTPUWriteTimeout
	if now {
		timeout = 100 * time.Millisecond
	}
	if !s.gone && s.out != nil {
		if s.conn != nil {
			if tc, ok := s.conn.(*net.TCPConn); ok {
				tc.CloseWrite()
			}
		} else if s.write([]byte("/exit"+s.eol), timeout) == nil {
			if c, ok := s.out.(io.Closer); ok {
				c.Close()
			}
		}
	}
	if ip := s.inproc; ip != nil {
		if now {
			ip.cancel()
		}
		s.awaitInProcess(grace)
		if c, ok := s.out.(io.Closer); ok {
			c.Close() // its input, if "/exit" did not close it
		}
		if ip.err != nil && !errors.Is(ip.err, ErrResign) {
			s.log.Info("geister ntpu: in-process player ended", "err", ip.err)
		}
	}
	if s.proc != nil {
		if now {
			s.proc.Kill()
		} else {
			s.await(grace)
		}
		res := s.proc.Wait()
		s.run.Status, s.run.ExitCode, s.run.Killed = res.Status, res.ExitCode, res.Killed || res.TimedOut || res.Canceled
		s.run.Stderr, s.run.StderrDropped = res.Stderr, res.StderrDropped
		s.log.Info("geister ntpu: program ended", "status", res.Status, "killed", s.run.Killed, "elapsed", res.Elapsed, "stderr_bytes", int64(len(res.Stderr))+res.StderrDropped)
		if s.run.Skipped > 0 || s.run.Dropped > 0 {
			s.log.Info("geister ntpu: lines of its output were not commands", "skipped", s.run.Skipped, "dropped", s.run.Dropped, "bytes_not_logged", s.noise.Dropped())
		}
		for line := range strings.Lines(string(res.Stderr)) {
			s.log.Debug("geister ntpu: stderr", "line", strings.TrimRight(line, "\r\n"))
		}
	}
	if s.conn != nil {
		s.conn.Close()
	}
	close(s.stop)
	<-s.readerDone
	s.noise.Close()
	s.noiseLog.flush()
}

// awaitInProcess gives the in-process player grace to return, dropping
// what it still sends, then ends its ctx and waits for it.
func (s *ntpuSeat) awaitInProcess(grace time.Duration) {
	ip := s.inproc
	if ip.ended {
		return
	}
	t := time.NewTimer(grace)
	defer t.Stop()
	lines := s.lines
	for {
		select {
		case err := <-ip.done:
			ip.err, ip.ended = err, true
			ip.cancel()
			return
		case <-t.C:
			s.log.Info("geister ntpu: the in-process player did not return in time; ending it", "grace", grace)
			ip.cancel()
			ip.err, ip.ended = <-ip.done, true
			return
		case l := <-lines:
			switch {
			case l.err != nil:
				lines = nil
			case strings.TrimSpace(l.text) != "" || l.tooLong:
				s.dropped(l, "after the result")
			}
		}
	}
}

// await gives the program grace to exit, dropping what it still sends, and
// kills its process group if it does not.
func (s *ntpuSeat) await(grace time.Duration) {
	t := time.NewTimer(grace)
	defer t.Stop()
	lines := s.lines
	for {
		select {
		case <-s.proc.Exited():
			return
		case <-t.C:
			s.log.Info("geister ntpu: the program did not exit in time; killing it", "grace", grace)
			s.proc.Kill()
			return
		case l := <-lines:
			switch {
			case l.err != nil:
				lines = nil
			case strings.TrimSpace(l.text) != "" || l.tooLong:
				s.dropped(l, "after the result")
			}
		}
	}
}

// dropped logs a line read while nothing was awaited from the program.
func (s *ntpuSeat) dropped(l ntpuLine, when string) {
	s.run.Dropped++
	s.logNoise("dropped "+when, l)
}

// skipped logs a line that is not a command, read while a command was
// awaited from a STDIO-mode program (ntpuIsCommand).
func (s *ntpuSeat) skipped(l ntpuLine) {
	s.run.Skipped++
	s.logNoise("skipped, not a command", l)
}

// logNoise writes "<why>: <line>" to the bounded log of the program's
// noise.
func (s *ntpuSeat) logNoise(why string, l ntpuLine) {
	text := l.text
	if l.tooLong {
		text = fmt.Sprintf("(a line over %d bytes)", gat.MaxLine)
	}
	fmt.Fprintf(s.noise, "%s: %s\n", why, text)
}

// ntpuIsCommand reports whether a line a STDIO-mode program printed is a
// command, to be judged, rather than the program talking on its standard
// output, to be skipped: whether it begins, after spaces and
// tabs, with one of the commands a program sends, SET: or MOV:, in either
// case. A line that is a command but a bad one ("MOV:Z,UP", "mov:a,up")
// still gets NG.
func ntpuIsCommand(line string) bool {
	line = strings.TrimLeft(line, " \t")
	if len(line) < 4 {
		return false
	}
	word := line[:4]
	return strings.EqualFold(word, "SET:") || strings.EqualFold(word, "MOV:")
}

// ntpuLogLines is where the bounded noise of a program goes: each line it
// is written becomes an Info record of the seat's log.
type ntpuLogLines struct {
	log     *slog.Logger
	partial []byte // a line not ended yet (at most proc.LogLimit bytes pass)
}

func (w *ntpuLogLines) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			w.partial = append(w.partial, p...)
			break
		}
		w.emit(append(w.partial, p[:i]...))
		w.partial = w.partial[:0]
		p = p[i+1:]
	}
	return n, nil
}

// flush logs a last line without a line end.
func (w *ntpuLogLines) flush() {
	if len(w.partial) > 0 {
		w.emit(w.partial)
		w.partial = nil
	}
}

func (w *ntpuLogLines) emit(line []byte) {
	w.log.Info("geister ntpu: stdout", "line", string(line))
}

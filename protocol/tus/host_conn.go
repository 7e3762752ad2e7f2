package tus

import (
	"bufio"
	"cmp"
	"errors"
	"fmt"
	"io"
	"net"
	"sync"
	"time"

	"github.com/botarena/botarena/internal/lineio"
	"github.com/botarena/botarena/othello"
)

// hostConnState is where a connection is in its life.
type hostConnState uint8

const (
	hostWaiting hostConnState = iota // not yet paired
	hostPlaying                      // in a game: its lines go to the game
	hostEnded                        // its game is over: ERROR 4 to all but CLOSE
	hostGone                         // dropped while waiting, or closed
)

// hostOut is one item of a connection's write queue.
type hostOut struct {
	line    []byte // the bytes to write, LF included
	written func() // called once the line reached the socket, if not nil
	close   bool   // close the connection once everything before is written...
	drain   bool   // ...after reading what the client still sends (its reader runs)
}

// hostConn is one client connection. Its reader goroutine reads lines and
// hands them to the lobby's queue, the game or the post-END handling; its
// writer goroutine writes the queue.
type hostConn struct {
	s    *hostServer
	id   uint64
	conn net.Conn // nil in unit tests that drive a game without sockets

	out  chan hostOut // bounded write queue
	done chan struct{}
	once sync.Once

	mu           sync.Mutex
	state        hostConnState
	nick         string        // "" until a valid NICK
	ready        bool          // it may be paired: it sent NICK, or its grace is over
	graceTimer   *time.Timer   // makes it ready at the end of the grace
	color        othello.Color // once paired
	game         *hostGame     // once paired
	pending      []string      // lines received before pairing (not NICK)
	pendingBytes int           // their bytes, LFs counted
}

// newConn registers nc and returns it with the number of open connections
// before it. It returns nil and -1 once Serve is closing, and nil and the
// number of open connections when there are MaxConns already.
func (s *hostServer) newConn(nc net.Conn) (*hostConn, int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, -1
	}
	open := len(s.conns)
	if open >= s.maxConns {
		return nil, open
	}
	c := &hostConn{s: s, conn: nc, out: make(chan hostOut, hostQueueLines), done: make(chan struct{})}
	s.nextID++
	c.id = s.nextID
	s.conns[c] = struct{}{}
	return c, open
}

// kill closes the connection at once. It is idempotent and never blocks.
func (c *hostConn) kill() {
	c.once.Do(func() {
		c.mu.Lock()
		if c.graceTimer != nil {
			c.graceTimer.Stop()
		}
		c.mu.Unlock()
		close(c.done)
		if c.conn != nil {
			c.conn.Close()
		}
		if c.s != nil {
			c.s.forget(c)
		}
	})
}

// label is the name the console uses for c now: its nickname, else BLACK or
// WHITE once paired, else WAITING.
func (c *hostConn) label() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.labelLocked()
}

func (c *hostConn) labelLocked() string {
	switch {
	case c.nick != "":
		return c.nick
	case c.game == nil:
		return "WAITING"
	case c.color == othello.White:
		return "WHITE"
	}
	return "BLACK"
}

// name is c's nickname in a game: the NICK it sent, else BLACK or WHITE.
func (c *hostConn) name() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.nick != "" {
		return c.nick
	}
	if c.color == othello.White {
		return "WHITE"
	}
	return "BLACK"
}

// send queues e for c and logs it on the console. A client whose queue is
// full is not reading: it is cut off, which its game sees as a disconnect.
// An optional line (a SAY relayed from the other player) is dropped instead
// once the queue is half full, so that a player who floods SAY cannot cut
// off its opponent.
func (c *hostConn) send(e Event, optional bool, written func()) {
	if optional && len(c.out) >= cap(c.out)/2 {
		return
	}
	line := AppendEvent(nil, e)
	select {
	case <-c.done:
		return
	default:
	}
	select {
	case c.out <- hostOut{line: line, written: written}:
		if c.s != nil {
			c.s.console("Send to " + c.label() + ":" + string(line[:len(line)-1]))
		}
	default:
		if c.s != nil {
			c.s.log.Warn("othello host: client not reading; cutting it off", "conn", c.id, "nick", c.label())
		}
		c.kill()
	}
}

// closeAfterWrites closes c once what is queued has been written. With
// drain, c's reader goroutine still runs: the writer then half-closes the
// connection and leaves the reader to read until EOF (or hostDrainTime)
// before closing it, so that lines the client sent meanwhile do not make
// the close a reset that could destroy what we wrote.
func (c *hostConn) closeAfterWrites(drain bool) {
	select {
	case c.out <- hostOut{close: true, drain: drain}:
	default:
		c.kill()
	}
}

// write is the writer goroutine: it writes the queue in batches, each under
// a write deadline, until the connection closes.
func (c *hostConn) write() {
	defer c.kill()
	timeout := c.s.h.writeTimeout
	if timeout == 0 {
		timeout = hostWriteTimeout
	}
	bw := bufio.NewWriter(c.conn)
	var notify []func()
	for {
		var it hostOut
		select {
		case it = <-c.out:
		case <-c.done:
			return
		}
		c.conn.SetWriteDeadline(time.Now().Add(timeout))
		var closing *hostOut
		for {
			if it.close {
				closing = &it
				break
			}
			bw.Write(it.line)
			if it.written != nil {
				notify = append(notify, it.written)
			}
			select {
			case it = <-c.out:
				continue
			default:
			}
			break
		}
		if err := bw.Flush(); err != nil {
			c.s.log.Debug("othello host: write", "conn", c.id, "err", err)
			return
		}
		for _, f := range notify {
			f()
		}
		clear(notify)
		notify = notify[:0]
		if closing == nil {
			continue
		}
		if cw, ok := c.conn.(interface{ CloseWrite() error }); ok && closing.drain && cw.CloseWrite() == nil {
			c.mu.Lock()
			c.state = hostGone
			c.mu.Unlock()
			c.conn.SetReadDeadline(time.Now().Add(hostDrainTime))
			<-c.done // the reader kills c at EOF or at the deadline
		}
		return
	}
}

// errHostFlood is the loss of a client that sent lines faster than
// hostFloodRate for longer than hostFloodBurst allows.
var errHostFlood = errors.New("tus: client flooded the host with lines")

// read is the reader goroutine: it reads lines until the connection fails
// and hands each one to whoever owns the connection now. A client that sends
// lines faster than any player needs is cut off, which loses its game.
func (s *hostServer) read(c *hostConn) {
	lr := lineio.NewReader(c.conn, MaxLine)
	tokens, last := float64(hostFloodBurst), time.Now()
	for {
		line, err := lr.ReadLine()
		if err != nil {
			s.lost(c, err)
			return
		}
		now := time.Now()
		tokens = min(tokens+now.Sub(last).Seconds()*hostFloodRate, hostFloodBurst)
		last = now
		if tokens < 1 {
			s.log.Info("othello host: client flooding; dropping it", "conn", c.id, "nick", c.label())
			c.kill()
			s.lost(c, errHostFlood)
			return
		}
		tokens--
		if line != "" {
			s.console("Recv from " + c.label() + ":" + line)
		}
		if !s.received(c, line) {
			// Nothing c sends counts any more: read it without keeping it
			// (no line is made), until the connection closes, for the
			// drain of closeAfterWrites.
			_, err := io.Copy(io.Discard, c.conn)
			s.lost(c, cmp.Or(err, io.EOF))
			return
		}
	}
}

// received routes one line from c by c's state. It reports false when c
// is gone: what c sends from then on is to be read and dropped.
func (s *hostServer) received(c *hostConn, line string) bool {
	for {
		c.mu.Lock()
		switch c.state {
		case hostWaiting:
			over := s.waitingLine(c, line)
			c.mu.Unlock()
			if over {
				s.overBudget(c)
				return false
			}
			return true
		case hostPlaying:
			g := c.game
			c.mu.Unlock()
			select {
			case g.events <- hostEvent{from: c.color, line: line}:
				return true
			case <-g.done:
				// The game ended meanwhile: the line is now a post-END one.
			}
		case hostEnded:
			c.mu.Unlock()
			s.afterEnd(c, line)
			return true
		default:
			c.mu.Unlock()
			return false
		}
	}
}

// waitingLine handles a line from c before it is paired, with c.mu held.
// NICK takes effect at once and makes c ready to be paired; every other line
// waits for the game, as a malformed NICK does, to get its
// ERROR 1 then. A line that would make more than hostPendingMax waiting
// lines or hostPendingBytes bytes is not kept: c is then gone, and
// waitingLine reports true for the caller to tell it (overBudget) once c.mu
// is released.
func (s *hostServer) waitingLine(c *hostConn, line string) bool {
	if line == "" {
		return false
	}
	if cmd, err := ParseCommand(line); err == nil && cmd.Kind == Nick {
		c.nick = cmd.Text
		if !c.ready {
			c.ready = true
			s.hintChanged()
		}
		return false
	}
	if len(c.pending) == hostPendingMax || c.pendingBytes+len(line)+1 > hostPendingBytes {
		s.log.Info("othello host: too much sent before pairing; closing", "conn", c.id, "nick", c.labelLocked(),
			"lines", len(c.pending)+1, "bytes", c.pendingBytes+len(line)+1, "max_lines", hostPendingMax, "max_bytes", hostPendingBytes)
		c.state = hostGone
		c.pending, c.pendingBytes = nil, 0
		return true
	}
	c.pending = append(c.pending, line)
	c.pendingBytes += len(line) + 1
	return false
}

// overBudget closes c, which sent more than it may before pairing: ERROR 4
// (the host cannot process the line), a SAY from SERVER saying why, then the
// close, after reading what c still sends for a while (closeAfterWrites).
func (s *hostServer) overBudget(c *hostConn) {
	c.send(Event{Kind: Error, Code: 4}, false, nil)
	c.send(Event{Kind: SayRelay, Text: fmt.Sprintf(
		"%s: closing: more than %d lines or %d bytes sent before the game started", hostServerNick, hostPendingMax, hostPendingBytes)}, false, nil)
	c.closeAfterWrites(true)
	s.hintChanged()
}

// afterEnd handles a line from a connection whose game is over: CLOSE closes
// it silently, an empty line is ignored, anything else gets ERROR 4.
func (s *hostServer) afterEnd(c *hostConn, line string) {
	cmd, err := ParseCommand(line)
	switch {
	case errors.Is(err, ErrEmptyLine):
	case err == nil && cmd.Kind == Close:
		c.mu.Lock()
		c.state = hostGone
		c.mu.Unlock()
		c.closeAfterWrites(true)
	default:
		c.send(Event{Kind: Error, Code: 4}, false, nil)
	}
}

// lost handles the end of c's input: EOF, a reset, a line over MaxLine,
// the post-END read deadline, or the connection closed under it.
func (s *hostServer) lost(c *hostConn, err error) {
	if errors.Is(err, lineio.ErrLineTooLong) {
		s.log.Info("othello host: line too long; dropping the client", "conn", c.id, "nick", c.label())
	}
	for {
		c.mu.Lock()
		switch c.state {
		case hostWaiting:
			c.state = hostGone
			c.pending = nil
			c.mu.Unlock()
			s.log.Debug("othello host: waiting client left", "conn", c.id, "err", err)
			c.kill()
			s.hintChanged()
			return
		case hostPlaying:
			g := c.game
			c.mu.Unlock()
			select {
			case g.events <- hostEvent{from: c.color, err: err}:
				return
			case <-g.done:
			}
		case hostEnded:
			c.state = hostGone
			c.mu.Unlock()
			// EOF after END, or the 10 s are up: close once our lines are
			// out (a client that half-closed still gets them).
			if errors.Is(err, lineio.ErrLineTooLong) {
				c.kill()
			} else {
				c.closeAfterWrites(false)
			}
			return
		default:
			c.mu.Unlock()
			c.kill()
			return
		}
	}
}

// hintChanged tells the lobby that a waiting connection dropped or became
// ready to be paired.
func (s *hostServer) hintChanged() {
	select {
	case s.changed <- struct{}{}:
	default:
	}
}

package protocol

import (
	"bufio"
	"errors"
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

	mu      sync.Mutex
	state   hostConnState
	nick    string        // "" until a valid NICK
	color   othello.Color // once paired
	game    *hostGame     // once paired
	pending []string      // lines received before pairing (not NICK)
}

// newConn registers nc; it returns nil once Serve is closing.
func (s *hostServer) newConn(nc net.Conn) *hostConn {
	c := &hostConn{s: s, conn: nc, out: make(chan hostOut, hostQueueLines), done: make(chan struct{})}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil
	}
	s.nextID++
	c.id = s.nextID
	s.conns[c] = struct{}{}
	return c
}

// kill closes the connection at once. It is idempotent and never blocks.
func (c *hostConn) kill() {
	c.once.Do(func() {
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
func (c *hostConn) send(e TUSEvent, optional bool, written func()) {
	if optional && len(c.out) >= cap(c.out)/2 {
		return
	}
	line := AppendTUSEvent(nil, e)
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
var errHostFlood = errors.New("protocol: client flooded the host with lines")

// read is the reader goroutine: it reads lines until the connection fails
// and hands each one to whoever owns the connection now. A client that sends
// lines faster than any player needs is cut off, which loses its game.
func (s *hostServer) read(c *hostConn) {
	lr := lineio.NewReader(c.conn, TUSMaxLine)
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
		s.received(c, line)
	}
}

// received routes one line from c by c's state.
func (s *hostServer) received(c *hostConn, line string) {
	for {
		c.mu.Lock()
		switch c.state {
		case hostWaiting:
			s.waitingLine(c, line)
			c.mu.Unlock()
			return
		case hostPlaying:
			g := c.game
			c.mu.Unlock()
			select {
			case g.events <- hostEvent{from: c.color, line: line}:
				return
			case <-g.done:
				// The game ended meanwhile: the line is now a post-END one.
			}
		case hostEnded:
			c.mu.Unlock()
			s.afterEnd(c, line)
			return
		default:
			c.mu.Unlock()
			return
		}
	}
}

// waitingLine handles a line from c before it is paired, with c.mu held.
// NICK takes effect at once; every other line waits for the game (spec
// §3.8), as a malformed NICK does, to get its ERROR 1 then. More than
// hostPendingMax waiting lines close the connection.
func (s *hostServer) waitingLine(c *hostConn, line string) {
	if line == "" {
		return
	}
	if cmd, err := ParseTUSCommand(line); err == nil && cmd.Kind == TUSNick {
		c.nick = cmd.Text
		return
	}
	if len(c.pending) == hostPendingMax {
		s.log.Info("othello host: too many lines before pairing; closing", "conn", c.id)
		c.state = hostGone
		c.pending = nil
		c.kill()
		s.hintLeft()
		return
	}
	c.pending = append(c.pending, line)
}

// afterEnd handles a line from a connection whose game is over: CLOSE closes
// it silently, an empty line is ignored, anything else gets ERROR 4.
func (s *hostServer) afterEnd(c *hostConn, line string) {
	cmd, err := ParseTUSCommand(line)
	switch {
	case errors.Is(err, ErrEmptyLine):
	case err == nil && cmd.Kind == TUSClose:
		c.mu.Lock()
		c.state = hostGone
		c.mu.Unlock()
		c.closeAfterWrites(true)
	default:
		c.send(TUSEvent{Kind: TUSError, Code: 4}, false, nil)
	}
}

// lost handles the end of c's input: EOF, a reset, a line over TUSMaxLine,
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
			s.hintLeft()
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

// hintLeft tells the lobby that a waiting connection dropped.
func (s *hostServer) hintLeft() {
	select {
	case s.left <- struct{}{}:
	default:
	}
}

package gat

import (
	"errors"
	"io"
	"net"
	"sync"
	"time"

	"github.com/botarena/botarena/geister"
	"github.com/botarena/botarena/internal/lineio"
)

// geisterOut is one item of a connection's write queue.
type geisterOut struct {
	msg     []byte // one message, CRLF included
	written func() // called once msg reached the socket, if not nil
	close   bool   // half-close, drain and close once everything before is written
}

// geisterConn is one player's connection in one game. Its reader goroutine
// hands every line to the game until the game is over, then discards what
// comes; its writer goroutine writes the queue, one message per write.
type geisterConn struct {
	s      *geisterServer
	g      *geisterGame
	seat   geister.Color
	nc     net.Conn
	remote string

	out        chan geisterOut // bounded write queue
	done       chan struct{}   // closed by kill
	readerDone chan struct{}   // closed when the reader goroutine ends
	once       sync.Once
}

// geisterLineEvent is what a reader hands to its game: a line, or the end of
// the connection's input.
type geisterLineEvent struct {
	c    *geisterConn
	line string
	at   time.Time
	err  error // not nil: no more lines (EOF, reset, a line too long, a flood)
}

// errGeisterFlood is the loss of a client that sent lines faster than
// geisterFloodRate for longer than geisterFloodBurst allows.
var errGeisterFlood = errors.New("gat: client flooded the host with lines")

// newConn registers nc as seat's connection in g and starts its goroutines.
// It returns nil once Serve is closing.
func (s *geisterServer) newConn(g *geisterGame, seat geister.Color, nc net.Conn) *geisterConn {
	c := &geisterConn{
		s:          s,
		g:          g,
		seat:       seat,
		nc:         nc,
		remote:     nc.RemoteAddr().String(),
		out:        make(chan geisterOut, geisterQueue),
		done:       make(chan struct{}),
		readerDone: make(chan struct{}),
	}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		nc.Close()
		return nil
	}
	s.conns[c] = struct{}{}
	s.mu.Unlock()
	s.wg.Go(c.read)
	s.wg.Go(c.write)
	return c
}

// kill closes the connection at once. It is idempotent and never blocks.
func (c *geisterConn) kill() {
	c.once.Do(func() {
		close(c.done)
		c.nc.Close()
		c.s.mu.Lock()
		delete(c.s.conns, c)
		c.s.mu.Unlock()
	})
}

// send queues e. A client whose queue is full is not reading: it is cut off,
// which its game sees as a disconnect.
func (c *geisterConn) send(e Event, written func()) {
	msg := AppendEvent(nil, e)
	select {
	case <-c.done:
		return
	default:
	}
	select {
	case c.out <- geisterOut{msg: msg, written: written}:
		c.s.log.Debug("geister host: send", "game", c.g.id, "seat", c.seat.String(), "line", string(msg[:len(msg)-2]))
	default:
		c.s.log.Warn("geister host: client not reading; cutting it off", "game", c.g.id, "seat", c.seat.String())
		c.kill()
	}
}

// closeAfterWrites half-closes c once what is queued has been written, reads
// and discards what the client still sends until it closes or the drain time
// passes, and closes c.
func (c *geisterConn) closeAfterWrites() {
	select {
	case c.out <- geisterOut{close: true}:
	default:
		c.kill()
	}
}

// write is the writer goroutine.
func (c *geisterConn) write() {
	defer c.kill()
	timeout := c.s.h.writeTimeout
	if timeout == 0 {
		timeout = geisterWriteTimeout
	}
	for {
		var it geisterOut
		select {
		case it = <-c.out:
		case <-c.done:
			return
		}
		if it.close {
			drain := c.s.h.drainTime
			if drain == 0 {
				drain = geisterDrainTime
			}
			if cw, ok := c.nc.(interface{ CloseWrite() error }); ok && cw.CloseWrite() == nil {
				c.nc.SetReadDeadline(time.Now().Add(drain))
				select {
				case <-c.readerDone:
				case <-c.done:
				}
			}
			return
		}
		c.nc.SetWriteDeadline(time.Now().Add(timeout))
		if _, err := c.nc.Write(it.msg); err != nil {
			c.s.log.Debug("geister host: write", "game", c.g.id, "seat", c.seat.String(), "err", err)
			return
		}
		if it.written != nil {
			it.written()
		}
	}
}

// read is the reader goroutine. A client that sends lines faster than any
// player needs is cut off.
func (c *geisterConn) read() {
	defer close(c.readerDone)
	lr := lineio.NewReader(c.nc, MaxLine)
	tokens, last := float64(geisterFloodBurst), time.Now()
	for {
		line, err := lr.ReadLine()
		now := time.Now()
		if err == nil {
			tokens = min(tokens+now.Sub(last).Seconds()*geisterFloodRate, geisterFloodBurst)
			last = now
			if tokens < 1 {
				err = errGeisterFlood
			}
			tokens--
		}
		select {
		case c.g.events <- geisterLineEvent{c: c, line: line, at: now, err: err}:
		case <-c.g.done:
			// The game is over: what comes now is read and dropped.
		}
		if err == nil {
			continue
		}
		if errors.Is(err, lineio.ErrLineTooLong) || errors.Is(err, errGeisterFlood) {
			// The framing is lost: drain the rest until the writer's
			// deadline or a close ends it.
			io.Copy(io.Discard, c.nc)
		}
		return
	}
}

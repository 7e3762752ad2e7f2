package session

import (
	"context"
	"io"
	"time"
)

// Run runs a client session over conn: read feeds the session from a
// goroutine of its own, loop plays the game, and when loop returns the session
// winds down: it cancels the player's context, lets a player still thinking
// return (drainPlayer), stops the reader (closing stop, then closing or
// interrupting conn) and waits for it. Cancelling ctx interrupts conn.
func Run[T any](ctx context.Context, conn io.ReadWriter, cancelPlayer context.CancelFunc, stop chan struct{},
	read func(done chan<- struct{}), loop func(context.Context) (T, error), drainPlayer func()) (T, error) {
	stopAfter := context.AfterFunc(ctx, func() { Interrupt(conn) })
	readerDone := make(chan struct{})
	go read(readerDone)

	out, err := loop(ctx)

	cancelPlayer()
	stopAfter()
	drainPlayer()
	close(stop)
	if Close(conn) || Interrupt(conn) {
		<-readerDone
	}
	return out, err
}

// Close closes conn if it can, and reports whether it could.
func Close(conn io.ReadWriter) bool {
	if cl, ok := conn.(io.Closer); ok {
		cl.Close()
		return true
	}
	return false
}

// Interrupt makes conn's blocked and future reads and writes fail: with a
// past deadline when conn has deadlines, else by closing it. It reports
// whether it could do either.
func Interrupt(conn io.ReadWriter) bool {
	if d, ok := conn.(interface{ SetDeadline(time.Time) error }); ok {
		if d.SetDeadline(time.Unix(1, 0)) == nil {
			return true
		}
	}
	return Close(conn)
}

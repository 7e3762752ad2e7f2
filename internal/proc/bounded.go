package proc

import (
	"io"
	"strconv"
	"sync"
)

// LogLimit is the most bytes of one output stream of one program that a host
// keeps, in memory or in a log file: 256 KiB, the first half and the last
// half of what the program wrote. Engines write 80-270 KB in a game and
// faults happen at the end, so the end is kept as well as the start; what
// lies between is replaced by one [TruncatedLine].
const LogLimit = 256 << 10

// TruncatedLine is the line put where n bytes were dropped, without its
// newlines: "[truncated 1234 bytes]".
func TruncatedLine(n int64) string {
	return "[truncated " + strconv.FormatInt(n, 10) + " bytes]"
}

// ring keeps the last len(buf) bytes written to it and counts those that
// fell out.
type ring struct {
	buf     []byte // grows up to size, then wraps
	size    int
	next    int   // the oldest byte once buf is full
	dropped int64 // bytes overwritten
}

func (r *ring) write(p []byte) {
	if r.size == 0 {
		r.dropped += int64(len(p))
		return
	}
	if len(p) >= r.size { // p alone fills the ring
		r.dropped += int64(len(r.buf)) + int64(len(p)-r.size)
		r.buf = append(r.buf[:0], p[len(p)-r.size:]...)
		r.next = 0
		return
	}
	if room := r.size - len(r.buf); room > 0 {
		k := min(room, len(p))
		r.buf = append(r.buf, p[:k]...)
		p = p[k:]
	}
	for len(p) > 0 {
		k := copy(r.buf[r.next:], p)
		r.dropped += int64(k)
		p = p[k:]
		r.next = (r.next + k) % r.size
	}
}

// appendTo appends the truncation line, if bytes were dropped, and the
// kept bytes, oldest first.
func (r *ring) appendTo(out []byte) []byte {
	if r.dropped > 0 {
		out = append(out, '\n')
		out = append(out, TruncatedLine(r.dropped)...)
		out = append(out, '\n')
	}
	out = append(out, r.buf[r.next:]...)
	return append(out, r.buf[:r.next]...)
}

// A Bounded keeps the head and the tail of everything written to it, at most
// limit bytes in all, and counts the bytes dropped between them. Writes never
// fail and never block, so a program that floods its output costs the host
// at most limit bytes. It is safe for use by several goroutines.
type Bounded struct {
	mu   sync.Mutex
	head []byte // the first bytes, up to tail.size
	tail ring   // the last bytes, once the head is full
}

// NewBounded returns a Bounded keeping at most limit bytes, half from the
// start and half from the end; limit <= 0 keeps nothing and only counts.
func NewBounded(limit int) *Bounded {
	return &Bounded{tail: ring{size: max(limit, 0) / 2}}
}

// Write keeps what fits and counts the rest; it always returns len(p), nil.
func (b *Bounded) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	n := len(p)
	if room := b.tail.size - len(b.head); room > 0 {
		k := min(room, len(p))
		b.head = append(b.head, p[:k]...)
		p = p[k:]
	}
	if len(p) > 0 {
		b.tail.write(p)
	}
	return n, nil
}

// Len reports how many bytes were written in all.
func (b *Bounded) Len() int64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return int64(len(b.head)) + int64(len(b.tail.buf)) + b.tail.dropped
}

// Dropped reports how many bytes were written and not kept.
func (b *Bounded) Dropped() int64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.tail.dropped
}

// Bytes returns what was kept: the head, then, if bytes were dropped, a
// [TruncatedLine] on a line of its own, then the tail. Without drops it is
// exactly what was written.
func (b *Bounded) Bytes() []byte {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := make([]byte, 0, len(b.head)+len(b.tail.buf)+32)
	return b.tail.appendTo(append(out, b.head...))
}

// A BoundedWriter passes at most limit bytes of what is written to it on to
// an underlying writer: the first half as it comes, the last half when it is
// closed, after a [TruncatedLine] if bytes were dropped between. It is how a
// host writes a program's output to a log that a flooding program must not
// make huge. It is safe for use by several goroutines.
type BoundedWriter struct {
	mu     sync.Mutex
	w      io.Writer
	passed int   // bytes passed on as they came, up to tail.size
	tail   ring  // the bytes after those, kept for Close
	err    error // the underlying writer's first error; nothing more is written after it
	closed bool
}

// NewBoundedWriter returns a BoundedWriter on w keeping at most limit bytes,
// half from the start and half from the end.
func NewBoundedWriter(w io.Writer, limit int) *BoundedWriter {
	return &BoundedWriter{w: w, tail: ring{size: max(limit, 0) / 2}}
}

// Write passes p on while the head has room and keeps the rest for Close.
// It returns the underlying writer's error, if any, and never a short count
// for bytes it drops.
func (b *BoundedWriter) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	n := len(p)
	if b.closed {
		return n, nil
	}
	if room := b.tail.size - b.passed; room > 0 {
		k := min(room, len(p))
		if b.err == nil {
			_, b.err = b.w.Write(p[:k])
		}
		b.passed += k
		p = p[k:]
	}
	if len(p) > 0 {
		b.tail.write(p)
	}
	return n, b.err
}

// Dropped reports how many bytes were written and will not be passed on.
func (b *BoundedWriter) Dropped() int64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.tail.dropped
}

// Close writes the kept tail to the underlying writer, after a
// [TruncatedLine] when bytes were dropped. It does not close the underlying
// writer. Writes after Close are dropped; Close is idempotent.
func (b *BoundedWriter) Close() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return b.err
	}
	b.closed = true
	if b.err == nil && (len(b.tail.buf) > 0 || b.tail.dropped > 0) {
		_, b.err = b.w.Write(b.tail.appendTo(nil))
	}
	return b.err
}

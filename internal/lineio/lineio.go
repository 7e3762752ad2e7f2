// Package lineio reads line-framed protocols with a bound on line length, so a
// peer that never sends a newline cannot make the reader hold unbounded
// memory.
package lineio

import (
	"bufio"
	"bytes"
	"errors"
	"io"
)

// ErrLineTooLong is returned for a line longer than the reader's limit.
var ErrLineTooLong = errors.New("lineio: line too long")

// Reader reads lines of at most a fixed length.
type Reader struct {
	br  *bufio.Reader
	max int
}

// NewReader returns a Reader of lines of at most max bytes, terminator
// excluded, from r.
func NewReader(r io.Reader, max int) *Reader {
	size := max + 2
	if size < 16 {
		size = 16
	}
	return &Reader{br: bufio.NewReaderSize(r, size), max: max}
}

// ReadLine returns the next line without its LF and without one CR before the
// LF. A final line without LF at end of input (one trailing CR stripped) is
// returned as a line, and the next call returns io.EOF. A line over the limit
// returns [ErrLineTooLong]; the reader is then unusable, since the peer broke
// the framing. Any other read error (a deadline, a reset) is returned as it
// is, and a partial line before it is dropped.
func (r *Reader) ReadLine() (string, error) {
	// The buffer holds max bytes plus CR LF, so a line that does not fit is
	// too long.
	chunk, err := r.br.ReadSlice('\n')
	switch {
	case err == nil:
		line := bytes.TrimSuffix(chunk[:len(chunk)-1], []byte("\r"))
		if len(line) > r.max {
			return "", ErrLineTooLong
		}
		return string(line), nil
	case errors.Is(err, bufio.ErrBufferFull):
		return "", ErrLineTooLong
	case errors.Is(err, io.EOF) && len(chunk) > 0:
		line := bytes.TrimSuffix(chunk, []byte("\r"))
		if len(line) > r.max {
			return "", ErrLineTooLong
		}
		return string(line), nil
	}
	return "", err
}

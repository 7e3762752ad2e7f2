package record

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/botarena/botarena/internal/lineio"
)

// MaxLineLength is the longest line, terminator excluded, that the line-based
// readers accept. A longer line is a [*ParseError] wrapping [ErrLineTooLong].
const MaxLineLength = 4096

// Errors that a [*ParseError] wraps, to test with [errors.Is]. A move the
// rules refuse is reported with the rules engine's own error instead (for
// Othello an [*othello.MoveError], wrapping [othello.ErrIllegalMove] or
// [othello.ErrGameOver]).
var (
	// ErrSyntax is text that does not follow the format.
	ErrSyntax = errors.New("record: syntax error")
	// ErrLineTooLong is a line longer than [MaxLineLength].
	ErrLineTooLong = errors.New("record: line too long")
)

// ParseError reports where a record is malformed, and why. The readers return
// it for every fault in their input; errors from the underlying [io.Reader]
// are returned wrapped as they are.
type ParseError struct {
	File   string // the file's name where the reader knows it (the PDD readers name theirs); empty otherwise, for the caller to fill in
	Line   int    // 1-based line number
	Column int    // 1-based byte offset in the line, or 0 when the whole line is at fault
	Msg    string // what is wrong
	Err    error  // the cause: ErrSyntax, ErrLineTooLong, or the rules engine's error for a refused move
}

// Error returns "record: " and the place, then the message, for example
// `record: line 60: white at 6,0 (g1): square occupied` or
// `record: game.txt: line 2, column 1: x must be a digit 0-7`.
func (e *ParseError) Error() string {
	b := []byte("record: ")
	if e.File != "" {
		b = append(b, e.File...)
		b = append(b, ": "...)
	}
	b = append(b, "line "...)
	b = strconv.AppendInt(b, int64(e.Line), 10)
	if e.Column > 0 {
		b = append(b, ", column "...)
		b = strconv.AppendInt(b, int64(e.Column), 10)
	}
	b = append(b, ": "...)
	b = append(b, e.Msg...)
	return string(b)
}

// Unwrap returns the cause, e.Err.
func (e *ParseError) Unwrap() error { return e.Err }

// lineError turns an error of [lineio.Reader.ReadLine] at line n into the
// error a reader returns: a [*ParseError] wrapping [ErrLineTooLong] for a line
// over [MaxLineLength], else the read error wrapped with the line number.
func lineError(n int, err error) error {
	if errors.Is(err, lineio.ErrLineTooLong) {
		return &ParseError{Line: n, Msg: "line longer than " + strconv.Itoa(MaxLineLength) + " bytes", Err: ErrLineTooLong}
	}
	return fmt.Errorf("record: reading line %d: %w", n, err)
}

// appendNumberedPairs appends the move lines of the NTPU-style board files,
// "* <n>. <move> <move>" and eol, two moves to a line numbered from 1, the
// last line holding one move when the count is odd.
func appendNumberedPairs[M fmt.Stringer](dst []byte, moves []M, eol string) []byte {
	for i := 0; i < len(moves); i += 2 {
		dst = append(dst, "* "...)
		dst = strconv.AppendInt(dst, int64(i/2+1), 10)
		dst = append(dst, ". "...)
		dst = append(dst, moves[i].String()...)
		if i+1 < len(moves) {
			dst = append(dst, ' ')
			dst = append(dst, moves[i+1].String()...)
		}
		dst = append(dst, eol...)
	}
	return dst
}

package record

import (
	"errors"
	"fmt"
	"io"

	"github.com/botarena/botarena/darkchess"
)

// ReadDarkChessMove reads a read-mode engine's move.txt, whose
// exact form is four LF-terminated lines:
//
//	0        1        0 for a move or capture, 1 for a flip
//	b2       b7       the square moved from, or flipped
//	b3       0        the destination; 0 for a flip
//	0        0        always 0
//
// As the platform's client, which reads the file with scanf, it takes
// whitespace-separated words: any line ends (CRLF included) and spacing. It
// needs the first three words; for a flip the third is not looked at, and
// whatever follows the third (the fourth word and anything after it) is
// ignored. Squares may be upper case. A move from a square to itself is
// refused: a flip is written with a 1. The file may hold at most
// [MaxLineLength] bytes. A fault is a [*ParseError] wrapping [ErrSyntax] (or
// [ErrLineTooLong] for a file too long) and naming the line, the column and
// the field. It checks syntax only: whether the move is legal is the
// position's business.
func ReadDarkChessMove(r io.Reader) (darkchess.Move, error) {
	if r == nil {
		return darkchess.NoMove, errors.New("record: nil reader")
	}
	buf, err := io.ReadAll(io.LimitReader(r, MaxLineLength+1))
	if err != nil {
		return darkchess.NoMove, fmt.Errorf("record: reading move.txt: %w", err)
	}
	if len(buf) > MaxLineLength {
		return darkchess.NoMove, &ParseError{Line: 1, Msg: fmt.Sprintf("move.txt: longer than %d bytes", MaxLineLength), Err: ErrLineTooLong}
	}
	return ParseDarkChessMove(buf)
}

// ParseDarkChessMove reads the contents of a move.txt, as
// [ReadDarkChessMove] does, from b (of any length).
func ParseDarkChessMove(b []byte) (darkchess.Move, error) {
	type word struct {
		text      string
		line, col int
	}
	var words [3]word
	n, line, col := 0, 1, 0
	for i := 0; i < len(b) && n < 3; {
		c := b[i]
		switch {
		case c == '\n':
			line, col = line+1, 0
			i++
			continue
		case isASCIISpace(c):
			col++
			i++
			continue
		}
		j := i
		for j < len(b) && !isASCIISpace(b[j]) {
			j++
		}
		words[n] = word{string(b[i:min(j, i+16)]), line, col + 1}
		n++
		col += j - i
		i = j
	}
	names := [3]string{"kind (0 move, 1 flip)", "from square", "destination"}
	if n < 3 {
		return darkchess.NoMove, &ParseError{Line: line, Msg: fmt.Sprintf("move.txt: ends before the %s, want 4 lines such as 0 b2 b3 0 or 1 b7 0 0", names[n]), Err: ErrSyntax}
	}
	fail := func(w word, field, msg string) error {
		return &ParseError{Line: w.line, Column: w.col, Msg: fmt.Sprintf("move.txt: %s %q: %s", field, w.text, msg), Err: ErrSyntax}
	}
	flip := false
	switch words[0].text {
	case "0":
	case "1":
		flip = true
	default:
		return darkchess.NoMove, fail(words[0], names[0], "want 0 for a move or 1 for a flip")
	}
	from, err := darkchess.ParseSquare(words[1].text)
	if err != nil {
		return darkchess.NoMove, fail(words[1], names[1], "not a square a1 to d8")
	}
	if flip {
		return darkchess.Flip(from), nil
	}
	to, err := darkchess.ParseSquare(words[2].text)
	if err != nil {
		return darkchess.NoMove, fail(words[2], names[2], "not a square a1 to d8")
	}
	if to == from {
		return darkchess.NoMove, fail(words[2], names[2], "a move to the square it starts from (a flip is written 1 "+from.String()+" 0 0)")
	}
	return darkchess.NewMove(from, to), nil
}

// AppendDarkChessMove appends m as move.txt holds it to dst: "0\nb2\nb3\n0\n"
// for a move or capture, "1\nb7\n0\n0\n" for a flip. It fails, appending
// nothing, for a value that is not a move.
func AppendDarkChessMove(dst []byte, m darkchess.Move) ([]byte, error) {
	if !m.Valid() {
		return dst, fmt.Errorf("record: %v is not a move", m)
	}
	if m.IsFlip() {
		dst = append(dst, "1\n"...)
		dst = append(dst, m.From().String()...)
		return append(dst, "\n0\n0\n"...), nil
	}
	dst = append(dst, "0\n"...)
	dst = append(dst, m.From().String()...)
	dst = append(dst, '\n')
	dst = append(dst, m.To().String()...)
	return append(dst, "\n0\n"...), nil
}

// WriteDarkChessMove writes m as move.txt holds it ([AppendDarkChessMove]),
// in one Write.
func WriteDarkChessMove(w io.Writer, m darkchess.Move) error {
	b, err := AppendDarkChessMove(make([]byte, 0, 12), m)
	if err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
}

package record

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/botarena/botarena/othello"
)

// ParseOthelloMoveList reads a plain move list such as "f5d6c3d3c4" from s,
// as [ReadOthelloMoveList] does.
func ParseOthelloMoveList(s string) (*othello.Game, error) {
	return ReadOthelloMoveList(strings.NewReader(s))
}

// ReadOthelloMoveList reads a plain move list to the end of r and returns the
// game it records, played from the standard start ([othello.Standard]); to
// get the TUS orientation, map each move through [othello.FlipX].
//
// A move is a square a1..h8 in either letter case; moves are concatenated,
// and ASCII white space (line breaks included) may come between them. Where
// the side to move has no legal move, its pass is put into the game before
// the next move; an explicit pass token "pa" or "ps" (any case, as Edax
// writes them) is accepted too, but only where the pass is forced. The game
// may stop before it is over, and an empty list is the start position.
//
// A fault is a [*ParseError] whose message names the move's 1-based number
// among the tokens of the text (explicit passes count, inferred ones do not)
// and the token, for example `move 12 "c4": not legal for white`, and whose
// line and column are where the token starts. A token that is not a move
// wraps [ErrSyntax]; an illegal move, a pass that is not forced and a move
// after the game is over wrap the rules engine's [*othello.MoveError].
// Reading holds no more than the game in memory, whatever the input's size.
func ReadOthelloMoveList(r io.Reader) (*othello.Game, error) {
	if r == nil {
		return nil, errors.New("record: nil reader")
	}
	br := bufio.NewReader(r)
	g := othello.NewGame(othello.Standard)
	line, col := 1, 0 // where the last byte read was
	read := func() (byte, error) {
		c, err := br.ReadByte()
		if err == nil {
			if c == '\n' {
				line, col = line+1, 0
			} else {
				col++
			}
		}
		return c, err
	}
	for num := 1; ; num++ {
		// Skip white space to the token's first byte.
		var c0 byte
		var err error
		for {
			if c0, err = read(); err != nil || !isASCIISpace(c0) {
				break
			}
		}
		if errors.Is(err, io.EOF) {
			return g, nil
		}
		if err != nil {
			return nil, fmt.Errorf("record: reading move %d: %w", num, err)
		}
		tokLine, tokCol := line, col
		fail := func(tok, msg string, cause error) error {
			return &ParseError{Line: tokLine, Column: tokCol, Msg: fmt.Sprintf("move %d %q: %s", num, tok, msg), Err: cause}
		}
		c1, err := read()
		if err != nil && !errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("record: reading move %d: %w", num, err)
		}
		if err != nil || isASCIISpace(c1) {
			return nil, fail(string(c0), "incomplete move: a square a1-h8, or pa or ps for a pass", ErrSyntax)
		}
		tok := string([]byte{c0, c1})
		m, perr := othello.ParseMove(tok)
		if perr != nil {
			return nil, fail(tok, "not a square a1-h8, nor pa or ps for a pass", ErrSyntax)
		}
		p := g.Position()
		turn := p.Turn()
		switch {
		case p.IsOver():
			_, err := p.Play(m)
			return nil, fail(tok, "the game is over", err)
		case m == othello.Pass && !p.MustPass():
			_, err := p.Play(m)
			return nil, fail(tok, "a pass is not forced: "+turn.String()+" has a legal move", err)
		case m != othello.Pass && p.MustPass():
			// The side to move passed without saying so.
			if err := g.Play(othello.Pass); err != nil {
				return nil, fail(tok, err.Error(), err)
			}
			p = g.Position()
		}
		if err := g.Play(m); err != nil {
			msg := "not legal for " + p.Turn().String()
			if p.Turn() != turn {
				msg += " (after " + turn.String() + "'s forced pass)"
			}
			return nil, fail(tok, msg, err)
		}
	}
}

func isASCIISpace(c byte) bool {
	switch c {
	case ' ', '\t', '\n', '\r', '\v', '\f':
		return true
	}
	return false
}

// AppendOthelloMoveList appends g's moves to dst as a plain move list, such
// as "f5d6c3d3c4": lower case, no separators, passes left out, no line end.
// The list is relative to the standard start: a game from [othello.Standard]
// is written as it is, a game from [othello.TUS] through [othello.FlipX], and
// a game from any other start is refused with an error wrapping
// [errors.ErrUnsupported].
func AppendOthelloMoveList(dst []byte, g *othello.Game) ([]byte, error) {
	if g == nil {
		return dst, errors.New("record: nil game")
	}
	var sym othello.Symmetry
	switch start, _ := g.PositionAt(0); start {
	case othello.Standard.Start:
		sym = othello.Identity
	case othello.TUS.Start:
		sym = othello.FlipX
	default:
		return dst, fmt.Errorf("record: a move list starts from the standard position (or its mirror, the TUS one), not from %s: %w", start, errors.ErrUnsupported)
	}
	for _, m := range g.Moves() {
		if m != othello.Pass {
			dst = append(dst, sym.Move(m).String()...)
		}
	}
	return dst, nil
}

// WriteOthelloMoveList writes g's move list, as [AppendOthelloMoveList]
// makes it, and one LF, in one Write.
func WriteOthelloMoveList(w io.Writer, g *othello.Game) error {
	b, err := AppendOthelloMoveList(make([]byte, 0, 2*64+1), g)
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

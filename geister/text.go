package geister

import (
	"errors"
	"fmt"
	"math/bits"
	"strconv"
	"strings"
)

// BoardLen is the length of a board string: 16 triples "xyc".
const BoardLen = 48

// appendTriple appends a board-string triple: the square's two characters and
// the colour letter.
func appendTriple(b []byte, sq uint8, col byte) []byte {
	switch {
	case sq < NumSquares:
		b = append(b, '0'+sq%6, '0'+sq/6)
	case sq == escaped:
		b = append(b, '8', '8')
	default:
		b = append(b, '9', '9')
	}
	return append(b, col)
}

// colorLetter returns 'r' or 'b', upper case if upper.
func colorLetter(red, upper bool) byte {
	c := byte('b')
	if red {
		c = 'r'
	}
	if upper {
		c -= 'a' - 'A'
	}
	return c
}

// Board returns the board string of p as the Java server sends it to
// receiver in WON:, LST: and DRW:, 48 characters, the receiver's
// ghosts A-H then the opponent's, each as its square in the receiver's frame
// ("99" captured, "88" escaped) and its colour: upper case R or B for the
// receiver's ghosts on the board, lower case r or b for every other ghost. The
// Java viewer's strings are Board(Second).
func (p Position) Board(receiver Color) string {
	return string(p.AppendBoard(make([]byte, 0, BoardLen), receiver))
}

// AppendBoard appends [Position.Board] to b.
func (p Position) AppendBoard(b []byte, receiver Color) []byte {
	for i := range 2 {
		c := (receiver ^ Color(i)) & 1
		at := p.at[p.side(c)]
		if receiver&1 == Second {
			at = rotatePacked(at)
		}
		for g := uint(0); g < 8; g++ {
			sq := uint8(at >> (8 * g))
			b = appendTriple(b, sq, colorLetter(p.reds[p.side(c)]>>g&1 != 0, i == 0 && sq < NumSquares))
		}
	}
	return b
}

// String returns the position string: the board as the first player receives
// it ([Position.Board] of [First]), a space and the ply count. The start with
// both players' reds on A-D is
//
//	14R24R34R44R15B25B35B45B41r31r21r11r40b30b20b10b 0
func (p Position) String() string {
	b, _ := p.AppendText(make([]byte, 0, BoardLen+11))
	return string(b)
}

// AppendText appends [Position.String] to b.
func (p Position) AppendText(b []byte) ([]byte, error) {
	b = p.AppendBoard(b, First)
	b = append(b, ' ')
	return strconv.AppendUint(b, uint64(p.ply), 10), nil
}

// MarshalText returns [Position.String].
func (p Position) MarshalText() ([]byte, error) { return p.AppendText(nil) }

// UnmarshalText sets p to the position [ParsePosition] reads from text.
func (p *Position) UnmarshalText(text []byte) error {
	v, err := ParsePosition(string(text))
	if err != nil {
		return err
	}
	*p = v
	return nil
}

// ParsePosition reads a position string as [Position.String] writes it: a
// board string in the first player's frame (see [ParseBoard]), then a space
// and the ply count. It is lenient: the ply count may be left out (with its
// space) and then is 0, so a WON:, LST: or DRW: board the first player
// received reads as is.
func ParsePosition(text string) (Position, error) {
	board, ply := text, 0
	if len(text) > BoardLen {
		if text[BoardLen] != ' ' {
			return Position{}, &SyntaxError{Input: text, Offset: BoardLen, Msg: "a space and the ply count must follow the 48-character board"}
		}
		digits := text[BoardLen+1:]
		n, err := strconv.ParseUint(digits, 10, 32)
		if err != nil {
			return Position{}, &SyntaxError{Input: text, Offset: BoardLen + 1, Msg: "the ply count must be a number 0-4294967295"}
		}
		board, ply = text[:BoardLen], int(n)
	}
	sq, col, err := parseBoard(board)
	if err != nil {
		err.Input = text
		return Position{}, err
	}
	return boardPosition(sq, col, First, ply)
}

// ParseBoard reads a 48-character board string in which every colour is known
// (the Java server's WON:, LST: and DRW: boards, its viewer's strings) as
// receiver received it, and returns the position at the given ply count.
// Triples 0-7 are the receiver's ghosts, 8-15 the opponent's, squares in the
// receiver's frame. It is lenient in the colour letters' case, which carries
// nothing when every colour is known; it refuses 'u'. Syntax errors are
// [*SyntaxError]s; a board that parses but describes no position gives the
// [*SetupError]s of [NewPosition], joined.
func ParseBoard(board string, receiver Color, ply int) (Position, error) {
	sq, col, err := parseBoard(board)
	if err != nil {
		return Position{}, err
	}
	return boardPosition(sq, col, receiver, ply)
}

// boardPosition builds the position of parsed triples received by receiver.
func boardPosition(sq [2][8]Square, col [2][8]byte, receiver Color, ply int) (Position, error) {
	var errs []error
	if !receiver.Valid() {
		errs = append(errs, &SetupError{"receiver", fmt.Sprintf("%d is neither First nor Second", receiver)})
		receiver &= 1
	}
	s := Setup{Ply: ply}
	for i := range 2 {
		c := receiver ^ Color(i)
		for g := A; g <= H; g++ {
			switch col[i][g] {
			case 'r':
				s.Reds[c] |= 1 << g
			case 'u':
				errs = append(errs, &SetupError{"Reds", fmt.Sprintf("the colour of %s is unknown", ghostName(c, g))})
			}
			if receiver == Second {
				sq[i][g] = sq[i][g].Rotate()
			}
			s.Ghosts[c][g] = sq[i][g]
		}
	}
	p, err := NewPosition(s)
	if err != nil {
		errs = append(errs, err)
	}
	if len(errs) > 0 {
		return Position{}, errors.Join(errs...)
	}
	return p, nil
}

// parseBoard checks the syntax of a board string and returns its squares and
// its colour letters in lower case, triples 0-7 as [0] and 8-15 as [1].
func parseBoard(text string) (sq [2][8]Square, col [2][8]byte, err *SyntaxError) {
	if len(text) != BoardLen {
		return sq, col, &SyntaxError{Input: text, Offset: min(len(text), BoardLen), Msg: "a board is 48 characters: 16 triples of x, y and a colour"}
	}
	for t := range 16 {
		i := 3 * t
		x, y := text[i], text[i+1]
		var s Square
		switch {
		case x == '9' && y == '9':
			s = Captured
		case x == '8' && y == '8':
			s = Escaped
		case x < '0' || x > '5':
			return sq, col, &SyntaxError{Input: text, Offset: i, Msg: "x must be a digit 0-5 (or 99 captured, 88 escaped)"}
		case y < '0' || y > '5':
			return sq, col, &SyntaxError{Input: text, Offset: i + 1, Msg: "y must be a digit 0-5"}
		default:
			s = SquareAt(int(x-'0'), int(y-'0'))
		}
		c := text[i+2] | 0x20
		if c != 'r' && c != 'b' && c != 'u' {
			return sq, col, &SyntaxError{Input: text, Offset: i + 2, Msg: "a colour is R, B, r, b or u"}
		}
		sq[t/8][t%8], col[t/8][t%8] = s, c
	}
	return sq, col, nil
}

// String returns the view's board as the Java server sends it in MOV?:
// 48 characters, the viewer's ghosts A-H then the opponent's, squares in
// the viewer's frame ("99" captured, "88" escaped); colours R or B for the
// viewer's ghosts on the board, r or b for ghosts off the board, u for the
// opponent's ghosts on the board. The first player's start view with reds on
// B-E is
//
//	14B24R34R44R15R25B35B45B41u31u21u11u40u30u20u10u
func (v View) String() string {
	b, _ := v.AppendText(make([]byte, 0, BoardLen))
	return string(b)
}

// AppendText appends [View.String] to b; it never fails. (View has no
// UnmarshalText: its string leaves out the viewer and the ply count, which
// [ParseView] takes as arguments.)
func (v View) AppendText(b []byte) ([]byte, error) {
	for g := uint(0); g < 8; g++ {
		sq := uint8(v.at[0] >> (8 * g))
		b = appendTriple(b, sq, colorLetter(v.reds>>g&1 != 0, sq < NumSquares))
	}
	for g := uint(0); g < 8; g++ {
		sq := uint8(v.at[1] >> (8 * g))
		col := byte('u')
		switch {
		case v.oppRed>>g&1 != 0:
			col = 'r'
		case v.oppBlue>>g&1 != 0:
			col = 'b'
		}
		b = appendTriple(b, sq, col)
	}
	return b, nil
}

// ParseView reads the board of a MOV? message as viewer received it
// at the given ply count. Triples 0-7 are the viewer's ghosts, whose colours
// must be known; 8-15 the opponent's, whose colours must be known once off
// the board. It is lenient: colour letters may be in either case, and the
// colours of opponent ghosts on the board may be r or b (as in the Java
// server's result boards) besides u: they are dropped, as a view never holds
// them. Syntax errors are [*SyntaxError]s; a board that parses but shows no
// possible position gives [*SetupError]s, joined.
func ParseView(board string, viewer Color, ply int) (View, error) {
	sq, col, serr := parseBoard(board)
	if serr != nil {
		return View{}, serr
	}
	var errs []error
	if !viewer.Valid() {
		errs = append(errs, &SetupError{"viewer", fmt.Sprintf("%d is neither First nor Second", viewer)})
		viewer &= 1
	}
	o := viewer.Opponent()
	var own, knownRed, knownBlue, onBoard Reds
	for g := A; g <= H; g++ {
		switch col[0][g] {
		case 'r':
			own |= 1 << g
		case 'u':
			errs = append(errs, &SetupError{"Reds", fmt.Sprintf("the colour of the viewer's own %s is unknown", g)})
		}
		switch {
		case sq[1][g].Valid():
			onBoard |= 1 << g
		case col[1][g] == 'r':
			knownRed |= 1 << g
		case col[1][g] == 'b':
			knownBlue |= 1 << g
		default:
			errs = append(errs, &SetupError{"Reds", fmt.Sprintf("the colour of %s, off the board, is unknown", ghostName(o, g))})
		}
	}
	if n := knownRed.Count(); n > 4 {
		errs = append(errs, &SetupError{"Reds", fmt.Sprintf("%d of the opponent's ghosts are red", n)})
	}
	if n := knownBlue.Count(); n > 4 {
		errs = append(errs, &SetupError{"Reds", fmt.Sprintf("%d of the opponent's ghosts are blue", n)})
	}
	// Complete the opponent's reds with ghosts on the board to build a
	// position, which checks the squares; the view then forgets them.
	fill := knownRed
	for g := A; g <= H && fill.Count() < 4; g++ {
		if onBoard.Has(g) {
			fill |= 1 << g
		}
	}
	for g := A; g <= H && fill.Count() < 4; g++ {
		if sq[1][g] != Escaped {
			fill |= 1 << g
		}
	}
	for bits.OnesCount8(uint8(fill)) > 4 {
		fill &= fill - 1
	}
	var c [2][8]byte
	for g := A; g <= H; g++ {
		c[0][g] = colorLetter(own.Has(g), false)
		c[1][g] = colorLetter(fill.Has(g), false)
	}
	p, err := boardPosition(sq, c, viewer, ply)
	if err != nil {
		errs = append(errs, err)
	}
	if len(errs) > 0 {
		return View{}, errors.Join(errs...)
	}
	return p.View(viewer), nil
}

// Diagram draws p for people in the first player's frame: 6 rows with the
// column and row numbers, the first player's ghosts as upper-case letters,
// the second player's as lower-case ones, '.' for empty squares; then the red
// sets, what has left the board, and the side to move.
func (p Position) Diagram() string {
	var sb strings.Builder
	sb.WriteString("  0 1 2 3 4 5\n")
	for y := range 6 {
		sb.WriteByte('0' + byte(y))
		for x := range 6 {
			sb.WriteByte(' ')
			if c, g, ok := p.At(SquareAt(x, y)); ok {
				sb.WriteString(ghostName(c, g))
			} else {
				sb.WriteByte('.')
			}
		}
		sb.WriteByte('\n')
	}
	for c := range Color(2) {
		red, blue := p.Captured(c)
		fmt.Fprintf(&sb, "%s: reds %s, lost %d red %d blue\n", c, p.Reds(c), red, blue)
	}
	if r := p.Result(); r.Reason != Unfinished {
		fmt.Fprintf(&sb, "ply %d, %s\n", p.ply, r)
	} else {
		fmt.Fprintf(&sb, "ply %d, %s to move\n", p.ply, p.Turn())
	}
	return sb.String()
}

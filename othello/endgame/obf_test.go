package endgame

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
	"testing"

	"github.com/botarena/botarena/othello"
)

// The FFO endgame problems come one a line, as
//
//	<64 squares a1..h8: X black, O white, - empty> <X|O>; <MOVE>:<value>; ...
//
// each move with its exact score for the side to move, the best first.

// moveValue is a listed move and its exact score.
type moveValue struct {
	Move  othello.Move
	Value int
}

// problem is one line of an obf file.
type problem struct {
	Pos   othello.Position
	Moves []moveValue
}

// String writes p as an obf line.
func (p problem) String() string {
	var b strings.Builder
	for sq := range othello.Square(64) {
		c, ok := p.Pos.At(sq)
		switch {
		case !ok:
			b.WriteByte('-')
		case c == othello.Black:
			b.WriteByte('X')
		default:
			b.WriteByte('O')
		}
	}
	if p.Pos.Turn() == othello.Black {
		b.WriteString(" X;")
	} else {
		b.WriteString(" O;")
	}
	for _, m := range p.Moves {
		fmt.Fprintf(&b, " %s:%+d;", strings.ToUpper(m.Move.String()), m.Value)
	}
	return b.String()
}

// parseOBF reads one obf line.
func parseOBF(line string) (problem, error) {
	var p problem
	line = strings.TrimRight(line, "\r\n")
	if len(line) < 66 {
		return p, fmt.Errorf("obf: line of %d bytes, shorter than a board and a side (66)", len(line))
	}
	var black, white othello.Bitboard
	for i := range 64 {
		switch line[i] {
		case 'X':
			black |= othello.Square(i).Bit()
		case 'O':
			white |= othello.Square(i).Bit()
		case '-':
		default:
			return p, fmt.Errorf("obf: byte %d: square %s is %q, not X, O or -", i+1, othello.Square(i), line[i])
		}
	}
	if line[64] != ' ' {
		return p, fmt.Errorf("obf: byte 65: %q where a space must follow the board", line[64])
	}
	var turn othello.Color
	switch line[65] {
	case 'X':
		turn = othello.Black
	case 'O':
		turn = othello.White
	default:
		return p, fmt.Errorf("obf: byte 66: side to move %q is neither X nor O", line[65])
	}
	pos, err := othello.NewPosition(othello.Setup{Black: black, White: white, Turn: turn})
	if err != nil {
		return p, fmt.Errorf("obf: %w", err)
	}
	p.Pos = pos
	rest := line[66:]
	if rest == "" {
		return p, nil
	}
	if rest[0] != ';' {
		return p, fmt.Errorf("obf: byte 67: %q where ';' must follow the side to move", rest[0])
	}
	off := 67
	for _, f := range strings.Split(rest[1:], ";") {
		field := strings.TrimSpace(f)
		if field == "" {
			off += len(f) + 1
			continue
		}
		sq, val, ok := strings.Cut(field, ":")
		if !ok {
			return p, fmt.Errorf("obf: byte %d: move %q has no ':value'", off+1, field)
		}
		m, err := othello.ParseMove(strings.ToLower(sq))
		if err != nil || m.Square() == othello.NoSquare {
			return p, fmt.Errorf("obf: byte %d: %q is not a square", off+1, sq)
		}
		v, err := strconv.Atoi(val)
		if err != nil || v < -64 || v > 64 {
			return p, fmt.Errorf("obf: byte %d: value %q is not a score from -64 to 64", off+1, val)
		}
		p.Moves = append(p.Moves, moveValue{m, v})
		off += len(f) + 1
	}
	return p, nil
}

// readOBF reads the problems of an obf file, skipping blank lines.
func readOBF(r io.Reader) ([]problem, error) {
	var ps []problem
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		p, err := parseOBF(sc.Text())
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", n, err)
		}
		ps = append(ps, p)
	}
	return ps, sc.Err()
}

func FuzzParseOBF(f *testing.F) {
	for _, c := range quickProblems {
		f.Add(c.line)
	}
	f.Add("----------------------------------------------------------------")
	f.Add("--------------------------------------------------------------- X")
	f.Fuzz(func(t *testing.T, line string) {
		p, err := parseOBF(line)
		if err != nil {
			return
		}
		q, err := parseOBF(p.String())
		if err != nil {
			t.Fatalf("parseOBF(%q) = %v, but its own line %q fails: %v", line, p, p.String(), err)
		}
		if q.String() != p.String() {
			t.Fatalf("round trip of %q: %q then %q", line, p.String(), q.String())
		}
	})
}

func TestParseOBF(t *testing.T) {
	p, err := parseOBF(quickProblems[0].line + "; G8:+18; H1:+12; H7:+6; A2:+6; A3:+4; B1:-4; A4:-22; G2:-24;")
	if err != nil {
		t.Fatal(err)
	}
	if got := p.Pos.Empty().Count(); got != 14 {
		t.Errorf("FFO #1 has %d empty squares, want 14", got)
	}
	if p.Pos.Turn() != othello.Black || len(p.Moves) != 8 || p.Moves[0] != (moveValue{othello.Place(othello.G8), 18}) {
		t.Errorf("FFO #1 parsed as %v", p)
	}
	for _, bad := range []string{"", "X", strings.Repeat("Z", 64) + " X;", strings.Repeat("-", 64) + " Y;", strings.Repeat("-", 64) + " X; A9:+2;", strings.Repeat("-", 64) + " X; A1:+99;"} {
		if _, err := parseOBF(bad); err == nil {
			t.Errorf("parseOBF(%q) accepted a bad line", bad)
		}
	}
}

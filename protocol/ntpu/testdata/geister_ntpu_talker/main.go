// Command geister_ntpu_talker is a test program for the NTPU STDIO mode that
// talks on its standard output, as real NTPU programs do (the launcher shows
// their stdout in its window): a random player, like examples/geister-stdio,
// that before each SET: and MOV: it sends prints a banner or its board,
// drawn from the last MOV?, and a line of thought.
//
//	geister_ntpu_talker        the board before each answer
//	geister_ntpu_talker flood  also 64 KiB of thoughts before each move
package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"strings"

	"github.com/botarena/botarena/geister"
	"github.com/botarena/botarena/protocol/ntpu"
)

func main() {
	flood := len(os.Args) > 1 && os.Args[1] == "flood"
	seen := &lastMOV{}
	out := &talker{w: os.Stdout, seen: seen, flood: flood}
	random := func(_ context.Context, v geister.View) (geister.Move, error) {
		moves := v.AppendLegalMoves(nil)
		return moves[rand.IntN(len(moves))], nil
	}
	in := io.TeeReader(os.Stdin, seen)
	if err := ntpu.ServeSTDIO(context.Background(), in, out, geister.PlayerFunc(random)); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// lastMOV remembers the last MOV? line of what it is written.
type lastMOV struct {
	partial []byte
	board   string
}

func (l *lastMOV) Write(p []byte) (int, error) {
	l.partial = append(l.partial, p...)
	for {
		i := bytes.IndexByte(l.partial, '\n')
		if i < 0 {
			return len(p), nil
		}
		line := strings.TrimRight(string(l.partial[:i]), "\r")
		if b, ok := strings.CutPrefix(line, "MOV?"); ok {
			l.board = b
		}
		l.partial = l.partial[i+1:]
	}
}

// talker writes the player's lines, each SET: and MOV: after some talk.
type talker struct {
	w     io.Writer
	seen  *lastMOV
	flood bool
	moves int
}

func (t *talker) Write(p []byte) (int, error) {
	var talk bytes.Buffer
	switch {
	case bytes.HasPrefix(p, []byte("SET:")):
		talk.WriteString("ISMCTS 4-tuple, random edition\n")
		talk.WriteString("  setting my red ghosts\n")
	case bytes.HasPrefix(p, []byte("MOV:")):
		t.moves++
		drawBoard(&talk, t.seen.board)
		fmt.Fprintf(&talk, "move %d: %d playouts, best %s", t.moves, 1000+t.moves, p)
		for i := 0; t.flood && talk.Len() < 64<<10; i++ {
			fmt.Fprintf(&talk, "  thought %05d: nothing to see here, just a program thinking aloud\n", i)
		}
	}
	if _, err := t.w.Write(append(talk.Bytes(), p...)); err != nil {
		return 0, err
	}
	return len(p), nil
}

// drawBoard draws a MOV? board: 16 triples x, y, ghost ('R', 'B' ours, 'u'
// theirs), x and y 8 or 9 for a ghost gone.
func drawBoard(w *bytes.Buffer, board string) {
	var grid [6][6]byte
	for y := range grid {
		for x := range grid[y] {
			grid[y][x] = '.'
		}
	}
	for i := 0; i+3 <= len(board) && i < 48; i += 3 {
		x, y := int(board[i]-'0'), int(board[i+1]-'0')
		if x >= 0 && x < 6 && y >= 0 && y < 6 {
			grid[y][x] = board[i+2]
		}
	}
	w.WriteString("   0 1 2 3 4 5\n")
	for y, row := range grid {
		fmt.Fprintf(w, " %d", y)
		for _, c := range row {
			fmt.Fprintf(w, " %c", c)
		}
		w.WriteByte('\n')
	}
}

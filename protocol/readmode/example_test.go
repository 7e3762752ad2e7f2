package readmode_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/botarena/botarena/darkchess"
	"github.com/botarena/botarena/protocol/readmode"
)

// A read-mode engine's whole run: read board.txt, choose, write move.txt.
// The platform runs the program in its folder, so a real engine passes ".".
func ExampleRun() {
	dir, err := os.MkdirTemp("", "search")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	board := "* 3:6pm February 16, 2017\n* Player1(a5) vs Player2(a0)\n* 1 2 2 2 2 2 5 1 2 2 2 2 2 5\n" +
		"* X X X X\n* X X X X\n* X X X X\n* X X X X\n* X X X X\n* X X X X\n* X X X X\n* X X X X\n" +
		"* first 0\n* time 900\n* 1. b8(K) c8(c)\n* Comment 0 0\n"
	if err := os.WriteFile(filepath.Join(dir, "board.txt"), []byte(board), 0o644); err != nil {
		fmt.Println(err)
		return
	}

	// Take a piece if possible, or else play the first legal ply.
	bot := darkchess.PlayerFunc(func(_ context.Context, v darkchess.View) (darkchess.Move, error) {
		moves := v.AppendLegalMoves(nil)
		for _, m := range moves {
			if v.Position().IsCapture(m) {
				return m, nil
			}
		}
		return moves[0], nil
	})
	if err := readmode.Run(context.Background(), dir, bot); err != nil {
		fmt.Println(err)
		return
	}
	move, _ := os.ReadFile(filepath.Join(dir, "move.txt"))
	fmt.Printf("%q\n", move)
	// Output:
	// "0\nb8\nc8\n0\n"
}

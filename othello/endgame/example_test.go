package endgame_test

import (
	"context"
	"fmt"

	"github.com/botarena/botarena/othello"
	"github.com/botarena/botarena/othello/endgame"
)

// FFO endgame problem #1: black to move with 14 empty squares.
func ExampleSolver_Solve() {
	black, white := othello.Bitboard(0), othello.Bitboard(0)
	board := "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO--"
	for i, c := range board {
		switch c {
		case 'X':
			black |= othello.Square(i).Bit()
		case 'O':
			white |= othello.Square(i).Bit()
		}
	}
	p, err := othello.NewPosition(othello.Setup{Black: black, White: white, Turn: othello.Black})
	if err != nil {
		panic(err)
	}
	s := endgame.New(endgame.Options{TableSize: 1 << 16})
	r, err := s.Solve(context.Background(), p)
	if err != nil {
		panic(err)
	}
	fmt.Println(r.Best, r.Score)
	w, _ := s.WLD(context.Background(), p)
	fmt.Println(w.Score)
	// Output:
	// g8 18
	// 1
}

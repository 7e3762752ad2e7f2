package record_test

import (
	"fmt"
	"os"
	"strings"

	"github.com/botarena/botarena/darkchess"
	"github.com/botarena/botarena/record"
)

// A 2021 record replays under the NTU2021 rules to the ending its result
// line gives.
func ExampleReadDarkChessBoard() {
	const board = `INITIAL
* 9:7am Jan 10, 2022
* chan vs ai
* 1 2 2 2 2 2 5 1 2 2 2 2 2 5
* X X X X
* X X X X
* X X X X
* X X X X
* X X X X
* X X X X
* X X X X
* X X X X
* first 0
* time 900
* 1. b8(C) c8(C)
* 2. c6(p) c7(G)
* TimeOut ai Wins 0.000000,1.000000
* Comment 0 0
0. 1641776836137
1. 1641776836137
2. 1641776847851
3. 1641776850000
4. 1641776851000
`
	b, err := record.ReadDarkChessBoard(strings.NewReader(board))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(b.First, "vs", b.Second, b.FirstColor, b.Plies, b.TimeSetting())
	g, err := b.Game(darkchess.NTU2021, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	r, _ := g.Result()
	fmt.Println(r)

	_, err = record.ReadDarkChessBoard(strings.NewReader(strings.Replace(board, "c7(G)", "c7(C)", 1)))
	fmt.Println(err)
	// Output:
	// chan vs ai red [b8(C) c8(C) c6(p) c7(G)] 15m0s
	// black wins (TimeOut)
	// record: line 16, column 12: ply 4 c7(C): no C is face-down
}

// The board.txt a read-mode engine gets, and the move.txt it answers.
func ExampleWriteDarkChessBoard() {
	g := darkchess.NewGame(darkchess.Classic, nil)
	for _, ply := range []string{"b8(K)", "c8(c)", "b8-c8"} {
		p, _ := darkchess.ParsePly(ply)
		if err := g.PlayPly(p); err != nil {
			fmt.Println(err)
			return
		}
	}
	b := record.NewDarkChessBoard(g, "a5", "a0")
	b.Date, b.Time = "3:6pm February 16, 2017", 900
	if err := record.WriteDarkChessBoard(os.Stdout, b, record.DarkChessReadMode); err != nil {
		fmt.Println(err)
	}
	_ = record.WriteDarkChessMove(os.Stdout, darkchess.Flip(darkchess.A1))
	// Output:
	// * 3:6pm February 16, 2017
	// * Player1(a5) vs Player2(a0)
	// * 1 2 2 2 2 2 5 1 2 2 2 2 2 5
	// * X X X X
	// * X X X X
	// * X X X X
	// * X X X X
	// * X X X X
	// * X X X X
	// * X X X X
	// * X X X X
	// * first 0
	// * time 900
	// * 1. b8(K) c8(c)
	// * 2. b8-c8
	// * Comment 0 0
	// 1
	// a1
	// 0
	// 0
}

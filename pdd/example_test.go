package pdd_test

import (
	"errors"
	"fmt"

	"github.com/botarena/botarena/pdd"
)

// The course's example stepLog example, replayed by the referee.
func Example() {
	g := pdd.NewGame(pdd.Course)
	for _, text := range []string{"Chess_2,0_2,2", "Change", "Chess_0,2_1,3", "Bridge_2,0_2,2", "Chess_8,8_9,9"} {
		m, err := pdd.ParseMove(text)
		if err != nil {
			panic(err)
		}
		if err := g.Play(m); err != nil {
			panic(err)
		}
	}
	fmt.Print(g.Position().Diagram())
	fmt.Println(g.Position().NumLegalMoves(), "legal moves")
	// Output:
	//   0 1 2 3 4 5 6 7 8 9
	// 0 . . B . . . . . . .
	// 1 . . - . . . . . . .
	// 2 W . B . . . . . . .
	// 3 . W . . . . . . . .
	// 4 . . . . . . . . . .
	// 5 . . . . . . . . . .
	// 6 . . . . . . . . . .
	// 7 . . . . . . . . . .
	// 8 . . . . . . . . W .
	// 9 . . . . . . . . . W
	// black to move, course
	// bridge 1 2,0-2,2 black
	// 4278 legal moves
}

func ExamplePosition_AppendLegalMoves() {
	p := pdd.Course.Start()
	var buf [pdd.MaxMoves]pdd.Move
	moves := p.AppendLegalMoves(buf[:0])
	fmt.Println(len(moves), moves[0], moves[len(moves)-1])

	p = p.PlayUnchecked(moves[0]) // White's opening on 0,0 and 1,0
	moves = p.AppendLegalMoves(buf[:0])
	fmt.Println(len(moves), moves[0], moves[len(moves)-1])
	// Output:
	// 4950 Chess_0,0_1,0 Chess_8,9_9,9
	// 4754 Chess_2,0_3,0 Change
}

func ExamplePosition_Play() {
	// Worked example G3: 2,2 completes an island that 3,3 touches.
	p, err := pdd.ParsePosition(`
		.......... .WW....... .W........ .......... ..........
		.......... .......... .......... .......... ..........
		W course`)
	if err != nil {
		panic(err)
	}
	m, _ := pdd.ParseMove("Chess_2,2_3,3")
	_, err = p.Play(m)
	fmt.Println(err)
	fmt.Println(errors.Is(err, pdd.ErrIslandTouches), errors.Is(err, pdd.ErrIllegalMove))
	// Output:
	// pdd: island touches another own tile: island 1,1 2,1 1,2 2,2 touches 3,3 (white Chess_2,2_3,3)
	// true true
}

func ExampleParseMove() {
	for _, text := range []string{"Bridge_4,5_4,3", "Change_2,0_2,2", "Chess_1,1_1,1"} {
		m, err := pdd.ParseMove(text)
		fmt.Println(m, err)
	}
	// Output:
	// Bridge_4,3_4,5 <nil>
	// Change <nil>
	// none pdd: the two tiles of Chess must be on different squares at offset 10 of "Chess_1,1_1,1"
}

func ExamplePosition_Score() {
	// Two white islands joined by a bridge, and a third one alone.
	p, err := pdd.ParsePosition(`
		WW.WW..... WW.WW..... .......... .......... ..........
		.......... .......... .......... WW........ WW........
		B course bridges=1,0-3,0`)
	if err != nil {
		panic(err)
	}
	fmt.Println(p.Score(pdd.White))
	fmt.Println(p.Outcome())
	// Output:
	// 4 points, 3 islands, 1 bridges
	// white wins 4/3/1 to 0/0/0 (score)
}

func ExampleNewPosition() {
	var s pdd.Setup
	s.Turn = pdd.White
	for x := range 5 {
		s.Cells[pdd.SquareAt(x, 0)] = pdd.White
	}
	s.Bridges = [][2]pdd.Square{{pdd.SquareAt(0, 0), pdd.SquareAt(0, 3)}}
	_, err := pdd.NewPosition(s)
	fmt.Println(err)
	// Output:
	// pdd: setup Cells: white group 0,0 1,0 2,0 3,0 4,0 has 5 tiles (pdd: group of five or more tiles)
	// pdd: setup Bridges[0]: bridge 0,0-0,3 is not between two tiles of one colour (pdd: bridge endpoint is not an own tile)
}

func ExamplePerft() {
	for d := 1; d <= 2; d++ {
		fmt.Println(d, pdd.Perft(pdd.Course.Start(), d))
	}
	// Output:
	// 1 4950
	// 2 23532300
}

func ExampleDivide() {
	p, _ := pdd.ParsePosition(`
		..B....... .......... W.B....... .W........ ..........
		.......... .......... .......... ........W. .........W
		B course bridges=2,0-2,2 first=B`)
	lines := pdd.Divide(p, 2)
	fmt.Println(len(lines), lines[0].Move, lines[0].Leaves)
	// Output:
	// 4278 Chess_0,0_1,0 4095
}

func ExampleGame_Forfeit() {
	g := pdd.NewGame(pdd.Course)
	_ = g.Play(pdd.Chess(pdd.SquareAt(2, 0), pdd.SquareAt(2, 2)))
	_ = g.Forfeit(pdd.Black) // Black's program wrote garbage
	r, _ := g.Result()
	fmt.Println(r)
	// Output:
	// white wins 0/0/0 to 0/0/0 (violation)
}

func ExampleSymmetry() {
	m, _ := pdd.ParseMove("Bridge_4,4_6,5")
	for _, s := range []pdd.Symmetry{pdd.FlipX, pdd.Transpose, pdd.Rotate90} {
		fmt.Println(s, s.Move(m))
	}
	// Output:
	// FlipX Bridge_5,4_3,5
	// Transpose Bridge_4,4_5,6
	// Rotate90 Bridge_5,4_4,6
}

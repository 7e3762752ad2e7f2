package othello_test

import (
	"fmt"

	"github.com/botarena/botarena/othello"
)

func Example() {
	g := othello.NewGame(othello.Standard)
	for _, text := range []string{"f5", "d6", "c3", "d3", "c4"} {
		m, err := othello.ParseMove(text)
		if err != nil {
			panic(err)
		}
		if err := g.Play(m); err != nil {
			panic(err)
		}
	}
	fmt.Print(g.Position().Diagram())
	// Output:
	//    a b c d e f g h
	//  1 . . . . . . . .
	//  2 . . . . . . . .
	//  3 . * X O . * . .
	//  4 . . X X X * . .
	//  5 . * . O X X * .
	//  6 . . . O . . * .
	//  7 . . . . . . . .
	//  8 . . . . . . . .
	// white to move, black 6 white 3
}

func ExamplePosition_AppendLegalMoves() {
	p := othello.TUS.Start
	var buf [64]othello.Move
	for _, m := range p.AppendLegalMoves(buf[:0]) {
		sq := m.Square()
		fmt.Printf("%s = PUT %d %d\n", m, sq.X(), sq.Y())
	}
	// Output:
	// e3 = PUT 4 2
	// f4 = PUT 5 3
	// c5 = PUT 2 4
	// d6 = PUT 3 5
}

func ExampleParsePosition() {
	p, err := othello.ParsePosition("---------------------------OX------XO--------------------------- X")
	if err != nil {
		panic(err)
	}
	fmt.Println(p == othello.Standard.Start, p.Turn(), p.LegalSquares().Count())
	_, err = othello.ParsePosition("---? X")
	fmt.Println(err)
	// Output:
	// true black 4
	// othello: a square is X, O, *, - or . at offset 3 of "---? X"
}

func ExamplePerft() {
	for d := 1; d <= 9; d++ {
		fmt.Println(d, othello.Perft(othello.Standard.Start, d))
	}
	// Output:
	// 1 4
	// 2 12
	// 3 56
	// 4 244
	// 5 1396
	// 6 8200
	// 7 55092
	// 8 390216
	// 9 3005288
}

func ExampleDivide() {
	for _, line := range othello.Divide(othello.Standard.Start, 10, othello.Bik) {
		fmt.Println(line.Move, line.Leaves)
	}
	// Output:
	// d3 6142821
	// c4 6142821
	// f5 6142821
	// e6 6142821
}

func ExampleGame_Forfeit() {
	g := othello.NewGame(othello.TUS)
	_ = g.Play(othello.Place(othello.E3))
	_ = g.Forfeit(othello.White, othello.Timeout) // white let its clock run out
	r, _ := g.Result()
	fmt.Println(r)
	// Output:
	// black wins 4-1 (timeout)
}

func ExampleGame_AgreeDraw() {
	g := othello.NewGame(othello.TUS)
	_ = g.Play(othello.Place(othello.E3))
	_ = g.AgreeDraw() // two persons agreed: the discs do not count
	r, _ := g.Result()
	fmt.Println(r)
	// Output:
	// draw 4-1 (agreement)
}

func ExampleSymmetry() {
	// The TUS server's start is the mirror image of the standard one.
	fmt.Println(othello.FlipX.Position(othello.Standard.Start) == othello.TUS.Start)
	fmt.Println(othello.FlipX.Square(othello.E3)) // the first TUS move, in standard orientation
	// Output:
	// true
	// d3
}

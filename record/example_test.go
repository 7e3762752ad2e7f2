package record_test

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/botarena/botarena/othello"
	"github.com/botarena/botarena/record"
)

// A transcript in which black has to pass: the two white lines in a row put
// a pass between them.
func ExampleReadOthelloTranscript() {
	const trans = "B:Alice,W:Bob\n" +
		"4,2,1\n5,2,-1\n6,2,1\n6,1,-1\n2,4,1\n7,2,-1\n7,0,1\n" +
		"5,0,-1\n" + // black has no move after this
		"3,2,-1\n" // so white moves again
	t, err := record.ReadOthelloTranscript(strings.NewReader(trans), othello.Position{}) // the TUS start
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(t.Black, "vs", t.White, t.Moves)
	g, err := t.Game()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("over:", g.IsOver(), "to move:", g.Turn())

	_, err = record.ReadOthelloTranscript(strings.NewReader("B:Alice,W:Bob\n4,2,1\n4,2,-1\n"), othello.Position{})
	fmt.Println(err)
	var pe *record.ParseError
	fmt.Println(errors.As(err, &pe), pe.Line, errors.Is(err, othello.ErrIllegalMove))
	// Output:
	// Alice vs Bob [e3 f3 g3 g2 c5 h3 h1 f1 pass d3]
	// over: false to move: black
	// record: line 3: white at 4,2 (e3): square occupied
	// true 3 true
}

// A server writes the transcript as the game goes on.
func ExampleNewOthelloTransWriter() {
	g := othello.NewGame(othello.TUS)
	tw, err := record.NewOthelloTransWriter(os.Stdout, "Alice", "Bob")
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, x := range [][2]int{{4, 2}, {5, 4}, {2, 5}} { // PUT x y from the players
		mover := g.Turn()
		sq := othello.SquareAt(x[0], x[1])
		if err := g.Play(othello.Place(sq)); err != nil {
			fmt.Println(err) // a server answers ERROR 2 and writes nothing
			continue
		}
		if err := tw.Move(sq, mover); err != nil {
			fmt.Println(err)
			return
		}
	}
	// Output:
	// B:Alice,W:Bob
	// 4,2,1
	// 5,4,-1
	// 2,5,1
}

func ExampleWriteOthelloTranscript() {
	g := othello.NewGame(othello.TUS)
	for _, m := range []othello.Move{othello.Place(othello.E3), othello.Place(othello.F5)} {
		if err := g.Play(m); err != nil {
			fmt.Println(err)
			return
		}
	}
	if err := record.WriteOthelloTranscript(os.Stdout, record.NewOthelloTranscript(g, "Alice", "Bob")); err != nil {
		fmt.Println(err)
	}
	// Output:
	// B:Alice,W:Bob
	// 4,2,1
	// 5,4,-1
}

func ExampleParseOthelloMoveList() {
	g, err := record.ParseOthelloMoveList("f5d6c3d3c4")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(g.Ply(), g.Turn(), g.Position().Count(othello.Black), g.Position().Count(othello.White))

	_, err = record.ParseOthelloMoveList("f5d6c3d3c4f4f6f3e6e7d7c4")
	fmt.Println(err)
	// Output:
	// 5 white 6 3
	// record: line 1, column 23: move 12 "c4": not legal for white
}

// A TUS game is written in standard orientation: the server's first move
// e3 (PUT 4 2) is d3.
func ExampleWriteOthelloMoveList() {
	t, err := record.ReadOthelloTranscript(strings.NewReader("B:a,W:b\n4,2,1\n5,4,-1\n2,5,1\n"), othello.TUS.Start)
	if err != nil {
		fmt.Println(err)
		return
	}
	g, err := t.Game()
	if err != nil {
		fmt.Println(err)
		return
	}
	if err := record.WriteOthelloMoveList(os.Stdout, g); err != nil {
		fmt.Println(err)
	}
	// Output:
	// d3c5f6
}

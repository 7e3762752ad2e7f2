package record_test

import (
	"errors"
	"fmt"
	"strings"

	"github.com/botarena/botarena/pdd"
	"github.com/botarena/botarena/record"
)

// The course's example stepLog.txt replays to a game: Black played Change on turn 2,
// and Black is to move on turn 6.
func ExampleReadPDDStepLog() {
	const stepLog = "W_1_Chess_2,0_2,2\nB_2_Change_2,0_2,2\nW_3_Chess_0,2_1,3\nB_4_Bridge_2,0_2,2\nW_5_Chess_8,8_9,9\n"
	l, err := record.ReadPDDStepLog(strings.NewReader(stepLog), record.PDDStrict)
	if err != nil {
		fmt.Println(err)
		return
	}
	g, err := record.ReplayPDDStepLog(l, pdd.Course)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(len(l.Steps), "steps;", g.Turn(), "to move")
	fmt.Print(record.NewPDDBridges(g.Position()).String()[:60])
	// Output:
	// 5 steps; black to move
	// 0,0,1,0,0,0,0,0,0,0
	// 0,0,0,0,0,0,0,0,0,0
	// 0,0,1,0,0,0,0,0,0,0
}

// A malformed chess.txt is an error naming the file, the line and the
// field.
func ExampleReadPDDChess() {
	chess := strings.Repeat("0,0,0,0,0,0,0,0,0,0\n", 2) + "0,0,0,7,0,0,0,0,0,0\n" + strings.Repeat("0,0,0,0,0,0,0,0,0,0\n", 7)
	_, err := record.ReadPDDChess(strings.NewReader(chess), record.PDDLenient)
	fmt.Println(err)
	var pe *record.ParseError
	fmt.Println(errors.As(err, &pe), pe.File, pe.Line, errors.Is(err, record.ErrSyntax))
	// Output:
	// record: chess.txt: line 3, column 7: field 4: want 0, 1 or 2, got "7"
	// true chess.txt 3 true
}

// The files of a position, and the position of the files.
func ExamplePDDPosition() {
	p, _ := pdd.Course.Start().Play(pdd.Chess(pdd.SquareAt(2, 0), pdd.SquareAt(2, 2)))
	c, b := record.NewPDDChess(p), record.NewPDDBridges(p)
	fmt.Print(c.String()[:40])
	q, err := record.PDDPosition(c, b, pdd.Setup{Turn: pdd.Black, ChangeAvailable: true})
	fmt.Println(q == p, err)
	// Output:
	// 0,0,1,0,0,0,0,0,0,0
	// 0,0,0,0,0,0,0,0,0,0
	// true <nil>
}

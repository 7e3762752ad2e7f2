package record_test

import (
	"fmt"
	"os"
	"strings"

	"github.com/botarena/botarena/geister"
	"github.com/botarena/botarena/record"
)

// A board.txt as a program finds it before its ply: the moves so far, its
// own red ghosts, the opponent's unknown.
func ExampleReadGeisterBoard() {
	const boardTxt = `* 9:05pm November 22, 2026
* a1 vs a2
* 4 4 4 4
* - h g f e -
* - d c b a -
* - - - - - -
* - - - - - -
* - A B C D -
* - E F G H -
* time 900
* 1. C,NORTH D,NORTH
* 2. D,WEST
* Comment 0 0
* red - bcde
`
	b, err := record.ReadGeisterBoard(strings.NewReader(boardTxt))
	if err != nil {
		fmt.Println(err)
		return
	}
	v, err := b.View(geister.Second) // the second player is to move
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(b.First, "vs", b.Second, "after", len(b.Moves), "plies")
	fmt.Println(v)
	// Output:
	// a1 vs a2 after 3 plies
	// 14B24R34R43R15R25B35B45B41u31u22u21u40u30u20u10u
}

// A game written as a board.txt, then cut into the mid-game file a host
// starts its next games from.
func ExampleGeisterBoard_MidGame() {
	start, _ := geister.Start(geister.RedsAt(0), geister.RedsAt(69))
	g := geister.NewGame(geister.NTPU, start)
	for _, s := range []string{"A,NORTH", "B,NORTH", "A,NORTH", "B,WEST"} {
		m, _ := geister.ParseMove(s)
		g.Play(m)
	}
	b, _ := record.NewGeisterBoard(g, "a1", "a2")
	mid, _ := b.MidGame(2)
	record.WriteGeisterBoard(os.Stdout, mid)
	p, _ := mid.StartPosition([2]geister.Reds{})
	fmt.Println("continues at ply", p.Ply(), "with the", p.Turn(), "player to move")
	// Output:
	// * a1 vs a2
	// * 4 4 4 4
	// * - h g f e -
	// * - d c b a -
	// * - - - - - -
	// * - - - - - -
	// * - A B C D -
	// * - E F G H -
	// * time 0
	// * 1. A,NORTH B,NORTH
	// * Comment 0 0
	// 1. 0 0
	// * red ABCD efgh
	// continues at ply 2 with the first player to move
}

// The Java server's log of a game: the refused commands, and the result.
func ExampleReadGeisterServerLog() {
	const log = `player=0,SET:ABC
player=0,SET:EFGH
player=1,SET:BCDE
player=1,MOV:B,N
player=0,MOV:A,N
`
	l, err := record.ReadGeisterServerLog(strings.NewReader(log))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, c := range l.Commands {
		if c.Accepted {
			fmt.Printf("line %d, %s player, %q: accepted\n", c.Line, c.Player, c.Text)
		} else {
			fmt.Printf("line %d, %s player, %q: refused: %s\n", c.Line, c.Player, c.Text, c.Why)
		}
	}
	fmt.Println(l.Moves, l.Result)
	// Output:
	// line 1, first player, "SET:ABC": refused: a SET needs 4 letters
	// line 2, first player, "SET:EFGH": accepted
	// line 3, second player, "SET:BCDE": accepted
	// line 4, second player, "MOV:B,N": refused: not this player's turn
	// line 5, first player, "MOV:A,N": accepted
	// [A,NORTH] unfinished
}

package boardsvg_test

import (
	"fmt"
	"strings"

	"github.com/botarena/botarena/boardsvg"
	"github.com/botarena/botarena/darkchess"
	"github.com/botarena/botarena/geister"
	"github.com/botarena/botarena/othello"
	"github.com/botarena/botarena/pdd"
)

// Draw the TUS start after black's first move, the move marked.
func ExampleOthello() {
	p := othello.TUS.Start
	m, _ := othello.ParseMove("e3")
	p, _ = p.Play(m)
	svg := boardsvg.Othello(p, boardsvg.OthelloOptions{Last: m, Size: 400})
	fmt.Println(svg[:strings.Index(svg, ">")+1])
	fmt.Println(strings.Count(svg, `class="disc black"`), "black discs,", strings.Count(svg, `class="disc white"`), "white")
	fmt.Println(strings.Contains(svg, `class="last" data-square="e3"`))
	// Output:
	// <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 460 460" width="400" height="400" class="board othello">
	// 4 black discs, 1 white
	// true
}

// Draw a Geister position as the first player sees it: its own colours,
// the opponent's ghosts grey.
func ExampleGeister() {
	before, _ := geister.Start(geister.RedsAt(0), geister.RedsAt(69))
	m, _ := geister.ParseMove("A,NORTH")
	p, _ := before.Play(m)
	svg := boardsvg.Geister(p, boardsvg.GeisterOptions{Last: m, Before: before, Hide: [2]bool{false, true}})
	fmt.Println(strings.Count(svg, `class="ghost first red"`), "red and", strings.Count(svg, `class="ghost first blue"`), "blue ghosts of the first player")
	fmt.Println(strings.Count(svg, `class="ghost second unknown"`), "unknown ghosts of the second")
	fmt.Println(strings.Count(svg, `class="last"`), "squares of the last move")
	// Output:
	// 4 red and 4 blue ghosts of the first player
	// 8 unknown ghosts of the second
	// 2 squares of the last move
}

// Draw a dark chess position after a flip, with the players and the status.
func ExampleDarkChess() {
	p, err := darkchess.ParsePosition("XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXXk r 12222250222225 0")
	if err != nil {
		fmt.Println(err)
		return
	}
	d1, _ := darkchess.ParseSquare("d1")
	svg := boardsvg.DarkChess(p, boardsvg.DarkChessOptions{
		Last:    darkchess.Flip(d1),
		Players: [2]string{"alice", "bob"},
		Colors:  [2]darkchess.Color{darkchess.Black, darkchess.Red},
		Status:  "red, second player (bob) to move",
	})
	fmt.Println(strings.Count(svg, `class="facedown"`), "face-down pieces")
	fmt.Println(strings.Contains(svg, "將"), strings.Contains(svg, "bob (red)"))
	// Output:
	// 31 face-down pieces
	// true true
}

// Draw a Ponte del Diavolo position: two white tiles, just placed.
func ExamplePDD() {
	g := pdd.NewGame(pdd.Course)
	m, _ := pdd.ParseMove("Chess_2,0_2,2")
	if err := g.Play(m); err != nil {
		fmt.Println(err)
		return
	}
	svg := boardsvg.PDD(g.Position(), boardsvg.PDDOptions{Last: m})
	fmt.Println(strings.Count(svg, `class="tile white"`), "white tiles,", strings.Count(svg, `class="last"`), "marked")
	// Output:
	// 2 white tiles, 2 marked
}

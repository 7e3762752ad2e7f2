package ntuple_test

import (
	"bytes"
	"fmt"

	"github.com/botarena/botarena/ntuple"
)

// A network for a row of three cells, each empty (0), the player's (1) or
// the opponent's (2), with one tuple of the two cells at the ends, looked
// up as it is and mirrored.
func Example() {
	n, err := ntuple.New(ntuple.Config{
		Cells: 3, States: 3,
		Tuples:     [][]int{{0, 1}},
		Symmetries: [][]int{{0, 1, 2}, {2, 1, 0}},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	good := []uint8{1, 0, 1} // the player holds both ends
	for range 100 {
		n.Fit(0, good, 0.9, 0.5)
	}
	fmt.Printf("%.1f\n", n.Value(0, good))
	// Output: 0.9
}

// TD(λ) on the positions of one game, each from the side of its player
// to move, the first player having won.
func ExampleNetwork_Learn() {
	n, _ := ntuple.New(ntuple.Config{Cells: 2, States: 3, Tuples: [][]int{{0, 1}}})
	game := []ntuple.Step{
		{Cells: []uint8{0, 0}, Sign: 1},
		{Cells: []uint8{2, 0}, Sign: -1}, // the second player to move
		{Cells: []uint8{1, 2}, Sign: 1},
	}
	for range 200 {
		n.Learn(game, 1, 0.2, 0.5)
	}
	fmt.Println(n.Value(0, game[2].Cells) > 0.5, n.Value(0, game[1].Cells) < -0.5)
	// Output: true true
}

// Writing a network and reading it back.
func ExampleRead() {
	n, _ := ntuple.New(ntuple.Config{Cells: 2, States: 2, Tuples: [][]int{{0, 1}}})
	n.Weights()[3] = 0.5
	var buf bytes.Buffer
	if _, err := n.WriteTo(&buf); err != nil {
		fmt.Println(err)
		return
	}
	m, err := ntuple.Read(&buf)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(m.Sum(0, []uint8{1, 1}))
	// Output: 0.5
}

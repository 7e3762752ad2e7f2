package movegen_test

import (
	"fmt"
	"math/bits"
	"strings"

	"github.com/botarena/botarena/othello/internal/movegen"
)

// The start position: black (to move) on d5 and e4, white on d4 and e5.
// Black may play d3, c4, f5 and e6; d3 turns d4.
func Example() {
	const d4, e4, d5, e5, d3 = 27, 28, 35, 36, 19
	P := uint64(1)<<d5 | uint64(1)<<e4
	O := uint64(1)<<d4 | uint64(1)<<e5
	var moves []string
	for m := movegen.Legal(P, O); m != 0; m &= m - 1 {
		sq := bits.TrailingZeros64(m)
		moves = append(moves, fmt.Sprintf("%c%d", 'a'+sq%8, sq/8+1))
	}
	fmt.Println(strings.Join(moves, " "))
	fmt.Println(movegen.Flips(d3, P, O) == 1<<d4)
	// Output:
	// d3 c4 f5 e6
	// true
}

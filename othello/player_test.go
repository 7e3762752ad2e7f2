package othello_test

import (
	"context"
	"fmt"

	"github.com/botarena/botarena/othello"
)

// A greedy bot: it plays the placement that turns over the most discs, the
// first such one from a1 to h8.
func ExamplePlayerFunc() {
	var greedy othello.Player = othello.PlayerFunc(func(ctx context.Context, p othello.Position) (othello.Move, error) {
		best, most := othello.NoMove, 0
		for _, m := range p.AppendLegalMoves(nil) {
			if n := p.Flips(m.Square()).Count(); n > most {
				best, most = m, n
			}
		}
		return best, nil
	})
	g := othello.NewGame(othello.Standard)
	for range 6 {
		m, err := greedy.Play(context.Background(), g.Position())
		if err != nil {
			panic(err)
		}
		if err := g.Play(m); err != nil {
			panic(err)
		}
	}
	fmt.Println(g.Moves())
	fmt.Println(g.Position().NumLegalMoves(), "legal moves for", g.Turn())
	// Output:
	// [d3 c3 b3 b2 b1 e3]
	// 4 legal moves for black
}

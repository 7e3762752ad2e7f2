package pdd_test

import (
	"context"
	"fmt"

	"github.com/botarena/botarena/pdd"
)

// A bot that takes the pie (Change) when it is offered, and otherwise plays
// its first legal move.
func ExamplePlayerFunc() {
	var bot pdd.Player = pdd.PlayerFunc(func(ctx context.Context, p pdd.Position) (pdd.Move, error) {
		if p.ChangeAvailable() {
			return pdd.Change, nil
		}
		return p.AppendLegalMoves(nil)[0], nil
	})
	g := pdd.NewGame(pdd.Course)
	for range 4 {
		m, err := bot.Play(context.Background(), g.Position())
		if err != nil {
			panic(err)
		}
		if err := g.Play(m); err != nil {
			panic(err)
		}
	}
	fmt.Println(g.Moves())
	// Output:
	// [Chess_0,0_1,0 Change Chess_2,0_3,0 Chess_4,0_5,0]
}

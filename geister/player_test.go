package geister_test

import (
	"context"
	"fmt"

	"github.com/botarena/botarena/geister"
)

// A bot that escapes when it can, captures when it can, and otherwise makes
// its first legal move. It sees only its View, in its own frame: its ghosts
// move North whichever seat it has. Its Setup, from PlayerFunc, picks a red
// set at random.
func ExamplePlayerFunc() {
	var bot geister.Player = geister.PlayerFunc(func(ctx context.Context, v geister.View) (geister.Move, error) {
		moves := v.AppendLegalMoves(nil)
		for _, m := range moves {
			if v.IsEscape(m) {
				return m, nil
			}
		}
		for _, m := range moves {
			if _, _, ok := v.Captures(m); ok {
				return m, nil
			}
		}
		return moves[0], nil
	})
	reds, err := bot.Setup(context.Background())
	if err != nil {
		panic(err)
	}
	fmt.Println(reds.Count(), "red ghosts")

	// Fixed red sets, so that the game below is always the same.
	first, _ := geister.ParseReds("ABCD")
	second, _ := geister.ParseReds("EFGH")
	start, _ := geister.Start(first, second)
	g := geister.NewGame(geister.GAT, start)
	for range 6 {
		v := g.View(g.Turn())
		m, err := bot.Play(context.Background(), v)
		if err != nil {
			panic(err)
		}
		fmt.Println(g.Turn(), m, "to", v.Target(m))
		if err := g.Play(m); err != nil {
			panic(err)
		}
	}
	// Output:
	// 4 red ghosts
	// first A,NORTH to 13
	// second A,NORTH to 13
	// first A,NORTH to 12
	// second D,NORTH to 43
	// first B,NORTH to 23
	// second A,NORTH to 12
}

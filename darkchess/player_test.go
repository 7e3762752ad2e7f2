package darkchess_test

import (
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/botarena/botarena/darkchess"
)

// A bot that captures when it can and otherwise turns over the first
// face-down piece (or makes its first move). It sees only its View: the
// face-down pieces stay hidden from it.
func ExamplePlayerFunc() {
	var bot darkchess.Player = darkchess.PlayerFunc(func(ctx context.Context, v darkchess.View) (darkchess.Move, error) {
		moves := v.AppendLegalMoves(nil)
		for _, m := range moves {
			if v.Position().IsCapture(m) {
				return m, nil
			}
		}
		for _, m := range moves {
			if m.IsFlip() {
				return m, nil
			}
		}
		return moves[0], nil
	})
	g := darkchess.NewGame(darkchess.DefaultRules, rand.New(rand.NewPCG(2026, 1)))
	for range 8 {
		m, err := bot.Play(context.Background(), g.View(g.Turn()))
		if err != nil {
			panic(err)
		}
		if err := g.Play(m); err != nil {
			panic(err)
		}
	}
	fmt.Println(g.Plies())
	// Output:
	// [a1(g) b1(R) a1-b1 c1(P) b1-c1 d1(c) a2(G) b2(m)]
}

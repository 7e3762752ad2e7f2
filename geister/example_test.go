package geister_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/botarena/botarena/geister"
)

func Example() {
	// Both players choose their red ghosts; the referee starts the game.
	first, _ := geister.ParseReds("SET:BCDE")
	second, _ := geister.ParseReds("EFGH")
	start, _ := geister.Start(first, second)
	g := geister.NewGame(geister.GAT, start)

	// Each player is sent its own view and answers with a move in its own
	// frame.
	for _, text := range []string{"MOV:H,EAST", "MOV:H,EAST", "MOV:H,NORTH", "MOV:A,WEST"} {
		fmt.Println(g.View(g.Turn()))
		m, err := geister.ParseMove(text)
		if err != nil {
			panic(err)
		}
		if err := g.Play(m); err != nil {
			panic(err)
		}
	}
	fmt.Print(g.Position().Diagram())
	// Output:
	// 14B24R34R44R15R25B35B45B41u31u21u11u40u30u20u10u
	// 14B24B34B44B15R25R35R45R41u31u21u11u40u30u20u00u
	// 14B24R34R44R15R25B35B55B41u31u21u11u40u30u20u00u
	// 14B24B34B44B15R25R35R55R41u31u21u11u40u30u20u01u
	//   0 1 2 3 4 5
	// 0 h . g f e .
	// 1 . d c b . a
	// 2 . . . . . .
	// 3 . . . . . .
	// 4 . A B C D H
	// 5 . E F G . .
	// first: reds BCDE, lost 0 red 0 blue
	// second: reds EFGH, lost 0 red 0 blue
	// ply 4, first to move
}

func ExamplePosition_AppendLegalMoves() {
	// The first player's blue A stands on its exit (0,0): the escape is
	// listed as A,WEST; A,NORTH is accepted for it too.
	p, _ := geister.ParsePosition("00B24B34B44B15R25R35R45R42r31r21r11r40b30b20b10b 10")
	var buf [32]geister.Move
	fmt.Println(p.AppendLegalMoves(buf[:0]))
	north := geister.NewMove(geister.A, geister.North)
	fmt.Println(p.IsEscape(north), p.Normalize(north))
	q, _ := p.Play(north)
	fmt.Println(q.Result())
	// Output:
	// [A,EAST A,WEST A,SOUTH B,NORTH B,WEST C,NORTH D,NORTH D,EAST E,NORTH E,WEST H,EAST]
	// true A,WEST
	// first wins (ChessEscape)
}

func ExampleParseMove() {
	for _, text := range []string{"MOV:A,NORTH", "a,s", "H,East", "MOV:A,UP"} {
		m, err := geister.ParseMove(text)
		fmt.Println(m, err)
	}
	// Output:
	// A,NORTH <nil>
	// A,SOUTH <nil>
	// H,EAST <nil>
	// none geister: the direction must be NORTH, EAST, WEST or SOUTH (or N, E, W, S) at offset 6 of "MOV:A,UP"
}

func ExampleRedsAt() {
	for _, i := range []int{0, 35, 69} {
		r := geister.RedsAt(i)
		fmt.Println(i, r, r.Index())
	}
	// Output:
	// 0 ABCD 0
	// 35 BCDE 35
	// 69 EFGH 69
}

func ExamplePosition_View() {
	start, _ := geister.Start(geister.RedsAt(35), geister.RedsAt(0))
	p, _ := start.Play(geister.NewMove(geister.H, geister.East))
	// The second player sees the first player's H, moved east, on (0,0) of
	// its own frame, colour unknown.
	v := p.View(geister.Second)
	fmt.Println(v)
	fmt.Println(v.Square(geister.First, geister.H), v.GhostColor(geister.First, geister.H))
	// Output:
	// 14R24R34R44R15B25B35B45B41u31u21u11u40u30u20u00u
	// 00 unknown
}

func ExampleDeterminize() {
	// A search bot reads its MOV? board: the opponent has lost its red d,
	// so 3 of its 7 other ghosts are red, C(7,3) = 35 ways.
	v, _ := geister.ParseView("11B24B34B44B15R25R35R45R42u31u21u99r40u30u20u10u", geister.First, 8)
	rng := rand.New(rand.NewPCG(1, 2))
	seen := map[geister.Reds]bool{}
	consistent := true
	for range 2000 {
		p := geister.Determinize(v, rng)
		seen[p.Reds(geister.Second)] = true
		consistent = consistent && p.View(geister.First) == v && p.Reds(geister.Second).Has(geister.D)
	}
	fmt.Println(len(seen), consistent)
	// Output:
	// 35 true
}

func ExamplePerft() {
	start, _ := geister.Start(geister.RedsAt(0), geister.RedsAt(69))
	for d := 1; d <= 6; d++ {
		fmt.Println(d, geister.Perft(start, d))
	}
	// Output:
	// 1 8
	// 2 64
	// 3 768
	// 4 9200
	// 5 118488
	// 6 1523518
}

func ExampleDivide() {
	start, _ := geister.Start(geister.RedsAt(0), geister.RedsAt(69))
	for _, line := range geister.Divide(start, 4) {
		fmt.Println(line.Move, line.Leaves)
	}
	// Output:
	// A,NORTH 1148
	// A,WEST 1056
	// B,NORTH 1340
	// C,NORTH 1340
	// D,NORTH 1148
	// D,EAST 1056
	// E,WEST 1056
	// H,EAST 1056
}

func ExampleGame_Reject() {
	start, _ := geister.Start(geister.RedsAt(0), geister.RedsAt(0))
	g := geister.NewGame(geister.GAT, start)
	// The first player sends A,SOUTH into its own E: refused, and under
	// GAT's policy it loses.
	err := g.Play(geister.NewMove(geister.A, geister.South))
	fmt.Println(err)
	g.Reject()
	r, _ := g.Result()
	fmt.Println(r)
	// Output:
	// geister: A,SOUTH for the first player: own ghost E is on the target square
	// second wins (IllegalMove)
}

func ExampleGame_Forfeit() {
	start, _ := geister.Start(geister.RedsAt(0), geister.RedsAt(0))
	g := geister.NewGame(geister.NTPU, start)
	_ = g.Play(geister.NewMove(geister.A, geister.North))
	_ = g.Forfeit(geister.Second, geister.TimeOut) // the second player's clock ran out
	r, _ := g.Result()
	first, second := r.Score()
	fmt.Println(r, first, second)
	// Output:
	// first wins (TimeOut) 1 0
}

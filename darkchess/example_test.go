package darkchess_test

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/botarena/botarena/darkchess"
)

// A referee: the game deals the face-down pieces from a seeded source, every
// flip reveals the deal's piece, and the plies are recorded with it.
func Example() {
	g := darkchess.NewGame(darkchess.DefaultRules, rand.New(rand.NewPCG(2026, 1)))
	for _, text := range []string{"b7", "c7", "b6", "c6", "b6-c6", "c7-c6"} {
		m, err := darkchess.ParseMove(text)
		if err != nil {
			panic(err)
		}
		if err := g.Play(m); err != nil {
			fmt.Println(err)
		}
	}
	fmt.Println(g.Plies(), "first player:", g.FirstColor())
	fmt.Print(g.Position().Diagram())
	// Output:
	// darkchess: c7-c6 for red: a cannon captures by jumping over exactly one piece
	// [b7(r) c7(C) b6(g) c6(P) b6-c6] first player: black
	//    a b c d
	//  8 X X X X
	//  7 X r C X
	//  6 X . g X
	//  5 X X X X
	//  4 X X X X
	//  3 X X X X
	//  2 X X X X
	//  1 X X X X
	// red to move, quiet 0, face-down K1 G2 M2 R2 N2 C1 P4 k1 g1 m2 r1 n2 c2 p5
}

// Replaying a record: a game without a deal takes every flip as a ply naming
// its piece. This is records/alsov4/85 of the test data, drawn by repetition
// right after its 28th ply under the 2021 rules.
func ExampleGame_PlayPly() {
	record := `b8(C) c8(C) c6(p) c7(G) c8-c6 c5(k) b7(g) b7-c7 c4(G) c7-c6 b5(P) c5-c4 b8-c8 c6-c5
		c8-c7 c5-b5 c7-b7 b5-c5 b7-c7 c5-b5 c7-b7 b5-c5 b7-c7 c5-b5 c7-b7 b5-c5 b7-c7 c5-b5`
	g := darkchess.NewGame(darkchess.NTU2021, nil)
	for _, text := range strings.Fields(record) {
		ply, err := darkchess.ParsePly(text)
		if err != nil {
			panic(err)
		}
		if err := g.PlayPly(ply); err != nil {
			fmt.Println(err)
			break
		}
	}
	r, _ := g.Result()
	fmt.Println(g.Ply(), r)
	// Output:
	// 28 draw (PositionRepetitionDraw,3,4)
}

func ExamplePosition_AppendLegalMoves() {
	// Red's cannon on b3 jumps the face-down b6 onto black's king, and black's
	// rook on c3 onto its guard; it never captures by a step.
	p, err := darkchess.ParsePosition("-k--/----/-X--/----/----/-Crg/-p--/---- r 00000000010000 0")
	if err != nil {
		panic(err)
	}
	var buf [darkchess.MaxMoves]darkchess.Move
	for _, m := range p.AppendLegalMoves(buf[:0]) {
		fmt.Print(m, " ")
	}
	fmt.Println()
	// Output:
	// b3-a3 b3-d3 b3-b4 b3-b8 b6-b6
}

func ExampleParsePosition() {
	p, err := darkchess.ParsePosition("P-P-/-K-g/-R--/-mp-/r-c-/c-PP/gk--/---- b 00000000000000 0")
	if err != nil {
		panic(err)
	}
	fmt.Println(p.Turn(), p.Count(darkchess.Red), p.Count(darkchess.Black), p.At(darkchess.B7))
	_, err = darkchess.ParsePosition("P-P-/-K-g/-R--/-mp-/r-c-/c-PP/gk--/---? b 00000000000000 0")
	fmt.Println(err)
	// Output:
	// black 6 8 K
	// darkchess: bad square: a square is a piece letter, X or - at offset 38 of "P-P-/-K-g/-R--/-mp-/r-c-/c-PP/gk--/---? b 00000000000000 0"
}

func ExamplePosition_Deal() {
	p := darkchess.Opening.Deal(rand.New(rand.NewPCG(1, 0)))
	fmt.Println(p)
	fmt.Println(p.View(darkchess.Red))
	// Output:
	// XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXXX - 12222251222225 0 KrGM/cpPm/GCpN/MPpp/mPnc/CPRP/nggN/kRrp
	// XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXXX - 12222251222225 0
}

// A bot sees a View: no deal, so a flip comes back as a ply naming its piece.
func ExampleView_Play() {
	v := darkchess.Opening.View(darkchess.NoColor)
	v, err := v.Play(darkchess.Ply{Move: darkchess.Flip(darkchess.A1), Piece: darkchess.BlackCannon})
	fmt.Println(v, err)
	_, err = v.Play(darkchess.Ply{Move: darkchess.Flip(darkchess.A2)})
	fmt.Println(err)
	// Output:
	// XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/cXXX r 12222251222215 0 <nil>
	// darkchess: a2-a2 for red: the piece under a2 is unknown
}

func ExamplePerft() {
	p, err := darkchess.ParsePosition("XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXXX - 12222251222225 0 PmRc/MRpP/MrnK/Pknp/rCpC/GgPP/GpNN/gmpc")
	if err != nil {
		panic(err)
	}
	for d := 1; d <= 3; d++ {
		fmt.Println(d, darkchess.Perft(p, d), darkchess.PerftChance(p.View(darkchess.Red), d))
	}
	// Output:
	// 1 32 448
	// 2 992 192448
	// 3 29794 78989568
}

func ExampleDivide() {
	p, err := darkchess.ParsePosition("PgXP/-g-G/-X-M/XNXm/N-Xc/--PK/X---/Pm-P b 01020101000001 0 ..R./..../.k../R.p./..G./..../C.../....")
	if err != nil {
		panic(err)
	}
	for _, line := range darkchess.Divide(p, 3)[:4] {
		fmt.Println(line.Move, line.Leaves)
	}
	// Output:
	// b1-a1 261
	// b1-c1 299
	// b1-b2 315
	// a2-a2 295
}

func ExampleGame_Forfeit() {
	g := darkchess.NewGame(darkchess.Classic, rand.New(rand.NewPCG(7, 7)))
	_ = g.Play(darkchess.Flip(darkchess.C4))
	_ = g.Forfeit(g.Turn(), darkchess.TimeOut) // the second player let its clock run out
	r, _ := g.Result()
	fmt.Println(g.Plies(), r)
	// Output:
	// [c4(P)] red wins (TimeOut)
}

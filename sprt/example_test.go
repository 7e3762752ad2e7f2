package sprt_test

import (
	"fmt"

	"github.com/botarena/botarena/sprt"
)

// A test of "B is at least 5 normalized Elo stronger than A" fed pair by
// pair, as a match runner would: stop when the verdict is no longer
// Continue.
func Example() {
	test, err := sprt.Parse("elo0=0,elo1=5,alpha=0.05,beta=0.05")
	if err != nil {
		fmt.Println(err)
		return
	}
	lower, upper := test.Bounds()
	var pairs sprt.Pentanomial
	// B's results in each pair of games (the second game with the seats
	// swapped): a clearly stronger B wins most pairs.
	results := [][2]sprt.Result{{sprt.Win, sprt.Win}, {sprt.Win, sprt.Draw}, {sprt.Win, sprt.Loss}}
	for i := 0; ; i++ {
		r := results[i%len(results)]
		pairs.Add(r[0], r[1])
		llr := test.LLR(pairs)
		if v := test.Verdict(llr); v != sprt.Continue {
			fmt.Printf("after %d pairs: llr %.2f (%.2f, %.2f): %v\n", pairs.Pairs(), llr, lower, upper, v)
			break
		}
	}
	fmt.Println("Ptnml(0-2):", pairs)
	// Output:
	// after 208 pairs: llr 2.96 (-2.94, 2.94): H1 accepted
	// Ptnml(0-2): [0 0 69 69 70]
}

func ExampleTest_LLR() {
	test := sprt.Test{Elo0: 0, Elo1: 2, Alpha: 0.05, Beta: 0.05, Model: sprt.Normalized}
	// Pairs scoring 0, ½, 1, 1½ and 2 points.
	fmt.Printf("%.2f\n", test.LLR(sprt.Pentanomial{365, 16618, 36229, 16974, 390}))
	test.Model = sprt.Logistic
	fmt.Printf("%.2f\n", test.LLR(sprt.Pentanomial{871, 26175, 55983, 26678, 821}))
	// Output:
	// 2.25
	// -4.98
}

func ExamplePentanomial_Estimate() {
	e := sprt.Pentanomial{34, 54, 63, 64, 75}.Estimate()
	fmt.Printf("score %.3f, Elo %+.1f ± %.1f, normalized Elo %+.1f ± %.1f\n", e.Score, e.Elo, e.Margin, e.NormalizedElo, e.NormalizedMargin)
	// Output:
	// score 0.579, Elo +55.6 ± 27.7, normalized Elo +57.9 ± 28.3
}

func ExampleParse() {
	_, err := sprt.Parse("elo0=0,elo1=five")
	fmt.Println(err)
	test, _ := sprt.Parse("elo0=-1.75 elo1=0.25 model=logistic")
	fmt.Println(test)
	// Output:
	// sprt: "elo1=five": "five" is not a number
	// elo0=-1.75,elo1=0.25,alpha=0.05,beta=0.05,model=logistic
}

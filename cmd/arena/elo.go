package main

import (
	"fmt"
	"math"

	"github.com/botarena/botarena/sprt"
)

// tally counts one player's games against an opponent or a field.
type tally struct {
	Wins, Draws, Losses int
}

// games is the number of games counted.
func (t tally) games() int { return t.Wins + t.Draws + t.Losses }

// points is the score: a win counts 1, a draw ½.
func (t tally) points() float64 { return float64(t.Wins) + float64(t.Draws)/2 }

// add counts a game from this player's side: +1 a win, 0 a draw, -1 a loss.
func (t *tally) add(outcome int) {
	switch {
	case outcome > 0:
		t.Wins++
	case outcome < 0:
		t.Losses++
	default:
		t.Draws++
	}
}

// eloDiff is the Elo difference of a player over its opponents implied by
// its score, with the half-width of its 95% confidence interval, as
// cutechess-cli computes it (sprt.Trinomial's Estimate): the score's
// standard error from the per-game variance of the win/draw/loss outcomes,
// the interval's ends turned into Elo and halved. A score of 0 or 1 gives
// an infinite difference; no games gives NaN for both.
func (t tally) eloDiff() (diff, margin float64) {
	e := sprt.Trinomial{t.Losses, t.Draws, t.Wins}.Estimate()
	return e.Elo, e.Margin
}

// formatElo writes an Elo difference and its margin: "+190.8 ± 150.2 (95%)".
func formatElo(diff, margin float64) string {
	switch {
	case math.IsNaN(diff):
		return "n/a"
	case math.IsInf(diff, 1):
		return "+inf (no game lost)"
	case math.IsInf(diff, -1):
		return "-inf (no game won)"
	case math.IsInf(margin, 0) || math.IsNaN(margin):
		return fmt.Sprintf("%+.1f ± inf (95%%)", diff)
	}
	return fmt.Sprintf("%+.1f ± %.1f (95%%)", diff, margin)
}

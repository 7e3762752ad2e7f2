package main

import (
	"fmt"
	"math"
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
// its score, with the half-width of its 95% confidence interval, computed as
// cutechess-cli does: the score's standard error from the per-game
// variance of the win/draw/loss outcomes, the interval's ends turned into Elo
// and halved. A score of 0 or 1 gives an infinite difference, and an interval
// reaching 0 or 1 an infinite margin; no games gives NaN for both.
func (t tally) eloDiff() (diff, margin float64) {
	n := float64(t.games())
	if n == 0 {
		return math.NaN(), math.NaN()
	}
	s := t.points() / n
	w, d, l := float64(t.Wins)/n, float64(t.Draws)/n, float64(t.Losses)/n
	variance := w*(1-s)*(1-s) + d*(0.5-s)*(0.5-s) + l*s*s
	se := math.Sqrt(variance / n)
	const z95 = 1.959963984540054
	lo, hi := s-z95*se, s+z95*se
	return eloOf(s), (eloOf(hi) - eloOf(lo)) / 2
}

// eloOf is the Elo difference at which the expected score is s.
func eloOf(s float64) float64 {
	switch {
	case s <= 0:
		return math.Inf(-1)
	case s >= 1:
		return math.Inf(1)
	}
	return -400*math.Log10(1/s-1) + 0 // + 0 turns -0 into 0
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

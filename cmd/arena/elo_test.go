package main

import (
	"math"
	"testing"
)

// TestEloDiff checks the Elo difference and its error bar against values
// computed by hand from the formulas (cutechess-cli's).
func TestEloDiff(t *testing.T) {
	for _, tt := range []struct {
		t            tally
		diff, margin float64
		text         string
	}{
		// s = 0.5: no difference; variance 0.25 per game.
		{tally{Wins: 50, Losses: 50}, 0, 69.0, "+0.0 ± 69.0 (95%)"},
		// s = 0.75, w=0.7 d=0.1 l=0.2: var = .7*.0625+.1*.0625+.2*.5625 = .1625.
		{tally{Wins: 70, Draws: 10, Losses: 20}, 190.8, 75.2, "+190.8 ± 75.2 (95%)"},
		{tally{Wins: 3}, math.Inf(1), math.NaN(), "+inf (no game lost)"},
		{tally{Losses: 2, Draws: 0}, math.Inf(-1), math.NaN(), "-inf (no game won)"},
		{tally{}, math.NaN(), math.NaN(), "n/a"},
	} {
		d, m := tt.t.eloDiff()
		if got := formatElo(d, m); got != tt.text {
			t.Errorf("%+v: %q, want %q", tt.t, got, tt.text)
		}
		if !math.IsNaN(tt.diff) && math.Abs(d-tt.diff) > 0.05 && !math.IsInf(tt.diff, 0) {
			t.Errorf("%+v: diff %v, want %v", tt.t, d, tt.diff)
		}
		if !math.IsNaN(tt.margin) && math.Abs(m-tt.margin) > 0.05 {
			t.Errorf("%+v: margin %v, want %v", tt.t, m, tt.margin)
		}
	}
}

// TestEloSymmetry: the loser's view is the winner's negated.
func TestEloSymmetry(t *testing.T) {
	a := tally{Wins: 12, Draws: 5, Losses: 7}
	b := tally{Wins: 7, Draws: 5, Losses: 12}
	da, ma := a.eloDiff()
	db, mb := b.eloDiff()
	if math.Abs(da+db) > 1e-9 || math.Abs(ma-mb) > 1e-9 {
		t.Errorf("%v±%v vs %v±%v", da, ma, db, mb)
	}
}

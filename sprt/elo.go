package sprt

import "math"

// z95 is the standard normal quantile of 0.975: a 95% interval is the
// estimate ± z95 standard errors.
const z95 = 1.959963984540054

// LogisticScore is the expected score of a player elo logistic Elo above
// its opponent: 1/(1+10^(-elo/400)).
func LogisticScore(elo float64) float64 {
	return 1 / (1 + math.Pow(10, -elo/400))
}

// LogisticElo is the logistic Elo difference at which the expected score is
// score: -400·log10(1/score - 1); -Inf at 0 and below, +Inf at 1 and above,
// NaN for NaN.
func LogisticElo(score float64) float64 {
	switch {
	case score <= 0:
		return math.Inf(-1)
	case score >= 1:
		return math.Inf(1)
	}
	return -400*math.Log10(1/score-1) + 0 // + 0 turns -0 into 0
}

// NormalizedElo is the normalized Elo of a mean score per game with
// standard deviation sigma per game: (score - ½)/sigma · 800/ln 10. A
// sigma of 0 gives 0 at a score of ½ and ±Inf elsewhere.
func NormalizedElo(score, sigma float64) float64 {
	if !(sigma > 0) {
		switch {
		case score > 0.5:
			return math.Inf(1)
		case score < 0.5:
			return math.Inf(-1)
		case score == 0.5:
			return 0
		}
		return math.NaN()
	}
	return (score-0.5)/sigma*eloPerT + 0
}

// NormalizedScore is the inverse of NormalizedElo: the mean score per game
// at normalized Elo nelo when a game's score has standard deviation sigma.
func NormalizedScore(nelo, sigma float64) float64 {
	return 0.5 + nelo/eloPerT*sigma
}

// An Estimate is the Elo difference of the player whose results are
// counted over its opponent, on both scales, each with the half-width of
// its 95% confidence interval. With no results every field is NaN; a
// score of 0 or 1 (every game lost or won) gives an infinite Elo, and an
// interval reaching a score of 0 or 1 an infinite margin.
type Estimate struct {
	Score  float64 // the mean score per game, from 0 to 1
	Elo    float64 // logistic Elo
	Margin float64 // the 95% interval of Elo is Elo ± Margin
	// NormalizedElo and NormalizedMargin are the same on the normalized
	// scale. Results without variance (every pair worth the same) give 0
	// at a score of ½ and ±Inf elsewhere, with a margin of 0.
	NormalizedElo    float64
	NormalizedMargin float64
}

// Estimate is the Elo estimate from pairs, as fishtest (stat_util.get_elo)
// and fastchess compute it: the mean score with its standard error from
// the variance between pairs (which, unlike the variance between games,
// takes what the two games of a pair share into account), the interval's
// ends turned into Elo and halved. Counts are not regularized here.
func (p Pentanomial) Estimate() Estimate { return estimate(p[:], 2) }

// Estimate is the Elo estimate from single games (cutechess-cli's).
func (t Trinomial) Estimate() Estimate { return estimate(t[:], 1) }

// estimate is the estimate from counts of samples of k games each.
func estimate(counts []int, k int) Estimate {
	n := 0.0
	for _, c := range counts {
		n += float64(max(c, 0))
	}
	if n == 0 {
		nan := math.NaN()
		return Estimate{nan, nan, nan, nan, nan}
	}
	last := float64(len(counts) - 1)
	mu := 0.0
	for i, c := range counts {
		mu += float64(max(c, 0)) / n * float64(i) / last
	}
	variance := 0.0
	for i, c := range counts {
		d := float64(i)/last - mu
		variance += float64(max(c, 0)) / n * d * d
	}
	se := math.Sqrt(variance / n)
	lo, hi := mu-z95*se, mu+z95*se
	e := Estimate{Score: mu, Elo: LogisticElo(mu)}
	e.Margin = (LogisticElo(hi) - LogisticElo(lo)) / 2
	if se == 0 {
		e.Margin = 0 // not Inf - Inf at a score of 0 or 1
	}
	// A game's standard deviation: a sample's is that of the mean of k
	// games.
	sigma := math.Sqrt(float64(k) * variance)
	e.NormalizedElo = NormalizedElo(mu, sigma)
	e.NormalizedMargin = 0
	if sigma > 0 {
		e.NormalizedMargin = (NormalizedElo(hi, sigma) - NormalizedElo(lo, sigma)) / 2
	}
	return e
}

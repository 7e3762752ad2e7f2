package sprt

import "math"

// The generalized log-likelihood ratio of fishtest (server/fishtest/stats/
// LLRcalc.py, after M. Van den Bergh's notes "Comments on normalized Elo"
// and "A note on the MLE for a multinomial distribution with a constraint").
//
// A result is a distribution over the outcomes of one sample (a game: score
// 0, ½ or 1; a pair of games: 0, ¼, ½, ¾ or 1 of the two games' points). The
// log-likelihood ratio of H1 against H0 is the likelihood of the data under
// the most likely distribution satisfying H1's constraint over that under
// the most likely one satisfying H0's, both found by Lagrange multipliers
// (a "secular equation" in one unknown).

// maxOutcomes is the number of outcomes of the largest model (pentanomial).
const maxOutcomes = 5

// regularization is the count that stands for an outcome never seen, as in
// fishtest's LLRcalc.regularize: without it the MLE could not move mass to
// that outcome and the secular equation would have no root.
const regularization = 1e-3

// dist is a distribution over n equally spaced outcomes from 0 to 1.
type dist struct {
	n     int
	score [maxOutcomes]float64 // the outcome's score: i/(n-1)
	p     [maxOutcomes]float64 // its probability
}

// newDist turns counts into the empirical distribution with zero counts
// regularized; total is the regularized number of samples.
func newDist(counts []int) (d dist, total float64) {
	d.n = len(counts)
	for i, c := range counts {
		v := float64(c)
		if c <= 0 {
			v = regularization
		}
		d.p[i] = v
		total += v
		d.score[i] = float64(i) / float64(d.n-1)
	}
	for i := range d.n {
		d.p[i] /= total
	}
	return d, total
}

// stats returns the mean and variance of the outcome's score under p.
func (d *dist) stats(p *[maxOutcomes]float64) (mu, variance float64) {
	for i := range d.n {
		mu += p[i] * d.score[i]
	}
	for i := range d.n {
		variance += p[i] * (d.score[i] - mu) * (d.score[i] - mu)
	}
	return mu, variance
}

// secular solves Σ pᵢaᵢ/(1+x·aᵢ) = 0 for x between -1/max a and -1/min a,
// where the left side falls from +∞ to -∞. ok is false when the a do not
// change sign (no such interval).
func secular(n int, p, a *[maxOutcomes]float64) (x float64, ok bool) {
	lo, hi := math.Inf(1), math.Inf(-1)
	for i := range n {
		lo, hi = min(lo, a[i]), max(hi, a[i])
	}
	if !(lo < 0 && hi > 0) {
		return 0, false
	}
	f := func(x float64) float64 {
		s := 0.0
		for i := range n {
			s += p[i] * a[i] / (1 + x*a[i])
		}
		return s
	}
	// f is decreasing (its derivative is -Σ pᵢaᵢ²/(1+x·aᵢ)²): bisection
	// until the interval stops shrinking.
	left, right := -1/hi, -1/lo
	for range 200 {
		mid := left + (right-left)/2
		if mid <= left || mid >= right {
			break
		}
		if f(mid) > 0 {
			left = mid
		} else {
			right = mid
		}
	}
	return left + (right-left)/2, true
}

// mleMean is the most likely distribution, given the empirical d, whose
// mean score is s (fishtest's MLE_expected). ok is false when s is not
// strictly between the lowest and highest score.
func (d *dist) mleMean(s float64) (q [maxOutcomes]float64, ok bool) {
	var a [maxOutcomes]float64
	for i := range d.n {
		a[i] = d.score[i] - s
	}
	x, ok := secular(d.n, &d.p, &a)
	if !ok {
		return q, false
	}
	for i := range d.n {
		q[i] = d.p[i] / (1 + x*a[i])
	}
	return q, true
}

// mleT is the most likely distribution, given the empirical d, whose
// t-value (mean-ref)/sigma is t (fishtest's MLE_t_value: a fixed-point
// iteration from the uniform distribution, each step the MLE under the
// constraint linearized at the previous step). ok is false when a step's
// linearized constraint cannot be met.
func (d *dist) mleT(ref, t float64) (q [maxOutcomes]float64, ok bool) {
	for i := range d.n {
		q[i] = 1 / float64(d.n)
	}
	for range 10 {
		mu, variance := d.stats(&q)
		sigma := math.Sqrt(variance)
		if !(sigma > 0) {
			return q, false
		}
		var a [maxOutcomes]float64
		for i := range d.n {
			z := (mu - d.score[i]) / sigma
			a[i] = d.score[i] - ref - t*sigma*(1+z*z)/2
		}
		x, ok := secular(d.n, &d.p, &a)
		if !ok {
			return q, false
		}
		change := 0.0
		for i := range d.n {
			next := d.p[i] / (1 + x*a[i])
			change = max(change, math.Abs(next-q[i]))
			q[i] = next
		}
		if change < 1e-9 {
			break
		}
	}
	return q, true
}

// llr is total·Σ p̂ᵢ·log(q1ᵢ/q0ᵢ): the log-likelihood ratio of the data
// under q1 over q0.
func (d *dist) llr(total float64, q0, q1 *[maxOutcomes]float64) float64 {
	s := 0.0
	for i := range d.n {
		s += d.p[i] * (math.Log(q1[i]) - math.Log(q0[i]))
	}
	return total * s
}

// llrLogistic is fishtest's LLR_logistic: H0 and H1 say the expected score
// of a sample is s0 and s1.
func llrLogistic(counts []int, s0, s1 float64) float64 {
	d, total := newDist(counts)
	q0, ok0 := d.mleMean(s0)
	q1, ok1 := d.mleMean(s1)
	if !ok0 || !ok1 {
		return llrMeanApprox(&d, total, s0, s1)
	}
	return d.llr(total, &q0, &q1)
}

// llrMeanApprox is fishtest's LLR_alt2, the Brownian approximation of the
// logistic LLR, for scores the exact MLE cannot reach.
func llrMeanApprox(d *dist, total, s0, s1 float64) float64 {
	mu, variance := d.stats(&d.p)
	if !(variance > 0) {
		return 0
	}
	return total * (s1 - s0) * (2*mu - s0 - s1) / variance / 2
}

// llrNormalized is fishtest's LLR_normalized: H0 and H1 say the t-value
// (mean-½)/sigma of a sample is t0 and t1.
func llrNormalized(counts []int, t0, t1 float64) float64 {
	d, total := newDist(counts)
	q0, ok0 := d.mleT(0.5, t0)
	q1, ok1 := d.mleT(0.5, t1)
	if !ok0 || !ok1 {
		return llrTApprox(&d, total, t0, t1, len(counts)/2)
	}
	return d.llr(total, &q0, &q1)
}

// llrTApprox is the approximation of the normalized LLR in section 4.2 of
// "Comments on normalized Elo" (fishtest's LLR_normalized_alt), for the
// rare data on which the exact iteration fails. t0 and t1 are t-values of
// a sample of k games (1 or 2); the approximation works in games.
func llrTApprox(d *dist, total, t0, t1 float64, k int) float64 {
	mu, variance := d.stats(&d.p)
	if !(variance > 0) {
		return 0
	}
	root := math.Sqrt(float64(k))
	t := (mu - 0.5) / math.Sqrt(variance) / root
	g0, g1 := t0/root, t1/root
	return float64(k) * total / 2 * math.Log((1+(t-g0)*(t-g0))/(1+(t-g1)*(t-g1)))
}

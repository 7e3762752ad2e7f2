package sprt

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// A Result is one game's result for the player whose counts are kept, in
// half points.
type Result int

// The results of a game.
const (
	Loss Result = 0
	Draw Result = 1
	Win  Result = 2
)

// valid reports whether r is Loss, Draw or Win.
func (r Result) valid() bool { return r >= Loss && r <= Win }

// Pentanomial counts game pairs, the two games of a pair played from the
// same start with the seats swapped, by the points one player took from
// the pair: index i counts the pairs worth i/2 points (0, ½, 1, 1½, 2).
// fishtest and cutechess-cli write it "Ptnml(0-2)".
type Pentanomial [5]int

// Add counts a pair in which the player's results were first and second;
// it reports false, counting nothing, if either is not a Result.
func (p *Pentanomial) Add(first, second Result) bool {
	if !first.valid() || !second.valid() {
		return false
	}
	p[first+second]++
	return true
}

// Pairs is the number of pairs counted.
func (p Pentanomial) Pairs() int { return p[0] + p[1] + p[2] + p[3] + p[4] }

// Reverse is the counts from the opponent's side.
func (p Pentanomial) Reverse() Pentanomial { return Pentanomial{p[4], p[3], p[2], p[1], p[0]} }

// Trinomial counts single games by their result for one player: losses,
// draws and wins, in that order (index i: i/2 points).
type Trinomial [3]int

// Add counts a game; it reports false, counting nothing, if r is not a
// Result.
func (t *Trinomial) Add(r Result) bool {
	if !r.valid() {
		return false
	}
	t[r]++
	return true
}

// Games is the number of games counted.
func (t Trinomial) Games() int { return t[0] + t[1] + t[2] }

// Reverse is the counts from the opponent's side.
func (t Trinomial) Reverse() Trinomial { return Trinomial{t[2], t[1], t[0]} }

// A Model is the Elo scale a Test's Elo0 and Elo1 are on.
type Model int

const (
	// Normalized Elo (fishtest's default since 2022): the Elo difference
	// is a t-value, (score - ½) / (the standard deviation of a game's
	// score), times 800/ln 10. A test's expected length in games then
	// depends on Elo1-Elo0 alone, not on how drawish the game is or how
	// the openings are balanced, so the same bounds serve every game.
	Normalized Model = iota
	// Logistic Elo: the classic scale, the expected score being
	// 1/(1+10^(-Elo/400)).
	Logistic
)

// String is "normalized" or "logistic".
func (m Model) String() string {
	switch m {
	case Normalized:
		return "normalized"
	case Logistic:
		return "logistic"
	}
	return "Model(" + strconv.Itoa(int(m)) + ")"
}

// MaxElo bounds the Elo of a test's hypotheses: beyond it a logistic score
// rounds to 0 or 1 and a normalized t-value leaves the range the MLE
// iteration handles.
const MaxElo = 1000

// A Test is a sequential probability ratio test of H0: Elo = Elo0 against
// H1: Elo = Elo1, the Elo of the player whose results are counted over its
// opponent, on the scale Model, with a false positive rate (accepting H1
// when H0 holds) of at most Alpha and a false negative rate of at most Beta.
// The zero Model is Normalized.
type Test struct {
	Elo0, Elo1  float64
	Alpha, Beta float64
	Model       Model
}

// Validate reports what is wrong with t: Elo0 must be below Elo1, both
// within ±MaxElo, and Alpha and Beta above 0 with Alpha+Beta below 1.
func (t Test) Validate() error {
	switch {
	case !(math.Abs(t.Elo0) <= MaxElo):
		return fmt.Errorf("elo0=%g: outside ±%d", t.Elo0, MaxElo)
	case !(math.Abs(t.Elo1) <= MaxElo):
		return fmt.Errorf("elo1=%g: outside ±%d", t.Elo1, MaxElo)
	case !(t.Elo0 < t.Elo1):
		return fmt.Errorf("elo0=%g, elo1=%g: elo0 must be below elo1", t.Elo0, t.Elo1)
	case !(t.Alpha > 0 && t.Alpha < 1):
		return fmt.Errorf("alpha=%g: a probability between 0 and 1 (exclusive)", t.Alpha)
	case !(t.Beta > 0 && t.Beta < 1):
		return fmt.Errorf("beta=%g: a probability between 0 and 1 (exclusive)", t.Beta)
	case !(t.Alpha+t.Beta < 1):
		return fmt.Errorf("alpha=%g, beta=%g: their sum must be below 1", t.Alpha, t.Beta)
	case t.Model != Normalized && t.Model != Logistic:
		return fmt.Errorf("model %v: unknown", t.Model)
	}
	return nil
}

// Bounds returns the LLR bounds of Wald's test: ln(β/(1-α)) below, at
// which H0 is accepted, and ln((1-β)/α) above, at which H1 is. For
// α = β = 0.05 they are ∓2.944.
func (t Test) Bounds() (lower, upper float64) {
	return math.Log(t.Beta / (1 - t.Alpha)), math.Log((1 - t.Beta) / t.Alpha)
}

// eloPerT is how many normalized Elo one unit of t-value per game is:
// 800/ln 10.
const eloPerT = 800 / math.Ln10

// LLR is the generalized log-likelihood ratio of H1 over H0 given the
// pairs p, as fishtest computes it (LLRcalc.LLR_normalized or
// LLR_logistic): the most likely pentanomial distribution under each
// hypothesis, an outcome never seen counted as 0.001 pairs. No pairs give
// 0; an invalid Test gives NaN.
func (t Test) LLR(p Pentanomial) float64 {
	return t.llr(p[:], 2)
}

// LLRTrinomial is LLR for single games (unpaired, or paired games whose
// pairing is unknown): the trinomial model, which overstates the
// information in paired games when openings are unbalanced.
func (t Test) LLRTrinomial(c Trinomial) float64 {
	return t.llr(c[:], 1)
}

// llr is LLR over counts of samples of k games each.
func (t Test) llr(counts []int, k int) float64 {
	if t.Validate() != nil {
		return math.NaN()
	}
	seen := false
	for _, c := range counts {
		seen = seen || c > 0
	}
	if !seen {
		return 0
	}
	if t.Model == Logistic {
		return llrLogistic(counts, LogisticScore(t.Elo0), LogisticScore(t.Elo1))
	}
	// A sample's t-value is the game's times √k: the mean score is the
	// same, the standard deviation of the mean of k games 1/√k of a game's
	// (fishtest's √2 for pentanomial).
	root := math.Sqrt(float64(k))
	return llrNormalized(counts, root*t.Elo0/eloPerT, root*t.Elo1/eloPerT)
}

// A Verdict is where a test stands.
type Verdict int

// The verdicts.
const (
	Continue Verdict = iota // the LLR is between the bounds: play on
	AcceptH0                // the LLR reached the lower bound
	AcceptH1                // the LLR reached the upper bound
)

// String is "continue", "H0 accepted" or "H1 accepted".
func (v Verdict) String() string {
	switch v {
	case Continue:
		return "continue"
	case AcceptH0:
		return "H0 accepted"
	case AcceptH1:
		return "H1 accepted"
	}
	return "Verdict(" + strconv.Itoa(int(v)) + ")"
}

// Verdict is the test's verdict at LLR llr: AcceptH1 at or above the upper
// bound, AcceptH0 at or below the lower one, Continue between them (and for
// NaN).
func (t Test) Verdict(llr float64) Verdict {
	lower, upper := t.Bounds()
	switch {
	case llr >= upper:
		return AcceptH1
	case llr <= lower:
		return AcceptH0
	}
	return Continue
}

// ErrSyntax is wrapped by Parse's errors.
var ErrSyntax = errors.New("sprt")

// Parse reads a test written as cutechess-cli's -sprt option spells it:
// KEY=VALUE parts separated by commas or spaces, the keys elo0 and elo1
// (required), alpha and beta (default 0.05 each) and model (normalized, the
// default, or logistic), as in "elo0=0,elo1=5,alpha=0.05,beta=0.05". The
// error names the part that is wrong.
func Parse(s string) (Test, error) {
	t := Test{Alpha: 0.05, Beta: 0.05, Model: Normalized}
	seen := map[string]bool{}
	parts := strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' })
	for _, part := range parts {
		key, value, ok := strings.Cut(part, "=")
		if !ok {
			return Test{}, fmt.Errorf("%w: %q: not KEY=VALUE (keys: elo0, elo1, alpha, beta, model)", ErrSyntax, part)
		}
		key = strings.ToLower(key)
		if seen[key] {
			return Test{}, fmt.Errorf("%w: %q: %s given twice", ErrSyntax, part, key)
		}
		seen[key] = true
		var dst *float64
		switch key {
		case "elo0":
			dst = &t.Elo0
		case "elo1":
			dst = &t.Elo1
		case "alpha":
			dst = &t.Alpha
		case "beta":
			dst = &t.Beta
		case "model":
			switch strings.ToLower(value) {
			case "normalized", "normalised":
				t.Model = Normalized
			case "logistic":
				t.Model = Logistic
			default:
				return Test{}, fmt.Errorf("%w: %q: model is normalized or logistic", ErrSyntax, part)
			}
			continue
		default:
			return Test{}, fmt.Errorf("%w: %q: unknown key %q (keys: elo0, elo1, alpha, beta, model)", ErrSyntax, part, key)
		}
		v, err := strconv.ParseFloat(value, 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			return Test{}, fmt.Errorf("%w: %q: %q is not a number", ErrSyntax, part, value)
		}
		*dst = v
	}
	for _, key := range []string{"elo0", "elo1"} {
		if !seen[key] {
			return Test{}, fmt.Errorf("%w: %q: no %s (write e.g. elo0=0,elo1=5,alpha=0.05,beta=0.05)", ErrSyntax, s, key)
		}
	}
	if err := t.Validate(); err != nil {
		return Test{}, fmt.Errorf("%w: %w", ErrSyntax, err)
	}
	return t, nil
}

// String writes t in Parse's form: "elo0=0,elo1=5,alpha=0.05,beta=0.05",
// with ",model=logistic" for a logistic test.
func (t Test) String() string {
	f := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	s := "elo0=" + f(t.Elo0) + ",elo1=" + f(t.Elo1) + ",alpha=" + f(t.Alpha) + ",beta=" + f(t.Beta)
	if t.Model != Normalized {
		s += ",model=" + t.Model.String()
	}
	return s
}

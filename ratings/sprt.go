package ratings

import (
	"errors"
	"fmt"
	"math"
)

// ErrBadSPRT is returned by SPRT.Check for parameters that do not make a test.
var ErrBadSPRT = errors.New("ratings: bad SPRT")

// The models an SPRT can state its hypotheses in.
const (
	// ModelLogistic states the hypotheses as logistic Elo: the expected score per game.
	ModelLogistic = "logistic"
	// ModelNormalized states them as normalized Elo: the expected score's distance from 0.5
	// in standard deviations of a game's score, so that draws make a result more telling.
	ModelNormalized = "normalized"
)

// SPRT is a sequential probability ratio test between two players: H0 says the first is
// Elo0 stronger than the second, H1 that it is Elo1 stronger (Elo0 < Elo1). Alpha is the
// chance of accepting H1 when H0 holds, Beta of accepting H0 when H1 holds. Model is
// ModelLogistic (also the meaning of "") or ModelNormalized. The package documentation
// describes the log-likelihood ratio.
type SPRT struct {
	Elo0  float64 `json:"elo0"`
	Elo1  float64 `json:"elo1"`
	Alpha float64 `json:"alpha"`
	Beta  float64 `json:"beta"`
	Model string  `json:"model,omitempty"`
}

// Decision is what an SPRT says after some games.
type Decision int

// The three decisions.
const (
	Continue Decision = iota // play on
	AcceptH0                 // the LLR reached the lower bound
	AcceptH1                 // the LLR reached the upper bound
)

// String returns the decision's name.
func (d Decision) String() string {
	switch d {
	case Continue:
		return "continue"
	case AcceptH0:
		return "H0"
	case AcceptH1:
		return "H1"
	}
	return fmt.Sprintf("Decision(%d)", int(d))
}

// Check reports, wrapping ErrBadSPRT, parameters that do not make a test: Elo0 must be
// below Elo1 (both finite), Alpha and Beta strictly between 0 and 0.5, and Model known.
func (s SPRT) Check() error {
	switch {
	case s.Model != "" && s.Model != ModelLogistic && s.Model != ModelNormalized:
		return fmt.Errorf("%w: unknown model %q", ErrBadSPRT, s.Model)
	case math.IsInf(s.Elo0, 0) || math.IsInf(s.Elo1, 0) || !(s.Elo0 < s.Elo1):
		return fmt.Errorf("%w: want finite elo0 < elo1, have %v and %v", ErrBadSPRT, s.Elo0, s.Elo1)
	case !(s.Alpha > 0 && s.Alpha < 0.5):
		return fmt.Errorf("%w: alpha %v not in (0, 0.5)", ErrBadSPRT, s.Alpha)
	case !(s.Beta > 0 && s.Beta < 0.5):
		return fmt.Errorf("%w: beta %v not in (0, 0.5)", ErrBadSPRT, s.Beta)
	}
	return nil
}

// Bounds returns Wald's stopping bounds on the LLR: lower = ln(Beta/(1-Alpha)), at or below
// which H0 is accepted, and upper = ln((1-Beta)/Alpha), at or above which H1 is.
func (s SPRT) Bounds() (lower, upper float64) {
	return math.Log(s.Beta / (1 - s.Alpha)), math.Log((1 - s.Beta) / s.Alpha)
}

// LLR returns the generalized log-likelihood ratio of H1 against H0 after the first player
// won wins, drew draws and lost losses games: the log of the trinomial likelihood of the
// counts maximized over outcome probabilities that satisfy H1, minus the same under H0.
// With (w0, d0, l0) and (w1, d1, l1) the maximizing win, draw and loss probabilities,
//
//	LLR = wins·ln(w1/w0) + draws·ln(d1/d0) + losses·ln(l1/l0).
//
// In the logistic model a hypothesis Elo e fixes the expected score
// s = 1/(1+10^(-e/400)). Writing a = s, b = 1-s, n = wins+draws+losses and
// B = draws + b·wins + a·losses, the most likely draw probability with mean score s is the
// smaller root of n·t² - 2B·t + 4ab·draws = 0, t = 4ab·draws/(B + sqrt(B² - 4n·ab·draws)),
// with win probability a - t/2 and loss probability b - t/2.
//
// In the normalized model a hypothesis e fixes τ = e·ln(10)/800 = (μ - 0.5)/σ, with μ the
// expected score and σ the standard deviation of one game's score. With q = 2(1+τ²) the
// outcome probabilities are win σ·(qσ+τ), loss σ·(qσ-τ) and draw 1-2qσ² (a mean of
// 0.5+τσ and a variance of σ²), and the log-likelihood is concave in σ on
// |τ|/q ≤ σ ≤ 1/sqrt(2q); LLR finds its maximum by Newton steps on the derivative,
// safeguarded by bisection.
//
// LLR is 0 before any game, and NaN for negative counts or an unknown model.
func (s SPRT) LLR(wins, draws, losses int) float64 {
	if wins < 0 || draws < 0 || losses < 0 {
		return math.NaN()
	}
	if wins+draws+losses == 0 {
		return 0
	}
	w, d, l := float64(wins), float64(draws), float64(losses)
	var w0, d0, l0, w1, d1, l1 float64 // the most likely outcome probabilities under H0, H1
	switch s.Model {
	case "", ModelLogistic:
		score := func(e float64) float64 { return 1 / (1 + math.Exp(-e*eloUnit)) }
		w0, d0, l0 = logisticProfile(w, d, l, score(s.Elo0))
		w1, d1, l1 = logisticProfile(w, d, l, score(s.Elo1))
	case ModelNormalized:
		tau := func(e float64) float64 { return e * math.Ln10 / 800 }
		w0, d0, l0 = normalizedProfile(w, d, l, tau(s.Elo0))
		w1, d1, l1 = normalizedProfile(w, d, l, tau(s.Elo1))
	default:
		return math.NaN()
	}
	// A seen outcome never has probability 0 at either maximum, so the ratios are finite.
	return xlogy(w, w1/w0) + xlogy(d, d1/d0) + xlogy(l, l1/l0)
}

// Decide returns AcceptH1 once the LLR reaches the upper bound, AcceptH0 once it reaches
// the lower bound, and Continue otherwise (also when the LLR is NaN).
func (s SPRT) Decide(wins, draws, losses int) Decision {
	llr := s.LLR(wins, draws, losses)
	lower, upper := s.Bounds()
	switch {
	case llr >= upper:
		return AcceptH1
	case llr <= lower:
		return AcceptH0
	}
	return Continue
}

// xlogy returns n·ln(p), taking 0·ln(0) as 0: an outcome never seen costs nothing whatever
// its probability.
func xlogy(n, p float64) float64 {
	if n == 0 {
		return 0
	}
	return n * math.Log(p)
}

// logisticProfile returns the win, draw and loss probabilities under which w, d, l are most
// likely among those with expected score s (see SPRT.LLR).
func logisticProfile(w, d, l, s float64) (pw, pd, pl float64) {
	a, b := s, 1-s
	n := w + d + l
	bb := d + b*w + a*l
	disc := max(bb*bb-4*n*a*b*d, 0)
	t := 4 * a * b * d / (bb + math.Sqrt(disc)) // bb > 0 whenever n > 0 and 0 < s < 1
	return a - t/2, t, b - t/2
}

// normalizedProfile returns the win, draw and loss probabilities under which w, d, l are
// most likely among those with (μ - 0.5)/σ = tau (see SPRT.LLR).
func normalizedProfile(w, d, l, tau float64) (pw, pd, pl float64) {
	q := 2 * (1 + tau*tau)
	lo, hi := math.Abs(tau)/q, 1/math.Sqrt(2*q)
	// deriv returns the first and second derivatives of the log-likelihood in σ, skipping
	// outcomes never seen, whose probability may be 0 at an end of the interval.
	deriv := func(x float64) (g, h float64) {
		if w+l > 0 {
			r := 1 / x
			g += (w + l) * r
			h -= (w + l) * r * r
		}
		if w > 0 {
			r := q / (q*x + tau)
			g += w * r
			h -= w * r * r
		}
		if l > 0 {
			r := q / (q*x - tau)
			g += l * r
			h -= l * r * r
		}
		if d > 0 {
			r := 1 / (1 - 2*q*x*x)
			g -= 4 * d * q * x * r
			h -= 4 * d * q * (1 + 2*q*x*x) * r * r
		}
		return g, h
	}
	// At the low end the probability of a loss (τ > 0), of a win (τ < 0) or of both (τ = 0)
	// is 0, at the high end that of a draw; a seen outcome there makes the slope infinite,
	// pointing inwards. Otherwise the slope at the end decides whether the maximum is there.
	lowOpen := l > 0 && tau > 0 || w > 0 && tau < 0 || tau == 0 && w+l > 0
	var x float64
	switch {
	case !lowOpen && !(first(deriv(lo)) > 0):
		x = lo
	case d == 0 && !(first(deriv(hi)) < 0):
		x = hi
	default:
		// The slope falls from positive to negative: bracket its root and polish it with
		// Newton steps, bisecting whenever a step would leave the bracket.
		a, b := lo, hi
		n := w + d + l
		mu := (w + d/2) / n
		x = math.Sqrt(max((w+d/4)/n-mu*mu, 0)) // the sample's own σ is a good start
		if !(x > a && x < b) {
			x = (a + b) / 2
		}
		for range 200 {
			g, h := deriv(x)
			if g == 0 {
				break
			}
			if g > 0 {
				a = x
			} else {
				b = x
			}
			next := x - g/h
			// Newton converges quadratically: after a step of 1e-9·x the error is far
			// below rounding, and the likelihood is flat at its maximum besides.
			if math.Abs(next-x) <= 1e-9*x {
				x = min(max(next, a), b)
				break
			}
			if !(next > a && next < b) {
				next = (a + b) / 2
			}
			x = next
			if b-a <= 1e-15*b {
				break
			}
		}
	}
	return x * (q*x + tau), 1 - 2*q*x*x, x * (q*x - tau)
}

func first(g, _ float64) float64 { return g }

package ratings

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

func TestSPRTBounds(t *testing.T) {
	tests := []struct {
		alpha, beta  float64
		lower, upper float64
	}{
		{0.05, 0.05, -2.9444389792, 2.9444389792}, // ∓ln(19)
		{0.05, 0.10, -2.2512917986, 2.8903717579}, // ln(0.1/0.95), ln(0.9/0.05)
		{0.01, 0.20, -1.5993875766, 4.3820266347}, // ln(0.2/0.99), ln(0.8/0.01)
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("alpha %v beta %v", tt.alpha, tt.beta), func(t *testing.T) {
			lo, up := SPRT{Elo0: 0, Elo1: 5, Alpha: tt.alpha, Beta: tt.beta}.Bounds()
			if !near(lo, tt.lower, 1e-9) || !near(up, tt.upper, 1e-9) {
				t.Errorf("Bounds() = %.10f, %.10f, want %.10f, %.10f", lo, up, tt.lower, tt.upper)
			}
		})
	}
}

func TestSPRTCheck(t *testing.T) {
	tests := []struct {
		name string
		s    SPRT
		ok   bool
	}{
		{"logistic", SPRT{0, 5, 0.05, 0.05, ModelLogistic}, true},
		{"default model", SPRT{-3, 1, 0.05, 0.1, ""}, true},
		{"normalized", SPRT{0, 5, 0.05, 0.05, ModelNormalized}, true},
		{"unknown model", SPRT{0, 5, 0.05, 0.05, "bayes"}, false},
		{"elo0 = elo1", SPRT{5, 5, 0.05, 0.05, ""}, false},
		{"elo0 > elo1", SPRT{5, 0, 0.05, 0.05, ""}, false},
		{"NaN elo", SPRT{math.NaN(), 5, 0.05, 0.05, ""}, false},
		{"infinite elo", SPRT{0, math.Inf(1), 0.05, 0.05, ""}, false},
		{"alpha 0", SPRT{0, 5, 0, 0.05, ""}, false},
		{"alpha 0.5", SPRT{0, 5, 0.5, 0.05, ""}, false},
		{"beta negative", SPRT{0, 5, 0.05, -0.1, ""}, false},
		{"beta NaN", SPRT{0, 5, 0.05, math.NaN(), ""}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.s.Check()
			if tt.ok && err != nil || !tt.ok && !errors.Is(err, ErrBadSPRT) {
				t.Errorf("Check() = %v, want ok=%v", err, tt.ok)
			}
		})
	}
}

// eloOf returns the logistic Elo of an expected score.
func eloOf(s float64) float64 { return 400 * math.Log10(s/(1-s)) }

// normalizedMean returns the expected score of a game without draws whose normalized Elo is
// e: (μ-0.5)/sqrt(μ(1-μ)) = τ gives μ = 0.5 + τ/(2·sqrt(1+τ²)).
func normalizedMean(e float64) float64 {
	tau := e * math.Ln10 / 800
	return 0.5 + tau/(2*math.Sqrt(1+tau*tau))
}

func TestSPRTLLRHand(t *testing.T) {
	binomial := func(w, l, s0, s1 float64) float64 {
		return w*math.Log(s1/s0) + l*math.Log((1-s1)/(1-s0))
	}
	// 30 wins, 40 draws, 30 losses tested at s = 0.6: a = 0.6, b = 0.4, n = 100,
	// B = 40 + 0.4·30 + 0.6·30 = 70, t = 4·0.24·40/(70 + sqrt(4900 - 3840)) = 0.37442...;
	// at s = 0.5 the constrained maximum is the sample itself.
	dt := 38.4 / (70 + math.Sqrt(1060))
	drawn := 30*math.Log((0.6-dt/2)/0.3) + 40*math.Log(dt/0.4) + 30*math.Log((0.4-dt/2)/0.3)
	tests := []struct {
		name    string
		s       SPRT
		w, d, l int
		want    float64
	}{
		{"no games", SPRT{Elo0: 0, Elo1: 10}, 0, 0, 0, 0},
		{"logistic, no draws", SPRT{Elo0: 0, Elo1: eloOf(0.6)}, 60, 0, 40, binomial(60, 40, 0.5, 0.6)}, // 2.0136
		{"logistic, no draws, reversed", SPRT{Elo0: 0, Elo1: eloOf(0.6)}, 40, 0, 60, binomial(40, 60, 0.5, 0.6)},
		{"logistic, only wins", SPRT{Elo0: eloOf(0.3), Elo1: eloOf(0.7)}, 5, 0, 0, binomial(5, 0, 0.3, 0.7)},
		{"logistic, draws", SPRT{Elo0: 0, Elo1: eloOf(0.6)}, 30, 40, 30, drawn},
		{"logistic, symmetric hypotheses, even score", SPRT{Elo0: -7, Elo1: 7}, 123, 456, 123, 0},
		{"logistic, only draws, symmetric", SPRT{Elo0: -7, Elo1: 7}, 0, 50, 0, 0},
		{"normalized, no draws", SPRT{Elo0: 0, Elo1: 20, Model: ModelNormalized}, 60, 0, 40,
			binomial(60, 40, 0.5, normalizedMean(20))},
		{"normalized, no draws, two-sided", SPRT{Elo0: -15, Elo1: 25, Model: ModelNormalized}, 45, 0, 55,
			binomial(45, 55, normalizedMean(-15), normalizedMean(25))},
		{"normalized, symmetric hypotheses, even score", SPRT{Elo0: -7, Elo1: 7, Model: ModelNormalized}, 123, 456, 123, 0},
		// Only draws: under H0 (τ0 = 0) every game drawn is possible, under H1 σ is at least
		// τ1/q, leaving draws a probability of 1 - 2q(τ1/q)² = 1/(1+τ1²).
		{"normalized, only draws", SPRT{Elo0: 0, Elo1: 7, Model: ModelNormalized}, 0, 50, 0,
			-50 * math.Log1p(math.Pow(7*math.Ln10/800, 2))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.s.LLR(tt.w, tt.d, tt.l); !near(got, tt.want, 1e-9) {
				t.Errorf("LLR(%d, %d, %d) = %.12f, want %.12f", tt.w, tt.d, tt.l, got, tt.want)
			}
		})
	}
	for _, bad := range []SPRT{{Elo0: 0, Elo1: 5, Model: "bayes"}} {
		if got := bad.LLR(1, 2, 3); !math.IsNaN(got) {
			t.Errorf("LLR with model %q = %v, want NaN", bad.Model, got)
		}
	}
	if got := (SPRT{Elo0: 0, Elo1: 5}).LLR(-1, 2, 3); !math.IsNaN(got) {
		t.Errorf("LLR with negative wins = %v, want NaN", got)
	}
}

// bruteProfile maximizes the trinomial log-likelihood of w, d, l over a fine grid of draw
// probabilities, solving the hypothesis' constraint for the win probability at each by
// bisection: slow, and independent of the closed forms in sprt.go.
func bruteProfile(w, d, l float64, constraint func(pw, pd, pl float64) float64) float64 {
	best := math.Inf(-1)
	eval := func(pd float64) float64 {
		// The constraint rises with pw at fixed pd; find its root on [0, 1-pd].
		lo, hi := 0.0, 1-pd
		if constraint(lo, pd, 1-pd) > 0 || constraint(hi, pd, 0) < 0 {
			return math.Inf(-1)
		}
		for range 100 {
			m := (lo + hi) / 2
			if constraint(m, pd, 1-pd-m) < 0 {
				lo = m
			} else {
				hi = m
			}
		}
		pw := (lo + hi) / 2
		return xlogy(w, pw) + xlogy(d, pd) + xlogy(l, 1-pd-pw)
	}
	const steps = 2000
	at := 0.0
	for k := 0; k <= steps; k++ {
		if v := eval(float64(k) / steps); v > best {
			best, at = v, float64(k)/steps
		}
	}
	// Refine around the best grid point by golden-section search.
	a, b := max(0, at-1.0/steps), min(1, at+1.0/steps)
	for range 100 {
		m1, m2 := a+(b-a)*0.382, a+(b-a)*0.618
		if eval(m1) < eval(m2) {
			a = m1
		} else {
			b = m2
		}
	}
	return max(best, eval((a+b)/2))
}

func TestSPRTLLRMatchesBruteForce(t *testing.T) {
	logistic := func(e float64) func(pw, pd, pl float64) float64 {
		s := Expected(e, 0)
		return func(pw, pd, _ float64) float64 { return pw + pd/2 - s }
	}
	normalized := func(e float64) func(pw, pd, pl float64) float64 {
		tau := e * math.Ln10 / 800
		return func(pw, pd, _ float64) float64 {
			mu := pw + pd/2
			return mu - 0.5 - tau*math.Sqrt(max(pw+pd/4-mu*mu, 0))
		}
	}
	counts := [][3]int{{10, 20, 5}, {3, 80, 9}, {40, 0, 35}, {0, 10, 4}, {7, 0, 0}, {1, 1, 1}, {250, 410, 230}}
	hyps := [][2]float64{{0, 10}, {-20, 5}, {30, 120}, {-200, -150}}
	for _, c := range counts {
		for _, h := range hyps {
			w, d, l := float64(c[0]), float64(c[1]), float64(c[2])
			t.Run(fmt.Sprintf("%v %v", c, h), func(t *testing.T) {
				want := bruteProfile(w, d, l, logistic(h[1])) - bruteProfile(w, d, l, logistic(h[0]))
				if got := (SPRT{Elo0: h[0], Elo1: h[1]}).LLR(c[0], c[1], c[2]); !near(got, want, 1e-6) {
					t.Errorf("logistic LLR %.9f, brute force %.9f", got, want)
				}
				want = bruteProfile(w, d, l, normalized(h[1])) - bruteProfile(w, d, l, normalized(h[0]))
				if got := (SPRT{Elo0: h[0], Elo1: h[1], Model: ModelNormalized}).LLR(c[0], c[1], c[2]); !near(got, want, 1e-6) {
					t.Errorf("normalized LLR %.9f, brute force %.9f", got, want)
				}
			})
		}
	}
}

func TestSPRTLLRShape(t *testing.T) {
	for _, model := range []string{ModelLogistic, ModelNormalized} {
		s := SPRT{Elo0: 0, Elo1: 10, Alpha: 0.05, Beta: 0.05, Model: model}
		t.Run(model, func(t *testing.T) {
			// Turning a loss into a draw, or a draw into a win, always favours H1.
			prev := math.Inf(-1)
			for w := 0; w <= 200; w++ {
				llr := s.LLR(w, 400, 400-w)
				if !(llr > prev) {
					t.Fatalf("LLR(%d, 400, %d) = %v, not above %v", w, 400-w, llr, prev)
				}
				prev = llr
			}
			// Evidence adds up: the same score over more games moves the LLR further.
			for _, c := range [][3]int{{60, 30, 40}, {35, 30, 65}} {
				one, ten := s.LLR(c[0], c[1], c[2]), s.LLR(10*c[0], 10*c[1], 10*c[2])
				if math.Signbit(one) != math.Signbit(ten) || math.Abs(ten) < 5*math.Abs(one) {
					t.Errorf("LLR%v = %v, ten times the games: %v", c, one, ten)
				}
			}
			// With symmetric hypotheses the LLR is odd in wins and losses.
			sym := SPRT{Elo0: -5, Elo1: 5, Model: model}
			if a, b := sym.LLR(70, 100, 40), sym.LLR(40, 100, 70); !near(a, -b, 1e-9) || !(a > 0) {
				t.Errorf("LLR(70,100,40) = %v, LLR(40,100,70) = %v, want opposite, the first positive", a, b)
			}
		})
	}
	// Draws make a score more telling in the normalized model: the same 55% over the same
	// number of games is stronger evidence when it has less variance.
	n := SPRT{Elo0: 0, Elo1: 10, Model: ModelNormalized}
	if few, many := n.LLR(55, 0, 45), n.LLR(30, 50, 20); !(many > few) {
		t.Errorf("normalized LLR for 55%% with draws %v, without %v: want larger with draws", many, few)
	}
}

func TestSPRTDecide(t *testing.T) {
	s := SPRT{Elo0: 0, Elo1: 10, Alpha: 0.05, Beta: 0.05}
	tests := []struct {
		w, d, l int
		want    Decision
	}{
		{0, 0, 0, Continue},
		{60, 30, 40, Continue},
		{1200, 1000, 800, AcceptH1},  // 60% of 3,000 games
		{800, 1000, 1200, AcceptH0},  // 40%
		{1000, 1000, 1000, Continue}, // even, LLR -1.86: not yet enough
		{2000, 2000, 2000, AcceptH0}, // even, LLR -3.73: H0 (elo 0) fits best
		{-1, 0, 0, Continue},         // NaN LLR
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%d-%d-%d", tt.w, tt.d, tt.l), func(t *testing.T) {
			if got := s.Decide(tt.w, tt.d, tt.l); got != tt.want {
				t.Errorf("Decide = %v (LLR %v), want %v", got, s.LLR(tt.w, tt.d, tt.l), tt.want)
			}
		})
	}
	if got := fmt.Sprint(Continue, AcceptH0, AcceptH1, Decision(7)); got != "continue H0 H1 Decision(7)" {
		t.Errorf("decision names %q", got)
	}
}

// runSPRT plays games with win and draw probabilities pw, pd until s decides, and returns
// the decision and the number of games.
func runSPRT(s SPRT, rng *rand.Rand, pw, pd float64) (Decision, int) {
	var w, d, l int
	lower, upper := s.Bounds()
	for n := 1; ; n++ {
		switch u := rng.Float64(); {
		case u < pw:
			w++
		case u < pw+pd:
			d++
		default:
			l++
		}
		// Decide, with the bounds computed once.
		switch llr := s.LLR(w, d, l); {
		case llr >= upper:
			return AcceptH1, n
		case llr <= lower:
			return AcceptH0, n
		}
	}
}

func TestSPRTErrorRates(t *testing.T) {
	const runs = 1000
	const draws = 0.4
	// The outcome probabilities for a true strength e with a draw ratio of 0.4: in the
	// logistic model the mean score is Expected(e, 0); in the normalized model it solves
	// μ - 0.5 = τ·σ with σ² = μ - μ² - draws/4, so μ = 0.5 + τ·sqrt(0.15/(1+τ²)).
	mean := map[string]func(e float64) float64{
		ModelLogistic: func(e float64) float64 { return Expected(e, 0) },
		ModelNormalized: func(e float64) float64 {
			tau := e * math.Ln10 / 800
			return 0.5 + tau*math.Sqrt((0.25-draws/4)/(1+tau*tau))
		},
	}
	for _, model := range []string{ModelLogistic, ModelNormalized} {
		t.Run(model, func(t *testing.T) {
			t.Parallel()
			s := SPRT{Elo0: 0, Elo1: 10, Alpha: 0.05, Beta: 0.05, Model: model}
			rng := rand.New(rand.NewPCG(2026, uint64(len(model))))
			for _, truth := range []struct {
				name  string
				elo   float64
				wrong Decision
			}{{"H0 true", s.Elo0, AcceptH1}, {"H1 true", s.Elo1, AcceptH0}} {
				mu := mean[model](truth.elo)
				var wrong, games int
				for range runs {
					dec, n := runSPRT(s, rng, mu-draws/2, draws)
					if dec == truth.wrong {
						wrong++
					}
					games += n
				}
				rate := float64(wrong) / runs
				t.Logf("%s: wrong decision in %d of %d runs (%.3f), %.0f games per run", truth.name, wrong, runs, rate, float64(games)/runs)
				// Wald's bounds keep each error at or a little under its nominal 0.05.
				if rate < 0.02 || rate > 0.08 {
					t.Errorf("%s: error rate %.3f, want about 0.05", truth.name, rate)
				}
			}
		})
	}
}

func BenchmarkSPRTLLR(b *testing.B) {
	for _, model := range []string{ModelLogistic, ModelNormalized} {
		s := SPRT{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05, Model: model}
		b.Run(model, func(b *testing.B) {
			for b.Loop() {
				s.LLR(1234, 2345, 1200)
			}
		})
	}
}

func ExampleSPRT() {
	s := SPRT{Elo0: 0, Elo1: 10, Alpha: 0.05, Beta: 0.05}
	if err := s.Check(); err != nil {
		panic(err)
	}
	lower, upper := s.Bounds()
	fmt.Printf("bounds %.3f %.3f\n", lower, upper)
	for _, c := range [][3]int{{500, 800, 450}, {1300, 2000, 1100}, {1000, 2000, 1100}} {
		fmt.Printf("%d-%d-%d: LLR %.3f, %v\n", c[0], c[1], c[2], s.LLR(c[0], c[1], c[2]), s.Decide(c[0], c[1], c[2]))
	}
	// Output:
	// bounds -2.944 2.944
	// 500-800-450: LLR 1.316, continue
	// 1300-2000-1100: LLR 7.218, H1
	// 1000-2000-1100: LLR -8.925, H0
}

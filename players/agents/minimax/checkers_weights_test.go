package minimax

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/games/checkers"
)

// directCheckers recomputes the checkers evaluation of s for black, unrounded, from the
// feature definitions of CheckersWeights, square by square and from the rules' move
// lists, with the weights w (by feature, at 24 pieces and at none): the reference the
// weighted sum of CheckersEval is checked against.
func directCheckers(s *checkers.State, w *[nCheckersFeatures][2]float64) float64 {
	b, wh, k := s.Pieces()
	on := func(set uint32, sq int) bool { return set&(1<<uint(sq-1)) != 0 }
	row := func(sq int) int { return (sq - 1) / 4 }
	col := func(sq int) int {
		if row(sq)%2 == 0 {
			return 2*((sq-1)%4) + 1
		}
		return 2 * ((sq - 1) % 4)
	}
	var f [nCheckersFeatures]float64
	n, blackMen, whiteMen := 0, 0, 0
	for sq := 1; sq <= 32; sq++ {
		sign := 0.0
		switch {
		case on(b, sq):
			sign = 1
		case on(wh, sq):
			sign = -1
		default:
			continue
		}
		n++
		if on(k, sq) {
			f[cKings] += sign
		} else {
			f[cMen] += sign
			if sign > 0 {
				blackMen++
				f[cAdvance] += float64(row(sq))
			} else {
				whiteMen++
				f[cAdvance] -= float64(7 - row(sq))
			}
		}
		switch sq {
		case 14, 15, 18, 19:
			f[cCentre] += 2 * sign
		case 10, 11, 22, 23:
			f[cCentre] += sign
		}
	}
	for sq := 1; sq <= 32; sq++ {
		if on(b&^k, sq) && row(sq) == 0 && whiteMen > 0 {
			f[cBackRank]++
		}
		if on(wh&^k, sq) && row(sq) == 7 && blackMen > 0 {
			f[cBackRank]--
		}
	}
	mobility := func(seat game.Seat) float64 {
		moves := s.MovesOf(seat, nil)
		if len(moves) == 0 || checkers.MoveCaptures(moves[0]) == 0 {
			return float64(len(moves))
		}
		first := map[[2]int]bool{}
		for _, m := range moves {
			p := checkers.MovePath(m, nil)
			first[[2]int{p[0], p[1]}] = true
		}
		return float64(len(first))
	}
	f[cMobility] = mobility(checkers.Black) - mobility(checkers.White)
	at := func(feature int) float64 {
		return (w[feature][0]*float64(n) + w[feature][1]*float64(24-n)) / 24
	}
	lead := at(cMen)*f[cMen] + at(cKings)*f[cKings]
	approach := func(kings, opp uint32) float64 {
		sum := 0.0
		for ksq := 1; ksq <= 32; ksq++ {
			if !on(kings, ksq) {
				continue
			}
			nearest := 8
			for osq := 1; osq <= 32; osq++ {
				if on(opp, osq) {
					d := max(abs(row(ksq)-row(osq)), abs(col(ksq)-col(osq)))
					nearest = min(nearest, d)
				}
			}
			sum += float64(nearest)
		}
		return sum
	}
	switch {
	case lead > 0:
		f[cTrade] = float64(24 - n)
		f[cApproach] = -approach(b&k, wh)
	case lead < 0:
		f[cTrade] = -float64(24 - n)
		f[cApproach] = approach(wh&k, b)
	}
	v := 0.0
	for feature := range nCheckersFeatures {
		v += at(feature) * f[feature]
	}
	return v
}

// tableOf returns an evaluation's weights as a table by feature.
func tableOf(e *CheckersEval) *[nCheckersFeatures][2]float64 { return &e.w }

// randomEval returns an evaluation of random learnable weights in (-20, 20).
func randomEval(t testing.TB, rng *rand.Rand) *CheckersEval {
	t.Helper()
	w := make([]float64, CheckersTerms)
	for i := range w {
		w[i] = 40*rng.Float64() - 20
	}
	e, err := NewCheckersEval(w)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// TestCheckersEvalMatchesDirect: the weighted sum the search uses, and Value with its
// gradient, equal a direct recomputation of the features, on positions of random games,
// for the hand-tuned weights, zero and random learnable weights, and give-away's.
func TestCheckersEvalMatchesDirect(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	zero, err := NewCheckersEval(make([]float64, CheckersTerms))
	if err != nil {
		t.Fatal(err)
	}
	evals := []struct {
		name string
		v    checkers.Variant
		e    *CheckersEval
	}{
		{"hand-tuned", checkers.Standard, HandTunedCheckers()},
		{"zero", checkers.Standard, zero},
		{"random", checkers.Standard, randomEval(t, rng)},
		{"giveaway", checkers.Giveaway, giveawayEval},
	}
	for _, tc := range evals {
		t.Run(tc.name, func(t *testing.T) {
			trades, approaches := 0, 0
			for _, s := range checkersPositions(t, tc.v, 500, 21) {
				want := directCheckers(s, tableOf(tc.e)) // for black
				mover := 1.0
				if s.Side() == checkers.White {
					mover = -1
				}
				p := &checkersPosition{custom: tc.e}
				p.w = tc.e
				// The static evaluation is the direct value rounded; the direct sum, which
				// divides term by term, may fall a hair to either side of a half.
				if got := p.static(s); math.Abs(float64(got)-mover*want) > 0.5+1e-9 {
					t.Fatalf("%s: static %d, direct %.4f for the mover", s, got, mover*want)
				}
				if tc.v != checkers.Standard {
					continue
				}
				grad := make([]float64, CheckersTerms)
				for _, seat := range []game.Seat{checkers.Black, checkers.White} {
					sign := 1.0
					if seat == checkers.White {
						sign = -1
					}
					if got := tc.e.Value(s, seat, grad); math.Abs(got-sign*want) > 1e-9 {
						t.Fatalf("%s: Value for %v %.6f, direct %.6f", s, seat, got, sign*want)
					}
					// The value is linear in the weights: moving one weight by 1 moves it
					// by that weight's gradient.
					k := rng.IntN(CheckersTerms)
					w := tc.e.Weights()
					w[k]++
					moved, err := NewCheckersEval(w)
					if err != nil {
						t.Fatal(err)
					}
					if d := moved.Value(s, seat, nil) - tc.e.Value(s, seat, nil); math.Abs(d-grad[k]) > 1e-9 {
						t.Fatalf("%s: weight %d up by 1 moves the value by %.6f, gradient %.6f", s, k, d, grad[k])
					}
				}
				var f [nCheckersFeatures]int32
				tc.e.features(s, &allFeatures, &f)
				if f[cTrade] != 0 {
					trades++
				}
				if f[cApproach] != 0 {
					approaches++
				}
			}
			if tc.v == checkers.Standard && (trades == 0 || approaches == 0) {
				t.Errorf("trade seen %d times, approach %d: the positions do not exercise them", trades, approaches)
			}
		})
	}
}

// TestCheckersEvalWeights: the learnable weights are the hand-tuned ones in
// CheckersTermNames' order, come back as given, and are refused in the wrong number,
// not finite or too large.
func TestCheckersEvalWeights(t *testing.T) {
	names := CheckersTermNames()
	if len(names) != CheckersTerms || names[0] != "advance@24" || names[CheckersTerms-1] != "approach@0" {
		t.Fatalf("names %v", names)
	}
	hand := HandTunedCheckers().Weights()
	for i, w := range hand {
		if want := float64(CheckersWeights[firstLearned+i/2][i%2]); w != want {
			t.Errorf("%s = %v, want %v", names[i], w, want)
		}
	}
	e, err := NewCheckersEval(hand)
	if err != nil {
		t.Fatal(err)
	}
	if e.w != HandTunedCheckers().w {
		t.Errorf("NewCheckersEval(hand-tuned weights) = %v, want %v", e.w, HandTunedCheckers().w)
	}
	for _, tc := range []struct {
		name string
		w    []float64
	}{
		{"too few", make([]float64, CheckersTerms-1)},
		{"too many", make([]float64, CheckersTerms+1)},
		{"NaN", append(make([]float64, CheckersTerms-1), math.NaN())},
		{"infinite", append([]float64{math.Inf(-1)}, make([]float64, CheckersTerms-1)...)},
		{"too large", append([]float64{MaxCheckersWeight + 1}, make([]float64, CheckersTerms-1)...)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := NewCheckersEval(tc.w); err == nil {
				t.Errorf("NewCheckersEval(%v) accepted", tc.w)
			}
		})
	}
}

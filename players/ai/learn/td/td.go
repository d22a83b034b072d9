// Package td holds the weight updates of Arena's learned-weight players for the
// tanh-linear evaluation (package model): TD(lambda) and TDLeaf(lambda) as eq. (2) of
// Osman and Mandziuk (seed 002), and the step of their pseudo-evolutionary baseline.
//
// # TD(lambda) and TDLeaf(lambda)
//
// A game gives the learner states s_1 ... s_N: the positions at its turns and, last,
// the finished game. With values V_t and gradients g_t = grad_w V_t at t = 1 ... N-1 and
// the temporal differences d_t = V_{t+1} - V_t,
//
//	delta w = alpha * sum_{t=1}^{N-1} g_t * sum_{i=t}^{N-1} lambda^(i-t) * d_i.
//
// The last value V_N is the game's result, +100, 0 or -100 (model.WinValue), not an
// evaluation: that is where the outcome enters. TD(lambda) takes V_t and g_t at s_t
// itself; TDLeaf(lambda) at the leaf of the principal variation of the search made at
// s_t. Both come to this package as a Game; the difference is in what the trainer puts
// in it.
//
// # Unpredicted replies
//
// Seed 002 enhances TDLeaf with LB by not learning from the opponent's blunders after a
// won game, "state transitions that were not predicted by the learning player". Here:
// when Game.Won and Game.Ignore[t] (the opponent's reply after s_t was not the one the
// principal variation expected), a positive d_t is taken as zero, as KnightCap did; a
// negative one, a surprise against the learner, is kept.
package td

import (
	"errors"
	"fmt"
	"math"
)

// Game is what one game gives the update.
type Game struct {
	// Values are V_1 ... V_N, the last being the result (+100, 0 or -100).
	Values []float64
	// Grads are the gradients at s_1 ... s_{N-1}, each of the weights' length.
	Grads [][]float64
	// Won says the learner won; with Ignore it drops unpredicted positive differences.
	Won bool
	// Ignore[t], when Ignore is set, says the transition from s_t to s_{t+1} was not
	// predicted.
	Ignore []bool
}

// ErrShape is returned for a Game whose slices do not fit together.
var ErrShape = errors.New("td: values, gradients and weights do not fit together")

// Update adds alpha times the TD(lambda) correction of one game to w and returns the
// largest change of a weight.
func Update(w []float64, g Game, alpha, lambda float64) (float64, error) {
	n := len(g.Values)
	if n < 1 || len(g.Grads) != n-1 || (g.Ignore != nil && len(g.Ignore) != n-1) {
		return 0, fmt.Errorf("%w: %d values, %d gradients, %d flags", ErrShape, n, len(g.Grads), len(g.Ignore))
	}
	for _, gr := range g.Grads {
		if len(gr) != len(w) {
			return 0, fmt.Errorf("%w: a gradient of %d for %d weights", ErrShape, len(gr), len(w))
		}
	}
	// e_t = sum_{i>=t} lambda^(i-t) d_i, computed backwards: e_t = d_t + lambda e_{t+1}.
	delta := make([]float64, len(w))
	e := 0.0
	for t := n - 2; t >= 0; t-- {
		d := g.Values[t+1] - g.Values[t]
		if g.Won && g.Ignore != nil && g.Ignore[t] && d > 0 {
			d = 0
		}
		e = d + lambda*e
		for k, x := range g.Grads[t] {
			delta[k] += x * e
		}
	}
	largest := 0.0
	for k := range w {
		step := alpha * delta[k]
		w[k] += step
		largest = math.Max(largest, math.Abs(step))
	}
	return largest, nil
}

// EvoStep moves the learner's weights the fraction rate (0.05 in seed 002) of the way
// towards the opponent's: w += rate * (opp - w).
func EvoStep(w, opp []float64, rate float64) {
	for k := range w {
		w[k] += rate * (opp[k] - w[k])
	}
}

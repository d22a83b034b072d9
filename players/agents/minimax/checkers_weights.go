package minimax

import (
	"errors"
	"fmt"
	"math"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/games/checkers"
)

// CheckersEval is a checkers evaluation written as a weighted sum. Each feature f of
// CheckersWeights (black's count less white's, in a position with n pieces on the
// board) gives two terms, f*n/24 and f*(24-n)/24, with a weight each: the feature's
// weight with 24 pieces on the board and with none. The evaluation is
//
//	v = sum over the terms of weight * term
//
// which is the feature's weight moving linearly from one column of CheckersWeights to
// the other as the board empties, the hand-tuned evaluation when the weights are
// CheckersWeights'. The search sees v for the side to move, rounded to whole points
// (manPoints a man); the sum is taken in float64, in which whole-number weights and terms
// (kept as f*n and f*(24-n), divided by 24 once at the end) add up exactly.
//
// The weights of men and kings are fixed at CheckersWeights' values, as Chinook's
// learning kept the values of a checker and a king: the search's scores, its final
// scores included, are in their units, and the trade and approach features ask which
// side is ahead in material. The other twelve weights, six features at two phases, are
// the learnable ones, named in CheckersTermNames' order. Zero learnable weights make
// an evaluation of material alone.
//
// A CheckersEval is read-only once made, so one may be shared by any number of searches.
type CheckersEval struct {
	w    [nCheckersFeatures][2]float64 // by feature: with 24 pieces on the board, with none
	used [nCheckersFeatures]bool       // the features with a weight other than zero
	// phased[n][f] is feature f's weight with n pieces on the board, times 24.
	phased [25][nCheckersFeatures]float64
}

// CheckersTerms is the number of learnable terms of a CheckersEval.
const CheckersTerms = 2 * (nCheckersFeatures - firstLearned)

// firstLearned is the first learnable feature: men and kings come before it.
const firstLearned = cAdvance

// MaxCheckersWeight bounds the learnable weights, in points per unit of a term's
// feature. The hand-tuned ones are 12 at most. With every weight at the bound the
// evaluation stays some 60 times below search.Win (the features of a position add up to
// a few hundred units at most), so no weights a CheckersEval accepts can pass a
// heuristic score for a won game.
const MaxCheckersWeight = 1000

// ErrCheckersWeights is wrapped by the errors about learnable weights that cannot be
// used: the wrong number of them, or one that is not finite or beyond
// MaxCheckersWeight.
var ErrCheckersWeights = errors.New("minimax: bad checkers weights")

// CheckersTermNames returns the names of the learnable terms in the order of a
// CheckersEval's weights: for each feature after men and kings, "FEATURE@24" (its
// weight with 24 pieces on the board) then "FEATURE@0" (with none): "advance@24",
// "advance@0", "back-rank@24", ... "approach@0".
func CheckersTermNames() []string {
	names := make([]string, 0, CheckersTerms)
	for f := firstLearned; f < nCheckersFeatures; f++ {
		names = append(names, checkersFeatureNames[f]+"@24", checkersFeatureNames[f]+"@0")
	}
	return names
}

// HandTunedCheckers returns the evaluation of CheckersWeights, the one minimax plays
// checkers with by default.
func HandTunedCheckers() *CheckersEval { return standardEval }

// NewCheckersEval returns the evaluation with men and kings at CheckersWeights' values
// and the learnable weights w, in CheckersTermNames' order. It fails, with an error
// wrapping ErrCheckersWeights, unless there are CheckersTerms weights, each finite and
// at most MaxCheckersWeight in size.
func NewCheckersEval(w []float64) (*CheckersEval, error) {
	if len(w) != CheckersTerms {
		return nil, fmt.Errorf("%w: %d weights, want %d", ErrCheckersWeights, len(w), CheckersTerms)
	}
	names := CheckersTermNames()
	for i, x := range w {
		if math.IsNaN(x) || math.IsInf(x, 0) || math.Abs(x) > MaxCheckersWeight {
			return nil, fmt.Errorf("%w: %s is %v: want a number from %d to %d", ErrCheckersWeights, names[i], x, -MaxCheckersWeight, MaxCheckersWeight)
		}
	}
	e := &CheckersEval{}
	for _, f := range []int{cMen, cKings} {
		e.w[f] = standardEval.w[f]
	}
	for i := range CheckersTerms {
		e.w[firstLearned+i/2][i%2] = w[i]
	}
	e.index()
	return e, nil
}

// index notes which features have a weight, so that the search computes only those,
// and tabulates the weights by the number of pieces on the board.
func (e *CheckersEval) index() {
	for f := range nCheckersFeatures {
		e.used[f] = e.w[f] != [2]float64{}
		for n := range 25 {
			e.phased[n][f] = e.w[f][0]*float64(n) + e.w[f][1]*float64(24-n)
		}
	}
}

// Weights returns the learnable weights, in CheckersTermNames' order.
func (e *CheckersEval) Weights() []float64 {
	w := make([]float64, 0, CheckersTerms)
	for f := firstLearned; f < nCheckersFeatures; f++ {
		w = append(w, e.w[f][0], e.w[f][1])
	}
	return w
}

// phase returns feature f's weight with n pieces on the board (0 to 24), times 24.
func (e *CheckersEval) phase(f int, n int32) float64 { return e.phased[n][f] }

// allFeatures asks features for every feature.
var allFeatures = func() (all [nCheckersFeatures]bool) {
	for f := range all {
		all[f] = true
	}
	return all
}()

// Value returns the evaluation of s, a standard checkers position not over, for seat,
// in points and not rounded: the sum the search rounds. When grad is not nil it must
// have room for CheckersTerms values, and Value writes there the value's derivative with
// respect to each learnable weight: the terms themselves, seen from seat (negated for
// white).
func (e *CheckersEval) Value(s *checkers.State, seat game.Seat, grad []float64) float64 {
	var f [nCheckersFeatures]int32
	n := e.features(s, &allFeatures, &f)
	var sum float64
	for i := range nCheckersFeatures {
		sum += e.phase(i, n) * float64(f[i])
	}
	sign := 1.0
	if seat == checkers.White {
		sign = -1
	}
	if grad != nil {
		for i := range CheckersTerms {
			g := float64(f[firstLearned+i/2]) / 24
			if i%2 == 0 {
				g *= float64(n)
			} else {
				g *= float64(24 - n)
			}
			grad[i] = sign * g
		}
	}
	return sign * sum / 24
}

// NewCheckersPosition returns a search position of standard checkers scored by e, as
// minimax searches with weights=FILE: the position the agent searches, with e in place
// of HandTunedCheckers. Its Reset refuses positions of give-away checkers.
func NewCheckersPosition(e *CheckersEval) Position { return &checkersPosition{custom: e} }

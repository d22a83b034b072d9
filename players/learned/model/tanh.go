package model

import (
	"math"

	"github.com/arenaref/arena/players/learned/features"
)

// Defaults of the tanh-linear evaluation (seed 002, eq. 1): a keeps V within (-99, 99),
// below the +-100 of a won or lost game, and b flattens the tanh.
const (
	DefaultA = 99
	DefaultB = 0.027
)

// TanhLinear is V(s, w) = A * tanh(B * sum_k W[k] * phi_k(s)) over the features of
// package features: for Othello (Eval, Gradient) W has features.Count weights, for
// checkers and give-away checkers (EvalCheckers, GradientCheckers)
// features.CheckersCount. The weights file records which.
type TanhLinear struct {
	A, B float64
	W    []float64
}

// NewTanhLinear returns the evaluation with the default A and B and all weights zero.
func NewTanhLinear() *TanhLinear {
	return &TanhLinear{A: DefaultA, B: DefaultB, W: make([]float64, features.Count)}
}

var _ Evaluator = (*TanhLinear)(nil)

// Eval returns V for p.
func (m *TanhLinear) Eval(p Position) float64 {
	var phi [features.Count]float64
	features.Compute(p.Own, p.Opp, p.Board, p.OwnToMove, phi[:])
	return m.A * math.Tanh(m.B*dot(m.W, phi[:]))
}

// Gradient returns V for p and writes its gradient with respect to the weights into
// grad[:features.Count]: A * B * (1 - tanh^2) * phi_k.
func (m *TanhLinear) Gradient(p Position, grad []float64) float64 {
	var phi [features.Count]float64
	features.Compute(p.Own, p.Opp, p.Board, p.OwnToMove, phi[:])
	return m.gradient(phi[:], grad)
}

// gradient returns V for the features phi and writes its gradient into grad.
func (m *TanhLinear) gradient(phi, grad []float64) float64 {
	t := math.Tanh(m.B * dot(m.W, phi))
	scale := m.A * m.B * (1 - t*t)
	for k, f := range phi {
		grad[k] = scale * f
	}
	return m.A * t
}

// Clone returns a copy with its own weights.
func (m *TanhLinear) Clone() *TanhLinear {
	return &TanhLinear{A: m.A, B: m.B, W: append([]float64(nil), m.W...)}
}

func dot(w, phi []float64) float64 {
	var s float64
	for k, f := range phi {
		s += w[k] * f
	}
	return s
}

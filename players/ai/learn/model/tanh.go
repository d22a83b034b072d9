package model

import (
	"math"

	"github.com/arenaref/arena/game"
)

// Defaults of the tanh-linear evaluation (seed 002, eq. 1): a keeps V within (-99, 99),
// below the +-100 of a won or lost game (WinValue), and b flattens the tanh.
const (
	DefaultA = 99
	DefaultB = 0.027
)

// TanhLinear is V(s, w) = A * tanh(B * sum_k W[k] * phi_k(s)) over the features phi of
// one game (Features): W has a weight per feature, in the order of their names. The
// weights file records the game.
type TanhLinear struct {
	A, B float64
	W    []float64
}

// NewTanhLinear returns the evaluation of n features with the default A and B and all
// weights zero.
func NewTanhLinear(n int) *TanhLinear {
	return &TanhLinear{A: DefaultA, B: DefaultB, W: make([]float64, n)}
}

var _ Evaluator = (*TanhLinear)(nil)

// Eval returns V for the features phi, len(m.W) of them.
func (m *TanhLinear) Eval(phi []float64) float64 {
	return m.A * math.Tanh(m.B*dot(m.W, phi))
}

// Gradient returns V for the features phi and writes its gradient with respect to the
// weights into grad[:len(phi)]: A * B * (1 - tanh^2) * phi_k.
func (m *TanhLinear) Gradient(phi, grad []float64) float64 {
	t := math.Tanh(m.B * dot(m.W, phi))
	scale := m.A * m.B * (1 - t*t)
	for k, f := range phi {
		grad[k] = scale * f
	}
	return m.A * t
}

// Value computes the features of s seen from seat into phi and returns V.
func (m *TanhLinear) Value(f Features, s game.State, seat game.Seat, phi []float64) float64 {
	phi = phi[:len(m.W)]
	f.Compute(s, seat, phi)
	return m.Eval(phi)
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

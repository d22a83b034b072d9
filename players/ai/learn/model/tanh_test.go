package model_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/arenaref/arena/players/ai/learn/features"
	"github.com/arenaref/arena/players/ai/learn/model"
)

func TestTanhLinearZero(t *testing.T) {
	m := model.NewTanhLinear(features.Count)
	if m.A != model.DefaultA || m.B != model.DefaultB || len(m.W) != features.Count {
		t.Fatalf("NewTanhLinear(%d) = A %v, B %v, %d weights", features.Count, m.A, m.B, len(m.W))
	}
	rng := rand.New(rand.NewPCG(5, 6))
	grad := make([]float64, features.Count)
	for _, size := range sizes {
		for _, p := range randomPositions(t, size, 100, rng) {
			if v := m.Eval(phiOf(p)); v != 0 {
				t.Fatalf("zero weights: Eval(%+v) = %v", p, v)
			}
			if v := m.Gradient(phiOf(p), grad); v != 0 {
				t.Fatalf("zero weights: Gradient(%+v) returned %v", p, v)
			}
		}
	}
}

// TestTanhLinearRange: V stays strictly within (-A, A), for the default constants and
// others, as long as the tanh does not round to +-1.
func TestTanhLinearRange(t *testing.T) {
	tests := []struct {
		name string
		a, b float64
		sd   float64 // of the weights
	}{
		{"default", model.DefaultA, model.DefaultB, 1},
		{"default large weights", model.DefaultA, model.DefaultB, 3},
		{"a=1 b=0.1", 1, 0.1, 0.5},
		{"a=50 b=0.01", 50, 0.01, 5},
	}
	rng := rand.New(rand.NewPCG(7, 8))
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := &model.TanhLinear{A: tc.a, B: tc.b, W: make([]float64, features.Count)}
			var maxAbs float64
			for range 10 {
				randomWeights(m.W, tc.sd, rng)
				for _, size := range sizes {
					for _, p := range randomPositions(t, size, 40, rng) {
						v := m.Eval(phiOf(p))
						if !(v > -tc.a && v < tc.a) {
							t.Fatalf("Eval(%+v) = %v, outside (-%v, %v)", p, v, tc.a, tc.a)
						}
						maxAbs = max(maxAbs, math.Abs(v))
					}
				}
			}
			if maxAbs == 0 {
				t.Error("every value was 0: the test saw nothing")
			}
		})
	}
}

// TestTanhLinearGradient compares Gradient with central finite differences of Eval.
func TestTanhLinearGradient(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	m := model.NewTanhLinear(features.Count)
	grad := make([]float64, features.Count)
	const h = 1e-5
	for trial := range 5 {
		randomWeights(m.W, 0.5*float64(trial+1), rng)
		for _, size := range sizes {
			for _, p := range randomPositions(t, size, 20, rng) {
				v := m.Gradient(phiOf(p), grad)
				if e := m.Eval(phiOf(p)); v != e {
					t.Fatalf("Gradient returned %v, Eval %v", v, e)
				}
				for k := range m.W {
					w := m.W[k]
					m.W[k] = w + h
					up := m.Eval(phiOf(p))
					m.W[k] = w - h
					down := m.Eval(phiOf(p))
					m.W[k] = w
					num := (up - down) / (2 * h)
					if math.Abs(num-grad[k]) > 1e-6*(1+math.Abs(num)) {
						t.Fatalf("size %d, weight %d (%s): gradient %v, finite difference %v", size, k, features.Names[k], grad[k], num)
					}
				}
			}
		}
	}
}

// TestTanhLinearClone: a clone evaluates the same and has its own weights.
func TestTanhLinearClone(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	m := model.NewTanhLinear(features.Count)
	randomWeights(m.W, 1, rng)
	c := m.Clone()
	p := randomPositions(t, 8, 30, rng)[29]
	if m.Eval(phiOf(p)) != c.Eval(phiOf(p)) {
		t.Errorf("clone evaluates %v, original %v", c.Eval(phiOf(p)), m.Eval(phiOf(p)))
	}
	c.W[0] += 1
	if c.W[0] == m.W[0] {
		t.Error("Clone shares its weights")
	}
}

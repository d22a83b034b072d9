package td

import (
	"errors"
	"math"
	"testing"
)

func TestUpdate(t *testing.T) {
	tests := []struct {
		name          string
		game          Game
		alpha, lambda float64
		w, want       []float64
	}{
		{
			// One state, then a win: d_1 = 100 - 10 = 90; delta = 0.01 * g_1 * 90.
			name:  "one step",
			game:  Game{Values: []float64{10, 100}, Grads: [][]float64{{1, -2}}},
			alpha: 0.01, lambda: 0.7,
			w: []float64{0, 0}, want: []float64{0.9, -1.8},
		},
		{
			// d = (5, -25, -80); e_3 = -80, e_2 = -25 + 0.5*-80 = -65, e_1 = 5 + 0.5*-65 = -27.5.
			// delta_k = 0.1 * (g1*-27.5 + g2*-65 + g3*-80).
			name:  "three steps",
			game:  Game{Values: []float64{0, 5, -20, -100}, Grads: [][]float64{{1, 0}, {0, 1}, {1, 1}}},
			alpha: 0.1, lambda: 0.5,
			w: []float64{1, 1}, want: []float64{1 + 0.1*(-27.5-80), 1 + 0.1*(-65-80)},
		},
		{
			// lambda 0 is one-step TD: each gradient takes only its own difference.
			name:  "lambda zero",
			game:  Game{Values: []float64{0, 5, -20}, Grads: [][]float64{{1}, {1}}},
			alpha: 1, lambda: 0,
			w: []float64{0}, want: []float64{5 - 25},
		},
		{
			// A won game ignores the unpredicted positive step (d_1 = 30) but keeps the
			// unpredicted negative one (d_2 = -10) and the predicted last one (d_3 = 80).
			name:  "won ignores unpredicted gains",
			game:  Game{Values: []float64{0, 30, 20, 100}, Grads: [][]float64{{1}, {1}, {1}}, Won: true, Ignore: []bool{true, true, false}},
			alpha: 0.01, lambda: 1,
			// e_3 = 80, e_2 = -10+80 = 70, e_1 = 0+70 = 70: delta = 0.01*(70+70+80).
			w: []float64{0}, want: []float64{2.2},
		},
		{
			name:  "lost game keeps every step",
			game:  Game{Values: []float64{0, 30, 20, -100}, Grads: [][]float64{{1}, {1}, {1}}, Won: false, Ignore: []bool{true, true, false}},
			alpha: 0.01, lambda: 1,
			// e_3 = -120, e_2 = -130, e_1 = -100.
			w: []float64{0}, want: []float64{-3.5},
		},
		{
			name:  "game of one state changes nothing",
			game:  Game{Values: []float64{100}, Grads: [][]float64{}},
			alpha: 0.1, lambda: 0.9,
			w: []float64{3}, want: []float64{3},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			w := append([]float64(nil), tc.w...)
			largest, err := Update(w, tc.game, tc.alpha, tc.lambda)
			if err != nil {
				t.Fatal(err)
			}
			maxStep := 0.0
			for k := range w {
				if math.Abs(w[k]-tc.want[k]) > 1e-9 {
					t.Errorf("w[%d] = %v, want %v", k, w[k], tc.want[k])
				}
				maxStep = math.Max(maxStep, math.Abs(tc.want[k]-tc.w[k]))
			}
			if math.Abs(largest-maxStep) > 1e-9 {
				t.Errorf("largest change %v, want %v", largest, maxStep)
			}
		})
	}
}

func TestUpdateShape(t *testing.T) {
	for _, g := range []Game{
		{},
		{Values: []float64{1, 2}, Grads: nil},
		{Values: []float64{1, 2}, Grads: [][]float64{{1, 2, 3}}},
		{Values: []float64{1, 2}, Grads: [][]float64{{1, 2}}, Ignore: []bool{true, false}},
	} {
		if _, err := Update([]float64{0, 0}, g, 0.1, 0.5); !errors.Is(err, ErrShape) {
			t.Errorf("Update(%+v) = %v, want ErrShape", g, err)
		}
	}
}

func TestEvoStep(t *testing.T) {
	w := []float64{0, 10, -4}
	EvoStep(w, []float64{20, 10, 6}, 0.05)
	want := []float64{1, 10, -3.5}
	for k := range w {
		if math.Abs(w[k]-want[k]) > 1e-12 {
			t.Errorf("w[%d] = %v, want %v", k, w[k], want[k])
		}
	}
}

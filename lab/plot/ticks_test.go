package plot

import (
	"math"
	"slices"
	"testing"
)

func TestTicks(t *testing.T) {
	tests := []struct {
		name   string
		lo, hi float64
		target int
		values []float64
		labels []string
	}{
		{"percent", 0, 100, 5, []float64{0, 20, 40, 60, 80, 100}, []string{"0", "20", "40", "60", "80", "100"}},
		{"fraction", 0.013, 0.87, 5, []float64{0.2, 0.4, 0.6, 0.8}, []string{"0.2", "0.4", "0.6", "0.8"}},
		{"fraction finer", 0.013, 0.87, 10, []float64{0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8}, []string{"0.1", "0.2", "0.3", "0.4", "0.5", "0.6", "0.7", "0.8"}},
		{"zero width", 5, 5, 5, []float64{4.6, 4.8, 5, 5.2, 5.4}, []string{"4.6", "4.8", "5.0", "5.2", "5.4"}},
		{"zero width at zero", 0, 0, 4, []float64{-1, -0.5, 0, 0.5, 1}, []string{"-1.0", "-0.5", "0.0", "0.5", "1.0"}},
		{"negative", -37, -3, 5, []float64{-35, -30, -25, -20, -15, -10, -5}, []string{"-35", "-30", "-25", "-20", "-15", "-10", "-5"}},
		{"games", 1, 1000, 5, []float64{200, 400, 600, 800, 1000}, []string{"200", "400", "600", "800", "1000"}},
		{"millions", 0, 3e6, 6, []float64{0, 5e5, 1e6, 1.5e6, 2e6, 2.5e6, 3e6}, []string{"0", "5e5", "1e6", "1.5e6", "2e6", "2.5e6", "3e6"}},
		{"micro", 0, 3e-6, 3, []float64{0, 1e-6, 2e-6, 3e-6}, []string{"0", "1e-6", "2e-6", "3e-6"}},
		{"small decimals", 0.001, 0.004, 3, []float64{0.001, 0.002, 0.003, 0.004}, []string{"0.001", "0.002", "0.003", "0.004"}},
		{"offset", 1e9, 1e9 + 10, 5, []float64{1e9, 1e9 + 2, 1e9 + 4, 1e9 + 6, 1e9 + 8, 1e9 + 10}, []string{"1000000000", "1000000002", "1000000004", "1000000006", "1000000008", "1000000010"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ts := niceScale(tt.lo, tt.hi, tt.target).ticks()
			var values []float64
			var labels []string
			for _, tk := range ts {
				values = append(values, tk.v)
				labels = append(labels, tk.label)
			}
			if !slices.EqualFunc(values, tt.values, close) {
				t.Errorf("values %v, want %v", values, tt.values)
			}
			if !slices.Equal(labels, tt.labels) {
				t.Errorf("labels %q, want %q", labels, tt.labels)
			}
		})
	}
}

func close(a, b float64) bool { return math.Abs(a-b) <= 1e-9*max(1, math.Abs(b)) }

// TestTicksNice checks over many ranges that ticks are evenly spaced on a 1, 2 or 5 step,
// inside the range, and neither too few nor too many.
func TestTicksNice(t *testing.T) {
	for _, lo := range []float64{-1234.5, -1, -0.02, 0, 0.013, 3, 99, 1e7} {
		for _, span := range []float64{1e-6, 0.01, 0.37, 1, 2.5, 7, 10, 123, 1e5} {
			for _, target := range []int{2, 5, 10} {
				hi := lo + span
				s := niceScale(lo, hi, target)
				ts := s.ticks()
				if len(ts) < max(2, (target+1)/2) || len(ts) > 3*target {
					t.Errorf("%v..%v target %d: %d ticks", lo, hi, target, len(ts))
					continue
				}
				if s.mult != 1 && s.mult != 2 && s.mult != 5 {
					t.Errorf("%v..%v: step %v", lo, hi, s.step)
				}
				for i, tk := range ts {
					if tk.v < s.lo-1e-9*s.step || tk.v > s.hi+1e-9*s.step {
						t.Errorf("%v..%v: tick %v outside", lo, hi, tk.v)
					}
					if i > 0 && math.Round(tk.v/s.step)-math.Round(ts[i-1].v/s.step) != 1 {
						t.Errorf("%v..%v: ticks %v and %v not a step %v apart", lo, hi, ts[i-1].v, tk.v, s.step)
					}
				}
			}
		}
	}
}

func TestLabelFormats(t *testing.T) {
	tests := []struct {
		n          int64
		exp        int
		fixed, sci string
	}{
		{0, 0, "0", "0"},
		{0, -2, "0.00", "0"},
		{5, -1, "0.5", "5e-1"},
		{15, -1, "1.5", "1.5e0"},
		{-15, -3, "-0.015", "-1.5e-2"},
		{2, 3, "2000", "2e3"},
		{120, 5, "12000000", "1.2e7"},
	}
	for _, tt := range tests {
		if got := fixed(tt.n, tt.exp); got != tt.fixed {
			t.Errorf("fixed(%d, %d) = %q, want %q", tt.n, tt.exp, got, tt.fixed)
		}
		if got := scientific(tt.n, tt.exp); got != tt.sci {
			t.Errorf("scientific(%d, %d) = %q, want %q", tt.n, tt.exp, got, tt.sci)
		}
	}
}

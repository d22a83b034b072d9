package ratings

import (
	"fmt"
	"math"
	"testing"
)

func near(a, b, eps float64) bool { return math.Abs(a-b) <= eps }

func TestExpected(t *testing.T) {
	tests := []struct {
		name   string
		ra, rb float64
		want   float64
	}{
		{"equal", 1500, 1500, 0.5},
		{"200 ahead", 1700, 1500, 0.7597469266},  // 1/(1+10^-0.5)
		{"200 behind", 1500, 1700, 0.2402530734}, // the complement
		{"400 ahead", 1900, 1500, 10.0 / 11},     // 1/(1+10^-1)
		{"800 behind", 1000, 1800, 1.0 / 101},    // 1/(1+10^2)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Expected(tt.ra, tt.rb); !near(got, tt.want, 1e-9) {
				t.Errorf("Expected(%v, %v) = %.10f, want %.10f", tt.ra, tt.rb, got, tt.want)
			}
		})
	}
}

func TestUpdate(t *testing.T) {
	e := DefaultElo()
	tests := []struct {
		name         string
		ra, rb, s    float64
		wantA, wantB float64
	}{
		{"equal, A wins", 1500, 1500, 1, 1508, 1492},
		{"equal, A loses", 1500, 1500, 0, 1492, 1508},
		{"equal, draw", 1500, 1500, 0.5, 1500, 1500},
		// 16 * (1 - 0.7597469266) = 3.8440491744
		{"favourite wins", 1700, 1500, 1, 1703.8440491744, 1496.1559508256},
		// 16 * (0 - 0.7597469266) = -12.1559508256
		{"favourite loses", 1700, 1500, 0, 1687.8440491744, 1512.1559508256},
		// 16 * (0.5 - 0.7597469266) = -4.1559508256
		{"favourite draws", 1700, 1500, 0.5, 1695.8440491744, 1504.1559508256},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, b := e.Update(tt.ra, tt.rb, tt.s)
			if !near(a, tt.wantA, 1e-7) || !near(b, tt.wantB, 1e-7) {
				t.Errorf("Update(%v, %v, %v) = %.10f, %.10f, want %.10f, %.10f", tt.ra, tt.rb, tt.s, a, b, tt.wantA, tt.wantB)
			}
		})
	}
}

func TestUpdateConservesRating(t *testing.T) {
	e := DefaultElo()
	for _, k := range []float64{8, 16, 32} {
		e.K = k
		for ra := 1000.0; ra <= 2400; ra += 175 {
			for rb := 1000.0; rb <= 2400; rb += 225 {
				for _, s := range []float64{0, 0.5, 1} {
					a, b := e.Update(ra, rb, s)
					if !near(a+b, ra+rb, 1e-9) {
						t.Fatalf("K=%v Update(%v, %v, %v): sum %v, want %v", k, ra, rb, s, a+b, ra+rb)
					}
					// The winner never loses points and the loser never gains them.
					if s == 1 && a < ra || s == 0 && a > ra {
						t.Fatalf("K=%v Update(%v, %v, %v) moved A the wrong way: %v", k, ra, rb, s, a)
					}
				}
			}
		}
	}
}

func TestRating(t *testing.T) {
	e := DefaultElo()
	m := map[string]float64{"alice": 1620.5}
	if got := e.Rating(m, "alice"); got != 1620.5 {
		t.Errorf("Rating(alice) = %v, want 1620.5", got)
	}
	if got := e.Rating(m, "bob"); got != 1500 {
		t.Errorf("Rating(bob) = %v, want the initial 1500", got)
	}
	if got := e.Rating(nil, "bob"); got != 1500 {
		t.Errorf("Rating(nil map) = %v, want 1500", got)
	}
}

func ExampleElo_Update() {
	e := DefaultElo()
	a, b := e.Update(1500, 1500, 1)
	fmt.Println(a, b)
	a, b = e.Update(1700, 1500, 1)
	fmt.Printf("%.2f %.2f\n", a, b)
	// Output:
	// 1508 1492
	// 1703.84 1496.16
}

package widening

import (
	"strings"
	"testing"
)

// TestStrategies checks the paper's nine strategies: numbered in order, every one
// ending with the widest step (or all moves), no step repeated, and each step narrower
// than or incomparable to the ones after it, never wider.
func TestStrategies(t *testing.T) {
	all := Strategies()
	if len(all) != 9 {
		t.Fatalf("%d strategies, want 9", len(all))
	}
	for i, s := range all {
		if s.Number != i+1 {
			t.Errorf("strategy %d has number %d", i+1, s.Number)
		}
		last := s.Steps[len(s.Steps)-1]
		if last != or2and2 && last != (Step{All, All}) {
			t.Errorf("%v ends with %v", s, last)
		}
		for j, a := range s.Steps {
			if err := a.check(); err != nil {
				t.Errorf("%v: %v", s, err)
			}
			for _, b := range s.Steps[j+1:] {
				if a == b || narrower(b, a) {
					t.Errorf("%v: step %v is followed by %v, no wider", s, a, b)
				}
			}
		}
	}
	if got := all[6].Steps; len(got) != 4 || got[1] != or2and1 || got[2] != or1and2 {
		t.Errorf("strategy 7 steps %v", got)
	}
}

// TestStrategyByName is a table of names and numbers, good and bad.
func TestStrategyByName(t *testing.T) {
	cases := []struct {
		in   string
		want int // 0 for an error
	}{
		{"1", 1}, {"9", 9}, {" 3 ", 3},
		{"OR2-2AND1-2", 3}, {"or2-2and1-2", 3}, {"ORAND1-2", 6}, {"ORAND1-2AND1-2", 8},
		{"OR1-2ANDOR1-2", 7}, {"AND1-2OR1-2", 4}, {"Brute Force", 9}, {"brute-force", 9},
		{"0", 0}, {"10", 0}, {"-1", 0}, {"", 0}, {"OR3", 0}, {"widest", 0},
	}
	for _, c := range cases {
		s, err := StrategyByName(c.in)
		switch {
		case c.want == 0 && err == nil:
			t.Errorf("StrategyByName(%q) = %v, want an error", c.in, s)
		case c.want == 0 && !strings.HasPrefix(err.Error(), "widening: no strategy"):
			t.Errorf("StrategyByName(%q) error %q", c.in, err)
		case c.want != 0 && (err != nil || s.Number != c.want):
			t.Errorf("StrategyByName(%q) = %v, %v; want number %d", c.in, s, err, c.want)
		}
	}
}

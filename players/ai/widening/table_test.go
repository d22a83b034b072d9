package widening

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"
)

// searchAt runs one step's search of p at a fixed depth with a fresh table and cache,
// and returns the root value from the attacker's side.
func searchAt(p Problem, st Step, depth int) value {
	s := &solver{tt: newTable(), cache: newAnalyses()}
	s.init(context.Background(), p)
	s.step = st
	if s.toMove == s.def {
		v, _ := s.andNode(depth, 0, lost, won)
		return v
	}
	v, _ := s.orNode(depth, 0, lost, won)
	return v
}

// TestWideningRaisesValues checks the fact the kept table rests on: at the same depth,
// a step with no narrower set on either side never values a position lower for the
// attacker (more attacker moves at OR nodes; AND2 searching the ip3 nodes AND1 gives up
// as lost). So a narrower step's win is a win, and its "not lost" still holds.
func TestWideningRaisesValues(t *testing.T) {
	steps := []Step{or1and1, or1and2, or2and1, or2and2}
	rng := rand.New(rand.NewPCG(31, 32))
	compared, rose := 0, 0
	for problems := 0; problems < 40; {
		p, ok := randomProblem(rng, 5+rng.IntN(2), 8+rng.IntN(10))
		if !ok {
			continue
		}
		problems++
		for depth := 1; depth <= 5; depth++ {
			var vals [4]value
			for i, st := range steps {
				vals[i] = searchAt(p, st, depth)
			}
			for i, a := range steps {
				for j, b := range steps {
					if i == j || !narrower(a, b) {
						continue
					}
					compared++
					if vals[i] > vals[j] {
						t.Fatalf("depth %d: %v values %d, wider %v values %d:\n%s", depth, a, vals[i], b, vals[j], p)
					}
					if vals[i] < vals[j] {
						rose++
					}
				}
			}
		}
	}
	if rose == 0 {
		t.Fatalf("%d comparisons and widening never changed a value: the check checked nothing", compared)
	}
}

// TestNarrower is the table of step comparisons.
func TestNarrower(t *testing.T) {
	all := Step{All, All}
	cases := []struct {
		a, b Step
		want bool
	}{
		{or1and1, or2and2, true},
		{or1and1, or1and2, true},
		{or2and1, or2and2, true},
		{or2and1, or1and2, false}, // strategy 7's second and third steps
		{or1and2, or2and1, false},
		{or2and2, or1and1, false},
		{or1and2, or1and2, true},
		{or1and1, all, false},
		{all, or2and2, false},
		{all, all, true},
	}
	for _, c := range cases {
		if got := narrower(c.a, c.b); got != c.want {
			t.Errorf("narrower(%v, %v) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}

// TestFromTable is the table of what a stored entry tells a node searched at depth 4
// under (OR2,AND2).
func TestFromTable(t *testing.T) {
	cur := or2and2
	cases := []struct {
		name        string
		e           entry
		alpha, beta value
		decides     bool
		v, floor    value
	}{
		{"win from any step", entry{value: won, step: or1and1}, lost, won, true, won, lost},
		{"win found shallower", entry{value: won, depth: 1, step: cur}, lost, won, true, won, lost},
		{"loss of this step", entry{value: lost, step: cur}, lost, won, true, lost, lost},
		{"loss of a narrower step", entry{value: lost, step: or2and1}, lost, won, false, 0, lost},
		{"exact unknown deep enough", entry{value: unknown, depth: 4, step: cur}, lost, won, true, unknown, lost},
		{"exact unknown too shallow", entry{value: unknown, depth: 3, step: cur}, lost, won, false, 0, lost},
		{"upper bound below alpha", entry{value: unknown, bound: upper, depth: 5, step: cur}, unknown, won, true, unknown, lost},
		{"upper bound inside the window", entry{value: unknown, bound: upper, depth: 5, step: cur}, lost, won, false, 0, lost},
		{"lower bound at beta", entry{value: unknown, bound: lower, depth: 5, step: cur}, lost, unknown, true, unknown, lost},
		{"narrower unknown raises the floor", entry{value: unknown, depth: 4, step: or1and1}, lost, won, false, 0, unknown},
		{"narrower unknown at beta decides", entry{value: unknown, bound: lower, depth: 6, step: or2and1}, lost, unknown, true, unknown, lost},
		{"narrower upper bound says nothing", entry{value: unknown, bound: upper, depth: 6, step: or1and1}, lost, won, false, 0, lost},
		{"narrower unknown too shallow", entry{value: unknown, depth: 3, step: or1and1}, lost, won, false, 0, lost},
		{"unknown of an incomparable step", entry{value: unknown, depth: 9, step: Step{All, All}}, lost, won, false, 0, lost},
	}
	s := &solver{step: cur}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v, ok, floor := s.fromTable(&c.e, 4, c.alpha, c.beta)
			if ok != c.decides || (ok && v != c.v) || floor != c.floor {
				t.Fatalf("fromTable = %d, %v, floor %d; want %d, %v, floor %d", v, ok, floor, c.v, c.decides, c.floor)
			}
		})
	}
}

// TestStrategiesAgree solves random tiny problems with strategies 1 to 8 in both table
// modes: where they finish they must give the same verdict (their last step is the same
// search), and the kept table must not change a verdict.
func TestStrategiesAgree(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 42))
	differ := 0
	for problems := 0; problems < 60; {
		p, ok := randomProblem(rng, 5+rng.IntN(2), 6+rng.IntN(12))
		if !ok {
			continue
		}
		problems++
		first := Unknown
		steps := map[int]bool{}
		for _, st := range Strategies()[:8] {
			for _, keep := range []bool{false, true} {
				res, err := Solve(context.Background(), p, Options{Strategy: st, KeepTable: keep, Time: 2 * time.Second})
				if err != nil {
					t.Fatal(err)
				}
				if res.Verdict == Unknown {
					continue
				}
				steps[res.Step] = true
				if first == Unknown {
					first = res.Verdict
				} else if res.Verdict != first {
					t.Fatalf("strategy %v keep=%v: %v, another strategy: %v\n%s", st, keep, res.Verdict, first, p)
				}
			}
		}
		if len(steps) > 1 {
			differ++
		}
	}
	if differ == 0 {
		t.Fatal("every problem was settled at the same step by every strategy: widening was never exercised")
	}
}

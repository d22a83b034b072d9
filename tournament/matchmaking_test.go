package tournament

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestPickPair(t *testing.T) {
	inf := math.Inf(1)
	none := func(a, b int64) int { return 0 }
	tests := []struct {
		name         string
		cs           []Contender
		pairs        map[[2]int64]int
		wantA, wantB int64 // the pair, in any seat order unless ordered
		ordered      bool
	}{
		{name: "the new entry plays first", cs: []Contender{
			{Entry: 1, Rating: 1600, Error: 40, Games: 10, Whites: 5},
			{Entry: 2, Rating: 1500, Error: 40, Games: 10, Whites: 5},
			{Entry: 3, Error: inf},
		}, wantA: 3}, // against either: an unrated entry is as close to all
		{name: "the closest rating relative to the error", cs: []Contender{
			{Entry: 1, Rating: 1500, Error: 30, Games: 4, Whites: 2},
			{Entry: 2, Rating: 1900, Error: 30, Games: 6, Whites: 3},
			{Entry: 3, Rating: 1520, Error: 30, Games: 6, Whites: 3},
			{Entry: 4, Rating: 1100, Error: 30, Games: 6, Whites: 3},
		}, wantA: 1, wantB: 3},
		{name: "a pair met too often is left alone", cs: []Contender{
			{Entry: 1, Rating: 1500, Error: 30, Games: 4, Whites: 2},
			{Entry: 2, Rating: 1900, Error: 30, Games: 6, Whites: 3},
			{Entry: 3, Rating: 1520, Error: 30, Games: 6, Whites: 3},
		}, pairs: map[[2]int64]int{{1, 3}: 3}, wantA: 1, wantB: 2},
		{name: "the one that moved first less often moves first", cs: []Contender{
			{Entry: 1, Rating: 1500, Error: 30, Games: 4, Whites: 4},
			{Entry: 2, Rating: 1500, Error: 30, Games: 4, Whites: 0},
		}, wantA: 2, wantB: 1, ordered: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			pg := none
			if tc.pairs != nil {
				pg = func(a, b int64) int { return tc.pairs[[2]int64{min(a, b), max(a, b)}] }
			}
			a, b, ok := PickPair(tc.cs, pg, rand.New(rand.NewPCG(1, 2)))
			if !ok {
				t.Fatal("no pair")
			}
			if tc.wantB == 0 {
				if a != tc.wantA && b != tc.wantA {
					t.Errorf("PickPair = %d, %d; want %d to play", a, b, tc.wantA)
				}
				return
			}
			if tc.ordered && (a != tc.wantA || b != tc.wantB) || !tc.ordered && !(a == tc.wantA && b == tc.wantB || a == tc.wantB && b == tc.wantA) {
				t.Errorf("PickPair = %d, %d; want %d, %d", a, b, tc.wantA, tc.wantB)
			}
		})
	}
	if _, _, ok := PickPair([]Contender{{Entry: 1}}, none, rand.New(rand.NewPCG(1, 2))); ok {
		t.Error("a pair out of one contender")
	}
}

// TestPickPairFairShare plays a simulated ladder of 20 entries whose ratings are known
// (with a small error), 4 of which join late, and checks the shares: every entry's games
// within 25% of the mean, colours balanced, and no pair far above the others.
func TestPickPairFairShare(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const n = 20
	games := make([]int, n)
	whites := make([]int, n)
	pairs := map[[2]int64]int{}
	pg := func(a, b int64) int { return pairs[[2]int64{min(a, b), max(a, b)}] }
	for step := range 400 {
		var cs []Contender
		for i := range n {
			if i >= 16 && step < 150 {
				continue // joins late
			}
			cs = append(cs, Contender{Entry: int64(i), Rating: 1000 + 50*float64(i), Error: 60, Games: games[i], Whites: whites[i]})
		}
		a, b, ok := PickPair(cs, pg, rng)
		if !ok {
			t.Fatal("no pair")
		}
		games[a]++
		games[b]++
		whites[a]++
		pairs[[2]int64{min(a, b), max(a, b)}]++
	}
	mean := 0.0
	for _, g := range games {
		mean += float64(g) / n
	}
	for i, g := range games {
		if math.Abs(float64(g)-mean) > 0.25*mean {
			t.Errorf("entry %d played %d games, the mean is %.1f", i, g, mean)
		}
		if d := 2*whites[i] - g; d < -3 || d > 3 {
			t.Errorf("entry %d: %d of %d games first", i, whites[i], g)
		}
	}
	most := 0
	for _, c := range pairs {
		most = max(most, c)
	}
	if most > 6 {
		t.Errorf("a pair played %d times in 400 games of 20 entries", most)
	}
}

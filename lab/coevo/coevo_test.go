package coevo

import (
	"context"
	"errors"
	"math"
	"reflect"
	"slices"
	"testing"

	"github.com/arenaref/arena/players/ai/learn/model"
)

func TestWheelProportions(t *testing.T) {
	tests := []struct {
		name string
		fit  []float64
		want []float64 // expected share of each index
	}{
		{"proportional", []float64{0.1, 0.2, 0.3, 0.4, 0}, []float64{0.1, 0.2, 0.3, 0.4, 0}},
		{"one nonzero", []float64{0, 0, 0.5, 0}, []float64{0, 0, 1, 0}},
		{"all zero is uniform", []float64{0, 0, 0, 0, 0}, []float64{0.2, 0.2, 0.2, 0.2, 0.2}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			const spins = 100000
			w := newWheel(tt.fit, nil)
			rng := newStream().reseed(7, purposeBreedFirst, 1, 0, 0)
			counts := make([]int, len(tt.fit))
			for range spins {
				counts[w.spin(rng)]++
			}
			for i, c := range counts {
				share := float64(c) / spins
				if math.Abs(share-tt.want[i]) > 0.01 {
					t.Errorf("index %d drawn %.4f of the time, want %.4f (counts %v)", i, share, tt.want[i], counts)
				}
				if tt.want[i] == 0 && c != 0 {
					t.Errorf("index %d of zero fitness drawn %d times", i, c)
				}
			}
		})
	}
}

func TestElite(t *testing.T) {
	tests := []struct {
		name string
		fit  []float64
		k    int
		want []int
	}{
		{"best", []float64{0.2, 0.5, 0.9, 0.1}, 1, []int{2}},
		{"two", []float64{0.2, 0.5, 0.9, 0.1}, 2, []int{2, 1}},
		{"ties to the lower index", []float64{0.5, 0.7, 0.7, 0.7}, 2, []int{1, 2}},
		{"none", []float64{0.5, 0.7}, 0, []int{}},
		{"all", []float64{0, 0, 0}, 3, []int{0, 1, 2}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := elite(tt.fit, tt.k); !slices.Equal(got, tt.want) {
				t.Fatalf("elite(%v, %d) = %v, want %v", tt.fit, tt.k, got, tt.want)
			}
		})
	}
}

func TestNextPopulationKeepsTheBest(t *testing.T) {
	cfg := Config{Population: 8, Elite: 1, Mutation: 1, Seed: 3}.withDefaults()
	e := newEvolver(cfg)
	fit := []float64{0.1, 0.3, 0.2, 0.9, 0.9, 0, 0.4, 0.5}
	before := e.first[3].Clone()
	next := e.nextPopulation(e.first, fit, newStream().reseed(3, purposeBreedFirst, 1, 0, 0))
	if len(next) != len(e.first) {
		t.Fatalf("next population has %d networks, want %d", len(next), len(e.first))
	}
	if !slices.Equal(next[0].W, before.W) {
		t.Fatalf("the elite network changed:\n got %v\nwant %v", next[0].W, before.W)
	}
	if next[0] == e.first[3] {
		t.Fatal("the elite network is shared with the old generation, not copied")
	}
	if !slices.Equal(e.first[3].W, before.W) {
		t.Fatal("breeding changed a network of the old generation")
	}
	// With a mutation rate of 1 every other network is redrawn entirely.
	for k, n := range next[1:] {
		for _, old := range e.first {
			if slices.Equal(n.W, old.W) {
				t.Fatalf("network %d escaped mutation at rate 1", k+1)
			}
		}
	}
}

func TestMutationRate(t *testing.T) {
	rng := newStream().reseed(11, purposeBreedSecond, 1, 0, 0)
	const nets = 1000
	changed, total := 0, 0
	for range nets {
		n := randomNet(rng)
		before := slices.Clone(n.W)
		mutate(n.W, DefaultMutation, rng)
		for k := range n.W {
			if n.W[k] != before[k] {
				changed++
			}
			total++
		}
	}
	if rate := float64(changed) / float64(total); rate < 0.045 || rate > 0.055 {
		t.Fatalf("%.4f of the weights changed, want about %v", rate, DefaultMutation)
	}
}

func TestDrawWeightRanges(t *testing.T) {
	rng := newStream().reseed(5, purposeInitFirst, 0, 0, 0)
	const draws = 100000
	// A draw below 10 comes from range 10 always, from 100 a tenth of the time, and so
	// on: 1/4 * (1 + 1/10 + 1/100 + 1/1000).
	wantBelow10 := 0.25 * 1.111
	below10 := 0
	for range draws {
		w := drawWeight(rng)
		if w < 0 || w >= ranges[len(ranges)-1] {
			t.Fatalf("weight %v outside [0, %v)", w, ranges[len(ranges)-1])
		}
		if w < 10 {
			below10++
		}
	}
	if got := float64(below10) / draws; math.Abs(got-wantBelow10) > 0.01 {
		t.Fatalf("%.4f of the weights are below 10, want about %.4f", got, wantBelow10)
	}
}

func TestRunSmall(t *testing.T) {
	var seen []Generation
	res, err := Run(context.Background(), Config{Population: 10, Generations: 3, Seed: 1, Workers: 2}, func(g Generation) {
		seen = append(seen, g)
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Generations) != 3 || !reflect.DeepEqual(seen, res.Generations) {
		t.Fatalf("got %d generations, progress saw %v", len(res.Generations), seen)
	}
	for k, g := range res.Generations {
		if g.N != k+1 {
			t.Errorf("generation %d is numbered %d", k+1, g.N)
		}
		for _, f := range []float64{g.BestFirst, g.BestSecond, g.MeanFirst, g.MeanSecond} {
			if f < 0 || f > 1 {
				t.Errorf("generation %d: fitness %v outside [0, 1]: %+v", g.N, f, g)
			}
		}
		if g.BestFirst < g.MeanFirst || g.BestSecond < g.MeanSecond {
			t.Errorf("generation %d: a best below its mean: %+v", g.N, g)
		}
		// Every game is a win for one side or half a win for each.
		if s := g.MeanFirst + g.MeanSecond; math.Abs(s-1) > 1e-9 {
			t.Errorf("generation %d: mean fitnesses add up to %v, want 1", g.N, s)
		}
	}
	check := func(name string, first int, beat func(Generation) bool) {
		want := 0
		for _, g := range res.Generations {
			if beat(g) {
				want = g.N
				break
			}
		}
		if first != want {
			t.Errorf("%s first at %d, the generations say %d", name, first, want)
		}
	}
	check("ES", res.FirstBeatES, func(g Generation) bool { return g.BeatES })
	check("HS", res.FirstBeatHS, func(g Generation) bool { return g.BeatHS })
	check("HS by the first mover", res.FirstMoverBeatHS, func(g Generation) bool { return g.FirstBeatHS })
	for _, n := range []*model.StrategyNet{res.BestFirst, res.BestSecond} {
		if n == nil || len(n.W) != model.Nodes(Size) {
			t.Fatalf("best network %v, want one of %d weights", n, model.Nodes(Size))
		}
	}
}

func TestRunStopsWhenBeaten(t *testing.T) {
	res, err := Run(context.Background(), Config{Population: 10, Generations: 40, Seed: 2, StopWhenBeaten: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	last := res.Generations[len(res.Generations)-1].N
	beaten := res.FirstBeatES > 0 && res.FirstBeatHS > 0
	switch {
	case beaten && last != max(res.FirstBeatES, res.FirstBeatHS):
		t.Fatalf("both enemies beaten by generation %d, run went on to %d", max(res.FirstBeatES, res.FirstBeatHS), last)
	case !beaten && last != 40:
		t.Fatalf("run stopped at %d without beating both enemies (ES %d, HS %d)", last, res.FirstBeatES, res.FirstBeatHS)
	}
}

func TestRunDoesNotDependOnWorkers(t *testing.T) {
	run := func(workers int, seed uint64) Result {
		res, err := Run(context.Background(), Config{Population: 16, Generations: 4, Seed: seed, Workers: workers}, nil)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	one, four := run(1, 9), run(4, 9)
	if !reflect.DeepEqual(one, four) {
		t.Fatalf("Workers 1 and 4 differ:\n%+v\n%+v", one.Generations, four.Generations)
	}
	if other := run(4, 10); reflect.DeepEqual(one.Generations, other.Generations) {
		t.Fatal("seeds 9 and 10 give the same run")
	}
}

func TestRunCancel(t *testing.T) {
	t.Run("before", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		res, err := Run(ctx, Config{Population: 10, Generations: 5}, nil)
		if !errors.Is(err, context.Canceled) || len(res.Generations) != 0 {
			t.Fatalf("got %d generations and %v, want none and %v", len(res.Generations), err, context.Canceled)
		}
	})
	t.Run("during", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		res, err := Run(ctx, Config{Population: 10, Generations: 1000, Workers: 3}, func(g Generation) {
			if g.N == 2 {
				cancel()
			}
		})
		if !errors.Is(err, context.Canceled) || len(res.Generations) != 2 {
			t.Fatalf("got %d generations and %v, want 2 and %v", len(res.Generations), err, context.Canceled)
		}
	})
}

func TestConfigErrors(t *testing.T) {
	tests := []struct {
		name string
		cfg  Config
	}{
		{"negative population", Config{Population: -1}},
		{"negative generations", Config{Generations: -2}},
		{"mutation above one", Config{Mutation: 1.5}},
		{"negative mutation", Config{Mutation: -0.1}},
		{"NaN mutation", Config{Mutation: math.NaN()}},
		{"elite above population", Config{Population: 4, Elite: 5}},
		{"negative workers", Config{Workers: -1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := Run(context.Background(), tt.cfg, nil); !errors.Is(err, ErrBadConfig) {
				t.Fatalf("Run(%+v) = %v, want %v", tt.cfg, err, ErrBadConfig)
			}
		})
	}
}

func TestFile(t *testing.T) {
	cfg := Config{Population: 4, Generations: 1, Seed: 4}
	res, err := Run(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	f, err := File(res.BestSecond, cfg, res, "white")
	if err != nil {
		t.Fatal(err)
	}
	path := t.TempDir() + "/best.json"
	if err := f.Save(path); err != nil {
		t.Fatal(err)
	}
	back, err := model.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if back.Game != GameSpec || !slices.Equal(back.Weights, res.BestSecond.W) || back.Training.Games != 16 {
		t.Fatalf("file read back as %+v", back)
	}
}

// BenchmarkGeneration measures one generation of the paper's size on one core: 10,000
// games between the populations, the enemy games and breeding.
func BenchmarkGeneration(b *testing.B) {
	e := newEvolver(Config{Population: 100, Seed: 1, Workers: 1}.withDefaults())
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := e.evaluate(ctx); err != nil {
			b.Fatal(err)
		}
		e.breed()
	}
}

package train

import (
	"context"
	"errors"
	"runtime"
	"slices"
	"testing"
)

// TestTune checks the search on 6x6 against HP1 as black: it finds weights that beat HP1
// far more often than the zero network (which plays at random) in the same fresh games,
// its generations improve, it plays as many games as it says, and the same seed finds
// the same weights whatever the number of workers.
func TestTune(t *testing.T) {
	cfg := TuneConfig{Game: "othello:size=6", Opponents: []Opponent{hp1}, Seat: SeatBlack, Seed: 4,
		Generations: 10, Population: 20, Games: 40, FinalGames: 400}
	res, err := Tune(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	zero := cfg
	zero.Sigma = 1e-300 // every candidate the zero network, or nearly
	zero.Noise = 1e-300
	zero.Generations = 1
	base, err := Tune(context.Background(), zero, nil)
	if err != nil {
		t.Fatal(err)
	}
	got, was := res.Final[0].Score(), base.Final[0].Score()
	t.Logf("tuned %.1f%% against the zero network's %.1f%% in %d fresh games; generations %v", got, was, cfg.FinalGames, res.Generations)
	if got < was+20 {
		t.Errorf("tuned weights score %.1f%%, the zero network %.1f%%: want at least 20 points more", got, was)
	}
	if first, last := res.Generations[0].EliteMean, res.Generations[len(res.Generations)-1].EliteMean; last <= first {
		t.Errorf("elite mean went from %.1f%% to %.1f%%", first, last)
	}
	if want := int64(10*20*40 + 400); res.Games != want {
		t.Errorf("%d games, want %d", res.Games, want)
	}
	if n := res.Final[0].Wins + res.Final[0].Draws + res.Final[0].Losses; n != 400 {
		t.Errorf("final test of %d games, want 400", n)
	}

	prev := runtime.GOMAXPROCS(1)
	defer runtime.GOMAXPROCS(prev)
	one, err := Tune(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(one.Weights.W, res.Weights.W) || one.Final[0] != res.Final[0] {
		t.Errorf("one worker found other weights (final %+v) than %d workers (final %+v)", one.Final[0], prev, res.Final[0])
	}
}

// TestTuneConfig checks that bad settings are refused with ErrConfig.
func TestTuneConfig(t *testing.T) {
	ok := TuneConfig{Game: "othello:size=4", Opponents: []Opponent{hp2}, Generations: 1, Population: 2, Games: 1, FinalGames: 1}
	if _, err := Tune(context.Background(), ok, nil); err != nil {
		t.Fatalf("valid config: %v", err)
	}
	for _, tc := range []struct {
		name string
		edit func(*TuneConfig)
	}{
		{"no opponents", func(c *TuneConfig) { c.Opponents = nil }},
		{"self play", func(c *TuneConfig) { c.Opponents = []Opponent{{Name: "s", Agent: SelfPlay}} }},
		{"checkers", func(c *TuneConfig) { c.Game = "checkers" }},
		{"population of one", func(c *TuneConfig) { c.Population = 1 }},
		{"elite above population", func(c *TuneConfig) { c.Elite = 3 }},
		{"negative games", func(c *TuneConfig) { c.Games = -1 }},
		{"negative generations", func(c *TuneConfig) { c.Generations = -2 }},
		{"negative sigma", func(c *TuneConfig) { c.Sigma = -1 }},
		{"bad seat", func(c *TuneConfig) { c.Seat = "red" }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := ok
			tc.edit(&c)
			if _, err := Tune(context.Background(), c, nil); !errors.Is(err, ErrConfig) {
				t.Errorf("Tune = %v, want ErrConfig", err)
			}
		})
	}
}

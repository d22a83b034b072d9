package train

import (
	"errors"
	"slices"
	"testing"

	"github.com/arenaref/arena/players/ai/learn/features"
)

// TestCheckersLearns trains TD and TDLeaf learners briefly on both variants against a
// pool of random-weight opponents and checks that they then score better against
// unseen random-weight opponents than their initial (zero) weights did.
func TestCheckersLearns(t *testing.T) {
	if testing.Short() {
		t.Skip("trains for a few seconds")
	}
	for _, tc := range []struct {
		game, method string
	}{
		{"giveaway", MethodTD}, {"giveaway", MethodTDLeaf}, {"checkers", MethodTD},
	} {
		t.Run(tc.game+"/"+tc.method, func(t *testing.T) {
			t.Parallel()
			cfg := Config{Game: tc.game, Method: tc.method, Strategy: StrategyLB, Depth: 2, Seed: 1,
				Opponents: RandomWeightsPool(PoolTrain, 10), Test: RandomWeightsPool(PoolTest, 50),
				TestGames: 1, TestFirst: true, Games: 300, Every: 300}
			tr := run(t, cfg)
			st := tr.State()
			if len(st.Curve) != 2 || st.Curve[0].Games != 0 || st.Curve[1].Games != 300 {
				t.Fatalf("curve %+v", st.Curve)
			}
			before, after := Pooled(cfg.Test, st.Curve[0].Test)[0], Pooled(cfg.Test, st.Curve[1].Test)[0]
			if n := before.Wins + before.Draws + before.Losses; n != 100 {
				t.Fatalf("%d test games, want 100", n)
			}
			t.Logf("test score %.1f%% before training, %.1f%% after 300 games", before.Score(), after.Score())
			if after.Score() < before.Score()+10 {
				t.Errorf("test score %.1f%% before training, %.1f%% after: not learning", before.Score(), after.Score())
			}
			finite(t, st.Weights)
			if len(st.Weights) != features.CheckersCount {
				t.Errorf("%d weights", len(st.Weights))
			}
		})
	}
}

// TestCheckersLearnsAtDepth1 trains 1-ply TD and TDLeaf learners briefly against the
// random player and checks that they then beat it clearly more often than their initial
// (zero) weights did. At one ply every leaf is the position after the learner's move;
// scored with the opponent's capture still to come, a piece given away looked free (and
// even good, the opponent's mobility then counting its one capture), and learners that
// lost their first games learned to give pieces away, ending near 0%.
func TestCheckersLearnsAtDepth1(t *testing.T) {
	for _, tc := range []struct {
		game, method string
	}{
		{"checkers", MethodTD}, {"checkers", MethodTDLeaf}, {"giveaway", MethodTD}, {"giveaway", MethodTDLeaf},
	} {
		t.Run(tc.game+"/"+tc.method, func(t *testing.T) {
			cfg := Config{Game: tc.game, Method: tc.method, Depth: 1, Seed: 1, Opponents: []Opponent{random},
				Test: []Opponent{random}, TestGames: 20, TestFirst: true, Games: 60, Every: 60}
			st := run(t, cfg).State()
			if len(st.Curve) != 2 || len(st.Curve[0].Test) != 1 || len(st.Curve[1].Test) != 1 {
				t.Fatalf("curve %+v", st.Curve)
			}
			before, after := st.Curve[0].Test[0].Score(), st.Curve[1].Test[0].Score()
			t.Logf("test score %.1f%% before training, %.1f%% after %d games", before, after, cfg.Games)
			if after < 80 || after < before+10 {
				t.Errorf("test score %.1f%% before training, %.1f%% after: want at least 80%% and 10 points more", before, after)
			}
			finite(t, st.Weights)
		})
	}
}

// TestRandomWeightsPools: members are drawn from the seed, the same for every method,
// and no test opponent is a training opponent.
func TestRandomWeightsPools(t *testing.T) {
	cfg := Config{Game: "giveaway", Method: MethodTD, Seed: 7, Games: 1,
		Opponents: RandomWeightsPool(PoolTrain, 25), Test: RandomWeightsPool(PoolTest, 100)}
	a, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Method = MethodTDLeaf
	b, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(a.pool) != 125 {
		t.Fatalf("%d pool members, want 125", len(a.pool))
	}
	seen := map[float64]string{}
	for name, m := range a.pool {
		if !slices.Equal(m.W, b.pool[name].W) {
			t.Errorf("%s differs between methods", name)
		}
		for _, w := range m.W {
			if !(w > -10 && w < 10) {
				t.Fatalf("%s: weight %v", name, w)
			}
		}
		if other, ok := seen[m.W[0]]; ok {
			t.Errorf("%s and %s share weights", name, other)
		}
		seen[m.W[0]] = name
	}
	cfg.Seed = 8
	c, _ := New(cfg)
	if slices.Equal(c.pool["rw1"].W, a.pool["rw1"].W) {
		t.Error("the pool does not depend on the seed")
	}

	for name, edit := range map[string]func(c *Config){
		"test pool in training":  func(c *Config) { c.Opponents = RandomWeightsPool(PoolTest, 2) },
		"training pool in tests": func(c *Config) { c.Test = RandomWeightsPool(PoolTrain, 2) },
		"member twice":           func(c *Config) { c.Opponents = append(c.Opponents, c.Opponents[0]) },
		"bad index": func(c *Config) {
			c.Opponents = []Opponent{{Name: "x", Agent: RandomWeights, Params: map[string]string{"pool": PoolTrain, "index": "-1"}}}
		},
		"extra parameter": func(c *Config) {
			c.Opponents = []Opponent{{Name: "x", Agent: RandomWeights, Params: map[string]string{"pool": PoolTrain, "index": "1", "depth": "2"}}}
		},
		"strategy-net on checkers": func(c *Config) { c.Method = MethodStrategyNet },
	} {
		c := cfg
		edit(&c)
		if _, err := New(c); !errors.Is(err, ErrConfig) {
			t.Errorf("%s: New = %v, want ErrConfig", name, err)
		}
	}
}

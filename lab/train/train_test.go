package train

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/arenaref/arena/games/othello"
	_ "github.com/arenaref/arena/players/agents/heuristic"
	"github.com/arenaref/arena/players/agents/learned"
	_ "github.com/arenaref/arena/players/agents/random"
	"github.com/arenaref/arena/players/ai/learn/features"
	"github.com/arenaref/arena/players/ai/learn/model"
)

var (
	hp1    = Opponent{Name: "hp1", Agent: "hp1"}
	hp2    = Opponent{Name: "hp2", Agent: "hp2"}
	random = Opponent{Name: "random", Agent: "random"}
)

func run(t *testing.T, cfg Config) *Trainer {
	t.Helper()
	tr, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := tr.Run(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	return tr
}

func finite(t *testing.T, w []float64) {
	t.Helper()
	for k, x := range w {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			t.Fatalf("weight %d = %v", k, x)
		}
	}
}

// TestMethods trains each method briefly and checks the bookkeeping and that the weights
// moved.
func TestMethods(t *testing.T) {
	tests := []struct {
		name string
		cfg  Config
	}{
		{"strategy-net", Config{Game: "othello:size=6", Method: MethodStrategyNet, Opponents: []Opponent{hp1, random}, Games: 60}},
		{"strategy-net pairs", Config{Game: "othello:size=4", Method: MethodStrategyNet, Pairs: true, Opponents: []Opponent{random}, Games: 60}},
		{"td LB", Config{Game: "othello:size=6", Method: MethodTD, Opponents: []Opponent{hp2}, Games: 40, Depth: 2}},
		{"tdleaf LL", Config{Game: "othello:size=6", Method: MethodTDLeaf, Strategy: StrategyLL, Opponents: []Opponent{hp1, hp2}, Games: 40, Depth: 2}},
		{"td L3 random init", Config{Game: "othello", Method: MethodTD, Strategy: StrategyL3, Init: InitRandom, Opponents: []Opponent{hp1, random}, Games: 20}},
		{"evo", Config{Game: "othello:size=6", Method: MethodEvo, Games: 45, Init: InitRandom}},
		{"tdleaf self-play", Config{Game: "othello:size=6", Method: MethodTDLeaf, Opponents: []Opponent{{Name: "self", Agent: SelfPlay}}, Games: 40, Depth: 2}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tc.cfg.Every = 10
			tr := run(t, tc.cfg)
			st := tr.State()
			if st.Played != tc.cfg.Games || st.Wins+st.Draws+st.Losses != tc.cfg.Games {
				t.Fatalf("played %d (%d-%d-%d), want %d", st.Played, st.Wins, st.Draws, st.Losses, tc.cfg.Games)
			}
			if len(st.Curve) != tc.cfg.Games/10 {
				t.Fatalf("%d curve points, want %d", len(st.Curve), tc.cfg.Games/10)
			}
			sum := 0
			for _, p := range st.FullCurve() {
				sum += p.Wins + p.Draws + p.Losses
			}
			if sum != tc.cfg.Games {
				t.Errorf("curve counts %d games", sum)
			}
			finite(t, st.Weights)
			moved := false
			fresh, _ := New(tc.cfg)
			for k := range st.Weights {
				moved = moved || st.Weights[k] != fresh.State().Weights[k]
			}
			if !moved && st.Wins+st.Losses > 0 && tc.cfg.Method != MethodEvo {
				t.Error("no weight changed")
			}
			f, err := tr.File("test")
			if err != nil {
				t.Fatal(err)
			}
			if f.Training.Games != tc.cfg.Games || f.Training.Method != tc.cfg.Method {
				t.Errorf("file records %+v", f.Training)
			}
		})
	}
}

// TestLoadCheckpoint checks which checkpoint files load: one written before a field
// existed still does (the field reads as zero); a misspelt, unknown or repeated field, or
// data after the object, does not.
func TestLoadCheckpoint(t *testing.T) {
	old := `{"format":"arena-train-checkpoint","version":1,"config":{"game":"othello","method":"td","games":10,` +
		`"seed":1,"seat":"both","depth":1,"init":"zero","every":1},"played":3,"wins":1,"draws":1,"losses":1,` +
		`"block":{"games":0,"wins":0,"draws":0,"losses":0},"next":0,"streak":0,"last_result":1,"weights":[0.5,-1],"curve":[]}`
	tests := []struct {
		name string
		data string
		ok   bool
	}{
		{"written before test_first, evo and seconds existed", old, true},
		{"white space after", old + "\n\n", true},
		{"unknown field", strings.Replace(old, `"played"`, `"rounds":2,"played"`, 1), false},
		{"field in another case", strings.Replace(old, `"played"`, `"Played"`, 1), false},
		{"field given twice", strings.Replace(old, `"played":3`, `"played":3,"played":4`, 1), false},
		{"data after the object", old + "{}", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "w.json.ckpt")
			if err := os.WriteFile(path, []byte(tt.data), 0o644); err != nil {
				t.Fatal(err)
			}
			st, err := LoadCheckpoint(path)
			if (err == nil) != tt.ok {
				t.Fatalf("LoadCheckpoint = %v, want ok %v", err, tt.ok)
			}
			if err != nil && !errors.Is(err, ErrConfig) {
				t.Errorf("LoadCheckpoint = %v, want an ErrConfig", err)
			}
			if tt.ok && (st.Played != 3 || st.Seconds != 0 || st.Config.TestFirst || !slices.Equal(st.Weights, []float64{0.5, -1})) {
				t.Errorf("LoadCheckpoint = %+v", st)
			}
		})
	}
}

// TestResumeIsExact checks that a run stopped and resumed from its checkpoint trains
// exactly the weights of a run that was never stopped.
func TestResumeIsExact(t *testing.T) {
	for _, cfg := range []Config{
		{Game: "othello:size=6", Method: MethodStrategyNet, Opponents: []Opponent{hp1, random}, Games: 60, Every: 7, Seed: 3},
		{Game: "othello:size=6", Method: MethodTDLeaf, Strategy: StrategyL3, Opponents: []Opponent{hp1, random}, Games: 30, Depth: 2, Every: 4, Seed: 4},
		{Game: "othello:size=4", Method: MethodEvo, Games: 31, Every: 5, Seed: 5},
		{Game: "giveaway", Method: MethodTDLeaf, Strategy: StrategyL3, Depth: 2, Seed: 4,
			Opponents: RandomWeightsPool(PoolTrain, 3), Test: RandomWeightsPool(PoolTest, 2), TestGames: 1,
			TestFirst: true, Games: 20, Every: 5},
	} {
		t.Run(cfg.Game+"/"+cfg.Method, func(t *testing.T) {
			whole := run(t, cfg)

			half := cfg
			half.Games = cfg.Games / 2
			first := run(t, half)
			path := filepath.Join(t.TempDir(), "w.json.ckpt")
			if err := first.SaveCheckpoint(path); err != nil {
				t.Fatal(err)
			}
			st, err := LoadCheckpoint(path)
			if err != nil {
				t.Fatal(err)
			}
			second, err := Resume(cfg, st)
			if err != nil {
				t.Fatal(err)
			}
			if err := second.Run(context.Background(), nil); err != nil {
				t.Fatal(err)
			}
			a, b := whole.State(), second.State()
			a.Seconds, b.Seconds = 0, 0
			if !reflect.DeepEqual(a, b) {
				t.Errorf("resumed run differs:\n whole   %+v\n resumed %+v", a.Curve, b.Curve)
			}
		})
	}
}

func TestResumeRefusesOtherTraining(t *testing.T) {
	cfg := Config{Game: "othello:size=4", Method: MethodStrategyNet, Opponents: []Opponent{random}, Games: 10}
	tr := run(t, cfg)
	other := cfg
	other.Seed = 9
	if _, err := Resume(other, tr.State()); !errors.Is(err, ErrConfig) {
		t.Errorf("Resume with another seed: %v, want ErrConfig", err)
	}
	more := cfg
	more.Games = 20
	if _, err := Resume(more, tr.State()); err != nil {
		t.Errorf("Resume with more games: %v", err)
	}
	bad := tr.State()
	bad.Weights = []float64{1}
	if _, err := Resume(cfg, bad); !errors.Is(err, ErrConfig) {
		t.Errorf("Resume with the wrong weights: %v, want ErrConfig", err)
	}
}

func TestConfigErrors(t *testing.T) {
	ok := Config{Method: MethodTD, Opponents: []Opponent{hp1}, Games: 10}
	tests := []struct {
		name string
		edit func(c *Config)
	}{
		{"unknown method", func(c *Config) { c.Method = "sarsa" }},
		{"no opponents", func(c *Config) { c.Opponents = nil }},
		{"evo with opponents", func(c *Config) { c.Method = MethodEvo }},
		{"not othello", func(c *Config) { c.Game = "ipd" }},
		{"unknown game", func(c *Config) { c.Game = "chess" }},
		{"no games", func(c *Config) { c.Games = 0 }},
		{"bad seat", func(c *Config) { c.Seat = "red" }},
		{"bad depth", func(c *Config) { c.Depth = 99 }},
		{"bad init", func(c *Config) { c.Init = "ones" }},
		{"alpha too big", func(c *Config) { c.Alpha = 1.5 }},
		{"lambda negative", func(c *Config) { c.Lambda = -0.1 }},
		{"bad strategy", func(c *Config) { c.Strategy = "LX" }},
		{"pairs for td", func(c *Config) { c.Pairs = true }},
		{"unknown opponent", func(c *Config) { c.Opponents = []Opponent{{Name: "x", Agent: "nobody"}} }},
		{"bad opponent params", func(c *Config) {
			c.Opponents = []Opponent{{Name: "x", Agent: "hp1", Params: map[string]string{"depth": "2"}}}
		}},
		{"strategy for strategy-net", func(c *Config) { c.Method = MethodStrategyNet; c.Strategy = StrategyLL }},
		{"too many random plies", func(c *Config) { c.RandomPlies = 21 }},
		{"credit for td", func(c *Config) { c.Credit = CreditPlaced }},
		{"unknown credit", func(c *Config) { c.Method = MethodStrategyNet; c.Credit = "owned" }},
		{"placed credit with pairs", func(c *Config) { c.Method = MethodStrategyNet; c.Pairs = true; c.Credit = CreditPlaced }},
		{"too many test games", func(c *Config) { c.Test = []Opponent{hp2}; c.TestGames = MaxTestGames + 1 }},
		{"self play with parameters", func(c *Config) {
			c.Opponents = []Opponent{{Name: "s", Agent: SelfPlay, Params: map[string]string{"depth": "2"}}}
		}},
	}
	if _, err := New(ok); err != nil {
		t.Fatalf("valid config: %v", err)
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := ok
			tc.edit(&c)
			if _, err := New(c); !errors.Is(err, ErrConfig) {
				t.Errorf("New = %v, want ErrConfig", err)
			}
		})
	}
}

// TestL3Schedule checks the opponent order: in turn, but under L3 a lost game is
// replayed against the same opponent, at most three games in a row.
func TestL3Schedule(t *testing.T) {
	tr := &Trainer{cfg: Config{Strategy: StrategyL3, Opponents: []Opponent{hp1, hp2, random}}}
	results := []int{-1, -1, -1, 1, -1, 0, -1, 1}
	want := []int{0, 0, 0, 1, 2, 2, 0, 0, 1} // the opponent of each game, and the next one
	got := []int{tr.st.Next}
	for _, r := range results {
		tr.schedule(r)
		got = append(got, tr.st.Next)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("L3 opponents %v, want %v", got, want)
	}
	tr = &Trainer{cfg: Config{Strategy: StrategyLL, Opponents: []Opponent{hp1, hp2}}}
	got = []int{tr.st.Next}
	for _, r := range []int{-1, -1, 1} {
		tr.schedule(r)
		got = append(got, tr.st.Next)
	}
	if want := []int{0, 1, 0, 1}; !reflect.DeepEqual(got, want) {
		t.Errorf("LL opponents %v, want %v", got, want)
	}
}

// TestEvoStep checks the EVO rule: the learner moves 5% towards the opponent only after a
// pair of games with two losses or a loss and a draw, and the opponent always gets noise.
func TestEvoStep(t *testing.T) {
	for _, tc := range []struct {
		pair  [2]int
		moves bool
	}{
		{[2]int{-1, -1}, true}, {[2]int{-1, 0}, true}, {[2]int{0, -1}, true},
		{[2]int{0, 0}, false}, {[2]int{-1, 1}, false}, {[2]int{1, 1}, false},
	} {
		tr, err := New(Config{Game: "othello:size=4", Method: MethodEvo, Games: 2})
		if err != nil {
			t.Fatal(err)
		}
		opp := append([]float64(nil), tr.evo.W...)
		tr.evoStep(tc.pair[0], nil)
		if tr.tl.W[0] != 0 || len(tr.st.EvoPair) != 1 {
			t.Fatalf("%v: changed after one game", tc.pair)
		}
		tr.evoStep(tc.pair[1], rngFor(1))
		moved := tr.tl.W[0] != 0
		if moved != tc.moves {
			t.Errorf("%v: learner moved %v, want %v", tc.pair, moved, tc.moves)
		}
		if tc.moves && math.Abs(tr.tl.W[0]-0.05*opp[0]) > 1e-12 {
			t.Errorf("%v: w[0] = %v, want 5%% of %v", tc.pair, tr.tl.W[0], opp[0])
		}
		if tr.evo.W[0] == opp[0] {
			t.Errorf("%v: the opponent got no noise", tc.pair)
		}
	}
}

// TestRandomPlies checks that random opening plies make games between deterministic
// players differ, and that without them such players play one game over and over.
func TestRandomPlies(t *testing.T) {
	g, err := othello.NewSize(6)
	if err != nil {
		t.Fatal(err)
	}
	lg, err := learned.GameOf(g)
	if err != nil {
		t.Fatal(err)
	}
	distinct := func(plies int) int {
		seen := map[string]bool{}
		for k := range 20 {
			det := func() mover {
				return &netMover{x: learned.NewSearcher(lg, model.NewTanhLinear(features.Count)), depth: 1}
			}
			s, err := play(g, det(), det(), plies, rngFor(uint64(k)))
			if err != nil {
				t.Fatal(err)
			}
			if plies > 0 && s.Ply() < plies {
				t.Fatalf("game of %d plies", s.Ply())
			}
			seen[s.String()] = true
		}
		return len(seen)
	}
	if n := distinct(0); n != 1 {
		t.Errorf("without random plies %d distinct games, want 1", n)
	}
	if n := distinct(4); n < 10 {
		t.Errorf("with 4 random plies only %d distinct games of 20", n)
	}
}

// TestFileRoundTrip checks that the weights file of a run records the game, the model
// and the names of the game's features (or the network's nodes), and loads back to an
// evaluation that evaluates the same; only Othello files have a board size.
func TestFileRoundTrip(t *testing.T) {
	for _, cfg := range []Config{
		{Game: "othello:size=6", Method: MethodStrategyNet, Opponents: []Opponent{random}, Games: 20},
		{Game: "othello:size=6", Method: MethodTD, Opponents: []Opponent{random}, Games: 20},
		{Game: "checkers", Method: MethodTD, Init: InitRandom, Games: 4, Opponents: RandomWeightsPool(PoolTrain, 2)},
		{Game: "giveaway", Method: MethodTD, Init: InitRandom, Games: 4, Opponents: RandomWeightsPool(PoolTrain, 2)},
	} {
		t.Run(cfg.Game+"/"+cfg.Method, func(t *testing.T) {
			tr := run(t, cfg)
			f, err := tr.File("test")
			if err != nil {
				t.Fatal(err)
			}
			if tr.tl != nil && (f.Model != model.KindTanhLinear || !slices.Equal(f.Names, tr.lg.Names())) || f.Game != cfg.Game {
				t.Errorf("file: game %q model %q names %v", f.Game, f.Model, f.Names)
			}
			path := filepath.Join(t.TempDir(), "w.json")
			if err := f.Save(path); err != nil {
				t.Fatal(err)
			}
			back, err := model.Load(path)
			if err != nil {
				t.Fatal(err)
			}
			e, err := back.Evaluator()
			if err != nil {
				t.Fatal(err)
			}
			s := tr.game.NewState()
			if a, b := tr.value(tr.Evaluator(), s, 0), tr.value(e, s, 0); a != b || a == 0 && cfg.Init == InitRandom {
				t.Errorf("loaded evaluation %v, trained %v", b, a)
			}
			if _, err := back.BoardSize(); (err == nil) != strings.HasPrefix(cfg.Game, "othello") {
				t.Errorf("BoardSize: %v", err)
			}
		})
	}
}

func rngFor(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, seed)) }

// TestTestPhaseSeats checks that a test phase plays TestGames games with each colour the
// learner plays: both colours for a learner of both seats, only its own otherwise.
func TestTestPhaseSeats(t *testing.T) {
	first := Opponent{Name: "h1f", Agent: "hp1", Params: map[string]string{"ties": "first"}}
	for _, tc := range []struct {
		seat string
		want int
	}{{SeatBoth, 14}, {SeatBlack, 7}, {SeatWhite, 7}} {
		t.Run(tc.seat, func(t *testing.T) {
			tr := run(t, Config{Game: "othello:size=6", Method: MethodStrategyNet, Seat: tc.seat,
				Opponents: []Opponent{random}, Games: 5, Every: 5, Test: []Opponent{first, hp2}, TestGames: 7})
			point := tr.State().Curve[0]
			for _, sc := range point.Test {
				if n := sc.Wins + sc.Draws + sc.Losses; n != tc.want {
					t.Errorf("%s: %d test games, want %d", sc.Opponent, n, tc.want)
				}
			}
		})
	}
}

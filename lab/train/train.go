package train

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/arenaref/arena/agent"
	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/games/othello"
	"github.com/arenaref/arena/internal/atomicfile"
	"github.com/arenaref/arena/internal/strictjson"
	"github.com/arenaref/arena/players/agents/learned"
	"github.com/arenaref/arena/players/ai/learn/model"
	"github.com/arenaref/arena/players/ai/learn/td"
)

// Methods.
const (
	MethodTD          = "td"
	MethodTDLeaf      = "tdleaf"
	MethodStrategyNet = "strategy-net"
	MethodEvo         = "evo"
)

// Learning strategies of the TD methods (seed 002).
const (
	StrategyLB = "LB" // learn after every game
	StrategyLL = "LL" // learn after a loss or a draw
	StrategyL3 = "L3" // LL, and after a loss play the same opponent again, at most three games in a row
)

// Credit rules of the strategy network: which weights a game's result changes.
const (
	// CreditUsed changes the weight of every node present in any position of the game,
	// once: the paper's rule as Arena reads it.
	CreditUsed = "used"
	// CreditPlaced changes only the learner's own node on each square where it placed a
	// disc during the game, once per square.
	CreditPlaced = "placed"
)

// Seats the learner can play.
const (
	SeatBlack = "black"
	SeatWhite = "white"
	SeatBoth  = "both" // black in even-numbered games (from 0), white in odd ones
)

// Initial weights.
const (
	InitZero   = "zero"
	InitRandom = "random" // uniform in (-10, 10), as seed 002's random players
)

// Defaults. Seed 002 does not give its step size; Chinook's 0.01 (seed 000) is for
// other features. With V = 99 tanh(0.027 x) the gradient carries a factor 99 * 0.027 =
// 2.7 and a lost game's differences add up to about 100, so 0.01 moves weights by tens
// per game, which saturates tanh within a few hundred games (every position then scores
// +-99 and the learner plays at random). 0.0001 learns steadily: see docs/learning.md.
const (
	DefaultAlpha    = 0.0001
	DefaultLambda   = 0.95
	DefaultEvoSigma = 1.0
	DefaultEvoRate  = 0.05
	MaxL3Streak     = 3
	// MaxTestGames bounds Config.TestGames: each test game draws from its own random
	// stream, numbered by the curve point, the opponent and 12 bits of the game.
	MaxTestGames = 2048
)

// ErrConfig is wrapped by every error about a Config.
var ErrConfig = errors.New("train: bad configuration")

// SelfPlay as an opponent's agent is the learner itself: its current weights, searched to
// the same depth, learning only from its own side of the game.
const SelfPlay = "self"

// RandomWeights as an opponent's agent is one member of a pool of tanh-linear players
// of the learner's features and depth, with weights drawn uniformly from (-10, 10) as
// seed 002's random opponents. Its parameters are the pool, PoolTrain (allowed in
// Config.Opponents only) or PoolTest (in Config.Test only), and its index in the pool.
// Member i of a pool draws its weights from its own random stream, PCG(seed, stream of
// the pool + i) with the run's seed: the same seed gives the same opponents to every
// method, and as the two pools draw from different streams, no test opponent is a
// training opponent.
const RandomWeights = "random-weights"

// The random-weights pools.
const (
	PoolTrain = "train"
	PoolTest  = "test"
)

// poolStreams are the random streams of the pools' members (member i uses stream + i).
var poolStreams = map[string]uint64{PoolTrain: 0x7261_6e64_0000_0000, PoolTest: 0x7465_7374_0000_0000}

// RandomWeightsPool returns the n members of a random-weights pool as opponents, named
// rw1 ... rwN (training) or test-rw1 ... test-rwN (test).
func RandomWeightsPool(pool string, n int) []Opponent {
	prefix := "rw"
	if pool == PoolTest {
		prefix = "test-rw"
	}
	ops := make([]Opponent, n)
	for i := range ops {
		ops[i] = Opponent{Name: prefix + strconv.Itoa(i+1), Agent: RandomWeights,
			Params: map[string]string{"pool": pool, "index": strconv.Itoa(i)}}
	}
	return ops
}

// randomWeights returns the weights of a random-weights opponent, n of them.
func randomWeights(seed uint64, o Opponent, n int) ([]float64, error) {
	stream, ok := poolStreams[o.Params["pool"]]
	if !ok {
		return nil, fmt.Errorf("pool %q (%s or %s)", o.Params["pool"], PoolTrain, PoolTest)
	}
	i, err := strconv.Atoi(o.Params["index"])
	if err != nil || i < 0 || i >= 1<<24 {
		return nil, fmt.Errorf("index %q (0 to %d)", o.Params["index"], 1<<24-1)
	}
	if len(o.Params) != 2 {
		return nil, fmt.Errorf("parameters %v: want pool and index only", o.Params)
	}
	w := make([]float64, n)
	initWeights(w, InitRandom, rand.New(rand.NewPCG(seed, stream+uint64(i))))
	return w, nil
}

// Opponent is an agent the learner plays against, by its registered name and parameters.
type Opponent struct {
	Name   string            `json:"name"`  // the label in reports
	Agent  string            `json:"agent"` // the registered agent
	Params map[string]string `json:"params,omitempty"`
}

// Config is a training run.
type Config struct {
	Game      string     `json:"game"`   // canonical spec: othello (any size), checkers, giveaway
	Method    string     `json:"method"` // td, tdleaf, strategy-net or evo
	Opponents []Opponent `json:"opponents,omitempty"`
	Games     int        `json:"games"`
	Seed      uint64     `json:"seed"`
	Seat      string     `json:"seat"`
	Strategy  string     `json:"strategy,omitempty"`
	Alpha     float64    `json:"alpha,omitempty"`
	Lambda    float64    `json:"lambda,omitempty"`
	Depth     int        `json:"depth"`
	Init      string     `json:"init"`
	Pairs     bool       `json:"pairs,omitempty"`
	// Credit is the strategy network's credit rule, CreditUsed (the default) or
	// CreditPlaced.
	Credit   string  `json:"credit,omitempty"`
	EvoSigma float64 `json:"evo_sigma,omitempty"`
	// RandomPlies are played at random at the start of every game, training and test,
	// so that games against deterministic opponents differ.
	RandomPlies int `json:"random_plies,omitempty"`
	// Every is the number of games between two points of the learning curve.
	Every int `json:"every"`
	// Test are the opponents of the test phase, played TestGames times with each colour
	// the learner plays (both, or its Seat), without learning, at every point of the
	// curve; TestGames is at most MaxTestGames.
	Test      []Opponent `json:"test,omitempty"`
	TestGames int        `json:"test_games,omitempty"`
	// TestFirst runs a test phase before the first training game too, as the curve's
	// point at game 0: the score of the initial weights.
	TestFirst bool `json:"test_first,omitempty"`
}

// withDefaults fills the zero fields of c.
func (c Config) withDefaults() Config {
	if c.Game == "" {
		c.Game = othello.Name
	}
	if c.Seat == "" {
		c.Seat = SeatBoth
	}
	if c.Depth == 0 {
		c.Depth = 1
	}
	if c.Init == "" {
		c.Init = InitZero
	}
	if c.Every == 0 {
		c.Every = max(1, c.Games/100)
	}
	if c.Method == MethodTD || c.Method == MethodTDLeaf || c.Method == MethodEvo {
		if c.Alpha == 0 {
			c.Alpha = DefaultAlpha
		}
		if c.Lambda == 0 {
			c.Lambda = DefaultLambda
		}
	}
	if (c.Method == MethodTD || c.Method == MethodTDLeaf) && c.Strategy == "" {
		c.Strategy = StrategyLB
	}
	if c.Method == MethodStrategyNet && c.Credit == "" {
		c.Credit = CreditUsed
	}
	if c.Method == MethodEvo && c.EvoSigma == 0 {
		c.EvoSigma = DefaultEvoSigma
	}
	if len(c.Test) > 0 && c.TestGames == 0 {
		c.TestGames = 50
	}
	return c
}

// check checks c and returns what the learned player knows of its game.
func (c Config) check() (learned.Game, error) {
	g, err := game.Lookup(c.Game)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrConfig, err)
	}
	lg, err := learned.GameOf(g)
	if err != nil {
		return nil, fmt.Errorf("%w: game %q: training plays only the games of the learned player: %s", ErrConfig, c.Game, strings.Join(learned.Games(), ", "))
	}
	bad := func(format string, a ...any) error {
		return fmt.Errorf("%w: "+format, append([]any{ErrConfig}, a...)...)
	}
	if _, err := model.NetSize(g); c.Method == MethodStrategyNet && err != nil {
		return nil, bad("method strategy-net plays Othello only")
	}
	switch c.Method {
	case MethodTD, MethodTDLeaf, MethodStrategyNet:
		if len(c.Opponents) == 0 {
			return nil, bad("method %s needs at least one opponent", c.Method)
		}
	case MethodEvo:
		if len(c.Opponents) > 0 {
			return nil, bad("method evo trains against its own evolving opponent; give no opponents")
		}
	default:
		return nil, bad("unknown method %q (td, tdleaf, strategy-net, evo)", c.Method)
	}
	switch {
	case c.Games < 1:
		return nil, bad("games must be at least 1")
	case c.Seat != SeatBlack && c.Seat != SeatWhite && c.Seat != SeatBoth:
		return nil, bad("seat %q (black, white, both)", c.Seat)
	case c.Depth < 1 || c.Depth > learned.MaxDepth:
		return nil, bad("depth %d (1 to %d)", c.Depth, learned.MaxDepth)
	case c.Init != InitZero && c.Init != InitRandom:
		return nil, bad("init %q (zero, random)", c.Init)
	case c.Every < 1:
		return nil, bad("every must be at least 1")
	case c.RandomPlies < 0 || c.RandomPlies > 20:
		return nil, bad("random plies %d (0 to 20)", c.RandomPlies)
	case c.TestGames < 0 || c.TestGames > MaxTestGames:
		return nil, bad("test games %d (0 to %d)", c.TestGames, MaxTestGames)
	case c.Pairs && c.Method != MethodStrategyNet:
		return nil, bad("pairs is a strategy-net option")
	case c.Credit != "" && c.Method != MethodStrategyNet:
		return nil, bad("credit is a strategy-net option")
	case c.Method == MethodStrategyNet && c.Credit != CreditUsed && c.Credit != CreditPlaced:
		return nil, bad("credit %q (%s, %s)", c.Credit, CreditUsed, CreditPlaced)
	case c.Pairs && c.Credit == CreditPlaced:
		return nil, bad("credit %s counts single nodes; it does not go with pairs", CreditPlaced)
	}
	if c.Method == MethodTD || c.Method == MethodTDLeaf || c.Method == MethodEvo {
		if !(c.Alpha > 0 && c.Alpha < 1) {
			return nil, bad("alpha %v (0 < alpha < 1)", c.Alpha)
		}
		if !(c.Lambda >= 0 && c.Lambda <= 1) {
			return nil, bad("lambda %v (0 to 1)", c.Lambda)
		}
	}
	if c.Method == MethodTD || c.Method == MethodTDLeaf {
		if c.Strategy != StrategyLB && c.Strategy != StrategyLL && c.Strategy != StrategyL3 {
			return nil, bad("strategy %q (LB, LL, L3)", c.Strategy)
		}
	} else if c.Strategy != "" {
		return nil, bad("strategy is an option of td and tdleaf")
	}
	if c.Method == MethodEvo && !(c.EvoSigma > 0) || math.IsInf(c.EvoSigma, 0) {
		return nil, bad("evo sigma %v must be positive", c.EvoSigma)
	}
	base, _, _ := game.ParseSpec(c.Game)
	seen := map[string]bool{}
	for k, o := range append(append([]Opponent(nil), c.Opponents...), c.Test...) {
		if o.Agent == SelfPlay {
			if len(o.Params) > 0 {
				return nil, bad("opponent %s: self play takes no parameters", o.Name)
			}
			continue
		}
		if o.Agent == RandomWeights {
			if _, err := randomWeights(c.Seed, o, 1); err != nil {
				return nil, bad("opponent %s: %v", o.Name, err)
			}
			want := PoolTrain
			if k >= len(c.Opponents) {
				want = PoolTest
			}
			if p := o.Params["pool"]; p != want {
				return nil, bad("opponent %s: a %s opponent from the %s pool (training opponents come from the %s pool, test opponents from the %s pool, so that the two never meet)",
					o.Name, want, p, PoolTrain, PoolTest)
			}
			key := o.Params["pool"] + "/" + o.Params["index"]
			if seen[key] {
				return nil, bad("opponent %s: member %s of the %s pool twice", o.Name, o.Params["index"], o.Params["pool"])
			}
			seen[key] = true
			continue
		}
		a, err := agent.New(o.Agent, agent.Config{Params: o.Params})
		if err != nil {
			return nil, bad("opponent %s: %v", o.Name, err)
		}
		agent.Close(a)
		if gs := agent.Games(o.Agent); gs != nil && !slices.Contains(gs, base) {
			return nil, bad("opponent %s: agent %s does not play %s", o.Name, o.Agent, base)
		}
	}
	return lg, nil
}

// Point is a point of the learning curve: the games since the previous point.
type Point struct {
	Games  int         `json:"games"` // games played when the point was taken
	Wins   int         `json:"wins"`
	Draws  int         `json:"draws"`
	Losses int         `json:"losses"`
	Test   []TestScore `json:"test,omitempty"`
}

// WinRate is the share of the point's games won, in percent.
func (p Point) WinRate() float64 {
	return 100 * float64(p.Wins) / float64(max(1, p.Wins+p.Draws+p.Losses))
}

// TestScore is the result of a test phase against one opponent.
type TestScore struct {
	Opponent string `json:"opponent"`
	Wins     int    `json:"wins"`
	Draws    int    `json:"draws"`
	Losses   int    `json:"losses"`
}

// Score is the test points in percent: 1 a win, 1/2 a draw (seed 002).
func (s TestScore) Score() float64 {
	return 100 * (float64(s.Wins) + float64(s.Draws)/2) / float64(max(1, s.Wins+s.Draws+s.Losses))
}

// State is everything a run needs to carry on: what a checkpoint holds.
type State struct {
	Format  string `json:"format"`
	Version int    `json:"version"`
	Config  Config `json:"config"`
	Played  int    `json:"played"`
	Wins    int    `json:"wins"`
	Draws   int    `json:"draws"`
	Losses  int    `json:"losses"`
	Block   Point  `json:"block"` // the games since the last curve point
	// Next is the index of the next opponent; Streak how many games in a row it has
	// been played (L3); LastResult the learner's last result.
	Next       int       `json:"next"`
	Streak     int       `json:"streak"`
	LastResult int       `json:"last_result"`
	Weights    []float64 `json:"weights"`
	EvoOpp     []float64 `json:"evo_opponent,omitempty"`
	EvoPair    []int     `json:"evo_pair,omitempty"` // results of the current pair of evo games
	Curve      []Point   `json:"curve"`
	Seconds    float64   `json:"seconds"` // training time so far
}

// FullCurve returns the learning curve with, last, the games since its last point when
// the run did not end on one.
func (st State) FullCurve() []Point {
	c := st.Curve
	if b := st.Block; b.Wins+b.Draws+b.Losses > 0 {
		b.Games = st.Played
		c = append(c[:len(c):len(c)], b)
	}
	return c
}

// Checkpoint format.
const (
	CheckpointFormat  = "arena-train-checkpoint"
	CheckpointVersion = 1
)

// Trainer runs a training.
type Trainer struct {
	cfg  Config
	lg   learned.Game // what the learned player knows of game
	game game.Game
	st   State
	eval model.Evaluator
	tl   *model.TanhLinear
	net  *model.StrategyNet
	evo  *model.TanhLinear
	x    Searcher // the learner's
	// searchers are those of the evaluations that play without learning (searcherOf).
	searchers map[model.Evaluator]*searcher
	use       *NetUsage
	moves     []game.Move
	// pool holds the random-weights opponents by name.
	pool map[string]*model.TanhLinear
}

// New starts a training from scratch.
func New(cfg Config) (*Trainer, error) {
	cfg = cfg.withDefaults()
	lg, err := cfg.check()
	if err != nil {
		return nil, err
	}
	g, _ := game.Lookup(cfg.Game) // checked
	t := &Trainer{cfg: cfg, lg: lg, game: g}
	t.st = State{Format: CheckpointFormat, Version: CheckpointVersion, Config: cfg, LastResult: 1}
	rng := rand.New(rand.NewPCG(cfg.Seed, math.MaxUint64))
	n := len(lg.Names())
	for _, o := range append(append([]Opponent(nil), cfg.Opponents...), cfg.Test...) {
		if o.Agent != RandomWeights {
			continue
		}
		w, err := randomWeights(cfg.Seed, o, n)
		if err != nil {
			return nil, err
		}
		if t.pool == nil {
			t.pool = map[string]*model.TanhLinear{}
		}
		m := newModel(lg)
		m.W = w
		t.pool[o.Name] = m
	}
	switch cfg.Method {
	case MethodStrategyNet:
		size, err := model.NetSize(t.game)
		if err != nil {
			return nil, err
		}
		if t.net, err = model.NewStrategyNet(size, cfg.Pairs); err != nil {
			return nil, err
		}
		t.eval = t.net
		initWeights(t.net.W, cfg.Init, rng)
	default:
		t.tl = newModel(lg)
		t.eval = t.tl
		initWeights(t.tl.W, cfg.Init, rng)
		if cfg.Method == MethodEvo {
			t.evo = newModel(lg)
			initWeights(t.evo.W, InitRandom, rng)
		}
	}
	t.bind()
	return t, nil
}

func initWeights(w []float64, init string, rng *rand.Rand) {
	if init != InitRandom {
		return
	}
	for k := range w {
		w[k] = -10 + 20*rng.Float64()
	}
}

// bind points the searcher and the state at the model's weights.
func (t *Trainer) bind() {
	t.x = newSearcher(t.lg, t.eval)
	if t.net != nil {
		t.use = NewNetUsage(t.net)
		t.st.Weights = t.net.W
	} else {
		t.st.Weights = t.tl.W
	}
	if t.evo != nil {
		t.st.EvoOpp = t.evo.W
	}
}

// Resume carries on from a checkpoint. cfg must be the checkpoint's configuration but
// for Games, which may be raised to train further.
func Resume(cfg Config, st State) (*Trainer, error) {
	if st.Format != CheckpointFormat || st.Version != CheckpointVersion {
		return nil, fmt.Errorf("%w: not a version %d training checkpoint", ErrConfig, CheckpointVersion)
	}
	cfg = cfg.withDefaults()
	was := st.Config.withDefaults() // a checkpoint from before a setting had its default
	was.Games = cfg.Games
	if !reflect.DeepEqual(was, cfg) {
		return nil, fmt.Errorf("%w: the checkpoint is of another training (its settings: %s)", ErrConfig, describe(st.Config))
	}
	t, err := New(cfg)
	if err != nil {
		return nil, err
	}
	if st.Played > cfg.Games {
		return nil, fmt.Errorf("%w: the checkpoint has %d games already, more than %d", ErrConfig, st.Played, cfg.Games)
	}
	w := t.st.Weights
	if len(st.Weights) != len(w) || (t.evo != nil && len(st.EvoOpp) != len(t.evo.W)) {
		return nil, fmt.Errorf("%w: the checkpoint's weights do not fit the model", ErrConfig)
	}
	for _, x := range append(append([]float64(nil), st.Weights...), st.EvoOpp...) {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return nil, fmt.Errorf("%w: the checkpoint holds a weight that is not a finite number", ErrConfig)
		}
	}
	if st.Next < 0 || st.Next >= max(1, len(cfg.Opponents)) || st.Played < 0 || len(st.EvoPair) > 1 {
		return nil, fmt.Errorf("%w: the checkpoint's schedule is out of range", ErrConfig)
	}
	copy(w, st.Weights)
	if t.evo != nil {
		copy(t.evo.W, st.EvoOpp)
	}
	st.Config = cfg
	t.st = st
	t.bind()
	return t, nil
}

func describe(c Config) string {
	b, _ := json.Marshal(c)
	return string(b)
}

// State returns the run's state (the weights are shared, not copied).
func (t *Trainer) State() State { return t.st }

// Config returns the run's configuration with its defaults filled in.
func (t *Trainer) Config() Config { return t.cfg }

// Evaluator returns the model being trained.
func (t *Trainer) Evaluator() model.Evaluator { return t.eval }

// SaveCheckpoint writes the state to path atomically.
func (t *Trainer) SaveCheckpoint(path string) error {
	return atomicfile.Write(path, func(w io.Writer) error { return json.NewEncoder(w).Encode(t.st) })
}

// LoadCheckpoint reads a checkpoint file, strictly as every file Arena reads: a field
// missing is zero, one unknown, misspelt or given twice is an error.
func LoadCheckpoint(path string) (State, error) {
	var st State
	data, err := os.ReadFile(path)
	if err != nil {
		return st, err
	}
	if err := strictjson.Decode(data, &st); err != nil {
		return st, fmt.Errorf("%s: %w: %v", path, ErrConfig, err)
	}
	return st, nil
}

// File returns the weights file of the model as trained so far.
func (t *Trainer) File(version string) (*model.File, error) {
	c := t.cfg
	tr := model.Training{
		Method: c.Method, Games: t.st.Played, Seed: c.Seed, Seat: c.Seat, Strategy: c.Strategy,
		Alpha: c.Alpha, Lambda: c.Lambda, Depth: c.Depth, RandomPlies: c.RandomPlies, Credit: c.Credit,
		Wins: t.st.Wins, Draws: t.st.Draws, Losses: t.st.Losses, Arena: version,
	}
	for _, o := range c.Opponents {
		tr.Opponents = append(tr.Opponents, o.Name)
	}
	return model.NewFile(c.Game, t.eval, tr)
}

// Event reports one training game.
type Event struct {
	Game     int // 1-based number of the game just played
	Opponent string
	Result   int    // +1, 0, -1 for the learner
	Point    *Point // set when the game completed a point of the curve
}

// Run plays the remaining training games, calling report after each. It returns
// ctx.Err() when the context ends between games, the state being whole at every game's
// end, so a checkpoint saved then resumes exactly.
func (t *Trainer) Run(ctx context.Context, report func(Event)) error {
	if t.cfg.TestFirst && len(t.cfg.Test) > 0 && t.st.Played == 0 && len(t.st.Curve) == 0 {
		if err := ctx.Err(); err != nil {
			return err
		}
		start := time.Now()
		scores, err := t.testPhase(0)
		if err != nil {
			return err
		}
		t.st.Curve = append(t.st.Curve, Point{Games: 0, Test: scores})
		t.st.Seconds += time.Since(start).Seconds()
	}
	for t.st.Played < t.cfg.Games {
		if err := ctx.Err(); err != nil {
			return err
		}
		start := time.Now()
		ev, err := t.step()
		if err != nil {
			return err
		}
		if ev.Point != nil && len(t.cfg.Test) > 0 {
			ev.Point.Test, err = t.testPhase(t.st.Played)
			if err != nil {
				return err
			}
			t.st.Curve[len(t.st.Curve)-1].Test = ev.Point.Test
		}
		t.st.Seconds += time.Since(start).Seconds()
		if report != nil {
			report(ev)
		}
	}
	return nil
}

// step plays and learns from one training game.
func (t *Trainer) step() (Event, error) {
	idx := t.st.Played
	rng := rand.New(rand.NewPCG(t.cfg.Seed, uint64(idx)))
	seat := game.Seat(0) // black, who moves first, in Othello and checkers alike
	switch {
	case t.cfg.Seat == SeatWhite, t.cfg.Seat == SeatBoth && idx%2 == 1:
		seat = 1
	}
	ev := Event{Game: idx + 1}
	var opp mover
	if t.cfg.Method == MethodEvo {
		opp, ev.Opponent = &searchMover{x: t.searcherOf(t.evo), depth: t.cfg.Depth, rng: rng}, "evo"
	} else {
		o := t.cfg.Opponents[t.st.Next]
		a, closeOpp, err := t.opponent(o, 1-seat, rng)
		if err != nil {
			return ev, err
		}
		defer closeOpp()
		opp, ev.Opponent = a, o.Name
	}
	result, err := t.learnGame(seat, opp, rng)
	if err != nil {
		return ev, err
	}
	ev.Result = result
	t.tally(result)
	t.schedule(result)
	if t.cfg.Method == MethodEvo {
		t.evoStep(result, rng)
	}
	t.st.Played++
	if t.st.Played%t.cfg.Every == 0 {
		p := t.st.Block
		p.Games = t.st.Played
		t.st.Curve = append(t.st.Curve, p)
		t.st.Block = Point{}
		ev.Point = &t.st.Curve[len(t.st.Curve)-1]
	}
	return ev, nil
}

func (t *Trainer) tally(result int) {
	switch {
	case result > 0:
		t.st.Block.Wins++
		t.st.Wins++
	case result < 0:
		t.st.Block.Losses++
		t.st.Losses++
	default:
		t.st.Block.Draws++
		t.st.Draws++
	}
}

// schedule picks the next opponent: the next in turn, or under L3 after a loss the same
// one again, up to MaxL3Streak games in a row.
func (t *Trainer) schedule(result int) {
	t.st.LastResult = result
	n := len(t.cfg.Opponents)
	if n == 0 {
		return
	}
	if t.cfg.Strategy == StrategyL3 && result < 0 && t.st.Streak+1 < MaxL3Streak {
		t.st.Streak++
		return
	}
	t.st.Streak = 0
	t.st.Next = (t.st.Next + 1) % n
}

// evoStep ends a pair of EVO games: after two losses, or a loss and a draw, the learner
// moves DefaultEvoRate of the way to the opponent; then the opponent gets Gaussian noise.
func (t *Trainer) evoStep(result int, rng *rand.Rand) {
	t.st.EvoPair = append(t.st.EvoPair, result)
	if len(t.st.EvoPair) < 2 {
		return
	}
	a, b := t.st.EvoPair[0], t.st.EvoPair[1]
	if a+b < 0 && a <= 0 && b <= 0 {
		td.EvoStep(t.tl.W, t.evo.W, DefaultEvoRate)
	}
	for k := range t.evo.W {
		t.evo.W[k] += t.cfg.EvoSigma * rng.NormFloat64()
	}
	t.st.EvoPair = t.st.EvoPair[:0]
}

// Pooled returns test scores with the members of each random-weights pool added up into
// one score, named as the flag that makes the pool ("random-weights:100"); other
// opponents keep their own. With scores nil it returns the names with empty scores.
func Pooled(test []Opponent, scores []TestScore) []TestScore {
	var out []TestScore
	for i, o := range test {
		var sc TestScore
		if i < len(scores) {
			sc = scores[i]
		}
		if o.Agent != RandomWeights {
			sc.Opponent = o.Name
			out = append(out, sc)
			continue
		}
		if i == 0 || test[i-1].Agent != RandomWeights {
			out = append(out, TestScore{})
		}
		last := &out[len(out)-1]
		n := 1
		if _, c, ok := strings.Cut(last.Opponent, ":"); ok {
			n, _ = strconv.Atoi(c)
			n++
		}
		last.Opponent = RandomWeights + ":" + strconv.Itoa(n)
		last.Wins += sc.Wins
		last.Draws += sc.Draws
		last.Losses += sc.Losses
	}
	return out
}

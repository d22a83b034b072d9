package train

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/players/agents/learned"
	"github.com/arenaref/arena/players/ai/learn/model"
)

// MethodTune searches for a strategy network's weights instead of learning them: the
// cross-entropy method, each candidate scored by its results against the opponents.
const MethodTune = "tune"

// TuneConfig is a search for strategy network weights by the cross-entropy method. Each
// generation draws Population candidates, weight by weight, from a normal distribution,
// plays each Games games against every opponent (the same games for every candidate:
// game j of a generation draws the same random numbers whoever plays it), and moves the
// distribution to the mean and standard deviation of the Elite best, plus Noise (which
// shrinks to zero over the generations, so that the search does not settle early on a
// few lucky games). The weights found are the last mean, tested at the end on FinalGames
// fresh games against each opponent.
type TuneConfig struct {
	Game        string     `json:"game"` // othello, any size
	Opponents   []Opponent `json:"opponents"`
	Seat        string     `json:"seat"` // black, white, or both (alternating)
	Seed        uint64     `json:"seed"`
	Depth       int        `json:"depth"` // the network's search depth
	Generations int        `json:"generations"`
	Population  int        `json:"population"`
	Elite       int        `json:"elite"`
	Games       int        `json:"games"` // per candidate and opponent, each generation
	Sigma       float64    `json:"sigma"` // the initial standard deviation of every weight
	Noise       float64    `json:"noise"` // added to the standard deviation at generation 1
	FinalGames  int        `json:"final_games"`
}

// Tuning defaults.
const (
	DefaultTuneGenerations = 200
	DefaultTunePopulation  = 100
	DefaultTuneGames       = 100
	DefaultTuneSigma       = 5
	DefaultTuneNoise       = 1
	DefaultTuneFinal       = 10000
)

func (c TuneConfig) withDefaults() TuneConfig {
	if c.Game == "" {
		c.Game = "othello"
	}
	if c.Seat == "" {
		c.Seat = SeatBoth
	}
	if c.Depth == 0 {
		c.Depth = 1
	}
	if c.Generations == 0 {
		c.Generations = DefaultTuneGenerations
	}
	if c.Population == 0 {
		c.Population = DefaultTunePopulation
	}
	if c.Elite == 0 {
		c.Elite = max(2, c.Population/5)
	}
	if c.Games == 0 {
		c.Games = DefaultTuneGames
	}
	if c.Sigma == 0 {
		c.Sigma = DefaultTuneSigma
	}
	if c.Noise == 0 {
		c.Noise = DefaultTuneNoise
	}
	if c.FinalGames == 0 {
		c.FinalGames = DefaultTuneFinal
	}
	return c
}

func (c TuneConfig) check() (learned.Game, int, error) {
	bad := func(format string, a ...any) error {
		return fmt.Errorf("%w: "+format, append([]any{ErrConfig}, a...)...)
	}
	tc := Config{Game: c.Game, Method: MethodStrategyNet, Opponents: c.Opponents, Games: 1, Seat: c.Seat, Depth: c.Depth}.withDefaults()
	lg, err := tc.check()
	if err != nil {
		return nil, 0, err
	}
	g, _ := game.Lookup(c.Game)
	size, _ := model.NetSize(g)
	for _, o := range c.Opponents {
		if o.Agent == SelfPlay || o.Agent == RandomWeights {
			return nil, 0, bad("opponent %s: tuning plays agents, not %s", o.Name, o.Agent)
		}
	}
	switch {
	case c.Generations < 1 || c.Generations > 100000:
		return nil, 0, bad("generations %d (1 to 100000)", c.Generations)
	case c.Population < 2 || c.Population > 10000:
		return nil, 0, bad("population %d (2 to 10000)", c.Population)
	case c.Elite < 2 || c.Elite > c.Population:
		return nil, 0, bad("elite %d (2 to the population, %d)", c.Elite, c.Population)
	case c.Games < 1 || c.Games > 1<<20:
		return nil, 0, bad("games %d (1 to %d)", c.Games, 1<<20)
	case c.FinalGames < 1 || c.FinalGames > 1<<20:
		return nil, 0, bad("final games %d (1 to %d)", c.FinalGames, 1<<20)
	case !(c.Sigma > 0) || math.IsInf(c.Sigma, 0) || !(c.Noise >= 0) || math.IsInf(c.Noise, 0):
		return nil, 0, bad("sigma %v must be positive and noise %v not negative", c.Sigma, c.Noise)
	}
	return lg, size, nil
}

// TuneGeneration reports one generation: the score of its best candidate and the mean
// score of its elite, in percent (1 a win, 1/2 a draw).
type TuneGeneration struct {
	N          int     `json:"n"`
	Best       float64 `json:"best"`
	EliteMean  float64 `json:"elite_mean"`
	SigmaMean  float64 `json:"sigma_mean"` // the mean standard deviation after the update
	GamesSoFar int64   `json:"games_so_far"`
}

// TuneResult is a finished search.
type TuneResult struct {
	Config      TuneConfig
	Weights     *model.StrategyNet
	Generations []TuneGeneration
	// Final are the scores of Weights on FinalGames fresh games against each opponent.
	Final []TestScore
	Games int64 // every game played, the final test included
}

// Tune runs the search, calling report after each generation. It stops with ctx.Err()
// between generations.
func Tune(ctx context.Context, cfg TuneConfig, report func(TuneGeneration)) (*TuneResult, error) {
	cfg = cfg.withDefaults()
	lg, size, err := cfg.check()
	if err != nil {
		return nil, err
	}
	g, _ := game.Lookup(cfg.Game)
	n := model.WeightCount(size, false)
	rng := rand.New(rand.NewPCG(cfg.Seed, 0x74756e65))
	mean := make([]float64, n)
	sigma := make([]float64, n)
	for i := range sigma {
		sigma[i] = cfg.Sigma
	}
	res := &TuneResult{Config: cfg}
	t := &tuner{cfg: cfg, lg: lg, game: g, size: size}
	cands := make([][]float64, cfg.Population)
	scores := make([]float64, cfg.Population)
	for gen := 1; gen <= cfg.Generations; gen++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		for c := range cands {
			w := make([]float64, n)
			for i := range w {
				w[i] = mean[i] + sigma[i]*rng.NormFloat64()
			}
			cands[c] = w
		}
		stream := uint64(gen) << 40
		if err := t.scoreAll(ctx, cands, scores, stream, cfg.Games); err != nil {
			return nil, err
		}
		res.Games += int64(cfg.Population * cfg.Games * len(cfg.Opponents))
		order := make([]int, len(cands))
		for i := range order {
			order[i] = i
		}
		slices.SortStableFunc(order, func(a, b int) int { return cmpDesc(scores[a], scores[b]) })
		elite := order[:cfg.Elite]
		noise := cfg.Noise * float64(cfg.Generations-gen) / float64(cfg.Generations)
		sum := 0.0
		for i := range mean {
			m, v := 0.0, 0.0
			for _, e := range elite {
				m += cands[e][i]
			}
			m /= float64(len(elite))
			for _, e := range elite {
				d := cands[e][i] - m
				v += d * d
			}
			mean[i], sigma[i] = m, math.Sqrt(v/float64(len(elite)))+noise
			sum += sigma[i]
		}
		em := 0.0
		for _, e := range elite {
			em += scores[e]
		}
		gr := TuneGeneration{N: gen, Best: scores[order[0]], EliteMean: em / float64(len(elite)), SigmaMean: sum / float64(n), GamesSoFar: res.Games}
		res.Generations = append(res.Generations, gr)
		if report != nil {
			report(gr)
		}
	}
	res.Weights, _ = model.NewStrategyNet(size, false)
	copy(res.Weights.W, mean)
	final, err := t.test(ctx, mean, cfg.FinalGames)
	if err != nil {
		return nil, err
	}
	res.Final = final
	res.Games += int64(cfg.FinalGames * len(cfg.Opponents))
	return res, nil
}

func cmpDesc(a, b float64) int {
	switch {
	case a > b:
		return -1
	case a < b:
		return 1
	}
	return 0
}

// tuner plays the games of a search.
type tuner struct {
	cfg  TuneConfig
	lg   learned.Game
	game game.Game
	size int
}

// tunePlayer is one worker's network and its search.
type tunePlayer struct {
	net *model.StrategyNet
	x   *searcher
}

func (t *tuner) newPlayer() *tunePlayer {
	net, _ := model.NewStrategyNet(t.size, false)
	return &tunePlayer{net: net, x: newSearcher(t.lg, net)}
}

// forEach calls do(p, k) for every k from 0 to n-1 on as many workers as the process may
// run at once, each with its own player, and returns the first error.
func (t *tuner) forEach(ctx context.Context, n int, do func(p *tunePlayer, k int) error) error {
	next := make(chan int)
	var (
		wg       sync.WaitGroup
		mu       sync.Mutex
		firstErr error
	)
	for range min(runtime.GOMAXPROCS(0), n) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p := t.newPlayer()
			for k := range next {
				if err := do(p, k); err != nil {
					mu.Lock()
					firstErr = cmp.Or(firstErr, err)
					mu.Unlock()
				}
			}
		}()
	}
	for k := range n {
		if ctx.Err() != nil {
			break
		}
		next <- k
	}
	close(next)
	wg.Wait()
	return cmp.Or(firstErr, ctx.Err())
}

// scoreAll scores every candidate on the same games: candidate c's score, in percent over
// its games against every opponent, goes to scores[c].
func (t *tuner) scoreAll(ctx context.Context, cands [][]float64, scores []float64, stream uint64, games int) error {
	return t.forEach(ctx, len(cands), func(p *tunePlayer, c int) error {
		sc, err := t.score(p, cands[c], stream, games)
		scores[c] = total(sc).Score()
		return err
	})
}

// total adds scores up.
func total(scores []TestScore) TestScore {
	var sum TestScore
	for _, s := range scores {
		sum.Wins, sum.Draws, sum.Losses = sum.Wins+s.Wins, sum.Draws+s.Draws, sum.Losses+s.Losses
	}
	return sum
}

// score plays the weights w games games against each opponent, game j drawing from the
// random stream stream + j: the same games for every candidate of a generation.
func (t *tuner) score(p *tunePlayer, w []float64, stream uint64, games int) ([]TestScore, error) {
	copy(p.net.W, w)
	out := make([]TestScore, len(t.cfg.Opponents))
	for i, o := range t.cfg.Opponents {
		out[i].Opponent = o.Name
		for j := range games {
			rng := rand.New(rand.NewPCG(t.cfg.Seed, stream|uint64(i)<<24|uint64(j)))
			seat := testSeat(t.cfg.Seat, j)
			opp, err := newAgentMover(t.game, o, 1-seat, rng)
			if err != nil {
				return nil, err
			}
			err = playTest(t.game, &searchMover{x: p.x, depth: t.cfg.Depth, rng: rng}, opp, seat, 0, rng, &out[i])
			opp.close()
			if err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// test plays w on games fresh games against each opponent, in chunks shared among the
// workers, from random streams no generation uses.
func (t *tuner) test(ctx context.Context, w []float64, games int) ([]TestScore, error) {
	const chunk = 1000
	results := make([][]TestScore, (games+chunk-1)/chunk)
	err := t.forEach(ctx, len(results), func(p *tunePlayer, k int) error {
		var err error
		results[k], err = t.score(p, w, 1<<63|uint64(k)<<40, min(chunk, games-k*chunk))
		return err
	})
	if err != nil {
		return nil, err
	}
	out := make([]TestScore, len(t.cfg.Opponents))
	for i, o := range t.cfg.Opponents {
		out[i].Opponent = o.Name
		for _, sc := range results {
			out[i].Wins += sc[i].Wins
			out[i].Draws += sc[i].Draws
			out[i].Losses += sc[i].Losses
		}
	}
	return out, nil
}

package coevo

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/arenaref/arena/games/othello"
	"github.com/arenaref/arena/players/ai/learn/model"
)

// Defaults of Config, the paper's settings where it gives them.
const (
	DefaultPopulation  = 100
	DefaultGenerations = 200 // the paper's slowest run beat ES at generation 182
	DefaultMutation    = 0.05
	DefaultElite       = 1
)

// Size is the board the experiment is played on.
const Size = 4

// GameSpec is the canonical spec of the game, for weights files of the evolved networks.
const GameSpec = "othello:size=4"

// ErrBadConfig is wrapped by the errors about an unusable Config.
var ErrBadConfig = errors.New("coevo: bad config")

// ranges are the ranges of the random weights, initial and mutated: a draw picks one
// of them uniformly, then a number uniformly in [0, range).
var ranges = [...]float64{10, 100, 1000, 10000}

// Config is a co-evolution run. Zero fields take the defaults; so a run always mutates
// and always keeps at least one elite network, as the paper's did.
type Config struct {
	Population  int     // networks per side; default 100
	Generations int     // the most generations played; default 200
	Mutation    float64 // probability that a weight is redrawn; default 0.05
	Elite       int     // networks kept unchanged per side; default 1
	Seed        uint64
	// StopWhenBeaten ends the run after the generation by which the best second
	// mover has beaten both ES and HS.
	StopWhenBeaten bool
	// Workers is how many games are played at once; default GOMAXPROCS. The result
	// does not depend on it.
	Workers int
}

func (c Config) withDefaults() Config {
	if c.Population == 0 {
		c.Population = DefaultPopulation
	}
	if c.Generations == 0 {
		c.Generations = DefaultGenerations
	}
	if c.Mutation == 0 {
		c.Mutation = DefaultMutation
	}
	if c.Elite == 0 {
		c.Elite = DefaultElite
	}
	if c.Workers == 0 {
		c.Workers = runtime.GOMAXPROCS(0)
	}
	return c
}

func (c Config) check() error {
	switch {
	case c.Population < 1:
		return fmt.Errorf("%w: population %d, want at least 1", ErrBadConfig, c.Population)
	case c.Generations < 1:
		return fmt.Errorf("%w: %d generations, want at least 1", ErrBadConfig, c.Generations)
	case !(c.Mutation >= 0 && c.Mutation <= 1):
		return fmt.Errorf("%w: mutation rate %v is not in [0, 1]", ErrBadConfig, c.Mutation)
	case c.Elite < 0 || c.Elite > c.Population:
		return fmt.Errorf("%w: elite %d is not in [0, population %d]", ErrBadConfig, c.Elite, c.Population)
	case c.Workers < 1:
		return fmt.Errorf("%w: %d workers, want at least 1", ErrBadConfig, c.Workers)
	}
	return nil
}

// Generation is the record of one generation.
type Generation struct {
	N int // 1-based: 1 is the initial random population
	// BestFirst and BestSecond are the highest fitness (winning rate, draws half) of
	// the first and the second movers; MeanFirst and MeanSecond their means.
	BestFirst, BestSecond float64
	MeanFirst, MeanSecond float64
	// BeatES and BeatHS report that the best second mover, playing white, won its
	// game against ES and against HS.
	BeatES, BeatHS bool
	// FirstBeatHS reports that the best first mover, playing black, won its game
	// against HS.
	FirstBeatHS bool
}

// Result is the record of a run.
type Result struct {
	Generations []Generation
	// FirstBeatES and FirstBeatHS are the first generations at which the best second
	// mover beat ES and HS (the paper's Tab. 2), 0 if it never did.
	FirstBeatES, FirstBeatHS int
	// FirstMoverBeatHS is the first generation at which the best first mover beat HS,
	// 0 if it never did.
	FirstMoverBeatHS int
	// BestSecond and BestFirst are the best networks of the last generation played.
	BestSecond, BestFirst *model.StrategyNet
}

// Run evolves the two populations until Generations have been played, or, with
// StopWhenBeaten, until the best second mover has beaten both enemies. progress, if
// not nil, is called after each generation. When ctx ends Run returns ctx.Err() with
// the generations completed so far.
func Run(ctx context.Context, cfg Config, progress func(Generation)) (Result, error) {
	cfg = cfg.withDefaults()
	if err := cfg.check(); err != nil {
		return Result{}, err
	}
	e := newEvolver(cfg)
	var res Result
	for {
		g, err := e.evaluate(ctx)
		if err != nil {
			return res, err
		}
		res.Generations = append(res.Generations, g)
		if g.BeatES && res.FirstBeatES == 0 {
			res.FirstBeatES = g.N
		}
		if g.BeatHS && res.FirstBeatHS == 0 {
			res.FirstBeatHS = g.N
		}
		if g.FirstBeatHS && res.FirstMoverBeatHS == 0 {
			res.FirstMoverBeatHS = g.N
		}
		res.BestFirst = e.first[e.bestFirst].Clone()
		res.BestSecond = e.second[e.bestSecond].Clone()
		if progress != nil {
			progress(g)
		}
		if g.N >= cfg.Generations || cfg.StopWhenBeaten && res.FirstBeatES > 0 && res.FirstBeatHS > 0 {
			return res, nil
		}
		e.breed()
	}
}

// evolver holds the two populations of the current generation and what evaluating
// them found.
type evolver struct {
	cfg                   Config
	gen                   int // the current generation, 1-based
	start                 othello.State
	first, second         []*model.StrategyNet
	margins               []int8 // margins[i*P+j]: first mover i against second mover j
	fitFirst, fitSecond   []float64
	bestFirst, bestSecond int
	streams               []*stream // one per worker
	cum                   []float64 // the roulette wheel's storage
}

func newEvolver(cfg Config) *evolver {
	g, err := othello.NewSize(Size)
	if err != nil {
		panic(err)
	}
	P := cfg.Population
	e := &evolver{
		cfg:       cfg,
		gen:       1,
		start:     *g.Initial(),
		margins:   make([]int8, P*P),
		fitFirst:  make([]float64, P),
		fitSecond: make([]float64, P),
		cum:       make([]float64, P),
	}
	for range cfg.Workers {
		e.streams = append(e.streams, newStream())
	}
	st := e.streams[0]
	e.first = make([]*model.StrategyNet, P)
	e.second = make([]*model.StrategyNet, P)
	for i := range P {
		e.first[i] = randomNet(st.reseed(cfg.Seed, purposeInitFirst, 0, i, 0))
		e.second[i] = randomNet(st.reseed(cfg.Seed, purposeInitSecond, 0, i, 0))
	}
	perfect() // solve before the clock of the first generation's games starts
	return e
}

func randomNet(rng *rand.Rand) *model.StrategyNet {
	n, err := model.NewStrategyNet(Size, false)
	if err != nil {
		panic(err)
	}
	for k := range n.W {
		n.W[k] = drawWeight(rng)
	}
	return n
}

// drawWeight draws an initial or mutated weight: one of ranges uniformly, then a
// number uniformly in [0, range).
func drawWeight(rng *rand.Rand) float64 {
	return ranges[rng.IntN(len(ranges))] * rng.Float64()
}

// evaluate plays the current generation's games and its best networks' games against
// the enemies.
func (e *evolver) evaluate(ctx context.Context) (Generation, error) {
	if err := e.playAll(ctx); err != nil {
		return Generation{}, err
	}
	P := e.cfg.Population
	clear(e.fitFirst)
	clear(e.fitSecond)
	for i := range P {
		for j, m := range e.margins[i*P : (i+1)*P] {
			switch {
			case m > 0:
				e.fitFirst[i] += 2
			case m < 0:
				e.fitSecond[j] += 2
			default:
				e.fitFirst[i]++
				e.fitSecond[j]++
			}
		}
	}
	// Counted in half wins so far; now rates.
	for i := range P {
		e.fitFirst[i] /= float64(2 * P)
		e.fitSecond[i] /= float64(2 * P)
	}
	g := Generation{N: e.gen}
	e.bestFirst, g.BestFirst, g.MeanFirst = best(e.fitFirst)
	e.bestSecond, g.BestSecond, g.MeanSecond = best(e.fitSecond)

	st := e.streams[0]
	second := netPlayer(e.second[e.bestSecond])
	first := netPlayer(e.first[e.bestFirst])
	es := esPlayer()
	g.BeatES = play(e.start, &es, &second, st.reseed(e.cfg.Seed, purposeES, e.gen, 0, 0)) < 0
	g.BeatHS = play(e.start, &hsPlayer, &second, st.reseed(e.cfg.Seed, purposeHSSecond, e.gen, 0, 0)) < 0
	g.FirstBeatHS = play(e.start, &first, &hsPlayer, st.reseed(e.cfg.Seed, purposeHSFirst, e.gen, 0, 0)) > 0
	return g, nil
}

// best returns the index of the highest fitness (the lowest index among equals), that
// fitness and the mean.
func best(fit []float64) (idx int, top, mean float64) {
	for i, f := range fit {
		if f > fit[idx] {
			idx = i
		}
		mean += f
	}
	return idx, fit[idx], mean / float64(len(fit))
}

// playAll plays every first mover against every second mover, a row of games (one
// first mover) at a time per worker.
func (e *evolver) playAll(ctx context.Context) error {
	P := e.cfg.Population
	var next atomic.Int64
	work := func(st *stream) {
		black, white := player{kind: kindNet}, player{kind: kindNet}
		for {
			i := int(next.Add(1) - 1)
			if i >= P || ctx.Err() != nil {
				return
			}
			black.net = e.first[i]
			row := e.margins[i*P : (i+1)*P]
			for j := range row {
				white.net = e.second[j]
				row[j] = int8(play(e.start, &black, &white, st.reseed(e.cfg.Seed, purposeGame, e.gen, i, j)))
			}
		}
	}
	if w := min(e.cfg.Workers, P); w <= 1 {
		work(e.streams[0])
	} else {
		var wg sync.WaitGroup
		for _, st := range e.streams[:w] {
			wg.Go(func() { work(st) })
		}
		wg.Wait()
	}
	return ctx.Err()
}

// breed replaces both populations by the next generation.
func (e *evolver) breed() {
	st := e.streams[0]
	e.first = e.nextPopulation(e.first, e.fitFirst, st.reseed(e.cfg.Seed, purposeBreedFirst, e.gen, 0, 0))
	e.second = e.nextPopulation(e.second, e.fitSecond, st.reseed(e.cfg.Seed, purposeBreedSecond, e.gen, 0, 0))
	e.gen++
}

// nextPopulation returns the next generation of pop: its Elite best unchanged, then
// networks drawn by roulette wheel and mutated.
func (e *evolver) nextPopulation(pop []*model.StrategyNet, fit []float64, rng *rand.Rand) []*model.StrategyNet {
	next := make([]*model.StrategyNet, 0, len(pop))
	for _, i := range elite(fit, e.cfg.Elite) {
		next = append(next, pop[i].Clone())
	}
	w := newWheel(fit, e.cum)
	for len(next) < len(pop) {
		n := pop[w.spin(rng)].Clone()
		mutate(n.W, e.cfg.Mutation, rng)
		next = append(next, n)
	}
	return next
}

// elite returns the indexes of the k highest fitnesses, best first, the lower index
// first among equals.
func elite(fit []float64, k int) []int {
	idx := make([]int, 0, k)
	taken := make([]bool, len(fit))
	for range k {
		b := -1
		for i, f := range fit {
			if !taken[i] && (b < 0 || f > fit[b]) {
				b = i
			}
		}
		taken[b] = true
		idx = append(idx, b)
	}
	return idx
}

// wheel is a roulette wheel over a population: cum[i] is the sum of the fitnesses up
// to and including i.
type wheel struct{ cum []float64 }

// newWheel builds the wheel of fit, reusing buf's storage.
func newWheel(fit, buf []float64) wheel {
	cum := buf[:0]
	total := 0.0
	for _, f := range fit {
		total += f
		cum = append(cum, total)
	}
	return wheel{cum: cum}
}

// spin draws an index with probability proportional to its fitness, or uniformly when
// every fitness is zero.
func (w wheel) spin(rng *rand.Rand) int {
	n := len(w.cum)
	total := w.cum[n-1]
	if !(total > 0) {
		return rng.IntN(n)
	}
	r := rng.Float64() * total
	lo, hi := 0, n-1
	for lo < hi { // the first i with cum[i] > r: never one of zero fitness
		mid := (lo + hi) / 2
		if w.cum[mid] > r {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return lo
}

// mutate redraws each weight with probability rate.
func mutate(w []float64, rate float64, rng *rand.Rand) {
	for k := range w {
		if rng.Float64() < rate {
			w[k] = drawWeight(rng)
		}
	}
}

// File returns a weights file of an evolved network, recording the run.
func File(n *model.StrategyNet, cfg Config, res Result, seat string) (*model.File, error) {
	cfg = cfg.withDefaults()
	games := len(res.Generations) * cfg.Population * cfg.Population
	return model.NewFile(GameSpec, n, model.Training{
		Method: "coevo",
		Games:  games,
		Seed:   cfg.Seed,
		Seat:   seat,
		Note: fmt.Sprintf("co-evolution of %d first and %d second movers over %d generations; ES first beaten at generation %d, HS at %d",
			cfg.Population, cfg.Population, len(res.Generations), res.FirstBeatES, res.FirstBeatHS),
	})
}

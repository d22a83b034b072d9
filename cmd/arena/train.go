package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/internal/cli"
	"github.com/arenaref/arena/internal/humantime"
	"github.com/arenaref/arena/lab/coevo"
	"github.com/arenaref/arena/lab/train"
)

// runTrain trains a learned-weight player (Othello, checkers or give-away checkers) in
// process (no NATS) and writes its weights file, with the learning curve beside it as
// CSV and SVG.
func runTrain(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := cli.NewFlagSet("arena train", "--method td|tdleaf|strategy-net|evo|coevo|tune --opponents hp1,hp2 --games N --out weights.json [flags]", stderr)
	gameSpec := fs.String("game", "othello", "game: othello, othello:size=6, othello:size=4, checkers or giveaway (checkers and giveaway: td, tdleaf and evo)")
	method := fs.String("method", "", "td, tdleaf, strategy-net, evo, coevo (co-evolution on 4x4) or tune (a strategy network's weights found by search against the opponents)")
	opponents := fs.String("opponents", "", "comma-separated opponents, as --players of tournament (hp1,hp2,d2=minimax:depth=2:tt=0), self for self-play, and random-weights:N for a pool of N tanh-linear players with random weights in (-10, 10) at the learner's depth; not for evo")
	games := fs.Int("games", 10000, "training games")
	out := fs.String("out", "", "weights file to write (the curve goes beside it: NAME.csv and NAME.svg)")
	seed := fs.Uint64("seed", 1, "seed: the same seed and flags train the same weights")
	seat := fs.String("seat", train.SeatBoth, "the learner's colour: black, white, or both (alternating)")
	strategy := fs.String("strategy", "", "td/tdleaf learning strategy: LB (every game, default), LL (losses and draws), L3 (LL, and replay an opponent that won, up to three games in a row)")
	alpha := fs.Float64("alpha", 0, fmt.Sprintf("td/tdleaf/evo step size (default %g)", train.DefaultAlpha))
	lambda := fs.Float64("lambda", 0, fmt.Sprintf("td/tdleaf decay (default %g)", train.DefaultLambda))
	depth := fs.Int("depth", 1, "the learner's search depth in plies (TDLeaf learns at the leaf of this search)")
	initW := fs.String("init", train.InitZero, "initial weights: zero, or random (uniform in (-10, 10))")
	pairs := fs.Bool("pairs", false, "strategy-net: one weight per pair of nodes instead of per node")
	credit := fs.String("credit", "", "strategy-net: the weights a result changes: used (every node present in the game, the default) or placed (the learner's own node on each square where it placed a disc)")
	evoSigma := fs.Float64("evo-sigma", 0, fmt.Sprintf("evo: standard deviation of the noise added to the opponent every two games (default %g)", train.DefaultEvoSigma))
	randomPlies := fs.Int("random-plies", 0, "plies played at random at the start of every game (training and test), so that games against deterministic opponents differ")
	every := fs.Int("every", 0, "games per point of the learning curve (default games/100)")
	test := fs.String("test", "", "test opponents, played without learning at every curve point (same syntax as --opponents; random-weights:N draws a pool disjoint from the training one)")
	testGames := fs.Int("test-games", 0, fmt.Sprintf("test games per test opponent and colour the learner plays (default 50, at most %d)", train.MaxTestGames))
	testFirst := fs.Bool("test-first", false, "also test before the first training game (the curve's point at game 0: the initial weights' score)")
	ckptEvery := fs.Int("checkpoint-every", 1000, "games between checkpoints (OUT.ckpt); a stopped run resumes from it")
	restart := fs.Bool("restart", false, "ignore an existing checkpoint and start again")
	generations := fs.Int("generations", 200, "coevo: most generations; tune: generations")
	population := fs.Int("population", 100, "coevo: networks per side; tune: candidates per generation")
	tuneGames := fs.Int("tune-games", train.DefaultTuneGames, "tune: games of each candidate against each opponent, every generation")
	finalGames := fs.Int("final-games", train.DefaultTuneFinal, "tune: fresh games of the weights found against each opponent, at the end")
	runs := fs.Int("runs", 1, "coevo: independent runs (seeds SEED, SEED+1, ...)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *out == "" {
		return cli.Usagef("--out is required")
	}
	g, err := game.Lookup(*gameSpec)
	if err != nil {
		return cli.Usagef("--game: %v", err)
	}
	methods := []string{train.MethodTD, train.MethodTDLeaf, train.MethodStrategyNet, train.MethodEvo, methodCoevo, train.MethodTune}
	if !slices.Contains(methods, *method) {
		if *method == "" {
			return cli.Usagef("--method is required: %s", cli.JoinOr(methods))
		}
		if s := cli.DidYouMean(*method, methods, cli.Quoted); s != "" {
			return cli.Usagef("--method: unknown method %q;%s", *method, s)
		}
		return cli.Usagef("--method: unknown method %q: want %s", *method, cli.JoinOr(methods))
	}
	if *method == methodCoevo {
		return runCoevo(ctx, coevoFlags{game: g.Name(), out: *out, seed: *seed, generations: *generations, population: *population, runs: *runs}, stdout, stderr)
	}
	if *method == train.MethodTune {
		if *generations < 1 || *population < 2 || *tuneGames < 1 || *finalGames < 1 {
			return cli.Usagef("--method tune: --generations, --tune-games and --final-games must be at least 1, --population at least 2")
		}
		ops, err := train.ParseOpponents(*opponents, "")
		if err != nil {
			return cli.Usagef("--opponents: %v", err)
		}
		return runTune(ctx, train.TuneConfig{
			Game: g.Name(), Opponents: ops, Seat: *seat, Seed: *seed, Depth: *depth,
			Generations: *generations, Population: *population, Games: *tuneGames, FinalGames: *finalGames,
		}, *out, stdout, stderr)
	}
	cfg := train.Config{
		Game: g.Name(), Method: *method, Games: *games, Seed: *seed, Seat: *seat, Strategy: *strategy,
		Alpha: *alpha, Lambda: *lambda, Depth: *depth, Init: *initW, Pairs: *pairs, Credit: *credit, EvoSigma: *evoSigma,
		Every: *every, TestGames: *testGames, RandomPlies: *randomPlies, TestFirst: *testFirst,
	}
	if cfg.Opponents, err = train.ParseOpponents(*opponents, train.PoolTrain); err != nil {
		return cli.Usagef("--opponents: %v", err)
	}
	if cfg.Test, err = train.ParseOpponents(*test, train.PoolTest); err != nil {
		return cli.Usagef("--test: %v", err)
	}
	if *ckptEvery < 1 {
		return cli.Usagef("--checkpoint-every must be at least 1")
	}
	ckpt := *out + ".ckpt"
	t, resumed, err := train.Open(cfg, ckpt, *restart)
	if errors.As(err, new(*train.CheckpointError)) {
		return fmt.Errorf("%w (use --restart to train from scratch)", err)
	} else if err != nil {
		return cli.UsageError{Msg: strings.TrimPrefix(err.Error(), train.ErrConfig.Error()+": ")}
	}
	if resumed {
		fmt.Fprintf(stderr, "resuming from %s at game %d\n", ckpt, t.State().Played)
	}
	cfg = t.Config()

	bar := newTrainProgress(stderr, cfg.Games, t.State().Played)
	bar.test = cfg.Test
	recent := &train.Window{Size: 500}
	err = t.RunCheckpointed(ctx, ckpt, *ckptEvery, func(ev train.Event) {
		recent.Add(ev.Result)
		bar.update(ev, recent, stderr)
	}, func(err error) { fmt.Fprintf(stderr, "checkpoint: %v\n", err) })
	bar.Finish()
	var ie *train.InterruptedError
	if errors.As(err, &ie) && ie.Err == nil {
		return fmt.Errorf("%w: run the same command again to carry on", err)
	} else if err != nil {
		return err
	}
	f, err := t.File(version)
	if err != nil {
		return err
	}
	if err := f.Save(*out); err != nil {
		return err
	}
	st := t.State()
	base := strings.TrimSuffix(*out, ".json")
	if err := t.WriteCurve(base); err != nil {
		return err
	}
	_ = os.Remove(ckpt)
	curve := st.FullCurve()
	last := curve[len(curve)-1]
	fmt.Fprintf(stdout, "trained %s on %s: %d games (%d wins, %d draws, %d losses) in %s, %.0f games/s\n",
		cfg.Method, cfg.Game, st.Played, st.Wins, st.Draws, st.Losses,
		humantime.Round(time.Duration(st.Seconds*float64(time.Second))), float64(st.Played)/max(st.Seconds, 1e-9))
	fmt.Fprintf(stdout, "win rate over the last %d games: %.1f%%; over %s: %.1f%%\n", last.Wins+last.Draws+last.Losses, last.WinRate(), recent.Label(st.Played), recent.Rate())
	if first := curve[0]; first.Games == 0 {
		for _, sc := range train.Pooled(cfg.Test, first.Test) {
			fmt.Fprintf(stdout, "test against %s before training: %.1f%% (%d-%d-%d)\n", sc.Opponent, sc.Score(), sc.Wins, sc.Draws, sc.Losses)
		}
	}
	for _, sc := range train.Pooled(cfg.Test, last.Test) {
		fmt.Fprintf(stdout, "test against %s: %.1f%% (%d-%d-%d)\n", sc.Opponent, sc.Score(), sc.Wins, sc.Draws, sc.Losses)
	}
	fmt.Fprintf(stdout, "wrote %s, %s.csv, %s.svg\n", *out, base, base)
	return nil
}

// methodCoevo is the co-evolution of strategy networks (lab/coevo), which
// arena train runs beside the methods of lab/train.
const methodCoevo = "coevo"

// trainProgress shows a progress bar with the running win rate on a terminal, and one
// line per curve point otherwise.
type trainProgress struct {
	*cli.Ticker
	test []train.Opponent
}

func newTrainProgress(stderr io.Writer, total, done int) *trainProgress {
	return &trainProgress{Ticker: cli.NewTicker(stderr, total, done, "training", 50)}
}

func (p *trainProgress) update(ev train.Event, recent *train.Window, stderr io.Writer) {
	if p.Bar != nil {
		p.Update(ev.Game, fmt.Sprintf("training, win rate %.1f%% (last %d)", recent.Rate(), recent.Len()))
		return
	}
	if ev.Point != nil {
		fmt.Fprintf(stderr, "game %d: win rate %.1f%% over the last %d games", ev.Game, ev.Point.WinRate(), ev.Point.Wins+ev.Point.Draws+ev.Point.Losses)
		for _, sc := range train.Pooled(p.test, ev.Point.Test) {
			fmt.Fprintf(stderr, ", %s %.1f%%", sc.Opponent, sc.Score())
		}
		fmt.Fprintln(stderr)
	}
}

// runTune searches for strategy network weights against the opponents (arena train
// --method tune) and writes the weights file, one CSV line per generation and a chart.
func runTune(ctx context.Context, cfg train.TuneConfig, out string, stdout, stderr io.Writer) error {
	bar := newTrainProgress(stderr, cfg.Generations, 0)
	start := time.Now()
	res, err := train.Tune(ctx, cfg, func(g train.TuneGeneration) {
		bar.Update(g.N, fmt.Sprintf("generation %d: best %.1f%%, elite %.1f%%, sigma %.2f", g.N, g.Best, g.EliteMean, g.SigmaMean))
	})
	bar.Finish()
	if errors.Is(err, train.ErrConfig) {
		return cli.UsageError{Msg: strings.TrimPrefix(err.Error(), train.ErrConfig.Error()+": ")}
	} else if err != nil {
		return err
	}
	cfg = res.Config
	file, err := res.File(version)
	if err != nil {
		return err
	}
	if err := file.Save(out); err != nil {
		return err
	}
	base := strings.TrimSuffix(out, ".json")
	if err := res.WriteCurve(base); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "tuned a strategy network on %s: %d generations of %d candidates, %d games in %s\n",
		cfg.Game, cfg.Generations, cfg.Population, res.Games, humantime.Round(time.Since(start)))
	for _, sc := range res.Final {
		fmt.Fprintf(stdout, "the weights against %s in %d fresh games: %.1f%% (%d-%d-%d)\n", sc.Opponent, sc.Wins+sc.Draws+sc.Losses, sc.Score(), sc.Wins, sc.Draws, sc.Losses)
	}
	fmt.Fprintf(stdout, "wrote %s, %s.csv, %s.svg\n", out, base, base)
	return nil
}

type coevoFlags struct {
	game                          string
	out                           string
	seed                          uint64
	generations, population, runs int
}

// runCoevo runs the co-evolution experiment of the strategy network paper on 4x4 Othello
// (coevo.RunSeries) and writes the best second mover of the last run as the weights file,
// one CSV line per generation and run, and a chart of the best fitness.
func runCoevo(ctx context.Context, f coevoFlags, stdout, stderr io.Writer) error {
	if f.game != coevo.GameSpec {
		return cli.Usagef("--method coevo plays 4x4 Othello: --game othello:size=4")
	}
	if f.runs < 1 || f.generations < 1 || f.population < 2 {
		return cli.Usagef("--runs and --generations must be at least 1, --population at least 2")
	}
	start := time.Now()
	s, err := coevo.RunSeries(ctx, coevo.Config{Population: f.population, Generations: f.generations, Seed: f.seed}, f.runs, func(seed uint64, res coevo.Result) {
		fmt.Fprintln(stdout, res.Describe(seed))
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s; %s\n", s.Summary(), humantime.Round(time.Since(start)))
	file, err := s.File()
	if err != nil {
		return err
	}
	if err := file.Save(f.out); err != nil {
		return err
	}
	base := strings.TrimSuffix(f.out, ".json")
	if err := s.WriteCurves(base); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote %s, %s.csv, %s.svg\n", f.out, base, base)
	return nil
}

package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/arenaref/arena/game/opening"
	"github.com/arenaref/arena/games/checkers"
	"github.com/arenaref/arena/internal/atomicfile"
	"github.com/arenaref/arena/internal/cli"
	"github.com/arenaref/arena/internal/humantime"
	"github.com/arenaref/arena/lab/plot"
	"github.com/arenaref/arena/lab/tdleaf"
	"github.com/arenaref/arena/players/agents/minimax"
)

func tuneCheckersSubcommands() []cli.Subcommand {
	return []cli.Subcommand{
		{Name: "train", Summary: "train minimax's checkers weights from zero by TDLeaf(lambda), against the hand-tuned player or by self-play, in process", Run: runTuneCheckersTrain},
		{Name: "chart", Summary: "draw and tabulate match results of weight sets against the hand-tuned player by depth", Run: func(_ context.Context, args []string, stdout, stderr io.Writer) error {
			return runTuneCheckersChart(args, stdout, stderr)
		}},
	}
}

func runTuneCheckersTrain(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := cli.NewFlagSet("arena tune-checkers train", "--mode teacher|self --depth N --games N --openings FILE --out weights.json [flags]", stderr)
	mode := fs.String("mode", "", "teacher (against the hand-tuned player, each opening with both colours) or self (self-play, learning from both sides)")
	depth := fs.Int("depth", 0, fmt.Sprintf("search depth of both sides in every training game, 1 to %d", tdleaf.MaxDepth))
	games := fs.Int("games", 0, "training games")
	openings := fs.String("openings", "", "openings file of standard checkers (arena openings --game checkers --plies 3)")
	out := fs.String("out", "", "weights file to write (the learning curve goes beside it: NAME.csv and NAME.svg)")
	alpha := fs.Float64("alpha", 0, fmt.Sprintf("step size (default %g)", float64(tdleaf.DefaultAlpha)))
	lambda := fs.Float64("lambda", 0, fmt.Sprintf("TD decay (default %g)", tdleaf.DefaultLambda))
	scale := fs.Float64("scale", 0, fmt.Sprintf("points of evaluation per unit of the tanh that makes a prediction (default %d: a man ahead predicts 0.35 of a win)", tdleaf.DefaultScale))
	seed := fs.Uint64("seed", 1, "seed of the order the openings are played in, and of the test openings")
	initFile := fs.String("init", "", "weights file to start from (default: zero weights, material only)")
	every := fs.Int("every", 0, "games per point of the learning curve (default: a pass over the openings)")
	test := fs.Bool("test", false, "at every curve point, and before training, play a test pass against the hand-tuned player without learning")
	testOpenings := fs.Int("test-openings", 0, "openings of each test pass, each with both colours (default: all)")
	tt := fs.Int("tt", minimax.DefaultTableMB, "transposition table of each search in MiB, as minimax's tt= (0 for none)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	switch {
	case *out == "":
		return cli.Usagef("--out is required")
	case *openings == "":
		return cli.Usagef("--openings is required (arena openings --game checkers --plies 3 --out FILE makes one)")
	case *tt < 0:
		return cli.Usagef("--tt must be 0 or more")
	case *every < 0:
		return cli.Usagef("--every must be 0 or more")
	}
	ops, err := opening.ReadFile(*openings, checkers.New(checkers.Standard))
	if err != nil {
		return cli.Usagef("--openings: %v", err)
	}
	cfg := tdleaf.Config{
		Mode: *mode, Depth: *depth, Games: *games, Openings: ops,
		Alpha: *alpha, Lambda: *lambda, Scale: *scale, Seed: *seed, TableMB: *tt,
		TestOpenings: *testOpenings,
	}
	if *tt == 0 {
		cfg.TableMB = -1
	}
	if *initFile != "" {
		if cfg.Init, err = tdleaf.LoadWeights(*initFile); err != nil {
			return cli.Usagef("--init: %v", err)
		}
	}
	pass := len(ops)
	if cfg.Mode == tdleaf.ModeTeacher {
		pass *= 2
	}
	if *every == 0 {
		*every = pass
	}
	if *test {
		cfg.TestEvery = *every
	}
	t, err := tdleaf.New(cfg)
	if err != nil {
		return cli.UsageError{Msg: strings.TrimPrefix(err.Error(), tdleaf.ErrConfig.Error()+": ")}
	}
	cfg = t.Config()
	fmt.Fprintf(stderr, "tdleaf %s at depth %d: %d games from %d openings (a pass is %d games), alpha %g, lambda %g, scale %g\n",
		cfg.Mode, cfg.Depth, cfg.Games, len(ops), pass, cfg.Alpha, cfg.Lambda, cfg.Scale)
	curve := &tdleaf.Curve{Every: *every, Last: cfg.Games, Teacher: cfg.Mode == tdleaf.ModeTeacher}
	start := time.Now()
	err = t.Run(ctx, func(ev tdleaf.Event) {
		n := len(curve.Points)
		curve.Add(ev)
		if len(curve.Points) > n {
			p := curve.Points[n]
			fmt.Fprintf(stderr, "game %d (%s)%s\n", p.Game, humantime.Round(time.Since(start)), p.Describe())
		}
	})
	if err != nil {
		if errors.Is(err, context.Canceled) {
			return fmt.Errorf("interrupted at game %d; nothing written", t.Played())
		}
		return err
	}
	f, err := t.File(version)
	if err != nil {
		return err
	}
	if err := f.Save(*out); err != nil {
		return err
	}
	base := strings.TrimSuffix(*out, ".json")
	if err := curve.WriteFiles(base, fmt.Sprintf("TDLeaf %s learning at depth %d (alpha %g)", cfg.Mode, cfg.Depth, cfg.Alpha)); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "trained %s at depth %d: %d games in %s; weights in %s, curve in %s.csv and %s.svg\n",
		cfg.Mode, cfg.Depth, t.Played(), humantime.Round(time.Since(start)), *out, base, base)
	if sc := t.Score(); sc.Games() > 0 {
		fmt.Fprintf(stdout, "score in the training games against the hand-tuned player: %.1f%% (+%d =%d -%d)\n", sc.Percent(), sc.Wins, sc.Draws, sc.Losses)
	}
	names := minimax.CheckersTermNames()
	for i, w := range t.Weights() {
		fmt.Fprintf(stdout, "  %-14s %8.3f\n", names[i], w)
	}
	return nil
}

func runTuneCheckersChart(args []string, stdout, stderr io.Writer) error {
	fs := cli.NewFlagSet("arena tune-checkers chart", "--results FILE.csv --out CHART.svg [--title TEXT]", stderr)
	results := fs.String("results", "", "CSV of match results: set,depth,wins,draws,losses, a row per match of a weight set against the hand-tuned player")
	out := fs.String("out", "", "SVG chart to write")
	title := fs.String("title", "Learned weights against the hand-tuned ones, by search depth", "the chart's title")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *results == "" || *out == "" {
		return cli.Usagef("--results and --out are required")
	}
	fh, err := os.Open(*results)
	if err != nil {
		return cli.Usagef("--results: %v", err)
	}
	defer fh.Close()
	rs, err := tdleaf.ReadResults(fh)
	if err != nil {
		return fmt.Errorf("%s: %w", *results, err)
	}
	if err := atomicfile.Write(*out, func(w io.Writer) error { return plot.WriteSVG(w, tdleaf.DepthChart(rs, *title)) }); err != nil {
		return err
	}
	_, err = io.WriteString(stdout, tdleaf.DepthTable(rs))
	return err
}

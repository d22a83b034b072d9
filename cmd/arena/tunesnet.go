package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/arenaref/arena/internal/humantime"
	"github.com/arenaref/arena/lab/train"
)

// runTune searches for strategy network weights against the opponents (arena train
// --method tune) and writes the weights file, one CSV line per generation and a chart.
func runTune(ctx context.Context, cfg train.TuneConfig, out string, stdout, stderr io.Writer) error {
	bar := newTrainProgress(stderr, cfg.Generations, 0)
	start := time.Now()
	res, err := train.Tune(ctx, cfg, func(g train.TuneGeneration) {
		bar.updateText(g.N, fmt.Sprintf("generation %d: best %.1f%%, elite %.1f%%, sigma %.2f", g.N, g.Best, g.EliteMean, g.SigmaMean))
	})
	bar.finish()
	if errors.Is(err, train.ErrConfig) {
		return usageError{strings.TrimPrefix(err.Error(), train.ErrConfig.Error()+": ")}
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

package main

import (
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/arenaref/arena/internal/atomicfile"
	"github.com/arenaref/arena/internal/humantime"
	"github.com/arenaref/arena/lab/plot"
	"github.com/arenaref/arena/lab/train"
	"github.com/arenaref/arena/players/ai/learn/model"
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
	tr := model.Training{Method: train.MethodTune, Games: int(res.Games), Seed: cfg.Seed, Seat: cfg.Seat, Depth: cfg.Depth, Arena: version,
		Note: fmt.Sprintf("cross-entropy method: %d generations of %d candidates, %d games each against each opponent", cfg.Generations, cfg.Population, cfg.Games)}
	for _, o := range cfg.Opponents {
		tr.Opponents = append(tr.Opponents, o.Name)
	}
	for _, sc := range res.Final {
		tr.Wins, tr.Draws, tr.Losses = tr.Wins+sc.Wins, tr.Draws+sc.Draws, tr.Losses+sc.Losses
	}
	file, err := model.NewFile(cfg.Game, res.Weights, tr)
	if err != nil {
		return err
	}
	if err := file.Save(out); err != nil {
		return err
	}
	base := strings.TrimSuffix(out, ".json")
	err = atomicfile.Write(base+".csv", func(w io.Writer) error {
		cw := csv.NewWriter(w)
		_ = cw.Write([]string{"generation", "games", "best", "elite_mean", "sigma_mean"})
		for _, g := range res.Generations {
			_ = cw.Write([]string{strconv.Itoa(g.N), strconv.FormatInt(g.GamesSoFar, 10), ff(g.Best), ff(g.EliteMean), ff(g.SigmaMean)})
		}
		cw.Flush()
		return cw.Error()
	})
	if err != nil {
		return err
	}
	best := plot.Series{Name: "best candidate"}
	elite := plot.Series{Name: "elite mean"}
	for _, g := range res.Generations {
		best.X, best.Y = append(best.X, float64(g.N)), append(best.Y, g.Best)
		elite.X, elite.Y = append(elite.X, float64(g.N)), append(elite.Y, g.EliteMean)
	}
	ch := plot.Chart{Title: fmt.Sprintf("tuning a strategy network on %s (seed %d)", cfg.Game, cfg.Seed),
		XLabel: "generation", YLabel: fmt.Sprintf("score over %d games a candidate (%%)", cfg.Games*len(cfg.Opponents)), YMin: 0, YMax: 100,
		Series: []plot.Series{best, elite}}
	if err := atomicfile.Write(base+".svg", func(w io.Writer) error { return plot.WriteSVG(w, ch) }); err != nil {
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

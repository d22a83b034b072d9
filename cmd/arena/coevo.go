package main

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/arenaref/arena/internal/humantime"
	"github.com/arenaref/arena/lab/coevo"
)

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
		return usagef("--method coevo plays 4x4 Othello: --game othello:size=4")
	}
	if f.runs < 1 || f.generations < 1 || f.population < 2 {
		return usagef("--runs and --generations must be at least 1, --population at least 2")
	}
	start := time.Now()
	s, err := coevo.RunSeries(ctx, coevo.Config{Population: f.population, Generations: f.generations, Seed: f.seed}, f.runs, func(seed uint64, res coevo.Result) {
		fmt.Fprintf(stdout, "seed %d: heuristic beaten at generation %s, exhaustive search at %s (%d generations)\n",
			seed, gen(res.FirstBeatHS), gen(res.FirstBeatES), len(res.Generations))
	})
	if err != nil {
		return err
	}
	meanHS, beatenHS, meanES, beatenES := s.FirstBeats()
	fmt.Fprintf(stdout, "mean generation of the first win: heuristic %s (%d of %d runs), exhaustive search %s (%d of %d runs); %s\n",
		mean(meanHS, beatenHS), beatenHS, f.runs, mean(meanES, beatenES), beatenES, f.runs, humantime.Round(time.Since(start)))
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

func gen(n int) string {
	if n == 0 {
		return "never"
	}
	return strconv.Itoa(n)
}

func mean(m float64, n int) string {
	if n == 0 {
		return "-"
	}
	return strconv.FormatFloat(m, 'f', 1, 64)
}

package main

import (
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/arenaref/arena/internal/atomicfile"
	"github.com/arenaref/arena/internal/humantime"
	"github.com/arenaref/arena/lab/coevo"
	"github.com/arenaref/arena/lab/plot"
	"github.com/arenaref/arena/players/ai/learn/model"
)

type coevoFlags struct {
	game                          string
	out                           string
	seed                          uint64
	generations, population, runs int
}

// runCoevo runs the co-evolution experiment of the strategy network paper on 4x4 Othello:
// each run until the best second mover has beaten both enemies or the generations run
// out. It writes the best second mover of the last run as the weights file, one CSV line
// per generation and run, and a chart of the best fitness.
func runCoevo(ctx context.Context, f coevoFlags, stdout, stderr io.Writer) error {
	if f.game != "othello:size=4" {
		return usagef("--method coevo plays 4x4 Othello: --game othello:size=4")
	}
	if f.runs < 1 || f.generations < 1 || f.population < 2 {
		return usagef("--runs and --generations must be at least 1, --population at least 2")
	}
	base := strings.TrimSuffix(f.out, ".json")
	var rows [][]string
	var series []plot.Series
	var sumES, sumHS, beatenES, beatenHS int
	var last coevo.Result
	start := time.Now()
	for r := range f.runs {
		seed := f.seed + uint64(r)
		res, err := coevo.Run(ctx, coevo.Config{
			Population: f.population, Generations: f.generations, Seed: seed, StopWhenBeaten: true,
		}, func(g coevo.Generation) {
			rows = append(rows, []string{
				strconv.FormatUint(seed, 10), strconv.Itoa(g.N),
				ff(g.BestFirst), ff(g.MeanFirst), ff(g.BestSecond), ff(g.MeanSecond),
				strconv.FormatBool(g.BeatES), strconv.FormatBool(g.BeatHS), strconv.FormatBool(g.FirstBeatHS),
			})
		})
		if err != nil {
			return err
		}
		last = res
		s := plot.Series{Name: fmt.Sprintf("seed %d: best second mover", seed)}
		for _, g := range res.Generations {
			s.X, s.Y = append(s.X, float64(g.N)), append(s.Y, 100*g.BestSecond)
		}
		series = append(series, s)
		fmt.Fprintf(stdout, "seed %d: heuristic beaten at generation %s, exhaustive search at %s (%d generations)\n",
			seed, gen(res.FirstBeatHS), gen(res.FirstBeatES), len(res.Generations))
		if res.FirstBeatES > 0 {
			sumES += res.FirstBeatES
			beatenES++
		}
		if res.FirstBeatHS > 0 {
			sumHS += res.FirstBeatHS
			beatenHS++
		}
	}
	fmt.Fprintf(stdout, "mean generation of the first win: heuristic %s (%d of %d runs), exhaustive search %s (%d of %d runs); %s\n",
		mean(sumHS, beatenHS), beatenHS, f.runs, mean(sumES, beatenES), beatenES, f.runs, humantime.Round(time.Since(start)))

	file, err := model.NewFile(f.game, last.BestSecond, model.Training{Method: "coevo", Games: 0, Seed: f.seed + uint64(f.runs-1), Seat: "white",
		Note: fmt.Sprintf("best second mover after %d generations of %d networks a side", len(last.Generations), f.population)})
	if err != nil {
		return err
	}
	if err := file.Save(f.out); err != nil {
		return err
	}
	err = atomicfile.Write(base+".csv", func(w io.Writer) error {
		cw := csv.NewWriter(w)
		_ = cw.Write([]string{"seed", "generation", "best_first", "mean_first", "best_second", "mean_second", "beat_es", "beat_hs", "first_beat_hs"})
		_ = cw.WriteAll(rows)
		return cw.Error()
	})
	if err != nil {
		return err
	}
	ch := plot.Chart{Title: "co-evolution on 4x4 Othello", XLabel: "generation", YLabel: "best fitness (% won)", YMin: 0, YMax: 100, Series: series}
	if err := atomicfile.Write(base+".svg", func(w io.Writer) error { return plot.WriteSVG(w, ch) }); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote %s, %s.csv, %s.svg\n", f.out, base, base)
	return nil
}

func ff(x float64) string { return strconv.FormatFloat(x, 'f', 4, 64) }

func gen(n int) string {
	if n == 0 {
		return "never"
	}
	return strconv.Itoa(n)
}

func mean(sum, n int) string {
	if n == 0 {
		return "-"
	}
	return strconv.FormatFloat(float64(sum)/float64(n), 'f', 1, 64)
}

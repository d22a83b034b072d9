package coevo

import (
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"strconv"

	"github.com/arenaref/arena/internal/atomicfile"
	"github.com/arenaref/arena/lab/plot"
	"github.com/arenaref/arena/players/ai/learn/model"
)

// Series is the experiment of arena train --method coevo: runs of one Config with the
// seeds Seed, Seed+1, ..., each stopping once its best second mover has beaten both
// enemies.
type Series struct {
	Config  Config // the first run's; run i has Seed + i
	Results []Result
}

// RunSeries plays runs runs of cfg with StopWhenBeaten, calling done after each.
func RunSeries(ctx context.Context, cfg Config, runs int, done func(seed uint64, r Result)) (Series, error) {
	cfg.StopWhenBeaten = true
	s := Series{Config: cfg}
	for i := range runs {
		c := cfg
		c.Seed = s.Seed(i)
		res, err := Run(ctx, c, nil)
		if err != nil {
			return s, err
		}
		s.Results = append(s.Results, res)
		if done != nil {
			done(c.Seed, res)
		}
	}
	return s, nil
}

// Seed returns the seed of run i.
func (s Series) Seed(i int) uint64 { return s.Config.Seed + uint64(i) }

// FirstBeats returns the mean generation at which the best second mover first beat HS
// and ES over the runs where it did, and in how many runs it did (a mean of 0 when
// none did).
func (s Series) FirstBeats() (meanHS float64, beatenHS int, meanES float64, beatenES int) {
	var sumHS, sumES int
	for _, r := range s.Results {
		if r.FirstBeatES > 0 {
			sumES += r.FirstBeatES
			beatenES++
		}
		if r.FirstBeatHS > 0 {
			sumHS += r.FirstBeatHS
			beatenHS++
		}
	}
	if beatenHS > 0 {
		meanHS = float64(sumHS) / float64(beatenHS)
	}
	if beatenES > 0 {
		meanES = float64(sumES) / float64(beatenES)
	}
	return meanHS, beatenHS, meanES, beatenES
}

// Summary is the series' result in one line: the mean generation of the first win over
// each enemy, and in how many of the runs it came.
func (s Series) Summary() string {
	meanHS, beatenHS, meanES, beatenES := s.FirstBeats()
	mean := func(m float64, n int) string {
		if n == 0 {
			return "-"
		}
		return strconv.FormatFloat(m, 'f', 1, 64)
	}
	return fmt.Sprintf("mean generation of the first win: heuristic %s (%d of %d runs), exhaustive search %s (%d of %d runs)",
		mean(meanHS, beatenHS), beatenHS, len(s.Results), mean(meanES, beatenES), beatenES, len(s.Results))
}

// Describe is the result of the run with seed in one line: the generations at which its
// best second mover first beat each enemy.
func (r Result) Describe(seed uint64) string {
	gen := func(n int) string {
		if n == 0 {
			return "never"
		}
		return strconv.Itoa(n)
	}
	return fmt.Sprintf("seed %d: heuristic beaten at generation %s, exhaustive search at %s (%d generations)",
		seed, gen(r.FirstBeatHS), gen(r.FirstBeatES), len(r.Generations))
}

// File returns the weights file of the last run's best second mover.
func (s Series) File() (*model.File, error) {
	last := s.Results[len(s.Results)-1]
	return model.NewFile(GameSpec, last.BestSecond, model.Training{Method: "coevo", Games: 0, Seed: s.Seed(len(s.Results) - 1), Seat: "white",
		Note: fmt.Sprintf("best second mover after %d generations of %d networks a side", len(last.Generations), s.Config.withDefaults().Population)})
}

// WriteCurves writes every run's generations as BASE.csv and a chart of the best second
// mover's fitness in each run as BASE.svg.
func (s Series) WriteCurves(base string) error {
	ff := func(x float64) string { return strconv.FormatFloat(x, 'f', 4, 64) }
	var rows [][]string
	var series []plot.Series
	for i, res := range s.Results {
		seed := s.Seed(i)
		line := plot.Series{Name: fmt.Sprintf("seed %d: best second mover", seed)}
		for _, g := range res.Generations {
			rows = append(rows, []string{
				strconv.FormatUint(seed, 10), strconv.Itoa(g.N),
				ff(g.BestFirst), ff(g.MeanFirst), ff(g.BestSecond), ff(g.MeanSecond),
				strconv.FormatBool(g.BeatES), strconv.FormatBool(g.BeatHS), strconv.FormatBool(g.FirstBeatHS),
			})
			line.X, line.Y = append(line.X, float64(g.N)), append(line.Y, 100*g.BestSecond)
		}
		series = append(series, line)
	}
	err := atomicfile.Write(base+".csv", func(w io.Writer) error {
		cw := csv.NewWriter(w)
		_ = cw.Write([]string{"seed", "generation", "best_first", "mean_first", "best_second", "mean_second", "beat_es", "beat_hs", "first_beat_hs"})
		_ = cw.WriteAll(rows)
		return cw.Error()
	})
	if err != nil {
		return err
	}
	ch := plot.Chart{Title: "co-evolution on 4x4 Othello", XLabel: "generation", YLabel: "best fitness (% won)", YMin: 0, YMax: 100, Series: series}
	return atomicfile.Write(base+".svg", func(w io.Writer) error { return plot.WriteSVG(w, ch) })
}

package train

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"

	"github.com/arenaref/arena/internal/atomicfile"
	"github.com/arenaref/arena/lab/plot"
	"github.com/arenaref/arena/players/ai/learn/model"
)

// Window is the win rate of the last Size games, as a training run's progress shows it.
type Window struct {
	Size    int
	results []int
	wins    int
}

// Add records a game's result (positive: a win).
func (w *Window) Add(r int) {
	w.results = append(w.results, r)
	if r > 0 {
		w.wins++
	}
	if len(w.results) > w.Size {
		if w.results[0] > 0 {
			w.wins--
		}
		w.results = w.results[1:]
	}
}

// Len is the number of games the window holds.
func (w *Window) Len() int { return len(w.results) }

// Rate is the share of the window's games won, in percent.
func (w *Window) Rate() float64 { return 100 * float64(w.wins) / float64(max(1, len(w.results))) }

// Label names the games the window holds, given how many the training has played in all:
// "the last 500", or "all 300 games" when it holds every one (a run shorter than the window).
// After a resume the window holds only the games played since.
func (w *Window) Label(played int) string {
	if len(w.results) == played {
		return fmt.Sprintf("all %d games", played)
	}
	return fmt.Sprintf("the last %d", len(w.results))
}

// WriteCurve writes the learning curve as BASE.csv (the training win rate and the score
// against each test opponent at every point) and BASE.svg.
func (t *Trainer) WriteCurve(base string) error {
	cfg, st := t.cfg, t.st
	err := atomicfile.Write(base+".csv", func(w io.Writer) error {
		cw := csv.NewWriter(w)
		head := []string{"games", "wins", "draws", "losses", "win_rate"}
		for _, o := range Pooled(cfg.Test, nil) {
			head = append(head, "test_"+o.Opponent)
		}
		_ = cw.Write(head)
		for _, p := range st.FullCurve() {
			row := []string{strconv.Itoa(p.Games), strconv.Itoa(p.Wins), strconv.Itoa(p.Draws), strconv.Itoa(p.Losses), strconv.FormatFloat(p.WinRate(), 'f', 2, 64)}
			for _, sc := range Pooled(cfg.Test, p.Test) {
				row = append(row, strconv.FormatFloat(sc.Score(), 'f', 2, 64))
			}
			_ = cw.Write(row)
		}
		cw.Flush()
		return cw.Error()
	})
	if err != nil {
		return err
	}
	ch := plot.Chart{
		Title:  fmt.Sprintf("%s on %s (seed %d)", cfg.Method, cfg.Game, cfg.Seed),
		XLabel: "training games", YLabel: "%", YMin: 0, YMax: 100,
	}
	trainS := plot.Series{Name: fmt.Sprintf("training win rate (per %d games)", cfg.Every)}
	pooled := Pooled(cfg.Test, nil)
	tests := make([]plot.Series, len(pooled))
	for i, o := range pooled {
		tests[i].Name = "test score against " + o.Opponent
	}
	for _, p := range st.FullCurve() {
		if p.Wins+p.Draws+p.Losses > 0 { // not the test before training
			trainS.X, trainS.Y = append(trainS.X, float64(p.Games)), append(trainS.Y, p.WinRate())
		}
		for i, sc := range Pooled(cfg.Test, p.Test) {
			if i < len(tests) {
				tests[i].X, tests[i].Y = append(tests[i].X, float64(p.Games)), append(tests[i].Y, sc.Score())
			}
		}
	}
	ch.Series = append([]plot.Series{trainS}, tests...)
	return atomicfile.Write(base+".svg", func(w io.Writer) error { return plot.WriteSVG(w, ch) })
}

// File returns the weights file of the search's result, recording the search; version
// is Arena's.
func (r *TuneResult) File(version string) (*model.File, error) {
	cfg := r.Config
	tr := model.Training{Method: MethodTune, Games: int(r.Games), Seed: cfg.Seed, Seat: cfg.Seat, Depth: cfg.Depth, Arena: version,
		Note: fmt.Sprintf("cross-entropy method: %d generations of %d candidates, %d games each against each opponent", cfg.Generations, cfg.Population, cfg.Games)}
	for _, o := range cfg.Opponents {
		tr.Opponents = append(tr.Opponents, o.Name)
	}
	for _, sc := range r.Final {
		tr.Wins, tr.Draws, tr.Losses = tr.Wins+sc.Wins, tr.Draws+sc.Draws, tr.Losses+sc.Losses
	}
	return model.NewFile(cfg.Game, r.Weights, tr)
}

// WriteCurve writes one line per generation as BASE.csv and a chart of the best
// candidate's and the elite's scores as BASE.svg.
func (r *TuneResult) WriteCurve(base string) error {
	cfg := r.Config
	ff := func(x float64) string { return strconv.FormatFloat(x, 'f', 4, 64) }
	err := atomicfile.Write(base+".csv", func(w io.Writer) error {
		cw := csv.NewWriter(w)
		_ = cw.Write([]string{"generation", "games", "best", "elite_mean", "sigma_mean"})
		for _, g := range r.Generations {
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
	for _, g := range r.Generations {
		best.X, best.Y = append(best.X, float64(g.N)), append(best.Y, g.Best)
		elite.X, elite.Y = append(elite.X, float64(g.N)), append(elite.Y, g.EliteMean)
	}
	ch := plot.Chart{Title: fmt.Sprintf("tuning a strategy network on %s (seed %d)", cfg.Game, cfg.Seed),
		XLabel: "generation", YLabel: fmt.Sprintf("score over %d games a candidate (%%)", cfg.Games*len(cfg.Opponents)), YMin: 0, YMax: 100,
		Series: []plot.Series{best, elite}}
	return atomicfile.Write(base+".svg", func(w io.Writer) error { return plot.WriteSVG(w, ch) })
}

// CheckpointError is a checkpoint that Open found but cannot carry on from: unreadable,
// or of another training.
type CheckpointError struct{ Err error }

func (e *CheckpointError) Error() string { return e.Err.Error() }
func (e *CheckpointError) Unwrap() error { return e.Err }

// Open returns a trainer for cfg: resumed from the checkpoint at path when there is one
// (resumed is then true), or new when there is none or restart is set. A checkpoint that
// cannot be resumed is a *CheckpointError; any other error is cfg's (ErrConfig).
func Open(cfg Config, path string, restart bool) (t *Trainer, resumed bool, err error) {
	if !restart {
		st, err := LoadCheckpoint(path)
		switch {
		case err == nil:
			if t, err = Resume(cfg, st); err != nil {
				return nil, false, &CheckpointError{fmt.Errorf("%s: %w", path, err)}
			}
			return t, true, nil
		case !errors.Is(err, os.ErrNotExist):
			return nil, false, &CheckpointError{err}
		}
	}
	t, err = New(cfg)
	return t, false, err
}

package coevo

import (
	"context"
	"encoding/csv"
	"os"
	"path/filepath"
	"testing"
)

func TestSeriesFirstBeats(t *testing.T) {
	tests := []struct {
		name           string
		results        []Result
		meanHS, meanES float64
		hs, es         int
	}{
		{"no run", nil, 0, 0, 0, 0},
		{"never beaten", []Result{{}, {}}, 0, 0, 0, 0},
		{"means over the runs that beat", []Result{{FirstBeatHS: 3, FirstBeatES: 10}, {FirstBeatHS: 6}, {}}, 4.5, 10, 2, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			meanHS, hs, meanES, es := Series{Results: tt.results}.FirstBeats()
			if meanHS != tt.meanHS || hs != tt.hs || meanES != tt.meanES || es != tt.es {
				t.Errorf("got HS %g (%d runs), ES %g (%d runs); want %g (%d), %g (%d)", meanHS, hs, meanES, es, tt.meanHS, tt.hs, tt.meanES, tt.es)
			}
		})
	}
}

func TestSeriesSummary(t *testing.T) {
	tests := []struct {
		results []Result
		want    string
	}{
		{[]Result{{}, {}}, "mean generation of the first win: heuristic - (0 of 2 runs), exhaustive search - (0 of 2 runs)"},
		{[]Result{{FirstBeatHS: 3, FirstBeatES: 10}, {FirstBeatHS: 6}, {}}, "mean generation of the first win: heuristic 4.5 (2 of 3 runs), exhaustive search 10.0 (1 of 3 runs)"},
	}
	for _, tt := range tests {
		if got := (Series{Results: tt.results}).Summary(); got != tt.want {
			t.Errorf("Summary() = %q, want %q", got, tt.want)
		}
	}
	r := Result{FirstBeatHS: 4, Generations: make([]Generation, 9)}
	if got, want := r.Describe(3), "seed 3: heuristic beaten at generation 4, exhaustive search at never (9 generations)"; got != want {
		t.Errorf("Describe(3) = %q, want %q", got, want)
	}
}

func TestRunSeries(t *testing.T) {
	var seeds []uint64
	s, err := RunSeries(context.Background(), Config{Population: 4, Generations: 2, Seed: 7}, 2, func(seed uint64, _ Result) { seeds = append(seeds, seed) })
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Results) != 2 || len(seeds) != 2 || seeds[0] != 7 || seeds[1] != 8 {
		t.Fatalf("%d results, seeds %v", len(s.Results), seeds)
	}
	f, err := s.File()
	if err != nil {
		t.Fatal(err)
	}
	if f.Training.Seed != 8 || f.Training.Seat != "white" {
		t.Errorf("weights file training %+v, want the last run's (seed 8), white", f.Training)
	}
	base := filepath.Join(t.TempDir(), "coevo")
	if err := s.WriteCurves(base); err != nil {
		t.Fatal(err)
	}
	fh, err := os.Open(base + ".csv")
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	rows, err := csv.NewReader(fh).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if want := 1 + len(s.Results[0].Generations) + len(s.Results[1].Generations); len(rows) != want || rows[1][0] != "7" {
		t.Errorf("CSV has %d rows, want %d; first %v", len(rows), want, rows[1])
	}
	if fi, err := os.Stat(base + ".svg"); err != nil || fi.Size() == 0 {
		t.Errorf("chart: %v", err)
	}
}
